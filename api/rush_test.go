package api_test

import (
	"net/http/httptest"
	"testing"

	"github.com/coalition-wargame/coalition/internal/loadtest"
)

// The deadline rush on a real HTTP server (issue 16): posts from 64 clients at once, every
// tenth sent twice under the same Idempotency-Key (half racing the first request, half after
// its answer). Every acknowledged post is stored once, nothing else is, and no request fails.
// Sized to run in seconds; make loadtest runs it with 10,000 posts.
func TestPostPostsRushStoresEachAcknowledgedPostOnce(t *testing.T) {
	e := newEnv(t)
	srv := httptest.NewServer(e.srv.Handler())
	defer srv.Close()
	hc := loadtest.NewClient(64)
	posts := c1 + "/turns/1/posts"
	before, err := loadtest.PostIDs(t.Context(), hc, srv.URL+posts, e.token(mover))
	if err != nil {
		t.Fatal(err)
	}
	posters := []loadtest.Poster{
		{Token: e.token(player), Body: []byte(`{"text":"Sai Rei: 3F > 4F"}`)},
		{Token: e.token(sameSide), Body: []byte(`{"text":"Karn: 15J > 15I"}`)},
		{Token: e.token(enemy), Body: []byte(`{"text":"Darkhand5: 10F > 11F"}`)},
	}
	n := 2000
	if testing.Short() {
		n = 500
	}
	res := loadtest.Rush(t.Context(), loadtest.RushConfig{URL: srv.URL, Path: c1 + "/posts", Posters: posters, Posts: n, Clients: 64, Resend: 0.1, Run: "test", Client: hc})
	after, err := loadtest.PostIDs(t.Context(), hc, srv.URL+posts, e.token(mover))
	if err != nil {
		t.Fatal(err)
	}
	check := res.Check(before, after)
	if !check.OK() || check.Acknowledged != n {
		t.Errorf("%s (want %d acknowledged); first error: %s", check, n, res.FirstError)
	}
	if res.Resent != n/10 || res.Replayed != res.Resent {
		t.Errorf("%d keys sent twice, %d answers replayed: want %d of each", res.Resent, res.Replayed, n/10)
	}
	t.Logf("%d posts in %v: %s; %d batches", n, res.Elapsed, check, e.svc.Stats().Batches.Load())
}
