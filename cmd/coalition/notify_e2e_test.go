package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/notifytest"
	"github.com/coalition-wargame/coalition/notify"
)

// Secrets the notification test plants: each side's private facts.
const (
	phyrexianCargo = "Zz Phyrexian Cargo"
	phyrexianSide  = "zz-phyrexian-side-channel-zz"
	coalitionSide  = "zz-coalition-side-channel-zz"
	hannaToJudges  = "zz-hanna-to-the-judges-zz"
)

// TestNotificationsEndToEnd runs the real program on the demo with an SMTP server started in
// this process and a webhook receiver, both real servers on random ports. Hanna (who orders
// her army), Mirri (who does not) and Gix of the other side subscribe to everything by webhook
// (Gix in Discord's format) and e-mail. A day before the lock the dispatcher reminds Mirri, not
// Hanna, of her army without an order; the movement judge locks the turn; the feed, every
// webhook and every mailbox get the lock with its report; and no notification to a side carries
// the other side's private facts (its transfer's creatures, its side channel, a player's words
// to the judges).
func TestNotificationsEndToEnd(t *testing.T) {
	mails, hooks := notifytest.StartSMTP(t), notifytest.StartWebhooks(t)
	s := startServer(t, "--demo", "--lock-tick", "off", "--dispatch-every", "100ms",
		"--smtp", "smtp://"+mails.Addr+"?tls=none&from=judges@coalition.example", "--base-url", "https://coalition.example", "--webhook-private")
	pw := map[string]string{}
	for _, m := range demoAccount.FindAllStringSubmatch(s.stdout.String(), -1) {
		pw[m[1]] = m[2]
	}
	type sub struct{ name, format string }
	secrets := map[string]string{}
	for _, u := range []sub{{"Hanna", "json"}, {"Mirri", "json"}, {"Gix", "discord"}} {
		var out struct {
			Secret string `json:"webhook_secret"`
		}
		s.call("PUT", "/api/campaigns/1/notifications", s.login(u.name, pw[u.name]), map[string]any{
			"kinds": []string{"lock", "battles", "results", "deadline", "paused", "resumed", "finished", "corrected", "reminder-orders", "reminder-strategy"},
			"email": strings.ToLower(u.name) + "@players.example", "webhook_url": hooks.URL + "/" + u.name, "webhook_format": u.format}, http.StatusOK, &out)
		secrets[u.name] = out.Secret
	}
	var m mapView
	s.call("GET", "/api/campaigns/1/map", "", nil, http.StatusOK, &m)
	from, to := freeSquare(t, m, "Hanna")
	s.call("POST", "/api/campaigns/1/posts", s.login("Hanna", pw["Hanna"]), map[string]string{"text": "Hanna: " + from + " > " + to}, http.StatusCreated, nil)

	// a day before the lock: the private facts of each side, then the reminders
	s.clock.Set(time.Date(2026, 1, 7, 6, 0, 0, 0, time.UTC))
	hanna, gix := s.login("Hanna", pw["Hanna"]), s.login("Gix", pw["Gix"])
	_, friend := neighbour(t, m, "Gix")
	s.call("POST", "/api/campaigns/1/posts", gix, map[string]any{"text": fmt.Sprintf("Gix: Transfer to %s at %s", friend.Name, friend.At), "private": true,
		"transfers": []map[string]any{{"army": "Gix", "creatures": map[string]int{phyrexianCargo: 5}}}}, http.StatusCreated, nil)
	s.call("POST", "/api/campaigns/1/messages", gix, map[string]string{"channel": "side", "text": phyrexianSide}, http.StatusCreated, nil)
	s.call("POST", "/api/campaigns/1/messages", hanna, map[string]string{"channel": "side", "text": coalitionSide}, http.StatusCreated, nil)
	s.call("POST", "/api/campaigns/1/messages", hanna, map[string]string{"channel": "judges", "text": hannaToJudges}, http.StatusCreated, nil)
	waitFor(t, "Mirri's reminder by webhook", func() bool { return len(hooksOf(hooks, "Mirri", "reminder-orders")) == 1 })
	waitFor(t, "Mirri's reminder by e-mail", func() bool { return len(mailsOf(mails, "mirri", "have no order")) == 1 })
	if r := hooksOf(hooks, "Hanna", "reminder-orders"); len(r) != 0 {
		t.Errorf("Hanna, who ordered her army, was reminded: %s", r[0].Body)
	}
	if r := mailsOf(mails, "hanna", "have no order"); len(r) != 0 {
		t.Errorf("Hanna was reminded by e-mail: %s", r[0].Text)
	}
	var p notify.Payload
	if err := json.Unmarshal(hooksOf(hooks, "Mirri", "reminder-orders")[0].Body, &p); err != nil || !strings.Contains(p.Event.Body, "Mirri at ") || p.Event.Link != "https://coalition.example/?c=1" {
		t.Errorf("Mirri's reminder: %+v %v", p, err)
	}

	// the lock
	s.call("POST", "/api/campaigns/1/turns/1/lock", s.login("Barrin", pw["Barrin"]), map[string]string{"reason": "end-to-end test"}, http.StatusOK, nil)
	for _, name := range []string{"Hanna", "Mirri", "Gix"} {
		waitFor(t, name+"'s lock by webhook", func() bool { return len(hooksOf(hooks, name, "lock")) == 1 })
		waitFor(t, name+"'s lock by e-mail", func() bool { return len(mailsOf(mails, strings.ToLower(name), "turn 1 is locked")) == 1 })
		h := hooksOf(hooks, name, "lock")[0]
		ts, _ := strconv.ParseInt(h.Header.Get(notify.HeaderTimestamp), 10, 64)
		if !notify.Verify(secrets[name], ts, h.Body, h.Header.Get(notify.HeaderSignature)) {
			t.Errorf("%s's webhook is not signed with %s's secret", name, name)
		}
		if !strings.Contains(string(h.Body), "movement update for turn 1") && name != "Gix" {
			t.Errorf("%s's lock webhook has no report: %.300s", name, h.Body)
		}
	}
	var d struct {
		Content string
		Embeds  []struct{ Description string }
	}
	if err := json.Unmarshal(hooksOf(hooks, "Gix", "lock")[0].Body, &d); err != nil || !strings.Contains(d.Content, "turn 1 is locked") || len(d.Embeds) != 1 || !strings.Contains(d.Embeds[0].Description, "movement update for turn 1") {
		t.Errorf("Gix's Discord message: %+v %v", d, err)
	}
	feed := string(s.call("GET", "/api/campaigns/1/feed.atom", "", nil, http.StatusOK, nil))
	if !strings.Contains(feed, "turn 1 is locked") || !strings.Contains(feed, "movement update for turn 1") || !strings.Contains(feed, "<feed xmlns=\"http://www.w3.org/2005/Atom\">") {
		t.Errorf("the feed has no lock: %.500s", feed)
	}

	// the refused transfer's reason names its troops: Gix's side reads it, Hanna and the
	// report's text do not (T2)
	hanna = s.login("Hanna", pw["Hanna"])
	for _, path := range []string{"/api/campaigns/1/turns/1/report", "/api/campaigns/1/turns/1/report.txt"} {
		if body := string(s.call("GET", path, hanna, nil, http.StatusOK, nil)); strings.Contains(body, phyrexianCargo) {
			t.Errorf("GET %s shows Hanna the Phyrexian cargo", path)
		}
	}
	if body := string(s.call("GET", "/api/campaigns/1/turns/1/report", s.login("Gix", pw["Gix"]), nil, http.StatusOK, nil)); !strings.Contains(body, phyrexianCargo) {
		t.Error("Gix does not read why his own transfer was refused")
	}

	// nothing sent to a side carries the other side's private facts; the feed carries none
	everything := map[string][]string{"feed": {feed}}
	for _, h := range hooks.Hooks() {
		name := strings.TrimPrefix(h.Path, "/")
		everything[name] = append(everything[name], string(h.Body))
	}
	for _, ml := range mails.Mails() {
		name := strings.TrimSuffix(ml.To[0], "@players.example")
		name = strings.ToUpper(name[:1]) + name[1:]
		everything[name] = append(everything[name], ml.Subject+"\n"+ml.Text)
	}
	never := map[string][]string{
		"Hanna": {phyrexianCargo, phyrexianSide}, "Mirri": {phyrexianCargo, phyrexianSide, hannaToJudges},
		"Gix": {coalitionSide, hannaToJudges}, "feed": {phyrexianCargo, phyrexianSide, coalitionSide, hannaToJudges},
	}
	for who, secrets := range never {
		if len(everything[who]) < 2 && who != "feed" {
			t.Errorf("%s received only %d notifications", who, len(everything[who]))
		}
		for _, body := range everything[who] {
			for _, secret := range secrets {
				if strings.Contains(body, secret) {
					t.Errorf("%s received %q: %.300s", who, secret, body)
				}
			}
		}
	}
	t.Logf("sent: %d webhooks, %d e-mails", len(hooks.Hooks()), len(mails.Mails()))
}

// neighbour is an army of the same side next to the named one (G3), for a transfer.
func neighbour(t *testing.T, m mapView, name string) (string, mapArmy) {
	t.Helper()
	var me mapArmy
	for _, a := range m.Armies {
		if a.Name == name {
			me = a
		}
	}
	at, _ := domain.ParseSquare(me.At)
	for _, a := range m.Armies {
		sq, _ := domain.ParseSquare(a.At)
		if a.Side == me.Side && a.Name != name && domain.Ring(at, sq) == 1 {
			return me.At, a
		}
	}
	t.Fatalf("no army of %s's side next to it", name)
	return "", mapArmy{}
}

// hooksOf are the webhooks received for name of one kind of event.
func hooksOf(w *notifytest.Webhooks, name, kind string) []notifytest.Hook {
	var out []notifytest.Hook
	for _, h := range w.Hooks() {
		if h.Path == "/"+url.PathEscape(name) && h.Header.Get(notify.HeaderEvent) == kind {
			out = append(out, h)
		}
	}
	return out
}

// mailsOf are the e-mails to user@players.example whose subject says what.
func mailsOf(s *notifytest.SMTP, user, what string) []notifytest.Mail {
	var out []notifytest.Mail
	for _, m := range s.Mails() {
		if m.To[0] == user+"@players.example" && strings.Contains(m.Subject, what) {
			out = append(out, m)
		}
	}
	return out
}

// waitFor waits up to fifteen seconds for cond.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); !cond(); time.Sleep(25 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: not after 15 s", what)
		}
	}
}
