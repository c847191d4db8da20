// Locks: a turn locked once, ever, on schedule or on a judge's word, in one transaction through
// turn.Run (3.1, C3, C4).

package campaign

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/turn"
)

// Scheduler is the actor name of locks run on schedule.
const Scheduler = "scheduler"

// lockInput rebuilds what turn.Run gets for a turn: its opening map with every army's
// controllers as the control list stood at the moment given (C4, 5.4.2), the posts not
// withdrawn, their transfer details, the battle results, the seed and the lock time.
//
// With the mercenary AI on (ai.mode), it has the AI's part too (aiInput); a turn whose after-lock edit window closed with an edit has it as Input.Edit, and the
// edit's post is never one of the turn's orders (6.3.2, R41).
func lockInput(r Reader, t *Turn, at time.Time, upTo int64, ai *aiSetup) (*domain.Map, turn.Input, error) {
	m, _, err := controlledMapAt(r, t, at, upTo)
	if err != nil {
		return nil, turn.Input{}, err
	}
	posts, err := r.Posts(t.CampaignID, t.Number)
	if err != nil {
		return nil, turn.Input{}, err
	}
	// a post counts under the name its author holds at the lock (1.6)
	if err := authorsAt(r, posts, at); err != nil {
		return nil, turn.Input{}, err
	}
	in := turn.Input{Seed: t.Seed, Lock: lockTime(t)}
	for i := range posts {
		p := &posts[i]
		if p.Source == EditSource {
			if t.Edit != nil && t.Edit.Post == p.ID {
				e := p.Domain()
				in.Edit = &e
			}
			continue
		}
		if p.WithdrawnAt != nil {
			continue
		}
		in.Posts = append(in.Posts, p.Domain())
		in.Transfers = append(in.Transfers, details(p)...)
	}
	rs, err := r.Results(t.ID)
	if err != nil {
		return nil, turn.Input{}, err
	}
	for _, res := range rs {
		in.Results = append(in.Results, res.Result)
	}
	if err := correctionInput(r, t, &in); err != nil {
		return nil, turn.Input{}, err
	}
	return m, in, aiInput(r, t, ai, &in)
}

func lastControl(r Reader, campaign int64) (int64, error) {
	entries, err := r.Control(campaign)
	var last int64
	for _, e := range entries {
		last = max(last, e.ID)
	}
	return last, err
}

// Lock locks a turn now, on a judge's word, with a recorded reason (3.1). The posting
// window still ends at the turn's lock time (C2).
func (s *Service) Lock(ctx context.Context, a Actor, id int64, n int, reason string) (*TurnView, error) {
	var x access
	err := s.store.Read(ctx, func(r Reader) error {
		c, xx, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		x = xx
		if err := x.need("lock a turn (movement and battle judges only)", mayLock(x)); err != nil {
			return err
		}
		switch c.Status {
		case Finished:
			return domain.Errorf(domain.ErrConflict, "%s is finished: %s won the round, and no turn locks any more", c.Name, c.Winner.Title())
		case Paused:
			return domain.Errorf(domain.ErrConflict, "%s is %s: resume it before locking", c.Name, c.Status)
		}
		t, err := r.Turn(id, n)
		if err != nil {
			return err
		}
		if t.Status != Open {
			return domain.Errorf(domain.ErrConflict, "turn %d is already locked", n)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(reason) == "" {
		return nil, domain.Errorf(domain.ErrInvalid, "say why the turn is locked now: a reason is recorded with every judge's action")
	}
	if err := s.backup(ctx, "before a judge's lock"); err != nil {
		return nil, err
	}
	start := time.Now()
	t, err := s.lockTurn(ctx, a, id, n, reason)
	s.metrics.Lock(LockRecord{Outcome: lockOutcome(err), Took: time.Since(start)})
	if err != nil {
		return nil, err
	}
	return viewTurn(t, x), nil
}

// lockTurn locks a turn in one transaction that also opens the next turn, as campaign id's one
// running lock, within the lock budget (guarded). A turn that is not open is a conflict: a turn
// is locked once, ever.
func (s *Service) lockTurn(ctx context.Context, a Actor, id int64, n int, reason string) (*Turn, error) {
	var locked *Turn
	err := s.guarded(ctx, id, fmt.Sprintf("the lock of turn %d", n), func(b *budget) (err error) {
		locked, err = s.lockBody(b, a, id, n, reason)
		return err
	})
	return locked, err
}

// lockBody is the lock itself: the AI's setup read, then one transaction, which checks that the
// turn is still open.
func (s *Service) lockBody(b *budget, a Actor, id int64, n int, reason string) (*Turn, error) {
	ai, err := s.aiSetupForOpen(b.ctx, id)
	if err != nil {
		return nil, err
	}
	var locked *Turn
	err = b.write(s.store, func(tx Tx) error {
		claimed, err := tx.ClaimCampaign(id)
		if err != nil {
			return err
		}
		if !claimed {
			return domain.Errorf(domain.ErrConflict, "turn %d is being locked by another server", n)
		}
		c, err := tx.Campaign(id)
		if err != nil {
			return err
		}
		t, err := tx.Turn(id, n)
		if err != nil {
			return err
		}
		if t.Status != Open {
			return domain.Errorf(domain.ErrConflict, "turn %d is already locked", n)
		}
		now := s.now()
		at := t.LockAt
		if now.Before(at) {
			at = now
		}
		seq, err := lastControl(tx, id)
		if err != nil {
			return err
		}
		if err := s.settleStratless(tx, c, t, now); err != nil {
			return err
		}
		m, in, err := lockInput(tx, t, at, seq, ai)
		if err != nil {
			return err
		}
		t.Status, t.LockedAt, t.LockedBy, t.LockReason = Locked, &now, a.Name(), reason
		t.ControlSeq, t.ControlAt, t.LockError = seq, &at, ""
		next, rep, err := adjudicate(c, t, m, in)
		if err != nil {
			return err
		}
		if t.EditUntil, err = editWindow(tx, c, ai.st, m, now); err != nil {
			return err
		}
		ok, err := tx.LockTurn(t)
		if err != nil {
			return err
		}
		if !ok {
			return domain.Errorf(domain.ErrConflict, "turn %d is already locked", n)
		}
		locked = t
		if t.EditUntil != nil {
			// the update waits for the mercenary judge's after-lock edit (6.3.2, R41)
			if err := bumpMap(tx, id); err != nil {
				return err
			}
			return s.audit(tx, id, a, "turn.lock", "locked turn %d (%s); its update waits for the mercenary judge's after-lock edit until %s (6.3.2)", n, reason, turn.Stamp(*t.EditUntil))
		}
		return s.openNext(tx, c, t, m, next, rep, ai.st, a, reason)
	})
	if err == nil {
		s.wake()
	}
	return locked, err
}

// openNext publishes locked turn t's update: the control list as the lock changed it, the next
// turn opened on map next (or the round ended, 1.7), the mercenaries' engagements remembered
// and, with mercenary_ai auto, the AI's strategies filed for the new turn's battles. m is the
// map the lock adjudicated.
func (s *Service) openNext(tx Tx, c *Campaign, t *Turn, m, next *domain.Map, rep *turn.Report, st *MercenarySettings, a Actor, reason string) error {
	id, n, at, now := c.ID, t.Number, *t.ControlAt, s.now()
	notes, err := s.lockNotes(tx, c, t)
	if err != nil {
		return err
	}
	t.ReportText += noticesText(notes)
	for i := range next.Armies {
		na := &next.Armies[i]
		if before := m.Army(na.Name); before == nil || !sameNames(before.Controllers, na.Controllers) {
			e := &ControlEntry{CampaignID: id, Army: na.Name, Controllers: nonNil(slices.Clone(na.Controllers)), EffectiveAt: at, By: Scheduler, Reason: "changed at the lock of turn " + strconv.Itoa(n)}
			if err := tx.AddControl(e); err != nil {
				return err
			}
		}
	}
	nt, err := s.newTurn(c, n+1, next, nextDeadline(t, *t.LockedAt, c.Settings), now)
	if err != nil {
		return err
	}
	if err := checkTurnTiming(nt, fmt.Sprintf("turn %d's deadline", nt.Number)); err != nil {
		return err
	}
	if err := tx.CreateTurn(nt); err != nil {
		return err
	}
	if err := s.renameArmies(tx, c, nt, next); err != nil {
		return err
	}
	c.MapVersion++
	if next.Winner != "" {
		// the round is over (1.7, D8): the turn just opened holds the final map and takes
		// no orders
		c.Status, c.Winner = Finished, next.Winner
	}
	if err := tx.UpdateCampaign(c); err != nil {
		return err
	}
	if err := noteHistory(tx, t, rep); err != nil {
		return err
	}
	if err := s.publishLock(tx, c, t, nt, rep); err != nil {
		return err
	}
	if c.Status == Finished {
		if err := s.audit(tx, id, a, "campaign.finish", "%s won the round at the lock of turn %d", c.Winner.Title(), n); err != nil {
			return err
		}
	} else if err := s.fileStrategies(tx, nt, next, st, now); err != nil {
		return err
	}
	return s.audit(tx, id, a, "turn.lock", "locked turn %d (%s); turn %d opens with its lock at %s", n, reason, n+1, turn.Stamp(nt.LockAt))
}

// adjudicate runs locked turn t on map m and keeps its report, as JSON and rendered, on t.
func adjudicate(c *Campaign, t *Turn, m *domain.Map, in turn.Input) (*domain.Map, *turn.Report, error) {
	next, rep, err := turn.Run(m, in)
	if err != nil {
		return nil, nil, err
	}
	body, err := json.Marshal(rep)
	if err != nil {
		return nil, nil, err
	}
	t.Report, t.ReportText = body, turn.Render(heading(c, t), rep)
	return next, rep, nil
}

// heading is what turn t's rendered report opens with.
func heading(c *Campaign, t *Turn) turn.Heading {
	return turn.Heading{Campaign: c.Name, Turn: t.Number, LockAt: t.LockAt, LockedAt: t.LockedAt, LockedBy: t.LockedBy, LockReason: t.LockReason,
		Seed: t.Seed, Commitment: t.Commitment}
}

func sameNames(a, b []string) bool {
	return slices.EqualFunc(a, b, domain.SameName)
}
