// The rows of notifications and messages: events, subscriptions, the outbox of deliveries, and
// the messages of a turn's threads (campaign.NotifyReader and NotifyWriter).

package store

import (
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm/clause"

	"github.com/coalition-wargame/coalition/campaign"
)

type eventRow struct {
	ID         int64 `gorm:"primaryKey"`
	CampaignID int64
	Turn       int
	Kind       string
	At         time.Time
	Title      string
	Body       string
	AccountID  *int64
	Dedup      *string
}

func (eventRow) TableName() string { return "events" }

func (r *eventRow) model() campaign.Event {
	e := campaign.Event{ID: r.ID, CampaignID: r.CampaignID, Turn: r.Turn, Kind: campaign.EventKind(r.Kind), At: r.At.UTC(), Title: r.Title, Body: r.Body}
	if r.AccountID != nil {
		e.AccountID = *r.AccountID
	}
	if r.Dedup != nil {
		e.Dedup = *r.Dedup
	}
	return e
}

type subscriptionRow struct {
	AccountID     int64 `gorm:"primaryKey;autoIncrement:false"`
	CampaignID    int64 `gorm:"primaryKey;autoIncrement:false"`
	Kinds         string
	Email         string
	WebhookURL    string `gorm:"column:webhook_url"`
	WebhookFormat string
	WebhookSecret string
	UpdatedAt     time.Time
}

func (subscriptionRow) TableName() string { return "subscriptions" }

func (r *subscriptionRow) model() (*campaign.Subscription, error) {
	s := &campaign.Subscription{AccountID: r.AccountID, CampaignID: r.CampaignID, Email: r.Email, WebhookURL: r.WebhookURL,
		WebhookFormat: r.WebhookFormat, WebhookSecret: r.WebhookSecret, UpdatedAt: r.UpdatedAt.UTC()}
	if err := json.Unmarshal([]byte(r.Kinds), &s.Kinds); err != nil {
		return nil, fmt.Errorf("subscription of account %d: %w", r.AccountID, err)
	}
	return s, nil
}

type deliveryRow struct {
	ID        int64 `gorm:"primaryKey"`
	EventID   int64
	AccountID int64
	Channel   string
	Target    string
	Format    string
	Status    string
	Attempts  int
	NextAt    time.Time
	LastError string
	SentAt    *time.Time
}

func (deliveryRow) TableName() string { return "deliveries" }

func (r *deliveryRow) model() campaign.Delivery {
	return campaign.Delivery{ID: r.ID, EventID: r.EventID, AccountID: r.AccountID, Channel: r.Channel, Target: r.Target, Format: r.Format,
		Status: r.Status, Attempts: r.Attempts, NextAt: r.NextAt.UTC(), LastError: r.LastError, SentAt: utcPtr(r.SentAt)}
}

type messageRow struct {
	ID           int64 `gorm:"primaryKey"`
	CampaignID   int64
	Turn         int
	Channel      string
	AccountID    int64
	Author       string
	WithAccount  int64
	At           time.Time
	Text         string
	HiddenAt     *time.Time
	HiddenBy     string
	HiddenReason string
}

func (messageRow) TableName() string { return "messages" }

func (r *messageRow) model() campaign.Message {
	return campaign.Message{ID: r.ID, CampaignID: r.CampaignID, Turn: r.Turn, Channel: r.Channel, AccountID: r.AccountID, Author: r.Author,
		With: r.WithAccount, At: r.At.UTC(), Text: r.Text, HiddenAt: utcPtr(r.HiddenAt), HiddenBy: r.HiddenBy, HiddenReason: r.HiddenReason}
}

func (t *txn) Events(cid, account int64, limit int) ([]campaign.Event, error) {
	q := t.db.Where("campaign_id = ?", cid)
	if account == 0 {
		q = q.Where("account_id IS NULL")
	} else {
		q = q.Where("account_id IS NULL OR account_id = ?", account)
	}
	var rows []eventRow
	if err := q.Order("id DESC").Limit(limit).Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.Event, len(rows))
	for i := range rows {
		out[i] = rows[i].model()
	}
	return out, nil
}

func (t *txn) Event(id int64) (*campaign.Event, error) {
	var r eventRow
	if err := t.db.Where("id = ?", id).Take(&r).Error; err != nil {
		return nil, translate(err, fmt.Sprintf("event %d", id))
	}
	e := r.model()
	return &e, nil
}

func (t *txn) AddEvent(e *campaign.Event) (bool, error) {
	r := &eventRow{CampaignID: e.CampaignID, Turn: e.Turn, Kind: string(e.Kind), At: e.At, Title: e.Title, Body: e.Body}
	if e.AccountID != 0 {
		r.AccountID = &e.AccountID
	}
	if e.Dedup != "" {
		r.Dedup = &e.Dedup
	}
	res := t.db.Clauses(clause.OnConflict{DoNothing: true}).Create(r)
	if res.Error != nil || res.RowsAffected == 0 {
		return false, res.Error
	}
	e.ID = r.ID
	return true, nil
}

func (t *txn) Subscription(account, cid int64) (*campaign.Subscription, error) {
	var r subscriptionRow
	if err := t.db.Where("account_id = ? AND campaign_id = ?", account, cid).Take(&r).Error; err != nil {
		return nil, translate(err, "the subscription")
	}
	return r.model()
}

func (t *txn) Subscriptions(cid int64) ([]campaign.Subscription, error) {
	var rows []subscriptionRow
	if err := t.db.Where("campaign_id = ?", cid).Order("account_id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.Subscription, 0, len(rows))
	for i := range rows {
		s, err := rows[i].model()
		if err != nil {
			return nil, err
		}
		out = append(out, *s)
	}
	return out, nil
}

func (t *txn) PutSubscription(s *campaign.Subscription) error {
	kinds, err := json.Marshal(s.Kinds)
	if err != nil {
		return err
	}
	r := &subscriptionRow{AccountID: s.AccountID, CampaignID: s.CampaignID, Kinds: string(kinds), Email: s.Email, WebhookURL: s.WebhookURL,
		WebhookFormat: s.WebhookFormat, WebhookSecret: s.WebhookSecret, UpdatedAt: s.UpdatedAt}
	return t.db.Clauses(clause.OnConflict{UpdateAll: true}).Create(r).Error
}

func (t *txn) DeleteSubscription(account, cid int64) error {
	return t.db.Where("account_id = ? AND campaign_id = ?", account, cid).Delete(&subscriptionRow{}).Error
}

func (t *txn) DueDeliveries(now time.Time, limit int) ([]campaign.Delivery, error) {
	var rows []deliveryRow
	if err := t.db.Where("status = ? AND next_at <= ?", campaign.Pending, now).Order("next_at, id").Limit(limit).Find(&rows).Error; err != nil {
		return nil, err
	}
	return deliveries(rows), nil
}

func (t *txn) Deliveries(account, cid int64, limit int) ([]campaign.Delivery, error) {
	var rows []deliveryRow
	err := t.db.Joins("JOIN events ON events.id = deliveries.event_id").Where("deliveries.account_id = ? AND events.campaign_id = ?", account, cid).
		Order("deliveries.id DESC").Limit(limit).Find(&rows).Error
	return deliveries(rows), err
}

func deliveries(rows []deliveryRow) []campaign.Delivery {
	out := make([]campaign.Delivery, len(rows))
	for i := range rows {
		out[i] = rows[i].model()
	}
	return out
}

func (t *txn) AddDelivery(d *campaign.Delivery) error {
	r := &deliveryRow{EventID: d.EventID, AccountID: d.AccountID, Channel: d.Channel, Target: d.Target, Format: d.Format, Status: d.Status,
		Attempts: d.Attempts, NextAt: d.NextAt, LastError: d.LastError, SentAt: d.SentAt}
	if err := t.db.Create(r).Error; err != nil {
		return err
	}
	d.ID = r.ID
	return nil
}

func (t *txn) UpdateDelivery(d *campaign.Delivery) error {
	return t.db.Model(&deliveryRow{}).Where("id = ?", d.ID).Updates(map[string]any{
		"status": d.Status, "attempts": d.Attempts, "next_at": d.NextAt, "last_error": d.LastError, "sent_at": d.SentAt,
	}).Error
}

func (t *txn) Messages(cid int64, n int) ([]campaign.Message, error) {
	var rows []messageRow
	if err := t.db.Where("campaign_id = ? AND turn = ?", cid, n).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.Message, len(rows))
	for i := range rows {
		out[i] = rows[i].model()
	}
	return out, nil
}

func (t *txn) Message(id int64) (*campaign.Message, error) {
	var r messageRow
	if err := t.db.Where("id = ?", id).Take(&r).Error; err != nil {
		return nil, translate(err, fmt.Sprintf("message %d", id))
	}
	m := r.model()
	return &m, nil
}

func (t *txn) AddMessage(m *campaign.Message) error {
	r := &messageRow{CampaignID: m.CampaignID, Turn: m.Turn, Channel: m.Channel, AccountID: m.AccountID, Author: m.Author, WithAccount: m.With, At: m.At, Text: m.Text}
	if err := t.db.Create(r).Error; err != nil {
		return err
	}
	m.ID = r.ID
	return nil
}

func (t *txn) HideMessage(m *campaign.Message) error {
	return t.db.Model(&messageRow{}).Where("id = ?", m.ID).Updates(map[string]any{
		"hidden_at": m.HiddenAt, "hidden_by": m.HiddenBy, "hidden_reason": m.HiddenReason,
	}).Error
}
