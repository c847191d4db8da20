package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/internal/testdb"
)

// stopNow stops a test server before the test ends (its cleanup then does nothing).
func (s *server) stopNow() {
	s.t.Helper()
	if err := s.stop(); err != nil {
		s.t.Fatal(err)
	}
	s.stop = func() error { return nil }
}

// metric is the value of one series in the server's /metrics, or "" when it has none.
func (s *server) metric(series string) string {
	s.t.Helper()
	res, err := http.Get(s.base + "/metrics")
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			return v
		}
	}
	return ""
}

// tickScenario is a one-army campaign whose turn 1 locks at 2026-03-03 05:00 UTC.
var tickScenario = []byte(`{"name":"tick","seed":1,"sites":[],"armies":[{"name":"A","side":"coalition","rank":"captain","at":"3D","controllers":["Ann"]}],
	"turns":[{"lock":"2026-03-03T05:00:00Z","posts":[]}]}`)

// Issue 16.4, 17.2 (C2, C3): a server restarted with a turn already due listens and serves
// before it catches up — the start-up sweep waits here on purpose — so the turn reads as open,
// its map is served, and a post to it is answered too_late; then the sweep locks it once, the
// late post not counted, and the metrics show the lock and its backup.
func TestRestartServesWhileItCatchesUp(t *testing.T) {
	db := testdb.DSN(t, os.Getenv, filepath.Join(t.TempDir(), "coalition.db"))
	a := startServer(t, "--lock-tick", "off", "--db", db)
	a.clock.Set(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	admin := a.login("admin", e2eAdminPassword)
	var created struct {
		Campaign struct{ ID int64 }
		Accounts []newAccount
	}
	a.call("POST", "/api/campaigns/import", admin, tickScenario, http.StatusCreated, &created)
	base := "/api/campaigns/" + strconv.FormatInt(created.Campaign.ID, 10)
	ann := created.Accounts[0].Password
	a.call("POST", base+"/posts", a.login("Ann", ann), map[string]string{"text": "A: 3D > 5D"}, http.StatusCreated, nil)
	a.stopNow()

	hold, held := make(chan struct{}), make(chan struct{})
	old := beforeCatchUp
	beforeCatchUp = func(ctx context.Context) {
		close(held)
		select {
		case <-hold:
		case <-ctx.Done():
		}
	}
	t.Cleanup(func() { beforeCatchUp = old })
	b := startServer(t, "--lock-tick", "@every 100ms", "--db", db)
	<-held
	b.clock.Set(time.Date(2026, 3, 3, 6, 0, 0, 0, time.UTC))
	var turn struct{ Status string }
	b.call("GET", base+"/turns/1", "", nil, http.StatusOK, &turn)
	if turn.Status != "open" {
		t.Fatalf("turn 1 is %s before the start-up sweep ran", turn.Status)
	}
	b.call("GET", base+"/map", "", nil, http.StatusOK, nil)
	var late struct {
		Lines []struct{ Outcome, Code string }
	}
	b.call("POST", base+"/posts", b.login("Ann", ann), map[string]string{"text": "A: 3D > 4D"}, http.StatusCreated, &late)
	if len(late.Lines) != 1 || late.Lines[0].Code != "too_late" {
		t.Errorf("a post to the due turn: %+v, want too_late", late.Lines)
	}
	close(hold)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && turn.Status != "locked"; time.Sleep(50 * time.Millisecond) {
		b.call("GET", base+"/turns/1", "", nil, http.StatusOK, &turn)
	}
	if turn.Status != "locked" {
		t.Fatal("the start-up sweep did not lock the due turn")
	}
	var rep struct {
		LockedBy string `json:"locked_by"`
		Report   struct{ Positions map[string]string }
	}
	b.call("GET", base+"/turns/1/report", "", nil, http.StatusOK, &rep)
	if rep.LockedBy != "scheduler" || rep.Report.Positions["A"] != "5D" {
		t.Errorf("turn 1's report: %+v (the too_late post must not count)", rep)
	}
	if got := b.metric(`coalition_locks_total{by="scheduler",outcome="locked"}`); got != "1" {
		t.Errorf("coalition_locks_total of the scheduler's locks: %q, want 1", got)
	}
	if got := b.metric("coalition_lock_lag_seconds_count"); got != "1" {
		t.Errorf("coalition_lock_lag_seconds_count: %q, want 1", got)
	}
	if !testdb.Postgres(os.Getenv) {
		if got := b.metric(`coalition_backups_total{outcome="ok"}`); got != "1" {
			t.Errorf("coalition_backups_total: %q, want 1", got)
		}
		if got := b.metric("coalition_backup_size_bytes"); got == "" || got == "0" {
			t.Errorf("coalition_backup_size_bytes: %q", got)
		}
	}
}
