package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/coalition-wargame/coalition/internal/notifytest"
)

// The browser tests of issue 18: the order desk's guides, the threads, the judge console's
// open turn, the forced password change. Their screenshots go to the artifacts folder.

// inZone makes the tab's clock read in a time zone, as a reader elsewhere would see it.
func inZone(zone string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: zone})
		return err
	})
}

type reachView struct {
	Squares []struct {
		Square, Status, Code, Reason string
		Legs                         int
	}
}

// TestBrowserDeskGuides: Hanna's order desk lists her army with no order; choosing it shades
// every square the server's movement checker lets it reach (this turn and by a long move), marks
// those a plain order would be refused for, with the checker's reason on hover; a click on a
// shaded square writes an accepted order, and once posted the list says her army's order
// counts. Times read in her time zone (Berlin here), UTC on hover; zoomed in, the map names its
// armies; a hidden tab stops asking for the map.
func TestBrowserDeskGuides(t *testing.T) {
	b := browser(t)
	d := startDemo(t)
	var reach reachView
	d.call("GET", "/api/campaigns/1/armies/Hanna/reach", d.login("Hanna", d.passwords["Hanna"]), nil, http.StatusOK, &reach)
	kw, dest := "", ""
	for _, s := range reach.Squares {
		switch {
		case s.Status == "keyword" && s.Legs == 1 && kw == "":
			kw = s.Square
		case s.Status == "accepted" && s.Legs == 1 && s.Square == "6G":
			dest = s.Square
		}
	}
	if kw == "" || dest == "" || len(reach.Squares) < 30 {
		t.Fatalf("the demo's reach for Hanna: %+v", reach)
	}
	p := newTab(t, b, "player")
	p.do("reading Berlin's time", inZone("Europe/Berlin"))
	p.open(d.base, "/?poll=250")
	p.login("Hanna", d.passwords["Hanna"])
	p.view("orders")
	p.until("the desk's list", `/0 of 1 army has an order that counts; 1 has none/.test(document.querySelector('#desk-summary').textContent) && document.querySelector('#my-armies .desk-status[data-status="none"]')`)
	if got := eval[string](p, `document.querySelector('#lock-time time').textContent + ' | ' + document.querySelector('#lock-time time').title`); !strings.Contains(got, "06:00 GMT+1 | ") || !strings.HasSuffix(got, "05:00 UTC") {
		t.Errorf("the lock time reads %q: Berlin's time, UTC on hover", got)
	}
	p.do("choosing Hanna's army", chromedp.Click(chromedp.CSS(`#my-armies button[data-army="Hanna"]`)))
	p.until("the reach shaded", fmt.Sprintf(`document.querySelectorAll('#map .reach-sq').length === %d`, len(reach.Squares)))
	if n := eval[int](p, `document.querySelectorAll('#map .reach-sq.ok').length`); n < 10 {
		t.Errorf("%d squares shaded as reachable this turn", n)
	}
	title := eval[string](p, `document.querySelector('#map .reach-sq[data-sq="`+kw+`"] title').textContent`)
	if !strings.Contains(title, "a plain order would be refused") || !strings.Contains(title, "missing_replace") || !strings.Contains(title, "add \"replace") {
		t.Errorf("the marked square %s says %q", kw, title)
	}
	p.do("pointing at "+kw, chromedp.Evaluate[chromedp.Void](`document.querySelector('#map .reach-sq[data-sq="`+kw+`"]').dispatchEvent(new MouseEvent('mouseover', {bubbles: true}))`))
	p.until("the reason under the map", `/missing_replace/.test(document.querySelector('#map-hover').textContent)`)
	p.until("the reach in words", `/Hanna can reach \d+ squares this turn/.test(document.querySelector('#reach-summary').textContent)`)
	p.shot("desk-guides")
	p.do("clicking "+dest, chromedp.Click(chromedp.CSS(`#map rect.reach-sq[data-sq="`+dest+`"]`)))
	p.until("the order accepted", `document.querySelector('#order-check li[data-status="accepted"] code') && document.querySelector('#order-check li[data-status="accepted"] code').textContent === 'Hanna: 3G > `+dest+`'`)
	p.do("posting", chromedp.Click(chromedp.ID("order-post")))
	p.until("the desk's list updated", `/1 of 1 army has an order that counts/.test(document.querySelector('#desk-summary').textContent) && document.querySelector('#my-armies .desk-status[data-status="ordered"]')`)
	p.shot("desk-guides-ordered")
	p.named("the order desk with its guides")
	p.axe("the order desk with the reach shown")

	// zoomed in, the map names its armies
	if eval[bool](p, `getComputedStyle(document.querySelector('#map .army-name')).display !== 'none'`) {
		t.Error("the armies' names show on the map fitted to its frame")
	}
	for range 4 {
		p.do("zooming in", chromedp.Click(chromedp.ID("zoom-in")))
	}
	p.until("the names shown", `document.querySelector('#map svg').classList.contains('named') && getComputedStyle(document.querySelector('#map .army-name')).display !== 'none' && document.querySelector('#map .army[data-army="Hanna"] .army-name').textContent === 'Hanna'`)
	p.shot("map-zoomed-names")

	// a hidden tab asks nothing
	count := `performance.getEntriesByType('resource').filter((e) => /\/api\/campaigns\/1\/map$/.test(e.name)).length`
	p.do("hiding the tab", chromedp.Evaluate[chromedp.Void](`Object.defineProperty(document, 'hidden', {configurable: true, get: () => true}); window.mapAsks = `+count))
	p.do("waiting a second", chromedp.Sleep(1500))
	if n := eval[int](p, count+` - window.mapAsks`); n > 1 {
		t.Errorf("the hidden tab asked for the map %d times in 1.5 s", n)
	}
	p.do("showing the tab", chromedp.Evaluate[chromedp.Void](`Object.defineProperty(document, 'hidden', {configurable: true, get: () => false}); window.mapAsks = `+count+`; document.dispatchEvent(new Event('visibilitychange'))`))
	p.until("the map asked for again", count+` - window.mapAsks >= 2`)
}

// TestBrowserThreads: beside her orders Hanna writes a comment in the public thread (not an
// order: no post is made of it) and one to her side; Gix of Phyrexia reads the comment, never
// the side's; Barrin, the movement judge, hides the comment with a reason, and Gix then sees
// who hid it and why, not its text.
func TestBrowserThreads(t *testing.T) {
	b := browser(t)
	d := startDemo(t)
	const comment, plan = "Hanna: 3G > 4G — meet me at the forest", "zz our side's plan zz"
	hanna := newTab(t, b, "Hanna")
	hanna.open(d.base, "/")
	hanna.login("Hanna", d.passwords["Hanna"])
	hanna.view("orders")
	hanna.until("the thread beside the orders", `document.querySelector('#threads #message-form') && document.querySelector('#thread-list')`)
	hanna.do("writing a comment", chromedp.SendKeys(chromedp.ID("message-text"), comment), chromedp.Click(chromedp.ID("message-send")))
	hanna.until("the comment in the public thread", `[...document.querySelectorAll('#thread-list li.comment .text')].some((x) => x.textContent === `+jsString(comment)+`)`)
	var posts []struct{ Text string }
	d.call("GET", "/api/campaigns/1/turns/1/posts", "", nil, http.StatusOK, &posts)
	if len(posts) != 0 {
		t.Errorf("the comment became a post: %+v", posts)
	}
	hanna.channel("choosing her side's channel", "side")
	hanna.do("writing to her side", chromedp.SendKeys(chromedp.ID("message-text"), plan), chromedp.Click(chromedp.ID("message-send")))
	hanna.until("the side's message", `[...document.querySelectorAll('#thread-list li.comment')].some((x) => x.textContent.includes(`+jsString(plan)+`) && x.textContent.includes('coalition only'))`)
	hanna.shot("threads-player")
	hanna.named("the threads beside the orders")

	gix := newTab(t, b, "Gix")
	gix.open(d.base, "/")
	gix.login("Gix", d.passwords["Gix"])
	gix.view("thread")
	gix.until("Hanna's comment", `document.querySelector('#thread-list') && document.querySelector('#thread-list').textContent.includes(`+jsString(comment)+`)`)
	gix.channel("choosing his side's channel", "side")
	gix.until("his side's channel, empty", `/Nothing yet/.test(document.querySelector('#thread-list').textContent)`)
	if strings.Contains(eval[string](gix, `document.body.textContent`), "our side's plan") {
		t.Error("Gix reads the Coalition's channel")
	}

	barrin := newTab(t, b, "Barrin")
	barrin.open(d.base, "/")
	barrin.login("Barrin", d.passwords["Barrin"])
	barrin.view("thread")
	barrin.until("the comment with its hide button", `document.querySelector('#thread-list li.comment .hide-form')`)
	barrin.do("hiding the comment",
		chromedp.SendKeys(chromedp.CSS(`#thread-list li.comment .hide-form input`), "orders go in posts, not comments"),
		chromedp.Click(chromedp.CSS(`#thread-list li.comment .hide-form button`)))
	barrin.until("the comment hidden", `/Hidden by Barrin: orders go in posts, not comments/.test(document.querySelector('#thread-list').textContent)`)
	barrin.channel("reading the sides' channels", "side")
	barrin.until("the Coalition's message, which the judges moderate", `document.querySelector('#thread-list').textContent.includes(`+jsString(plan)+`)`)
	barrin.shot("threads-judge")

	gix.channel("reading the public thread again", "public")
	gix.until("the comment hidden, its reason shown", `/Hidden by Barrin: orders go in posts, not comments/.test(document.querySelector('#thread-list').textContent)`)
	if strings.Contains(eval[string](gix, `document.querySelector('#thread-list').textContent`), "meet me at the forest") {
		t.Error("Gix still reads the hidden comment")
	}
	gix.shot("threads-hidden")
}

// TestBrowserJudgeConsoleOpenTurn: the movement judge sees every post of the open turn with each
// line's outcome before the lock — Gix's line for Hanna's army rejected not_controller (5.4.1) —
// why the deadline is what it is, help that says stratless battles settle themselves (B2), a
// map wider than 700 px, and sections that fold. After an extension and an early lock, turn 2's
// explanation says the schedule was kept (R49).
func TestBrowserJudgeConsoleOpenTurn(t *testing.T) {
	b := browser(t)
	d := startDemo(t)
	d.call("POST", "/api/campaigns/1/posts", d.login("Hanna", d.passwords["Hanna"]), map[string]string{"text": "Hanna: 3G > 6G"}, http.StatusCreated, nil)
	d.call("POST", "/api/campaigns/1/posts", d.login("Gix", d.passwords["Gix"]), map[string]string{"text": "Hanna: 3G > 4G\nGix: no move"}, http.StatusCreated, nil)
	p := newTab(t, b, "judge")
	p.open(d.base, "/")
	p.login("Barrin", d.passwords["Barrin"])
	p.view("judge")
	p.until("the open turn's posts", `document.querySelectorAll('#judge-posts li.post').length === 2`)
	p.until("each line's outcome", `document.querySelector('#judge-posts li.post[data-post="1"] .check.accepted') && document.querySelector('#judge-posts li.post[data-post="2"] .check.rejected[data-code="not_controller"]') && document.querySelector('#judge-posts li.post[data-post="2"] .check.accepted')`)
	if got := eval[string](p, `document.querySelector('#judge-posts-count').textContent`); got != "2 posts: 2 lines accepted, 0 with a warning, 1 rejected." {
		t.Errorf("the count reads %q", got)
	}
	p.until("why the deadline", `/Turn 1's battle deadline, .* was set when the campaign was created/.test(document.querySelector('#deadline-rules').textContent)`)
	if got := eval[string](p, `document.querySelector('#results-help').textContent`); !strings.Contains(got, "settles itself at the lock") || strings.Contains(got, "needs a result for every battle") {
		t.Errorf("the results' help reads %q", got)
	}
	if w := eval[float64](p, `document.querySelector('#map svg').getBoundingClientRect().width`); w < 700 {
		t.Errorf("the judge's map is %.0f px wide", w)
	}
	p.shot("judge-open-turn")
	p.do("folding the audit log", chromedp.Click(chromedp.CSS(`#judge-audit button.fold-toggle`)))
	p.until("the audit log folded", `document.querySelector('#judge-audit-section').classList.contains('folded') && document.querySelector('#judge-audit button').getAttribute('aria-expanded') === 'false' && !document.querySelector('table.audit').offsetParent`)
	p.do("unfolding it", chromedp.Click(chromedp.CSS(`#judge-audit button.fold-toggle`)))
	p.until("the audit log open", `!document.querySelector('#judge-audit-section').classList.contains('folded') && document.querySelector('table.audit').offsetParent`)
	p.do("extending by 2 hours", chromedp.SetValue(chromedp.ID("extend-hours"), "2"), chromedp.SendKeys(chromedp.ID("extend-reason"), "a late player"),
		chromedp.Click(chromedp.CSS(`#extend-form button`)))
	p.until("the extension explained", `/A judge extended turn 1 by 2h/.test(document.querySelector('#deadline-rules').textContent)`)
	p.do("locking early", chromedp.SendKeys(chromedp.ID("lock-reason"), "everyone has posted"), chromedp.Click(chromedp.ID("lock-now")))
	p.until("turn 2's deadline explained", `/Turn 2's battle deadline follows turn 1's/.test(document.querySelector('#deadline-rules').textContent) && /locked early/.test(document.querySelector('#deadline-rules').textContent) && /was for turn 1 alone/.test(document.querySelector('#deadline-rules').textContent)`)
	p.shot("judge-deadline-explained")
	p.named("the judge console")
}

// TestBrowserBattleJudgeConsoleFits: the battle judge's console, with a battle, its sanctions
// and five formulas, no longer runs to thousands of pixels: the formulas and reports start
// folded, and the map stays wide.
func TestBrowserBattleJudgeConsoleFits(t *testing.T) {
	b := browser(t)
	s, pw := startBattle(t)
	p := newTab(t, b, "battle judge")
	p.open(s.base, "/")
	p.login("Bea", pw["Bea"])
	p.view("judge")
	p.until("the console", `document.querySelector('#judge-battles-section form.result') && document.querySelector('#formula-list form.formula')`)
	h := eval[float64](p, `document.documentElement.scrollHeight`)
	if h > 3000 {
		t.Errorf("the battle judge's console is %.0f px tall", h)
	}
	if w := eval[float64](p, `document.querySelector('#map svg').getBoundingClientRect().width`); w < 700 {
		t.Errorf("the map is %.0f px wide", w)
	}
	t.Logf("the battle judge's console: %.0f px tall", h)
	p.shot("battle-judge-console")
}

// TestBrowserPasswordReset: the admin resets Hanna's password from the judge console; Hanna logs
// in with the new one and is asked to choose her own before anything else, then has her page.
func TestBrowserPasswordReset(t *testing.T) {
	b := browser(t)
	d := startDemo(t)
	adm := newTab(t, b, "admin")
	adm.open(d.base, "/")
	adm.login("admin", e2eAdminPassword)
	adm.view("judge")
	adm.do("resetting Hanna's password", chromedp.SendKeys(chromedp.ID("reset-name"), "Hanna"), chromedp.Click(chromedp.ID("reset-button")))
	adm.until("the new password shown", `/Hanna’s new password: \S+ \(shown this once\)/.test(document.querySelector('#reset-msg').textContent)`)
	adm.shot("admin-reset-password")
	given := strings.Fields(strings.SplitAfter(eval[string](adm, `document.querySelector('#reset-msg').textContent`), "new password: ")[1])[0]
	p := newTab(t, b, "Hanna")
	p.open(d.base, "/")
	p.login("Hanna", given)
	p.until("the change asked for", `document.body.dataset.view === 'password' && document.querySelector('#change-form')`)
	p.axe("the forced password change")
	p.shot("password-change-asked")
	p.do("choosing a new password", chromedp.SendKeys(chromedp.ID("change-old"), given), chromedp.SendKeys(chromedp.ID("change-new"), "hanna-rides-again"),
		chromedp.Click(chromedp.CSS(`#change-form button`)))
	p.until("her page", `document.body.dataset.view === 'map' && document.querySelector('#tabs a[href="#orders"]')`)
	d.login("Hanna", "hanna-rides-again")
}

// unfold opens a folded section of the judge console by its heading's button.
// channel chooses a thread's channel and waits until it is the one shown.
func (p *tab) channel(what, name string) {
	p.t.Helper()
	sel := `.channels button[data-channel="` + name + `"]`
	p.clickUntil(what, sel, `document.querySelector('`+sel+`') && document.querySelector('`+sel+`').getAttribute('aria-checked') === 'true'`)
}

func (p *tab) unfold(id string) {
	p.t.Helper()
	p.clickUntil("unfolding "+id, `#`+id+` button.fold-toggle`, `!document.querySelector('#`+id+`-section').classList.contains('folded')`)
}

// TestBrowserNotificationsTab: Hanna chooses on the Notifications tab to receive locks and her
// reminders at a webhook; the server keeps her choice, shows her the signing secret and the
// feed's address, and her webhook gets the lock.
func TestBrowserNotificationsTab(t *testing.T) {
	b := browser(t)
	hooks := notifytest.StartWebhooks(t)
	d := startDemo(t)
	p := newTab(t, b, "Hanna")
	p.open(d.base, "/")
	p.login("Hanna", d.passwords["Hanna"])
	p.view("notifications")
	p.until("the choices", `document.querySelectorAll('#notify-form input[name="kind"]').length === 10 && document.querySelector('#feed-link')`)
	p.do("choosing locks and reminders",
		chromedp.Click(chromedp.CSS(`#notify-form input[value="lock"]`)), chromedp.Click(chromedp.CSS(`#notify-form input[value="reminder-orders"]`)),
		chromedp.SendKeys(chromedp.ID("notify-url"), hooks.URL+"/hanna"), chromedp.Click(chromedp.ID("notify-save")))
	p.until("saved, with the secret", `/you receive 2 kinds/.test(document.querySelector('#notify-msg').textContent) && /[0-9a-f]{48}/.test(document.querySelector('#notify-secret').textContent)`)
	p.shot("notifications")
	var v struct {
		Subscription struct {
			Kinds      []string
			WebhookURL string `json:"webhook_url"`
		}
	}
	d.call("GET", "/api/campaigns/1/notifications", d.login("Hanna", d.passwords["Hanna"]), nil, http.StatusOK, &v)
	if strings.Join(v.Subscription.Kinds, ",") != "lock,reminder-orders" || v.Subscription.WebhookURL != hooks.URL+"/hanna" {
		t.Errorf("the server keeps %+v", v.Subscription)
	}
	d.call("POST", "/api/campaigns/1/turns/1/lock", d.login("Barrin", d.passwords["Barrin"]), map[string]string{"reason": "test"}, http.StatusOK, nil)
	if h := hooks.WaitHooks(t, 1); h[0].Path != "/hanna" || !strings.Contains(string(h[0].Body), `"kind":"lock"`) {
		t.Errorf("the webhook got %s %s", h[0].Path, h[0].Body)
	}
	p.named("the notifications tab")
}
