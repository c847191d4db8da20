package api_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/internal/notifytest"
	"github.com/coalition-wargame/coalition/notify"
)

// What leaves the server — the feed, every webhook and every e-mail of a turn's lock and its
// reminders — never carries a secret to someone who may not see it: the other side's strategy
// or transfer's creatures, a formula, a proposal's internals, an unrevealed seed. Every kind of
// caller subscribes to everything by webhook and by e-mail; the reminders fall due, the turn
// locks, the dispatcher sends.
func TestNoSecretsLeakInNotifications(t *testing.T) {
	hooks, mails := notifytest.StartWebhooks(t), notifytest.StartSMTP(t)
	smtpURL, _ := url.Parse("smtp://" + mails.Addr + "?tls=none&from=server@example.org")
	e := newEnvWith(t, func(o *campaign.Options) {
		snd, err := notify.New(notify.Options{BaseURL: "http://localhost:8080", SMTP: smtpURL, PrivateWebhooks: true})
		if err != nil {
			t.Fatal(err)
		}
		o.Notifier = snd
	})
	plantSecrets(t, e)
	// the reminders' window: a day before the battle deadline and the lock
	e.at(time.Date(2026, 3, 8, 6, 0, 0, 0, time.UTC))
	subscribers := []string{admin, mover, batty, merc, leader, player, sameSide, enemy}
	for _, c := range subscribers {
		want(t, e.as(c, "PUT", c1+"/notifications", map[string]any{"kinds": campaign.EventKinds, "email": mailOf(c),
			"webhook_url": hooks.URL + "/" + url.PathEscape(accountOf[c]), "webhook_format": "json"}), http.StatusOK, nil)
	}
	ctx := context.Background()
	if err := e.svc.Remind(ctx); err != nil {
		t.Fatal(err)
	}
	lockOK(t, e)
	if _, err := e.svc.Dispatch(ctx); err != nil {
		t.Fatal(err)
	}
	unrevealed := seedOf(t, e, 2)
	received := map[string][]string{}
	for _, h := range hooks.Hooks() {
		name, _ := url.PathUnescape(strings.TrimPrefix(h.Path, "/"))
		received[name] = append(received[name], string(h.Body))
	}
	for _, m := range mails.Mails() {
		for _, c := range subscribers {
			if m.To[0] == mailOf(c) {
				received[accountOf[c]] = append(received[accountOf[c]], m.Subject+"\n"+m.Text)
			}
		}
	}
	feed := e.as(anon, "GET", c1+"/feed.atom", nil).Body.String()
	received["anonymous feed reader"] = []string{feed}
	for _, c := range append(subscribers, anon) {
		name := accountOf[c]
		if c == anon {
			name = "anonymous feed reader"
		}
		secrets, judge := forbidden[c], c == admin || c == mover || c == batty
		if judge {
			secrets = []string{formulaMarker} // a judge's notifications carry nothing more than anyone's
		}
		bodies := received[name]
		if len(bodies) == 0 {
			t.Errorf("%s received nothing", name)
		}
		for _, body := range bodies {
			for _, s := range append(secrets, unrevealed, coalitionStrategy, phyrexianStrategy, coalitionCargo, phyrexianCargo) {
				if strings.Contains(body, s) {
					t.Errorf("%s received %q: %.300s", name, s, body)
				}
			}
		}
		if joined := strings.Join(bodies, "\n"); !strings.Contains(joined, "movement update for turn 1") {
			t.Errorf("%s was not told of the lock", name)
		}
	}
	// The reminders went to their own readers only, each naming his own armies: Gazetzot's Sai
	// Rei has no accepted order (his private post came before the 28-hour window, C2), nor has
	// Tevesh's Darkhand5 (its transfer is refused); Kim's Karn fights, and both sides sent their
	// strategies.
	for name, bodies := range received {
		joined := strings.Join(bodies, "\n")
		reminded := strings.Contains(joined, "have no order for turn 1")
		if reminded != (name == "Gazetzot" || name == "Tevesh") {
			t.Errorf("%s reminded of missing orders: %v", name, reminded)
		}
		if strings.Contains(joined, "Sai Rei at 3F") != (name == "Gazetzot") || strings.Contains(joined, "Darkhand5 at 10F") != (name == "Tevesh") {
			t.Errorf("%s's reminders name the wrong armies:\n%s", name, joined)
		}
	}
}

// mailOf is a caller's e-mail address: his account's name, lower case, at example.org.
func mailOf(c string) string { return strings.ToLower(accountOf[c]) + "@example.org" }
