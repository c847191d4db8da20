package notify_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/notifytest"
	"github.com/coalition-wargame/coalition/notify"
	"github.com/coalition-wargame/coalition/store"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

var start = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// world is a service on a real SQLite file with one small campaign, a webhook receiver and an
// SMTP server, and Hanna subscribed to every kind by both.
type world struct {
	svc   *campaign.Service
	clock *clock
	hooks *notifytest.Webhooks
	smtp  *notifytest.SMTP
	judge campaign.Actor
	hanna campaign.Actor
	cid   int64
	sub   *campaign.Subscription
}

func newWorld(t *testing.T, format string) *world {
	t.Helper()
	ctx := context.Background()
	w := &world{clock: &clock{t: start}, hooks: notifytest.StartWebhooks(t), smtp: notifytest.StartSMTP(t)}
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "c.db"), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	u, _ := url.Parse("smtp://" + w.smtp.Addr + "?tls=none&from=judges@example.org")
	snd, err := notify.New(notify.Options{BaseURL: "http://localhost:8080", SMTP: u, Clock: w.clock.Now, PrivateWebhooks: true})
	if err != nil {
		t.Fatal(err)
	}
	w.svc = campaign.NewService(db, campaign.Options{Clock: w.clock.Now, PasswordCost: 4, Log: slog.New(slog.DiscardHandler), Notifier: snd})
	if _, err := w.svc.Bootstrap(ctx, "admin", "admin-password"); err != nil {
		t.Fatal(err)
	}
	adm, _ := w.svc.Login(ctx, "admin", "admin-password")
	sq := func(s string) domain.Square { q, _ := domain.ParseSquare(s); return q }
	m := &domain.Map{Grid: domain.DefaultGrid, Armies: []domain.Army{
		{Name: "Hanna", Side: domain.Coalition, Rank: domain.Captain, At: sq("5F"), Controllers: []string{"Hanna"}},
		{Name: "Gix", Side: domain.Phyrexia, Rank: domain.Captain, At: sq("20F"), Controllers: []string{"Gix"}},
	}}
	created, err := w.svc.CreateCampaign(ctx, campaign.Actor{Account: adm}, campaign.Setup{Name: "Test", Map: m, Members: []campaign.Member{
		{Name: "Hanna", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.Captain},
		{Name: "Gix", Roles: []campaign.Role{campaign.Player}, Side: domain.Phyrexia, Rank: domain.Captain},
		{Name: "Barrin", Roles: []campaign.Role{campaign.MovementJudge}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	w.cid = created.Campaign.ID
	for _, a := range created.Accounts {
		acc, _ := w.svc.Login(ctx, a.Account.Name, a.Password)
		switch acc.Name {
		case "Hanna":
			w.hanna = campaign.Actor{Account: acc}
		case "Barrin":
			w.judge = campaign.Actor{Account: acc}
		}
	}
	w.sub, err = w.svc.Subscribe(ctx, w.hanna, w.cid, campaign.SubscriptionRequest{Kinds: campaign.EventKinds, Email: "hanna@example.org", WebhookURL: w.hooks.URL + "/hook", WebhookFormat: format})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *world) lock(t *testing.T) {
	t.Helper()
	if _, err := w.svc.Lock(context.Background(), w.judge, w.cid, 1, "test"); err != nil {
		t.Fatal(err)
	}
}

// The lock's event reaches the webhook, signed with the subscription's secret, and the mailbox;
// the dispatcher sends after the commit, never before.
func TestLockIsSentByWebhookAndMail(t *testing.T) {
	w := newWorld(t, "json")
	ctx := context.Background()
	w.lock(t)
	if len(w.hooks.Hooks()) != 0 || len(w.smtp.Mails()) != 0 {
		t.Fatal("something was sent before the dispatcher ran")
	}
	n, err := w.svc.Dispatch(ctx)
	if err != nil || n != 2 {
		t.Fatalf("sent %d, %v", n, err)
	}
	h := w.hooks.WaitHooks(t, 1)[0]
	ts, _ := strconv.ParseInt(h.Header.Get(notify.HeaderTimestamp), 10, 64)
	if !notify.Verify(w.sub.WebhookSecret, ts, h.Body, h.Header.Get(notify.HeaderSignature)) {
		t.Errorf("the signature %q does not verify", h.Header.Get(notify.HeaderSignature))
	}
	if notify.Verify("another secret", ts, h.Body, h.Header.Get(notify.HeaderSignature)) {
		t.Error("the signature verifies with any secret")
	}
	var p notify.Payload
	if err := json.Unmarshal(h.Body, &p); err != nil {
		t.Fatal(err)
	}
	if p.Event.Kind != campaign.EventLock || p.Event.Turn != 1 || p.Account != "Hanna" || !strings.Contains(p.Event.Body, "movement update for turn 1") || h.Header.Get(notify.HeaderEvent) != "lock" {
		t.Errorf("payload %+v", p)
	}
	m := w.smtp.WaitMails(t, 1)[0]
	if m.To[0] != "hanna@example.org" || m.From != "judges@example.org" || m.Subject != "Test: turn 1 is locked" || !strings.Contains(m.Text, "movement update for turn 1") {
		t.Errorf("mail %+v", m)
	}
	if n, _ := w.svc.Dispatch(ctx); n != 0 {
		t.Errorf("sent %d again", n)
	}
}

// A delivery that fails is tried again after 30 s, then 1 min, … on the service's clock, and
// given up after MaxAttempts.
func TestFailedDeliveryIsRetriedWithBackoff(t *testing.T) {
	w := newWorld(t, "discord")
	ctx := context.Background()
	w.hooks.FailNext(2)
	w.smtp.FailNext(campaign.MaxAttempts)
	w.lock(t)
	if n, _ := w.svc.Dispatch(ctx); n != 0 {
		t.Fatalf("sent %d while both receivers fail", n)
	}
	if n, _ := w.svc.Dispatch(ctx); n != 0 {
		t.Fatalf("retried %d before the wait", n)
	}
	w.clock.Add(29 * time.Second)
	if n, _ := w.svc.Dispatch(ctx); n != 0 {
		t.Fatalf("retried %d before 30 s", n)
	}
	w.clock.Add(time.Second) // the second attempt, which the receiver fails too
	w.svc.Dispatch(ctx)
	w.clock.Add(59 * time.Second)
	if n, _ := w.svc.Dispatch(ctx); n != 0 {
		t.Fatalf("retried %d before a minute", n)
	}
	w.clock.Add(time.Second)
	if n, _ := w.svc.Dispatch(ctx); n != 1 {
		t.Fatalf("the third attempt sent %d", n)
	}
	var d struct {
		Content string
		Embeds  []struct{ Title, Description, URL string }
	}
	if err := json.Unmarshal(w.hooks.Hooks()[0].Body, &d); err != nil || d.Content != "Test: turn 1 is locked" || len(d.Embeds) != 1 || !strings.Contains(d.Embeds[0].Description, "movement update") {
		t.Errorf("not a Discord message: %s (%v)", w.hooks.Hooks()[0].Body, err)
	}
	for range campaign.MaxAttempts {
		w.clock.Add(3 * time.Hour)
		w.svc.Dispatch(ctx)
	}
	v, err := w.svc.Notifications(ctx, w.hanna, w.cid)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range v.Deliveries {
		switch d.Channel {
		case campaign.ByWebhook:
			if d.Status != campaign.Sent || d.Attempts != 3 {
				t.Errorf("webhook %+v", d)
			}
		case campaign.ByEmail:
			if d.Status != campaign.Failed || d.Attempts != campaign.MaxAttempts || !strings.Contains(d.LastError, "try again later") {
				t.Errorf("mail %+v", d)
			}
		}
	}
	if len(w.smtp.Mails()) != 0 {
		t.Error("a refused mail was kept")
	}
}

// Bad webhook addresses and e-mail addresses are refused with the reason.
func TestCheckTarget(t *testing.T) {
	s, err := notify.New(notify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		channel, target string
		ok              bool
	}{
		{campaign.ByWebhook, "https://discord.com/api/webhooks/1/x", true},
		{campaign.ByWebhook, "ftp://example.org/", false},
		{campaign.ByWebhook, "https://user:pw@example.org/", false},
		{campaign.ByWebhook, "not a url", false},
		{campaign.ByEmail, "hanna@example.org", true},
		{campaign.ByEmail, "Hanna <hanna@example.org>", false},
		{campaign.ByEmail, "hanna", false},
	} {
		if err := s.CheckTarget(c.channel, c.target); (err == nil) != c.ok {
			t.Errorf("%s %q: %v", c.channel, c.target, err)
		}
	}
	if _, err := notify.New(notify.Options{SMTP: &url.URL{Scheme: "http", Host: "x"}}); err == nil {
		t.Error("an http:// SMTP URL was taken")
	}
}

// A webhook goes to public addresses only: a subscription to localhost or a private address is
// refused, and a name that resolves to one is refused when it is dialled (server-side request
// forgery); PrivateWebhooks lifts both.
func TestWebhooksToPrivateAddressesRefused(t *testing.T) {
	guarded, err := notify.New(notify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	open, err := notify.New(notify.Options{PrivateWebhooks: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"http://localhost:9000/x", "http://127.0.0.1/x", "http://[::1]/x", "http://10.1.2.3/x", "http://192.168.0.9/x",
		"http://169.254.169.254/latest/meta-data", "http://100.64.0.1/x", "http://[::ffff:127.0.0.1]/x", "http://0.0.0.0/x", "http://app.localhost/x"} {
		if err := guarded.CheckTarget(campaign.ByWebhook, target); err == nil || !strings.Contains(err.Error(), "public addresses only") {
			t.Errorf("%s: %v", target, err)
		}
		if err := open.CheckTarget(campaign.ByWebhook, target); err != nil {
			t.Errorf("%s with private webhooks allowed: %v", target, err)
		}
	}
	if err := guarded.CheckTarget(campaign.ByWebhook, "https://93.184.215.14/hook"); err != nil {
		t.Errorf("a public address: %v", err)
	}
	// The address dialled is checked too, whatever name led to it: the receiver listens on
	// 127.0.0.1.
	ctx := context.Background()
	hooks := notifytest.StartWebhooks(t)
	out := campaign.Outgoing{Delivery: campaign.Delivery{Channel: campaign.ByWebhook, Target: hooks.URL + "/x", Format: "json"}, Event: campaign.Event{CampaignID: 1}}
	if err := guarded.Send(ctx, out); err == nil || !strings.Contains(err.Error(), "public addresses only") {
		t.Errorf("a webhook dialled to %s: %v", hooks.URL, err)
	}
	if err := open.Send(ctx, out); err != nil {
		t.Errorf("a webhook to %s with private webhooks allowed: %v", hooks.URL, err)
	}
}
