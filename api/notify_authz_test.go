package api_test

import (
	"context"
	"fmt"
	"net/http"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/coalition-wargame/coalition/campaign"
)

// The contract check reads the Atom feed as the text it is.
func init() {
	openapi3filter.RegisterBodyDecoder("application/atom+xml", openapi3filter.FileBodyDecoder)
}

// publicMessage is a comment of the player's in the public thread: its path to hide it.
func publicMessage(e *env) string {
	m, err := e.svc.SendMessage(context.Background(), e.actor(player), e.cid, campaign.MessageRequest{Channel: "public", Text: "meet me at the forest"})
	if err != nil {
		e.t.Fatal(err)
	}
	return fmt.Sprintf("%s/messages/%d/hide", c1, m.ID)
}

// notifyRouteRows are the authorization table's rows for issue 18's routes: the feed and the
// notifications, the threads, the order desk's guides, every line for the judges, the
// password reset.
func notifyRouteRows() []route {
	ok, created, forbidden := http.StatusOK, http.StatusCreated, http.StatusForbidden
	judges := only(ok, admin, mover, batty)
	posters := only(ok, player, sameSide, enemy, leader, merc, holder)
	return []route{
		{name: "feed", method: "GET", path: c1 + "/feed.atom", def: ok, want: everyone(ok)},
		{name: "notifications", method: "GET", path: c1 + "/notifications", def: ok, want: only(ok)},
		{name: "subscribe", method: "PUT", path: c1 + "/notifications", def: ok, want: only(ok), mutates: true,
			body: fixed(map[string]any{"kinds": []string{"lock", "reminder-orders"}})},
		{name: "unsubscribe", method: "DELETE", path: c1 + "/notifications", def: http.StatusNoContent, want: only(http.StatusNoContent), mutates: true},
		{name: "thread", method: "GET", path: c1 + "/turns/1/thread", def: ok, want: everyone(ok)},
		{name: "messages", method: "GET", path: c1 + "/turns/1/messages", def: ok, want: everyone(ok)},
		{name: "send message", method: "POST", path: c1 + "/messages", def: created, want: only(created), mutates: true,
			body: fixed(map[string]string{"channel": "public", "text": "meet me at the forest"})},
		{name: "send to the side", method: "POST", path: c1 + "/messages", def: forbidden, want: only(created, player, sameSide, enemy, leader, merc, holder), mutates: true,
			body: fixed(map[string]string{"channel": "side", "text": "our plan"})},
		{name: "hide message", method: "POST", path: "message to hide", def: forbidden, want: judges, mutates: true,
			body: fixed(map[string]string{"reason": "off topic"})},
		{name: "order desk", method: "GET", path: c1 + "/desk", def: forbidden, want: posters},
		{name: "reach", method: "GET", path: c1 + "/armies/Sai%20Rei/reach", def: forbidden, want: only(ok, admin, mover, batty, player)},
		{name: "every line", method: "GET", path: c1 + "/turns/1/lines", def: forbidden, want: judges},
		{name: "reset password", method: "POST", path: "/api/accounts/Kim/reset-password", def: forbidden, want: only(ok, admin), mutates: true,
			body: fixed(map[string]string{})},
	}
}
