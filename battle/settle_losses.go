// Rules B7, 4.3.2 and 4.5: losses taken from the armies of a battle, the judge's and the troops
// risked on an attempt (R37).

package battle

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// overLoss is a loss the judge gave that was larger than the troops alive (R37).
type overLoss struct {
	army, creature string
	asked, alive   int
}

// overNotes are the notes of the losses larger than the troops alive, in order of army and
// creature: the army lost those it had (R37).
func (lg *Ledger) overNotes() []string {
	if len(lg.over) == 0 {
		return nil
	}
	slices.SortFunc(lg.over, func(x, y overLoss) int {
		return cmp.Or(strings.Compare(x.army, y.army), strings.Compare(x.creature, y.creature))
	})
	notes := make([]string, len(lg.over))
	for i, o := range lg.over {
		notes[i] = fmt.Sprintf("%s lost %d %s but had only %d alive, so it loses those %d (B7, R37)", o.army, o.asked, o.creature, o.alive, o.alive)
	}
	return notes
}

// wounds takes the result's losses from the armies of the battle (B7). They are taken in any
// order, which comes to the same; when one does not fit, the error is the one taking them in
// order of army and creature meets first.
func (lg *Ledger) wounds(m *domain.Map, f *fight, losses map[string]map[string]int) error {
	for name, l := range losses {
		i := f.in(m, name)
		if i < 0 || !lg.wound(&m.Armies[i], l) {
			return lg.woundError(m, f, losses)
		}
	}
	return nil
}

// wound takes losses from an army's troops; it reports false, having taken none, when one of
// them does not fit.
func (lg *Ledger) wound(a *domain.Army, losses map[string]int) bool {
	if len(losses) == 0 {
		return true
	}
	if a.Troops == nil {
		return false
	}
	type loss struct{ i, n int }
	var buf [8]loss
	ls := buf[:0]
	for c, n := range losses {
		i := a.TroopIndex(c)
		if i < 0 || n < 0 {
			return false
		}
		ls = append(ls, loss{i, n})
	}
	var l map[string]int
	for _, x := range ls {
		t := &a.Troops[x.i]
		if x.n > t.Alive {
			lg.over = append(lg.over, overLoss{a.Name, t.Creature, x.n, t.Alive})
		}
		n := a.Lose(x.i, x.n)
		if n == 0 {
			continue
		}
		if l == nil {
			l = lg.losses(a)
		}
		l[a.Troops[x.i].Creature] += n
	}
	return true
}

// woundError is the error of the first loss, in order of army and creature, that does not fit
// its battle.
func (lg *Ledger) woundError(m *domain.Map, f *fight, losses map[string]map[string]int) error {
	var buf [8]string
	for _, name := range sortedKeys(losses, buf[:]) {
		i := f.in(m, name)
		if i < 0 {
			return domain.Errorf(domain.ErrInvalid, "the result at %s gives losses for %s, which is not in that battle", f.b.Square, name)
		}
		a, l := &m.Armies[i], losses[name]
		if len(l) == 0 {
			continue
		}
		if a.Troops == nil {
			return domain.Errorf(domain.ErrInvalid, "%s has no troop list, so its losses at %s cannot be applied", a.Name, f.b.Square)
		}
		var cbuf [8]string
		for _, c := range sortedKeys(l, cbuf[:]) {
			if a.TroopIndex(c) < 0 {
				return domain.Errorf(domain.ErrInvalid, "%s has no %s to lose at %s", a.Name, c, f.b.Square)
			}
			if l[c] < 0 {
				return domain.Errorf(domain.ErrInvalid, "%s cannot lose a negative number of %s", a.Name, c)
			}
		}
	}
	panic("battle: woundError found no error")
}

// losses is the army's entry in Losses, made when it has none.
func (lg *Ledger) losses(a *domain.Army) map[string]int {
	l := lg.Losses[a.Name]
	if l == nil {
		l = map[string]int{}
		lg.Losses[a.Name] = l
	}
	return l
}

// lose kills up to n of the army's troop i and notes them among the update's losses.
func (lg *Ledger) lose(a *domain.Army, i, n int) {
	if n = a.Lose(i, n); n == 0 {
		return
	}
	lg.losses(a)[a.Troops[i].Creature] += n
}

// risk takes the troops killed among those risked: 500 of the top slot for a kill, 2000 of the
// lowest for a capture (4.3.2, 4.5, B9).
func (lg *Ledger) risk(a *domain.Army, n int, top bool) {
	if n <= 0 || a.Troops == nil {
		return
	}
	slot := 0
	for _, t := range a.Troops {
		if t.Alive > 0 && (slot == 0 || (top && t.Slot > slot) || (!top && t.Slot < slot)) {
			slot = t.Slot
		}
	}
	for i := range a.Troops {
		if n == 0 {
			return
		}
		if t := &a.Troops[i]; t.Slot == slot && t.Alive > 0 {
			k := min(n, t.Alive)
			lg.lose(a, i, k)
			n -= k
		}
	}
}
