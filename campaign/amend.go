// Amendments: army edits, troop changes, customisations and sanctions applied to a turn's opening
// map in the order they were made.

package campaign

import (
	"slices"
	"time"

	"github.com/coalition-wargame/coalition/domain"
)

// AmendmentKind says what an amendment of the open turn's map is.
type AmendmentKind string

// The kinds of amendment.
const (
	// ArmyCreated is a judge's new army (2.5.2).
	ArmyCreated AmendmentKind = "create"
	// ArmyEdited is a judge's edit of an army (2.5.2).
	ArmyEdited AmendmentKind = "edit"
	// TroopsChanged is a controller's new troop list after counting 2 days (2.3.2, D6).
	TroopsChanged AmendmentKind = "troops"
	// ArmyCustomised is a new player's one customisation (2.6).
	ArmyCustomised AmendmentKind = "customise"
	// ArmyRemoved is a judge's taking an army off the map (the mercenary judge's raiders, 6.3.2).
	ArmyRemoved AmendmentKind = "remove"
)

// Amendment is a change to the open turn's map made between locks: it applies at once to
// the map everyone sees and to the lock's input, and is kept with the turn so that a replay
// applies it again.
type Amendment struct {
	ID     int64         `json:"id"`
	TurnID int64         `json:"-"`
	Kind   AmendmentKind `json:"kind"`
	// Army is the army's name as the amendment found it (the new army's for ArmyCreated).
	Army  string    `json:"army"`
	Patch ArmyPatch `json:"patch"`
	By    string    `json:"by"`
	At    time.Time `json:"at"`
	// Player is the player a customisation belongs to (2.6: one per player).
	Player string `json:"player,omitempty"`
}

// ArmyPatch is what an amendment changes in an army; nil fields are left as they are. For
// ArmyCreated, Army is the whole new army.
type ArmyPatch struct {
	Army   *domain.Army   `json:"army,omitempty"`
	Name   string         `json:"name,omitempty"`
	Rank   domain.Rank    `json:"rank,omitempty"`
	At     domain.Square  `json:"at,omitzero"`
	Colors []domain.Color `json:"colors,omitempty"`
	Legend *string        `json:"legend,omitempty"`
	Troops []domain.Troop `json:"troops,omitempty"`
}

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
	m := t.Snapshot.Map()
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
	if am.Kind == ArmyRemoved {
		m.Armies = slices.DeleteFunc(m.Armies, func(o domain.Army) bool { return o.Name == a.Name })
		return nil
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
		if i := a.TroopIndex(c); i >= 0 {
			a.Lose(i, n)
		}
	}
}
