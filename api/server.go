// Package api is the server's HTTP interface: echo routes over *campaign.Service, validated
// against the embedded OpenAPI document (openapi.yaml), JWT authentication, errors as RFC 9457
// problems, the cached map for the viewer, health and Prometheus metrics. It knows campaign,
// domain and scenario, never store.
package api

import (
	"context"
	"crypto/subtle"
	_ "embed"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/labstack/echo-contrib/echoprometheus"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

// Spec is the OpenAPI 3 document of the API, served at /api/openapi.yaml.
//
//go:embed openapi.yaml
var Spec []byte

// Options configure the HTTP server.
type Options struct {
	// Key signs and checks tokens (HS256): at least 32 random bytes, never a password.
	Key []byte
	// Clock is time.Now by default.
	Clock func() time.Time
	// TokenTTL is how long a token lasts: 12 h by default.
	TokenTTL time.Duration
	// Log is slog.Default() by default.
	Log *slog.Logger
	// TrustedProxies are the CIDRs of reverse proxies whose X-Forwarded-For is believed;
	// without them the client's address is the connection's (echo.ExtractIPDirect).
	TrustedProxies []string
	// Health reports whether the server can serve (the database answers).
	Health func(context.Context) error
	// Registry receives the metrics; a fresh registry by default.
	Registry *prometheus.Registry
	// Pages serves the web pages at "/", "/decks", "/matches" and "/assets/*" (package web);
	// none when nil.
	Pages http.Handler
	// MetricsToken, when set, is the bearer token /metrics asks for; without it the metrics
	// are public.
	MetricsToken string
	// RateLimit bounds the writes per account and per address (429 past it); the zero value
	// is no limit. RateStore keeps the counts: in memory by default.
	RateLimit RateLimit
	RateStore RateStore
}

// Server is the HTTP interface on a service.
type Server struct {
	svc   *campaign.Service
	opt   Options
	auth  *authenticator
	maps  *mapCache
	check *validator
	// logins and names throttle failed logins per client address and per account name.
	logins, names *throttle
	// limits bound the writes per address and per account.
	limits rateLimiters
	// keys holds the idempotency keys being answered; metrics are the server's counters.
	keys    keyLocks
	metrics serverMetrics
	echo    *echo.Echo
}

// New builds the echo server and its routes.
func New(svc *campaign.Service, opt Options) (*Server, error) {
	if opt.Clock == nil {
		opt.Clock = time.Now
	}
	if opt.TokenTTL <= 0 {
		opt.TokenTTL = 12 * time.Hour
	}
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	if opt.Registry == nil {
		opt.Registry = prometheus.NewRegistry()
		opt.Registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	auth, err := newAuthenticator(svc, opt.Key, opt.Clock, opt.TokenTTL)
	if err != nil {
		return nil, err
	}
	v, err := specValidator()
	if err != nil {
		return nil, err
	}
	s := &Server{svc: svc, opt: opt, auth: auth, maps: newMapCache(), check: v, logins: newThrottle(opt.Clock, loginFailures), names: newThrottle(opt.Clock, nameFailures),
		limits: newRateLimiters(opt.RateLimit, opt.RateStore)}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.handleError
	e.IPExtractor = echo.ExtractIPDirect()
	if len(opt.TrustedProxies) > 0 {
		var trust []echo.TrustOption
		for _, cidr := range opt.TrustedProxies {
			_, n, err := net.ParseCIDR(cidr)
			if err != nil {
				return nil, fmt.Errorf("trusted proxy %q: %w", cidr, err)
			}
			trust = append(trust, echo.TrustIPRange(n))
		}
		e.IPExtractor = echo.ExtractIPFromXFFHeader(append(trust, echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false))...)
	}
	e.Use(middleware.Recover())
	// one middleware for what every request needs (each of echo's middlewares is a closure made
	// anew for every request): the request id, the security headers, the log line, the metrics
	e.Use(s.front(newRequestMetrics(opt.Registry), !svc.Exclusive()))
	e.Use(s.limits.address, limitBodies)
	// the maps are answered from memory but on a cache miss: no deadline to set for them
	e.Use(middleware.ContextTimeoutWithConfig(middleware.ContextTimeoutConfig{Timeout: 30 * time.Second,
		Skipper: deadlineFree}))
	s.registerMetrics(opt.Registry, svc.Stats())
	s.echo = e
	s.routes()
	return s, nil
}

// deadlineFree reports whether the request is a map's read, which gets no time limit.
func deadlineFree(c echo.Context) bool {
	return c.Request().Method == http.MethodGet && mapRoutes[c.Path()]
}

// mapRoutes are the routes of the maps.
var mapRoutes = map[string]bool{"/api/campaigns/:cid/map": true, "/api/campaigns/:cid/turns/:n/map": true}

// postsRoute is the route of new posts.
const postsRoute = "/api/campaigns/:cid/posts"

// Handler is the server as an http.Handler.
func (s *Server) Handler() http.Handler { return s.echo }

// Echo is the echo instance, for tests and the command that serves it.
func (s *Server) Echo() *echo.Echo { return s.echo }

func (s *Server) routes() {
	e := s.echo
	small := jsonBody(smallBody)
	large := jsonBody(largeBody)
	// id identifies the caller, counts a write against his account, then answers a retried
	// Idempotency-Key
	id := func(next echo.HandlerFunc) echo.HandlerFunc {
		return s.auth.identify(s.limits.account(s.idempotent(next)))
	}
	v := s.check.middleware

	e.GET("/healthz", s.health)
	e.HEAD("/healthz", s.health)
	e.GET("/metrics", echoprometheus.NewHandlerWithConfig(echoprometheus.HandlerConfig{Gatherer: s.opt.Registry}), s.metricsToken)
	e.GET("/api/openapi.yaml", func(c echo.Context) error { return c.Blob(http.StatusOK, "application/yaml", Spec) })
	if s.opt.Pages != nil {
		pages := echo.WrapHandler(s.opt.Pages)
		for _, p := range []string{"/", "/decks", "/matches", "/assets/*"} {
			e.GET(p, pages)
			e.HEAD(p, pages)
		}
	}

	e.POST("/api/login", s.login, small, v)
	e.GET("/api/me", s.me, id, v)
	e.PUT("/api/me/password", s.changePassword, small, id, v)
	e.GET("/api/accounts", s.listAccounts, id, v)
	e.POST("/api/accounts", s.createAccount, small, id, v)
	e.GET("/api/audit", s.serverAudit, id, v)

	e.GET("/api/campaigns", s.listCampaigns, id, v)
	e.POST("/api/campaigns", s.createCampaign, large, id, v)
	e.POST("/api/campaigns/import", s.importScenario, large, id, v)
	e.GET("/api/campaigns/:cid", campaignRead(s.svc.Campaign), id, v)
	e.GET("/api/campaigns/:cid/members", campaignRead(public(s.svc.Members)), id, v)
	e.PUT("/api/campaigns/:cid/members/:name", s.setMember, small, id, v)
	e.GET("/api/campaigns/:cid/control", campaignRead(public(s.svc.Control)), id, v)
	e.POST("/api/campaigns/:cid/control", campaignWrite(http.StatusCreated, s.setControl), small, id, v)
	e.POST("/api/campaigns/:cid/pause", campaignWrite(http.StatusOK, reasoned(s.svc.Pause)), small, id, v)
	e.POST("/api/campaigns/:cid/resume", campaignWrite(http.StatusOK, reasoned(s.svc.Resume)), small, id, v)
	e.GET("/api/campaigns/:cid/map", s.currentMap, id, v) // mapRoutes
	e.GET("/api/campaigns/:cid/audit", s.campaignAudit, id, v)

	e.POST(postsRoute, s.createPost, small, id, v)
	e.POST("/api/campaigns/:cid/posts/check", s.checkPost, small, id, v)
	e.PUT("/api/campaigns/:cid/posts/:pid", s.editPost, small, id, v)
	e.DELETE("/api/campaigns/:cid/posts/:pid", s.withdrawPost, id, v)

	e.GET("/api/campaigns/:cid/turns", campaignRead(s.svc.Turns), id, v)
	e.GET("/api/campaigns/:cid/turns/:n", turnRead(s.svc.Turn), id, v)
	e.GET("/api/campaigns/:cid/turns/:n/posts", turnRead(s.svc.Posts), id, v)
	e.GET("/api/campaigns/:cid/turns/:n/map", s.turnMap, id, v)
	e.GET("/api/campaigns/:cid/turns/:n/report", turnRead(s.svc.Report), id, v)
	e.GET("/api/campaigns/:cid/turns/:n/report.txt", s.getReportText, id, v)
	e.GET("/api/campaigns/:cid/turns/:n/results", turnRead(s.svc.Results), id, v)
	e.POST("/api/campaigns/:cid/turns/:n/results", s.enterResult, small, id, v)
	e.POST("/api/campaigns/:cid/turns/:n/lock", s.lock, small, id, v)
	e.POST("/api/campaigns/:cid/turns/:n/extend", s.extend, small, id, v)
	e.GET("/api/campaigns/:cid/turns/:n/replay", turnRead(s.svc.Replay), id, v)
	s.deskRoutes(small, id, v)
	s.deckRoutes(small, id, v)
	s.matchRoutes(small, id, v)
	s.mercenaryRoutes(small, id, v)
	s.notifyRoutes(small, id, v)
	s.roundRoutes(small, large, id, v)
	s.governRoutes(small, id, v)
}

func (s *Server) health(c echo.Context) error {
	if s.opt.Health != nil {
		if err := s.opt.Health(c.Request().Context()); err != nil {
			s.opt.Log.Error("health check failed", "err", err)
			return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
		}
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// metricsToken lets a request through to /metrics only with the configured bearer token, when
// there is one.
func (s *Server) metricsToken(next echo.HandlerFunc) echo.HandlerFunc {
	want := []byte("Bearer " + s.opt.MetricsToken)
	return func(c echo.Context) error {
		if s.opt.MetricsToken != "" && subtle.ConstantTimeCompare([]byte(c.Request().Header.Get(echo.HeaderAuthorization)), want) != 1 {
			return domain.Errorf(domain.ErrUnauthorized, "the metrics need the metrics token: send \"Authorization: Bearer <token>\"")
		}
		return next(c)
	}
}
