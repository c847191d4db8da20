package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/golang-jwt/jwt/v5"

	"github.com/coalition-wargame/coalition/api"
	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/store"
)

// start is the tests' time: turn 1 of the fixture campaign opened then and locks days later.
var start = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

var quiet = slog.New(slog.DiscardHandler)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

type detRand struct{ r *rand.ChaCha8 }

func (d detRand) Read(p []byte) (int, error) { return d.r.Read(p) }

// The people of the fixture campaign, by the role they play in the tests.
const (
	anon     = "anonymous"
	expired  = "expired token"
	forged   = "token of another key"
	algNone  = "alg none"
	admin    = "admin"
	mover    = "movement judge"
	batty    = "battle judge"
	merc     = "mercenary judge"
	leader   = "team leader"
	player   = "player"
	sameSide = "same side, not controller"
	enemy    = "other side"
	// holder holds the Coalition's change power with Gerrard (5.2.2.1, the default Admiral) and
	// is no team leader; assistant is an assistant battle judge, who acts as Batty (1.3).
	holder    = "holder of change power"
	assistant = "assistant battle judge"
)

var callers = []string{anon, expired, forged, algNone, admin, mover, batty, merc, leader, player, sameSide, enemy, holder, assistant}

// accountOf names the account of each caller.
var accountOf = map[string]string{admin: "admin", mover: "Mover", batty: "Batty", merc: "Merc", leader: "Gerrard", player: "Gazetzot", sameSide: "Kim", enemy: "Tevesh",
	holder: "Sisay", assistant: "Ada"}

// template is the fixture database, built once and copied for every test that changes it.
var template struct {
	once      sync.Once
	dir, path string
	passwords map[string]string
	ids       map[string]int64
	campaign  int64
	err       error
}

func sq(s string) domain.Square {
	q, err := domain.ParseSquare(s)
	if err != nil {
		panic(err)
	}
	return q
}

func testArmy(name string, side domain.Side, rank domain.Rank, at string, controllers ...string) domain.Army {
	return domain.Army{Name: name, Side: side, Rank: rank, At: sq(at), Controllers: controllers,
		Troops: []domain.Troop{{Creature: "Grizzly Bears", Size: domain.Size{Power: 2, Toughness: 2}, Colors: []domain.Color{domain.Green}, Slot: 1, Alive: 1000, Full: 1000}}}
}

// fixtureMap: Sai Rei and Urza's Guard (Gazetzot), Karn (Kim) of the Coalition; Darkhand5
// and Vorthos (Tevesh) of Phyrexia — Karn and Vorthos fight at 15J this turn; a mercenary.
func fixtureMap() *domain.Map {
	return &domain.Map{Grid: domain.DefaultGrid, Armies: []domain.Army{
		testArmy("Sai Rei", domain.Coalition, domain.Captain, "3F", "Gazetzot"),
		testArmy("Urza's Guard", domain.Coalition, domain.Lieutenant, "20F", "Gazetzot"),
		testArmy("Karn", domain.Coalition, domain.Lieutenant, "15J", "Kim"),
		testArmy("Darkhand5", domain.Phyrexia, domain.Commander, "10F", "Tevesh"),
		testArmy("Vorthos", domain.Phyrexia, domain.Lieutenant, "15J", "Tevesh"),
		testArmy("Raiders", domain.Mercenary, domain.Lieutenant, "30F"),
	}, Sites: []domain.Site{{Name: "Red Base", Kind: domain.Base, Side: domain.Coalition, Color: domain.Red, At: sq("5C"), WinCondition: true}}}
}

// privateMarker is in a private post of the fixture: no one but its author and the judges
// may ever see it before the lock.
const privateMarker = "zz-private-marker-zz"

func buildTemplate() {
	t := &template
	t.dir, t.err = os.MkdirTemp("", "coalition-api-test-")
	if t.err != nil {
		return
	}
	t.path = filepath.Join(t.dir, "template.db")
	ctx := context.Background()
	db, err := store.Open(ctx, t.path, quiet)
	if err != nil {
		t.err = err
		return
	}
	defer db.Close()
	svc := campaign.NewService(db, campaign.Options{Clock: func() time.Time { return start }, Rand: detRand{rand.NewChaCha8([32]byte{7})}, PasswordCost: 4, Log: quiet})
	t.passwords = map[string]string{"admin": "admin-password"}
	if _, err := svc.Bootstrap(ctx, "admin", "admin-password"); err != nil {
		t.err = err
		return
	}
	adm, _ := svc.Login(ctx, "admin", "admin-password")
	su := campaign.Setup{Name: "Fixture", Map: fixtureMap(), Members: []campaign.Member{
		{Name: "Mover", Roles: []campaign.Role{campaign.MovementJudge}},
		{Name: "Batty", Roles: []campaign.Role{campaign.BattleJudge}},
		{Name: "Merc", Roles: []campaign.Role{campaign.MercenaryJudge}},
		{Name: "Gerrard", Roles: []campaign.Role{campaign.Player, campaign.Leader}, Side: domain.Coalition, Rank: domain.General},
		{Name: "Gazetzot", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.Captain},
		{Name: "Kim", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.Lieutenant},
		{Name: "Tevesh", Roles: []campaign.Role{campaign.Player}, Side: domain.Phyrexia, Rank: domain.Commander},
		{Name: "Sisay", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.Admiral},
		{Name: "Ada", Roles: []campaign.Role{campaign.BattleJudge}, Assists: "Batty"},
	}}
	created, err := svc.CreateCampaign(ctx, campaign.Actor{Account: adm}, su)
	if err != nil {
		t.err = err
		return
	}
	t.campaign = created.Campaign.ID
	t.ids = map[string]int64{"admin": adm.ID}
	for _, a := range created.Accounts {
		t.passwords[a.Account.Name] = a.Password
		t.ids[a.Account.Name] = a.Account.ID
	}
	gaz, _ := svc.Login(ctx, "Gazetzot", t.passwords["Gazetzot"])
	if _, err := svc.Post(ctx, campaign.Actor{Account: gaz}, t.campaign, campaign.PostRequest{Text: "Sai Rei: 3F > 3G\n" + privateMarker, Private: true}); err != nil {
		t.err = err
	}
}

// env is one test's server on its own copy of the fixture database.
type env struct {
	t      testing.TB
	db     *store.DB
	svc    *campaign.Service
	srv    *api.Server
	clock  *clock
	key    []byte
	cid    int64
	tokens map[string]string
	check  *contract
}

// newEnv makes a test's server; tune, when given, changes the service's and the server's
// options first.
func newEnv(t testing.TB, tune ...func(*campaign.Options, *api.Options)) *env {
	t.Helper()
	return newEnvWith(t, nil, tune...)
}

// newEnvWith is newEnv with the service's options changed by opts first (a notifier, say).
func newEnvWith(t testing.TB, opts func(*campaign.Options), tune ...func(*campaign.Options, *api.Options)) *env {
	t.Helper()
	template.once.Do(buildTemplate)
	if template.err != nil {
		t.Fatal(template.err)
	}
	path := filepath.Join(t.TempDir(), "coalition.db")
	data, err := os.ReadFile(template.path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, path, quiet)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e := &env{t: t, db: db, clock: &clock{t: start}, cid: template.campaign, tokens: map[string]string{}, check: sharedContract(t)}
	copt := campaign.Options{Clock: e.clock.Now, Rand: detRand{rand.NewChaCha8([32]byte{9})}, PasswordCost: 4, Log: quiet, Cards: sharedCards(t)}
	if opts != nil {
		opts(&copt)
	}
	aopt := api.Options{Clock: e.clock.Now, Log: quiet, Health: db.Ping}
	for _, f := range tune {
		f(&copt, &aopt)
	}
	e.svc = campaign.NewService(db, copt)
	if e.key, err = e.svc.Secret(ctx, "jwt-hs256", 32); err != nil {
		t.Fatal(err)
	}
	aopt.Key = e.key
	if e.srv, err = api.New(e.svc, aopt); err != nil {
		t.Fatal(err)
	}
	return e
}

// token is a caller's bearer token: issued by logging in, or made bad on purpose.
func (e *env) token(caller string) string {
	e.t.Helper()
	if tok, ok := e.tokens[caller]; ok {
		return tok
	}
	var tok string
	switch caller {
	case anon:
	case expired:
		tok = e.craft(e.key, "HS256", start.Add(-13*time.Hour), start.Add(-time.Hour))
	case forged:
		tok = e.craft([]byte("0123456789abcdef0123456789abcdef-another-key"), "HS256", start, start.Add(time.Hour))
	case algNone:
		tok = e.craft(nil, "none", start, start.Add(time.Hour))
	default:
		name := accountOf[caller]
		// each caller logs in from an address of its own, so that logins count against no
		// test's limits
		res := e.doFrom(fmt.Sprintf("192.0.2.%d:40000", 1+slices.Index(callers, caller)), http.MethodPost, "/api/login", "", map[string]string{"name": name, "password": template.passwords[name]})
		if res.Code != http.StatusOK {
			e.t.Fatalf("login as %s: %d %s", name, res.Code, res.Body)
		}
		var body struct{ Token string }
		json.Unmarshal(res.Body.Bytes(), &body)
		tok = body.Token
	}
	e.tokens[caller] = tok
	return tok
}

// do sends a request through the server and the contract check.
func (e *env) do(method, path, token string, body any) *httptest.ResponseRecorder {
	e.t.Helper()
	return e.doFrom("198.51.100.7:40000", method, path, token, body)
}

// doFrom is do from the client address addr (the login throttle counts per address).
func (e *env) doFrom(addr, method, path, token string, body any) *httptest.ResponseRecorder {
	e.t.Helper()
	var r io.Reader
	var raw []byte
	switch b := body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			e.t.Fatal(err)
		}
	}
	if raw != nil {
		r = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, path, r)
	req.RemoteAddr = addr
	if raw != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res := httptest.NewRecorder()
	e.srv.Handler().ServeHTTP(res, req)
	e.check.verify(e.t, method, path, token, raw, res)
	return res
}

// as sends a request as the caller, from the caller's own address.
func (e *env) as(caller, method, path string, body any) *httptest.ResponseRecorder {
	e.t.Helper()
	return e.doFrom(fmt.Sprintf("198.51.100.%d:40000", 10+slices.Index(callers, caller)), method, path, e.token(caller), body)
}

// actor is a caller as the service sees it, to set a test up without HTTP.
func (e *env) actor(caller string) campaign.Actor {
	e.t.Helper()
	acc, err := e.svc.Account(context.Background(), template.ids[accountOf[caller]])
	if err != nil {
		e.t.Fatal(err)
	}
	return campaign.Actor{Account: acc}
}

func (e *env) dump() string {
	e.t.Helper()
	d, err := e.db.Dump(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return d
}

// contract checks every response against the OpenAPI document (the contract test), and
// that every error is a problem document.
type contract struct {
	router routers.Router
	mu     sync.Mutex
	seen   map[string]bool
}

var contractOnce struct {
	sync.Once
	c   *contract
	err error
}

func sharedContract(t testing.TB) *contract {
	contractOnce.Do(func() {
		doc, err := api.LoadSpec(api.Spec)
		if err != nil {
			contractOnce.err = err
			return
		}
		r, err := legacy.NewRouter(doc)
		contractOnce.c, contractOnce.err = &contract{router: r, seen: map[string]bool{}}, err
	})
	if contractOnce.err != nil {
		t.Fatal(contractOnce.err)
	}
	return contractOnce.c
}

func (c *contract) verify(t testing.TB, method, path, token string, reqBody []byte, res *httptest.ResponseRecorder) {
	t.Helper()
	if err := c.check(method, path, token, reqBody, res.Code, res.Header(), res.Body.Bytes()); err != nil {
		t.Errorf("%s %s → %d breaks the contract: %v\nbody: %s", method, path, res.Code, err, truncate(res.Body.String()))
	}
}

// check validates one response; it is separate from verify so that a test can show it fails.
func (c *contract) check(method, path, token string, reqBody []byte, status int, header http.Header, body []byte) error {
	req := httptest.NewRequest(method, path, bytes.NewReader(reqBody))
	if reqBody != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if status >= 400 && method != http.MethodHead {
		if ct := header.Get("Content-Type"); ct != "application/problem+json" {
			return errorf("error with Content-Type %q, not application/problem+json", ct)
		}
		var p api.Problem
		if err := json.Unmarshal(body, &p); err != nil || p.Status != status || p.Detail == "" || p.Title == "" {
			return errorf("not a complete problem document: %v", err)
		}
	}
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		return nil // outside the document: /healthz, /metrics, unknown paths
	}
	c.mu.Lock()
	c.seen[route.Method+" "+route.Path] = true
	c.mu.Unlock()
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 status, Header: header, Body: io.NopCloser(bytes.NewReader(body)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true},
	}
	return openapi3filter.ValidateResponse(context.Background(), in)
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// craft makes a token for the player's account with the given key and algorithm.
func (e *env) craft(key []byte, alg string, iat, exp time.Time) string {
	e.t.Helper()
	cl := jwt.MapClaims{"iss": "coalition", "aud": []string{"coalition-api"}, "sub": fmt.Sprint(template.ids["Gazetzot"]),
		"iat": iat.Unix(), "nbf": iat.Unix(), "exp": exp.Unix(), "ver": 1}
	var tok string
	var err error
	if alg == "none" {
		t := jwt.NewWithClaims(jwt.SigningMethodNone, cl)
		t.Header["typ"] = "coalition-access+jwt"
		tok, err = t.SignedString(jwt.UnsafeAllowNoneSignatureType)
	} else {
		t := jwt.NewWithClaims(jwt.SigningMethodHS256, cl)
		t.Header["typ"] = "coalition-access+jwt"
		tok, err = t.SignedString(key)
	}
	if err != nil {
		e.t.Fatal(err)
	}
	return tok
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if template.dir != "" {
		os.RemoveAll(template.dir)
	}
	// When the whole suite ran, every operation of the document was exercised and checked.
	if code == 0 && flag.Lookup("test.run").Value.String() == "" && flag.Lookup("test.bench").Value.String() == "" && contractOnce.c != nil {
		doc, _ := api.LoadSpec(api.Spec)
		for path, item := range doc.Paths.Map() {
			for method := range item.Operations() {
				if !contractOnce.c.seen[method+" "+path] {
					fmt.Fprintf(os.Stderr, "the API tests never called %s %s\n", method, path)
					code = 1
				}
			}
		}
	}
	os.Exit(code)
}

func truncate(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}
