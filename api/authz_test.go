package api_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/labstack/echo/v4"
)

// route is one row of the authorization table: a request, what to set up first, and the
// status each caller gets. Callers not listed get def; the three bad tokens get 401 on
// every route that reads tokens.
type route struct {
	name   string
	method string
	path   string
	body   func(caller string) any
	setup  func(e *env)
	def    int
	want   map[string]int
	public bool // the route does not read tokens at all
	// locks marks set-ups that lock turn 1, after which private posts are public (C2).
	locks bool
	// mutates marks routes whose success changes the database, so that each caller gets a
	// fresh copy of it.
	mutates bool
}

const c1 = "/api/campaigns/1"

func fixed(v any) func(string) any { return func(string) any { return v } }

// judges may do it; everyone else logged in is forbidden, the anonymous must log in.
func only(status int, who ...string) map[string]int {
	m := map[string]int{anon: http.StatusUnauthorized}
	for _, w := range who {
		m[w] = status
	}
	return m
}

func everyone(status int) map[string]int {
	m := map[string]int{}
	for _, c := range callers {
		m[c] = status
	}
	return m
}

// post makes the player's public post and returns its path.
func ownPost(e *env) string {
	out, err := e.svc.Post(context.Background(), e.actor(player), e.cid, campaign.PostRequest{Text: "Sai Rei: 3F > 4F"})
	if err != nil {
		e.t.Fatal(err)
	}
	return fmt.Sprintf("%s/posts/%d", c1, out.Post.ID)
}

var karnWins = domain.BattleResult{Square: sq("15J"), Winner: "Karn", Losses: map[string]map[string]int{"Vorthos": {"Grizzly Bears": 200}}}

func enterResult(e *env) {
	if _, err := e.svc.EnterResult(context.Background(), e.actor(batty), e.cid, 1, karnWins); err != nil {
		e.t.Fatal(err)
	}
}

func lockTurn1(e *env) {
	enterResult(e)
	if _, err := e.svc.Lock(context.Background(), e.actor(mover), e.cid, 1, "set-up"); err != nil {
		e.t.Fatal(err)
	}
}

var moveSaiRei = map[string]any{"orders": []map[string]any{{"army": "Sai Rei", "kind": "move", "from": "3F", "legs": []map[string]any{{"to": "4F"}}}}}

func routes() []route {
	scenario, err := os.ReadFile("../testdata/scenarios/public/attack.json")
	if err != nil {
		panic(err)
	}
	ok, created, forbidden := http.StatusOK, http.StatusCreated, http.StatusForbidden
	judges := only(ok, mover, batty)
	return append([]route{
		{name: "healthz", method: "GET", path: "/healthz", def: ok, public: true},
		{name: "healthz head", method: "HEAD", path: "/healthz", def: ok, public: true},
		{name: "metrics", method: "GET", path: "/metrics", def: ok, public: true},
		{name: "openapi", method: "GET", path: "/api/openapi.yaml", def: ok, public: true},
		{name: "unknown route", method: "GET", path: "/api/nothing-here", def: http.StatusNotFound, public: true},
		{name: "check deck", method: "POST", path: "/api/decks/check", def: ok, public: true,
			body: fixed(map[string]string{"format": "coalition", "list": "60 Forest\nSB: 1 Kaalia of the Vast"})},
		{name: "login", method: "POST", path: "/api/login", def: ok, public: true,
			body: fixed(map[string]string{"name": "Gazetzot", "password": "wrong-password"}), want: everyone(http.StatusUnauthorized)},
		{name: "me", method: "GET", path: "/api/me", def: ok, want: only(ok)},
		{name: "change password", method: "PUT", path: "/api/me/password", def: http.StatusNoContent, want: only(http.StatusNoContent), mutates: true,
			body: func(c string) any {
				return map[string]string{"old": template.passwords[accountOf[c]], "new": "a-new-password"}
			}},
		{name: "list accounts", method: "GET", path: "/api/accounts", def: forbidden, want: only(ok, admin)},
		{name: "create account", method: "POST", path: "/api/accounts", def: forbidden, want: only(created, admin), mutates: true,
			body: fixed(map[string]string{"name": "Newcomer"})},
		{name: "server audit", method: "GET", path: "/api/audit", def: forbidden, want: only(ok, admin)},
		{name: "list campaigns", method: "GET", path: "/api/campaigns", def: ok, want: everyone(ok)},
		{name: "create campaign", method: "POST", path: "/api/campaigns", def: forbidden, want: only(created, admin), mutates: true,
			body: fixed(map[string]any{"name": "Another", "map": map[string]any{"grid": map[string]int{"Cols": 10, "Rows": 5},
				"armies": []map[string]any{{"name": "A", "side": "coalition", "rank": "captain", "at": "3C", "days": 0}}}})},
		{name: "import scenario", method: "POST", path: "/api/campaigns/import", def: forbidden, want: only(created, admin), mutates: true,
			body: fixed(scenario)},
		{name: "campaign", method: "GET", path: c1, def: ok, want: everyone(ok)},
		{name: "members", method: "GET", path: c1 + "/members", def: ok, want: everyone(ok)},
		{name: "set member", method: "PUT", path: c1 + "/members/Kim", def: forbidden, want: only(ok, admin, mover, batty, leader), mutates: true,
			body: fixed(map[string]string{"rank": "lt-commander"})},
		{name: "control list", method: "GET", path: c1 + "/control", def: ok, want: everyone(ok)},
		{name: "set control", method: "POST", path: c1 + "/control", def: forbidden, want: only(created, admin, mover, leader, holder), mutates: true,
			body: fixed(map[string]any{"army": "Urza's Guard", "controllers": []string{"Kim"}, "reason": "test"})},
		{name: "pause", method: "POST", path: c1 + "/pause", def: forbidden, want: judges, mutates: true, body: fixed(map[string]string{"reason": "test"})},
		{name: "resume", method: "POST", path: c1 + "/resume", def: forbidden, want: judges, mutates: true, body: fixed(map[string]string{"reason": "test"}),
			setup: func(e *env) {
				if _, err := e.svc.Pause(context.Background(), e.actor(mover), e.cid, "set-up"); err != nil {
					e.t.Fatal(err)
				}
			}},
		{name: "map", method: "GET", path: c1 + "/map", def: ok, want: everyone(ok)},
		{name: "campaign audit", method: "GET", path: c1 + "/audit", def: forbidden, want: only(ok, admin, mover, batty, merc)},
		{name: "post structured orders", method: "POST", path: c1 + "/posts", def: forbidden, want: only(created, player), mutates: true, body: fixed(moveSaiRei)},
		{name: "check structured orders", method: "POST", path: c1 + "/posts/check", def: forbidden, want: only(ok, player), body: fixed(moveSaiRei)},
		{name: "post text", method: "POST", path: c1 + "/posts", def: forbidden, want: only(created, player, sameSide, enemy, leader, merc, holder), mutates: true,
			body: fixed(map[string]string{"text": "Sai Rei: 3F > 4F"})},
		{name: "edit post", method: "PUT", path: "own post", def: forbidden, want: only(ok, player), mutates: true,
			body: fixed(map[string]string{"text": "Sai Rei: 3F > 5F"})},
		{name: "withdraw post", method: "DELETE", path: "own post", def: forbidden, want: only(ok, player), mutates: true},
		{name: "turns", method: "GET", path: c1 + "/turns", def: ok, want: everyone(ok)},
		{name: "turn", method: "GET", path: c1 + "/turns/1", def: ok, want: everyone(ok)},
		{name: "posts", method: "GET", path: c1 + "/turns/1/posts", def: ok, want: everyone(ok)},
		{name: "turn map", method: "GET", path: c1 + "/turns/1/map", def: ok, want: everyone(ok)},
		{name: "report before the lock", method: "GET", path: c1 + "/turns/1/report", def: http.StatusNotFound, want: everyone(http.StatusNotFound)},
		{name: "report", locks: true, method: "GET", path: c1 + "/turns/1/report", def: ok, want: everyone(ok), setup: lockTurn1},
		{name: "report text", locks: true, method: "GET", path: c1 + "/turns/1/report.txt", def: ok, want: everyone(ok), setup: lockTurn1},
		{name: "results before the lock", method: "GET", path: c1 + "/turns/1/results", def: forbidden, want: only(ok, admin, mover, batty)},
		{name: "results after the lock", locks: true, method: "GET", path: c1 + "/turns/1/results", def: ok, want: everyone(ok), setup: lockTurn1},
		{name: "enter result", method: "POST", path: c1 + "/turns/1/results", def: forbidden, want: only(ok, batty), mutates: true, body: fixed(karnWins)},
		{name: "lock", method: "POST", path: c1 + "/turns/1/lock", def: forbidden, want: judges, mutates: true, setup: enterResult,
			body: fixed(map[string]string{"reason": "test"})},
		{name: "extend", method: "POST", path: c1 + "/turns/1/extend", def: forbidden, want: judges, mutates: true,
			body: fixed(map[string]any{"hours": 24, "reason": "test"})},
		{name: "replay", locks: true, method: "GET", path: c1 + "/turns/1/replay", def: forbidden, want: only(ok, admin, mover, batty), setup: lockTurn1},
	}, append(append(append(append(deskRoutes(), mercenaryRoutes()...), notifyRouteRows()...), roundRouteRows()...), governRouteRows()...)...)
}

// TestAuthorization runs every route as every kind of caller: each role, a player of the
// other side, a player of the same side who does not control the army, no token, an
// expired token, a token signed with another key and one with alg none.
func TestAuthorization(t *testing.T) {
	for _, r := range routes() {
		var shared *env
		if !r.mutates {
			shared = newEnv(t)
			if r.setup != nil {
				r.setup(shared)
			}
		}
		for _, c := range callers {
			want, ok := r.want[c]
			if !ok {
				want = r.def
				// an assistant judge acts as the judge he assists (1.3)
				if b, ok := r.want[batty]; ok && c == assistant {
					want = b
				}
			}
			if !r.public && (c == expired || c == forged || c == algNone) {
				want = http.StatusUnauthorized
			}
			t.Run(fmt.Sprintf("%s %s/%s", r.method, strings.ReplaceAll(r.name, " ", "_"), strings.ReplaceAll(c, " ", "_")), func(t *testing.T) {
				e := shared
				if r.mutates {
					e = newEnv(t)
					if r.setup != nil {
						r.setup(e)
					}
				}
				e.t = t
				path := r.path
				switch path {
				case "own post":
					path = ownPost(e)
				case "message to hide":
					path = publicMessage(e)
				}
				var body any
				if r.body != nil {
					body = r.body(c)
				}
				res := e.as(c, r.method, path, body)
				if res.Code != want {
					t.Errorf("%s %s as %s: %d, want %d: %s", r.method, path, c, res.Code, want, truncate(res.Body.String()))
				}
				// C2: the private post of the fixture shows only to its author and the judges.
				if c != player && c != admin && c != mover && c != batty && c != assistant && !r.locks && strings.Contains(res.Body.String(), privateMarker) {
					t.Errorf("%s %s as %s shows the player's private post before the lock", r.method, path, c)
				}
			})
		}
	}
}

// routeOf is the route echo serves a request of the table by: its method and path pattern.
func routeOf(e *echo.Echo, method, path string) string {
	path, _, _ = strings.Cut(path, "?")
	switch path {
	case "own post":
		path = c1 + "/posts/1"
	case "message to hide":
		path = c1 + "/messages/1/hide"
	}
	c := e.NewContext(nil, nil)
	e.Router().Find(method, path, c)
	return method + " " + c.Path()
}

// uncovered lists the registered routes no row of the table calls.
func uncovered(e *echo.Echo, rows []route) []string {
	called := map[string]bool{}
	for _, r := range rows {
		called[routeOf(e, r.method, r.path)] = true
	}
	var out []string
	for _, r := range e.Routes() {
		if k := r.Method + " " + r.Path; !called[k] {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// The table covers every route the server registers: a new route without its row fails here
// (and the check itself fails when a row goes missing).
func TestAuthorizationCoversEveryRoute(t *testing.T) {
	e := newEnv(t).srv.Echo()
	rows := routes()
	if missing := uncovered(e, rows); len(missing) > 0 {
		t.Errorf("routes with no row in the authorization table: %s", strings.Join(missing, ", "))
	}
	if len(e.Routes()) < 50 {
		t.Errorf("only %d routes registered", len(e.Routes()))
	}
	for i := range rows {
		if rows[i].name != "sanction" {
			continue
		}
		fewer := slices.Delete(slices.Clone(rows), i, i+1)
		if got := uncovered(e, fewer); !slices.Equal(got, []string{"POST /api/campaigns/:cid/turns/:n/sanctions"}) {
			t.Errorf("without the sanction row, uncovered: %v", got)
		}
		return
	}
	t.Error("the table has no sanction row")
}
