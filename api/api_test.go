package api_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/api"
	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

// Bad input gets a clear 4xx problem naming what is wrong, and changes nothing.
func TestBadInputChangesNothing(t *testing.T) {
	big := strings.Repeat("Sai Rei: 3F > 4F\n", 20000)
	cases := []struct {
		name   string
		caller string
		method string
		path   string
		body   any
		token  string
		status int
		detail string
	}{
		{"malformed structured order", player, "POST", c1 + "/posts", map[string]any{"orders": []map[string]any{{"army": "Sai Rei", "kind": "fly"}}}, "", 400, `"/orders/0/kind"`},
		{"move without legs", player, "POST", c1 + "/posts", map[string]any{"orders": []map[string]any{{"army": "Sai Rei", "kind": "move", "from": "3F"}}}, "", 422, `a move needs "from" and at least one leg`},
		{"square off the map", player, "POST", c1 + "/posts", map[string]any{"orders": []map[string]any{{"army": "Sai Rei", "kind": "move", "from": "3F", "legs": []map[string]string{{"to": "39A"}}}}}, "", 422, "39A is off the map"},
		{"forged token", "", "POST", c1 + "/posts", map[string]string{"text": "Sai Rei: 3F > 4F"}, "forged", 401, "its signature is wrong"},
		{"alg none token", "", "POST", c1 + "/posts", map[string]string{"text": "Sai Rei: 3F > 4F"}, "none", 401, "not signed with HS256"},
		{"expired token", "", "POST", c1 + "/posts", map[string]string{"text": "Sai Rei: 3F > 4F"}, "expired", 401, "it has expired"},
		{"garbage token", "", "POST", c1 + "/posts", map[string]string{"text": "Sai Rei: 3F > 4F"}, "not-a-jwt", 401, "malformed"},
		{"oversized body", player, "POST", c1 + "/posts", map[string]string{"text": big}, "", 413, "too large"},
		{"someone else's army", sameSide, "POST", c1 + "/posts", moveSaiRei, "", 403, "Kim does not control Sai Rei"},
		{"the other side's army", enemy, "POST", c1 + "/posts", moveSaiRei, "", 403, "Tevesh does not control Sai Rei"},
		{"unknown JSON field", player, "POST", c1 + "/posts", map[string]any{"text": "Sai Rei: 3F > 4F", "urgent": true}, "", 400, `property "urgent" is unsupported`},
		{"unknown field in a result", batty, "POST", c1 + "/turns/1/results", map[string]any{"square": "15J", "winner": "Karn", "dice": 3}, "", 400, `property "dice" is unsupported`},
		{"not JSON", player, "POST", c1 + "/posts", "{text: Sai Rei", "", 400, "not valid JSON"},
		{"text and orders", player, "POST", c1 + "/posts", map[string]any{"text": "Sai Rei: 3F > 4F", "orders": moveSaiRei["orders"]}, "", 422, "not both"},
		{"empty post", player, "POST", c1 + "/posts", map[string]any{"text": "  "}, "", 422, "the post is empty"},
		{"result for no battle", batty, "POST", c1 + "/turns/1/results", map[string]any{"square": "3F", "winner": "Sai Rei"}, "", 422, "no battle is fought at 3F"},
		{"result naming an outsider", batty, "POST", c1 + "/turns/1/results", map[string]any{"square": "15J", "winner": "Sai Rei"}, "", 422, "does not fight in the battle at 15J"},
		{"result with a kill on a friend", batty, "POST", c1 + "/turns/1/results", map[string]any{"square": "15J", "winner": "Karn", "kill": map[string]any{"by": "Karn", "target": "Karn", "success": true}}, "", 422, "Karn cannot kill Karn: they are on the same side"},
		{"lock without a reason", mover, "POST", c1 + "/turns/1/lock", map[string]any{"reason": ""}, "", 422, "reason"},
		{"extension past the cap", batty, "POST", c1 + "/turns/1/extend", map[string]any{"hours": 73, "reason": "holiday"}, "", 422, "at most 72h"},
		{"bad campaign id", player, "GET", "/api/campaigns/x/map", nil, "", 400, `parameter "cid"`},
		{"campaign that does not exist", player, "GET", "/api/campaigns/99/map", nil, "", 404, "campaign 99 does not exist"},
		{"control for a Cadet's rank", leader, "POST", c1 + "/control", map[string]any{"army": "Sai Rei", "controllers": []string{"Kim"}}, "", 422, "5.3.1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			tok := c.token
			switch tok {
			case "":
				tok = e.token(c.caller)
			case "forged":
				tok = e.token(forged)
			case "none":
				tok = e.token(algNone)
			case "expired":
				tok = e.token(expired)
			}
			before := e.dump()
			res := e.do(c.method, c.path, tok, c.body)
			if res.Code != c.status {
				t.Fatalf("%d, want %d: %s", res.Code, c.status, truncate(res.Body.String()))
			}
			if ct := res.Header().Get("Content-Type"); ct != "application/problem+json" {
				t.Errorf("Content-Type %q", ct)
			}
			var p struct{ Detail string }
			json.Unmarshal(res.Body.Bytes(), &p)
			if !strings.Contains(p.Detail, c.detail) {
				t.Errorf("detail %q does not say %q", p.Detail, c.detail)
			}
			if after := e.dump(); after != before {
				t.Error("the bad request changed the database")
			}
		})
	}
}

func TestTextPostForSomeoneElsesArmyIsRecordedForTheJudge(t *testing.T) {
	// 5.4.1: the post stands, its line is rejected not_controller.
	e := newEnv(t)
	res := e.as(enemy, "POST", c1+"/posts", map[string]string{"text": "Sai Rei: 3F > 4F"})
	if res.Code != http.StatusCreated || !strings.Contains(res.Body.String(), `"code":"not_controller"`) {
		t.Fatalf("%d %s", res.Code, res.Body)
	}
	audit := e.as(mover, "GET", c1+"/audit", nil)
	if !strings.Contains(audit.Body.String(), `"actor":"Tevesh","action":"post.create"`) {
		t.Errorf("the judge's audit log does not show the post: %s", truncate(audit.Body.String()))
	}
}

func TestPrivatePostsShowAfterTheLock(t *testing.T) {
	e := newEnv(t)
	for _, c := range []string{anon, enemy, sameSide, leader, merc} {
		if body := e.as(c, "GET", c1+"/turns/1/posts", nil).Body.String(); strings.Contains(body, privateMarker) {
			t.Fatalf("%s sees the private post before the lock", c)
		}
	}
	for _, c := range []string{player, mover, batty} {
		if body := e.as(c, "GET", c1+"/turns/1/posts", nil).Body.String(); !strings.Contains(body, privateMarker) {
			t.Errorf("%s does not see the private post", c)
		}
	}
	lockTurn1(e)
	for _, c := range []string{anon, enemy} {
		if body := e.as(c, "GET", c1+"/turns/1/posts", nil).Body.String(); !strings.Contains(body, privateMarker) {
			t.Errorf("%s does not see the private post after the lock", c)
		}
	}
}

func TestTransferDetailIsPrivateToTheSide(t *testing.T) {
	e := newEnv(t)
	res := e.as(player, "POST", c1+"/posts", map[string]any{"text": "Urza's Guard: Transfer to Karn at 15J",
		"transfers": []map[string]any{{"army": "Urza's Guard", "creatures": map[string]int{"Grizzly Bears": 123}}}})
	if res.Code != http.StatusCreated {
		t.Fatalf("%d %s", res.Code, res.Body)
	}
	for c, want := range map[string]bool{player: true, sameSide: true, leader: true, mover: true, enemy: false, anon: false, merc: false} {
		body := e.as(c, "GET", c1+"/turns/1/posts", nil).Body.String()
		if got := strings.Contains(body, `"Grizzly Bears":123`); got != want {
			t.Errorf("%s sees the transfer detail: %v, want %v", c, got, want)
		}
	}
}

func TestMapETag(t *testing.T) {
	e := newEnv(t)
	first := e.as(enemy, "GET", c1+"/map", nil)
	tag := first.Header().Get("ETag")
	if first.Code != 200 || tag == "" {
		t.Fatalf("%d, ETag %q", first.Code, tag)
	}
	req := httptest.NewRequest("GET", c1+"/map", nil)
	req.Header.Set("If-None-Match", tag)
	req.Header.Set("Authorization", "Bearer "+e.token(enemy))
	res := httptest.NewRecorder()
	e.srv.Handler().ServeHTTP(res, req)
	if res.Code != http.StatusNotModified || res.Body.Len() != 0 {
		t.Fatalf("If-None-Match with the current tag: %d", res.Code)
	}
	if pub := e.as(anon, "GET", c1+"/map", nil).Header().Get("ETag"); pub == tag {
		t.Error("the public and a side's view share an ETag, but they may differ")
	}
	// A control change changes the map: the old tag no longer matches.
	if _, err := e.svc.SetControl(context.Background(), e.actor(mover), e.cid, "Urza's Guard", []string{"Kim"}, "test"); err != nil {
		t.Fatal(err)
	}
	res = httptest.NewRecorder()
	e.srv.Handler().ServeHTTP(res, req)
	if res.Code != http.StatusOK || res.Header().Get("ETag") == tag {
		t.Fatalf("after a control change: %d, ETag %q", res.Code, res.Header().Get("ETag"))
	}
	var m campaign.MapView
	json.Unmarshal(res.Body.Bytes(), &m)
	for _, a := range m.Armies {
		if a.Name == "Urza's Guard" && (len(a.Controllers) != 1 || a.Controllers[0] != "Kim") {
			t.Errorf("the map shows Urza's Guard controlled by %v", a.Controllers)
		}
	}
	if len(m.Terrain) != 14 || len(m.Terrain[0]) != 38 {
		t.Errorf("terrain of %d rows", len(m.Terrain))
	}
}

func TestImportAndReplayOverHTTP(t *testing.T) {
	e := newEnv(t)
	sc := `{"name":"tiny","seed":3,"sites":[],"armies":[{"name":"A","side":"coalition","rank":"captain","at":"3D","controllers":["Alice"]},
		{"name":"B","side":"phyrexia","rank":"captain","at":"8D","controllers":["Bob"]}],
		"turns":[{"posts":[{"id":1,"author":"Alice","at":"2026-03-01T12:00:00Z","text":"A: 3D > 5E"}]}]}`
	res := e.as(admin, "POST", "/api/campaigns/import?name=Tiny", sc)
	if res.Code != http.StatusCreated {
		t.Fatalf("%d %s", res.Code, res.Body)
	}
	var created struct {
		Campaign struct{ ID int64 }
		Accounts []struct {
			Account  struct{ Name string }
			Password string
		}
	}
	json.Unmarshal(res.Body.Bytes(), &created)
	if len(created.Accounts) != 2 {
		t.Fatalf("accounts %+v", created.Accounts)
	}
	login := e.do("POST", "/api/login", "", map[string]string{"name": "Alice", "password": created.Accounts[0].Password})
	var tok struct{ Token string }
	json.Unmarshal(login.Body.Bytes(), &tok)
	path := "/api/campaigns/" + itoa(created.Campaign.ID)
	if res := e.do("POST", path+"/posts", tok.Token, map[string]string{"text": "A: 3D > 5E"}); res.Code != http.StatusCreated {
		t.Fatalf("%d %s", res.Code, res.Body)
	}
	turn1 := e.as(anon, "GET", path+"/turns/1", nil).Body.String()
	if !strings.Contains(turn1, `"check_window":false`) {
		t.Errorf("an imported turn without a lock time checks no window: %s", turn1)
	}
	// The importing admin is no judge of the new campaign until he makes himself one.
	if res := e.as(admin, "POST", path+"/turns/1/lock", map[string]string{"reason": "x"}); res.Code != http.StatusForbidden {
		t.Errorf("lock by the admin: %d", res.Code)
	}
	if res := e.as(admin, "PUT", path+"/members/Mover", map[string]any{"roles": []string{"movement-judge"}}); res.Code != http.StatusOK {
		t.Fatalf("%d %s", res.Code, res.Body)
	}
	if res := e.as(mover, "POST", path+"/turns/1/lock", map[string]string{"reason": "test"}); res.Code != http.StatusOK {
		t.Fatalf("%d %s", res.Code, res.Body)
	}
	rep := e.as(anon, "GET", path+"/turns/1/report", nil)
	if !strings.Contains(rep.Body.String(), `"positions":{"A":"5E","B":"8D"}`) {
		t.Errorf("report %s", truncate(rep.Body.String()))
	}
	rp := e.as(mover, "GET", path+"/turns/1/replay", nil)
	if !strings.Contains(rp.Body.String(), `"same":true`) {
		t.Errorf("replay %s", rp.Body)
	}
	text := e.as(anon, "GET", path+"/turns/1/report.txt", nil)
	if !strings.Contains(text.Body.String(), "A: 3D > 5E") || !strings.HasPrefix(text.Header().Get("Content-Type"), "text/plain") {
		t.Errorf("text report %q", text.Body)
	}
	// B6: the scenario's own turns draw from its seed, as `coalition adjudicate` does; the turn
	// after them is a real turn, whose seed nobody can work out from the public scenario seed.
	var t1, t2 struct{ Commitment string }
	json.Unmarshal(e.as(anon, "GET", path+"/turns/1", nil).Body.Bytes(), &t1)
	json.Unmarshal(e.as(anon, "GET", path+"/turns/2", nil).Body.Bytes(), &t2)
	if t1.Commitment != domain.ScenarioSeed(3, 0).Commitment() {
		t.Errorf("turn 1 commits to %q, not the scenario's seed", t1.Commitment)
	}
	if t2.Commitment == "" || t2.Commitment == domain.ScenarioSeed(3, 1).Commitment() {
		t.Errorf("turn 2, after the scenario, commits to the predictable seed %q", t2.Commitment)
	}
}

// The contract check itself must catch a response that breaks the document.
func TestContractCatchesBadResponses(t *testing.T) {
	c := sharedContract(t)
	h := http.Header{"Content-Type": []string{"application/json"}}
	if err := c.check("GET", "/api/campaigns/1", "", nil, 200, h, []byte(`{"id":1}`)); err == nil {
		t.Error("a campaign without its required fields passed")
	}
	if err := c.check("GET", "/api/campaigns/1", "", nil, 418, h, []byte(`{}`)); err == nil {
		t.Error("an error that is not a problem document passed")
	}
	if err := c.check("GET", "/api/campaigns", "", nil, 201, h, []byte(`[]`)); err == nil {
		t.Error("an undocumented status passed")
	}
}

func TestSecurityHeadersAndClientAddress(t *testing.T) {
	e := newEnv(t)
	req := httptest.NewRequest("POST", c1+"/posts", strings.NewReader(`{"text":"Sai Rei: 3F > 4F"}`))
	req.RemoteAddr = "198.51.100.7:40000"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+e.token(player))
	req.Header.Set("X-Forwarded-For", "203.0.113.99")
	res := httptest.NewRecorder()
	e.srv.Handler().ServeHTTP(res, req)
	for h, want := range map[string]string{"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY"} {
		if got := res.Header().Get(h); got != want {
			t.Errorf("%s: %q", h, got)
		}
	}
	audit := e.as(mover, "GET", c1+"/audit", nil).Body.String()
	if !strings.Contains(audit, `"ip":"198.51.100.7"`) || strings.Contains(audit, "203.0.113.99") {
		t.Errorf("the audit log must record the connection's address, not X-Forwarded-For: %s", truncate(audit))
	}
}

func TestMetricsDoNotGrowWithUnknownPaths(t *testing.T) {
	e := newEnv(t)
	for _, p := range []string{"/a", "/b", "/c/d"} {
		e.do("GET", p, "", nil)
	}
	body := e.do("GET", "/metrics", "", nil).Body.String()
	if strings.Contains(body, `url="/a"`) || !strings.Contains(body, "coalition_") {
		t.Errorf("metrics: %s", truncate(body))
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// The rest of a long move (M14) and troops on their way (T3) are the side's business.
func TestMapHidesOtherSidesPlans(t *testing.T) {
	e := newEnv(t)
	if res := e.as(player, "POST", c1+"/posts", map[string]string{"text": "Sai Rei: 3F > 6F > 9F"}); res.Code != http.StatusCreated {
		t.Fatalf("%d %s", res.Code, res.Body)
	}
	lockTurn1(e)
	plan := func(caller string) bool {
		var m campaign.MapView
		json.Unmarshal(e.as(caller, "GET", c1+"/map", nil).Body.Bytes(), &m)
		for _, a := range m.Armies {
			if a.Name == "Sai Rei" {
				return a.Plan != nil
			}
		}
		t.Fatal("no Sai Rei on the map")
		return false
	}
	for c, want := range map[string]bool{player: true, sameSide: true, mover: true, enemy: false, anon: false} {
		if got := plan(c); got != want {
			t.Errorf("%s sees Sai Rei's long move: %v, want %v", c, got, want)
		}
	}
}

func TestMemberNameWithSpaces(t *testing.T) {
	e := newEnv(t)
	if res := e.as(admin, "POST", "/api/accounts", map[string]string{"name": "Tsabo Tavoc"}); res.Code != http.StatusCreated {
		t.Fatalf("%d %s", res.Code, res.Body)
	}
	res := e.as(mover, "PUT", c1+"/members/Tsabo%20Tavoc", map[string]any{"roles": []string{"player"}, "side": "phyrexia", "rank": "praetor"})
	if res.Code != http.StatusOK || !strings.Contains(res.Body.String(), `"name":"Tsabo Tavoc"`) {
		t.Fatalf("%d %s", res.Code, res.Body)
	}
}

// countingHandler counts the error records logged.
type countingHandler struct {
	slog.Handler
	errors *int
}

func (h countingHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h countingHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelError {
		*h.errors++
	}
	return nil
}

func TestInternalErrorSaysLittleAndIsLoggedOnce(t *testing.T) {
	e := newEnv(t)
	n := 0
	srv, err := api.New(e.svc, api.Options{Key: e.key, Clock: e.clock.Now, Log: slog.New(countingHandler{slog.DiscardHandler, &n})})
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	e.db.Close()
	res := e.do("GET", "/api/campaigns", "", nil)
	if res.Code != http.StatusInternalServerError || !strings.Contains(res.Body.String(), `"detail":"internal error"`) {
		t.Fatalf("%d %s", res.Code, res.Body)
	}
	if strings.Contains(res.Body.String(), "sql") {
		t.Errorf("the problem shows the cause: %s", res.Body)
	}
	if n != 1 {
		t.Errorf("logged %d errors, want 1", n)
	}
}

// With a metrics token configured, /metrics answers 401 without it or with another, 200 with it.
func TestGetMetrics401WithoutTheToken(t *testing.T) {
	e := newEnv(t)
	srv, err := api.New(e.svc, api.Options{Key: e.key, Clock: e.clock.Now, Log: quiet, MetricsToken: "scrape-me-0123456789"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		auth string
		want int
	}{
		{"", http.StatusUnauthorized},
		{"Bearer wrong", http.StatusUnauthorized},
		{"Bearer " + e.tokens[admin], http.StatusUnauthorized},
		{"Bearer scrape-me-0123456789", http.StatusOK},
	} {
		req := httptest.NewRequest("GET", "/metrics", nil)
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		rec := httptest.NewRecorder()
		srv.Handler().ServeHTTP(rec, req)
		if rec.Code != c.want {
			t.Errorf("%q: %d, want %d", c.auth, rec.Code, c.want)
		}
		if c.want == http.StatusUnauthorized && !strings.Contains(rec.Body.String(), "metrics token") {
			t.Errorf("%q: the refusal does not say what is wanted: %s", c.auth, rec.Body)
		}
	}
}

// GET map marks the armies the reader may order, so two players of a side get different maps
// and different tags: one's tag never brings the other a 304 (3.3.6, 5.4.1).
func TestMapOrderableByReader(t *testing.T) {
	e := newEnv(t)
	tags := map[string]string{}
	for caller, want := range map[string][]string{
		player: {"Sai Rei", "Urza's Guard"}, sameSide: {"Karn"}, enemy: {"Darkhand5", "Vorthos"}, merc: {"Raiders"},
		mover: nil, admin: nil, anon: nil,
	} {
		res := e.as(caller, "GET", c1+"/map", nil)
		if res.Code != http.StatusOK {
			t.Fatalf("%s: %d", caller, res.Code)
		}
		var m campaign.MapView
		if err := json.Unmarshal(res.Body.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range m.Armies {
			if a.Orderable {
				got = append(got, a.Name)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s may order %v, want %v", caller, got, want)
		}
		tags[caller] = res.Header().Get("ETag")
	}
	if tags[player] == tags[sameSide] {
		t.Errorf("two players of a side share the tag %s", tags[player])
	}
	req := httptest.NewRequest("GET", c1+"/map", nil)
	req.Header.Set("Authorization", "Bearer "+e.token(sameSide))
	req.Header.Set("If-None-Match", tags[player])
	if res := serve(e, req); res.Code != http.StatusOK {
		t.Errorf("Kim with Gazetzot's tag: %d, want the map he may see", res.Code)
	}
	req.Header.Set("If-None-Match", tags[sameSide])
	if res := serve(e, req); res.Code != http.StatusNotModified {
		t.Errorf("Kim with his own tag: %d", res.Code)
	}
}
