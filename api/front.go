// The front of every request (issue 16): its request id, the security headers, the state
// version it reads once (PostgreSQL), its log line and its metrics, in one middleware.

package api

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/coalition-wargame/coalition/campaign"
)

// slowRequest is how long a request takes before its log line is written whatever its status.
const slowRequest = 500 * time.Millisecond

// requestLevel is the level of a request's log line: a successful read is a debug line (a
// busy server answers thousands a second); a write, an error or a slow request is info.
func requestLevel(method string, status int, latency time.Duration) slog.Level {
	if (method == http.MethodGet || method == http.MethodHead) && status < 400 && latency < slowRequest {
		return slog.LevelDebug
	}
	if latency >= slowRequest {
		return slog.LevelWarn
	}
	return slog.LevelInfo
}

// The security headers, each value shared by every answer (nothing appends to them in place).
var (
	nosniff   = []string{"nosniff"}
	deny      = []string{"DENY"}
	noReferer = []string{"no-referrer"}
	csp       = []string{"default-src 'none'; frame-ancestors 'none'"}
)

// securityHeaders are the security headers' names.
var securityHeaders = []string{"X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy", "Content-Security-Policy"}

// front notes the request's own context (clientGone), gives it a request id (a proxy's when it
// is a plain token: X-Request-Id, and the log lines and problem documents name it) and the
// security headers, and, when the store is shared, a place for the state version it reads
// once; after the handler it answers an error, so that its status is the one logged and
// counted, writes the request's log line and counts it.
func (s *Server) front(m *requestMetrics, memo bool) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			if !deadlineFree(c) {
				// the time limit wraps the context: keep the client's (clientGone); a map has no
				// limit, and no value stored in echo's context (its map costs a 304 a tenth)
				c.Set(clientContextKey, req.Context())
			}
			id := req.Header.Get(echo.HeaderXRequestID)
			if !proxyID(id) {
				id = newRequestID()
			}
			h := c.Response().Header()
			h[echo.HeaderXRequestID] = []string{id}
			h[securityHeaders[0]], h[securityHeaders[1]], h[securityHeaders[2]], h[securityHeaders[3]] = nosniff, deny, noReferer, csp
			if memo {
				req = req.WithContext(campaign.WithRequestState(req.Context()))
				c.SetRequest(req)
			}
			start := time.Now()
			if err := next(c); err != nil {
				c.Error(err)
			}
			latency := time.Since(start)
			m.observe(c, req, latency)
			status := c.Response().Status
			level := requestLevel(req.Method, status, latency)
			if ctx := req.Context(); s.opt.Log.Enabled(ctx, level) {
				s.opt.Log.Log(ctx, level, "request", "method", req.Method, "uri", req.RequestURI, "status", status, "latency", latency, "ip", c.RealIP(), "request_id", id)
			}
			return nil
		}
	}
}
