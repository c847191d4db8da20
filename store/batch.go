// The post group's writes (issue 16): a group's posts, audit entries and idempotency records,
// each kind in one statement, so that the one writer's time a post costs is a share of three
// statements rather than four of its own.

package store

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/logger"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

func (t *txn) CreatePosts(ps []*campaign.Post) error {
	if len(ps) == 0 {
		return nil
	}
	rows := make([]*postRow, len(ps))
	for i, p := range ps {
		r, err := postToRow(p)
		if err != nil {
			return err
		}
		rows[i] = r
	}
	if err := t.db.Create(rows).Error; err != nil {
		return err
	}
	for i, r := range rows {
		ps[i].ID = r.ID
	}
	return nil
}

func (t *txn) AddAudits(es []*campaign.AuditEntry) error {
	if len(es) == 0 {
		return nil
	}
	rows := make([]*auditRow, len(es))
	for i, e := range es {
		rows[i] = &auditRow{CampaignID: e.CampaignID, At: e.At, Actor: e.Actor, Action: e.Action, Detail: e.Detail, IP: e.IP}
	}
	if err := t.db.Create(rows).Error; err != nil {
		return err
	}
	for i, r := range rows {
		es[i].ID = r.ID
	}
	return nil
}

func (t *txn) PutIdempotencies(recs []*campaign.IdempotencyRecord) error {
	if len(recs) == 0 {
		return nil
	}
	rows := make([]*idempotencyRow, len(recs))
	for i, rec := range recs {
		rows[i] = &idempotencyRow{AccountID: rec.Account, IdemKey: rec.Key, Fingerprint: rec.Fingerprint, Status: rec.Status,
			ContentType: rec.ContentType, Body: rec.Body, CreatedAt: rec.CreatedAt}
	}
	// ON CONFLICT DO NOTHING: on PostgreSQL a failed INSERT would end the whole transaction
	res := t.db.Clauses(clause.OnConflict{DoNothing: true}).Create(rows)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected != int64(len(rows)) {
		return domain.Errorf(domain.ErrConflict, "a request with one of these idempotency keys is already being answered: send it again in a moment to get its answer")
	}
	return nil
}

// quietTrace is gorm's logger, asked to trace a statement only when it will log it (an error,
// or a statement slower than slow): gorm's slog logger builds every statement's text with its
// values before it decides, a tenth of a post's time in the writer.
type quietTrace struct {
	logger.Interface
	slow time.Duration
}

// LogMode keeps the tracing quiet at any level.
func (q quietTrace) LogMode(l logger.LogLevel) logger.Interface {
	return quietTrace{Interface: q.Interface.LogMode(l), slow: q.slow}
}

// Trace hands an error (but a missing row's) or a slow statement to the logger.
func (q quietTrace) Trace(ctx context.Context, begin time.Time, fc func() (string, int64), err error) {
	if (err != nil && !errors.Is(err, gorm.ErrRecordNotFound)) || time.Since(begin) > q.slow {
		q.Interface.Trace(ctx, begin, fc, err)
	}
}
