// Idempotency keys (issue 16, R90): a request that changes something, sent with a key, is
// recorded with its first write; its answer is kept with the record, so that a retry with the
// same key gets that answer and changes nothing.

package campaign

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// KeyLifetime is how long an idempotency key is kept after its request: at least 24 hours
// (issue 16), so twice that.
const KeyLifetime = 48 * time.Hour

// IdempotencyRecord is what the server keeps of a request sent with an idempotency key: whose
// key, a fingerprint of the request (method, path, body) and its first answer.
type IdempotencyRecord struct {
	// Account is the account that sent the request, 0 for none.
	Account     int64
	Key         string
	Fingerprint string
	// Status is the answer's HTTP status: 0 while the change is committed and its answer not
	// yet stored.
	Status      int
	ContentType string
	Body        []byte
	CreatedAt   time.Time
}

// Claim is a request's idempotency key as the request goes through the service: the first
// write the request commits records it (status 0) in the same transaction, and a post stores
// its answer with it (Render), so that no change is ever made twice under one key.
type Claim struct {
	Account     int64
	Key         string
	Fingerprint string
	// Status and Render make the answer to a successful post (the status and the encoded
	// body); without Render, the caller stores the answer after the request (Answer).
	Status int
	Render func(v any) (contentType string, body []byte, err error)

	mu       sync.Mutex
	recorded bool
	answered bool
}

type claimKey struct{}

// WithClaim makes c the idempotency claim of the request ctx belongs to.
func WithClaim(ctx context.Context, c *Claim) context.Context {
	return context.WithValue(ctx, claimKey{}, c)
}

// ClaimOf is the request's idempotency claim, or nil.
func ClaimOf(ctx context.Context) *Claim { c, _ := ctx.Value(claimKey{}).(*Claim); return c }

// Recorded reports whether a write of the request was committed with the claim.
func (c *Claim) Recorded() bool { c.mu.Lock(); defer c.mu.Unlock(); return c.recorded }

// Answered reports whether the request's answer was stored with the claim.
func (c *Claim) Answered() bool { c.mu.Lock(); defer c.mu.Unlock(); return c.answered }

// record stores the claim in tx unless an earlier write of the request did: the record of a
// change without its answer yet.
func (c *Claim) record(tx Tx, now time.Time) (*IdempotencyRecord, error) {
	c.mu.Lock()
	done := c.recorded
	c.mu.Unlock()
	if done {
		return nil, nil
	}
	rec := &IdempotencyRecord{Account: c.Account, Key: c.Key, Fingerprint: c.Fingerprint, CreatedAt: now}
	return rec, tx.PutIdempotency(rec)
}

// recordOf is the claim's record with the answer v as Render encodes it, for a post; without
// Render, the record of a change whose answer the caller stores (status 0).
func (c *Claim) recordOf(now time.Time, v any) (*IdempotencyRecord, error) {
	rec := &IdempotencyRecord{Account: c.Account, Key: c.Key, Fingerprint: c.Fingerprint, CreatedAt: now}
	if c.Render == nil {
		return rec, nil
	}
	var err error
	rec.Status = c.Status
	rec.ContentType, rec.Body, err = c.Render(v)
	return rec, err
}

func (c *Claim) markRecorded(answered bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.recorded = true
	c.answered = c.answered || answered
}

// IdempotencyRecord is the record of an account's idempotency key (account 0 for a request
// without one), or domain.ErrNotFound.
func (s *Service) IdempotencyRecord(ctx context.Context, account int64, key string) (*IdempotencyRecord, error) {
	var rec *IdempotencyRecord
	err := s.store.Peek(ctx, func(r Reader) (err error) {
		rec, err = r.Idempotency(account, key)
		return err
	})
	return rec, err
}

// Answer stores the answer of a request whose change was recorded under its claim.
func (s *Service) Answer(ctx context.Context, c *Claim, status int, contentType string, body []byte) error {
	rec := &IdempotencyRecord{Account: c.Account, Key: c.Key, Status: status, ContentType: contentType, Body: body}
	return s.store.Write(quietly(context.WithoutCancel(withoutClaim(ctx))), func(tx Tx) error { return tx.AnswerIdempotency(rec) })
}

// withoutClaim is ctx without the request's claim, for writes that are not the request's
// change.
func withoutClaim(ctx context.Context) context.Context {
	return context.WithValue(ctx, claimKey{}, (*Claim)(nil))
}

// expiry is when the service last deleted the expired idempotency keys.
type expiry struct{ last atomic.Int64 }

// expireKeys deletes the idempotency keys older than KeyLifetime, once an hour at most, in the
// transaction that records a new one.
func (s *Service) expireKeys(tx Tx) error {
	now := s.now()
	last := s.expired.last.Load()
	if now.UnixNano()-last < int64(time.Hour) || !s.expired.last.CompareAndSwap(last, now.UnixNano()) {
		return nil
	}
	return tx.ExpireIdempotency(now.Add(-KeyLifetime))
}
