// The state version (issue 16): every write but a post's increments it in its own transaction,
// so that whatever the service caches at one version (hot.go) is current while the version
// stays the same; and the request's idempotency claim, recorded with the first write it makes.

package campaign

import (
	"context"
	"sync"
)

// tracked is the service's store: every Write bumps the state version in its transaction
// unless its context says the write is quiet (a post, which no cache holds), and records the
// request's idempotency claim, if it has one, in the same transaction.
type tracked struct {
	Store
	s *Service
}

// Write runs fn in one transaction, bumping the state version and recording the request's
// idempotency claim in it.
func (t *tracked) Write(ctx context.Context, fn func(Tx) error) error {
	claim := ClaimOf(ctx)
	var rec *IdempotencyRecord
	var version int64
	err := t.Store.Write(ctx, func(tx Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		if claim != nil {
			var err error
			if rec, err = claim.record(tx, t.s.now()); err != nil {
				return err
			}
			if rec != nil {
				if err := t.s.expireKeys(tx); err != nil {
					return err
				}
			}
		}
		if isQuiet(ctx) {
			return nil
		}
		var err error
		version, err = tx.BumpState()
		return err
	})
	if err != nil {
		return err
	}
	if rec != nil {
		claim.markRecorded(false)
	}
	if version > 0 {
		if m := memoOf(ctx); m != nil {
			m.set(version)
		}
	}
	return nil
}

type quietKey struct{}

// quietly marks a write that changes nothing a cache holds (posts, deliveries): it leaves the
// state version alone.
func quietly(ctx context.Context) context.Context { return context.WithValue(ctx, quietKey{}, true) }

func isQuiet(ctx context.Context) bool { q, _ := ctx.Value(quietKey{}).(bool); return q }

// memo keeps the state version one request read, so that a request reads it once at most
// (on PostgreSQL, one query), and sees its own writes.
type memo struct {
	mu sync.Mutex
	v  int64
}

func (m *memo) get() int64 { m.mu.Lock(); defer m.mu.Unlock(); return m.v }

func (m *memo) set(v int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.v = max(m.v, v)
}

type memoKey struct{}

// WithRequestState gives ctx a place to keep the state version for the request it belongs
// to: the service reads the version once for the request, not once for each of its reads.
func WithRequestState(ctx context.Context) context.Context {
	return context.WithValue(ctx, memoKey{}, &memo{})
}

func memoOf(ctx context.Context) *memo { m, _ := ctx.Value(memoKey{}).(*memo); return m }

// Exclusive reports whether the service's store is this process's alone (SQLite): its state
// version is known without a query, so a request need not keep the one it read.
func (s *Service) Exclusive() bool {
	e, ok := s.inner.(exclusive)
	return ok && e.Exclusive()
}

// exclusive is a store that says whether it is its process's alone (package store's DB).
type exclusive interface {
	// Exclusive reports whether this process is the database's only writer.
	Exclusive() bool
}

// version is the state version for this request: the one the request read already, or the
// store's.
func (s *Service) version(ctx context.Context) (int64, error) {
	m := memoOf(ctx)
	if m != nil {
		if v := m.get(); v > 0 {
			return v, nil
		}
	}
	v, err := s.store.State(ctx)
	if err != nil {
		return 0, err
	}
	if m != nil {
		m.set(v)
	}
	return v, nil
}
