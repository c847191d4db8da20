package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/coalition-wargame/coalition/api"
	"github.com/coalition-wargame/coalition/campaign"
)

// logLines is a log written as JSON lines, safe for concurrent handlers.
type logLines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// at lists the lines of a level, decoded.
func (l *logLines) at(level string) []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(l.buf.String()), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil && m["level"] == level {
			out = append(out, m)
		}
	}
	return out
}

// loggedEnv is an env whose server (and service) log at debug level into the returned lines.
func loggedEnv(t *testing.T) (*env, *logLines) {
	var lines logLines
	log := slog.New(slog.NewJSONHandler(&lines, &slog.HandlerOptions{Level: slog.LevelDebug}))
	e := newEnv(t, func(o *campaign.Options, a *api.Options) { o.Log, a.Log = log, log })
	return e, &lines
}

// A client that went away before its answer is no internal error: a debug line, no ERROR
// (issue 17: a disconnect was logged at ERROR as an internal error).
func TestGetMapClientGoneIsNoError(t *testing.T) {
	e, lines := loggedEnv(t)
	tok := e.token(player)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequest(http.MethodGet, c1+"/map", nil).WithContext(ctx)
	req.Header.Set("Authorization", "Bearer "+tok)
	e.srv.Handler().ServeHTTP(httptest.NewRecorder(), req)
	if errs := lines.at("ERROR"); len(errs) > 0 {
		t.Errorf("a client that went away is logged as an error: %v", errs)
	}
	found := false
	for _, l := range lines.at("DEBUG") {
		found = found || strings.Contains(l["msg"].(string), "client went away")
	}
	if !found {
		t.Errorf("no debug line says the client went away: %s", lines.buf.String())
	}
}

// An internal error is one ERROR line with a request id, and the client sees the same id in
// the X-Request-Id header and in the problem document.
func TestGetCampaigns500OneErrorLineWithTheRequestID(t *testing.T) {
	e, lines := loggedEnv(t)
	tok := e.token(player)
	e.db.Close() // every query now fails: an internal error
	res := e.do(http.MethodGet, c1+"/turns", tok, nil)
	if res.Code != http.StatusInternalServerError {
		t.Fatalf("%d %s, want 500", res.Code, res.Body)
	}
	id := res.Header().Get("X-Request-Id")
	var p struct {
		Detail    string
		RequestID string `json:"request_id"`
	}
	json.Unmarshal(res.Body.Bytes(), &p)
	if id == "" || p.RequestID != id || p.Detail != "internal error" {
		t.Errorf("X-Request-Id %q, problem %+v: the same request id in both", id, p)
	}
	errs := lines.at("ERROR")
	if len(errs) != 1 {
		t.Fatalf("%d ERROR lines, want 1: %s", len(errs), lines.buf.String())
	}
	if errs[0]["request_id"] != id {
		t.Errorf("the ERROR line's request_id %v, want %q", errs[0]["request_id"], id)
	}
}

// A request id from a proxy is kept when it is a plain token and replaced when it is not;
// every answer has one, errors or not.
func TestRequestIDHeader(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct{ in, want string }{{"", ""}, {"proxy-7f3a.1", "proxy-7f3a.1"}, {"bad id\nforged=line", ""}, {strings.Repeat("x", 200), ""}} {
		req := httptest.NewRequest(http.MethodGet, "/api/campaigns", nil)
		if c.in != "" {
			req.Header.Set("X-Request-Id", c.in)
		}
		rec := httptest.NewRecorder()
		e.srv.Handler().ServeHTTP(rec, req)
		got := rec.Header().Get("X-Request-Id")
		if got == "" || (c.want != "" && got != c.want) || (c.want == "" && got == c.in) {
			t.Errorf("X-Request-Id %q in → %q out", c.in, got)
		}
	}
}
