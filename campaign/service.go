// Package campaign is the campaign workflow on a store port: accounts and logins, campaigns,
// members and the control list, posts, locks (through turn.Run), the battle desk, the armies
// desk, the audit log and the views. package store implements its Store; package api speaks to
// its Service.
package campaign

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/domain"
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
	// BackupDir, when set and the store is a Backupper, receives a copy of the database
	// before every lock; BackupKeep copies are kept (10 by default).
	BackupDir  string
	BackupKeep int
	// Cards is the card catalogue troop lists are checked against: the data shipped in the
	// program (cards.Load) by default. The judges' corrections are put over it.
	Cards *cards.Catalogue
}

// Service is the campaign workflow: accounts and roles, campaigns, posts, battle results, the
// scheduled lock and the views of all of it, on top of a Store. Every method checks, per
// object, that its actor may do what it asks.
type Service struct {
	store Store
	opt   Options
	// locking lets one lock of this process run at a time, so that backups do not race;
	// the store's conditional update keeps a turn from locking twice across processes.
	locking sync.Mutex
	dummy   struct {
		sync.Once
		hash string
	}
	cat catalogue
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
	if opt.BackupKeep <= 0 {
		opt.BackupKeep = 10
	}
	return &Service{store: st, opt: opt}
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

func (s *Service) audit(tx Tx, campaign int64, a Actor, action, format string, args ...any) error {
	return tx.AddAudit(&AuditEntry{CampaignID: campaign, At: s.now(), Actor: a.Name(), Action: action, Detail: fmt.Sprintf(format, args...), IP: a.IP})
}

// access is what an actor is in one campaign.
type access struct {
	actor  Actor
	member *Member
}

func (x access) admin() bool { return x.actor.Account != nil && x.actor.Account.Admin }

// judge reports whether the actor may see everything of the campaign: its judges and the
// server's admins.
func (x access) judge() bool { return x.member.Judge() || x.admin() }

func (x access) has(r Role) bool { return x.member.Has(r) }

// side is the team whose private details the actor may see ("" for none).
func (x access) side() domain.Side {
	switch {
	case x.member.Plays():
		return x.member.Side
	case x.member.Has(MercenaryJudge):
		return domain.Mercenary
	}
	return ""
}

// class names what part of the campaign the actor may see: "judge", a side, or "public".
func (x access) class() string {
	if x.judge() {
		return "judge"
	}
	if s := x.side(); s != "" {
		return string(s)
	}
	return "public"
}

func (x access) needLogin() error {
	if x.actor.Account == nil {
		return domain.Errorf(domain.ErrUnauthorized, "log in first: this needs an account")
	}
	return nil
}

func (x access) need(what string, ok bool) error {
	if err := x.needLogin(); err != nil {
		return err
	}
	if !ok {
		return domain.Errorf(domain.ErrForbidden, "%s may not %s", x.actor.Name(), what)
	}
	return nil
}

// campaignAccess loads a campaign and the actor's membership in it.
func campaignAccess(r Reader, a Actor, id int64) (*Campaign, access, error) {
	c, err := r.Campaign(id)
	if err != nil {
		return nil, access{}, err
	}
	x := access{actor: a}
	if a.Account != nil {
		m, err := r.Member(id, a.Account.ID)
		switch {
		case err == nil:
			x.member = m
		case !errors.Is(err, domain.ErrNotFound):
			return nil, x, err
		}
	}
	return c, x, nil
}

// turnAccess is campaignAccess for turn n of the campaign, with the turn.
func turnAccess(r Reader, a Actor, id int64, n int) (*Campaign, access, *Turn, error) {
	c, x, err := campaignAccess(r, a, id)
	if err != nil {
		return nil, x, nil, err
	}
	t, err := r.Turn(id, n)
	if err != nil {
		return nil, x, nil, err
	}
	return c, x, t, nil
}

// Class says what part of a campaign the actor may see: "judge", "coalition", "phyrexia",
// "mercenary" or "public". Views of the map differ only by class.
func (s *Service) Class(ctx context.Context, a Actor, campaign int64) (string, error) {
	var class string
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, err := campaignAccess(r, a, campaign)
		class = x.class()
		return err
	})
	return class, err
}

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
