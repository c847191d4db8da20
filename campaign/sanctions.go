// Sanctions on an army for an order or strategy sent by someone who does not control it (5.4.1).

package campaign

import (
	"context"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/domain"
)

// SanctionExtension is the strategy extension a side gets when one of its armies in a battle
// is sanctioned in the last 24 hours before the battle deadline (5.4.1).
const SanctionExtension = 24 * time.Hour

// Sanction is a troop loss a battle judge laid on an army for an order or strategy sent by
// someone who does not control it (5.4.1): its draw and the troops it cost.
type Sanction struct {
	ID     int64  `json:"id"`
	TurnID int64  `json:"-"`
	Army   string `json:"army"`
	// K numbers the army's sanctions of the turn from 1 (the draw's label).
	K        int            `json:"k"`
	Severity int            `json:"severity"`
	Roll     battle.Roll    `json:"roll"`
	Losses   map[string]int `json:"losses"`
	Reason   string         `json:"reason"`
	By       string         `json:"by"`
	At       time.Time      `json:"at"`
}

// SanctionRequest lays a sanction on an army (5.4.1).
type SanctionRequest struct {
	Army     string `json:"army"`
	Severity int    `json:"severity"`
	Reason   string `json:"reason"`
}

// MaxSeverity is the highest severity factor a sanction may have.
const MaxSeverity = 10

// Sanction lays a sanction on an army for an order or strategy sent by someone who does not
// control it (5.4.1; battle judges only): severity × d20 × (100, 50, 25, 10) troops from slots
// 1–4, the d20 drawn from the turn's seed and published with its dice. It applies at once to
// the open turn's map, so the army fights its battle with the reduced numbers; when the army
// is in a battle and the sanction falls in the last 24 hours before the deadline, its side's
// strategies are due 24 hours later.
func (s *Service) Sanction(ctx context.Context, a Actor, id int64, n int, req SanctionRequest) (*Sanction, error) {
	var out *Sanction
	err := s.store.Write(ctx, func(tx Tx) error {
		d, err := loadDesk(tx, a, id, n)
		if err != nil {
			return err
		}
		if err := d.x.need("sanction an army (battle judges only)", maySanction(d.x)); err != nil {
			return err
		}
		if err := d.open(); err != nil {
			return err
		}
		if strings.TrimSpace(req.Reason) == "" {
			return domain.Errorf(domain.ErrInvalid, "say why: a reason is recorded with every sanction")
		}
		if req.Severity < 1 || req.Severity > MaxSeverity {
			return domain.Errorf(domain.ErrInvalid, "the severity must be 1–%d, not %d", MaxSeverity, req.Severity)
		}
		army := d.m.Army(strings.TrimSpace(req.Army))
		if army == nil {
			return domain.Errorf(domain.ErrNotFound, "there is no army named %q on the map", req.Army)
		}
		if army.Troops == nil {
			return domain.Errorf(domain.ErrInvalid, "%s has no troop list, so it cannot lose troops", army.Name)
		}
		k := 1
		for _, sn := range d.sanctions {
			if domain.SameName(sn.Army, army.Name) {
				k++
			}
		}
		loss, err := battle.Sanction(army.Name, k, req.Severity, d.t.Seed.Draws())
		if err != nil {
			return err
		}
		sn := &Sanction{TurnID: d.t.ID, Army: army.Name, K: k, Severity: req.Severity, Roll: loss.Roll, Losses: loss.Losses(army),
			Reason: strings.TrimSpace(req.Reason), By: a.Name(), At: s.now()}
		if err := tx.AddSanction(sn); err != nil {
			return err
		}
		if err := bumpMap(tx, id); err != nil {
			return err
		}
		out = sn
		lost := 0
		for _, v := range sn.Losses {
			lost += v
		}
		return s.audit(tx, id, a, "army.sanction", "sanction %d on %s in turn %d, severity %d: %d troops lost (%s)", k, army.Name, n, req.Severity, lost, sn.Reason)
	})
	return out, err
}

// Sanctions lists the sanctions laid in turn n: their losses show on the map, so anyone may
// read them.
func (s *Service) Sanctions(ctx context.Context, a Actor, id int64, n int) ([]Sanction, error) {
	var out []Sanction
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, t, err := turnAccess(r, a, id, n)
		if err != nil {
			return err
		}
		if !maySeeSanctions(x) {
			return x.refuse("see the sanctions")
		}
		out, err = r.Sanctions(t.ID)
		return err
	})
	return nonNil(out), err
}
