// Rules 4.3, 4.5 and B9: kill and capture attempts as the rules allow them, captures and
// liberation.

package battle

import (
	"fmt"
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// attempt finds the armies of a kill or capture, which must be enemies fighting in the battle.
func (lg *Ledger) attempt(m *domain.Map, f *fight, at *domain.Attempt, what string) (by, target int, err error) {
	by, target = f.in(m, at.By), f.in(m, at.Target)
	switch {
	case by < 0:
		return -1, -1, domain.Errorf(domain.ErrInvalid, "the %s at %s is made by %s, which is not in that battle", what, f.b.Square, at.By)
	case target < 0:
		return -1, -1, domain.Errorf(domain.ErrInvalid, "the %s at %s targets %s, which is not in that battle", what, f.b.Square, at.Target)
	case !domain.Enemy(m.Armies[by].Side, m.Armies[target].Side):
		return -1, -1, domain.Errorf(domain.ErrInvalid, "%s cannot %s %s: they are on the same side", m.Armies[by].Name, what, m.Armies[target].Name)
	}
	return by, target, nil
}

// possible is the attempt as the rules let it be: one by the side that lost fails, however
// the judge wrote it (4.3.3), and the risked troops are lost all the same.
func (st *Settled) possible(at *domain.Attempt, by *domain.Army, what string) *domain.Attempt {
	if !at.Success || slices.Contains(st.Winners, by.Name) {
		return at
	}
	st.note("%s's %s on %s cannot succeed: %s did not win the battle, so the %s failed (4.3.3)", by.Name, what, at.Target, by.Name, what)
	failed := *at
	failed.Success = false
	return &failed
}

func (st *Settled) note(format string, args ...any) {
	st.Notes = append(st.Notes, fmt.Sprintf(format, args...))
}

// capture hands army ti to the side of army bi and teleports it to the nearest free base or
// portal of that side, else the nearest free town (4.5, B9). It reports false when the army
// has nowhere to go and stays.
func (lg *Ledger) capture(m *domain.Map, bi, ti int, d *domain.Draws) bool {
	by, t := &m.Armies[bi], &m.Armies[ti]
	switch {
	case t.Capture == nil:
		t.Capture = &domain.Capture{Side: t.Side, Colors: t.Colors, Controllers: t.Controllers}
		if by.Side == domain.Coalition && len(by.Colors) > 0 {
			t.Colors = []domain.Color{by.Colors[0]}
		}
	case t.Capture.Side == by.Side:
		t.Colors, t.Controllers = t.Capture.Colors, t.Capture.Controllers
		t.Capture = nil
	default:
		t.Capture.Converted = false
	}
	t.Side = by.Side
	if t.Capture != nil {
		t.Controllers = nil
	}
	t.Plan = nil
	// its 2 days of conversion are counted from its capture, wherever it ends up (4.5)
	t.Days, t.WinDays = 0, 0
	lg.ChangedSides[t.Name] = t.Side
	kind := domain.Base
	if by.Side == domain.Phyrexia {
		kind = domain.Portal
	}
	for _, want := range []domain.SiteKind{kind, domain.Town} {
		var best []domain.Square
		dist := 1 << 30
		for _, s := range m.Sites {
			if s.Kind != want || s.Destroyed || (want != domain.Town && s.Side != by.Side) || lg.occupied(s.At) {
				continue
			}
			switch dd := domain.Steps(s.At, t.At); {
			case dd < dist:
				dist, best = dd, []domain.Square{s.At}
			case dd == dist:
				best = append(best, s.At)
			}
		}
		if len(best) > 0 {
			slices.SortFunc(best, cmpSquare)
			to := best[d.Intn("capture:"+t.Name, len(best))]
			lg.Pushes = append(lg.Pushes, Push{Army: t.Name, From: t.At, To: to, Reason: "captured by " + by.Name})
			lg.sq.move(m, ti, to)
			t.Days = 0
			lg.Displaced[t.Name] = true
			return true
		}
	}
	return false
}

// liberate returns a partially converted army that lost a battle to its old side (4.5).
func (lg *Ledger) liberate(a *domain.Army) {
	c := a.Capture
	a.Side, a.Colors, a.Controllers = c.Side, c.Colors, c.Controllers
	a.Capture = nil
	lg.ChangedSides[a.Name] = a.Side
}

// allowed are the kill and capture a result makes as the rules allow them: the index on the
// map of each one's maker and target, -1 when none is made.
type allowed struct{ killer, kill, captor, capture int }

// allowAttempts checks the result's kill and capture against the battle and the rules (4.3.2,
// 4.3.3, 4.5): an attempt the rules forbid is not made and risks nothing, one by the side that
// lost fails; each is a note on the settled battle (R33). lacks is lacksTopSlot's.
func (lg *Ledger) allowAttempts(m *domain.Map, f *fight, r *domain.BattleResult, st *Settled, lacks int) (allowed, error) {
	a := allowed{-1, -1, -1, -1}
	// "may instead choose to capture it" (4.5): one attempt on an army, not both (R106)
	if r.Kill != nil && r.Capture != nil && domain.SameName(r.Kill.Target, r.Capture.Target) {
		return a, domain.Errorf(domain.ErrInvalid, "the result at %s both kills and captures %s: an army is killed or, instead, captured (4.5), so give one of them", f.b.Square, r.Kill.Target)
	}
	if k := r.Kill; k != nil {
		by, target, err := lg.attempt(m, f, k, "kill")
		if err != nil {
			return a, err
		}
		if lacks >= 0 {
			st.note("%s cannot go for a kill: it had %d troops alive in its top slot (its largest creatures) and needs 500, so no kill was attempted on %s and nothing was risked (4.3.2, 4.5)", m.Armies[by].Name, lacks, m.Armies[target].Name)
			st.Kill = nil
		} else {
			st.Kill = st.hellbent(st.possible(k, &m.Armies[by], "kill"), &m.Armies[by])
			a.killer, a.kill = by, target
		}
	}
	if c := r.Capture; c != nil {
		by, target, err := lg.attempt(m, f, c, "capture")
		if err != nil {
			return a, err
		}
		if t := &m.Armies[target]; !t.Rank.Lowest() {
			st.note("%s cannot capture %s, a %s army: only Lieutenant/Centurion and Lt Commander/CPL armies can be captured, so no capture was attempted and nothing was risked (4.5)", m.Armies[by].Name, t.Name, t.Rank.Name(t.Side))
			st.Capture = nil
		} else {
			st.Capture = st.possible(c, &m.Armies[by], "capture")
			a.captor, a.capture = by, target
		}
	}
	return a, nil
}

// makeAttempts carries out the attempts allowed: the risked troops lost (4.3.2, 4.5), a killed
// army taken off the map (4.3.3), a captured one changing side (4.5). It appends to gone the
// armies killed or captured, which are not pushed, and names a captured army that has nowhere
// to go and stays.
func (lg *Ledger) makeAttempts(m *domain.Map, st *Settled, a allowed, gone []string, d *domain.Draws) ([]string, string) {
	stays := ""
	if k := st.Kill; a.kill >= 0 {
		lg.risk(&m.Armies[a.killer], k.RiskedLost, true)
		if k.Success {
			name := m.Armies[a.kill].Name
			lg.Removed = append(lg.Removed, name)
			lg.Killed = append(lg.Killed, Kill{Army: name, By: m.Armies[a.killer].Side})
			gone = append(gone, name)
			lg.sq.move(m, a.kill, domain.Square{}) // off the map at once: it no longer holds its square
		}
	}
	if c := st.Capture; a.capture >= 0 {
		lg.risk(&m.Armies[a.captor], c.RiskedLost, false)
		if c.Success {
			name := m.Armies[a.capture].Name
			gone = append(gone, name)
			if !lg.capture(m, a.captor, a.capture, d) {
				stays = name
			}
		}
	}
	return gone, stays
}

// Hellbent reports whether a's failed kill attempts cost it nothing: a raider keeps its kill
// squad (6.3.2).
func Hellbent(a *domain.Army) bool { return a.Side == domain.Mercenary && a.Faction == domain.Raider }

// hellbent keeps a raider's kill squad after a failed kill, whatever risked losses the result
// names (6.3.2, R38).
func (st *Settled) hellbent(k *domain.Attempt, by *domain.Army) *domain.Attempt {
	if k.Success || k.RiskedLost == 0 || !Hellbent(by) {
		return k
	}
	st.note("%s is a raider: Hellbent, it keeps its kill squad after a failed kill, so the %d risked troops the result names are not lost (6.3.2)", by.Name, k.RiskedLost)
	kept := *k
	kept.RiskedLost = 0
	return &kept
}
