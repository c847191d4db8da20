package campaign

import (
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// amended is turn t's map as it stands: its opening map with the turn's amendments (army
// edits, troop changes, customisations) and sanctions applied in the order they were made. It
// is a copy the caller may change; the control list is not applied (applyControl does that).
// Amendments apply at once to the map everyone sees, and the lock adjudicates this map, so a
// replay applies them again from what is stored.
func amended(r Reader, t *Turn) (*domain.Map, error) {
	am, err := r.Amendments(t.ID)
	if err != nil {
		return nil, err
	}
	sn, err := r.Sanctions(t.ID)
	if err != nil {
		return nil, err
	}
	m := t.Snapshot.Clone()
	if err := applyChanges(m, am, sn); err != nil {
		return nil, err
	}
	return m, nil
}

// applyChanges applies amendments and sanctions to m by time, an amendment before a sanction
// made at the same moment.
func applyChanges(m *domain.Map, am []Amendment, sn []Sanction) error {
	i, j := 0, 0
	for i < len(am) || j < len(sn) {
		if j == len(sn) || (i < len(am) && !am[i].At.After(sn[j].At)) {
			if err := applyAmendment(m, &am[i]); err != nil {
				return err
			}
			i++
			continue
		}
		applySanction(m, &sn[j])
		j++
	}
	return nil
}

// applyAmendment carries out one amendment on m. An amendment that names an army the map
// does not hold is a bug: amendments are made against the map as it stands.
func applyAmendment(m *domain.Map, am *Amendment) error {
	p := &am.Patch
	if am.Kind == ArmyCreated {
		if p.Army == nil {
			return domain.Errorf(domain.ErrInvalid, "amendment %d creates no army", am.ID)
		}
		m.Armies = append(m.Armies, p.Army.Clone())
		return nil
	}
	a := m.Army(am.Army)
	if a == nil {
		return domain.Errorf(domain.ErrInvalid, "amendment %d (%s) names %s, which is not on the map", am.ID, am.Kind, am.Army)
	}
	if p.Name != "" {
		a.Name = p.Name
	}
	if p.Rank != 0 {
		a.Rank = p.Rank
	}
	if !p.At.IsZero() && p.At != a.At {
		a.At, a.Days, a.Plan = p.At, 0, nil
	}
	if p.Colors != nil {
		a.Colors = slices.Clone(p.Colors)
	}
	if p.Legend != nil {
		a.Legend = *p.Legend
	}
	if p.Troops != nil {
		a.Troops = make([]domain.Troop, len(p.Troops))
		for k, tr := range p.Troops {
			tr.Colors = slices.Clone(tr.Colors)
			tr.Wounds = nil
			a.Troops[k] = tr
		}
	}
	return nil
}

// applySanction takes a sanction's losses from its army's living troops (5.4.1): they are
// lost like battle losses, and heal like them.
func applySanction(m *domain.Map, s *Sanction) {
	a := m.Army(s.Army)
	if a == nil {
		return
	}
	for c, n := range s.Losses {
		if t := a.Troop(c); t != nil {
			t.Alive -= min(n, t.Alive)
		}
	}
}
