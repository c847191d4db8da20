package campaign_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

// stallingStore makes the lock of one campaign hang, or fail, at a chosen place, as a lock that
// runs long or breaks would.
type stallingStore struct {
	campaign.Store
	campaign int64
	// where is "transaction" (the lock hangs inside its transaction, holding SQLite's one
	// writer), "before" (it hangs reading, before its transaction) or "fail" (it fails).
	where   string
	release chan struct{}
	mu      sync.Mutex
	stalls  int
}

var errStalled = errors.New("the stalled lock was let go")

// stall hangs until the test lets go.
func (s *stallingStore) stall() error {
	s.mu.Lock()
	s.stalls++
	s.mu.Unlock()
	<-s.release
	return errStalled
}

func (s *stallingStore) Write(ctx context.Context, fn func(campaign.Tx) error) error {
	return s.Store.Write(ctx, func(tx campaign.Tx) error { return fn(&stallingTx{Tx: tx, s: s}) })
}

func (s *stallingStore) Read(ctx context.Context, fn func(campaign.Reader) error) error {
	return s.Store.Read(ctx, func(r campaign.Reader) error { return fn(&stallingReader{Reader: r, s: s}) })
}

type stallingTx struct {
	campaign.Tx
	s *stallingStore
}

// ClaimCampaign is the lock transaction's first step.
func (t *stallingTx) ClaimCampaign(id int64) (bool, error) {
	if id == t.s.campaign {
		switch t.s.where {
		case "transaction":
			return false, t.s.stall()
		case "fail":
			return false, errInjected
		}
	}
	return t.Tx.ClaimCampaign(id)
}

type stallingReader struct {
	campaign.Reader
	s *stallingStore
}

// MercenarySettings is read before the lock's transaction (aiSetupFor).
func (r *stallingReader) MercenarySettings(id int64) (*campaign.MercenarySettings, error) {
	if id == r.s.campaign && r.s.where == "before" {
		return nil, r.s.stall()
	}
	return r.Reader.MercenarySettings(id)
}

// within runs fn and fails the test if it has not returned after a minute: the old code's
// service-wide lock made such a call wait for ever.
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s waits on another campaign's stuck lock", what)
	}
}

// another creates one more campaign like the fixture's, named name, with the same members.
func (f *fixture) another(name string) int64 {
	f.t.Helper()
	m := &domain.Map{Grid: domain.DefaultGrid, Armies: []domain.Army{
		army("Sai Rei", domain.Coalition, domain.Captain, "3F", "Gazetzot"),
		army("Darkhand5", domain.Phyrexia, domain.Commander, "10F", "Tevesh"),
	}}
	created, err := f.svc.CreateCampaign(ctx, f.admin, campaign.Setup{Name: name, Map: m, Members: []campaign.Member{
		{Name: "Gazetzot", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.Captain},
		{Name: "Tevesh", Roles: []campaign.Role{campaign.Player}, Side: domain.Phyrexia, Rank: domain.Commander},
		{Name: "Mover", Roles: []campaign.Role{campaign.MovementJudge}},
	}})
	if err != nil {
		f.t.Fatal(err)
	}
	return created.Campaign.ID
}

// Issue 17, R96: a campaign whose lock hangs (in its transaction or before it) or fails does
// not keep another campaign's lock from running on time — in the same sweep, and a judge's
// lock of a third campaign meanwhile. The stuck lock is abandoned after its budget, recorded on
// its turn for the judges, and locked at a later tick once it can run; nothing locks twice.
func TestStuckLockDoesNotDelayAnotherCampaign(t *testing.T) {
	for _, where := range []string{"transaction", "before", "fail"} {
		t.Run(where, func(t *testing.T) {
			f := newFixture(t)
			stuck := f.campaign()
			other := f.another("Other")
			third := f.another("Third")
			v, _ := f.svc.Turn(ctx, campaign.Actor{}, stuck, 1)
			f.clock.Set(v.LockAt.Add(time.Minute))
			st := &stallingStore{Store: f.db, campaign: stuck, where: where, release: make(chan struct{})}
			released := false
			letGo := func() {
				if !released {
					close(st.release)
					released = true
				}
			}
			t.Cleanup(letGo)
			svc := campaign.NewService(st, campaign.Options{Clock: f.clock.Now, Rand: newRand(), PasswordCost: 4, Log: quiet,
				LockBudget: 2 * time.Second, LockWorkers: 2})
			// the card catalogue is read once, before the locks, as the server does at start-up
			if _, err := svc.Catalogue(ctx); err != nil {
				t.Fatal(err)
			}
			// campaign three is not due yet: a judge locks it early while the first is stuck
			if _, err := svc.Pause(ctx, f.as("Mover"), third, "not due in this test"); err != nil {
				t.Fatal(err)
			}

			var got []campaign.LockOutcome
			within(t, "the sweep", func() {
				var err error
				if got, err = svc.LockDue(ctx); err != nil {
					t.Error(err)
				}
			})
			errs := map[int64]string{}
			for _, o := range got {
				errs[o.Campaign] = o.Error
			}
			if e, ok := errs[other]; !ok || e != "" {
				t.Errorf("the other campaign's lock: %+v", got)
			}
			want := map[string]string{"transaction": "budget", "before": "budget", "fail": errInjected.Error()}[where]
			if !strings.Contains(errs[stuck], want) {
				t.Errorf("the stuck campaign's outcome %q does not say %q", errs[stuck], want)
			}
			ov, err := f.svc.Turn(ctx, f.admin, other, 1)
			if err != nil || ov.Status != campaign.Locked || !ov.LockedAt.Equal(f.clock.Now()) {
				t.Errorf("the other campaign's turn 1: %+v %v", ov, err)
			}
			sv, err := f.svc.Turn(ctx, f.admin, stuck, 1)
			if err != nil || sv.Status != campaign.Open || !strings.Contains(sv.LockError, want) {
				t.Errorf("the stuck campaign's turn 1 is %s with lock error %q, want open and the failure recorded", sv.Status, sv.LockError)
			}

			if _, err := svc.Resume(ctx, f.as("Mover"), third, "test"); err != nil {
				t.Fatal(err)
			}
			within(t, "a judge's lock of a third campaign", func() {
				if _, err := svc.Lock(ctx, f.as("Mover"), third, 1, "early"); err != nil {
					t.Error(err)
				}
			})

			if where != "fail" {
				// still stuck: the next tick does not start a second attempt beside it
				again, err := svc.LockDue(ctx)
				if err != nil || len(again) != 1 || again[0].Campaign != stuck || !strings.Contains(again[0].Error, "still running") {
					t.Errorf("a sweep while the abandoned lock still runs: %+v %v", again, err)
				}
			}
			letGo()
			st.where = ""
			locked := false
			for range 200 {
				out, err := svc.LockDue(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if len(out) == 1 && out[0].Campaign == stuck && out[0].Error == "" {
					locked = true
					break
				}
				time.Sleep(10 * time.Millisecond) // the abandoned attempt is returning
			}
			if !locked {
				t.Fatal("the stuck campaign never locked once let go")
			}
			for _, id := range []int64{stuck, other, third} {
				audit, err := f.svc.Audit(ctx, f.admin, id, 100)
				if err != nil {
					t.Fatal(err)
				}
				n := 0
				for _, e := range audit {
					if e.Action == "turn.lock" {
						n++
					}
				}
				if n != 1 {
					t.Errorf("campaign %d locked %d times, want once", id, n)
				}
			}
		})
	}
}
