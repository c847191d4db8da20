// The state version and the idempotency records (issue 16): the one row that says whether a
// server's cached state is current, and the first answers to requests sent with an
// Idempotency-Key.

package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

// State is the state version: on SQLite, where this process is the file's only writer, the
// one in memory (read once, then advanced by every commit that bumps it and by Watch); on
// PostgreSQL, where other servers write too, the one in the database.
func (d *DB) State(ctx context.Context) (int64, error) {
	if d.path != "" {
		if v := d.known.Load(); v > 0 {
			return v, nil
		}
	}
	var v int64
	err := d.reader.WithContext(ctx).Raw("SELECT version FROM state_version WHERE id = 1").Row().Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("the state version: %w", err)
	}
	if d.path != "" {
		d.advance(v)
	}
	return v, nil
}

// Exclusive reports whether this process is the database's only writer (an SQLite file): the
// state version it knows is the current one.
func (d *DB) Exclusive() bool { return d.path != "" }

// advance raises the state version known in memory to v (never lowers it).
func (d *DB) advance(v int64) {
	for {
		old := d.known.Load()
		if v <= old || d.known.CompareAndSwap(old, v) {
			return
		}
	}
}

// Watch reads the state version from the SQLite file every interval until ctx is done, so
// that a write made by another process (coalition admin reset-password, coalition import) is
// seen within an interval; it returns at once on PostgreSQL, where State reads the database.
func (d *DB) Watch(ctx context.Context, every time.Duration) {
	if d.path == "" {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		_ = d.Refresh(ctx) // the next tick tries again
	}
}

// Refresh reads the state version from the SQLite file, so that what another process wrote is
// seen (Watch calls it every interval).
func (d *DB) Refresh(ctx context.Context) error {
	var v int64
	if err := d.reader.WithContext(ctx).Raw("SELECT version FROM state_version WHERE id = 1").Row().Scan(&v); err != nil {
		return fmt.Errorf("the state version: %w", err)
	}
	if d.path != "" {
		d.advance(v)
	}
	return nil
}

func (t *txn) StateVersion() (int64, error) {
	var v int64
	err := t.db.Raw("SELECT version FROM state_version WHERE id = 1").Row().Scan(&v)
	return v, err
}

func (t *txn) BumpState() (int64, error) {
	var v int64
	if err := t.db.Raw("UPDATE state_version SET version = version + 1 WHERE id = 1 RETURNING version").Row().Scan(&v); err != nil {
		return 0, fmt.Errorf("the state version: %w", err)
	}
	t.bumped = v
	return v, nil
}

type idempotencyRow struct {
	AccountID   int64  `gorm:"primaryKey;autoIncrement:false"`
	IdemKey     string `gorm:"primaryKey"`
	Fingerprint string
	Status      int
	ContentType string
	Body        []byte
	CreatedAt   time.Time
}

func (idempotencyRow) TableName() string { return "idempotency" }

func (t *txn) Idempotency(account int64, key string) (*campaign.IdempotencyRecord, error) {
	var r idempotencyRow
	if err := t.db.Where("account_id = ? AND idem_key = ?", account, key).Take(&r).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, domain.Errorf(domain.ErrNotFound, "no request was made with the idempotency key %q", key)
		}
		return nil, err
	}
	return &campaign.IdempotencyRecord{Account: r.AccountID, Key: r.IdemKey, Fingerprint: r.Fingerprint, Status: r.Status,
		ContentType: r.ContentType, Body: r.Body, CreatedAt: r.CreatedAt.UTC()}, nil
}

func (t *txn) PutIdempotency(rec *campaign.IdempotencyRecord) error {
	r := &idempotencyRow{AccountID: rec.Account, IdemKey: rec.Key, Fingerprint: rec.Fingerprint, Status: rec.Status,
		ContentType: rec.ContentType, Body: rec.Body, CreatedAt: rec.CreatedAt}
	// ON CONFLICT DO NOTHING: on PostgreSQL a failed INSERT would end the whole transaction
	res := t.db.Clauses(clause.OnConflict{DoNothing: true}).Create(r)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected != 1 {
		return domain.Errorf(domain.ErrConflict, "a request with the idempotency key %q is already being answered: send it again in a moment to get its answer", rec.Key)
	}
	return nil
}

func (t *txn) AnswerIdempotency(rec *campaign.IdempotencyRecord) error {
	return t.db.Model(&idempotencyRow{}).Where("account_id = ? AND idem_key = ?", rec.Account, rec.Key).
		Updates(map[string]any{"status": rec.Status, "content_type": rec.ContentType, "body": rec.Body}).Error
}

func (t *txn) ExpireIdempotency(before time.Time) error {
	return t.db.Where("created_at < ?", before).Delete(&idempotencyRow{}).Error
}
