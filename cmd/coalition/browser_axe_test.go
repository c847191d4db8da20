package main

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// axe-core (npm, web/testdata/axe) checks every page the browser tests open: nothing of impact
// serious or critical may be found. Without it the checks are skipped with a line saying so,
// unless CI=true, where its absence fails.

var axeOnce struct {
	sync.Once
	src []byte
	err error
}

// axeFile is axe-core as `npm ci --prefix web/testdata/axe` installs it.
var axeFile = filepath.Join("..", "..", "web", "testdata", "axe", "node_modules", "axe-core", "axe.min.js")

// axeSource is axe.min.js, or nil when it is not installed (a CI run fails then).
func axeSource(t *testing.T) []byte {
	t.Helper()
	axeOnce.Do(func() { axeOnce.src, axeOnce.err = os.ReadFile(axeFile) })
	if axeOnce.err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("axe-core is not installed and CI=true: the accessibility checks must run (npm ci --prefix web/testdata/axe): %v", axeOnce.err)
		}
		t.Logf("axe-core is not installed (npm ci --prefix web/testdata/axe): skipping the accessibility check")
		return nil
	}
	return axeOnce.src
}

// axe runs axe-core on the page as it stands and fails the test on every violation of impact
// serious or critical, naming the rule and the elements.
func (p *tab) axe(where string) {
	p.t.Helper()
	src := axeSource(p.t)
	if src == nil {
		return
	}
	ctx, cancel := context.WithTimeout(p.ctx, 60*time.Second)
	defer cancel()
	// the script is given to the page as an evaluation of its own, which the pages' CSP (no eval)
	// does not stop
	loaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!window.axe`))
	if err == nil && !loaded {
		_, err = chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](string(src)))
	}
	if err != nil {
		p.fail("loading axe-core", err)
	}
	found, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations
		.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		.map((v) => v.impact + ' ' + v.id + ': ' + v.help + ' — ' + v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(', ')))`, chromedp.EvalAwaitPromise))
	if err != nil {
		p.fail("running axe-core", err)
	}
	for _, f := range found {
		p.t.Errorf("axe on %s: %s", where, f)
	}
}
