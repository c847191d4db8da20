// Taking an army off the open turn's map at the armies desk: the judges any army, the mercenary
// judge his mercenaries (chapter 6, 6.3.2).

package campaign

import (
	"context"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/roster"
)

// RemoveArmy takes an army off the open turn's map (judges; the mercenary judge mercenary
// armies, such as a raider he placed by mistake). An army fighting a battle this turn stays
// until the battle is settled. The amendment is kept with the turn, so that a replay removes
// it again.
func (s *Service) RemoveArmy(ctx context.Context, a Actor, id int64, name string) (*ArmyChange, error) {
	var out *ArmyChange
	err := s.store.Write(ctx, func(tx Tx) error {
		d, army, err := s.judgedArmy(ctx, tx, a, id, name, "remove", mayRemoveArmy)
		if err != nil {
			return err
		}
		if d.inBattle(army.Name) {
			return domain.Errorf(domain.ErrConflict, "%s fights a battle this turn: it stays on the map until the battle is settled", army.Name)
		}
		am := &Amendment{TurnID: d.t.ID, Kind: ArmyRemoved, Army: army.Name, By: a.Name(), At: s.now()}
		m := d.m.Clone()
		if err := applyAmendment(m, am); err != nil {
			return err
		}
		if err := m.Validate(); err != nil {
			return err
		}
		if err := tx.AddAmendment(am); err != nil {
			return err
		}
		if err := bumpMap(tx, id); err != nil {
			return err
		}
		if err := tx.AddControl(&ControlEntry{CampaignID: id, Army: army.Name, Controllers: []string{}, EffectiveAt: s.now(), By: a.Name(), Reason: "army removed"}); err != nil {
			return err
		}
		out = &ArmyChange{Army: army.Clone(), Warnings: []roster.Problem{}}
		return s.audit(tx, id, a, "army.remove", "removed %s (%s) from %s", army.Name, army.Side, army.At)
	})
	return out, err
}
