// Package campaign is the campaign workflow on a store port: accounts and logins, campaigns,
// members and the control list, posts, locks (through turn.Run), the battle desk, the armies
// desk, the audit log and the views, every permission decided in policy.go. package store
// implements its Store; package api speaks to its Service.
package campaign

import (
	"crypto/rand"
	"io"
	"log/slog"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/deck"
	"github.com/coalition-wargame/coalition/format"
)

// Options configure a Service; zero fields take the defaults named on each.
type Options struct {
	// Clock is time.Now by default.
	Clock Clock
	// Rand is crypto/rand by default: turn seeds and generated passwords come from it.
	Rand io.Reader
	// Log is slog.Default() by default.
	Log *slog.Logger
	// PasswordCost is the bcrypt cost, bcrypt.DefaultCost by default.
	PasswordCost int
	// ComparePassword checks a password against its hash: bcrypt.CompareHashAndPassword by
	// default (the tests count the calls through it).
	ComparePassword func(hash, password []byte) error
	// BackupDir, when set and the store is a Backupper, receives a checked copy of the
	// database before every sweep that locks a turn and before a judge's lock; BackupKeep good
	// copies are kept (10 by default).
	BackupDir  string
	BackupKeep int
	// LockBudget is the most one lock may take, not counting its wait for the database's
	// writer, before it is abandoned and retried next tick (R96): a minute by default.
	LockBudget time.Duration
	// LockWorkers is how many due turns the scheduler locks at once: 2 by default.
	LockWorkers int
	// SweepMetrics receives what the sweeps, locks and backups did; nothing by default.
	SweepMetrics SweepMetrics
	// Cards is the card catalogue troop lists are checked against: the data shipped in the
	// program (cards.Load) by default. The judges' corrections are put over it.
	Cards *cards.Catalogue
	// Decks is the every-card catalogue deck lists are checked against: the data shipped in
	// the program (deck.Shipped, loaded on the first check) by default. It is never written
	// to: the judges' corrections go over a fork of it.
	Decks *deck.Catalogue
	// Formats is the card formats document decks are checked and matches kept by: the shipped
	// one (format.Shipped) by default, or one read with format.Read that adds revisions or
	// sub-formats (F-7). The admins' banned lists' versions go over its lists.
	Formats *format.Formats
	// Notifier sends the outbox's deliveries (webhooks, e-mail); without one the server sends
	// nothing and takes no subscription to a webhook or an address.
	Notifier Notifier
	// RemindBefore is how long before the lock a player is reminded of his armies with no
	// order, and before the battle deadline a controller of his battles with no strategy: 24 h
	// by default.
	RemindBefore time.Duration
}

// Service is the campaign workflow: accounts and roles, campaigns, posts, battle results, the
// scheduled lock and the views of all of it, on top of a Store. Every method checks, per
// object, that its actor may do what it asks.
type Service struct {
	store Store
	opt   Options
	// campaigns lets one lock of each campaign run at a time in this process (any number of
	// campaigns at once); the store's conditional update and claim keep a turn from locking
	// twice across processes.
	campaigns campaignLocks
	// backups lets one backup run at a time; cleaned is set once the backup folder was cleaned.
	backups sync.Mutex
	cleaned bool
	metrics SweepMetrics
	// retrying keeps the turns the last sweep failed to lock, and when a sweep last backed up.
	retrying struct {
		sync.Mutex
		failed   map[[2]int64]bool
		backedUp time.Time
	}
	dummy struct {
		sync.Once
		hash string
	}
	cat catalogue
	// decks is the every-card catalogue with the judges' corrections (decks.go)
	decks deckCards
	// plans keeps the mercenary AI's latest plan of each campaign, by map version (plan.go)
	plans planCache
	// kick wakes the dispatcher after a commit that put something in the outbox.
	kick chan struct{}
	// notes keeps what the dispatcher did: reminders made, the reach cache.
	notes notes
	// hot keeps the campaigns' and accounts' hot state by state version (hot.go); batch
	// commits concurrent posts together (batch.go); expired says when idempotency keys were
	// last expired; stats count for the metrics.
	hot   hot
	batch batcher
	// inner is the store under the state version's tracking.
	inner   Store
	expired expiry
	stats   Stats
}

// NewService makes a service on a store.
func NewService(st Store, opt Options) *Service {
	if opt.Clock == nil {
		opt.Clock = time.Now
	}
	if opt.Rand == nil {
		opt.Rand = rand.Reader
	}
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	if opt.ComparePassword == nil {
		opt.ComparePassword = bcrypt.CompareHashAndPassword
	}
	if opt.BackupKeep <= 0 {
		opt.BackupKeep = 10
	}
	if opt.RemindBefore <= 0 {
		opt.RemindBefore = 24 * time.Hour
	}
	if opt.LockBudget <= 0 {
		opt.LockBudget = time.Minute
	}
	if opt.LockWorkers <= 0 {
		opt.LockWorkers = 2
	}
	var m SweepMetrics = noMetrics{}
	if opt.SweepMetrics != nil {
		m = opt.SweepMetrics
	}
	s := &Service{opt: opt, kick: make(chan struct{}, 1), inner: st, metrics: m}
	// every write goes through the state version (state.go); a store that makes backups
	// still says so
	t := &tracked{Store: st, s: s}
	if b, ok := st.(Backupper); ok {
		s.store = trackedBackupper{t, b}
	} else {
		s.store = t
	}
	return s
}

// trackedBackupper is the tracked store of a store that makes backups.
type trackedBackupper struct {
	*tracked
	Backupper
}

// Actor is who asks: an account (nil when nobody is logged in) and the address the request
// came from, for the audit log.
type Actor struct {
	Account *Account
	IP      string
	// As names an actor that is no account, such as the scheduler.
	As string
}

// Name is the actor's screen name, or "anonymous".
func (a Actor) Name() string {
	switch {
	case a.Account != nil:
		return a.Account.Name
	case a.As != "":
		return a.As
	}
	return "anonymous"
}

// now is the service's time, truncated to microseconds so that it survives every database.
func (s *Service) now() time.Time { return s.opt.Clock().UTC().Truncate(time.Microsecond) }

// Clock tells the time; the server passes time.Now, tests a fixed or controllable clock.
type Clock func() time.Time

// Operator is the person at the command line: he has the database in hand, so he acts as a
// server admin; the audit log names him.
func Operator(name string) Actor { return Actor{Account: &Account{Name: name, Admin: true}, As: name} }

// nonNil is s, or an empty slice for nil, so that JSON writes [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		s = []T{}
	}
	return s
}
