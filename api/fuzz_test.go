package api_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// bodySeeds are well-formed bodies of the routes that read one, by route; every route that
// takes a body (POST, PUT, PATCH) is fuzzed, with "{}" when it has no seed here.
var bodySeeds = map[string][]string{
	"POST /api/login":                       {`{"name":"admin","password":"admin-password"}`},
	"PUT /api/me/password":                  {`{"old":"admin-password","new":"another-password"}`},
	"POST /api/accounts":                    {`{"name":"Hanna","password":"hanna-password","admin":false}`, `{"name":"Urza's Guard"}`},
	"POST /api/campaigns":                   {`{"name":"Small","map":{"grid":{"Cols":10,"Rows":5},"armies":[{"name":"A","side":"coalition","rank":"captain","at":"3C"}]},"settings":{"turn_length_hours":24},"members":[{"name":"Hanna","roles":["player"],"side":"coalition","rank":"captain"}]}`},
	"POST /api/campaigns/import":            {`{"name":"s","armies":[{"name":"A","side":"coalition","rank":"captain","at":"3C","troops":[]}],"turns":[]}`},
	"PUT /api/campaigns/:cid/members/:name": {`{"roles":["player"],"side":"coalition","rank":"captain","factions":["black"],"contingency":"Kim"}`},
	"POST /api/campaigns/:cid/control":      {`{"army":"Sai Rei","controllers":["Gazetzot","Kim"],"reason":"swap"}`},
	"POST /api/campaigns/:cid/pause":        {`{"reason":"a holiday"}`},
	"POST /api/campaigns/:cid/resume":       {`{"reason":"back"}`},
	"POST /api/campaigns/:cid/posts": {
		`{"text":"Sai Rei: 3F > 4F"}`,
		`{"orders":[{"army":"Sai Rei","kind":"move","from":"3F","legs":[{"to":"4F","route":["3F","4F"]}],"keyword":"engage","target":"X"}]}`,
		`{"text":"Urza's Guard: Transfer to Karn at 15J","transfers":[{"army":"Urza's Guard","creatures":{"Grizzly Bears":1}}]}`,
		`{"private":true,"text":"x"}`, `{"orders":[{"kind":"hold","note":"fighting"}]}`,
	},
	"POST /api/campaigns/:cid/posts/check":                         {`{"text":"Sai Rei: 3F > 4F"}`},
	"PUT /api/campaigns/:cid/posts/:pid":                           {`{"text":"Sai Rei: 3F > 3G"}`},
	"POST /api/campaigns/:cid/turns/:n/results":                    {`{"square":"15J","winner":"Karn","losses":{"Vorthos":{"Grizzly Bears":5}}}`},
	"POST /api/campaigns/:cid/turns/:n/lock":                       {`{"reason":"now"}`},
	"POST /api/campaigns/:cid/turns/:n/extend":                     {`{"hours":12,"reason":"late"}`, `{"hours":1e400,"reason":"a number past float64's range"}`},
	"POST /api/campaigns/:cid/turns/:n/battles/:square/strategies": {`{"army":"Karn","text":"hold","kill":"Vorthos"}`, `{"army":"Karn","text":"x","leaves":{"army":"Karn","to":"15K"}}`},
	"POST /api/campaigns/:cid/turns/:n/battles/:square/proposal":   {`{"bonus_to":"Karn","bonus":3,"fought":{"Karn":1}}`},
	"POST /api/campaigns/:cid/turns/:n/battles/:square/confirm":    {`{}`, `{"result":{"square":"15J","winner":"Karn","losses":{"Karn":{"Grizzly Bears":5}}}}`},
	"POST /api/campaigns/:cid/turns/:n/sanctions":                  {`{"army":"Sai Rei","severity":2,"reason":"Tevesh ordered it"}`},
	"POST /api/campaigns/:cid/troops/check":                        {`{"army":"Karn","kind":"change","troops":[{"creature":"Grizzly Bears","count":10,"size":"2/2","slot":2}]}`},
	"POST /api/campaigns/:cid/armies":                              {`{"name":"X","side":"coalition","rank":"captain","at":"3C","troops":[{"creature":"Llanowar Elves","count":1}]}`},
	"PUT /api/campaigns/:cid/armies/:army":                         {`{"rank":"captain","name":"Sai Rei the Bold"}`},
	"POST /api/campaigns/:cid/armies/:army/troops":                 {`{"troops":[{"creature":"Grizzly Bears","count":1000}]}`},
	"POST /api/campaigns/:cid/armies/:army/customise":              {`{"troops":[{"creature":"Grizzly Bears","count":1000}]}`},
	"PUT /api/campaigns/:cid/formulas/:name":                       {`{"text":"larger.troops * 2"}`},
	"PUT /api/cards/:name":                                         {`{"types":["Creature"],"power":"1","toughness":"1","colors":["G"]}`},
	"POST /api/decks/check":                                        {`{"format":"coalition","list":"1 Llanowar Elves\n"}`, `{"league":1,"subformat":"x","list":"1 Opt"}`},
	"PUT /api/decks/cards/:name":                                   {`{"types":["Instant"],"colors":["U"],"text":"Draw a card.","faces":[{"name":"A","types":["Instant"]}]}`},
	"PUT /api/formats/banlists/:list":                              {`{"categories":["reserved"],"names":["Sol Ring"],"offensive":[],"reason":"x"}`},
	"POST /api/leagues":                                            {`{"name":"Winter","format":"heroic","revision":"2023-12-03"}`},
	"POST /api/matches":                                            {`{"format":"heroic","players":["Gazetzot","Tevesh"],"games":3}`, `{"league":1,"players":["Gazetzot","Tevesh","Kim"],"win_bonus":-1}`},
	"POST /api/matches/:mid/events":                                {`{"kind":"damage","player":"Gazetzot","target":"Tevesh","amount":3,"source":"creature","combat":true,"after":0}`, `{"kind":"concede","players":["Tevesh"]}`},
	"POST /api/matches/:mid/undo":                                  {`{"n":1}`},
	"PUT /api/campaigns/:cid/activity":                             {`{"inactive":true,"until":"2026-03-20T00:00:00Z","reason":"away"}`, `{"inactive":false}`},
	"POST /api/campaigns/:cid/inactivity":                          {`{"player":"Kim","reason":"silent"}`},
	"POST /api/campaigns/:cid/inactivity/:did/reject":              {`{"reason":"he posts"}`},
	"POST /api/campaigns/:cid/power":                               {`{"side":"coalition","from":"Sisay","to":"Kim","reason":"away"}`},
	"POST /api/campaigns/:cid/control/requests":                    {`{"army":"Sai Rei","controllers":["Sisay"],"reason":"x"}`},
	"POST /api/campaigns/:cid/emergencies":                         {`{"kind":"authorize","side":"coalition","people":["Kim","Gazetzot"],"reason":"x"}`, `{"kind":"accept","army":"Karn","controllers":[],"reason":"x"}`},
	"POST /api/campaigns/:cid/votes":                               {`{"kind":"special","question":"q","options":["a","b"],"closes_at":"2026-03-02T12:00:00Z","secret":true,"voters":[{"name":"Kim","points":2}]}`},
	"PUT /api/campaigns/:cid/votes/:vid/ballot":                    {`{"choice":"a"}`},
	"POST /api/campaigns/:cid/names":                               {`{"name":"Kimberly","rename_army":true}`},
	"POST /api/campaigns/:cid/admissions":                          {`{"side":"phyrexia","message":"hi","factions":["red"]}`},
	"POST /api/campaigns/:cid/admissions/:aid/accept":              {`{"rank":"lieutenant","factions":["red"],"rank_faction":"red"}`},
}

// bodyRoute is a route that reads a body, with its path filled in.
type bodyRoute struct{ key, method, path string }

// bodyRoutes lists the server's routes that read a body, sorted, each with a path to call.
func bodyRoutes(e *env) []bodyRoute {
	var out []bodyRoute
	for _, r := range e.srv.Echo().Routes() {
		if r.Method != http.MethodPost && r.Method != http.MethodPut && r.Method != http.MethodPatch {
			continue
		}
		out = append(out, bodyRoute{key: r.Method + " " + r.Path, method: r.Method, path: fillPath(r.Path)})
	}
	slices.SortFunc(out, func(a, b bodyRoute) int { return strings.Compare(a.key, b.key) })
	return out
}

var pathParam = regexp.MustCompile(`:[a-z]+`)

// fillPath puts the fixture's objects in a route's parameters.
func fillPath(p string) string {
	return pathParam.ReplaceAllStringFunc(p, func(param string) string {
		switch {
		case param == ":square":
			return "15J"
		case param == ":list":
			return "coalition-2026-03-09"
		case param == ":army":
			return url.PathEscape("Sai Rei")
		case param == ":name" && strings.Contains(p, "/cards/"):
			return url.PathEscape("Llanowar Elves")
		case param == ":name" && strings.Contains(p, "/formulas/"):
			return "size"
		case param == ":name":
			return "Gazetzot"
		}
		return "1"
	})
}

// fuzzCallers are who the harness calls as: each route is tried by people who may and may
// not use it.
var fuzzCallers = []string{admin, mover, batty, player, anon}

// FuzzRequestBodies sends arbitrary bodies to every route that reads one, as each kind of
// caller (issue 17): the answer is never a 5xx (a panic is one: Recover makes it a 500), the
// contract check (in do) holds for every answer, and the checks agree — a body that passed
// the strict JSON check and the OpenAPI document is not refused by the decoder as malformed
// (an unknown field of an object the document leaves open, and an integer written 1.0 or
// too large for its field, which JSON Schema's integer takes, excepted).
func FuzzRequestBodies(f *testing.F) {
	e := newEnv(f)
	routes := bodyRoutes(e)
	for i, r := range routes {
		seeds := bodySeeds[r.key]
		if len(seeds) == 0 {
			seeds = []string{`{}`}
		}
		if r.key == "POST /api/login" || r.key == "POST /api/campaigns/:cid/posts" {
			// the strict check's refusals, the same on every route
			seeds = append(seeds, `[]`, `null`, `{"a":1,"a":2}`, "{\"text\":\"\xff\"}", `{} {}`)
		}
		for j, s := range seeds {
			f.Add(uint8(i), uint8(j), s)
		}
	}
	for _, c := range fuzzCallers {
		e.token(c)
	}
	f.Fuzz(func(t *testing.T, route, caller uint8, body string) {
		e.t = t
		r := routes[int(route)%len(routes)]
		who := fuzzCallers[int(caller)%len(fuzzCallers)]
		res := e.do(r.method, r.path, e.tokens[who], []byte(body))
		if res.Code >= http.StatusInternalServerError {
			t.Fatalf("%s as %s, %q → %d %s", r.key, who, body, res.Code, res.Body)
		}
		var p struct{ Detail string }
		json.Unmarshal(res.Body.Bytes(), &p)
		if res.Code == http.StatusBadRequest && strings.HasPrefix(p.Detail, "the request body is not valid: ") && !strings.Contains(p.Detail, "unknown field") && !strings.Contains(p.Detail, "the number ") {
			t.Fatalf("%s as %s, %q: the document let it through, the decoder refused it: %s", r.key, who, body, p.Detail)
		}
	})
}

// TestFuzzRequestBodiesCoverEveryRoute: the harness reaches every route that reads a body,
// and each seeded route exists (a renamed route would leave its seeds behind).
func TestFuzzRequestBodiesCoverEveryRoute(t *testing.T) {
	e := newEnv(t)
	routes := bodyRoutes(e)
	if len(routes) < 25 {
		t.Errorf("only %d routes read a body", len(routes))
	}
	for key := range bodySeeds {
		if !slices.ContainsFunc(routes, func(r bodyRoute) bool { return r.key == key }) {
			t.Errorf("seeds for %s, which is no route", key)
		}
	}
}
