// Dice: a turn's published randomness and the server's own check of it (B5, B6).

package campaign

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/domain"
)

// DiceView is what a turn publishes about its randomness (B6), in the form
// `coalition verify-dice` reads: the commitment when the turn opens; the seed and every roll
// made for its battles and sanctions once it is locked.
type DiceView struct {
	Turn       int           `json:"turn"`
	Commitment string        `json:"commitment"`
	Seed       string        `json:"seed,omitempty"`
	Rolls      []battle.Roll `json:"rolls"`
}

// rolls lists the rolls of a turn's battles (by square) and sanctions (in order).
func (d *deskTurn) rolls() []battle.Roll {
	ps := slices.Clone(d.proposals)
	slices.SortFunc(ps, func(a, b ProposalRecord) int {
		return cmp.Or(cmp.Compare(a.Square.Col, b.Square.Col), cmp.Compare(a.Square.Row, b.Square.Row))
	})
	out := []battle.Roll{}
	for _, p := range ps {
		out = append(out, p.Proposal.Rolls...)
	}
	for _, s := range d.sanctions {
		out = append(out, s.Roll)
	}
	return out
}

// Dice publishes turn n's randomness: anyone may read it. The seed and the rolls come with the
// lock; before it only the commitment is shown.
func (s *Service) Dice(ctx context.Context, a Actor, id int64, n int) (*DiceView, error) {
	var out *DiceView
	err := s.store.Read(ctx, func(r Reader) error {
		d, err := loadDesk(r, a, id, n)
		if err != nil {
			return err
		}
		if !maySeeDice(d.x) {
			return d.x.refuse("see the dice")
		}
		out = &DiceView{Turn: n, Commitment: d.t.Commitment, Rolls: []battle.Roll{}}
		if d.t.Published() {
			out.Seed, out.Rolls = d.t.Seed.String(), d.rolls()
		}
		return nil
	})
	return out, err
}

// DiceCheck is the server's own check of a locked turn's publication: the seed against the
// commitment, every roll re-derived from the seed (B6).
type DiceCheck struct {
	Turn       int               `json:"turn"`
	Commitment string            `json:"commitment"`
	Seed       string            `json:"seed"`
	Rolls      int               `json:"rolls"`
	OK         bool              `json:"ok"`
	Mismatches []battle.Mismatch `json:"mismatches"`
	Detail     string            `json:"detail"`
}

// VerifyDice re-rolls every published die of locked turn n from its revealed seed and checks
// the seed against the commitment published when the turn opened; anyone may ask.
func (s *Service) VerifyDice(ctx context.Context, a Actor, id int64, n int) (*DiceCheck, error) {
	v, err := s.Dice(ctx, a, id, n)
	if err != nil {
		return nil, err
	}
	if v.Seed == "" {
		return nil, domain.Errorf(domain.ErrNotFound, "turn %d is not locked yet: its seed is revealed at the lock", n)
	}
	pub := battle.Publication{Commitment: v.Commitment, Seed: v.Seed, Rolls: v.Rolls}
	ms, err := pub.Check()
	if err != nil {
		return nil, err
	}
	out := &DiceCheck{Turn: n, Commitment: v.Commitment, Seed: v.Seed, Rolls: len(v.Rolls), OK: len(ms) == 0, Mismatches: nonNil(ms)}
	if out.OK {
		out.Detail = fmt.Sprintf("the seed's SHA-256 is the commitment, and the seed gives every one of the %d rolls", len(v.Rolls))
	} else {
		out.Detail = fmt.Sprintf("%d of the publication's checks fail: %s", len(ms), ms[0])
	}
	return out, nil
}
