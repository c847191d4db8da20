// The servers under load: child processes started on a free port (the real server on a
// temporary database with the demo campaign, the minimal baseline), and what a scenario needs
// to put load on them.

package loadtest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Process is a server running as a child process.
type Process struct {
	Name string
	URL  string
	// Stdout is what the server printed before it listened (the demo's accounts).
	Stdout string
	cmd    *exec.Cmd
	done   chan error
}

// Start runs argv with the extra environment and waits for its "Listening on URL" line; its
// standard error goes to the file logPath.
func Start(ctx context.Context, name string, argv, env []string, logPath string) (*Process, error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = logf
	out, err := cmd.StdoutPipe()
	if err != nil {
		logf.Close()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &Process{Name: name, cmd: cmd, done: make(chan error, 1)}
	// the reader keeps what the server prints until it listens, then reads on to the end
	listening := make(chan [2]string, 1)
	go func() {
		var text strings.Builder
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if u, found := strings.CutPrefix(sc.Text(), "Listening on "); found {
				listening <- [2]string{strings.TrimSpace(u), text.String()}
				text.Reset()
				continue
			}
			text.WriteString(sc.Text() + "\n")
		}
		close(listening)
		p.done <- cmd.Wait()
		logf.Close()
	}()
	select {
	case l, ok := <-listening:
		if !ok {
			return nil, fmt.Errorf("%s stopped before it listened (its log: %s)", name, logPath)
		}
		p.URL, p.Stdout = l[0], l[1]
		return p, nil
	case <-time.After(2 * time.Minute):
		p.Stop()
		return nil, fmt.Errorf("%s did not listen within two minutes", name)
	case <-ctx.Done():
		p.Stop()
		return nil, ctx.Err()
	}
}

// Stop asks the server to stop (SIGTERM) and waits for it, killing it after ten seconds.
func (p *Process) Stop() error {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		return err
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		return <-p.done
	}
}

// Target is a server a scenario puts load on, with what the scenario needs of it.
type Target struct {
	Name string
	URL  string
	// Pid is the server's process, whose CPU time a run measures (0: none).
	Pid int
	// PostPath is where orders are posted; MapPath the current map.
	PostPath, MapPath string
	// Posters post orders in turn; Reader is a logged-in player's token for the map ("" for
	// the baseline, which knows no tokens).
	Posters []Poster
	Reader  string
	// Keys says whether posts carry an Idempotency-Key, as the web UI's do.
	Keys bool
}

// Env is what the scenarios start their servers from: the programs, a temporary folder, and
// the servers already started, which the scenarios share.
type Env struct {
	// Coalition is the server's program; Baseline the command that starts the baseline server
	// (its flags follow).
	Coalition string
	Baseline  []string
	Dir       string
	Client    *http.Client
	mu        sync.Mutex
	real      *Target
	base      *Target
	mapBody   []byte
	procs     []*Process
}

// Close stops every server the env started.
func (e *Env) Close() {
	for _, p := range e.procs {
		_ = p.Stop()
	}
	e.procs = nil
}

// AdminPassword is the admin's password on the real server.
const AdminPassword = "loadtest-admin-password"

// Real is the real server on a temporary database with the demo campaign (started once):
// every player's token and an order each that the checker accepts.
func (e *Env) Real(ctx context.Context) (*Target, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.real != nil {
		return e.real, nil
	}
	db := filepath.Join(e.Dir, "coalition.db")
	p, err := Start(ctx, "coalition", []string{e.Coalition, "serve", "--demo", "--db", db, "--addr", "127.0.0.1:0", "--lock-tick", "off", "--rate-limit", "off", "--password-cost", "4"},
		[]string{"COALITION_ADMIN_PASSWORD=" + AdminPassword}, filepath.Join(e.Dir, "coalition.log"))
	if err != nil {
		return nil, err
	}
	e.procs = append(e.procs, p)
	t, err := demoTarget(ctx, e.Client, p)
	if err != nil {
		return nil, err
	}
	t.Pid = p.cmd.Process.Pid
	e.real = t
	return t, nil
}

// Base is the baseline server on its own temporary database, serving the real server's
// anonymous map bytes (started once, after Real).
func (e *Env) Base(ctx context.Context) (*Target, error) {
	real, err := e.Real(ctx)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.base != nil {
		return e.base, nil
	}
	body, _, err := get(ctx, e.Client, real.URL+real.MapPath, "", "")
	if err != nil {
		return nil, err
	}
	mapFile := filepath.Join(e.Dir, "map.json")
	if err := os.WriteFile(mapFile, body, 0o600); err != nil {
		return nil, err
	}
	argv := append(append([]string{}, e.Baseline...), "--db", filepath.Join(e.Dir, "baseline.db"), "--addr", "127.0.0.1:0", "--map", mapFile)
	p, err := Start(ctx, "baseline", argv, nil, filepath.Join(e.Dir, "baseline.log"))
	if err != nil {
		return nil, err
	}
	e.procs = append(e.procs, p)
	t := &Target{Name: "baseline", URL: p.URL, Pid: p.cmd.Process.Pid, PostPath: "/posts", MapPath: "/map"}
	for _, q := range real.Posters {
		t.Posters = append(t.Posters, Poster{Body: q.Body})
	}
	e.base, e.mapBody = t, body
	return t, nil
}

// account is a demo account as serve --demo prints it.
type account struct{ name, password, role string }

// demoAccounts reads the accounts serve --demo printed: "  Name  password  roles".
func demoAccounts(stdout string) []account {
	var out []account
	in := false
	for _, l := range strings.Split(stdout, "\n") {
		switch {
		case strings.HasPrefix(l, "Demo accounts"):
			in = true
		case in && strings.HasPrefix(l, "  ") && len(l) > 17:
			f := strings.Fields(l[16:])
			if len(f) >= 2 {
				out = append(out, account{name: strings.TrimSpace(l[2:16]), password: f[0], role: strings.Join(f[1:], " ")})
			}
		case in:
			in = false
		}
	}
	return out
}

// demoTarget logs the demo's players and movement judge in and finds, for every player, an
// order the checker accepts.
func demoTarget(ctx context.Context, hc *http.Client, p *Process) (*Target, error) {
	id := "1"
	if i := strings.Index(p.Stdout, "demo campaign as campaign "); i >= 0 {
		id = strings.Fields(p.Stdout[i+len("demo campaign as campaign "):])[0]
		id = strings.TrimSuffix(id, ":")
	}
	t := &Target{Name: "coalition", URL: p.URL, PostPath: "/api/campaigns/" + id + "/posts", MapPath: "/api/campaigns/" + id + "/map", Keys: true}
	accounts := demoAccounts(p.Stdout)
	if len(accounts) == 0 {
		return nil, fmt.Errorf("the server printed no demo accounts:\n%s", p.Stdout)
	}
	for _, a := range accounts {
		if !strings.Contains(a.role, "player") {
			continue
		}
		tok, err := login(ctx, hc, p.URL, a.name, a.password)
		if err != nil {
			return nil, err
		}
		body, err := acceptedOrder(ctx, hc, t, tok)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a.name, err)
		}
		if body != nil {
			t.Posters = append(t.Posters, Poster{Token: tok, Body: body})
			if t.Reader == "" {
				t.Reader = tok
			}
		}
	}
	if len(t.Posters) == 0 {
		return nil, errors.New("no demo player has an order the checker accepts")
	}
	return t, nil
}

// JudgeToken logs the demo's movement judge in.
func (e *Env) JudgeToken(ctx context.Context) (string, string, error) {
	real, err := e.Real(ctx)
	if err != nil {
		return "", "", err
	}
	for _, p := range e.procs {
		if p.Name != "coalition" {
			continue
		}
		for _, a := range demoAccounts(p.Stdout) {
			if strings.Contains(a.role, "movement-judge") {
				tok, err := login(ctx, e.Client, real.URL, a.name, a.password)
				return tok, strings.TrimSuffix(real.PostPath, "/posts") + "/turns/1/posts", err
			}
		}
	}
	return "", "", errors.New("no movement judge among the demo accounts")
}

func login(ctx context.Context, hc *http.Client, url, name, password string) (string, error) {
	b, _ := json.Marshal(map[string]string{"name": name, "password": password})
	body, status, err := do(ctx, hc, http.MethodPost, url+"/api/login", "", b)
	if err != nil {
		return "", err
	}
	var v struct{ Token string }
	if status != http.StatusOK || json.Unmarshal(body, &v) != nil || v.Token == "" {
		return "", fmt.Errorf("login as %s: %d %s", name, status, body)
	}
	return v.Token, nil
}

// acceptedOrder is a post's body that moves one of the player's armies one square, as the
// checker accepts it, or nil when none of his armies can.
func acceptedOrder(ctx context.Context, hc *http.Client, t *Target, tok string) ([]byte, error) {
	body, _, err := get(ctx, hc, t.URL+t.MapPath, tok, "")
	if err != nil {
		return nil, err
	}
	var m struct {
		Armies []struct {
			Name      string `json:"name"`
			At        string `json:"at"`
			Orderable bool   `json:"orderable"`
		} `json:"armies"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, err
	}
	for _, a := range m.Armies {
		if !a.Orderable {
			continue
		}
		for _, to := range neighbours(a.At) {
			post, _ := json.Marshal(map[string]string{"text": a.Name + ": " + a.At + " > " + to})
			out, status, err := do(ctx, hc, http.MethodPost, t.URL+t.PostPath+"/check", tok, post)
			if err != nil {
				return nil, err
			}
			var v struct {
				Lines []struct{ Status string } `json:"lines"`
			}
			if status == http.StatusOK && json.Unmarshal(out, &v) == nil && len(v.Lines) == 1 && v.Lines[0].Status == "accepted" {
				return post, nil
			}
		}
	}
	return nil, nil
}

// neighbours are the squares beside a square written as "3G" (column, then row letter).
func neighbours(sq string) []string {
	i := strings.IndexFunc(sq, func(r rune) bool { return r < '0' || r > '9' })
	if i <= 0 || i != len(sq)-1 {
		return nil
	}
	col, err := strconv.Atoi(sq[:i])
	if err != nil {
		return nil
	}
	row := sq[i]
	var out []string
	for _, d := range []int{1, -1} {
		if col+d >= 1 {
			out = append(out, strconv.Itoa(col+d)+string(row))
		}
		if r := int(row) + d; r >= 'A' && r <= 'Z' {
			out = append(out, strconv.Itoa(col)+string(rune(r)))
		}
	}
	return out
}

func get(ctx context.Context, hc *http.Client, url, tok, etag string) ([]byte, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, "", err
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	res, err := hc.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err == nil && res.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %d %s", url, res.StatusCode, body)
	}
	return body, res.Header.Get("ETag"), err
}

func do(ctx context.Context, hc *http.Client, method, url, tok string, body []byte) ([]byte, int, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	res, err := hc.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	return out, res.StatusCode, err
}
