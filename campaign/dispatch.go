// The dispatcher: it sends the outbox's deliveries after their commit — never inside a lock's
// transaction — through the Sender port (package notify: webhooks, SMTP), retries a failure
// with a growing wait, and makes the reminders that fall due. Time is the service's clock.

package campaign

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/coalition-wargame/coalition/domain"
)

// Outgoing is one delivery as the sender needs it: the event, whom and where it goes to, and
// the webhook's signing secret.
type Outgoing struct {
	Delivery Delivery
	Event    Event
	Campaign string
	Account  string
	Secret   string
}

// Notifier sends deliveries and says where it can send them: package notify implements it
// (webhooks over HTTP, e-mail by SMTP).
type Notifier interface {
	// Send sends one delivery.
	Send(ctx context.Context, o Outgoing) error
	// Channels are the ways it sends (ByWebhook, ByEmail).
	Channels() []string
	// CheckTarget says what is wrong with a webhook's URL or an e-mail address, or nil.
	CheckTarget(channel, target string) error
}

// Retries: a delivery is tried MaxAttempts times, waiting RetryBase, then twice as long each
// time (30 s, 1 min, 2 min … about two hours in all), then marked failed.
const (
	MaxAttempts = 8
	RetryBase   = 30 * time.Second
)

// backoff is the wait after the attempts-th failure.
func backoff(attempts int) time.Duration {
	return RetryBase << min(attempts-1, 12)
}

// notes is what the dispatcher keeps in memory: the turns whose reminders were made by this
// process (the events' dedup keys keep them once across processes) and the reach cache.
type notes struct {
	mu       sync.Mutex
	reminded map[string]bool
	reach    map[reachKey]*ReachView
}

// Dispatch sends the deliveries due now through the service's notifier, each outside any
// transaction, and records how each went; it returns how many were sent.
func (s *Service) Dispatch(ctx context.Context) (int, error) {
	snd := s.opt.Notifier
	if snd == nil {
		return 0, nil
	}
	var due []Outgoing
	err := s.store.Read(ctx, func(r Reader) error {
		ds, err := r.DueDeliveries(s.now(), 100)
		if err != nil {
			return err
		}
		names := map[int64]string{}
		for _, d := range ds {
			o := Outgoing{Delivery: d}
			ev, err := r.Event(d.EventID)
			if err != nil {
				return err
			}
			o.Event = *ev
			if names[ev.CampaignID] == "" {
				c, err := r.Campaign(ev.CampaignID)
				if err != nil {
					return err
				}
				names[ev.CampaignID] = c.Name
			}
			o.Campaign = names[ev.CampaignID]
			acc, err := r.Account(d.AccountID)
			if err != nil {
				return err
			}
			o.Account = acc.Name
			sub, err := r.Subscription(d.AccountID, ev.CampaignID)
			switch {
			case err == nil:
				o.Secret = sub.WebhookSecret
			case !errors.Is(err, domain.ErrNotFound):
				return err
			}
			due = append(due, o)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, o := range due {
		if ctx.Err() != nil {
			break
		}
		serr := snd.Send(ctx, o)
		d := o.Delivery
		d.Attempts++
		now := s.now()
		switch {
		case serr == nil:
			d.Status, d.SentAt, d.LastError = Sent, &now, ""
			sent++
		case d.Attempts >= MaxAttempts:
			d.Status, d.LastError = Failed, trim(serr.Error(), 500)
			s.opt.Log.Warn("notification given up", "delivery", d.ID, "channel", d.Channel, "attempts", d.Attempts, "err", serr)
		default:
			d.NextAt, d.LastError = now.Add(backoff(d.Attempts)), trim(serr.Error(), 500)
			s.opt.Log.Info("notification failed, will retry", "delivery", d.ID, "channel", d.Channel, "attempts", d.Attempts, "next", d.NextAt, "err", serr)
		}
		if err := s.store.Write(ctx, func(tx Tx) error { return tx.UpdateDelivery(&d) }); err != nil {
			return sent, err
		}
	}
	return sent, ctx.Err()
}

func trim(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// RunDispatcher makes the reminders that fall due and sends the outbox, at once after a commit
// that filled it and every interval otherwise, until ctx is done.
func (s *Service) RunDispatcher(ctx context.Context, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		if err := s.Remind(ctx); err != nil && ctx.Err() == nil {
			s.opt.Log.Error("reminders failed", "err", err)
		}
		if _, err := s.Dispatch(ctx); err != nil && ctx.Err() == nil {
			s.opt.Log.Error("sending notifications failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-s.kick:
		}
	}
}

// noteDone reports whether key was noted before, and notes it.
func (s *Service) noteDone(key string) bool {
	s.notes.mu.Lock()
	defer s.notes.mu.Unlock()
	if s.notes.reminded == nil {
		s.notes.reminded = map[string]bool{}
	}
	done := s.notes.reminded[key]
	s.notes.reminded[key] = true
	return done
}

// forget un-notes key, after the work it stood for failed.
func (s *Service) forget(key string) {
	s.notes.mu.Lock()
	defer s.notes.mu.Unlock()
	delete(s.notes.reminded, key)
}
