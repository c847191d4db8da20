package api_test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A 304 touches no database (issue 16): once the hot state is read, the map answers
// If-None-Match with the database closed, for an anonymous reader and for logged-in ones.
func TestGetMap304TouchesNoDatabase(t *testing.T) {
	e := newEnv(t)
	tags := map[string]string{}
	for _, c := range []string{anon, player, mover, enemy} {
		res := e.as(c, "GET", c1+"/map", nil)
		if res.Code != http.StatusOK {
			t.Fatalf("%s: %d", c, res.Code)
		}
		tags[c] = res.Header().Get("ETag")
	}
	e.db.Close()
	for c, tag := range tags {
		req := httptest.NewRequest("GET", c1+"/map", nil)
		req.Header.Set("If-None-Match", tag)
		if tok := e.token(c); tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		if res := serve(e, req); res.Code != http.StatusNotModified {
			t.Errorf("%s: %d %s with the database closed, want 304", c, res.Code, res.Body)
		}
	}
	// the check can fail: a read the hot state does not hold needs the database
	if res := e.as(player, "GET", c1+"/turns", nil); res.Code != http.StatusInternalServerError {
		t.Errorf("a read with the database closed: %d, want 500", res.Code)
	}
}

// Successful reads are debug lines; a write, an error and a failed read are info lines (issue
// 16: a busy server answers thousands of reads a second).
func TestRequestLogLevels(t *testing.T) {
	e, lines := loggedEnv(t)
	e.as(player, "GET", c1+"/map", nil)
	e.as(player, "GET", c1+"/turns/9", nil)
	e.as(player, "POST", c1+"/posts", map[string]string{"text": "Sai Rei: 3F > 4F"})
	requests := func(level string) []string {
		var out []string
		for _, l := range lines.at(level) {
			if l["msg"] == "request" {
				out = append(out, l["method"].(string)+" "+strconv.Itoa(int(l["status"].(float64))))
			}
		}
		return out
	}
	if got := strings.Join(requests("DEBUG"), ","); got != "GET 200" {
		t.Errorf("debug request lines %q, want the map", got)
	}
	if got := strings.Join(requests("INFO"), ","); got != "POST 200,GET 404,POST 201" {
		t.Errorf("info request lines %q, want the login, the failed read and the post", got)
	}
}

// The metrics count posts accepted, refused and replayed, and the caches' hits (issue 16).
func TestMetricsCountPostsAndCaches(t *testing.T) {
	e := newEnv(t)
	body := map[string]string{"text": "Sai Rei: 3F > 4F"}
	e.keyed(player, "POST", c1+"/posts", "m-1", body)
	e.keyed(player, "POST", c1+"/posts", "m-1", body)
	e.as(enemy, "POST", c1+"/posts", map[string]any{"orders": []map[string]any{{"army": "Sai Rei", "kind": "hold"}}})
	tag := e.as(anon, "GET", c1+"/map", nil).Header().Get("ETag")
	e.as(anon, "GET", c1+"/map", nil)
	req := httptest.NewRequest("GET", c1+"/map", nil)
	req.Header.Set("If-None-Match", tag)
	serve(e, req)
	metrics := e.do("GET", "/metrics", "", nil).Body.String()
	for _, want := range []string{
		`coalition_posts_total{outcome="accepted"} 1`,
		`coalition_posts_total{outcome="refused"} 1`,
		`coalition_posts_total{outcome="replayed"} 1`,
		`coalition_idempotent_replays_total{route="/api/campaigns/:cid/posts"} 1`,
		`coalition_post_batches_total 1`,
		`coalition_cache_requests_total{cache="map",result="hit"} 1`,
		`coalition_cache_requests_total{cache="map",result="miss"} 1`,
		`coalition_cache_requests_total{cache="map",result="not_modified"} 1`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("no %s in the metrics", want)
		}
	}
	if !regexp.MustCompile(`coalition_cache_requests_total\{cache="state",result="hit"\} [1-9]`).MatchString(metrics) {
		t.Error("no hit of the hot state counted")
	}
}

// A read found valid once is not validated again, but an invalid one is refused every time
// (nothing invalid is kept), and the same path with another query is checked anew.
func TestGetAuditValidatedOnceRefusedEveryTime(t *testing.T) {
	e := newEnv(t)
	for range 2 {
		if res := e.as(mover, "GET", c1+"/audit?limit=5", nil); res.Code != http.StatusOK {
			t.Errorf("limit=5: %d %s", res.Code, res.Body)
		}
		if res := e.as(mover, "GET", c1+"/audit?limit=0", nil); res.Code != http.StatusBadRequest {
			t.Errorf("limit=0: %d, want 400", res.Code)
		}
	}
}

// A token checked once is checked again against the clock at every use: it expires as
// before (issue 16 keeps the tokens found valid).
func TestGetMeTokenExpiresAfterItWasChecked(t *testing.T) {
	e := newEnv(t)
	tok := e.token(player)
	if res := e.do("GET", "/api/me", tok, nil); res.Code != http.StatusOK {
		t.Fatalf("%d %s", res.Code, res.Body)
	}
	e.clock.Set(start.Add(13 * time.Hour))
	if res := e.do("GET", "/api/me", tok, nil); res.Code != http.StatusUnauthorized || !strings.Contains(res.Body.String(), "expired") {
		t.Errorf("a token past its expiry: %d %s, want 401", res.Code, res.Body)
	}
}
