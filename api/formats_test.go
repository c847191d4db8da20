package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/campaign"
)

// decode reads a response body that must have the status.
func decode[T any](t *testing.T, status int, res *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if res.Code != status {
		t.Fatalf("status %d, want %d: %s", res.Code, status, truncate(res.Body.String()))
	}
	if err := json.Unmarshal(res.Body.Bytes(), &v); err != nil {
		t.Fatalf("%v: %s", err, truncate(res.Body.String()))
	}
	return v
}

// problemDetail is a problem's detail, when the response has the status.
func problemDetail(t *testing.T, status int, code int, body []byte) string {
	t.Helper()
	var p struct{ Detail string }
	json.Unmarshal(body, &p)
	if code != status {
		t.Errorf("status %d, want %d: %s", code, status, truncate(string(body)))
	}
	return p.Detail
}

type banlistReply struct {
	Banlist struct {
		ID      string
		Names   []string
		Version int
		By      string
	}
	History      []struct{ Version int }
	UnknownNames []string `json:"unknown_names"`
}

// GET /api/formats answers anyone with the formats, their revisions and the banned lists as
// they stand, the shipped ones at version 1.
func TestGetFormats200(t *testing.T) {
	e := newEnv(t)
	res := e.as(anon, "GET", "/api/formats", nil)
	v := decode[struct {
		Formats  []struct{ Name, Default string }
		Banlists []struct {
			ID      string
			Version int
		}
		Categories   []string
		MatchFormats []string `json:"match_formats"`
	}](t, http.StatusOK, res)
	if len(v.Formats) != 3 || v.Formats[0].Name != "coalition" || v.Formats[0].Default != "page" || len(v.Banlists) != 3 || v.Banlists[2].Version != 1 ||
		!slices.Contains(v.Categories, "sticker") || strings.Join(v.MatchFormats, ",") != "coalition,heroic,manahearth" {
		t.Errorf("%+v", v)
	}
}

// PUT /api/formats/banlists/{list} saves a new version (admins): the next check uses it, GET
// shows it and its history.
func TestPutBanlist200(t *testing.T) {
	e := newEnv(t)
	res := e.as(admin, "PUT", "/api/formats/banlists/coalition-2026-03-09", map[string]any{
		"categories": []string{"reserved", "conspiracy", "ante", "offensive", "sticker"}, "names": []string{"Lightning Bolt", "Lightnig Bolt"}, "reason": "a test"})
	v := decode[banlistReply](t, http.StatusOK, res)
	if v.Banlist.Version != 2 || v.Banlist.By != "admin" || len(v.History) != 1 || !slices.Equal(v.UnknownNames, []string{"Lightnig Bolt"}) {
		t.Errorf("%+v", v)
	}
	res = e.as(player, "GET", "/api/formats/banlists/coalition-2026-03-09", nil)
	if v = decode[banlistReply](t, http.StatusOK, res); v.Banlist.Version != 2 || len(v.Banlist.Names) != 2 {
		t.Errorf("GET after the edit: %+v", v)
	}
	res = e.as(anon, "POST", "/api/decks/check", map[string]any{"format": "coalition", "list": legalDeck(t)})
	verdict := decode[deckVerdict](t, http.StatusOK, res)
	if verdict.Legal || len(verdict.Problems) != 1 || verdict.Problems[0].Rule != "banned" || verdict.Problems[0].Card != "Lightning Bolt" {
		t.Errorf("the check under version 2: %+v", verdict)
	}
}

// PUT /api/formats/banlists/{list} refuses: a list not shipped (404), a category no rule knows
// and a body not the document's (400), a caller not an admin (403).
func TestPutBanlist4xx(t *testing.T) {
	e := newEnv(t)
	ok := map[string]any{"categories": []string{}, "names": []string{"Sol Ring"}}
	for _, tt := range []struct {
		name, caller, path string
		body               any
		status             int
		says               string
	}{
		{"unknown list", admin, "/api/formats/banlists/modern", ok, http.StatusNotFound, "heroic-2023-12-03"},
		{"unknown category", admin, "/api/formats/banlists/heroic-2023-12-03", map[string]any{"categories": []string{"silver"}, "names": []string{}}, http.StatusBadRequest, "categories"},
		{"unknown field", admin, "/api/formats/banlists/heroic-2023-12-03", map[string]any{"categories": []string{}, "names": []string{}, "banned": true}, http.StatusBadRequest, "banned"},
		{"empty name", admin, "/api/formats/banlists/heroic-2023-12-03", map[string]any{"categories": []string{}, "names": []string{"  "}}, http.StatusUnprocessableEntity, "letters or digits"},
		{"a judge", mover, "/api/formats/banlists/heroic-2023-12-03", ok, http.StatusForbidden, "admins only"},
		{"no token", anon, "/api/formats/banlists/heroic-2023-12-03", ok, http.StatusUnauthorized, "log in"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := e.as(tt.caller, "PUT", tt.path, tt.body)
			if d := problemDetail(t, tt.status, res.Code, res.Body.Bytes()); !strings.Contains(d, tt.says) {
				t.Errorf("%q does not say %q", d, tt.says)
			}
		})
	}
	res := e.as(anon, "GET", "/api/formats/banlists/modern", nil)
	problemDetail(t, http.StatusNotFound, res.Code, res.Body.Bytes())
}

type deckCardReply struct {
	Card struct {
		Name string
		Text string
	}
	Identity struct {
		Types      []string
		Changeling bool
	}
	Corrected bool
}

// GET /api/decks/cards/{name} answers anyone with the card and its typal identity; PUT (a
// judge) corrects it, and the checks read the correction.
func TestDeckCards200(t *testing.T) {
	e := newEnv(t)
	res := e.as(anon, "GET", "/api/decks/cards/Morophon,%20the%20Boundless", nil)
	v := decode[deckCardReply](t, http.StatusOK, res)
	if !v.Identity.Changeling || v.Corrected {
		t.Errorf("Morophon: %+v", v)
	}
	res = e.as(batty, "PUT", "/api/decks/cards/Lightning%20Bolt", map[string]any{"types": []string{"Instant"}, "colors": []string{"R"}, "manaCost": "{R}",
		"text": "Lightning Bolt deals 3 damage to any target. Goblins you control get +1/+0."})
	v = decode[deckCardReply](t, http.StatusOK, res)
	if v.Card.Name != "Lightning Bolt" || !v.Corrected || !slices.Equal(v.Identity.Types, []string{"Goblin"}) {
		t.Errorf("the correction: %+v", v)
	}
	res = e.as(anon, "POST", "/api/decks/check", map[string]any{"format": "coalition", "list": legalDeck(t)})
	if verdict := decode[deckVerdict](t, http.StatusOK, res); len(verdict.Problems) != 1 || verdict.Problems[0].Rule != "typal" {
		t.Errorf("the check after the correction: %+v", verdict)
	}
}

// GET and PUT /api/decks/cards/{name} refuse: a name no card has (404, with the nearest), a
// body naming another card (422), a player (403), a field the data does not have (400).
func TestDeckCards4xx(t *testing.T) {
	e := newEnv(t)
	res := e.as(anon, "GET", "/api/decks/cards/Lightening%20Bolt", nil)
	if d := problemDetail(t, http.StatusNotFound, res.Code, res.Body.Bytes()); !strings.Contains(d, "Lightning Bolt") {
		t.Errorf("no suggestion: %q", d)
	}
	bolt := map[string]any{"name": "Shock", "types": []string{"Instant"}, "colors": []string{"R"}}
	res = e.as(batty, "PUT", "/api/decks/cards/Lightning%20Bolt", bolt)
	problemDetail(t, http.StatusUnprocessableEntity, res.Code, res.Body.Bytes())
	res = e.as(player, "PUT", "/api/decks/cards/Shock", bolt)
	problemDetail(t, http.StatusForbidden, res.Code, res.Body.Bytes())
	res = e.as(batty, "PUT", "/api/decks/cards/Shock", map[string]any{"types": []string{"Instant"}, "reach": map[string]any{}})
	problemDetail(t, http.StatusBadRequest, res.Code, res.Body.Bytes())
}

type matchReply struct {
	ID           int64
	Format       string
	Revision     string
	Players      []string
	Over         bool
	Result       string
	LeagueName   string `json:"league_name"`
	InForce      int    `json:"in_force"`
	MayKeepScore bool   `json:"may_keep_score"`
	Log          []struct {
		Seq, N   int
		Says     string
		UndoneBy string `json:"undone_by"`
	}
	State struct {
		Game    int
		Over    bool
		Winner  string
		Players []struct {
			Name                string
			Points, Total, Life int
			Barred, In          bool
		}
		Finished []struct {
			Winner, How string
			Draw        bool
		}
	}
}

type changeReply struct {
	Outcome struct {
		OK      bool
		Message string
	}
	Match matchReply
}

// POST /api/leagues (an admin) makes a league; POST /api/decks/check naming it checks against
// its revision; POST /api/matches in it takes the league's format; GET /api/matches?league
// lists it.
func TestLeagues201(t *testing.T) {
	e := newEnv(t)
	res := e.as(admin, "POST", "/api/leagues", map[string]any{"name": "Spring Draft", "format": "coalition", "revision": "draft"})
	l := decode[struct {
		ID               int64
		Format, Revision string
	}](t, http.StatusCreated, res)
	if l.Format != "coalition" || l.Revision != "draft" {
		t.Errorf("%+v", l)
	}
	res = e.as(admin, "POST", "/api/leagues", map[string]any{"name": "spring  draft", "format": "heroic"})
	problemDetail(t, http.StatusConflict, res.Code, res.Body.Bytes())
	res = e.as(admin, "POST", "/api/leagues", map[string]any{"name": "Modern", "format": "modern"})
	problemDetail(t, http.StatusUnprocessableEntity, res.Code, res.Body.Bytes())
	res = e.as(anon, "GET", "/api/leagues", nil)
	if ls := decode[[]struct{ Name string }](t, http.StatusOK, res); len(ls) != 1 || ls[0].Name != "Spring Draft" {
		t.Errorf("the leagues: %+v", ls)
	}
	// The draft's sideboard is 8 (906.6a), and it has no clause on companions.
	res = e.as(anon, "POST", "/api/decks/check", map[string]any{"league": l.ID, "list": legalDeck(t)})
	if v := decode[deckVerdict](t, http.StatusOK, res); len(v.Problems) != 1 || v.Problems[0].Rule != "size.sideboard" {
		t.Errorf("the check in the league: %+v", v)
	}
	res = e.as(anon, "POST", "/api/decks/check", map[string]any{"league": 7, "list": legalDeck(t)})
	problemDetail(t, http.StatusNotFound, res.Code, res.Body.Bytes())
	res = e.as(anon, "POST", "/api/decks/check", map[string]any{"league": l.ID, "format": "heroic", "list": legalDeck(t)})
	problemDetail(t, http.StatusUnprocessableEntity, res.Code, res.Body.Bytes())
	res = e.as(anon, "POST", "/api/decks/check", map[string]any{"list": legalDeck(t)})
	if d := problemDetail(t, http.StatusUnprocessableEntity, res.Code, res.Body.Bytes()); !strings.Contains(d, "name a format") {
		t.Errorf("no format: %q", d)
	}
	res = e.as(player, "POST", "/api/matches", map[string]any{"league": l.ID, "players": []string{"Gazetzot", "Tevesh", "Kim"}})
	m := decode[matchReply](t, http.StatusCreated, res)
	if m.Format != "coalition" || m.Revision != "draft" || m.LeagueName != "Spring Draft" || !m.MayKeepScore {
		t.Errorf("the match: %+v", m)
	}
	res = e.as(anon, "GET", "/api/matches?league=1", nil)
	if ms := decode[[]matchReply](t, http.StatusOK, res); len(ms) != 1 || ms[0].ID != m.ID {
		t.Errorf("the league's matches: %+v", ms)
	}
	res = e.as(anon, "GET", "/api/matches?league=2", nil)
	problemDetail(t, http.StatusNotFound, res.Code, res.Body.Bytes())
	res = e.as(anon, "GET", "/api/matches?league=x", nil)
	problemDetail(t, http.StatusBadRequest, res.Code, res.Body.Bytes())
}

// TestCoalitionMatchOverHTTP plays a Coalition match of three players through the API, from
// its events to its winner: victory points, a concession that voids and bars, a draw, every
// opponent conceding at once, an undo (S2–S7).
func TestCoalitionMatchOverHTTP(t *testing.T) {
	e := newEnv(t)
	res := e.as(player, "POST", "/api/matches", map[string]any{"format": "coalition", "players": []string{"Gazetzot", "Tevesh", "Kim"}})
	m := decode[matchReply](t, http.StatusCreated, res)
	path := "/api/matches/1/events"
	var last changeReply
	enter := func(caller string, ev map[string]any) {
		t.Helper()
		res := e.as(caller, "POST", path, ev)
		last = decode[changeReply](t, http.StatusCreated, res)
	}
	hit := func(from, to string, n int, source string, combat bool) map[string]any {
		return map[string]any{"kind": "damage", "player": from, "target": to, "amount": n, "source": source, "combat": combat}
	}
	// Game 1: Gazetzot's creatures deal 21 combat damage: he wins it with the bonus of 5.
	enter(player, hit("Gazetzot", "Tevesh", 12, "creature", true))
	enter(enemy, hit("Tevesh", "Kim", 4, "hero", false))
	enter(player, hit("Gazetzot", "Kim", 9, "creature", true))
	if s := last.Match.State; s.Game != 2 || s.Finished[0].Winner != "Gazetzot" || s.Players[0].Total != 26 || s.Players[1].Total != 4 {
		t.Fatalf("game 1: %+v", s)
	}
	// Game 2: Kim concedes (his points void, barred); a typo undone; then a draw.
	enter(sameSide, hit("Kim", "Tevesh", 6, "creature", true))
	enter(sameSide, map[string]any{"kind": "concede", "player": "Kim"})
	enter(enemy, hit("Tevesh", "Gazetzot", 50, "creature", true))
	res = e.as(player, "POST", "/api/matches/1/undo", map[string]any{"n": last.Match.InForce})
	last = decode[changeReply](t, http.StatusOK, res)
	if s := last.Match.State; s.Game != 2 || !last.Outcome.OK || s.Players[0].Life != 25 || !s.Players[2].Barred || s.Players[2].Total != 0 {
		t.Fatalf("after the undo: %+v", s)
	}
	res = e.as(sameSide, "POST", path, hit("Kim", "Tevesh", 1, "creature", true))
	if d := problemDetail(t, http.StatusUnprocessableEntity, res.Code, res.Body.Bytes()); !strings.Contains(d, "not_playing") {
		t.Errorf("a barred player's damage: %q", d)
	}
	enter(enemy, map[string]any{"kind": "draw"})
	// Game 3: Kim is barred; Tevesh, Gazetzot's only opponent, concedes: Gazetzot takes the
	// full 21 and the bonus, and the match, with no penalty for Tevesh.
	enter(enemy, hit("Tevesh", "Gazetzot", 5, "creature", true))
	enter(enemy, map[string]any{"kind": "concede", "players": []string{"Tevesh"}})
	s := last.Match.State
	if !last.Match.Over || last.Match.Result != "Gazetzot won" || s.Winner != "Gazetzot" || s.Players[0].Total != 26+26 || s.Players[1].Total != 9 || s.Players[1].Barred ||
		s.Finished[1].How != "draw" || s.Finished[2].How != "every opponent conceded" {
		t.Fatalf("the match: %+v %+v", last.Match, s)
	}
	if n := len(last.Match.Log); n != 9 || last.Match.Log[5].UndoneBy != "Gazetzot" || last.Match.Log[5].N != 0 || last.Match.InForce != 8 {
		t.Errorf("the log: %d events, %+v", n, last.Match.Log)
	}
	res = e.as(anon, "GET", "/api/matches/1", nil)
	if got := decode[matchReply](t, http.StatusOK, res); got.MayKeepScore || !got.Over || len(got.Log) != 9 || got.ID != m.ID {
		t.Errorf("GET: %+v", got)
	}
}

// POST /api/matches, /events and /undo refuse: a player with no account (422), a caller not at
// the table (403), an event the rules refuse (422) or after a stale count (409), an undo not of
// the last event (409), an unknown match (404), a malformed id (400).
func TestMatches4xx(t *testing.T) {
	e := newEnv(t)
	res := e.as(player, "POST", "/api/matches", map[string]any{"format": "heroic", "players": []string{"Gazetzot", "Ghost"}})
	if d := problemDetail(t, http.StatusUnprocessableEntity, res.Code, res.Body.Bytes()); !strings.Contains(d, "Ghost") {
		t.Errorf("%q", d)
	}
	res = e.as(player, "POST", "/api/matches", map[string]any{"format": "heroic", "players": []string{"Gazetzot", "Tevesh"}, "games": 2})
	problemDetail(t, http.StatusBadRequest, res.Code, res.Body.Bytes())
	res = e.as(player, "POST", "/api/matches", map[string]any{"league": 3, "players": []string{"Gazetzot", "Tevesh"}})
	problemDetail(t, http.StatusNotFound, res.Code, res.Body.Bytes())
	res = e.as(sameSide, "POST", "/api/matches", map[string]any{"format": "heroic", "players": []string{"Gazetzot", "Tevesh"}})
	problemDetail(t, http.StatusForbidden, res.Code, res.Body.Bytes())
	res = e.as(anon, "POST", "/api/matches", map[string]any{"format": "heroic", "players": []string{"Gazetzot", "Tevesh"}})
	problemDetail(t, http.StatusUnauthorized, res.Code, res.Body.Bytes())
	res = e.as(player, "POST", "/api/matches", map[string]any{"format": "manahearth", "players": []string{"Gazetzot", "Tevesh"}})
	decode[matchReply](t, http.StatusCreated, res)

	res = e.as(player, "POST", "/api/matches/1/events", map[string]any{"kind": "ultimate", "player": "Gazetzot", "amount": -6})
	if d := problemDetail(t, http.StatusUnprocessableEntity, res.Code, res.Body.Bytes()); !strings.Contains(d, "no_hero") {
		t.Errorf("an ultimate without a planeswalker: %q", d)
	}
	res = e.as(sameSide, "POST", "/api/matches/1/events", map[string]any{"kind": "draw"})
	problemDetail(t, http.StatusForbidden, res.Code, res.Body.Bytes())
	res = e.as(player, "POST", "/api/matches/1/events", map[string]any{"kind": "hero", "player": "Gazetzot", "card": "Liliana of the Veil", "after": 0})
	decode[changeReply](t, http.StatusCreated, res)
	res = e.as(enemy, "POST", "/api/matches/1/events", map[string]any{"kind": "hero", "player": "Tevesh", "card": "Jace Beleren", "after": 0})
	problemDetail(t, http.StatusConflict, res.Code, res.Body.Bytes())
	res = e.as(enemy, "POST", "/api/matches/1/events", map[string]any{"kind": "scry", "player": "Tevesh"})
	problemDetail(t, http.StatusBadRequest, res.Code, res.Body.Bytes())
	res = e.as(enemy, "POST", "/api/matches/1/undo", map[string]any{"n": 2})
	problemDetail(t, http.StatusConflict, res.Code, res.Body.Bytes())
	res = e.as(sameSide, "POST", "/api/matches/1/undo", map[string]any{"n": 1})
	problemDetail(t, http.StatusForbidden, res.Code, res.Body.Bytes())
	res = e.as(player, "POST", "/api/matches/9/events", map[string]any{"kind": "draw"})
	problemDetail(t, http.StatusNotFound, res.Code, res.Body.Bytes())
	res = e.as(anon, "GET", "/api/matches/9", nil)
	problemDetail(t, http.StatusNotFound, res.Code, res.Body.Bytes())
	res = e.as(anon, "GET", "/api/matches/first", nil)
	problemDetail(t, http.StatusBadRequest, res.Code, res.Body.Bytes())
	res = e.as(player, "POST", "/api/matches/1/undo", map[string]any{})
	problemDetail(t, http.StatusBadRequest, res.Code, res.Body.Bytes())
}

// BenchmarkPostDecksCheck70 checks the legal 70-card deck through the whole server once the
// catalogue is loaded: the body bound and validated, the banned lists read from the database,
// the verdict written (the check alone is format's BenchmarkCheck70).
func BenchmarkPostDecksCheck70(b *testing.B) {
	e := newEnv(b)
	body, err := json.Marshal(map[string]string{"format": "coalition", "list": legalDeck(b)})
	if err != nil {
		b.Fatal(err)
	}
	request := func() *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", "/api/decks/check", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		return serve(e, req)
	}
	if res := request(); res.Code != http.StatusOK || !strings.Contains(res.Body.String(), `"legal":true`) {
		b.Fatalf("%d %s", res.Code, res.Body)
	}
	for b.Loop() {
		request()
	}
}

// BenchmarkMatchEvent enters an event of a match and undoes it through the server: a
// transaction each, the log replayed each time (a match of 40 events in force).
func BenchmarkMatchEvent(b *testing.B) {
	e := newEnv(b)
	ctx := context.Background()
	if _, err := e.svc.CreateMatch(ctx, e.actor(player), campaign.MatchInput{Format: "heroic", Players: []string{"Gazetzot", "Tevesh"}}); err != nil {
		b.Fatal(err)
	}
	for i := range 40 {
		who := []string{"Gazetzot", "Tevesh"}[i%2]
		if _, err := e.svc.AddMatchEvent(ctx, e.actor(player), 1, campaign.MatchEventInput{Kind: "turn", Player: who}); err != nil {
			b.Fatal(err)
		}
	}
	tok := e.token(player)
	post := func(path, body string, want int) {
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tok)
		if res := serve(e, req); res.Code != want {
			b.Fatalf("%s: %d %s", path, res.Code, res.Body)
		}
	}
	for b.Loop() {
		post("/api/matches/1/events", `{"kind":"life","player":"Gazetzot","amount":1,"after":40}`, http.StatusCreated)
		post("/api/matches/1/undo", `{"n":41}`, http.StatusOK)
	}
}
