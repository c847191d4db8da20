package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/movement"
)

// TestGetTurnMap200AfterACorrection (3.3.3, R77): a locked turn's map is cached and tagged, but
// a correction of an earlier turn gives it a new opening map — the cache must not serve the old
// one, and a client's old tag must not get a 304.
func TestGetTurnMap200AfterACorrection(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	lockTurn1(e)
	if _, err := e.svc.Lock(ctx, e.actor(mover), e.cid, 2, "set-up"); err != nil {
		t.Fatal(err)
	}
	path := fmt.Sprintf("/api/campaigns/%d/turns/2/map", e.cid)
	saiRei := func(body []byte) string {
		var m struct{ Armies []struct{ Name, At string } }
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		for _, a := range m.Armies {
			if a.Name == "Sai Rei" {
				return a.At
			}
		}
		return ""
	}
	first := e.do("GET", path, "", nil)
	if first.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, first.Code, first.Body)
	}
	tag := first.Header().Get("ETag")
	if at := saiRei(first.Body.Bytes()); at != "3F" {
		t.Fatalf("turn 2 opens with Sai Rei on %q, want 3F (his private move of turn 1 came too early, C2)", at)
	}

	posts, err := e.svc.Posts(ctx, e.actor(batty), e.cid, 1)
	if err != nil {
		t.Fatal(err)
	}
	var pid int64
	for _, p := range posts {
		if p.Author == "Gazetzot" {
			pid = p.ID
		}
	}
	req := campaign.CorrectionRequest{Reason: "the private window was announced wrong", Orders: []movement.Ruling{{Post: pid, Line: 1, Accept: true, Reason: "announced wrong"}}}
	p, err := e.svc.PreviewCorrection(ctx, e.actor(batty), e.cid, 1, req)
	if err != nil {
		t.Fatal(err)
	}
	req.Preview = p.Digest
	if _, err := e.svc.Correct(ctx, e.actor(batty), e.cid, 1, req); err != nil {
		t.Fatal(err)
	}

	again := e.do("GET", path, "", nil)
	if at := saiRei(again.Body.Bytes()); again.Code != http.StatusOK || at != "3G" {
		t.Errorf("after the correction turn 2's map answers %d with Sai Rei on %q, want 200 and 3G", again.Code, at)
	}
	if again.Header().Get("ETag") == tag {
		t.Errorf("the corrected map keeps its tag %s", tag)
	}
	r := httptest.NewRequest("GET", path, nil)
	r.Header.Set("If-None-Match", tag)
	res := httptest.NewRecorder()
	e.srv.Handler().ServeHTTP(res, r)
	if res.Code != http.StatusOK {
		t.Errorf("the old tag is answered %d, want 200 with the corrected map", res.Code)
	}
}
