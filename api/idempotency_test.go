package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/coalition-wargame/coalition/api"
	"github.com/coalition-wargame/coalition/campaign"
)

// keyed sends a request as the caller with an Idempotency-Key, through the contract check.
func (e *env) keyed(caller, method, path, key string, body any) *httptest.ResponseRecorder {
	e.t.Helper()
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			e.t.Fatal(err)
		}
	}
	req := httptest.NewRequest(method, path, bytes.NewReader(raw))
	req.RemoteAddr = fmt.Sprintf("198.51.100.%d:40000", 10+slices.Index(callers, caller))
	if raw != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	tok := e.token(caller)
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	if key != "" {
		req.Header.Set(api.HeaderIdempotencyKey, key)
	}
	res := httptest.NewRecorder()
	e.srv.Handler().ServeHTTP(res, req)
	e.check.verify(e.t, method, path, tok, raw, res)
	return res
}

// A post retried with the same key and body gets the first answer, byte for byte, marked
// replayed, and stores nothing (issue 16, R90).
func TestPostPostsSameKey201ReplaysAndStoresNothing(t *testing.T) {
	e := newEnv(t)
	body := map[string]string{"text": "Sai Rei: 3F > 4F"}
	first := e.keyed(player, "POST", c1+"/posts", "9b1c2f7e-0d7a-4c53-9a52-2f6f4d1b8e11", body)
	if first.Code != http.StatusCreated || first.Header().Get(api.HeaderReplayed) != "" {
		t.Fatalf("%d %s (replayed %q)", first.Code, first.Body, first.Header().Get(api.HeaderReplayed))
	}
	before := e.dump()
	for _, key := range []string{"9b1c2f7e-0d7a-4c53-9a52-2f6f4d1b8e11", `"9b1c2f7e-0d7a-4c53-9a52-2f6f4d1b8e11"`} {
		again := e.keyed(player, "POST", c1+"/posts", key, body)
		if again.Code != http.StatusCreated || again.Body.String() != first.Body.String() || again.Header().Get(api.HeaderReplayed) != "true" {
			t.Errorf("retry with %s: %d %q (replayed %q), want 201 and the first answer %q", key, again.Code, again.Body, again.Header().Get(api.HeaderReplayed), first.Body)
		}
	}
	if e.dump() != before {
		t.Error("a retried post stored something")
	}
	// without a key, the same post is a new post
	if res := e.as(player, "POST", c1+"/posts", body); res.Code != http.StatusCreated || res.Body.String() == first.Body.String() {
		t.Errorf("the same post without a key: %d %s, want a new post", res.Code, res.Body)
	}
}

// The same key with another request is a 422 and stores nothing: the key names one request, and
// a client that reuses it for another has a bug to be told of, not a conflict with the server's
// state (R90). Another account's key of the same text is its own.
func TestPostPostsSameKeyOtherRequest422(t *testing.T) {
	e := newEnv(t)
	const key = "key-of-one-post"
	if res := e.keyed(player, "POST", c1+"/posts", key, map[string]string{"text": "Sai Rei: 3F > 4F"}); res.Code != http.StatusCreated {
		t.Fatalf("%d %s", res.Code, res.Body)
	}
	before := e.dump()
	for _, c := range []struct {
		name, method, path string
		body               any
	}{
		{"another body", "POST", c1 + "/posts", map[string]string{"text": "Sai Rei: 3F > 5F"}},
		{"another route", "POST", c1 + "/posts/check", map[string]string{"text": "Sai Rei: 3F > 4F"}},
	} {
		res := e.keyed(player, c.method, c.path, key, c.body)
		if res.Code != http.StatusUnprocessableEntity || !strings.Contains(res.Body.String(), "another request") {
			t.Errorf("%s: %d %s, want 422", c.name, res.Code, res.Body)
		}
	}
	if e.dump() != before {
		t.Error("a refused reuse of a key stored something")
	}
	// the same text and key from another account is that account's own request
	if res := e.keyed(sameSide, "POST", c1+"/posts", key, map[string]string{"text": "Karn: 15J > 15I"}); res.Code != http.StatusCreated || res.Header().Get(api.HeaderReplayed) != "" {
		t.Errorf("another account's key: %d %s", res.Code, res.Body)
	}
}

// A retry sent while the first is still being answered waits for it and gets its answer: one
// post for eight concurrent requests under one key.
func TestPostPostsConcurrentSameKeyOnePost(t *testing.T) {
	e := newEnv(t)
	var wg sync.WaitGroup
	bodies := make([]string, 8)
	codes := make([]int, 8)
	var mu sync.Mutex
	for i := range bodies {
		wg.Go(func() {
			res := e.keyed(player, "POST", c1+"/posts", "concurrent-key", map[string]string{"text": "Sai Rei: 3F > 4F"})
			mu.Lock()
			bodies[i], codes[i] = res.Body.String(), res.Code
			mu.Unlock()
		})
	}
	wg.Wait()
	for i := range bodies {
		if codes[i] != http.StatusCreated || bodies[i] != bodies[0] {
			t.Errorf("request %d: %d %s, want 201 and %s", i, codes[i], bodies[i], bodies[0])
		}
	}
	var posts []campaign.PostView
	json.Unmarshal(e.as(mover, "GET", c1+"/turns/1/posts", nil).Body.Bytes(), &posts)
	n := 0
	for _, p := range posts {
		if p.Text == "Sai Rei: 3F > 4F" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d posts stored for eight requests under one key, want 1", n)
	}
}

// Every other change keeps its answer too: a withdrawal retried is answered 200 again (without
// the key the second one is a 409), a member set twice is one change.
func TestDeletePostPutMemberSameKeyReplay(t *testing.T) {
	e := newEnv(t)
	res := e.as(player, "POST", c1+"/posts", map[string]string{"text": "Sai Rei: 3F > 4F"})
	var out campaign.PostOutcome
	json.Unmarshal(res.Body.Bytes(), &out)
	path := fmt.Sprintf("%s/posts/%d", c1, out.Post.ID)
	first := e.keyed(player, "DELETE", path, "withdraw-1", nil)
	if first.Code != http.StatusOK {
		t.Fatalf("%d %s", first.Code, first.Body)
	}
	again := e.keyed(player, "DELETE", path, "withdraw-1", nil)
	if again.Code != http.StatusOK || again.Body.String() != first.Body.String() || again.Header().Get(api.HeaderReplayed) != "true" {
		t.Errorf("the withdrawal retried: %d %s, want the first answer", again.Code, again.Body)
	}
	if res := e.keyed(player, "DELETE", path, "withdraw-2", nil); res.Code != http.StatusConflict {
		t.Errorf("a new withdrawal of a withdrawn post: %d, want 409", res.Code)
	}
	member := map[string]any{"roles": []string{"player"}, "side": "coalition", "rank": "captain"}
	set := e.keyed(admin, "PUT", c1+"/members/Kim", "member-1", member)
	if set.Code != http.StatusOK {
		t.Fatalf("%d %s", set.Code, set.Body)
	}
	before := e.dump()
	if res := e.keyed(admin, "PUT", c1+"/members/Kim", "member-1", member); res.Code != http.StatusOK || res.Body.String() != set.Body.String() || res.Header().Get(api.HeaderReplayed) != "true" {
		t.Errorf("the member set again: %d %s", res.Code, res.Body)
	}
	if e.dump() != before {
		t.Error("a retried PUT changed something")
	}
}

// A request refused before it changed anything keeps no key: sent again (the same or mended),
// it runs again; a malformed key is a 400.
func TestPostPostsKeyOfARefusedRequestIsFree(t *testing.T) {
	e := newEnv(t)
	if res := e.keyed(player, "POST", c1+"/posts", "mended", map[string]any{"orders": []map[string]any{{"army": "Sai Rei", "kind": "move", "from": "3F"}}}); res.Code != http.StatusUnprocessableEntity {
		t.Fatalf("%d %s", res.Code, res.Body)
	}
	if res := e.keyed(player, "POST", c1+"/posts", "mended", map[string]string{"text": "Sai Rei: 3F > 4F"}); res.Code != http.StatusCreated || res.Header().Get(api.HeaderReplayed) != "" {
		t.Errorf("the mended request under the same key: %d %s, want a new post", res.Code, res.Body)
	}
	for _, key := range []string{"with space", strings.Repeat("k", 256), `"`, "caf\u00e9"} {
		if res := e.keyed(player, "POST", c1+"/posts", key, map[string]string{"text": "Sai Rei: 3F > 4F"}); res.Code != http.StatusBadRequest {
			t.Errorf("key %q: %d, want 400", key, res.Code)
		}
	}
}

// A change committed whose answer was never stored (the server stopped in between) is a 409 on
// retry: the server cannot give an answer it does not have, and must not make the change again.
func TestPostPauseKeyWithoutItsAnswer409(t *testing.T) {
	e := newEnv(t)
	mover := e.actor(mover)
	body := []byte(`{"reason":"a holiday"}`)
	claim := &campaign.Claim{Account: mover.Account.ID, Key: "lost-answer", Fingerprint: fingerprintOf("POST", c1+"/pause", body)}
	if _, err := e.svc.Pause(campaign.WithClaim(t.Context(), claim), mover, e.cid, "a holiday"); err != nil {
		t.Fatal(err)
	}
	if res := e.keyed("movement judge", "POST", c1+"/pause", "lost-answer", map[string]string{"reason": "a holiday"}); res.Code != http.StatusConflict || !strings.Contains(res.Body.String(), "answer was not kept") {
		t.Errorf("%d %s, want 409", res.Code, res.Body)
	}
}

// fingerprintOf is the server's fingerprint of a request without a query.
func fingerprintOf(method, path string, body []byte) string {
	return api.Fingerprint(method, path, "", body)
}
