package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/enginetest"
	"github.com/coalition-wargame/coalition/internal/testdb"
	"github.com/coalition-wargame/coalition/store"
)

// The crash test's fictional time: the child server's clock runs crashSpeed times faster than
// the wall clock from crashEpoch on, so that one-hour turns fall due every few seconds.
const (
	crashSpeed    = 600
	crashJWTKey   = "6372617368207465737420736967e96e67206b6579206f6620333220627974657321"
	crashPassword = "poster-password"
)

var crashEpoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// TestCrashChild is the server the crash test starts and kills: it runs only in a process the
// test started (COALITION_CRASH_CHILD set), on the fast clock anchored at the wall time the
// parent gives.
func TestCrashChild(t *testing.T) {
	if os.Getenv("COALITION_CRASH_CHILD") == "" {
		t.Skip("the crash test's child server")
	}
	anchor, err := time.Parse(time.RFC3339Nano, os.Getenv("COALITION_CRASH_ANCHOR"))
	if err != nil {
		t.Fatal(err)
	}
	now = func() time.Time { return crashEpoch.Add(time.Since(anchor) * crashSpeed) }
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	getenv := func(k string) string {
		return map[string]string{"COALITION_PASSWORD_COST": "4", "COALITION_RATE_LIMIT": "off", "COALITION_JWT_KEY": crashJWTKey, "COALITION_ADMIN_PASSWORD": e2eAdminPassword}[k]
	}
	args := []string{"coalition", "serve", "--addr", "127.0.0.1:0", "--db", os.Getenv("COALITION_CRASH_DB"), "--lock-tick", "@every 100ms", "--backup-keep", "3"}
	var log io.Writer = io.Discard
	if os.Getenv("COALITION_CRASH_LOG") != "" {
		log = os.Stderr
	}
	if err := run(ctx, args, getenv, strings.NewReader(""), os.Stdout, log); err != nil {
		t.Fatal(err)
	}
}

// crashCampaigns creates n full campaigns (enginetest) on a new SQLite file, each with the
// member Poster (whose password is crashPassword), their one-hour turns locking one after
// another, 90 fictional seconds apart, from the epoch on; more, if any, adds what else a test
// wants, on the service at creation time.
func crashCampaigns(t *testing.T, path string, n int, more func(context.Context, *campaign.Service)) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	created := crashEpoch.Add(-2 * time.Hour)
	svc := campaign.NewService(db, campaign.Options{Clock: func() time.Time { return created }, PasswordCost: 4, Log: slog.New(slog.DiscardHandler)})
	if _, err := svc.Bootstrap(ctx, "admin", e2eAdminPassword); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateAccount(ctx, campaign.Operator("test"), "Poster", crashPassword, false); err != nil {
		t.Fatal(err)
	}
	st := campaign.Settings{TurnLength: time.Hour, LockDelay: time.Hour, ExtensionCap: time.Hour}
	for i := range n {
		m := enginetest.Map(enginetest.Rand(uint64(i)), enginetest.Campaign())
		su := campaign.Setup{Name: fmt.Sprintf("Crash %d", i+1), Map: m, Settings: st,
			FirstDeadline: crashEpoch.Add(-time.Hour + time.Duration(i)*90*time.Second),
			Members:       []campaign.Member{{Name: "Poster", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.General}}}
		if _, err := svc.CreateCampaign(ctx, campaign.Operator("test"), su); err != nil {
			t.Fatal(err)
		}
	}
	if more != nil {
		more(ctx, svc)
	}
}

// child is one run of the child server.
type child struct {
	cmd  *exec.Cmd
	base string
}

var listening = regexp.MustCompile(`Listening on (http://\S+)`)

// startChild starts the child server on the database and waits until it listens; its log
// goes to log when it is not nil.
func startChild(t *testing.T, db string, anchor time.Time, log io.Writer) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "COALITION_CRASH_CHILD=1", "COALITION_CRASH_DB="+db, "COALITION_CRASH_ANCHOR="+anchor.Format(time.RFC3339Nano))
	if log != nil {
		cmd.Env = append(cmd.Env, "COALITION_CRASH_LOG=1")
		cmd.Stderr = log
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
		close(found)
	}()
	select {
	case base, ok := <-found:
		if !ok {
			cmd.Wait()
			t.Fatal("the child server stopped before it listened")
		}
		return &child{cmd: cmd, base: base}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("the child server did not listen within a minute")
	}
	return nil
}

// ack is a post the server acknowledged (201).
type ack struct {
	id, campaign int64
}

// poster posts to random campaigns of the child until stop, and keeps the posts acknowledged.
func poster(base string, campaigns int, seed uint64, stop <-chan struct{}, acks chan<- ack) {
	r := rand.New(rand.NewPCG(seed, 1))
	client := &http.Client{Timeout: 5 * time.Second}
	token := ""
	login := func() {
		body, _ := json.Marshal(map[string]string{"name": "Poster", "password": crashPassword})
		res, err := client.Post(base+"/api/login", "application/json", bytes.NewReader(body))
		if err != nil {
			return
		}
		defer res.Body.Close()
		var tok struct{ Token string }
		json.NewDecoder(res.Body).Decode(&tok)
		token = tok.Token
	}
	for {
		select {
		case <-stop:
			return
		default:
		}
		if token == "" {
			login()
			if token == "" {
				time.Sleep(20 * time.Millisecond)
				continue
			}
		}
		id := int64(1 + r.IntN(campaigns))
		body, _ := json.Marshal(map[string]string{"text": fmt.Sprintf("Note %d: hold", r.Uint32())})
		req, _ := http.NewRequest("POST", base+"/api/campaigns/"+strconv.FormatInt(id, 10)+"/posts", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := client.Do(req)
		if err != nil {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		var out struct{ Post struct{ ID int64 } }
		json.NewDecoder(res.Body).Decode(&out)
		res.Body.Close()
		switch res.StatusCode {
		case http.StatusCreated:
			acks <- ack{id: out.Post.ID, campaign: id}
		case http.StatusUnauthorized:
			token = ""
		}
	}
}

// waitForPartial waits until a backup's partial copy is in dir, or for at most max.
func waitForPartial(dir string, max time.Duration) {
	for end := time.Now().Add(max); time.Now().Before(end); time.Sleep(time.Millisecond) {
		if m, _ := filepath.Glob(filepath.Join(dir, ".partial-*")); len(m) > 0 {
			return
		}
	}
}

// Issue 16.4: the server is killed (SIGKILL) at random moments while its sweeps back the
// database up and lock turns and clients post, then restarted; COALITION_CRASHTEST_KILLS times
// (3 in the normal suite, `make crashtest` 100). After a last clean run: every file with a
// backup's name passes integrity_check and holds the server's schema, no partial copy is left,
// the database passes integrity_check, every acknowledged post is in it, and every turn was
// locked once and followed by exactly one next turn.
func TestCrashDuringBackupsAndLocks(t *testing.T) {
	if testdb.Postgres(os.Getenv) {
		t.Skip("the backups and the file under test are SQLite's")
	}
	kills := 3
	if v := os.Getenv("COALITION_CRASHTEST_KILLS"); v != "" {
		var err error
		if kills, err = strconv.Atoi(v); err != nil {
			t.Fatalf("COALITION_CRASHTEST_KILLS=%q", v)
		}
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "coalition.db")
	backups := filepath.Join(dir, "backups")
	const campaigns = 24
	crashCampaigns(t, db, campaigns, nil)
	anchor := time.Now()
	r := rand.New(rand.NewPCG(uint64(anchor.UnixNano()), 2))
	acks := make(chan ack, 1<<16)
	var acked []ack
	collect := func() {
		for {
			select {
			case a := <-acks:
				acked = append(acked, a)
			default:
				return
			}
		}
	}
	inBackup := 0
	for k := 0; k <= kills; k++ {
		c := startChild(t, db, anchor, nil)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for p := range 4 {
			wg.Add(1)
			go func() { defer wg.Done(); poster(c.base, campaigns, uint64(k*8+p), stop, acks) }()
		}
		if k == kills {
			// the last run ends cleanly, after it caught up
			time.Sleep(2 * time.Second)
			close(stop)
			wg.Wait()
			c.cmd.Process.Signal(syscall.SIGTERM)
			if err := c.cmd.Wait(); err != nil {
				t.Errorf("the last run did not stop cleanly: %v", err)
			}
			break
		}
		if k%2 == 0 {
			// at a random moment: in a lock, a post, a backup or between them
			time.Sleep(time.Duration(100+r.IntN(1400)) * time.Millisecond)
		} else {
			// in a backup: once a copy is under way, a random instant into it
			waitForPartial(backups, 5*time.Second)
			time.Sleep(time.Duration(r.IntN(30)) * time.Millisecond)
		}
		c.cmd.Process.Kill()
		c.cmd.Wait()
		close(stop)
		wg.Wait()
		if partial, _ := filepath.Glob(filepath.Join(backups, ".partial-*")); len(partial) > 0 {
			inBackup++
		}
		collect()
	}
	collect()
	t.Logf("%d kills, %d of them during a backup; %d posts acknowledged", kills, inBackup, len(acked))

	names, _ := filepath.Glob(filepath.Join(backups, "*"))
	good := 0
	for _, p := range names {
		base := filepath.Base(p)
		switch {
		case strings.HasPrefix(base, "coalition-") && strings.HasSuffix(base, ".db"):
			if err := store.CheckFile(context.Background(), p, true); err != nil {
				t.Errorf("a backup is not good: %v", err)
			}
			good++
		default:
			t.Errorf("left in the backup folder: %s", base)
		}
	}
	if good == 0 || good > 3 {
		t.Errorf("%d backups, want 1 to 3 (--backup-keep 3)", good)
	}

	raw, err := sql.Open("sqlite3", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var check string
	if err := raw.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check: %q %v", check, err)
	}
	locks := checkPostsAndLocks(t, raw, "?", acked)
	if locks == 0 {
		t.Error("no turn locked: the test did not exercise the locks")
	}
	t.Logf("%d turns locked", locks)
}

// checkPostsAndLocks checks, in the database raw (whose placeholder is mark: ? or $1), that
// every acknowledged post is stored in its campaign and that every campaign's turns were each
// locked once, the next opened after each lock; it returns how many turns were locked.
func checkPostsAndLocks(t *testing.T, raw *sql.DB, mark string, acked []ack) int {
	t.Helper()
	for _, a := range acked {
		var cid int64
		if err := raw.QueryRow("SELECT campaign_id FROM posts WHERE id = "+mark, a.id).Scan(&cid); err != nil || cid != a.campaign {
			t.Errorf("acknowledged post %d (campaign %d) is not in the database: %v", a.id, a.campaign, err)
		}
	}
	rows, err := raw.Query(`SELECT campaign_id, COUNT(*), SUM(CASE WHEN status = 'locked' THEN 1 ELSE 0 END), MAX(number),
		(SELECT COUNT(*) FROM audit WHERE audit.campaign_id = turns.campaign_id AND action = 'turn.lock') FROM turns GROUP BY campaign_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	locks := 0
	for rows.Next() {
		var cid, n, locked, last, audited int
		if err := rows.Scan(&cid, &n, &locked, &last, &audited); err != nil {
			t.Fatal(err)
		}
		if n != last || locked != n-1 || audited != locked {
			t.Errorf("campaign %d: %d turns up to %d, %d locked, %d locks in the audit log: want each locked once, then the next opened", cid, n, last, locked, audited)
		}
		locks += locked
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return locks
}
