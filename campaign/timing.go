// A judge's hand on the clock: a turn extended, a campaign paused and resumed, each with a reason
// (C1).

package campaign

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/turn"
)

// judgeAction loads an open turn for a judge's action on its timing, which may allows.
func judgeAction(tx Tx, a Actor, id int64, what string, may func(access) bool, reason string) (*Campaign, *Turn, error) {
	c, x, err := campaignAccess(tx, a, id)
	if err != nil {
		return nil, nil, err
	}
	if err := x.need(what+" (movement and battle judges only)", may(x)); err != nil {
		return nil, nil, err
	}
	if strings.TrimSpace(reason) == "" {
		return nil, nil, domain.Errorf(domain.ErrInvalid, "say why: a reason is recorded with every judge's action")
	}
	if c.Status == Finished {
		return nil, nil, domain.Errorf(domain.ErrConflict, "%s is finished", c.Name)
	}
	t, err := tx.LatestTurn(id)
	if err != nil {
		return nil, nil, err
	}
	return c, t, nil
}

// Extend moves turn n's battle deadline and lock later by d, at most the campaign's cap in
// total for one turn, with a recorded reason.
func (s *Service) Extend(ctx context.Context, a Actor, id int64, n int, d time.Duration, reason string) (*TurnView, error) {
	var out *TurnView
	err := s.store.Write(ctx, func(tx Tx) error {
		c, t, err := judgeAction(tx, a, id, "extend a deadline", mayExtend, reason)
		if err != nil {
			return err
		}
		if t.Number != n || t.Status != Open {
			return domain.Errorf(domain.ErrConflict, "turn %d is not the open turn (turn %d is)", n, t.Number)
		}
		// extensions are counted in whole minutes, so the deadline and the total agree
		if d = d.Round(time.Minute); d <= 0 {
			return domain.Errorf(domain.ErrInvalid, "an extension must be at least a minute")
		}
		if t.Extension+d > c.Settings.ExtensionCap {
			return domain.Errorf(domain.ErrInvalid, "turn %d may be extended by at most %s in total; it has been extended by %s already", n, hours(c.Settings.ExtensionCap), hours(t.Extension))
		}
		if !s.now().Before(t.LockAt) {
			return domain.Errorf(domain.ErrConflict, "the lock time %s has passed: turn %d can no longer be extended", turn.Stamp(t.LockAt), n)
		}
		t.Extension += d
		t.Deadline = t.Deadline.Add(d)
		t.LockAt = t.LockAt.Add(d)
		if err := checkTurnTiming(t, "hours"); err != nil {
			return err
		}
		if err := tx.UpdateTurnTiming(t); err != nil {
			return err
		}
		if err := bumpMap(tx, id); err != nil {
			return err
		}
		out = viewTurn(t, access{actor: a})
		if err := s.publishTiming(tx, c, t, EventDeadline, fmt.Sprintf("turn %d extended by %s", n, hours(d)), "a judge extended it: "+reason); err != nil {
			return err
		}
		return s.audit(tx, id, a, "turn.extend", "extended turn %d by %s to lock at %s: %s", n, hours(d), turn.Stamp(t.LockAt), reason)
	})
	if err == nil {
		s.wake()
	}
	return out, err
}

// hours writes a duration to the minute for people: "1h30m", "2h", "45m", "0m".
func hours(d time.Duration) string {
	d = d.Round(time.Minute)
	h, m := int64(d/time.Hour), int64(d%time.Hour/time.Minute)
	switch {
	case h == 0:
		return strconv.FormatInt(m, 10) + "m"
	case m == 0:
		return strconv.FormatInt(h, 10) + "h"
	}
	return fmt.Sprintf("%dh%02dm", h, m)
}

// Pause stops the scheduled lock of a campaign and the taking of orders, with a reason.
func (s *Service) Pause(ctx context.Context, a Actor, id int64, reason string) (*Campaign, error) {
	var out *Campaign
	err := s.store.Write(ctx, func(tx Tx) error {
		c, t, err := judgeAction(tx, a, id, "pause a campaign", mayPause, reason)
		if err != nil {
			return err
		}
		if c.Status != Running {
			return domain.Errorf(domain.ErrConflict, "%s is already %s", c.Name, c.Status)
		}
		now := s.now()
		c.Status, c.PausedAt, c.PauseReason = Paused, &now, reason
		if err := tx.UpdateCampaign(c); err != nil {
			return err
		}
		out = c
		if err := s.publish(tx, &Event{CampaignID: id, Turn: t.Number, Kind: EventPaused, Title: c.Name + " is paused",
			Body: fmt.Sprintf("A judge paused %s: %s. No orders are taken and no turn locks until it resumes; the time it is paused is given back.", c.Name, reason)}); err != nil {
			return err
		}
		return s.audit(tx, id, a, "campaign.pause", "paused %s: %s", c.Name, reason)
	})
	if err == nil {
		s.wake()
	}
	return out, err
}

// Resume restarts a paused campaign. The open turn's deadline and lock move later by the
// time the campaign was paused, so that players lose none of their time.
func (s *Service) Resume(ctx context.Context, a Actor, id int64, reason string) (*Campaign, error) {
	var out *Campaign
	err := s.store.Write(ctx, func(tx Tx) error {
		c, t, err := judgeAction(tx, a, id, "resume a campaign", mayResume, reason)
		if err != nil {
			return err
		}
		if c.Status != Paused || c.PausedAt == nil {
			return domain.Errorf(domain.ErrConflict, "%s is not paused", c.Name)
		}
		now := s.now()
		gone := now.Sub(*c.PausedAt)
		if t.Status == Open && gone > 0 {
			t.Deadline = t.Deadline.Add(gone)
			t.LockAt = t.LockAt.Add(gone)
			if err := checkTurnTiming(t, "the resumed turn's lock time"); err != nil {
				return err
			}
			if err := tx.UpdateTurnTiming(t); err != nil {
				return err
			}
		}
		if t.Editing() && gone > 0 {
			// the mercenary judge loses none of his after-lock edit window either (6.3.2)
			until := t.EditUntil.Add(gone)
			t.EditUntil = &until
			if err := tx.UpdateTurnTiming(t); err != nil {
				return err
			}
		}
		c.Status, c.PausedAt, c.PauseReason = Running, nil, ""
		c.MapVersion++
		if err := tx.UpdateCampaign(c); err != nil {
			return err
		}
		out = c
		if err := s.publishTiming(tx, c, t, EventResumed, "resumed", fmt.Sprintf("a judge resumed it after %s (%s)", hours(gone), reason)); err != nil {
			return err
		}
		return s.audit(tx, id, a, "campaign.resume", "resumed %s after %s; turn %d now locks at %s: %s", c.Name, hours(gone), t.Number, turn.Stamp(t.LockAt), reason)
	})
	if err == nil {
		s.wake()
	}
	return out, err
}
