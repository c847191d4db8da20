// Rules D1 and D3–D5, 4.5: losses dated to counted days, healing, and the conversion of captured
// armies.

package battle

import "github.com/coalition-wargame/coalition/domain"

// clearWounds forgets the army's unhealed losses: they date from before its count (D1).
func clearWounds(a *domain.Army) {
	for j := range a.Troops {
		if a.Troops[j].Wounds != nil {
			a.OwnTroops()
			a.Troops[j].Wounds = nil
		}
	}
}

// attribute records this update's losses against the army's current count (D1).
func attribute(a *domain.Army, losses map[string]int) {
	if a.Days == 0 || len(losses) == 0 {
		return
	}
	a.OwnTroops()
	for c, n := range losses {
		t := a.Troop(c)
		if t == nil || n == 0 {
			continue
		}
		if k := len(t.Wounds); k > 0 && t.Wounds[k-1].Day == a.Days {
			t.Wounds[k-1].Count += n
		} else {
			t.Wounds = append(t.Wounds, domain.Wound{Day: a.Days, Count: n})
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
	a.OwnTroops()
	var out map[string]int
	for i := range a.Troops {
		t := &a.Troops[i]
		limit := upTo
		if color != "" && t.HasColor(color) {
			limit++
		}
		if limit < 0 {
			continue
		}
		tracked := 0
		for _, w := range t.Wounds {
			tracked += w.Count
		}
		n := max(t.Full-t.Alive-tracked, 0)
		kept := t.Wounds[:0]
		for _, w := range t.Wounds {
			if w.Day <= limit {
				n += w.Count
			} else {
				kept = append(kept, w)
			}
		}
		t.Wounds = kept
		if len(t.Wounds) == 0 {
			t.Wounds = nil
		}
		n = min(n, t.Full-t.Alive)
		if n > 0 {
			t.Alive += n
			if out == nil {
				out = map[string]int{}
			}
			out[t.Creature] = n
		}
	}
	return out
}

// convert counts a partially converted army's days wherever it stands; after 2 it is fully
// converted, and healed if it stands on a base, portal or town (4.5).
func convert(a *domain.Army, s *domain.Site, left, noCount bool, ch *Changes) {
	switch {
	case left:
		a.Days = 0
		return
	case noCount:
		return
	}
	a.Days++
	if a.Days < 2 {
		return
	}
	a.Capture.Converted = true
	ch.Converted = append(ch.Converted, a.Name)
	if s != nil && !s.Destroyed {
		a.OwnTroops()
		h := map[string]int{}
		for i := range a.Troops {
			t := &a.Troops[i]
			if t.Full > t.Alive {
				h[t.Creature] = t.Full - t.Alive
				t.Alive = t.Full
			}
			t.Wounds = nil
		}
		if len(h) > 0 {
			ch.Healed[a.Name] = h
		}
	}
}
