package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/testdb"
	"github.com/coalition-wargame/coalition/scenario"
	"github.com/coalition-wargame/coalition/turn"
)

// testClock is the clock the end-to-end tests give the program through now.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *testClock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// syncBuffer is a buffer the server writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// server is the real program started by run on a random port.
type server struct {
	t      *testing.T
	base   string
	clock  *testClock
	stdout *syncBuffer
	stderr *syncBuffer
	stop   func() error
}

const e2eAdminPassword = "admin-password-for-e2e"

// startServer runs `coalition serve` on 127.0.0.1:0 with a temporary SQLite file (or a fresh
// PostgreSQL database when COALITION_TEST_POSTGRES is set, package testdb).
func startServer(t *testing.T, extra ...string) *server {
	t.Helper()
	clk := &testClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	old := now
	now = clk.Now
	t.Cleanup(func() { now = old })
	dir := t.TempDir()
	getenv := func(k string) string {
		// the tests write faster than a person: no rate limit unless a test sets --rate-limit
		return map[string]string{"COALITION_PASSWORD_COST": "4", "COALITION_ADMIN_PASSWORD": e2eAdminPassword, "COALITION_RATE_LIMIT": "off"}[k]
	}
	s := &server{t: t, clock: clk, stdout: &syncBuffer{}, stderr: &syncBuffer{}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	args := append([]string{"coalition", "serve", "--addr", "127.0.0.1:0", "--db", testdb.DSN(t, os.Getenv, filepath.Join(dir, "coalition.db")), "--backup-keep", "3"}, extra...)
	go func() { done <- run(ctx, args, getenv, strings.NewReader(""), s.stdout, s.stderr) }()
	s.stop = func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(15 * time.Second):
			return fmt.Errorf("the server did not stop")
		}
	}
	re := regexp.MustCompile(`Listening on (http://\S+)`)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(s.stdout.String()); m != nil {
			s.base = m[1]
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the server stopped: %v\n%s", err, s.stderr.String())
		default:
		}
	}
	if s.base == "" {
		cancel()
		t.Fatalf("the server printed no address:\n%s\n%s", s.stdout.String(), s.stderr.String())
	}
	t.Cleanup(func() {
		if err := s.stop(); err != nil {
			t.Errorf("graceful shutdown: %v", err)
		}
	})
	return s
}

// call sends a request; want is the status expected, out receives the JSON answer.
func (s *server) call(method, path, token string, body any, want int, out any) []byte {
	s.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		r = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			s.t.Fatal(err)
		}
		r = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, s.base+path, r)
	if err != nil {
		s.t.Fatal(err)
	}
	if r != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		s.t.Fatalf("%s %s: %d, want %d: %s", method, path, res.StatusCode, want, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			s.t.Fatalf("%s %s: %v: %s", method, path, err, raw)
		}
	}
	return raw
}

func (s *server) login(name, password string) string {
	s.t.Helper()
	var tok struct{ Token string }
	s.call("POST", "/api/login", "", map[string]string{"name": name, "password": password}, http.StatusOK, &tok)
	return tok.Token
}

type newAccount struct {
	Account  struct{ Name string }
	Password string
}

// TestScenariosOverHTTP plays every scenario under testdata/scenarios through the real
// server: it imports the scenario, logs in as each author, posts each post at its time
// (public or private, with its transfers' detail), enters the battle results as the battle
// judge, locks each turn as a judge — at the scenario's lock time when it gives one — and
// checks that the lock report is, byte for byte up to post ids, what `coalition adjudicate`
// gives, and that the turn replays the same.
func TestScenariosOverHTTP(t *testing.T) {
	var files []string
	root := "../../testdata/scenarios"
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios under %s: %v", root, err)
	}
	// the scenarios make thousands of commits one after another: durability is not what they
	// test (the store's tests and the rush run on the default, full)
	s := startServer(t, "--lock-tick", "off", "--synchronous", "normal")
	admin := s.login("admin", e2eAdminPassword)
	passwords := map[string]string{}
	for _, j := range []string{"e2e-mover", "e2e-batty"} {
		var acc newAccount
		s.call("POST", "/api/accounts", admin, map[string]string{"name": j}, http.StatusCreated, &acc)
		passwords[j] = acc.Password
	}
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		t.Run(rel, func(t *testing.T) {
			s.t = t
			defer func() { s.t = nil }()
			playScenario(t, s, f, rel, passwords)
		})
	}
}

func playScenario(t *testing.T, s *server, file, name string, passwords map[string]string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sc, perr := scenario.Parse(data)
	admin := s.login("admin", e2eAdminPassword)
	if perr != nil {
		// adjudicate refuses the file: so must the import, with a problem naming it.
		s.call("POST", "/api/campaigns/import", admin, data, http.StatusUnprocessableEntity, nil)
		return
	}
	// What coalition adjudicate gives, turn by turn, up to a turn it cannot settle: with the
	// mercenary AI's fields and the after-lock edits as the scenario gives them.
	var wantTurns [][]byte
	var runErr error
	m := sc.Map
	history := sc.Mercenary.History
	for i := range sc.Turns {
		next, rep, err := turn.Run(m, sc.Input(i, history))
		if err != nil {
			runErr = err
			break
		}
		b, _ := json.Marshal(rep)
		wantTurns = append(wantTurns, scenarioIDs(t, b, nil))
		history = append(history, turn.History(rep)...)
		m = next
	}
	// The campaign is imported before anything in it happens.
	first := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tu := range sc.Turns {
		for _, p := range tu.Posts {
			if p.At.Before(first) {
				first = p.At
			}
		}
		if !tu.Lock.IsZero() && tu.Lock.Before(first) {
			first = tu.Lock
		}
	}
	s.clock.Set(first.Add(-72 * time.Hour))
	admin = s.login("admin", e2eAdminPassword)
	var created struct {
		Campaign struct{ ID int64 }
		Accounts []newAccount
	}
	s.call("POST", "/api/campaigns/import?name="+url.QueryEscape(name), admin, data, http.StatusCreated, &created)
	for _, a := range created.Accounts {
		passwords[a.Account.Name] = a.Password
	}
	base := "/api/campaigns/" + strconv.FormatInt(created.Campaign.ID, 10)
	s.call("PUT", base+"/members/e2e-mover", admin, map[string]any{"roles": []string{"movement-judge"}}, http.StatusOK, nil)
	s.call("PUT", base+"/members/e2e-batty", admin, map[string]any{"roles": []string{"battle-judge"}}, http.StatusOK, nil)

	serverID := map[int64]int64{}
	over := false
	for ti, tu := range sc.Turns {
		n := ti + 1
		if over {
			// The round ended at the last lock (1.7, D8): the campaign is finished and takes no
			// more orders or locks, where adjudicate plays the scenario's turns on.
			mover := s.login("e2e-mover", passwords["e2e-mover"])
			s.call("POST", fmt.Sprintf("%s/turns/%d/lock", base, n), mover, map[string]string{"reason": "e2e"}, http.StatusConflict, nil)
			var c struct{ Status, Winner string }
			s.call("GET", base, "", nil, http.StatusOK, &c)
			if c.Status != "finished" || c.Winner == "" {
				t.Errorf("after the round's last lock the campaign is %+v", c)
			}
			return
		}
		posts := slices.Clone(sc.File.Turns[ti].Posts)
		slices.SortFunc(posts, func(a, b scenario.Post) int { return int(a.ID - b.ID) })
		last := s.clock.Now()
		for _, p := range posts {
			s.clock.Set(p.At)
			last = p.At
			password, ok := passwords[accountName(p.Author, passwords)]
			if !ok {
				t.Fatalf("no password for %s", p.Author)
			}
			tok := s.login(accountName(p.Author, passwords), password)
			req := postBody(p.Text, p.Private, p.ID, tu.Transfers)
			var out struct{ Post struct{ ID int64 } }
			s.call("POST", base+"/posts", tok, req, http.StatusCreated, &out)
			serverID[p.ID] = out.Post.ID
		}
		batty := s.login("e2e-batty", passwords["e2e-batty"])
		for _, r := range tu.Results {
			s.call("POST", fmt.Sprintf("%s/turns/%d/results", base, n), batty, r, http.StatusOK, nil)
		}
		if !tu.Lock.IsZero() && !tu.Lock.Before(last) {
			s.clock.Set(tu.Lock) // locked at its time (C1); later posts were too late (C2)
		}
		mover := s.login("e2e-mover", passwords["e2e-mover"])
		if runErr != nil && ti == len(wantTurns) {
			// adjudicate fails at this turn: the lock must refuse it the same way.
			s.call("POST", fmt.Sprintf("%s/turns/%d/lock", base, n), mover, map[string]string{"reason": "e2e"}, http.StatusUnprocessableEntity, nil)
			return
		}
		var locked struct{ Status string }
		s.call("POST", fmt.Sprintf("%s/turns/%d/lock", base, n), mover, map[string]string{"reason": "e2e"}, http.StatusOK, &locked)
		if locked.Status != "editing" && tu.Edit != nil && !editCarriedOut(t, wantTurns[ti]) {
			// the server opens the window only for a raider (6.3.2): an edit adjudicate refuses
			// for another army cannot even be posted there, and its report says so no more
			t.Skipf("turn %d's after-lock edit is refused and the lock opened no window: there is no raider to edit", n)
		}
		closeEdit(t, s, base, n, locked.Status, tu.Edit, passwords, serverID)
		var rep struct{ Report json.RawMessage }
		s.call("GET", fmt.Sprintf("%s/turns/%d/report", base, n), mover, nil, http.StatusOK, &rep)
		var decided struct{ Winner *string }
		json.Unmarshal(rep.Report, &decided)
		over = decided.Winner != nil
		got := scenarioIDs(t, rep.Report, serverID)
		if !bytes.Equal(got, wantTurns[ti]) {
			t.Fatalf("turn %d: the server's lock report differs from coalition adjudicate's:\n%s", n, diffJSON(wantTurns[ti], got))
		}
		var rp struct {
			Same   bool
			Detail string
		}
		s.call("GET", fmt.Sprintf("%s/turns/%d/replay", base, n), mover, nil, http.StatusOK, &rp)
		if !rp.Same {
			t.Errorf("turn %d does not replay the same: %s", n, rp.Detail)
		}
	}
}

// editCarriedOut reports whether adjudicate's report of a turn carried its after-lock edit out.
func editCarriedOut(t *testing.T, report []byte) bool {
	t.Helper()
	var r struct {
		Edit *struct {
			CarriedOut bool `json:"carried_out"`
		} `json:"after_lock_edit"`
	}
	if err := json.Unmarshal(report, &r); err != nil {
		t.Fatal(err)
	}
	return r.Edit != nil && r.Edit.CarriedOut
}

// closeEdit closes turn n's after-lock edit window (6.3.2) as the mercenary judge: with the
// scenario's edit, or waived when it gives none. A scenario edit needs the window open: the
// lock kept its update for it.
func closeEdit(t *testing.T, s *server, base string, n int, status string, edit *domain.Post, passwords map[string]string, serverID map[int64]int64) {
	t.Helper()
	if status != "editing" {
		if edit != nil {
			t.Fatalf("turn %d has an after-lock edit, but its lock opened no edit window (status %s)", n, status)
		}
		return
	}
	name := accountName("mercenary-judge", passwords)
	tok := s.login(name, passwords[name])
	body := map[string]any{"waive": true}
	if edit != nil {
		body = map[string]any{"text": edit.Text}
	}
	var out struct {
		Status string
		Closed struct{ Post int64 }
	}
	s.call("POST", fmt.Sprintf("%s/turns/%d/mercenary/edit", base, n), tok, body, http.StatusOK, &out)
	if edit != nil {
		serverID[edit.ID] = out.Closed.Post
	}
	if out.Status != "locked" {
		t.Fatalf("turn %d is %s after its after-lock edit window closed", n, out.Status)
	}
}

// postBody is a post's request: its text, whether private, and the details of its transfers
// among details (those of post id).
func postBody(text string, private bool, id int64, details []domain.TransferDetail) map[string]any {
	req := map[string]any{"text": text, "private": private}
	var ds []map[string]any
	for _, d := range details {
		if d.Post == id {
			ds = append(ds, map[string]any{"army": d.Army, "creatures": d.Creatures})
		}
	}
	if len(ds) > 0 {
		req["transfers"] = ds
	}
	return req
}

// accountName is the existing account a scenario's author name logs in as (names compare as
// domain.SameName does).
func accountName(author string, passwords map[string]string) string {
	for n := range passwords {
		if domain.SameName(n, author) {
			return n
		}
	}
	return author
}

var postRef = regexp.MustCompile(`post (\d+)`)

// scenarioIDs rewrites the server's post ids in a report into the scenario's, in the
// "post" fields and in messages that name a post, and re-encodes it canonically (keys
// sorted) so that two reports compare byte for byte.
func scenarioIDs(t *testing.T, report []byte, serverID map[int64]int64) []byte {
	back := map[int64]int64{}
	for sid, id := range serverID {
		back[id] = sid
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(report))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	var walk func(any) any
	walk = func(x any) any {
		switch x := x.(type) {
		case map[string]any:
			for k, val := range x {
				if n, ok := val.(json.Number); ok && k == "post" {
					id, _ := n.Int64()
					if sid, ok := back[id]; ok {
						x[k] = json.Number(strconv.FormatInt(sid, 10))
					}
					continue
				}
				if str, ok := val.(string); ok && k == "message" {
					x[k] = postRef.ReplaceAllStringFunc(str, func(m string) string {
						id, _ := strconv.ParseInt(m[5:], 10, 64)
						if sid, ok := back[id]; ok {
							return "post " + strconv.FormatInt(sid, 10)
						}
						return m
					})
					continue
				}
				x[k] = walk(val)
			}
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		}
		return x
	}
	v = walk(v)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(true)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func diffJSON(want, got []byte) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	lo := max(0, i-200)
	return fmt.Sprintf("adjudicate: …%s…\nserver:     …%s…", want[lo:min(len(want), i+200)], got[lo:min(len(got), i+200)])
}

// TestScheduledLockOverHTTP shows the scheduler at work in the real program: a turn locks
// on the cron tick once the clock passes its lock time, without a judge.
func TestScheduledLockOverHTTP(t *testing.T) {
	s := startServer(t, "--lock-tick", "@every 1s")
	sc := []byte(`{"name":"tick","seed":1,"sites":[],"armies":[{"name":"A","side":"coalition","rank":"captain","at":"3D","controllers":["Ann"]}],
		"turns":[{"lock":"2026-03-03T05:00:00Z","posts":[]}]}`)
	s.clock.Set(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	admin := s.login("admin", e2eAdminPassword)
	var created struct {
		Campaign struct{ ID int64 }
		Accounts []newAccount
	}
	s.call("POST", "/api/campaigns/import", admin, sc, http.StatusCreated, &created)
	tok := s.login("Ann", created.Accounts[0].Password)
	base := "/api/campaigns/" + strconv.FormatInt(created.Campaign.ID, 10)
	s.call("POST", base+"/posts", tok, map[string]string{"text": "A: 3D > 5D"}, http.StatusCreated, nil)
	time.Sleep(1500 * time.Millisecond)
	var turn struct{ Status string }
	s.call("GET", base+"/turns/1", "", nil, http.StatusOK, &turn)
	if turn.Status != "open" {
		t.Fatalf("the turn locked before its time: %s", turn.Status)
	}
	s.clock.Set(time.Date(2026, 3, 3, 5, 0, 0, 0, time.UTC))
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && turn.Status != "locked"; time.Sleep(100 * time.Millisecond) {
		s.call("GET", base+"/turns/1", "", nil, http.StatusOK, &turn)
	}
	if turn.Status != "locked" {
		t.Fatal("the scheduler did not lock the turn at its time")
	}
	var rep struct {
		LockedBy string `json:"locked_by"`
		Report   struct {
			Positions map[string]string
		}
	}
	s.call("GET", base+"/turns/1/report", "", nil, http.StatusOK, &rep)
	if rep.LockedBy != "scheduler" || rep.Report.Positions["A"] != "5D" {
		t.Errorf("report: %+v", rep)
	}
}
