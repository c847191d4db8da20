package campaign_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/testdb"
	"github.com/coalition-wargame/coalition/turn"
)

var ctx = context.Background()

func TestPostAnswersEachLineAtOnce(t *testing.T) {
	f := newFixture(t)
	id := f.campaign()
	out, err := f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Sai Rei: 3F > 4F\nSai Rei: 3F > 9F\nDarkhand5: 10F > 11F\nUrza's Guard: 20F > 21F; engage Nobody"})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		status string
		code   domain.Code
	}{{"accepted", ""}, {"rejected", domain.CodeOutOfRange}, {"rejected", domain.CodeNotController}, {"warning", ""}}
	if len(out.Lines) != len(want) {
		t.Fatalf("got %d lines, want %d: %+v", len(out.Lines), len(want), out.Lines)
	}
	for i, w := range want {
		if l := out.Lines[i]; l.Status != w.status || l.Code != w.code {
			t.Errorf("line %d: %s %s (%s), want %s %s", i+1, l.Status, l.Code, l.Message, w.status, w.code)
		}
	}
	if out.Post == nil || out.Post.ID == 0 || out.Post.Author != "Gazetzot" {
		t.Errorf("post not recorded: %+v", out.Post)
	}
}

func TestCheckSavesNothing(t *testing.T) {
	f := newFixture(t)
	id := f.campaign()
	before := f.dump()
	out, err := f.svc.CheckPost(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Sai Rei: 3F > 4F"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Post != nil || len(out.Lines) != 1 || out.Lines[0].Status != "accepted" {
		t.Errorf("check: %+v", out)
	}
	if after := f.dump(); after != before {
		t.Error("a check changed the database")
	}
}

func TestStructuredOrdersRenderToTheClassicLine(t *testing.T) {
	sq := func(s string) domain.Square { q, _ := domain.ParseSquare(s); return q }
	f := newFixture(t)
	id := f.campaign()
	out, err := f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Orders: []campaign.OrderInput{
		{Army: "Sai Rei", Kind: domain.MoveKind, From: sq("3F"), Legs: []domain.Leg{{To: sq("5F")}}, Keyword: "engage", Target: "Nobody"},
		{Army: "Urza's Guard", Kind: domain.Hold},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out.Post.Text, "Sai Rei: 3F > 5F; engage Nobody\nUrza's Guard: no move"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	if out.Post.Source != "json" {
		t.Errorf("source %q", out.Post.Source)
	}
	for _, c := range []struct {
		name  string
		order campaign.OrderInput
		want  string
	}{
		{"bad kind", campaign.OrderInput{Army: "Sai Rei", Kind: "fly"}, `"fly" is not a kind of order`},
		{"note on a move", campaign.OrderInput{Army: "Sai Rei", Kind: domain.MoveKind, From: sq("3F"), Legs: []domain.Leg{{To: sq("4F")}}, Note: "flank them"},
			"a note goes only with a hold"},
		{"creatures on a move", campaign.OrderInput{Army: "Sai Rei", Kind: domain.MoveKind, From: sq("3F"), Legs: []domain.Leg{{To: sq("4F")}}, Creatures: map[string]int{"Kris Mage": 1}},
			"creatures go only with a transfer"},
	} {
		_, err = f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Orders: []campaign.OrderInput{c.order}})
		if !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

func TestPrivatePostsHiddenUntilTheLock(t *testing.T) {
	f := newFixture(t)
	id := f.campaign()
	if _, err := f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Sai Rei: 3F > 4F", Private: true}); err != nil {
		t.Fatal(err)
	}
	seen := func(a campaign.Actor) int {
		ps, err := f.svc.Posts(ctx, a, id, 1)
		if err != nil {
			t.Fatal(err)
		}
		return len(ps)
	}
	for _, c := range []struct {
		who  string
		a    campaign.Actor
		want int
	}{{"author", f.as("Gazetzot"), 1}, {"enemy", f.as("Tevesh"), 0}, {"anonymous", campaign.Actor{}, 0}, {"judge", f.as("Mover"), 1}} {
		if got := seen(c.a); got != c.want {
			t.Errorf("%s sees %d posts before the lock, want %d", c.who, got, c.want)
		}
	}
	if _, err := f.svc.Lock(ctx, f.as("Mover"), id, 1, "test"); err != nil {
		t.Fatal(err)
	}
	if got := seen(f.as("Tevesh")); got != 1 {
		t.Errorf("enemy sees %d posts after the lock, want 1", got)
	}
}

func TestEditAndWithdraw(t *testing.T) {
	f := newFixture(t)
	id := f.campaign()
	first, err := f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Sai Rei: 3F > 4F"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.EditPost(ctx, f.as("Tevesh"), id, first.Post.ID, campaign.PostRequest{Text: "x"}); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("someone else's edit: %v", err)
	}
	f.clock.Set(start.Add(time.Minute))
	edited, err := f.svc.EditPost(ctx, f.as("Gazetzot"), id, first.Post.ID, campaign.PostRequest{Text: "Sai Rei: 3F > 3H"})
	if err != nil {
		t.Fatal(err)
	}
	if edited.Post.Replaces != first.Post.ID {
		t.Errorf("replaces %d", edited.Post.Replaces)
	}
	if _, err := f.svc.EditPost(ctx, f.as("Gazetzot"), id, first.Post.ID, campaign.PostRequest{Text: "x"}); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("edit of a replaced post: %v", err)
	}
	u, err := f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Urza's Guard: 20F > 22F"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.WithdrawPost(ctx, f.as("Gazetzot"), id, u.Post.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Lock(ctx, f.as("Mover"), id, 1, "test"); err != nil {
		t.Fatal(err)
	}
	v, err := f.svc.TurnMap(ctx, campaign.Actor{}, id, 2)
	if err != nil {
		t.Fatal(err)
	}
	pos := map[string]string{}
	for _, a := range v.Armies {
		pos[a.Name] = a.At.String()
	}
	if pos["Sai Rei"] != "3H" || pos["Urza's Guard"] != "20F" {
		t.Errorf("positions after the lock %v: the edit must count, the withdrawn post not (M2)", pos)
	}
	f.clock.Set(start.Add(2 * time.Minute))
	if _, err := f.svc.WithdrawPost(ctx, f.as("Gazetzot"), id, edited.Post.ID); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("withdrawal after the lock: %v", err)
	}
}

func TestControlAtTheLockCounts(t *testing.T) {
	// C4, 5.4.2: Gazetzot posts for Urza's Guard, then loses it to Lt Kim before the lock.
	f := newFixture(t)
	id := f.campaign()
	ctxAdmin := f.admin
	acc, err := f.svc.CreateAccount(ctx, ctxAdmin, "Kim", "kim-password", false)
	if err != nil {
		t.Fatal(err)
	}
	kim, _ := f.svc.Login(ctx, "Kim", "kim-password")
	_ = acc
	if _, err := f.svc.SetMember(ctx, f.as("Mover"), id, campaign.Member{Name: "Kim", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.Lieutenant}); err != nil {
		t.Fatal(err)
	}
	out, err := f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Urza's Guard: 20F > 22F"})
	if err != nil || out.Lines[0].Status != "accepted" {
		t.Fatalf("%v %+v", err, out)
	}
	f.clock.Set(start.Add(time.Hour))
	if _, err := f.svc.SetControl(ctx, f.as("Mover"), id, "Sai Rei", []string{"Kim"}, ""); err == nil || !strings.Contains(err.Error(), "5.3.1") {
		t.Errorf("a Lieutenant given a Captain army: %v", err)
	}
	if _, err := f.svc.SetControl(ctx, f.as("Mover"), id, "Urza's Guard", []string{"Kim"}, "swap"); err != nil {
		t.Fatal(err)
	}
	lock, err := f.svc.Lock(ctx, f.as("Mover"), id, 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	_ = lock
	rep, err := f.svc.Report(ctx, campaign.Actor{Account: kim}, id, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(rep.Report), `"code":"not_controller"`) {
		t.Errorf("the order of a player who lost control before the lock must be rejected: %s", rep.Report)
	}
}

func TestReplayGivesTheSameBytes(t *testing.T) {
	f := newFixture(t)
	id := f.campaign()
	if _, err := f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Sai Rei: 3F > 9F\nSai Rei: 3F > 6F\nUrza's Guard: 20F > 21G"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Post(ctx, f.as("Tevesh"), id, campaign.PostRequest{Text: "Darkhand5: 10F > 7F; engage Sai Rei", Private: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Lock(ctx, f.as("Batty"), id, 1, "test"); err != nil {
		t.Fatal(err)
	}
	res, err := f.svc.Replay(ctx, f.as("Mover"), id, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Same {
		t.Fatal(res.Detail)
	}
	if _, err := f.svc.Replay(ctx, f.as("Gazetzot"), id, 1); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("a player replays: %v", err)
	}
}

// C3: a lock that fell due while the server was down runs exactly once at start-up.
func TestLockDueWhileDownRunsOnceAtStart(t *testing.T) {
	f := newFixture(t)
	id := f.campaign()
	v, err := f.svc.Turn(ctx, campaign.Actor{}, id, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := f.svc.LockDue(ctx); len(got) != 0 {
		t.Fatalf("nothing is due yet, but %v locked", got)
	}
	f.db.Close()
	f.clock.Set(v.LockAt.Add(3 * 24 * time.Hour))
	f.db = openDB(t, f.path)
	f.svc = f.service(f.db)
	got, err := f.svc.LockDue(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Turn != 1 || got[0].Error != "" {
		t.Fatalf("start-up sweep locked %+v, want turn 1", got)
	}
	again, err := f.svc.LockDue(ctx)
	if err != nil || len(again) != 0 {
		t.Fatalf("second sweep: %v %+v", err, again)
	}
	turns, err := f.svc.Turns(ctx, f.admin, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 2 || turns[0].Status != campaign.Locked || turns[1].Status != campaign.Open {
		t.Fatalf("turns %+v", turns)
	}
	if !turns[1].LockAt.After(f.clock.Now()) {
		t.Errorf("the next turn must lock in the future, not at %s", turns[1].LockAt)
	}
	audit, err := f.svc.Audit(ctx, f.admin, id, 100)
	if err != nil {
		t.Fatal(err)
	}
	locks := 0
	for _, e := range audit {
		if e.Action == "turn.lock" {
			locks++
			if e.Actor != campaign.Scheduler {
				t.Errorf("locked by %s", e.Actor)
			}
		}
	}
	if locks != 1 {
		t.Errorf("%d locks in the audit log, want 1", locks)
	}
	backups, _ := filepath.Glob(filepath.Join(filepath.Dir(f.path), "backups", "coalition-*.db"))
	if !testdb.Postgres(os.Getenv) && len(backups) != 1 {
		t.Errorf("%d backups, want 1 before the lock", len(backups))
	}
}

func TestConcurrentLocksLockOnce(t *testing.T) {
	f := newFixture(t)
	id := f.campaign()
	v, _ := f.svc.Turn(ctx, campaign.Actor{}, id, 1)
	f.clock.Set(v.LockAt)
	if _, err := f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Sai Rei: 3F > 4F"}); err != nil {
		t.Fatal(err)
	}
	// Two services on two connections to one file, as two server processes would be.
	other := f.service(openDB(t, f.path))
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			svc := f.svc
			if i%4 >= 2 {
				svc = other
			}
			if i%2 == 0 {
				_, errs[i] = svc.Lock(ctx, f.as("Mover"), id, 1, "race")
			} else {
				var got []campaign.LockOutcome
				got, errs[i] = svc.LockDue(ctx)
				switch {
				case errs[i] != nil:
				case len(got) == 0:
					errs[i] = domain.ErrConflict
				case got[0].Error != "":
					errs[i] = errors.New(got[0].Error)
				}
			}
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, domain.ErrConflict):
			t.Errorf("unexpected error: %v", err)
		}
	}
	if ok != 1 {
		t.Errorf("%d calls locked turn 1, want exactly 1", ok)
	}
	turns, _ := f.svc.Turns(ctx, f.admin, id)
	if len(turns) != 2 {
		t.Errorf("%d turns, want 2", len(turns))
	}
}

// A failure injected at any write of a lock leaves the database exactly as it was.
func TestFailedLockChangesNothing(t *testing.T) {
	f := newFixture(t)
	id := f.campaign()
	if _, err := f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Sai Rei: 3F > 6F"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Post(ctx, f.as("Tevesh"), id, campaign.PostRequest{Text: "Darkhand5: 10F > 7F"}); err != nil {
		t.Fatal(err)
	}
	before := f.dump()
	writes := 0
	for n := 1; ; n++ {
		fs := &failingStore{Store: f.db, failAt: n}
		svc := f.service(fs)
		_, err := svc.Lock(ctx, f.as("Mover"), id, 1, "failure test")
		if err == nil {
			writes = fs.writes
			break
		}
		if !errors.Is(err, errInjected) {
			t.Fatalf("write %d: %v", n, err)
		}
		if after := f.dump(); after != before {
			t.Fatalf("a failure at write %d of the lock changed the database", n)
		}
	}
	if writes < 4 {
		t.Errorf("the lock made only %d writes: the failures did not reach its middle", writes)
	}
	if after := f.dump(); after == before {
		t.Error("the successful lock changed nothing")
	}
}

func TestScheduledLockFailureIsRecorded(t *testing.T) {
	// A battle with no result whose sides both sent strategies cannot be settled: the
	// scheduler records why and retries.
	f := newFixture(t)
	id := f.campaign()
	if _, err := f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Sai Rei: 3F > 6F"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Post(ctx, f.as("Tevesh"), id, campaign.PostRequest{Text: "Darkhand5: 10F > 7F"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Lock(ctx, f.as("Mover"), id, 1, "test"); err != nil {
		t.Fatal(err)
	}
	mp, _ := f.svc.CurrentMap(ctx, campaign.Actor{}, id)
	if len(mp.Battles) != 0 {
		t.Fatalf("no battle expected yet: %+v", mp.Battles)
	}
	if _, err := f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Sai Rei: 6F > 7F; engage Darkhand5"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Lock(ctx, f.as("Mover"), id, 2, "test"); err != nil {
		t.Fatal(err)
	}
	// both sides send strategies, so the battle waits for the battle judge (B2)
	for _, s := range []struct{ who, army string }{{"Gazetzot", "Sai Rei"}, {"Tevesh", "Darkhand5"}} {
		if _, err := f.svc.SubmitStrategy(ctx, f.as(s.who), id, 3, mustSquare("7F"), campaign.StrategyRequest{Army: s.army, Text: "charge"}); err != nil {
			t.Fatal(err)
		}
	}
	t3, _ := f.svc.Turn(ctx, f.admin, id, 3)
	f.clock.Set(t3.LockAt)
	got, err := f.svc.LockDue(ctx)
	if err != nil || len(got) != 1 || !strings.Contains(got[0].Error, "has no result") {
		t.Fatalf("%v %+v", err, got)
	}
	t3, _ = f.svc.Turn(ctx, f.as("Mover"), id, 3)
	if t3.Status != campaign.Open || !strings.Contains(t3.LockError, "has no result") {
		t.Errorf("turn 3: %+v", t3)
	}
	res := domain.BattleResult{Square: mustSquare("7F"), Winner: "Sai Rei", Losses: map[string]map[string]int{"Darkhand5": {"Grizzly Bears": 100}}}
	if _, err := f.svc.EnterResult(ctx, f.as("Mover"), id, 3, res); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("a movement judge enters a result: %v", err)
	}
	if _, err := f.svc.EnterResult(ctx, f.as("Batty"), id, 3, domain.BattleResult{Square: mustSquare("8F")}); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("a result for a square with no battle: %v", err)
	}
	if _, err := f.svc.EnterResult(ctx, f.as("Batty"), id, 3, res); err != nil {
		t.Fatal(err)
	}
	got, err = f.svc.LockDue(ctx)
	if err != nil || len(got) != 1 || got[0].Error != "" {
		t.Fatalf("%v %+v", err, got)
	}
	rep, err := f.svc.Report(ctx, campaign.Actor{}, id, 3)
	if err != nil {
		t.Fatal(err)
	}
	var r turn.Report
	if err := json.Unmarshal(rep.Report, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Settled) != 1 || r.Settled[0].Winner != domain.Coalition {
		t.Errorf("settled %+v", r.Settled)
	}
}

func TestExtendPauseResume(t *testing.T) {
	f := newFixture(t)
	id := f.campaign()
	t1, _ := f.svc.Turn(ctx, campaign.Actor{}, id, 1)
	if _, err := f.svc.Extend(ctx, f.as("Mover"), id, 1, 48*time.Hour, ""); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("an extension without a reason: %v", err)
	}
	if _, err := f.svc.Extend(ctx, f.as("Gazetzot"), id, 1, 48*time.Hour, "please"); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("a player extends: %v", err)
	}
	v, err := f.svc.Extend(ctx, f.as("Mover"), id, 1, 48*time.Hour, "holiday")
	if err != nil {
		t.Fatal(err)
	}
	if !v.LockAt.Equal(t1.LockAt.Add(48 * time.Hour)) {
		t.Errorf("lock at %s", v.LockAt)
	}
	if _, err := f.svc.Extend(ctx, f.as("Mover"), id, 1, 25*time.Hour, "more"); err == nil || !strings.Contains(err.Error(), "at most 72h in total; it has been extended by 48h already") {
		t.Errorf("past the cap: %v", err)
	}
	// extensions count in whole minutes: one too short to count moves nothing (audit finding)
	if _, err := f.svc.Extend(ctx, f.as("Mover"), id, 1, 20*time.Second, "a moment"); err == nil || !strings.Contains(err.Error(), "at least a minute") {
		t.Errorf("a 20 s extension: %v", err)
	}
	if v, err = f.svc.Extend(ctx, f.as("Mover"), id, 1, 90*time.Minute+10*time.Second, "a bit more"); err != nil || !v.LockAt.Equal(t1.LockAt.Add(49*time.Hour+30*time.Minute)) {
		t.Errorf("an extension of 1h30m10s: %v, lock at %v", err, v.LockAt)
	}
	if _, err := f.svc.Pause(ctx, f.as("Batty"), id, "server move"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Sai Rei: 3F > 4F"}); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("a post while paused: %v", err)
	}
	f.clock.Set(v.LockAt.Add(time.Hour))
	if got, _ := f.svc.LockDue(ctx); len(got) != 0 {
		t.Errorf("a paused campaign locked: %+v", got)
	}
	f.clock.Set(start.Add(10 * time.Hour))
	if _, err := f.svc.Resume(ctx, f.as("Batty"), id, "back"); err != nil {
		t.Fatal(err)
	}
	t1b, _ := f.svc.Turn(ctx, campaign.Actor{}, id, 1)
	if !t1b.LockAt.Equal(v.LockAt.Add(10 * time.Hour)) {
		t.Errorf("after a 10 h pause the lock is at %s, want %s", t1b.LockAt, v.LockAt.Add(10*time.Hour))
	}
}

func TestPlannedLockAndWindow(t *testing.T) {
	lock := time.Date(2026, 3, 3, 5, 0, 0, 0, time.UTC)
	f := newFixture(t)
	id := f.campaign(campaign.PlannedTurn{Lock: &lock}, campaign.PlannedTurn{})
	t1, _ := f.svc.Turn(ctx, campaign.Actor{}, id, 1)
	if !t1.LockAt.Equal(lock) || !t1.CheckWindow {
		t.Fatalf("turn 1: %+v", t1)
	}
	out, err := f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Sai Rei: 3F > 4F", Private: true})
	if err != nil || out.Lines[0].Code != domain.CodePrivateTooEarly {
		t.Errorf("a private post 41 h before the lock: %v %+v", err, out)
	}
	f.clock.Set(lock.Add(time.Second))
	out, err = f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Sai Rei: 3F > 4F"})
	if err != nil || out.Lines[0].Code != domain.CodeTooLate {
		t.Errorf("a post after the lock time: %v %+v", err, out)
	}
	if _, err := f.svc.LockDue(ctx); err != nil {
		t.Fatal(err)
	}
	t2, _ := f.svc.Turn(ctx, campaign.Actor{}, id, 2)
	if t2.CheckWindow {
		t.Error("turn 2 was planned without a lock time: no window check")
	}
	if _, err := os.Stat(f.path); err != nil && !testdb.Postgres(os.Getenv) {
		t.Fatal(err)
	}
}

func mustSquare(s string) domain.Square {
	q, err := domain.ParseSquare(s)
	if err != nil {
		panic(err)
	}
	return q
}
