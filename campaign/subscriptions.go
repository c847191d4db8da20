// Subscriptions: what each account receives of a campaign and where — a webhook (signed JSON or
// Discord's format), an e-mail address — and what it was sent lately.

package campaign

import (
	"context"
	"encoding/hex"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// SubscriptionRequest is what an account asks to receive of a campaign, and where.
type SubscriptionRequest struct {
	Kinds         []EventKind `json:"kinds"`
	Email         string      `json:"email"`
	WebhookURL    string      `json:"webhook_url"`
	WebhookFormat string      `json:"webhook_format"`
	// NewSecret draws a new webhook signing secret; the first webhook gets one anyway.
	NewSecret bool `json:"new_secret"`
}

// NotificationsView is an account's notifications of a campaign: its subscription (nil for
// none), the newest events it may see (public ones and its own reminders) and deliveries.
type NotificationsView struct {
	Subscription *Subscription `json:"subscription"`
	Events       []Event       `json:"events"`
	Deliveries   []Delivery    `json:"deliveries"`
	// Channels are the ways this server sends (webhook, email); Kinds what may be chosen.
	Channels []string    `json:"channels"`
	Kinds    []EventKind `json:"kinds"`
}

// subscriber checks that the actor may subscribe to the campaign's notifications.
func subscriber(r Reader, a Actor, id int64) (access, error) {
	_, x, err := campaignAccess(r, a, id)
	if err != nil {
		return x, err
	}
	return x, x.need("subscribe to notifications", maySubscribe(x))
}

// Notifications shows the actor's subscription to a campaign and what it was sent lately.
func (s *Service) Notifications(ctx context.Context, a Actor, id int64) (*NotificationsView, error) {
	out := &NotificationsView{Channels: s.channels(), Kinds: EventKinds}
	err := s.store.Read(ctx, func(r Reader) error {
		if _, err := subscriber(r, a, id); err != nil {
			return err
		}
		sub, err := r.Subscription(a.Account.ID, id)
		switch {
		case err == nil:
			out.Subscription = sub
		case !errors.Is(err, domain.ErrNotFound):
			return err
		}
		if out.Events, err = r.Events(id, a.Account.ID, 30); err != nil {
			return err
		}
		out.Events = nonNil(out.Events)
		out.Deliveries, err = r.Deliveries(a.Account.ID, id, 30)
		out.Deliveries = nonNil(out.Deliveries)
		return err
	})
	return out, err
}

// Subscribe sets what the actor receives of a campaign and where; the webhook's signing secret
// is drawn the first time (or when asked) and shown to him alone.
func (s *Service) Subscribe(ctx context.Context, a Actor, id int64, req SubscriptionRequest) (*Subscription, error) {
	sub, err := s.checkSubscription(req)
	if err != nil {
		return nil, err
	}
	err = s.store.Write(ctx, func(tx Tx) error {
		if _, err := subscriber(tx, a, id); err != nil {
			return err
		}
		old, err := tx.Subscription(a.Account.ID, id)
		if err != nil && !errors.Is(err, domain.ErrNotFound) {
			return err
		}
		if old != nil && !req.NewSecret {
			sub.WebhookSecret = old.WebhookSecret
		}
		if sub.WebhookURL != "" && sub.WebhookSecret == "" {
			b := make([]byte, 24)
			if _, err := io.ReadFull(s.opt.Rand, b); err != nil {
				return err
			}
			sub.WebhookSecret = hex.EncodeToString(b)
		}
		sub.AccountID, sub.CampaignID, sub.UpdatedAt = a.Account.ID, id, s.now()
		if err := tx.PutSubscription(sub); err != nil {
			return err
		}
		return s.audit(tx, id, a, "notify.subscribe", "%s subscribes to %v (e-mail: %v, webhook: %v)", a.Name(), sub.Kinds, sub.Email != "", sub.WebhookURL != "")
	})
	if err != nil {
		return nil, err
	}
	return sub, nil
}

// Unsubscribe stops every notification of a campaign to the actor.
func (s *Service) Unsubscribe(ctx context.Context, a Actor, id int64) error {
	return s.store.Write(ctx, func(tx Tx) error {
		if _, err := subscriber(tx, a, id); err != nil {
			return err
		}
		if err := tx.DeleteSubscription(a.Account.ID, id); err != nil {
			return err
		}
		return s.audit(tx, id, a, "notify.unsubscribe", "%s unsubscribes", a.Name())
	})
}

// checkSubscription reads a request into a subscription, or says what is wrong with it.
func (s *Service) checkSubscription(req SubscriptionRequest) (*Subscription, error) {
	sub := &Subscription{Email: strings.TrimSpace(req.Email), WebhookURL: strings.TrimSpace(req.WebhookURL), WebhookFormat: strings.TrimSpace(req.WebhookFormat)}
	for _, k := range req.Kinds {
		if !slices.Contains(EventKinds, k) {
			return nil, domain.Errorf(domain.ErrInvalid, "%q is not a kind of notification: choose among %v", k, EventKinds)
		}
		if !slices.Contains(sub.Kinds, k) {
			sub.Kinds = append(sub.Kinds, k)
		}
	}
	sub.Kinds = nonNil(sub.Kinds)
	if sub.Email != "" {
		if err := s.target(ByEmail, sub.Email); err != nil {
			return nil, err
		}
	}
	if sub.WebhookURL != "" {
		if err := s.target(ByWebhook, sub.WebhookURL); err != nil {
			return nil, err
		}
		switch sub.WebhookFormat {
		case "":
			sub.WebhookFormat = "json"
		case "json", "discord":
		default:
			return nil, domain.Errorf(domain.ErrInvalid, "%q is not a webhook format: json (signed) or discord", sub.WebhookFormat)
		}
	} else {
		sub.WebhookFormat = ""
	}
	return sub, nil
}

// channels are the ways the server sends notifications.
func (s *Service) channels() []string {
	if s.opt.Notifier == nil {
		return []string{}
	}
	return nonNil(s.opt.Notifier.Channels())
}

// target checks that the server sends by channel and that target is an address of it.
func (s *Service) target(channel, target string) error {
	if !slices.Contains(s.channels(), channel) {
		if channel == ByEmail {
			return domain.Errorf(domain.ErrInvalid, "this server sends no e-mail: its admin sets COALITION_SMTP_URL to turn it on")
		}
		return domain.Errorf(domain.ErrInvalid, "this server sends no %ss", channel)
	}
	if err := s.opt.Notifier.CheckTarget(channel, target); err != nil {
		return domain.Errorf(domain.ErrInvalid, "%s", err)
	}
	return nil
}
