// Rules D2, D7 and D8 (1.7): where armies count days, bases and portals destroyed, and the end of
// the round.

package battle

import (
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// sites finds the site on a square in constant time while the map is updated.
type sites struct {
	m  *domain.Map
	at []int16
}

// indexSites indexes the map's sites by square in *mem.
func indexSites(m *domain.Map, mem *[]int16) sites {
	*mem = zeroed(*mem, m.Grid.Size())
	x := sites{m: m, at: *mem}
	for i, s := range m.Sites {
		if m.Grid.Contains(s.At) {
			x.at[m.Grid.Index(s.At)] = int16(i + 1)
		}
	}
	return x
}

// of returns the site on square s, or nil.
func (x sites) of(s domain.Square) *domain.Site {
	if !x.m.Grid.Contains(s) {
		return nil
	}
	if i := x.at[x.m.Grid.Index(s)]; i > 0 {
		return &x.m.Sites[i-1]
	}
	return nil
}

// Countable reports whether army a counts days where it stands (D2).
func Countable(m *domain.Map, a *domain.Army) bool { return countable(m, a, m.SiteAt(a.At)) }

// countable is Countable for the site s the army stands on.
func countable(m *domain.Map, a *domain.Army, s *domain.Site) bool {
	if s == nil || s.Destroyed || !a.Side.IsTeam() {
		return false
	}
	switch {
	case s.Side == a.Side.Opponent() && s.Kind != domain.Town:
		return true
	case s.Kind == domain.Town:
		if a.Rank.Lowest() {
			return true
		}
	case s.Side == a.Side && a.Side == domain.Phyrexia && s.Kind == domain.Portal:
		return true
	case s.Side == a.Side && a.Side == domain.Coalition && s.Kind == domain.Base && a.HasColor(s.Color):
		return true
	}
	return s.Side == a.Side && s.WinCondition && AllWinConditionsDestroyed(m, a.Side.Opponent())
}

// AllWinConditionsDestroyed reports whether side has win-condition sites and every one is
// destroyed (1.7.2).
func AllWinConditionsDestroyed(m *domain.Map, side domain.Side) bool {
	n := 0
	for _, s := range m.Sites {
		if s.Side == side && s.WinCondition {
			if !s.Destroyed {
				return false
			}
			n++
		}
	}
	return n > 0
}

// destroy destroys every enemy base or portal on which an army had counted 4 days when the
// turn opened and has stayed all turn (1.7.1, D7): the armies of cand, in map order, found so
// by Update.
func destroy(m *domain.Map, x sites, cand []int32, ch *Changes) {
	for _, i := range cand {
		if s := x.of(m.Armies[i].At); !s.Destroyed {
			s.Destroyed = true
			ch.Destroyed = append(ch.Destroyed, s.Name)
		}
	}
	if len(ch.Destroyed) == 0 {
		return
	}
	for i := range m.Armies {
		a := &m.Armies[i]
		if s := x.of(a.At); s != nil && s.Destroyed && slices.Contains(ch.Destroyed, s.Name) {
			a.Days = 0
			a.ClearWounds()
		}
	}
}

// decide ends the round (D8): a side whose win conditions are all destroyed loses when an
// enemy army counts 4 days on one of its own win conditions; a side that had an army of rank
// Captain/Evincar or above and has none left loses at once. Update has set every army's win
// count to 0 but those of cand, in map order, which stand on a win condition of their side.
func decide(m *domain.Map, x sites, cand []int32, day []uint8) {
	// only days counted once every enemy win condition is destroyed count toward the win
	// (1.7.2: "the other team must move an army into one of their own Win Conditions and
	// count 4 days"); being defeated or moving starts the count again
	var winner domain.Side
	for _, i := range cand {
		a := &m.Armies[i]
		if s := x.of(a.At); s.Destroyed || !AllWinConditionsDestroyed(m, a.Side.Opponent()) {
			a.WinDays = 0
			continue
		}
		if day[i]&dayMoved != 0 {
			// an army that moves, or is defeated and pushed away, starts again from 0 (1.7.2:
			// 4 days counted in one win condition); the day it moves in may be its first
			a.WinDays = 0
		}
		if day[i]&dayCounted == 0 {
			// attacked, the day waits for the battle (1.5); the count goes on if it wins
			continue
		}
		a.WinDays++
		if a.WinDays >= 4 && winner == "" {
			winner = a.Side
		}
	}
	if m.Winner != "" {
		return
	}
	// a side left with no Captain/Evincar-rank army loses "at once" (D8): in the battles,
	// before the update counts the day that would win (R108)
	var losers []domain.Side
	for _, side := range m.Leaders {
		has := false
		for i := range m.Armies {
			if m.Armies[i].Side == side && m.Armies[i].Rank.Leader() {
				has = true
				break
			}
		}
		if !has {
			losers = append(losers, side)
		}
	}
	if len(losers) == 1 {
		m.Winner = losers[0].Opponent()
		return
	}
	m.Winner = winner
}
