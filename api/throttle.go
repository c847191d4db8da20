// Login throttling: failed logins counted per client address and per account name.

package api

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/coalition-wargame/coalition/campaign"
)

// Login throttling: a client address that fails to log in loginFailures times within
// loginWindow is refused for the rest of that window, and so is an account name that fails
// nameFailures times from anywhere, so passwords cannot be guessed at the speed of the
// network. An attempt is counted before its password is checked and given back when it
// succeeds, so concurrent guesses gain nothing (issue 17); the limit is on guesses.
const (
	loginFailures = 10
	nameFailures  = 20
	loginWindow   = 10 * time.Minute
	// throttleKeep bounds the keys remembered; past it, expired entries are dropped.
	throttleKeep = 10000
)

// throttle counts attempts per key (an address or a name) within a fixed window.
type throttle struct {
	mu    sync.Mutex
	now   func() time.Time
	limit int
	tries map[string]*window
}

// window is one key's attempts since start: failed ones and ones still being checked.
type window struct {
	start    time.Time
	failures int
}

func newThrottle(now func() time.Time, limit int) *throttle {
	return &throttle{now: now, limit: limit, tries: map[string]*window{}}
}

// reserve counts an attempt for key before it is checked and returns its window, to give
// back with release if it succeeds; when the key has used up its window it counts nothing
// and returns how long to wait.
func (t *throttle) reserve(key string) (*window, time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	w := t.tries[key]
	if w != nil && !now.Before(w.start.Add(loginWindow)) {
		delete(t.tries, key)
		w = nil
	}
	if w == nil {
		if len(t.tries) >= throttleKeep {
			t.prune(now)
		}
		w = &window{start: now}
		t.tries[key] = w
	}
	if w.failures >= t.limit {
		return nil, w.start.Add(loginWindow).Sub(now)
	}
	w.failures++
	return w, 0
}

// release gives back an attempt that succeeded (or was no guess); a window that has ended
// since is left alone.
func (t *throttle) release(w *window) {
	if w == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if w.failures > 0 {
		w.failures--
	}
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

// nameKey is the key a login's account name is counted under: the form that look-alike
// names share (campaign.LookalikeKey: "Admin", "аdmin" and "adrnin" count as one), of the name
// cut to a length no account name reaches, so that long names cannot fill the throttle.
func nameKey(name string) string {
	if len(name) > 4*maxNameKey {
		name = strings.ToValidUTF8(name[:4*maxNameKey], "")
	}
	return campaign.LookalikeKey(name)
}

// maxNameKey is the longest account name, in characters.
const maxNameKey = 40

// loginAttempt is one login's reservation with both throttles.
type loginAttempt struct {
	s          *Server
	addr, name *window
}

// reserveLogin counts a login from addr for name before its password is checked; a
// throttled address or name gets the 429 to answer with.
func (s *Server) reserveLogin(c echo.Context, addr, name string) (*loginAttempt, error) {
	a, wait := s.logins.reserve(addr)
	if wait > 0 {
		return nil, tooManyLogins(c, wait, "from this address")
	}
	n, wait := s.names.reserve(name)
	if wait > 0 {
		s.logins.release(a)
		return nil, tooManyLogins(c, wait, "for this account name")
	}
	return &loginAttempt{s: s, addr: a, name: n}, nil
}

// release gives the attempt back: it was no failed guess.
func (l *loginAttempt) release() {
	l.s.logins.release(l.addr)
	l.s.names.release(l.name)
}

// tooManyLogins is the 429 a throttled address or name gets, with Retry-After in seconds.
func tooManyLogins(c echo.Context, wait time.Duration, whose string) error {
	secs := int((wait + time.Second - 1) / time.Second)
	c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
	mins := (secs + 59) / 60
	return echo.NewHTTPError(http.StatusTooManyRequests,
		fmt.Sprintf("too many failed logins %s: try again in %d minute%s", whose, mins, plural(mins)))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
