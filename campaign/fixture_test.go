package campaign_test

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/testdb"
	"github.com/coalition-wargame/coalition/store"
)

// clock is a controllable clock for tests.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// start is the fixtures' time: a Sunday noon, a turn's lock is days away.
var start = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// detRand is a deterministic random source, so that seeds and passwords repeat.
type detRand struct{ r *rand.ChaCha8 }

func (d detRand) Read(p []byte) (int, error) { return d.r.Read(p) }

func newRand() detRand { return detRand{rand.NewChaCha8([32]byte{1, 2, 3})} }

type fixture struct {
	t      *testing.T
	path   string
	db     *store.DB
	svc    *campaign.Service
	clock  *clock
	admin  campaign.Actor
	actors map[string]campaign.Actor
	// passwords are those CreateCampaign gave the accounts of governCampaign.
	passwords map[string]string
}

func openDB(t *testing.T, path string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), testdb.DSN(t, os.Getenv, path), quiet)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{t: t, path: filepath.Join(t.TempDir(), "coalition.db"), clock: &clock{t: start}, actors: map[string]campaign.Actor{}}
	f.db = openDB(t, f.path)
	f.svc = f.service(f.db)
	ctx := context.Background()
	if _, err := f.svc.Bootstrap(ctx, "admin", "admin-password"); err != nil {
		t.Fatal(err)
	}
	acc, err := f.svc.Login(ctx, "admin", "admin-password")
	if err != nil {
		t.Fatal(err)
	}
	f.admin = campaign.Actor{Account: acc, IP: "192.0.2.1"}
	return f
}

func (f *fixture) service(st campaign.Store) *campaign.Service {
	backups := filepath.Join(filepath.Dir(f.path), "backups")
	if testdb.Postgres(os.Getenv) {
		backups = "" // PostgreSQL is backed up with its own tools
	}
	return campaign.NewService(st, campaign.Options{Clock: f.clock.Now, Rand: newRand(), PasswordCost: 4, Log: quiet, BackupDir: backups, BackupKeep: 3})
}

var quiet = slog.New(slog.DiscardHandler)

// army is a small army for the fixtures' maps.
func army(name string, side domain.Side, rank domain.Rank, at string, controllers ...string) domain.Army {
	sq, err := domain.ParseSquare(at)
	if err != nil {
		panic(err)
	}
	return domain.Army{Name: name, Side: side, Rank: rank, At: sq, Controllers: controllers,
		Troops: []domain.Troop{{Creature: "Grizzly Bears", Size: domain.Size{Power: 2, Toughness: 2}, Colors: []domain.Color{domain.Green}, Slot: 1, Alive: 1000, Full: 1000}}}
}

// campaign creates the standard test campaign: Sai Rei (Gazetzot, Coalition) at 3F,
// Darkhand5 (Tevesh, Phyrexia) at 10F, Urza's Guard (Gazetzot) at 20F, a judge of each kind.
func (f *fixture) campaign(plan ...campaign.PlannedTurn) int64 {
	f.t.Helper()
	m := &domain.Map{Grid: domain.DefaultGrid, Armies: []domain.Army{
		army("Sai Rei", domain.Coalition, domain.Captain, "3F", "Gazetzot"),
		army("Darkhand5", domain.Phyrexia, domain.Commander, "10F", "Tevesh"),
		army("Urza's Guard", domain.Coalition, domain.Lieutenant, "20F", "Gazetzot"),
	}}
	su := campaign.Setup{Name: "Test", Map: m, Plan: plan, Members: []campaign.Member{
		{Name: "Gazetzot", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.Captain},
		{Name: "Tevesh", Roles: []campaign.Role{campaign.Player}, Side: domain.Phyrexia, Rank: domain.Commander},
		{Name: "Mover", Roles: []campaign.Role{campaign.MovementJudge}},
		{Name: "Batty", Roles: []campaign.Role{campaign.BattleJudge}},
	}}
	created, err := f.svc.CreateCampaign(context.Background(), f.admin, su)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, a := range created.Accounts {
		acc, err := f.svc.Login(context.Background(), a.Account.Name, a.Password)
		if err != nil {
			f.t.Fatal(err)
		}
		f.actors[a.Account.Name] = campaign.Actor{Account: acc}
	}
	return created.Campaign.ID
}

func (f *fixture) as(name string) campaign.Actor {
	f.t.Helper()
	a, ok := f.actors[name]
	if !ok {
		f.t.Fatalf("no actor %s", name)
	}
	return a
}

func (f *fixture) dump() string {
	f.t.Helper()
	d, err := f.db.Dump(context.Background())
	if err != nil {
		f.t.Fatal(err)
	}
	return d
}

// failingStore fails the failAt-th write made inside a transaction.
type failingStore struct {
	campaign.Store
	failAt int
	writes int
}

var errInjected = errors.New("injected failure")

func (s *failingStore) Write(ctx context.Context, fn func(campaign.Tx) error) error {
	return s.Store.Write(ctx, func(tx campaign.Tx) error { return fn(&failingTx{Tx: tx, s: s}) })
}

type failingTx struct {
	campaign.Tx
	s *failingStore
}

func (t *failingTx) fail() error {
	t.s.writes++
	if t.s.writes == t.s.failAt {
		return errInjected
	}
	return nil
}

func (t *failingTx) PutSecret(n string, v []byte) error {
	if err := t.fail(); err != nil {
		return err
	}
	return t.Tx.PutSecret(n, v)
}
func (t *failingTx) CreateAccount(a *campaign.Account) error {
	if err := t.fail(); err != nil {
		return err
	}
	return t.Tx.CreateAccount(a)
}
func (t *failingTx) UpdateAccount(a *campaign.Account) error {
	if err := t.fail(); err != nil {
		return err
	}
	return t.Tx.UpdateAccount(a)
}
func (t *failingTx) CreateCampaign(c *campaign.Campaign) error {
	if err := t.fail(); err != nil {
		return err
	}
	return t.Tx.CreateCampaign(c)
}
func (t *failingTx) UpdateCampaign(c *campaign.Campaign) error {
	if err := t.fail(); err != nil {
		return err
	}
	return t.Tx.UpdateCampaign(c)
}
func (t *failingTx) PutMember(m *campaign.Member) error {
	if err := t.fail(); err != nil {
		return err
	}
	return t.Tx.PutMember(m)
}
func (t *failingTx) CreateTurn(x *campaign.Turn) error {
	if err := t.fail(); err != nil {
		return err
	}
	return t.Tx.CreateTurn(x)
}
func (t *failingTx) UpdateTurnTiming(x *campaign.Turn) error {
	if err := t.fail(); err != nil {
		return err
	}
	return t.Tx.UpdateTurnTiming(x)
}
func (t *failingTx) LockTurn(x *campaign.Turn) (bool, error) {
	if err := t.fail(); err != nil {
		return false, err
	}
	return t.Tx.LockTurn(x)
}
func (t *failingTx) CreatePost(p *campaign.Post) error {
	if err := t.fail(); err != nil {
		return err
	}
	return t.Tx.CreatePost(p)
}
func (t *failingTx) WithdrawPost(id int64, at time.Time) error {
	if err := t.fail(); err != nil {
		return err
	}
	return t.Tx.WithdrawPost(id, at)
}
func (t *failingTx) PutResult(r *campaign.Result) error {
	if err := t.fail(); err != nil {
		return err
	}
	return t.Tx.PutResult(r)
}
func (t *failingTx) AddControl(e *campaign.ControlEntry) error {
	if err := t.fail(); err != nil {
		return err
	}
	return t.Tx.AddControl(e)
}
func (t *failingTx) AddAudit(e *campaign.AuditEntry) error {
	if err := t.fail(); err != nil {
		return err
	}
	return t.Tx.AddAudit(e)
}

func (t *failingTx) AddEvent(e *campaign.Event) (bool, error) {
	if err := t.fail(); err != nil {
		return false, err
	}
	return t.Tx.AddEvent(e)
}

func (t *failingTx) AddDelivery(d *campaign.Delivery) error {
	if err := t.fail(); err != nil {
		return err
	}
	return t.Tx.AddDelivery(d)
}
