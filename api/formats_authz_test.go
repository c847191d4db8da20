package api_test

import (
	"context"
	"net/http"

	"github.com/coalition-wargame/coalition/campaign"
)

// startMatch has the player start a Heroic match with the other side's player: match 1.
func startMatch(e *env) {
	if _, err := e.svc.CreateMatch(context.Background(), e.actor(player), campaign.MatchInput{Format: "heroic", Players: []string{"Gazetzot", "Tevesh"}}); err != nil {
		e.t.Fatal(err)
	}
}

// startMatchWithEvent is startMatch and a first event, to undo.
func startMatchWithEvent(e *env) {
	startMatch(e)
	if _, err := e.svc.AddMatchEvent(context.Background(), e.actor(player), 1, campaign.MatchEventInput{Kind: "turn", Player: "Gazetzot"}); err != nil {
		e.t.Fatal(err)
	}
}

// formatRouteRows are the authorization table's rows for issue 19's routes: the formats and
// their banned lists, the every-card data, leagues and matches.
func formatRouteRows() []route {
	ok, created, forbidden := http.StatusOK, http.StatusCreated, http.StatusForbidden
	table := only(created, admin, player, enemy)
	return []route{
		{name: "card formats", method: "GET", path: "/api/formats", def: ok, want: everyone(ok)},
		{name: "banned list", method: "GET", path: "/api/formats/banlists/coalition-2026-03-09", def: ok, want: everyone(ok)},
		{name: "set banned list", method: "PUT", path: "/api/formats/banlists/heroic-2023-12-03", def: forbidden, want: only(ok, admin), mutates: true,
			body: fixed(map[string]any{"categories": []string{"reserved"}, "names": []string{"Sol Ring"}})},
		{name: "deck card", method: "GET", path: "/api/decks/cards/Opt", def: ok, want: everyone(ok)},
		{name: "correct deck card", method: "PUT", path: "/api/decks/cards/Opt", def: forbidden, want: only(ok, admin, mover, batty, merc), mutates: true,
			body: fixed(map[string]any{"types": []string{"Instant"}, "colors": []string{"U"}, "text": "Scry 1.\nDraw a card."})},
		{name: "leagues", method: "GET", path: "/api/leagues", def: ok, want: everyone(ok)},
		{name: "create league", method: "POST", path: "/api/leagues", def: forbidden, want: only(created, admin), mutates: true,
			body: fixed(map[string]any{"name": "Winter", "format": "coalition"})},
		{name: "matches", method: "GET", path: "/api/matches", def: ok, want: everyone(ok), setup: startMatch},
		{name: "start match", method: "POST", path: "/api/matches", def: forbidden, want: table, mutates: true,
			body: fixed(map[string]any{"format": "heroic", "players": []string{"Gazetzot", "Tevesh"}})},
		{name: "match", method: "GET", path: "/api/matches/1", def: ok, want: everyone(ok), setup: startMatch},
		{name: "match event", method: "POST", path: "/api/matches/1/events", def: forbidden, want: table, mutates: true, setup: startMatch,
			body: fixed(map[string]any{"kind": "turn", "player": "Tevesh"})},
		{name: "undo match event", method: "POST", path: "/api/matches/1/undo", def: forbidden, want: only(ok, admin, player, enemy), mutates: true, setup: startMatchWithEvent,
			body: fixed(map[string]any{"n": 1})},
	}
}
