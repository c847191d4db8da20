// Rules 1.5, D1 and D2: the update after the moves and battles — each army's day count, and the
// order of the update's steps.

package battle

import (
	"github.com/coalition-wargame/coalition/domain"
)

// Turn is what the update needs to know of the turn besides the map and the ledger.
type Turn struct {
	// Start is every army as the turn opened, in map order: the armies of the map before the
	// lock, which the update only reads.
	Start []domain.Army
	// Moves are the moves made at the lock.
	Moves []domain.Move
	// Formed are the battles made at the lock (to be fought next turn).
	Formed []domain.Battle
	// Fought are the battles fought this turn.
	Fought []domain.Battle
	// Transfers are the accepted transfer orders (T3).
	Transfers []domain.TransferOrder
}

// opening returns the index in Start of the named army, or -1. Armies keep their order
// through a lock (some are only removed), so a caller walking the map in order passes back the
// cursor it got, and each lookup continues from there.
func (t Turn) opening(name string, cursor *int) int {
	o := t.Start
	for j := *cursor; j < len(o); j++ {
		if o[j].Name == name {
			*cursor = j + 1
			return j
		}
	}
	for j := 0; j < *cursor && j < len(o); j++ {
		if o[j].Name == name {
			return j
		}
	}
	return -1
}

// Changes is what the update did besides counting days.
type Changes struct {
	// Rejected are transfers cancelled because the receiver moved away (T3).
	Rejected []domain.Rejection
	// Healed are the troops restored: army → creature → count (D3–D5).
	Healed map[string]map[string]int
	// Converted names captured armies fully converted this turn (4.5).
	Converted []string
	// Destroyed names the sites destroyed this turn (D7).
	Destroyed []string
	// Delivered are the transfers carried out this turn.
	Delivered []domain.TransferOrder
}

// marks of an army's name in Update: what the ledger says of it and whether it is in a battle
// to be fought next turn
const (
	markLost uint8 = 1 << iota
	markDisplaced
	markLosses
	markNext
)

// day is what the update's day count did for an army: counted a day, or moved (day bits)
const (
	dayCounted uint8 = 1 << iota
	dayMoved
)

// Update finishes a lock after the moves and the battles: transfers (T3), day counts (D1, D2),
// healing (D3–D5), conversion of captured armies (4.5), base destruction (D7) and the end of
// the round (D8).
func Update(m *domain.Map, t Turn, lg *Ledger) *Changes {
	ch := &Changes{Healed: map[string]map[string]int{}}
	sc := getScratch()
	defer sc.release()
	marks := markNames(&sc.marks, t, lg)
	transfer(m, t, lg, ch, marks)

	n := len(m.Armies)
	sc.day = zeroed(sc.day, n)
	sc.destroy, sc.wins = sc.destroy[:0], sc.wins[:0]
	x := indexSites(m, &sc.sites)
	cursor := 0
	for i := range m.Armies {
		a := &m.Armies[i]
		var open *domain.Army
		if j := t.opening(a.Name, &cursor); j >= 0 {
			open = &t.Start[j]
		}
		mk := marks.get(a.Name)
		left := open == nil || a.At != open.At || mk&markDisplaced != 0
		if left {
			sc.day[i] |= dayMoved
			// losses of an earlier stay date from before the new count begins (D1, D3)
			a.ClearWounds()
		}
		site := x.of(a.At)
		// base destruction (D7) and the end of the round (D8) wait for every army's count:
		// note the armies that may destroy a site or count toward a win
		win := false
		if site != nil && a.Side.IsTeam() && !site.Destroyed {
			switch {
			case site.Side == a.Side.Opponent() && site.Kind != domain.Town:
				if open != nil && open.At == a.At && mk&markDisplaced == 0 && open.Days >= 4 {
					sc.destroy = append(sc.destroy, int32(i))
				}
			case site.Side == a.Side && site.WinCondition:
				win = true
				sc.wins = append(sc.wins, int32(i))
			}
		}
		if !win {
			a.WinDays = 0
		}
		inNext, lost := mk&markNext != 0, mk&markLost != 0
		if a.Capture != nil && !a.Capture.Converted {
			if convert(a, site, left, inNext || lost, ch) {
				// it has changed side (B9): a conversion day on its new side's win condition
				// counts toward the win as toward destroying an enemy site (R109)
				sc.day[i] |= dayCounted
			}
			if a.Days != 0 && mk&markLosses != 0 {
				attribute(a, lg.Losses[a.Name])
			}
			continue
		}
		can := countable(m, a, site)
		switch {
		case left:
			// moving in counts a day (1.5), even for a winner moved off its square at the
			// settlement; a loser pushed away counts none (D1)
			a.Days = 0
			if can && !inNext && !lost {
				a.Days = 1
				sc.day[i] |= dayCounted
			}
		case inNext:
		case !can || lost:
			a.Days = 0
		default:
			a.Days++
			sc.day[i] |= dayCounted
		}
		if a.Days == 0 {
			if !left { // else cleared above
				a.ClearWounds()
			}
		} else if mk&markLosses != 0 {
			attribute(a, lg.Losses[a.Name])
		}
		if sc.day[i]&dayCounted != 0 {
			if h := heal(a, site); len(h) > 0 {
				ch.Healed[a.Name] = h
			}
		}
	}
	destroy(m, x, sc.destroy, ch)
	decide(m, x, sc.wins, sc.day)
	return ch
}

// markNames sets, in s, the marks of the armies the ledger names as losers, displaced or
// wounded and of those in a battle to be fought next turn (made at the lock or left by the
// settlement).
func markNames(s *nameSet, t Turn, lg *Ledger) *nameSet {
	n := len(lg.Lost) + len(lg.Displaced) + len(lg.Losses)
	for _, bs := range [2][]domain.Battle{t.Formed, lg.Battles} {
		for _, b := range bs {
			n += len(b.Armies)
		}
	}
	s.reset(n)
	for name, v := range lg.Lost {
		if v {
			s.add(name, markLost)
		}
	}
	for name, v := range lg.Displaced {
		if v {
			s.add(name, markDisplaced)
		}
	}
	for name, l := range lg.Losses {
		if len(l) > 0 {
			s.add(name, markLosses)
		}
	}
	for _, bs := range [2][]domain.Battle{t.Formed, lg.Battles} {
		for _, b := range bs {
			for _, name := range b.Armies {
				s.add(name, markNext)
			}
		}
	}
	return s
}
