package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The browser tests drive Debian's chromium (headless, STACK-NOTES) against the real program
// started by run on a random port: the pages served by `coalition serve` itself, the API
// behind them, the demo campaign. Without chromium they skip, unless CI=true.

// chromiumPath finds the browser: $CHROMIUM, or chromium on the PATH.
func chromiumPath() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// artifacts is where screenshots go: $ARTIFACTS_DIR, or testdata/artifacts (ignored by git).
func artifacts(t *testing.T) string {
	dir := os.Getenv("ARTIFACTS_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "testdata", "artifacts")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		t.Fatal(err)
	}
	return abs
}

// browser starts a headless chromium with a fresh profile for one test.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed and CI=true: the browser tests must run (apt-get install -y chromium)")
		}
		t.Skip("chromium is not installed (apt-get install -y chromium): skipping the browser tests")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting chromium (%s): %v", path, err)
	}
	return ctx
}

// tab is one browser tab of a test, with the page errors it has seen.
type tab struct {
	t    *testing.T
	ctx  context.Context
	name string
	mu   sync.Mutex
	errs []string
}

// newTab opens a tab; every script exception and console error in it fails the test.
func newTab(t *testing.T, b context.Context, name string) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b)
	t.Cleanup(cancel)
	p := &tab{t: t, ctx: ctx, name: name}
	err := chromedp.Listen(ctx, func(ev any) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			p.errs = append(p.errs, "exception: "+ev.ExceptionDetails.Text+" "+describeException(ev.ExceptionDetails))
		case *cdplog.EventEntryAdded:
			// A refused request (4xx) is the server speaking, which the pages show; anything
			// else logged as an error (a CSP violation, a script error) is a defect.
			if ev.Entry.Level == cdplog.EntryLevelError && ev.Entry.Source != cdplog.EntrySourceNetwork {
				p.errs = append(p.errs, fmt.Sprintf("console %s: %s", ev.Entry.Source, ev.Entry.Text))
			}
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				p.errs = append(p.errs, "console.error called")
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, e := range p.errs {
			t.Errorf("%s tab: %s", name, e)
		}
	})
	return p
}

func describeException(d *runtime.ExceptionDetails) string {
	if d == nil || d.Exception == nil {
		return ""
	}
	return d.Exception.Description + fmt.Sprintf(" (%s:%d)", d.URL, d.LineNumber)
}

// do runs actions with a time limit; on failure it saves a screenshot and stops the test.
func (p *tab) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.fail(what, err)
	}
}

func (p *tab) fail(what string, err error) {
	p.t.Helper()
	p.shot("failure-" + strings.ReplaceAll(p.t.Name(), "/", "-") + "-" + p.name)
	p.t.Logf("%s tab at the failure: %s", p.name, p.state())
	p.t.Fatalf("%s (%s tab): %v", what, p.name, err)
}

// state says what the page shows, for a failure's log: the view, the panel's sections and the
// messages in sight.
func (p *tab) state() string {
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`'view ' + document.body.dataset.view + ', tabs ' + document.querySelector('#tabs').textContent +
		', sections ' + [...document.querySelectorAll('#panel h3')].map((x) => x.textContent).join('; ') +
		', messages ' + [...document.querySelectorAll('[role="status"]:not([hidden]), [role="alert"]:not([hidden])')].map((x) => x.textContent.trim()).filter(Boolean).join(' / ')`))
	if err != nil {
		return err.Error()
	}
	return s
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](p *tab, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.fail("evaluating "+expr, err)
	}
	return v
}

// until waits for a JavaScript expression to be true. (chromedp.Poll builds its predicate
// with new Function, which the pages' Content-Security-Policy rightly refuses.)
func (p *tab) until(what, expr string) {
	p.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("!!("+expr+")"))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("still false after 20s: %s", expr)
			}
			p.fail("waiting for "+what, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// shot saves a screenshot of the whole page as NAME.png in the artifacts folder.
func (p *tab) shot(name string) string {
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
		return ""
	}
	file := filepath.Join(artifacts(p.t), name+".png")
	if err := os.WriteFile(file, buf, 0o644); err != nil {
		p.t.Errorf("saving %s: %v", file, err)
	}
	p.t.Logf("screenshot: %s", file)
	return file
}

// open loads the application at path and waits until the map is drawn.
func (p *tab) open(base, path string) {
	p.t.Helper()
	p.do("opening "+path, chromedp.Navigate(base+path))
	p.until("the map", `document.body.dataset.ready === 'true' && document.querySelectorAll('#map .army').length > 0`)
	p.axe(path)
}

// view opens a tab of the application (map, orders, battles, judge) and waits until it shows.
// The link is clicked from the page itself: after a login the header's links are drawn again,
// and a click at where the link was may land on another (a judge's Judge link where Threads was).
func (p *tab) view(name string) {
	p.t.Helper()
	p.clickUntil("opening the "+name+" tab", `#tabs a[href="#`+name+`"]`, `document.body.dataset.view === `+jsString(name))
	p.axe("the " + name + " tab")
}

// clickUntil clicks the element sel until the JavaScript expression done is true: on a loaded
// machine a click can miss — the page redraws the element between chromedp finding it and
// clicking it ("Could not find node"), or shifts it under the pointer — so a click whose effect
// has not shown within a few seconds is made again, while done is still false.
func (p *tab) clickUntil(what, sel, done string) {
	p.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		if eval[bool](p, "!!("+done+")") {
			return
		}
		ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		last = chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel)))
		cancel()
		for wait := time.Now().Add(3 * time.Second); time.Now().Before(wait); time.Sleep(50 * time.Millisecond) {
			if eval[bool](p, "!!("+done+")") {
				return
			}
		}
	}
	if last == nil {
		last = fmt.Errorf("still false after 30s: %s", done)
	}
	p.fail(what, last)
}

// unnamed lists the page's visible controls and army markers that have no accessible name:
// no label, no aria-label, no text.
func (p *tab) unnamed() []string {
	p.t.Helper()
	return eval[[]string](p, `[...document.querySelectorAll('input, select, textarea, button, [role="button"], a[href]')]
		.filter((el) => el.getClientRects().length > 0 && el.type !== 'hidden')
		.filter((el) => !(el.getAttribute('aria-label') || '').trim() && !(el.labels && [...el.labels].some((l) => l.textContent.trim()))
			&& !((el.tagName === 'BUTTON' || el.tagName === 'A') && el.textContent.trim()))
		.map((el) => el.outerHTML.slice(0, 120))`)
}

// named fails the test when a control or marker of the page has no accessible name.
func (p *tab) named(where string) {
	p.t.Helper()
	if bad := p.unnamed(); len(bad) > 0 {
		p.t.Errorf("%s: %d controls have no accessible name: %q", where, len(bad), bad)
	}
}

// login logs in through the form in the page's header, and waits until the page has read the
// campaign again as the account sees it (its tabs drawn for a logged-in reader: Notifications).
func (p *tab) login(name, password string) {
	p.t.Helper()
	p.do("logging in as "+name,
		chromedp.SendKeys(chromedp.ID("login-name"), name),
		chromedp.SendKeys(chromedp.ID("login-password"), password),
		chromedp.Click(chromedp.CSS(`#login button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.ID("who")))
	// on the application (not the round setup page, which has no tabs) the login is done when
	// the campaign has been read again as the account sees it
	p.until("the campaign as "+name+" sees it", `!document.querySelector('#tabs') || document.querySelector('#tabs a[href="#notifications"]')`)
}

// demo is a server running the demo campaign, with its accounts' passwords.
type demo struct {
	*server
	passwords map[string]string
}

var demoAccount = regexp.MustCompile(`(?m)^  (\S.*?)\s+(\S{12,})\s+\S`)

func startDemo(t *testing.T) *demo {
	s := startServer(t, "--demo", "--lock-tick", "off", "--webhook-private")
	d := &demo{server: s, passwords: map[string]string{}}
	for _, m := range demoAccount.FindAllStringSubmatch(s.stdout.String(), -1) {
		d.passwords[m[1]] = m[2]
	}
	if d.passwords["Hanna"] == "" || d.passwords["Barrin"] == "" {
		t.Fatalf("no demo passwords in:\n%s", s.stdout.String())
	}
	return d
}

type mapArmy struct {
	Name, Side, At string
}

type mapView struct {
	Turn    int
	Terrain [][]string
	Sites   []struct{ At string }
	Armies  []mapArmy
}

func (d *demo) currentMap(t *testing.T) mapView {
	var m mapView
	d.call("GET", "/api/campaigns/1/map", "", nil, http.StatusOK, &m)
	return m
}

// freeSquares are empty plains squares within three steps of the army (3.2.2.1), no site on
// them.
func freeSquares(t *testing.T, m mapView, army string) (from string, to []string) {
	t.Helper()
	used := map[string]bool{}
	for _, a := range m.Armies {
		used[a.At] = true
		if a.Name == army {
			from = a.At
		}
	}
	for _, s := range m.Sites {
		used[s.At] = true
	}
	var col int
	var row byte
	if _, err := fmt.Sscanf(from, "%d%c", &col, &row); err != nil {
		t.Fatalf("%s is at %q: %v", army, from, err)
	}
	for _, d := range [][2]int{{2, 0}, {-2, 0}, {3, 0}, {-3, 0}, {0, 2}, {0, -2}, {2, 1}, {2, -1}, {1, 1}, {1, -1}, {0, 3}, {0, -3}, {1, 2}, {1, -2}} {
		c, r := col+d[0], int(row-'A')+d[1]
		if c < 1 || c > len(m.Terrain[0]) || r < 0 || r >= len(m.Terrain) {
			continue
		}
		sq := fmt.Sprintf("%d%c", c, 'A'+r)
		if !used[sq] && m.Terrain[r][c-1] == "plains" {
			to = append(to, sq)
		}
	}
	if len(to) < 2 {
		t.Fatalf("no two free squares near %s at %s", army, from)
	}
	return from, to
}

func freeSquare(t *testing.T, m mapView, army string) (from, to string) {
	from, sqs := freeSquares(t, m, army)
	return from, sqs[0]
}

// TestBrowserOrderByClickAndLock is the player's and the judge's evening: Hanna logs in,
// chooses her army and clicks its destination on the map, sees the line accepted as she
// goes and posts it; Barrin, the movement judge, is refused an extension beyond the cap
// (the server's words shown), then locks the turn from his console; Hanna's page, never
// reloaded, redraws her army on its new square.
func TestBrowserOrderByClickAndLock(t *testing.T) {
	b := browser(t)
	d := startDemo(t)
	from, sqs := freeSquares(t, d.currentMap(t), "Hanna")
	first, to := sqs[1], sqs[0]

	hanna := newTab(t, b, "player")
	hanna.open(d.base, "/?poll=300")
	hanna.do("opening the legend", chromedp.Click(chromedp.CSS(`#legend summary`)))
	hanna.until("the legend of terrain, sites and armies", `document.querySelectorAll('#legend-body li').length >= 6 + 9 + 3`)
	hanna.shot("map")
	hanna.named("the map")
	if n := eval[int](hanna, `document.querySelectorAll('#map .army[aria-label][role="button"][tabindex="0"] title').length`); n != eval[int](hanna, `document.querySelectorAll('#map .army').length`) || n < 90 {
		t.Errorf("%d army markers of %d have a text alternative and a keyboard stop", n, eval[int](hanna, `document.querySelectorAll('#map .army').length`))
	}
	hanna.login("Hanna", d.passwords["Hanna"])
	hanna.view("orders")
	hanna.do("waiting for the armies", chromedp.WaitVisible(chromedp.CSS(`#my-armies button[data-army="Hanna"]`)))
	hanna.do("marking the page", chromedp.Evaluate[chromedp.Void](`window.notReloaded = true`))
	hanna.do("choosing Hanna's army", chromedp.Click(chromedp.CSS(`#my-armies button[data-army="Hanna"]`)))
	hanna.until("the army chosen", `document.querySelector('#map .army.selected[data-army="Hanna"]')`)
	hanna.do("clicking the destination "+first, chromedp.Click(chromedp.CSS(`#map rect[data-sq="`+first+`"]`)))
	hanna.until("the line written", `document.querySelector('#order-text').value.trim() === `+jsString("Hanna: "+from+" > "+first))
	hanna.until("the line checked and accepted", `document.querySelector('#order-check li[data-status="accepted"]')`)
	hanna.until("the arrow on the map", `document.querySelector('#map .orders polyline.accepted')`)
	hanna.do("posting", chromedp.Click(chromedp.ID("order-post")))
	hanna.until("the post confirmed", `/Posted as post 1 \(public\): 1 of 1 line accepted/.test(document.querySelector('#order-done').textContent)`)
	// Second thoughts: edit the post, clicking another destination (M2: the edit is the latest order).
	hanna.do("editing the post", chromedp.Click(chromedp.CSS(`#my-posts button[aria-label="Edit post 1"]`)))
	hanna.until("the post in the box", `document.querySelector('#order-text').value.includes(`+jsString(first)+`) && /post 1/.test(document.querySelector('#order-post').textContent)`)
	hanna.do("clicking the destination "+to, chromedp.Click(chromedp.CSS(`#map rect[data-sq="`+to+`"]`)))
	line := "Hanna: " + from + " > " + to
	hanna.until("the line rewritten and accepted", `document.querySelector('#order-text').value.trim() === `+jsString(line)+` && document.querySelector('#order-check li[data-status="accepted"] code').textContent === `+jsString(line))
	hanna.do("saving the edit", chromedp.Click(chromedp.ID("order-post")))
	hanna.until("the edit confirmed", `/Post 1 replaced by post 2/.test(document.querySelector('#order-done').textContent)`)
	hanna.until("only the new post listed", `document.querySelectorAll('#my-posts li.post').length === 1 && document.querySelector('#my-posts li.post pre').textContent === `+jsString(line))
	hanna.shot("order-desk")
	hanna.named("the order desk")

	barrin := newTab(t, b, "judge")
	barrin.open(d.base, "/")
	barrin.login("Barrin", d.passwords["Barrin"])
	barrin.view("judge")
	barrin.do("asking for too long an extension",
		chromedp.SetValue(chromedp.ID("extend-hours"), "100"),
		chromedp.SendKeys(chromedp.ID("extend-reason"), "too long"),
		chromedp.Click(chromedp.CSS(`#extend-form button`)))
	barrin.until("the server's refusal shown", `document.querySelector('#judge-turn').parentElement.querySelector('.notice.error') && /may be extended by at most/.test(document.querySelector('#judge-turn').parentElement.querySelector('.notice.error').textContent)`)
	barrin.do("locking the turn",
		chromedp.SendKeys(chromedp.ID("lock-reason"), "browser test"),
		chromedp.Click(chromedp.ID("lock-now")))
	barrin.until("the lock confirmed", `/Turn 1 is locked/.test(document.querySelector('#judge-turn').parentElement.textContent)`)
	barrin.until("the lock report shown", `document.querySelector('#report-text') && document.querySelector('#report-text').textContent.length > 0`)
	barrin.shot("judge-console")
	barrin.named("the judge console")

	hanna.until("Hanna redrawn on "+to+" without a reload", `window.notReloaded === true && document.querySelector('#map .army[data-army="Hanna"]').dataset.sq === `+jsString(to))
	hanna.until("the turn slider at turn 2", `document.querySelector('#turn').max === '2' && !document.querySelector('#turn').disabled`)
	if got := d.currentMap(t); got.Turn != 2 {
		t.Fatalf("the server's map is at turn %d after the lock", got.Turn)
	}
	hanna.view("map")
	hanna.do("clicking an enemy army", chromedp.Click(chromedp.CSS(`#map .army[data-army="Gix"]`)))
	hanna.until("its details and troops", `document.querySelector('#army-info h3').textContent === 'Gix' && document.querySelectorAll('#army-info table.troops tbody tr').length === 4 && /Chief Praetor of Phyrexia/.test(document.querySelector('#army-info').textContent)`)
	// The slider shows turn 1 with its move as an arrow.
	hanna.do("showing turn 1", chromedp.SetValue(chromedp.ID("turn"), "1"), chromedp.Evaluate[chromedp.Void](`document.querySelector('#turn').dispatchEvent(new Event('input'))`))
	hanna.until("turn 1's move drawn", `document.querySelectorAll('#map .moves polyline').length >= 1 && document.querySelector('#map .army[data-army="Hanna"]').dataset.sq === `+jsString(from))
	hanna.shot("map-turn-1-moves")
	hanna.do("checking turn 1's dice", chromedp.Click(chromedp.ID("check-dice")))
	hanna.until("the dice checked", `/The dice check out: the seed's SHA-256 is the commitment/.test(document.querySelector('#panel').textContent)`)
}

// TestBrowserKeyboardOrder drives the order desk without the mouse: focus the army's marker,
// Enter starts its line, the destination is typed, Tab reaches the post button (its focus
// visible) and Enter posts; Tab and Enter withdraw it again.
func TestBrowserKeyboardOrder(t *testing.T) {
	b := browser(t)
	d := startDemo(t)
	from, to := freeSquare(t, d.currentMap(t), "Hanna")
	p := newTab(t, b, "keyboard")
	p.open(d.base, "/#orders")
	p.login("Hanna", d.passwords["Hanna"])
	p.until("the order desk", `location.hash === '#orders' && document.querySelector('#my-armies button[data-army="Hanna"]')`)
	p.do("focusing Hanna's marker", chromedp.Focus(chromedp.CSS(`#map .army[data-army="Hanna"]`)))
	p.until("the tooltip of the focused marker", `!document.querySelector('#tooltip').hidden && /Controlled by Hanna/.test(document.querySelector('#tooltip').textContent) && /troops alive/.test(document.querySelector('#tooltip').textContent)`)
	if style := eval[string](p, `getComputedStyle(document.querySelector('#map .army[data-army="Hanna"] .ring')).stroke`); style == "none" {
		t.Errorf("the focused army marker shows no focus ring")
	}
	p.do("pressing Enter on it", pressEnter)
	p.until("the line started in the box, which has the focus", `document.activeElement.id === 'order-text' && document.activeElement.value === `+jsString("Hanna: "+from+" > "))
	p.do("typing the destination", chromedp.KeyEvent(to))
	p.until("the line accepted", `document.querySelector('#order-check li[data-status="accepted"]')`)
	for i := 0; i < 8 && eval[string](p, `document.activeElement.id`) != "order-post"; i++ {
		p.do("pressing Tab", chromedp.KeyEvent("\t"))
	}
	if id := eval[string](p, `document.activeElement.id`); id != "order-post" {
		t.Fatalf("Tab from the box never reached the post button (the focus is on %q)", id)
	}
	if style := eval[string](p, `getComputedStyle(document.activeElement).outlineStyle`); style == "none" {
		t.Errorf("the focused post button shows no focus outline")
	}
	p.do("pressing Enter", chromedp.KeyEvent("\r"))
	p.until("the post confirmed", `/Posted as post \d+/.test(document.querySelector('#order-done').textContent)`)
	p.until("the post listed", `document.querySelector('#my-posts li.post button[aria-label^="Withdraw post"]')`)
	for i := 0; i < 8 && !eval[bool](p, `(document.activeElement.getAttribute('aria-label') || '').startsWith('Withdraw post')`); i++ {
		p.do("pressing Tab", chromedp.KeyEvent("\t"))
	}
	if label := eval[string](p, `document.activeElement.getAttribute('aria-label') || document.activeElement.id || document.activeElement.tagName`); !strings.HasPrefix(label, "Withdraw post") {
		t.Fatalf("Tab from the post button never reached Withdraw (the focus is on %q)", label)
	}
	p.do("pressing Enter on Withdraw", chromedp.KeyEvent("\r"))
	p.until("the post withdrawn", `/withdrawn/.test(document.querySelector('#order-done').textContent) && !document.querySelector('#my-posts li.post')`)
	var posts []struct {
		WithdrawnAt *time.Time `json:"withdrawn_at"`
	}
	d.call("GET", "/api/campaigns/1/turns/1/posts", d.login("Hanna", d.passwords["Hanna"]), nil, http.StatusOK, &posts)
	if len(posts) != 1 || posts[0].WithdrawnAt == nil {
		t.Fatalf("the server has %d posts, want the one withdrawn: %+v", len(posts), posts)
	}
}

// TestBrowserPageWeight loads the map page as a visitor and weighs every request of the
// first round: under 200 KB in all, and nothing from another host.
func TestBrowserPageWeight(t *testing.T) {
	b := browser(t)
	d := startDemo(t)
	p := newTab(t, b, "visitor")
	host := strings.TrimPrefix(d.base, "http://")
	var mu sync.Mutex
	urls := map[network.RequestID]string{}
	size := map[network.RequestID]float64{}
	if err := chromedp.Listen(p.ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			urls[ev.RequestID] = ev.Request.URL
		case *network.EventLoadingFinished:
			size[ev.RequestID] = ev.EncodedDataLength
		case *network.EventLoadingFailed:
			size[ev.RequestID] = 0
		}
	}); err != nil {
		t.Fatal(err)
	}
	p.open(d.base, "/")
	// The first round is over when every request has finished and nothing new starts.
	for quiet := 0; quiet < 10; time.Sleep(50 * time.Millisecond) {
		mu.Lock()
		done := len(size) == len(urls)
		mu.Unlock()
		if done {
			quiet++
		} else {
			quiet = 0
		}
	}
	mu.Lock()
	defer mu.Unlock()
	var total float64
	var lines []string
	for id, u := range urls {
		pu, err := url.Parse(u)
		if err != nil || pu.Host != host {
			t.Errorf("the page loads %s, which is not from the server %s", u, host)
		}
		total += size[id]
		lines = append(lines, fmt.Sprintf("%8.0f  %s", size[id], u))
	}
	report := fmt.Sprintf("%d requests, %.0f bytes in all (budget 204800):\n%s\n", len(urls), total, strings.Join(lines, "\n"))
	t.Log(report)
	if err := os.WriteFile(filepath.Join(artifacts(t), "page-weight.txt"), []byte(report), 0o644); err != nil {
		t.Error(err)
	}
	if len(urls) < 4 {
		t.Fatalf("only %d requests recorded: the measure is broken", len(urls))
	}
	if total >= 200*1024 {
		t.Errorf("the map page costs %.0f bytes, over the 200 KB budget", total)
	}
}

// TestBrowserPhone shows the map and the order desk on a phone-sized screen (390 × 844): the
// page is no wider than the screen (the map scrolls inside its frame) and the zoom buttons
// change the map's size.
func TestBrowserPhone(t *testing.T) {
	b := browser(t)
	d := startDemo(t)
	p := newTab(t, b, "phone")
	p.do("a phone-sized screen", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)))
	p.open(d.base, "/")
	if w := eval[bool](p, `document.documentElement.scrollWidth <= window.innerWidth`); !w {
		t.Errorf("the page is wider than the phone's screen: %v > %v", eval[float64](p, `document.documentElement.scrollWidth`), eval[float64](p, `window.innerWidth`))
	}
	before := eval[float64](p, `document.querySelector('#map svg').getBoundingClientRect().width`)
	p.do("zooming in", chromedp.Click(chromedp.ID("zoom-in")))
	if after := eval[float64](p, `document.querySelector('#map svg').getBoundingClientRect().width`); after <= before {
		t.Errorf("zooming in left the map %v wide (was %v)", after, before)
	}
	p.do("zooming back", chromedp.Click(chromedp.ID("zoom-out")))
	p.shot("phone-map")
	p.login("Hanna", d.passwords["Hanna"])
	p.view("orders")
	p.do("waiting for the armies", chromedp.WaitVisible(chromedp.CSS(`#my-armies button[data-army="Hanna"]`)))
	if w := eval[bool](p, `document.documentElement.scrollWidth <= window.innerWidth`); !w {
		t.Errorf("the order desk is wider than the phone's screen")
	}
	p.shot("phone-order-desk")
}

// TestBrowserRefusalShown shows the server's own words when it refuses something: a wrong
// password (401) and a post while the campaign is paused (409) appear with their problem detail.
func TestBrowserRefusalShown(t *testing.T) {
	b := browser(t)
	d := startDemo(t)
	judge := d.login("Barrin", d.passwords["Barrin"])
	p := newTab(t, b, "player")
	p.open(d.base, "/#orders")
	p.do("logging in with a wrong password", chromedp.SendKeys(chromedp.ID("login-name"), "Hanna"),
		chromedp.SendKeys(chromedp.ID("login-password"), "not her password"), chromedp.Click(chromedp.CSS(`#login button[type="submit"]`)))
	p.until("the login refusal shown", `!document.querySelector('#login-problem').hidden && document.querySelector('#login-problem').textContent.length > 10`)
	raw := d.call("POST", "/api/login", "", map[string]string{"name": "Hanna", "password": "not her password"}, http.StatusUnauthorized, nil)
	var refused struct{ Detail string }
	_ = json.Unmarshal(raw, &refused)
	if got := eval[string](p, `document.querySelector('#login-problem').textContent`); got != refused.Detail {
		t.Errorf("the login form shows %q, the server said %q", got, refused.Detail)
	}
	p.do("clearing the form", chromedp.Evaluate[chromedp.Void](`document.querySelector('#login').reset()`))
	p.login("Hanna", d.passwords["Hanna"])
	p.until("the order desk", `document.querySelector('#order-text')`)
	d.call("POST", "/api/campaigns/1/pause", judge, map[string]string{"reason": "the judges are away"}, http.StatusOK, nil)
	p.do("typing an order", chromedp.SendKeys(chromedp.ID("order-text"), "Hanna: 1A > 2A"))
	p.until("the refusal shown", `document.querySelector('#order-problem:not([hidden])') && /is paused \(the judges are away\)/.test(document.querySelector('#order-problem').textContent)`)
	body := d.call("POST", "/api/campaigns/1/posts/check", d.login("Hanna", d.passwords["Hanna"]), map[string]string{"text": "Hanna: 1A > 2A"}, http.StatusConflict, nil)
	var prob struct{ Detail string }
	_ = json.Unmarshal(body, &prob)
	if got := eval[string](p, `document.querySelector('#order-problem').textContent`); got != prob.Detail {
		t.Errorf("the page shows %q, the server said %q", got, prob.Detail)
	}
}

// pressEnter presses Enter as a key down and a key up. chromedp's KeyEvent also sends a char
// event after the page has handled the key down; when that handler moved the focus to a text
// box, the char would type a stray line break there, which no real keyboard does (a handled
// key down cancels the character).
var pressEnter = chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
	for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeRawKeyDown, input.DispatchKeyEventTypeKeyUp} {
		if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, input.DispatchKeyEventParams{
			Type: typ, Key: "Enter", Code: "Enter", WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13,
		}); err != nil {
			return err
		}
	}
	return nil
})

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// battleScenario has a battle in its first turn: two enemy armies share 5F when it opens.
const battleScenario = `{"name":"skirmish","seed":7,"sites":[],
 "armies":[
  {"name":"Sai Rei","side":"coalition","rank":"lieutenant","at":"5F","controllers":["Gazetzot"],"colors":["green"],
   "troops":[{"creature":"Llanowar Elves","size":"1/1","colors":["green"],"slot":1,"alive":1000,"full":1000},
             {"creature":"Grizzly Bears","size":"2/2","colors":["green"],"slot":2,"alive":500,"full":500}]},
  {"name":"Darkhand5","side":"phyrexia","rank":"centurion","at":"5F","controllers":["Vorath"],
   "troops":[{"creature":"Plague Rats","size":"1/1","colors":["black"],"slot":1,"alive":1000,"full":1000},
             {"creature":"Gray Ogre","size":"2/2","colors":["red"],"slot":2,"alive":500,"full":500}]}],
 "turns":[{"lock":"2026-03-09T05:00:00Z","posts":[]}]}`

// startBattle runs the server with the skirmish imported and a battle judge, Bea; it returns
// the passwords of Gazetzot, Vorath and Bea.
func startBattle(t *testing.T) (*server, map[string]string) {
	s := startServer(t, "--lock-tick", "off")
	s.clock.Set(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	admin := s.login("admin", e2eAdminPassword)
	var created struct {
		Campaign struct{ ID int64 }
		Accounts []newAccount
	}
	s.call("POST", "/api/campaigns/import", admin, []byte(battleScenario), http.StatusCreated, &created)
	pw := map[string]string{}
	for _, a := range created.Accounts {
		pw[a.Account.Name] = a.Password
	}
	var bea newAccount
	s.call("POST", "/api/accounts", admin, map[string]string{"name": "Bea"}, http.StatusCreated, &bea)
	pw["Bea"] = bea.Password
	s.call("PUT", fmt.Sprintf("/api/campaigns/%d/members/Bea", created.Campaign.ID), admin, map[string]any{"roles": []string{"battle-judge"}}, http.StatusOK, nil)
	return s, pw
}

// TestBrowserJudgeEntersResult: the battle judge enters a battle's result from the judge
// console (winner and losses, B1, B7), and the lock that needs it then runs.
func TestBrowserJudgeEntersResult(t *testing.T) {
	b := browser(t)
	s, pw := startBattle(t)
	p := newTab(t, b, "battle judge")
	p.open(s.base, "/#judge")
	p.login("Bea", pw["Bea"])
	p.until("the judge console with the battle", `document.querySelector('form.result[data-square="5F"]')`)
	form := `form.result[data-square="5F"] `
	p.do("entering the result",
		chromedp.SetValue(chromedp.CSS(form+`select[data-field="winner"]`), "Sai Rei"),
		chromedp.SetValue(chromedp.CSS(form+`input.loss[data-army="Darkhand5"][data-creature="Plague Rats"]`), "300"),
		chromedp.SetValue(chromedp.CSS(form+`input.loss[data-army="Sai Rei"][data-creature="Llanowar Elves"]`), "120"),
		chromedp.Click(chromedp.CSS(form+`button[type="submit"]`)))
	p.until("the result recorded", `/The result at 5F is recorded/.test(document.querySelector('`+form+`').textContent)`)
	var res struct {
		Results []struct {
			Winner string
			Losses map[string]map[string]int
		}
	}
	s.call("GET", "/api/campaigns/1/turns/1/results", s.login("Bea", pw["Bea"]), nil, http.StatusOK, &res)
	if len(res.Results) != 1 || res.Results[0].Winner != "Sai Rei" || res.Results[0].Losses["Darkhand5"]["Plague Rats"] != 300 || res.Results[0].Losses["Sai Rei"]["Llanowar Elves"] != 120 {
		t.Fatalf("the server recorded %+v", res.Results)
	}
	p.until("the recorded result shown", `['Recorded: Sai Rei’s side won', 'Sai Rei lost 120', 'Darkhand5 lost 300'].every((x) => document.querySelector('`+form+`').textContent.includes(x))`)
	p.view("map")
	p.until("the battle ring at 5F and the armies at half size", `document.querySelectorAll('#map .battles .battle').length === 1 && document.querySelectorAll('#map .army[data-sq="5F"]').length === 2`)
	p.view("judge")
	p.do("pausing", chromedp.SendKeys(chromedp.ID("pause-reason"), "judges' meeting"), chromedp.Click(chromedp.ID("pause-button")))
	p.until("the campaign paused", `/The campaign is paused/.test(document.querySelector('#judge-turn').parentElement.textContent) && /paused since .*judges' meeting/.test(document.querySelector('#judge-turn').parentElement.textContent) && document.querySelector('#pause-button').textContent === 'Resume the campaign'`)
	p.do("resuming", chromedp.SendKeys(chromedp.ID("pause-reason"), "back"), chromedp.Click(chromedp.ID("pause-button")))
	p.until("the campaign running", `/The campaign runs again/.test(document.querySelector('#judge-turn').parentElement.textContent) && document.querySelector('#pause-button').textContent === 'Pause the campaign'`)
	p.do("refreshing the audit log", chromedp.Click(chromedp.CSS(`#judge-audit + button`)))
	p.until("the pause and the resume in the audit log", `[...document.querySelectorAll('table.audit tbody tr td:nth-child(3)')].map((td) => td.textContent).filter((a) => /pause|resume/.test(a)).length >= 2`)
	p.do("locking", chromedp.SendKeys(chromedp.ID("lock-reason"), "battle settled"), chromedp.Click(chromedp.ID("lock-now")))
	p.until("the lock report", `document.querySelector('#report-text') && /movement update for turn 1/.test(document.querySelector('#report-text').textContent)`)
	p.shot("judge-result-entered")
	p.named("the judge console with a battle")
}

// TestBrowserBattleDesk is a battle from the strategies to the lock: each side's controller
// sends a strategy from the battle tab and never sees the other side's (B1); the battle judge
// sees both side by side, gives a strategy bonus (B2), has the server propose the result with
// its bonuses and dice (B3–B5, B7), confirms it, and the lock uses it.
func TestBrowserBattleDesk(t *testing.T) {
	b := browser(t)
	s, pw := startBattle(t)
	card := `article.battle[data-square="5F"] `
	send := func(p *tab, who, army, text string) {
		p.open(s.base, "/#battles")
		p.login(who, pw[who])
		p.until("the battle's strategy form", `document.querySelector('`+card+`form.strategy-form')`)
		p.do("writing the strategy", chromedp.SendKeys(chromedp.CSS(card+`form.strategy-form textarea`), text),
			chromedp.Click(chromedp.CSS(card+`form.strategy-form button[type="submit"]`)))
		p.until("the strategy recorded", `/The strategy for `+army+` is recorded/.test(document.querySelector('`+card+`form.strategy-form').textContent)`)
		p.until("the strategy shown with its side", `document.querySelector('`+card+`.strategy[data-army="`+army+`"] pre') && document.querySelector('`+card+`.strategy[data-army="`+army+`"] pre').textContent === `+jsString(text))
	}
	coalition := newTab(t, b, "Gazetzot")
	send(coalition, "Gazetzot", "Sai Rei", "Flank them through the elves' wood.")
	phyrexia := newTab(t, b, "Vorath")
	send(phyrexia, "Vorath", "Darkhand5", "Rats first, ogres behind.")
	phyrexia.named("the strategy form")
	if eval[bool](phyrexia, `document.body.textContent.includes("elves' wood")`) {
		t.Fatal("Phyrexia's page shows the Coalition's strategy")
	}
	coalition.do("reloading the battles", chromedp.Reload())
	coalition.until("the battle", `document.querySelector('`+card+`')`)
	if eval[bool](coalition, `document.body.textContent.includes("ogres behind")`) {
		t.Fatal("the Coalition's page shows Phyrexia's strategy")
	}

	judge := newTab(t, b, "Bea")
	judge.open(s.base, "/#battles")
	judge.login("Bea", pw["Bea"])
	judge.until("both strategies side by side", `document.querySelectorAll('`+card+`.side-by-side .side .strategy').length === 2`)
	judge.do("a strategy bonus and the proposal",
		chromedp.SetValue(chromedp.CSS(card+`form.judgement select[name="bonus_to"]`), "Sai Rei"),
		chromedp.SetValue(chromedp.CSS(card+`form.judgement input[name="bonus"]`), "6"),
		chromedp.Click(chromedp.CSS(card+`form.judgement button[type="submit"]`)))
	judge.until("the proposal with bonuses and dice", `document.querySelector('`+card+`table.proposal-sides') && /Strategy bonus/.test(document.querySelector('`+card+`table.proposal-sides').textContent) && document.querySelectorAll('`+card+`ul.dice li').length >= 1`)
	judge.shot("battle-desk")
	judge.named("the battle desk")
	judge.do("confirming", chromedp.SendKeys(chromedp.CSS(card+`form.confirm textarea`), "A hard fight at 5F."),
		chromedp.Click(chromedp.CSS(card+`form.confirm button[type="submit"]`)))
	judge.until("the result confirmed", `/The result at 5F is confirmed/.test(document.querySelector('`+card+`form.confirm').textContent)`)
	judge.view("judge")
	judge.do("locking", chromedp.SendKeys(chromedp.ID("lock-reason"), "battle confirmed"), chromedp.Click(chromedp.ID("lock-now")))
	judge.until("the lock report", `document.querySelector('#report-text') && /movement update for turn 1/.test(document.querySelector('#report-text').textContent)`)
}

// TestBrowserPollsWithETag: the map page asks for the map again and again with If-None-Match,
// and the server answers 304 while nothing changed.
func TestBrowserPollsWithETag(t *testing.T) {
	b := browser(t)
	d := startDemo(t)
	p := newTab(t, b, "visitor")
	var mu sync.Mutex
	conditional := map[network.RequestID]bool{}
	var notModified, full int
	if err := chromedp.Listen(p.ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			if strings.HasSuffix(ev.Request.URL, "/api/campaigns/1/map") {
				_, has := ev.Request.Headers["If-None-Match"]
				conditional[ev.RequestID] = has
			}
		case *network.EventResponseReceived:
			if has, ok := conditional[ev.RequestID]; ok {
				switch {
				case ev.Response.Status == http.StatusNotModified && has:
					notModified++
				case ev.Response.Status == http.StatusOK:
					full++
				}
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	p.open(d.base, "/?poll=200")
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		n, f := notModified, full
		mu.Unlock()
		if n >= 3 {
			if f != 1 {
				t.Errorf("the map was sent in full %d times while it did not change", f)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s of polling: %d answers 304 to If-None-Match, %d full maps", n, f)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// sanctionView is a sanction as GET …/sanctions gives it.
type sanctionView struct {
	Army, Reason, By string
	K, Severity      int
	Roll             struct {
		Label string
		Value int
	}
	Losses map[string]int
}

// TestBrowserJudgeSanctions: the battle judge sanctions an army from the judge console
// (5.4.1): a reason of blanks is refused in the server's words and nothing is recorded; a
// sanction with a reason shows the d20 drawn and the troops lost, which the server records and
// takes off the army on the map: severity × d20 × 100 from slot 1, × 50 from slot 2.
func TestBrowserJudgeSanctions(t *testing.T) {
	b := browser(t)
	s, pw := startBattle(t)
	bea := s.login("Bea", pw["Bea"])
	p := newTab(t, b, "battle judge")
	p.open(s.base, "/#judge")
	p.login("Bea", pw["Bea"])
	p.until("the sanction form with the map's armies", `document.querySelector('#sanction-form select[name="army"] option[value="Sai Rei"]') && document.querySelector('#sanction-form select[name="army"] option[value="Darkhand5"]')`)
	p.unfold("judge-sanctions")
	p.until("the empty list", `/No army has been sanctioned in turn 1/.test(document.querySelector('#sanction-list').textContent)`)

	// A reason of blanks passes the browser's "required" but not the server (5.4.1 wants a reason).
	p.do("sanctioning with a reason of blanks",
		chromedp.SetValue(chromedp.ID("sanction-army"), "Sai Rei"),
		chromedp.SetValue(chromedp.ID("sanction-severity"), "3"),
		chromedp.SendKeys(chromedp.ID("sanction-reason"), "   "),
		chromedp.Click(chromedp.ID("sanction-send")))
	p.until("the refusal shown", `document.querySelector('#sanction-msg.notice.error:not([hidden])')`)
	var refused struct{ Detail string }
	raw := s.call("POST", "/api/campaigns/1/turns/1/sanctions", bea, map[string]any{"army": "Sai Rei", "severity": 3, "reason": ""}, http.StatusUnprocessableEntity, nil)
	if err := json.Unmarshal(raw, &refused); err != nil || !strings.Contains(refused.Detail, "reason") {
		t.Fatalf("the server's refusal of a sanction without a reason: %s", raw)
	}
	if got := eval[string](p, `document.querySelector('#sanction-msg').textContent`); got != refused.Detail {
		t.Errorf("the page shows %q, the server said %q", got, refused.Detail)
	}
	if role := eval[string](p, `document.querySelector('#sanction-msg').getAttribute('role')`); role != "status" && role != "alert" {
		t.Errorf("the refusal is in an element of role %q", role)
	}
	var none []sanctionView
	s.call("GET", "/api/campaigns/1/turns/1/sanctions", "", nil, http.StatusOK, &none)
	if len(none) != 0 {
		t.Fatalf("a refused sanction was recorded: %+v", none)
	}

	p.do("sanctioning Sai Rei with a reason",
		chromedp.SetValue(chromedp.ID("sanction-reason"), "orders sent by a Phyrexian spy"),
		chromedp.Click(chromedp.ID("sanction-send")))
	p.until("the sanction confirmed", `document.querySelector('#sanction-msg.notice.ok:not([hidden])')`)
	var list []sanctionView
	s.call("GET", "/api/campaigns/1/turns/1/sanctions", "", nil, http.StatusOK, &list)
	if len(list) != 1 {
		t.Fatalf("the server has %d sanctions, want 1: %+v", len(list), list)
	}
	sn := list[0]
	d20 := sn.Roll.Value
	if sn.Army != "Sai Rei" || sn.K != 1 || sn.Severity != 3 || sn.Reason != "orders sent by a Phyrexian spy" || sn.By != "Bea" || d20 < 1 || d20 > 20 {
		t.Fatalf("the server recorded %+v", sn)
	}
	elves, bears := min(1000, 3*d20*100), min(500, 3*d20*50)
	if sn.Losses["Llanowar Elves"] != elves || sn.Losses["Grizzly Bears"] != bears || len(sn.Losses) != 2 {
		t.Fatalf("a severity 3 sanction with a d20 of %d took %v, want %d elves and %d bears", d20, sn.Losses, elves, bears)
	}
	// The page names the draw and the losses as the server recorded them (in its order: JSON keys sorted).
	want := fmt.Sprintf("Sanction 1 on Sai Rei in turn 1, severity 3: the d20 drew %d; Sai Rei lost %d troops (Grizzly Bears %d, Llanowar Elves %d).", d20, elves+bears, bears, elves)
	if got := eval[string](p, `document.querySelector('#sanction-msg').textContent`); got != want {
		t.Errorf("the page says %q, want %q", got, want)
	}
	p.until("the sanction listed with its draw", `document.querySelectorAll('#sanction-list tbody tr').length === 1 && [...document.querySelectorAll('#sanction-list tbody tr td')].map((td) => td.textContent).slice(0, 6).join('|') === `+
		jsString(fmt.Sprintf("Sai Rei|1|3|%d on a d20 (%s)|%d troops (Grizzly Bears %d, Llanowar Elves %d)|orders sent by a Phyrexian spy", d20, sn.Roll.Label, elves+bears, bears, elves)))
	var m struct {
		Armies []struct {
			Name   string
			Troops []struct {
				Creature string
				Alive    int
			}
		}
	}
	s.call("GET", "/api/campaigns/1/map", bea, nil, http.StatusOK, &m)
	alive := map[string]int{}
	for _, a := range m.Armies {
		if a.Name == "Sai Rei" {
			for _, tr := range a.Troops {
				alive[tr.Creature] = tr.Alive
			}
		}
	}
	if alive["Llanowar Elves"] != 1000-elves || alive["Grizzly Bears"] != 500-bears {
		t.Errorf("Sai Rei has %v alive on the map after losing %d elves and %d bears", alive, elves, bears)
	}
	// The judge's page follows the map: the battle tab's troops show the losses.
	p.view("battles")
	p.until("Sai Rei's elves reduced on the battle tab", `[...document.querySelectorAll('article.battle table.troops tr')].some((tr) => tr.textContent === `+jsString(fmt.Sprintf("Llanowar Elves1/1%d / 1000", 1000-elves))+`)`)
	p.view("judge")
	p.until("the sanction list again", `document.querySelectorAll('#sanction-list tbody tr').length === 1`)
	p.shot("judge-sanctions")
	p.named("the judge console's sanctions")
}

// formulasView is GET …/formulas.
type formulasView struct {
	Formulas []struct {
		Name, Text, By string
		Version        int
	}
	History []struct {
		Name, Text, By string
		Version        int
	}
}

func (f formulasView) current(name string) (text string, version int, by string) {
	for _, x := range f.Formulas {
		if x.Name == name {
			return x.Text, x.Version, x.By
		}
	}
	return "", 0, ""
}

// TestBrowserJudgeFormulas: the battle judge edits the size formula (B3) in the judge console
// and saves it with the keyboard: version 2 shows, with its history, and the server has it; a
// formula that does not compile is refused with the server's 422 message next to it, and
// nothing changes.
func TestBrowserJudgeFormulas(t *testing.T) {
	b := browser(t)
	s, pw := startBattle(t)
	bea := s.login("Bea", pw["Bea"])
	var before formulasView
	s.call("GET", "/api/campaigns/1/formulas", bea, nil, http.StatusOK, &before)
	sizeText, _, _ := before.current("size")
	p := newTab(t, b, "battle judge")
	p.open(s.base, "/#judge")
	p.login("Bea", pw["Bea"])
	form := `form.formula[data-formula="size"] `
	p.until("the five formulas", `document.querySelectorAll('#formula-list form.formula').length === 5 && document.querySelector('#formula-size-text')`)
	p.unfold("judge-formulas")
	if got := eval[string](p, `document.querySelector('#formula-size-text').value`); got != sizeText {
		t.Fatalf("the size formula's box holds %q, the server has %q", got, sizeText)
	}
	if got := eval[string](p, `document.querySelector('#formula-size-version').textContent`); got != "Version 1, the shipped default." {
		t.Errorf("the size formula's version reads %q", got)
	}

	edited := "min(10, 12 * (1 - smaller.strength / larger.strength))"
	p.do("editing the size formula", chromedp.SetValue(chromedp.ID("formula-size-text"), edited), chromedp.Focus(chromedp.ID("formula-size-text")))
	// Tab from the box reaches its save button; Enter saves.
	for i := 0; i < 4 && !eval[bool](p, `document.activeElement.matches('`+form+`button[type="submit"]')`); i++ {
		p.do("pressing Tab", chromedp.KeyEvent("\t"))
	}
	if !eval[bool](p, `document.activeElement.matches('`+form+`button[type="submit"]')`) {
		t.Fatalf("Tab from the size formula never reached its save button (the focus is on %s)", eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
	}
	p.do("pressing Enter", chromedp.KeyEvent("\r"))
	p.until("the save confirmed", `document.querySelector('#formula-size-msg.notice.ok:not([hidden])')`)
	if got := eval[string](p, `document.querySelector('#formula-size-msg').textContent`); got != "Saved as version 2 of the size formula." {
		t.Errorf("the save says %q", got)
	}
	if got := eval[string](p, `document.querySelector('#formula-size-version').textContent`); !strings.HasPrefix(got, "Version 2, saved by Bea ") {
		t.Errorf("after the save the version reads %q", got)
	}
	p.do("opening the history", chromedp.Click(chromedp.CSS(`#formula-size-history summary`)))
	p.until("version 2 in the history", `document.querySelector('#formula-size-history').open && document.querySelectorAll('#formula-size-history tbody tr').length === 1 && document.querySelector('#formula-size-history tr[data-version="2"] pre').textContent === `+jsString(edited)+` && document.querySelector('#formula-size-history tr[data-version="2"] td:nth-child(3)').textContent === 'Bea'`)
	var after formulasView
	s.call("GET", "/api/campaigns/1/formulas", bea, nil, http.StatusOK, &after)
	if text, v, by := after.current("size"); text != edited || v != 2 || by != "Bea" || len(after.History) != 1 {
		t.Fatalf("the server has the size formula at version %d by %q: %q (%d saved)", v, by, text, len(after.History))
	}

	broken := "10 * (1 - smaller.strength / larger.nonsense"
	p.do("saving a formula that does not compile", chromedp.SetValue(chromedp.ID("formula-size-text"), broken), chromedp.Click(chromedp.CSS(form+`button[type="submit"]`)))
	p.until("the refusal next to the formula", `document.querySelector('#formula-size-msg.notice.error:not([hidden])')`)
	var refused struct{ Detail string }
	raw := s.call("PUT", "/api/campaigns/1/formulas/size", bea, map[string]string{"text": broken}, http.StatusUnprocessableEntity, nil)
	if err := json.Unmarshal(raw, &refused); err != nil || !strings.Contains(refused.Detail, "does not compile") {
		t.Fatalf("the server's refusal: %s", raw)
	}
	if got := eval[string](p, `document.querySelector('#formula-size-msg').textContent`); got != refused.Detail {
		t.Errorf("the page shows %q, the server said %q", got, refused.Detail)
	}
	if !eval[bool](p, `document.querySelector('`+form+`').contains(document.querySelector('#formula-size-msg')) && document.querySelector('#formula-size-text').getAttribute('aria-invalid') === 'true'`) {
		t.Errorf("the refusal is not with the size formula, or its box is not marked invalid")
	}
	if got := eval[string](p, `document.querySelector('#formula-size-version').textContent`); !strings.HasPrefix(got, "Version 2, saved by Bea ") {
		t.Errorf("after the refusal the version reads %q", got)
	}
	if n := eval[int](p, `document.querySelectorAll('#formula-size-history tbody tr').length`); n != 1 {
		t.Errorf("after the refusal the history lists %d versions", n)
	}
	var still formulasView
	s.call("GET", "/api/campaigns/1/formulas", bea, nil, http.StatusOK, &still)
	if text, v, _ := still.current("size"); text != edited || v != 2 || len(still.History) != 1 {
		t.Fatalf("after the refusal the server has the size formula at version %d: %q (%d saved)", v, text, len(still.History))
	}
	for _, name := range []string{"casualties", "kill", "capture", "risk"} {
		if _, v, _ := still.current(name); v != 1 {
			t.Errorf("the %s formula is at version %d", name, v)
		}
	}
	p.shot("judge-formulas")
	p.named("the judge console's formulas")
}

// TestBrowserJudgeSectionsHidden: the sanctions and the formulas are the battle judges'. A
// player has no judge console at all; a movement judge has one, without those sections.
func TestBrowserJudgeSectionsHidden(t *testing.T) {
	b := browser(t)
	s, pw := startBattle(t)
	admin := s.login("admin", e2eAdminPassword)
	var moe newAccount
	s.call("POST", "/api/accounts", admin, map[string]string{"name": "Moe"}, http.StatusCreated, &moe)
	s.call("PUT", "/api/campaigns/1/members/Moe", admin, map[string]any{"roles": []string{"movement-judge"}}, http.StatusOK, nil)
	s.call("GET", "/api/campaigns/1/formulas", s.login("Moe", moe.Password), nil, http.StatusForbidden, nil)
	const sections = `!!document.querySelector('#judge-sanctions, #judge-formulas, #sanction-form, #formula-list')`

	player := newTab(t, b, "player")
	player.open(s.base, "/#judge")
	player.login("Gazetzot", pw["Gazetzot"])
	player.until("the player's tabs", `document.querySelector('#tabs a[href="#orders"]') && document.querySelector('#tabs a[href="#battles"]')`)
	if eval[bool](player, `!!document.querySelector('#tabs a[href="#judge"]') || document.body.dataset.view !== 'map' || `+sections) {
		t.Errorf("the player sees the judge console (tabs %q, view %q)", eval[string](player, `document.querySelector('#tabs').textContent`), eval[string](player, `document.body.dataset.view`))
	}
	player.view("battles")
	player.until("the battle", `document.querySelector('article.battle[data-square="5F"]')`)
	if eval[bool](player, sections+` || /formula/i.test(document.querySelector('#panel').textContent)`) {
		t.Errorf("the player's battle tab shows sanctions or formulas")
	}

	judge := newTab(t, b, "movement judge")
	judge.open(s.base, "/#judge")
	judge.login("Moe", moe.Password)
	judge.until("the judge console", `document.body.dataset.view === 'judge' && document.querySelector('#judge-turn') && document.querySelector('#judge-audit')`)
	if eval[bool](judge, sections) {
		t.Errorf("the movement judge sees the sanctions or the formulas: %q", eval[string](judge, `[...document.querySelectorAll('#panel h3')].map((x) => x.textContent).join(', ')`))
	}
	if got := eval[string](judge, `[...document.querySelectorAll('#panel section.card h3')].map((x) => x.textContent).join(', ')`); got != "The open turn, Posts of the open turn, Control lists (5.2.2.2), Battle results, Lock reports, Audit log" {
		t.Errorf("the movement judge's console has the sections %q", got)
	}
}
