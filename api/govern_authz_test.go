package api_test

import (
	"context"
	"net/http"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

// namesakeArmy renames Urza's Guard to Gazetzot, so that the player controls his namesake army
// (5.3.2), by the movement judge's edit.
func namesakeArmy(e *env) {
	if _, err := e.svc.EditArmy(context.Background(), e.actor(mover), e.cid, "Urza's Guard", campaign.ArmyEdit{Name: "Gazetzot"}); err != nil {
		e.t.Fatal(err)
	}
}

// consentAsked is namesakeArmy and the team leader's request for Gazetzot's consent to give it
// to Sisay: request 1.
func consentAsked(e *env) {
	namesakeArmy(e)
	if _, err := e.svc.RequestConsent(context.Background(), e.actor(leader), e.cid, campaign.ControlRequestInput{Army: "Gazetzot", Controllers: []string{"Sisay"}}); err != nil {
		e.t.Fatal(err)
	}
}

// declared is the team leader's declaration that Kim is inactive: declaration 1.
func declared(e *env) {
	if _, err := e.svc.DeclareInactive(context.Background(), e.actor(leader), e.cid, campaign.DeclareRequest{Player: "Kim", Reason: "silent"}); err != nil {
		e.t.Fatal(err)
	}
}

// coalitionVote is the team leader's normal vote of the Coalition: vote 1.
func coalitionVote(e *env) {
	if _, err := e.svc.CallVote(context.Background(), e.actor(leader), e.cid, campaign.VoteInput{Kind: campaign.NormalVote, Side: domain.Coalition,
		Question: "Attack Red Base?", Options: []string{"yes", "no"}, ClosesAt: start.Add(48 * time.Hour)}); err != nil {
		e.t.Fatal(err)
	}
}

// nameAsked is Kim's request to be called Kimberly: request 1.
func nameAsked(e *env) {
	if _, err := e.svc.AskName(context.Background(), e.actor(sameSide), e.cid, campaign.NameRequest{Name: "Kimberly"}); err != nil {
		e.t.Fatal(err)
	}
}

// admissionAsked is a newcomer's request to join the Coalition: request 1.
func admissionAsked(e *env) {
	ctx := context.Background()
	if _, err := e.svc.CreateAccount(ctx, e.actor(admin), "Newcomer", "newcomer-password", false); err != nil {
		e.t.Fatal(err)
	}
	acc, err := e.svc.Login(ctx, "Newcomer", "newcomer-password")
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.svc.AskAdmission(ctx, campaign.Actor{Account: acc}, e.cid, campaign.AdmissionRequest{Side: domain.Coalition, Message: "hello"}); err != nil {
		e.t.Fatal(err)
	}
}

// statuses is a map of callers to statuses, for rows whose anonymous caller is not refused a
// login (a read that says less to the anonymous).
func statuses(def int, pairs ...any) map[string]int {
	m := map[string]int{}
	for _, c := range callers {
		m[c] = def
	}
	for i := 0; i < len(pairs); i += 2 {
		m[pairs[i].(string)] = pairs[i+1].(int)
	}
	return m
}

// governRouteRows are the authorization table's rows for issue 15's routes: active players,
// change power, consent, emergencies, votes, names and admission (chapters 1 and 5).
func governRouteRows() []route {
	ok, created, forbidden, notFound := http.StatusOK, http.StatusCreated, http.StatusForbidden, http.StatusNotFound
	reason := fixed(map[string]string{"reason": "test"})
	coalitionReaders := []string{leader, player, sameSide, holder, mover, batty, assistant, admin}
	seeVote := statuses(notFound)
	for _, c := range coalitionReaders {
		seeVote[c] = ok
	}
	ballot := statuses(notFound, anon, http.StatusUnauthorized, mover, forbidden, batty, forbidden, assistant, forbidden, admin, forbidden,
		leader, ok, player, ok, sameSide, ok, holder, ok)
	return []route{
		{name: "activity", method: "GET", path: c1 + "/activity", def: ok, want: everyone(ok)},
		{name: "say inactive", method: "PUT", path: c1 + "/activity", def: forbidden, want: only(ok, leader, player, sameSide, enemy, holder), mutates: true,
			body: fixed(map[string]any{"inactive": true, "until": "2026-03-20T00:00:00Z", "reason": "holidays"})},
		{name: "declare inactive", method: "POST", path: c1 + "/inactivity", def: forbidden, want: only(created, leader), mutates: true,
			body: fixed(map[string]string{"player": "Kim", "reason": "silent for days"})},
		{name: "reject declaration", method: "POST", path: c1 + "/inactivity/1/reject", def: forbidden, want: only(ok, batty), mutates: true, setup: declared, body: reason},
		{name: "change power", method: "GET", path: c1 + "/power", def: ok, want: everyone(ok)},
		{name: "hand power", method: "POST", path: c1 + "/power", def: forbidden, want: only(ok, leader, holder, batty), mutates: true,
			body: fixed(map[string]string{"side": "coalition", "from": "Sisay", "to": "Kim", "reason": "test"})},
		{name: "consent requests", method: "GET", path: c1 + "/control/requests", def: ok, want: everyone(ok), setup: consentAsked},
		{name: "ask consent", method: "POST", path: c1 + "/control/requests", def: forbidden, want: only(created, admin, mover, leader, holder), mutates: true, setup: namesakeArmy,
			body: fixed(map[string]any{"army": "Gazetzot", "controllers": []string{"Sisay"}, "reason": "test"})},
		{name: "consent", method: "POST", path: c1 + "/control/requests/1/accept", def: forbidden, want: only(ok, player), mutates: true, setup: consentAsked, body: fixed(map[string]string{})},
		{name: "refuse consent", method: "POST", path: c1 + "/control/requests/1/decline", def: forbidden, want: only(ok, player), mutates: true, setup: consentAsked, body: reason},
		{name: "emergencies", method: "GET", path: c1 + "/emergencies", def: ok, want: everyone(ok)},
		{name: "emergency", method: "POST", path: c1 + "/emergencies", def: forbidden, want: only(created, mover, batty), mutates: true,
			body: fixed(map[string]any{"kind": "authorize", "side": "coalition", "people": []string{"Kim", "Gazetzot"}, "reason": "holders away"})},
		{name: "votes", method: "GET", path: c1 + "/votes", def: ok, want: everyone(ok), setup: coalitionVote},
		{name: "call vote", method: "POST", path: c1 + "/votes", def: forbidden, want: only(created, leader, mover, batty), mutates: true,
			body: fixed(map[string]any{"kind": "normal", "side": "coalition", "question": "Attack?", "options": []string{"yes", "no"}, "closes_at": "2026-03-05T12:00:00Z"})},
		{name: "vote", method: "GET", path: c1 + "/votes/1", def: notFound, want: seeVote, setup: coalitionVote},
		{name: "ballot", method: "PUT", path: c1 + "/votes/1/ballot", def: notFound, want: ballot, mutates: true, setup: coalitionVote, body: fixed(map[string]string{"choice": "yes"})},
		{name: "name changes", method: "GET", path: c1 + "/names", def: ok, want: everyone(ok), setup: nameAsked},
		{name: "ask name", method: "POST", path: c1 + "/names", def: created, want: statuses(created, anon, http.StatusUnauthorized, admin, forbidden), mutates: true,
			body: fixed(map[string]string{"name": "Newname"})},
		{name: "approve name", method: "POST", path: c1 + "/names/1/approve", def: forbidden, want: only(ok, batty), mutates: true, setup: nameAsked, body: fixed(map[string]string{})},
		{name: "decline name", method: "POST", path: c1 + "/names/1/decline", def: forbidden, want: only(ok, batty), mutates: true, setup: nameAsked, body: reason},
		{name: "admissions", method: "GET", path: c1 + "/admissions", def: ok, want: everyone(ok), setup: admissionAsked},
		{name: "ask admission", method: "POST", path: c1 + "/admissions", def: forbidden, want: only(created, admin, mover), mutates: true,
			body: fixed(map[string]string{"side": "phyrexia", "message": "hello"})},
		{name: "admit", method: "POST", path: c1 + "/admissions/1/accept", def: forbidden, want: only(ok, leader, mover, batty, admin), mutates: true, setup: admissionAsked,
			body: fixed(map[string]string{"rank": "lieutenant"})},
		{name: "decline admission", method: "POST", path: c1 + "/admissions/1/decline", def: forbidden, want: only(ok, leader, mover, batty, admin), mutates: true, setup: admissionAsked, body: reason},
	}
}
