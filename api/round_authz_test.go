package api_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/roster"
)

const r1 = "/api/rounds/1"

// roundMembers are the fixture campaign's people as a round's members.
func roundMembers() []campaign.MemberInput {
	return []campaign.MemberInput{
		{Name: "Mover", Roles: []campaign.Role{campaign.MovementJudge}},
		{Name: "Batty", Roles: []campaign.Role{campaign.BattleJudge}},
		{Name: "Ada", Roles: []campaign.Role{campaign.BattleJudge}, Assists: "Batty"},
		{Name: "Merc", Roles: []campaign.Role{campaign.MercenaryJudge}},
		{Name: "Gerrard", Roles: []campaign.Role{campaign.Player, campaign.Leader}, Side: domain.Coalition, Rank: domain.General},
		{Name: "Gazetzot", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.Captain},
		{Name: "Kim", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.Lieutenant},
		{Name: "Tevesh", Roles: []campaign.Role{campaign.Player}, Side: domain.Phyrexia, Rank: domain.Commander},
	}
}

// newRound has the admin create round 1 with the fixture's people.
func newRound(e *env) {
	seed := int64(1)
	if _, err := e.svc.CreateRound(context.Background(), e.actor(admin), campaign.NewRound{Name: "Round Two", Members: roundMembers(), Seed: &seed}); err != nil {
		e.t.Fatal(err)
	}
}

// generatedRound is round 1 filled in by the generator.
func generatedRound(e *env) {
	newRound(e)
	if _, err := e.svc.GenerateRound(context.Background(), e.actor(mover), 1, campaign.GenerateRequest{}); err != nil {
		e.t.Fatal(err)
	}
}

// publishedRound is round 1 filled in and its positions public.
func publishedRound(e *env) {
	generatedRound(e)
	if _, err := e.svc.Publish(context.Background(), e.actor(mover), 1, campaign.PublishRequest{}); err != nil {
		e.t.Fatal(err)
	}
}

// roundWithRaider is round 1 filled in with a raider of the judge's own.
func roundWithRaider(e *env) {
	generatedRound(e)
	_, err := e.svc.PutRoundMercenary(context.Background(), e.actor(merc), 1, "Zz Raider", campaign.MercenaryInput{Faction: domain.Raider, Rank: domain.Lieutenant,
		At: sq("20G"), Troops: roster.List{{Creature: "Llanowar Elves", Count: 5000}}})
	if err != nil {
		e.t.Fatal(err)
	}
}

// roundRouteRows are the authorization table's rows for the round setup (2.5), the next round
// and the corrections (3.3.3).
func roundRouteRows() []route {
	ok, created, forbidden := http.StatusOK, http.StatusCreated, http.StatusForbidden
	judges := only(ok, admin, mover, batty)
	bases := []string{"Benalia Base", "Tolaria Base", "Urborg Base", "Shiv Base", "Llanowar Base"}
	return []route{
		{name: "rounds", method: "GET", path: "/api/rounds", def: ok, want: everyone(ok)},
		{name: "create round", method: "POST", path: "/api/rounds", def: forbidden, want: only(created, admin), mutates: true,
			body: fixed(map[string]any{"name": "Round Three", "seed": 3})},
		{name: "round", method: "GET", path: r1, def: ok, want: everyone(ok), setup: newRound},
		{name: "generate round", method: "POST", path: r1 + "/generate", def: forbidden, want: judges, mutates: true, setup: newRound, body: fixed(map[string]any{})},
		{name: "round sites", method: "PUT", path: r1 + "/sites", def: forbidden, want: judges, mutates: true, setup: newRound,
			body: fixed(map[string]any{"sites": []map[string]any{{"name": "Red Base", "kind": "base", "color": "red", "at": "5C"}}})},
		{name: "round request", method: "POST", path: r1 + "/requests", def: forbidden, want: only(ok, leader), mutates: true, setup: newRound,
			body: fixed(map[string]any{"text": "Put Red Base in the mountains, please"})},
		{name: "describe base", method: "PUT", path: r1 + "/descriptions/Benalia%20Base", def: forbidden, want: only(ok, admin, mover, batty, leader), mutates: true,
			setup: generatedRound, body: fixed(map[string]any{"text": "A white keep on a hill"})},
		{name: "review description", method: "POST", path: r1 + "/descriptions/Benalia%20Base/review", def: forbidden, want: judges, mutates: true,
			setup: generatedRound, body: fixed(map[string]any{"accept": false, "reason": "too strong"})},
		{name: "win conditions", method: "PUT", path: r1 + "/win-conditions", def: forbidden, want: only(ok, admin, mover, batty, leader), mutates: true,
			setup: generatedRound, body: fixed(map[string]any{"bases": bases})},
		{name: "publish round", method: "POST", path: r1 + "/publish", def: forbidden, want: judges, mutates: true, setup: generatedRound, body: fixed(map[string]any{})},
		{name: "round counts", method: "PUT", path: r1 + "/counts", def: forbidden, want: judges, mutates: true, setup: newRound,
			body: fixed(map[string]any{"general": 1, "admiral": 2, "captain": 7, "commander": 7, "lt-commander": 14, "lieutenant": 14})},
		{name: "round army", method: "PUT", path: r1 + "/armies/Gazetzot", def: forbidden, want: only(ok, admin, mover, batty, leader, player), mutates: true, setup: newRound,
			body: fixed(map[string]any{"colors": []string{"green"}, "troops": []map[string]any{{"creature": "Grizzly Bears", "count": 5000}}})},
		{name: "remove round army", method: "DELETE", path: r1 + "/armies/Coalition%20Captain%201", def: forbidden, want: only(ok, admin, mover, batty, leader), mutates: true,
			setup: generatedRound},
		{name: "place round armies", method: "POST", path: r1 + "/place", def: forbidden, want: judges, mutates: true, setup: publishedRound, body: fixed(map[string]any{})},
		{name: "round mercenary", method: "PUT", path: r1 + "/mercenaries/Zz%20Raider", def: forbidden, want: only(ok, admin, mover, batty, merc), mutates: true, setup: newRound,
			body: fixed(map[string]any{"faction": "raider", "rank": "lieutenant", "at": "20G", "troops": []map[string]any{{"creature": "Llanowar Elves", "count": 5000}}})},
		{name: "remove round mercenary", method: "DELETE", path: r1 + "/mercenaries/Zz%20Raider", def: forbidden, want: only(ok, admin, mover, batty, merc), mutates: true,
			setup: roundWithRaider},
		{name: "start round", method: "POST", path: r1 + "/start", def: forbidden, want: only(created, admin, mover, batty), mutates: true, setup: publishedRound,
			body: fixed(map[string]any{})},
		{name: "next round of a campaign not decided", method: "POST", path: c1 + "/next-round", def: forbidden, want: only(http.StatusConflict, admin, mover, batty),
			body: fixed(map[string]any{"name": "Round Four"})},
		{name: "corrections", method: "GET", path: c1 + "/turns/1/corrections", def: ok, want: everyone(ok)},
		{name: "preview correction", locks: true, method: "POST", path: c1 + "/turns/1/corrections/preview", def: forbidden, want: only(ok, batty), setup: lockTurn1,
			body: fixed(map[string]any{"reason": "it camped", "days": []map[string]any{{"army": "Sai Rei", "days": 1}}})},
		{name: "correct unpreviewed", locks: true, method: "POST", path: c1 + "/turns/1/corrections", def: forbidden, want: only(http.StatusUnprocessableEntity, batty), mutates: true,
			setup: lockTurn1, body: fixed(map[string]any{"reason": "it camped", "days": []map[string]any{{"army": "Sai Rei", "days": 1}}})},
	}
}

// The round setup's and the corrections' bodies for FuzzRequestBodies.
func init() {
	for k, v := range map[string][]string{
		"POST /api/rounds":                                      {`{"name":"Round Five","seed":5,"members":[{"name":"Hanna","roles":["player"],"side":"coalition","rank":"captain"}]}`},
		"PUT /api/rounds/:rid/sites":                            {`{"sites":[{"name":"Red Base","kind":"base","color":"red","at":"5C"}]}`},
		"POST /api/rounds/:rid/requests":                        {`{"text":"a base in the hills"}`},
		"PUT /api/rounds/:rid/descriptions/:site":               {`{"text":"a keep"}`},
		"POST /api/rounds/:rid/descriptions/:site/review":       {`{"accept":false,"reason":"too strong"}`},
		"PUT /api/rounds/:rid/win-conditions":                   {`{"bases":["A","B","C","D","E"]}`},
		"PUT /api/rounds/:rid/counts":                           {`{"general":1,"admiral":2,"captain":7,"commander":7,"lt-commander":14,"lieutenant":14}`},
		"PUT /api/rounds/:rid/armies/:army":                     {`{"side":"coalition","rank":"captain","colors":["red"],"troops":[{"creature":"Gray Ogre","count":5000}],"base":"Shiv Base","at":"3C"}`},
		"PUT /api/rounds/:rid/mercenaries/:army":                {`{"faction":"raider","rank":"lieutenant","at":"20G","troops":[{"creature":"Llanowar Elves","count":5000}]}`},
		"POST /api/rounds/:rid/start":                           {`{"first_deadline":"2026-03-08T05:00:00Z"}`},
		"POST /api/campaigns/:cid/next-round":                   {`{"name":"Round Six","seed":6}`},
		"POST /api/campaigns/:cid/turns/:n/corrections/preview": {`{"reason":"x","orders":[{"post":1,"line":1,"accept":true}],"days":[{"army":"Sai Rei","days":1}],"later":[{"turn":2,"results":[{"square":"15J"}]}]}`},
		"POST /api/campaigns/:cid/turns/:n/corrections":         {`{"reason":"x","results":[{"square":"15J","winner":"Karn"}],"preview":"00"}`},
	} {
		bodySeeds[k] = v
	}
}

// A team leader sends his own side's armies only: an army named for a player of the other side
// is that player's, of his side, and refused to the leader (2.5.2.2).
func TestPutRoundArmy403ForTheOtherSidesPlayer(t *testing.T) {
	e := newEnv(t)
	newRound(e)
	body := map[string]any{"troops": []map[string]any{{"creature": "Mogg Fanatic", "count": 5000}}}
	want(t, e.as(leader, "PUT", r1+"/armies/Tevesh", body), http.StatusForbidden, nil)
	want(t, e.as(enemy, "PUT", r1+"/armies/Tevesh", map[string]any{"troops": []map[string]any{{"creature": "Hill Giant", "count": 5000}}}), http.StatusOK, nil)
}
