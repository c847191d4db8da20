// The records of notifications and messages and the store port that keeps them: events (public
// ones for the feed, personal reminders), each account's subscription, the outbox of deliveries,
// the messages of a turn's threads.

package campaign

import "time"

// EventKind names what happened; an account subscribes to the kinds it wants.
type EventKind string

// The kinds of events. The first eight are public (the feed shows them); the reminders are
// personal, addressed to one account.
const (
	EventLock     EventKind = "lock"
	EventBattles  EventKind = "battles"
	EventResults  EventKind = "results"
	EventDeadline EventKind = "deadline"
	EventPaused   EventKind = "paused"
	EventResumed  EventKind = "resumed"
	EventFinished EventKind = "finished"
	// EventCorrected tells that the battle judge corrected a locked turn (3.3.3).
	EventCorrected EventKind = "corrected"
	// EventOrdersDue reminds a player, before the lock, of his armies with no accepted order.
	EventOrdersDue EventKind = "reminder-orders"
	// EventStrategyDue reminds a controller, before the battle deadline, of his battles with no
	// strategy.
	EventStrategyDue EventKind = "reminder-strategy"
)

// EventKinds lists every kind, public ones first.
var EventKinds = []EventKind{EventLock, EventBattles, EventResults, EventDeadline, EventPaused, EventResumed, EventFinished, EventCorrected, EventOrdersDue, EventStrategyDue}

// Event is something that happened in a campaign, in words that may leave the server: a public
// event (AccountID 0) says only what everyone may see; a personal one only what its account may.
type Event struct {
	ID         int64     `json:"id"`
	CampaignID int64     `json:"campaign"`
	Turn       int       `json:"turn"`
	Kind       EventKind `json:"kind"`
	At         time.Time `json:"at"`
	Title      string    `json:"title"`
	Body       string    `json:"body"`
	// AccountID is the one account a personal event is for; 0 for a public event.
	AccountID int64 `json:"-"`
	// Dedup, when set, makes the event happen once: a second event with the same key is dropped.
	Dedup string `json:"-"`
}

// Subscription is what one account receives of one campaign, and where.
type Subscription struct {
	AccountID  int64       `json:"-"`
	CampaignID int64       `json:"campaign"`
	Kinds      []EventKind `json:"kinds"`
	Email      string      `json:"email,omitempty"`
	WebhookURL string      `json:"webhook_url,omitempty"`
	// WebhookFormat is "json" (the signed event) or "discord" (a Discord-compatible message).
	WebhookFormat string `json:"webhook_format,omitempty"`
	// WebhookSecret signs the webhook's body (HMAC-SHA256); shown to its account only.
	WebhookSecret string    `json:"webhook_secret,omitempty"`
	UpdatedAt     time.Time `json:"updated_at"`
}

// The channels a delivery goes by.
const (
	ByWebhook = "webhook"
	ByEmail   = "email"
)

// The states of a delivery.
const (
	Pending = "pending"
	Sent    = "sent"
	Failed  = "failed"
)

// Delivery is one event on its way to one account by one channel: a row of the outbox, written
// in the transaction that made the event and sent by the dispatcher after the commit.
type Delivery struct {
	ID        int64      `json:"id"`
	EventID   int64      `json:"event"`
	AccountID int64      `json:"-"`
	Channel   string     `json:"channel"`
	Target    string     `json:"target"`
	Format    string     `json:"format"`
	Status    string     `json:"status"`
	Attempts  int        `json:"attempts"`
	NextAt    time.Time  `json:"next_at"`
	LastError string     `json:"last_error,omitempty"`
	SentAt    *time.Time `json:"sent_at,omitempty"`
}

// Message is a comment in one of a turn's threads: never an order, never parsed as one.
type Message struct {
	ID         int64
	CampaignID int64
	Turn       int
	// Channel is "public", a side ("coalition", "phyrexia", "mercenary") or "judges".
	Channel   string
	AccountID int64
	Author    string
	// With is, in the judges' channel, the account the conversation is with (the player who
	// wrote, or the one a judge answers).
	With         int64
	At           time.Time
	Text         string
	HiddenAt     *time.Time
	HiddenBy     string
	HiddenReason string
}

// NotifyReader is what notifications and messages read from a store.
type NotifyReader interface {
	// Events lists a campaign's events, newest first: public ones only when account is 0,
	// else the public ones and the account's own; at most limit.
	Events(campaign, account int64, limit int) ([]Event, error)
	// Event returns an event by id.
	Event(id int64) (*Event, error)
	// Subscription returns an account's subscription to a campaign, or domain.ErrNotFound.
	Subscription(account, campaign int64) (*Subscription, error)
	// Subscriptions lists a campaign's subscriptions.
	Subscriptions(campaign int64) ([]Subscription, error)
	// DueDeliveries lists pending deliveries due at now, oldest first, at most limit.
	DueDeliveries(now time.Time, limit int) ([]Delivery, error)
	// Deliveries lists an account's deliveries of a campaign's events, newest first.
	Deliveries(account, campaign int64, limit int) ([]Delivery, error)
	// Messages lists a turn's messages by id.
	Messages(campaign int64, turn int) ([]Message, error)
	// Message returns a message by id.
	Message(id int64) (*Message, error)
}

// NotifyWriter is what notifications and messages write.
type NotifyWriter interface {
	// AddEvent stores an event and sets its id; it reports false, storing nothing, when an
	// event with the same Dedup key exists.
	AddEvent(e *Event) (bool, error)
	// PutSubscription stores a subscription, replacing the account's earlier one.
	PutSubscription(s *Subscription) error
	// DeleteSubscription removes an account's subscription to a campaign.
	DeleteSubscription(account, campaign int64) error
	// AddDelivery stores a delivery in the outbox and sets its id.
	AddDelivery(d *Delivery) error
	// UpdateDelivery stores a delivery's status, attempts, next time, error and sending time.
	UpdateDelivery(d *Delivery) error
	// AddMessage stores a message and sets its id.
	AddMessage(m *Message) error
	// HideMessage stores a message's hiding: when, by whom and why.
	HideMessage(m *Message) error
}
