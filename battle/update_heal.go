// Rules D1 and D3–D5, 4.5: losses dated to counted days, healing, and the conversion of captured
// armies.

package battle

import (
	"math"

	"github.com/coalition-wargame/coalition/domain"
)

// attribute records this update's losses against the army's current count (D1).
func attribute(a *domain.Army, losses map[string]int) {
	if a.Days == 0 || len(losses) == 0 {
		return
	}
	for c, n := range losses {
		if i := a.TroopIndex(c); i >= 0 {
			a.Wound(i, n)
		}
	}
}

// heal restores the losses due at the army's new count (D3–D5) and returns them.
func heal(a *domain.Army, s *domain.Site) map[string]int {
	if s == nil || s.Destroyed || a.Troops == nil {
		return nil
	}
	switch {
	case s.Kind == domain.Portal && s.Side == domain.Phyrexia && a.Side == domain.Phyrexia:
		return healPhyrexian(a)
	case s.Kind == domain.Base && s.Side == domain.Coalition && a.Side == domain.Coalition && a.HasColor(s.Color):
		return restore(a, a.Days-2, s.Color)
	case s.Kind == domain.Town && a.Rank.Lowest() && a.Side == domain.Phyrexia:
		return healPhyrexian(a)
	case s.Kind == domain.Town && a.Rank.Lowest() && a.Side == domain.Coalition:
		return restore(a, a.Days-2, "")
	}
	return nil
}

// healPhyrexian heals as D3 does: at counts 2, 4, 6 … all but the latest day's losses.
func healPhyrexian(a *domain.Army) map[string]int {
	if a.Days%2 != 0 {
		return nil
	}
	return restore(a, a.Days-1, "")
}

// restore heals every loss suffered on a counted day up to upTo, losses from before the count
// began (day 0) included, and returns what it healed; a troop of colour color (none when it
// is "") heals a day more (D4: k+1 for the base's colour, else k+2).
func restore(a *domain.Army, upTo int, color domain.Color) map[string]int {
	if !a.Wounded() {
		return nil
	}
	var out map[string]int
	for i := range a.Troops {
		limit := upTo
		if color != "" && a.Troops[i].HasColor(color) {
			limit++
		}
		if n := a.Heal(i, limit); n > 0 {
			if out == nil {
				out = map[string]int{}
			}
			out[a.Troops[i].Creature] = n
		}
	}
	return out
}

// convert counts a partially converted army's days wherever it stands and reports whether it
// counted one; after 2 it is fully converted, and healed if it stands on a base, portal or
// town (4.5).
func convert(a *domain.Army, s *domain.Site, left, noCount bool, ch *Changes) bool {
	switch {
	case left:
		a.Days = 0
		return false
	case noCount:
		return false
	}
	a.Days++
	if a.Days < 2 {
		return true
	}
	a.Capture.Converted = true
	ch.Converted = append(ch.Converted, a.Name)
	if s != nil && !s.Destroyed {
		h := map[string]int{}
		for i := range a.Troops {
			// every loss heals, whatever day it dates from
			if n := a.Heal(i, math.MaxInt); n > 0 {
				h[a.Troops[i].Creature] = n
			}
		}
		if len(h) > 0 {
			ch.Healed[a.Name] = h
		}
	}
	return true
}
