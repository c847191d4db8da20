// Events: what a lock, an extension, a pause and a resume tell the world, written in the
// change's own transaction to the events and the outbox (sent after the commit), and the feed of
// a campaign's public events. An event says only what its audience may see: a lock's report
// names transfers without their creatures (T2), strategies never leave.

package campaign

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/turn"
)

// publish stores an event and, in the same transaction, puts it in the outbox for every
// subscription that wants it; nothing is sent before the commit (the dispatcher sends it).
func (s *Service) publish(tx Tx, e *Event) error {
	if e.At.IsZero() {
		e.At = s.now()
	}
	ok, err := tx.AddEvent(e)
	if err != nil || !ok {
		return err
	}
	subs, err := tx.Subscriptions(e.CampaignID)
	if err != nil {
		return err
	}
	for _, sub := range subs {
		if e.AccountID != 0 && sub.AccountID != e.AccountID || !slices.Contains(sub.Kinds, e.Kind) {
			continue
		}
		if sub.Email != "" {
			if err := tx.AddDelivery(&Delivery{EventID: e.ID, AccountID: sub.AccountID, Channel: ByEmail, Target: sub.Email, Format: "text", Status: Pending, NextAt: e.At}); err != nil {
				return err
			}
		}
		if sub.WebhookURL != "" {
			if err := tx.AddDelivery(&Delivery{EventID: e.ID, AccountID: sub.AccountID, Channel: ByWebhook, Target: sub.WebhookURL, Format: sub.WebhookFormat, Status: Pending, NextAt: e.At}); err != nil {
				return err
			}
		}
	}
	return nil
}

// publishLock tells of turn t's lock: the report as posted (T2 keeps transfers' creatures out
// of it), the battles it announced for the next turn, the results it applied, and the end of
// the round when it decided one.
func (s *Service) publishLock(tx Tx, c *Campaign, t, next *Turn, rep *turn.Report) error {
	ev := func(kind EventKind, title, body string) *Event {
		return &Event{CampaignID: c.ID, Turn: t.Number, Kind: kind, Title: title, Body: body, Dedup: fmt.Sprintf("%s:%d:%d", kind, c.ID, t.Number)}
	}
	body := fmt.Sprintf("Turn %d opens: its battle deadline is %s, its lock %s.\n\n%s", next.Number, turn.Stamp(next.Deadline), turn.Stamp(next.LockAt), t.ReportText)
	if err := s.publish(tx, ev(EventLock, fmt.Sprintf("%s: turn %d is locked", c.Name, t.Number), body)); err != nil {
		return err
	}
	if len(rep.Battles) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "Battles fought in turn %d; strategies are due by %s (B1):\n", next.Number, turn.Stamp(next.Deadline))
		for _, x := range rep.Battles {
			fmt.Fprintf(&b, "  %s: %s (%s)\n", x.Square, strings.Join(x.Armies, " vs "), x.Kind)
		}
		if err := s.publish(tx, ev(EventBattles, fmt.Sprintf("%s: %d battle(s) announced for turn %d", c.Name, len(rep.Battles), next.Number), b.String())); err != nil {
			return err
		}
	}
	if len(rep.Settled) > 0 {
		texts, err := resultTexts(tx, t)
		if err != nil {
			return err
		}
		var b strings.Builder
		fmt.Fprintf(&b, "Battles settled at the lock of turn %d:\n", t.Number)
		for _, x := range rep.Settled {
			won := "nobody won"
			if x.Winner != "" {
				won = x.Winner.Title() + " won (" + strings.Join(x.Winners, ", ") + ")"
			}
			fmt.Fprintf(&b, "  %s: %s — %s\n", x.Battle.Square, strings.Join(x.Battle.Armies, " vs "), won)
			if txt := texts[x.Battle.Square]; txt != "" {
				fmt.Fprintf(&b, "    %s\n", strings.ReplaceAll(txt, "\n", "\n    "))
			}
		}
		if err := s.publish(tx, ev(EventResults, fmt.Sprintf("%s: results of turn %d", c.Name, t.Number), b.String())); err != nil {
			return err
		}
	}
	if c.Status == Finished {
		return s.publish(tx, ev(EventFinished, fmt.Sprintf("%s is finished: %s won the round", c.Name, c.Winner.Title()),
			fmt.Sprintf("%s won the round at the lock of turn %d (1.7).", c.Winner.Title(), t.Number)))
	}
	return nil
}

// resultTexts are the battle judges' result texts of turn t by square: public once it is locked.
func resultTexts(r Reader, t *Turn) (map[domain.Square]string, error) {
	ps, err := r.Proposals(t.ID)
	out := map[domain.Square]string{}
	for _, p := range ps {
		if p.ConfirmedAt != nil && strings.TrimSpace(p.Text) != "" {
			out[p.Square] = strings.TrimSpace(p.Text)
		}
	}
	return out, err
}

// publishCorrection tells everyone who follows the campaign that a locked turn was corrected
// (3.3.3, R100): which turns were adjudicated again, why, and which of them changed. The changes
// themselves are on the turns' reports and maps, which say no more than the lock did.
func (s *Service) publishCorrection(tx Tx, c *Correction) error {
	camp, err := tx.Campaign(c.CampaignID)
	if err != nil {
		return err
	}
	last := c.Turn + len(c.Changes) - 1
	var changed []string
	for _, tc := range c.Changes {
		if !tc.Same {
			changed = append(changed, strconv.Itoa(tc.Turn))
		}
	}
	what := "none of them changed"
	if len(changed) > 0 {
		what = "what changed is in the report and map of turn " + strings.Join(changed, ", ")
	}
	body := fmt.Sprintf("%s corrected turn %d: %s. Turns %d–%d were adjudicated again (3.3.3); %s.", c.By, c.Turn, c.Request.Reason, c.Turn, last, what)
	return s.publish(tx, &Event{CampaignID: camp.ID, Turn: c.Turn, Kind: EventCorrected, Title: fmt.Sprintf("%s: turn %d is corrected", camp.Name, c.Turn), Body: body,
		Dedup: fmt.Sprintf("%s:%d:%d", EventCorrected, camp.ID, c.ID)})
}

// publishTiming tells that turn t's deadline moved (an extension, or a resume after a pause).
func (s *Service) publishTiming(tx Tx, c *Campaign, t *Turn, kind EventKind, title, why string) error {
	body := fmt.Sprintf("Turn %d's battle deadline is now %s and its lock %s: %s.", t.Number, turn.Stamp(t.Deadline), turn.Stamp(t.LockAt), why)
	return s.publish(tx, &Event{CampaignID: c.ID, Turn: t.Number, Kind: kind, Title: c.Name + ": " + title, Body: body})
}

// wake tells the dispatcher that the outbox may hold something new; a call after a commit.
func (s *Service) wake() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// FeedView is a campaign's public events, newest first, for the Atom feed.
type FeedView struct {
	Campaign *Campaign `json:"campaign"`
	Events   []Event   `json:"events"`
}

// Feed lists a campaign's newest public events: anyone may read them (they say only what the
// campaign's public pages say).
func (s *Service) Feed(ctx context.Context, a Actor, id int64, limit int) (*FeedView, error) {
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	var out *FeedView
	err := s.store.Read(ctx, func(r Reader) error {
		c, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		if !maySeeFeed(x) {
			return x.refuse("read the feed")
		}
		evs, err := r.Events(id, 0, limit)
		out = &FeedView{Campaign: c, Events: nonNil(evs)}
		return err
	})
	return out, err
}
