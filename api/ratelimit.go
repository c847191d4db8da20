// Rate limits: every write (POST, PUT, PATCH, DELETE) counted per client address and per
// account, through echo's rate limiter on a store that can be swapped (issue 17).

package api

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"
)

// RateLimit is how many writes an account, and an address, may make: Rate a second on
// average, Burst at once. The zero value is no limit.
type RateLimit struct {
	Rate  rate.Limit
	Burst int
}

// Off reports whether the limit is switched off.
func (l RateLimit) Off() bool { return l.Rate <= 0 }

// RateStore is the store of the limiter's counts (echo's RateLimiterStore): an in-memory one
// by default; a server behind a load balancer may share one.
type RateStore = middleware.RateLimiterStore

// ParseRateLimit reads a write limit: "off", or N/s, N/m or N/h — N writes a second, minute
// or hour, N at once — optionally followed by ",B" for another burst ("20/s", "600/h,20").
func ParseRateLimit(s string) (RateLimit, error) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "off") {
		return RateLimit{}, nil
	}
	spec, burst, hasBurst := strings.Cut(s, ",")
	num, unit, ok := strings.Cut(strings.TrimSpace(spec), "/")
	if !ok {
		return RateLimit{}, fmt.Errorf("rate limit %q: write N/s, N/m or N/h (optionally ,BURST), or off", s)
	}
	n, err := strconv.Atoi(strings.TrimSpace(num))
	if err != nil {
		return RateLimit{}, fmt.Errorf("rate limit %q: write N/s, N/m or N/h (optionally ,BURST), or off", s)
	}
	if n < 1 {
		return RateLimit{}, fmt.Errorf("rate limit %q: N must be at least 1 (or write off)", s)
	}
	var per time.Duration
	switch strings.TrimSpace(unit) {
	case "s":
		per = time.Second
	case "m":
		per = time.Minute
	case "h":
		per = time.Hour
	default:
		return RateLimit{}, fmt.Errorf("rate limit %q: the unit is s, m or h", s)
	}
	l := RateLimit{Rate: rate.Limit(float64(n) / per.Seconds()), Burst: n}
	if hasBurst {
		b, err := strconv.Atoi(strings.TrimSpace(burst))
		if err != nil || b < 1 {
			return RateLimit{}, fmt.Errorf("rate limit %q: the burst after the comma must be a whole number, at least 1", s)
		}
		l.Burst = b
	}
	return l, nil
}

// String writes the limit as ParseRateLimit reads it.
func (l RateLimit) String() string {
	if l.Off() {
		return "off"
	}
	return fmt.Sprintf("%g/s,%d", float64(l.Rate), l.Burst)
}

// writes reports whether a request changes something: the requests that are rate limited.
func writes(c echo.Context) bool {
	switch c.Request().Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// rateLimiters are the server's two limiters on one store: per address (for every write,
// before anything is read) and per account (after the token is checked).
type rateLimiters struct {
	address, account echo.MiddlewareFunc
}

// newRateLimiters makes the limiters; with the limit off they let everything through.
func newRateLimiters(l RateLimit, store RateStore) rateLimiters {
	if l.Off() {
		pass := func(next echo.HandlerFunc) echo.HandlerFunc { return next }
		return rateLimiters{address: pass, account: pass}
	}
	if store == nil {
		// an idle count is forgotten only once its burst would have come back
		refill := time.Duration(float64(l.Burst) / float64(l.Rate) * float64(time.Second))
		store = middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
			Rate: l.Rate, Burst: l.Burst, ExpiresIn: max(3*time.Minute, refill)})
	}
	deny := func(c echo.Context, _ string, _ error) error {
		secs := max(1, int(math.Ceil(1/float64(l.Rate))))
		c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
		return echo.NewHTTPError(http.StatusTooManyRequests,
			fmt.Sprintf("too many writes: at most %s; try again in %d second%s", l.words(), secs, plural(secs)))
	}
	return rateLimiters{
		address: middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
			Skipper: func(c echo.Context) bool { return !writes(c) },
			Store:   store, DenyHandler: deny,
			IdentifierExtractor: func(c echo.Context) (string, error) { return "address " + c.RealIP(), nil },
		}),
		account: middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
			Skipper: func(c echo.Context) bool { return !writes(c) || actor(c).Account == nil },
			Store:   store, DenyHandler: deny,
			IdentifierExtractor: func(c echo.Context) (string, error) {
				return "account " + strconv.FormatInt(actor(c).Account.ID, 10), nil
			},
		}),
	}
}

// words says the limit for people: "20 writes a second per account and per address".
func (l RateLimit) words() string {
	per, n := "second", float64(l.Rate)
	switch {
	case n < 1.0/60:
		per, n = "hour", n*3600
	case n < 1:
		per, n = "minute", n*60
	}
	return fmt.Sprintf("%s writes a %s per account and per address", strconv.FormatFloat(n, 'f', -1, 64), per)
}
