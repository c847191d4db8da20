// A round's start (2.5): refused until every check of 2.5 and chapter 6 passes; then the round
// becomes a campaign whose first turn opens with its deadline.

package campaign

import (
	"context"
	"fmt"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/round"
)

// StartRequest starts a round; FirstDeadline is the first turn's battle deadline (zero picks
// the first 05:00 UTC a turn length away, as a new campaign's).
type StartRequest struct {
	FirstDeadline *time.Time `json:"first_deadline,omitempty"`
}

// StartRound starts a round that passes every check (the judges): it becomes a campaign with
// the round's map, members and control list, and its first turn opens with its deadline. A round
// with any problem is refused, every problem with its rule.
func (s *Service) StartRound(ctx context.Context, a Actor, id int64, req StartRequest) (*Campaign, error) {
	cat, err := s.Catalogue(ctx)
	if err != nil {
		return nil, err
	}
	var rr *RoundRecord
	err = s.store.Read(ctx, func(r Reader) error {
		var x access
		if rr, x, err = roundAccess(r, a, id); err != nil {
			return err
		}
		if err := x.need("start the round (its judges only)", mayRunRound(x)); err != nil {
			return err
		}
		if rr.Campaign != 0 {
			return domain.Errorf(domain.ErrConflict, "%s has started already, as campaign %d", rr.Name, rr.Campaign)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if ps := round.Check(&rr.Round, rr.players(), cat); len(ps) > 0 {
		return nil, &RoundProblem{What: fmt.Sprintf("%s cannot start: %d checks fail", rr.Name, len(ps)), Problems: ps, kind: domain.ErrConflict}
	}
	su := Setup{Name: rr.Name, Map: round.Map(&rr.Round, rr.players(), cat), Members: rr.Members}
	if req.FirstDeadline != nil {
		su.FirstDeadline = req.FirstDeadline.UTC()
	}
	version := rr.Version
	out, err := s.createCampaign(ctx, a, su, func(tx Tx, c *Campaign) error {
		cur, err := tx.Round(id)
		if err != nil {
			return err
		}
		if cur.Campaign != 0 || cur.Version != version {
			return domain.Errorf(domain.ErrConflict, "%s changed while it was starting: look at it again", rr.Name)
		}
		now := s.now()
		cur.Campaign, cur.StartedAt = c.ID, &now
		cur.Version++
		if err := tx.UpdateRound(cur); err != nil {
			return err
		}
		return s.roundAudit(tx, cur, a, "round.start", "started as campaign %d", c.ID)
	})
	if err != nil {
		return nil, err
	}
	return out.Campaign, nil
}
