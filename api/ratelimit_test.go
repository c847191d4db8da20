package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/coalition-wargame/coalition/api"
	"github.com/coalition-wargame/coalition/campaign"
)

// limited is an env whose writes are limited to three an hour per account and per address.
func limited(t *testing.T, store ...api.RateStore) *env {
	return newEnv(t, func(_ *campaign.Options, o *api.Options) {
		o.RateLimit = api.RateLimit{Rate: rate.Every(time.Hour), Burst: 3}
		if len(store) > 0 {
			o.RateStore = store[0]
		}
	})
}

// want429 checks a refusal by the rate limiter: 429, Retry-After, a problem document.
func want429(t *testing.T, res *httptest.ResponseRecorder) {
	t.Helper()
	body := res.Body.String()
	r := res.Result()
	if r.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("%d %s, want 429", r.StatusCode, truncate(body))
	}
	if r.Header.Get("Retry-After") == "" || r.Header.Get("Content-Type") != "application/problem+json" {
		t.Errorf("Retry-After %q, Content-Type %q", r.Header.Get("Retry-After"), r.Header.Get("Content-Type"))
	}
	var p struct{ Detail string }
	json.Unmarshal([]byte(body), &p)
	if !strings.Contains(p.Detail, "too many") {
		t.Errorf("the refusal does not say why: %q", p.Detail)
	}
}

// Writes are limited per address: a fourth write from one address within the hour is a 429,
// whoever sends it; reads are not limited; another address may still write.
func TestWrites429PerAddress(t *testing.T) {
	e := limited(t)
	post := map[string]string{"text": "Sai Rei: 3F > 4F"}
	for _, caller := range []string{player, sameSide, enemy} {
		tok := e.token(caller)
		if res := e.doFrom("203.0.113.1:1", "POST", c1+"/posts/check", tok, post); res.Code != http.StatusOK {
			t.Fatalf("write as %s: %d %s", caller, res.Code, res.Body)
		}
	}
	res := e.doFrom("203.0.113.1:1", "POST", c1+"/posts/check", e.token(leader), post)
	want429(t, res)
	res = e.doFrom("203.0.113.1:1", "POST", "/api/login", "", map[string]string{"name": "admin", "password": "x"})
	want429(t, res)
	if res := e.doFrom("203.0.113.1:1", "GET", c1+"/map", e.token(leader), nil); res.Code != http.StatusOK {
		t.Errorf("a read after the limit: %d", res.Code)
	}
	if res := e.doFrom("203.0.113.2:1", "POST", c1+"/posts/check", e.token(leader), post); res.Code != http.StatusOK {
		t.Errorf("another address: %d %s", res.Code, res.Body)
	}
}

// Writes are limited per account: a fourth write by one account within the hour is a 429,
// from whatever address.
func TestWrites429PerAccount(t *testing.T) {
	e := limited(t)
	tok := e.token(player)
	post := map[string]string{"text": "Sai Rei: 3F > 4F"}
	for i := range 3 {
		if res := e.doFrom("203.0.113."+string(rune('1'+i))+":1", "POST", c1+"/posts/check", tok, post); res.Code != http.StatusOK {
			t.Fatalf("write %d: %d %s", i+1, res.Code, res.Body)
		}
	}
	res := e.doFrom("203.0.113.9:1", "DELETE", c1+"/posts/1", tok, nil)
	want429(t, res)
	if res := e.doFrom("203.0.113.9:1", "POST", c1+"/posts/check", e.token(sameSide), post); res.Code != http.StatusOK {
		t.Errorf("another account: %d %s", res.Code, res.Body)
	}
}

// denyAll is a rate store that refuses everything and counts the asks.
type denyAll struct{ asked []string }

func (d *denyAll) Allow(id string) (bool, error) { d.asked = append(d.asked, id); return false, nil }

// The store is the server's option: the limiter asks it, per address and per account.
func TestWrites429FromASwappedStore(t *testing.T) {
	d := &denyAll{}
	e := limited(t, d)
	res := e.doFrom("203.0.113.1:1", "PUT", "/api/me/password", "", map[string]string{"old": "x", "new": "y"})
	want429(t, res)
	if len(d.asked) != 1 || !strings.Contains(d.asked[0], "203.0.113.1") {
		t.Errorf("the store was asked %q", d.asked)
	}
}

// A write limit is read as N/s, N/m or N/h with an optional burst; off disables it.
func TestParseRateLimit(t *testing.T) {
	for _, c := range []struct {
		in    string
		rate  rate.Limit
		burst int
		err   string
	}{
		{"20/s", 20, 20, ""}, {"120/m", 2, 120, ""}, {"3600/h,10", 1, 10, ""}, {" 5/s , 8 ", 5, 8, ""},
		{"off", 0, 0, ""}, {"OFF", 0, 0, ""},
		{"", 0, 0, "N/s"}, {"20", 0, 0, "N/s"}, {"0/s", 0, 0, "at least 1"}, {"x/s", 0, 0, "N/s"}, {"20/d", 0, 0, "s, m or h"},
		{"20/s,0", 0, 0, "burst"}, {"-1/s", 0, 0, "at least 1"},
	} {
		got, err := api.ParseRateLimit(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want an error saying %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got.Rate != c.rate || got.Burst != c.burst {
			t.Errorf("%q: %+v %v, want rate %v burst %d", c.in, got, err, c.rate, c.burst)
		}
	}
}
