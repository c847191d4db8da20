package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/testdb"
)

// lockedBuffer is a buffer a child process writes while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// request sends a request to base and returns the status, the ETag and the body.
func request(t *testing.T, method, url, token, etag string, body any) (int, string, []byte) {
	t.Helper()
	var r *bytes.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		r = bytes.NewReader(raw)
	}
	var req *http.Request
	var err error
	if r != nil {
		req, err = http.NewRequest(method, url, r)
		req.Header.Set("Content-Type", "application/json")
	} else {
		req, err = http.NewRequest(method, url, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(res.Body)
	return res.StatusCode, res.Header.Get("ETag"), b.Bytes()
}

func loginAt(t *testing.T, base, name, password string) string {
	t.Helper()
	status, _, body := request(t, "POST", base+"/api/login", "", "", map[string]string{"name": name, "password": password})
	var tok struct{ Token string }
	if status != http.StatusOK || json.Unmarshal(body, &tok) != nil {
		t.Fatalf("login %s: %d %s", name, status, body)
	}
	return tok.Token
}

// Issue 16.5: two servers — two processes — on one PostgreSQL database, the scheduler on both,
// under a post load to both while one-hour turns fall due every few seconds (the fast clock of
// the crash test). Every turn is locked once and followed by one next turn; every acknowledged
// post is in the database; both servers locked turns; and a map's ETag means the same on both:
// one server's 304 for the other's ETag, and after a judge's change on one, a 200 with a new
// ETag from the other.
func TestTwoServersOnePostgres(t *testing.T) {
	if !testdb.Postgres(os.Getenv) {
		t.Skip("set COALITION_TEST_POSTGRES to run two servers on one PostgreSQL database")
	}
	db := testdb.DSN(t, os.Getenv, filepath.Join(t.TempDir(), "two.db"))
	const campaigns = 16
	var steady int64
	judge := "judge-password"
	crashCampaigns(t, db, campaigns, func(ctx context.Context, svc *campaign.Service) {
		if _, err := svc.CreateAccount(ctx, campaign.Operator("test"), "Judge", judge, false); err != nil {
			t.Fatal(err)
		}
		m := &domain.Map{Grid: domain.DefaultGrid, Armies: []domain.Army{{Name: "A", Side: domain.Coalition, Rank: domain.Captain, At: mustSquare(t, "3D")}}}
		out, err := svc.CreateCampaign(ctx, campaign.Operator("test"), campaign.Setup{Name: "Steady", Map: m,
			FirstDeadline: crashEpoch.Add(20 * 24 * time.Hour),
			Members:       []campaign.Member{{Name: "Judge", Roles: []campaign.Role{campaign.MovementJudge}}}})
		if err != nil {
			t.Fatal(err)
		}
		steady = out.Campaign.ID
	})
	anchor := time.Now()
	logs := []*lockedBuffer{{}, {}}
	servers := []*child{startChild(t, db, anchor, logs[0]), startChild(t, db, anchor, logs[1])}
	defer func() {
		for _, c := range servers {
			c.cmd.Process.Kill()
			c.cmd.Wait()
		}
	}()

	// the map's ETag across the two servers
	mapURL := func(i int) string {
		return servers[i].base + "/api/campaigns/" + strconv.FormatInt(steady, 10) + "/map"
	}
	status, etag, _ := request(t, "GET", mapURL(0), "", "", nil)
	if status != http.StatusOK || etag == "" {
		t.Fatalf("the map from server 1: %d, ETag %q", status, etag)
	}
	if status, _, _ := request(t, "GET", mapURL(1), "", etag, nil); status != http.StatusNotModified {
		t.Errorf("server 2 answers server 1's ETag of an unchanged map with %d, want 304", status)
	}
	tok := loginAt(t, servers[1].base, "Judge", judge)
	status, _, body := request(t, "POST", servers[1].base+"/api/campaigns/"+strconv.FormatInt(steady, 10)+"/turns/1/extend", tok, "", map[string]any{"hours": 1, "reason": "test"})
	if status != http.StatusOK {
		t.Fatalf("extend on server 2: %d %s", status, body)
	}
	status, etag2, _ := request(t, "GET", mapURL(0), "", etag, nil)
	if status != http.StatusOK || etag2 == etag {
		t.Errorf("server 1 after a change made on server 2: %d with ETag %q (before: %q), want 200 and a new ETag", status, etag2, etag)
	}
	if status, etag3, _ := request(t, "GET", mapURL(1), "", "", nil); status != http.StatusOK || etag3 != etag2 {
		t.Errorf("server 2's ETag %q, server 1's %q: the same map must have the same ETag", etag3, etag2)
	}

	// posts to both while turns lock
	acks := make(chan ack, 1<<16)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for p := range 8 {
		wg.Add(1)
		go func() { defer wg.Done(); poster(servers[p%2].base, campaigns, uint64(p), stop, acks) }()
	}
	time.Sleep(12 * time.Second)
	close(stop)
	wg.Wait()
	for _, c := range servers {
		c.cmd.Process.Signal(syscall.SIGTERM)
		if err := c.cmd.Wait(); err != nil {
			t.Errorf("a server did not stop cleanly: %v", err)
		}
	}
	close(acks)
	var acked []ack
	for a := range acks {
		acked = append(acked, a)
	}
	for i, l := range logs {
		n := strings.Count(l.String(), "turn locked on schedule")
		t.Logf("server %d locked %d turns", i+1, n)
		if n == 0 {
			t.Errorf("server %d locked no turn: the scheduler must run on every server", i+1)
		}
	}

	raw, err := sql.Open("pgx", db)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	locks := checkPostsAndLocks(t, raw, "$1", acked)
	t.Logf("%d turns locked, %d posts acknowledged", locks, len(acked))
	if locks < campaigns {
		t.Errorf("only %d turns locked", locks)
	}
}

func mustSquare(t *testing.T, s string) domain.Square {
	t.Helper()
	sq, err := domain.ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return sq
}
