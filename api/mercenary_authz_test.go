package api_test

import (
	"context"
	"net/http"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/roster"
)

// placeRaider has the mercenary judge put a raider on the fixture's map at the armies desk, so
// that a lock opens the after-lock edit window (6.3.2).
func placeRaider(e *env) {
	_, err := e.svc.CreateArmy(context.Background(), e.actor(merc), e.cid, campaign.ArmyInput{Name: "Zz Raider", Side: domain.Mercenary, Rank: domain.Lieutenant,
		At: sq("25F"), Faction: domain.Raider, Troops: roster.List{{Creature: "Llanowar Elves", Count: 5000}}})
	if err != nil {
		e.t.Fatal(err)
	}
}

// lockWithRaider locks turn 1 with a raider on the map: its update waits for the edit.
func lockWithRaider(e *env) {
	placeRaider(e)
	lockTurn1(e)
}

// mercenaryRoutes are the authorization table's rows for the mercenary desk: the AI's settings,
// its plan, the after-lock edit, and removing an army.
func mercenaryRoutes() []route {
	ok, created, forbidden := http.StatusOK, http.StatusCreated, http.StatusForbidden
	return []route{
		{name: "mercenary settings", method: "GET", path: c1 + "/mercenary", def: ok, want: everyone(ok)},
		{name: "set mercenary settings", method: "PUT", path: c1 + "/mercenary", def: forbidden, want: only(ok, admin, mover, merc), mutates: true,
			body: fixed(map[string]any{"mercenary_ai": "auto"})},
		{name: "mercenary plan", method: "GET", path: c1 + "/turns/1/mercenary/plan", def: forbidden, want: only(ok, admin, merc)},
		{name: "post the mercenary plan", method: "POST", path: c1 + "/turns/1/mercenary/plan", def: forbidden, want: only(created, merc), mutates: true,
			body: fixed(map[string]any{})},
		{name: "after-lock edit window", method: "GET", path: c1 + "/turns/1/mercenary/edit", def: forbidden, want: only(ok, admin, mover, batty, merc)},
		{name: "post the after-lock edit", locks: true, method: "POST", path: c1 + "/turns/1/mercenary/edit", def: forbidden, want: only(ok, merc), mutates: true,
			setup: lockWithRaider, body: fixed(map[string]any{"text": "Zz Raider: 25F > 26F; engage Raiders"})},
		{name: "check the after-lock edit", locks: true, method: "POST", path: c1 + "/turns/1/mercenary/edit/check", def: forbidden, want: only(ok, merc),
			setup: lockWithRaider, body: fixed(map[string]any{"text": "Zz Raider: 25F > 26F"})},
		{name: "remove army", method: "DELETE", path: c1 + "/armies/Raiders", def: forbidden, want: only(ok, admin, mover, batty, merc), mutates: true},
	}
}
