package main

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// The pages send an Idempotency-Key with every change and none with a read or the login (issue
// 16, R90); a change sent twice under one key, as api.js does when the network fails, is made
// once and answered twice alike.
func TestBrowserSendsIdempotencyKeys(t *testing.T) {
	b := browser(t)
	d := startDemo(t)
	p := newTab(t, b, "hanna")
	var mu sync.Mutex
	keys := map[string][]string{} // "METHOD path" → the keys sent
	if err := chromedp.Listen(p.ctx, func(ev any) {
		if ev, ok := ev.(*network.EventRequestWillBeSent); ok && strings.Contains(ev.Request.URL, "/api/") {
			k, _ := ev.Request.Headers["Idempotency-Key"].(string)
			path := ev.Request.URL[strings.Index(ev.Request.URL, "/api/"):]
			mu.Lock()
			keys[ev.Request.Method+" "+path] = append(keys[ev.Request.Method+" "+path], k)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	p.open(d.base, "/")
	p.login("Hanna", d.passwords["Hanna"])
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	ids, err := chromedp.Run(ctx, chromedp.Evaluate[string](`import('/assets/js/api.js').then(async (api) => {
		const key = api.newKey();
		const first = await api.call('POST', '/api/campaigns/1/posts', {text: 'Hanna: 3G > 6G'}, {key});
		const again = await api.call('POST', '/api/campaigns/1/posts', {text: 'Hanna: 3G > 6G'}, {key});
		const other = await api.call('POST', '/api/campaigns/1/posts', {text: 'Hanna: 3G > 6G'});
		return [first.data.post.id, again.data.post.id, other.data.post.id].join(' ');
	})`, chromedp.EvalAwaitPromise))
	if err != nil {
		p.fail("posting through api.js", err)
	}
	f := strings.Fields(ids)
	if len(f) != 3 || f[0] != f[1] || f[2] == f[0] {
		t.Errorf("post ids %q: want the first twice (one post under one key), then another", ids)
	}
	mu.Lock()
	defer mu.Unlock()
	posts := keys["POST /api/campaigns/1/posts"]
	if len(posts) != 3 || posts[0] == "" || posts[1] != posts[0] || posts[2] == "" || posts[2] == posts[0] {
		t.Errorf("the posts' keys %q: want one key twice, then a new one", posts)
	}
	for req, ks := range keys {
		for _, k := range ks {
			if (strings.HasPrefix(req, "GET ") || req == "POST /api/login") && k != "" {
				t.Errorf("%s sent an Idempotency-Key %q", req, k)
			}
		}
	}
}
