package api

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// Login throttling: a client address that fails to log in loginFailures times within
// loginWindow is refused for the rest of that window, so passwords cannot be guessed at the
// speed of the network. A successful login does not clear the count: the limit is on guesses.
const (
	loginFailures = 10
	loginWindow   = 10 * time.Minute
	// throttleKeep bounds the addresses remembered; past it, expired entries are dropped.
	throttleKeep = 10000
)

// throttle counts failed logins per client address within a fixed window.
type throttle struct {
	mu    sync.Mutex
	now   func() time.Time
	tries map[string]*window
}

// window is one address's failures since start.
type window struct {
	start    time.Time
	failures int
}

func newThrottle(now func() time.Time) *throttle {
	return &throttle{now: now, tries: map[string]*window{}}
}

// wait is how long the address must wait before it may try again; 0 means it may try now.
func (t *throttle) wait(addr string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	w := t.tries[addr]
	if w == nil {
		return 0
	}
	left := w.start.Add(loginWindow).Sub(t.now())
	if left <= 0 {
		delete(t.tries, addr)
		return 0
	}
	if w.failures < loginFailures {
		return 0
	}
	return left
}

// fail records a failed login from the address.
func (t *throttle) fail(addr string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	w := t.tries[addr]
	if w == nil || !now.Before(w.start.Add(loginWindow)) {
		if len(t.tries) >= throttleKeep {
			t.prune(now)
		}
		w = &window{start: now}
		t.tries[addr] = w
	}
	w.failures++
}

// prune drops the windows that have ended; if the map is still full, it drops others until
// half are left, so a flood of addresses cannot grow it without bound.
func (t *throttle) prune(now time.Time) {
	for a, w := range t.tries {
		if !now.Before(w.start.Add(loginWindow)) {
			delete(t.tries, a)
		}
	}
	for a := range t.tries {
		if len(t.tries) < throttleKeep/2 {
			break
		}
		delete(t.tries, a)
	}
}

// tooManyLogins is the 429 a throttled address gets, with Retry-After in seconds.
func tooManyLogins(c echo.Context, wait time.Duration) error {
	secs := int((wait + time.Second - 1) / time.Second)
	c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
	mins := (secs + 59) / 60
	return echo.NewHTTPError(http.StatusTooManyRequests,
		fmt.Sprintf("too many failed logins from this address: try again in %d minute%s", mins, plural(mins)))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
