package api_test

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/cards"
)

const battle15J = c1 + "/turns/1/battles/15J"

// karnStrategy is Kim's strategy for Karn in the fixture's battle at 15J.
var karnStrategy = map[string]any{"army": "Karn", "text": "Karn holds the ford and lets the bears charge at dawn.", "kill": "Vorthos"}

func propose15J(e *env) {
	if _, err := e.svc.ProposeBattle(context.Background(), e.actor(batty), e.cid, 1, sq("15J"), campaign.JudgementRequest{BonusTo: "Karn", Bonus: 3}); err != nil {
		e.t.Fatal(err)
	}
}

// deskRoutes are the authorization table's rows for the battle desk, the dice, the formulas,
// the card catalogue and the army edits.
func deskRoutes() []route {
	ok, created, forbidden := http.StatusOK, http.StatusCreated, http.StatusForbidden
	conflict, notFound := http.StatusConflict, http.StatusNotFound
	battleJudges := only(ok, admin, batty)
	judges := only(created, admin, mover, batty)
	return []route{
		{name: "search cards", method: "GET", path: "/api/cards?q=grizzly", def: ok, want: everyone(ok)},
		{name: "card", method: "GET", path: "/api/cards/Grizzly%20Bears", def: ok, want: everyone(ok)},
		{name: "card that does not exist", method: "GET", path: "/api/cards/Grizzly%20Bearz", def: notFound, want: everyone(notFound)},
		{name: "put card", method: "PUT", path: "/api/cards/Desk%20Test%20Beast", def: forbidden, want: only(ok, admin, mover, batty, merc), mutates: true,
			body: fixed(map[string]any{"types": []string{"Creature"}, "colors": []string{"G"}, "power": "2", "toughness": "3"})},
		{name: "formulas", method: "GET", path: c1 + "/formulas", def: forbidden, want: battleJudges},
		{name: "set formula", method: "PUT", path: c1 + "/formulas/size", def: forbidden, want: battleJudges, mutates: true,
			body: fixed(map[string]string{"text": "5"})},
		{name: "check troops", method: "POST", path: c1 + "/troops/check", def: ok, want: everyone(ok),
			body: fixed(map[string]any{"side": "coalition", "rank": "lieutenant", "colors": []string{"green"}, "troops": []map[string]any{{"creature": "Grizzly Bears", "count": 1000}}})},
		{name: "create army", method: "POST", path: c1 + "/armies", def: forbidden, want: judges, mutates: true,
			body: fixed(map[string]any{"name": "Llanowar Watch", "side": "coalition", "rank": "lieutenant", "at": "30J", "colors": []string{"green"},
				"controllers": []string{"Kim"}, "troops": []map[string]any{{"creature": "Llanowar Elves", "count": 2000}}})},
		{name: "edit army", method: "PUT", path: c1 + "/armies/Sai%20Rei", def: forbidden, want: only(ok, admin, mover, batty), mutates: true,
			body: fixed(map[string]any{"colors": []string{"green"}})},
		// Sai Rei is no base: its controller gets past the check of who he is, to the rule (2.3.2).
		{name: "change troops", method: "POST", path: c1 + "/armies/Sai%20Rei/troops", def: forbidden, want: only(conflict, player), mutates: true,
			body: fixed(map[string]any{"troops": []map[string]any{{"creature": "Grizzly Bears", "count": 1000}}})},
		// Sai Rei was Gazetzot's when the round began: no customisation (2.6).
		{name: "customise army", method: "POST", path: c1 + "/armies/Sai%20Rei/customise", def: forbidden, want: only(conflict, player), mutates: true,
			body: fixed(map[string]any{"troops": []map[string]any{{"creature": "Grizzly Bears", "count": 1000}}})},
		{name: "battles", method: "GET", path: c1 + "/turns/1/battles", def: ok, want: everyone(ok)},
		{name: "battle", method: "GET", path: battle15J, def: ok, want: everyone(ok)},
		{name: "battle on a quiet square", method: "GET", path: c1 + "/turns/1/battles/3F", def: notFound, want: everyone(notFound)},
		{name: "send strategy", method: "POST", path: battle15J + "/strategies", def: forbidden, want: only(created, sameSide), mutates: true, body: fixed(karnStrategy)},
		{name: "propose", method: "POST", path: battle15J + "/proposal", def: forbidden, want: battleJudges, mutates: true,
			body: fixed(map[string]any{"bonus_to": "Karn", "bonus": 3})},
		{name: "confirm", method: "POST", path: battle15J + "/confirm", def: forbidden, want: battleJudges, mutates: true, setup: propose15J,
			body: fixed(map[string]any{"text": "Karn's bears held the ford."})},
		{name: "dice before the lock", method: "GET", path: c1 + "/turns/1/dice", def: ok, want: everyone(ok)},
		{name: "dice after the lock", locks: true, method: "GET", path: c1 + "/turns/1/dice", def: ok, want: everyone(ok), setup: lockTurn1},
		{name: "verify dice before the lock", method: "GET", path: c1 + "/turns/1/dice/verify", def: notFound, want: everyone(notFound)},
		{name: "verify dice", locks: true, method: "GET", path: c1 + "/turns/1/dice/verify", def: ok, want: everyone(ok), setup: lockTurn1},
		{name: "sanctions", method: "GET", path: c1 + "/turns/1/sanctions", def: ok, want: everyone(ok)},
		{name: "sanction", method: "POST", path: c1 + "/turns/1/sanctions", def: forbidden, want: only(created, admin, batty), mutates: true,
			body: fixed(map[string]any{"army": "Sai Rei", "severity": 1, "reason": "Tevesh ordered Sai Rei"})},
	}
}

// sharedCards is the shipped card catalogue, loaded once for every test server: loading it
// takes a quarter of a second. A judge's card put by one test shows in the others.
var sharedCards = func() func(testing.TB) *cards.Catalogue {
	var once sync.Once
	var cat *cards.Catalogue
	var err error
	return func(t testing.TB) *cards.Catalogue {
		once.Do(func() { cat, err = cards.Load() })
		if err != nil {
			t.Fatal(err)
		}
		return cat
	}
}()
