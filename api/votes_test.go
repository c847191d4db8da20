package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
)

// live sends a request as the caller to a real HTTP server on the env's handler, checks the
// answer against the OpenAPI contract, and returns it as a recorder.
func (e *env) live(srv *httptest.Server, caller, method, path string, body any) *httptest.ResponseRecorder {
	e.t.Helper()
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			e.t.Fatal(err)
		}
	}
	req, err := http.NewRequest(method, srv.URL+path, bytes.NewReader(raw))
	if err != nil {
		e.t.Fatal(err)
	}
	if raw != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if tok := e.token(caller); tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	out := httptest.NewRecorder()
	for k, v := range res.Header {
		out.Header()[k] = v
	}
	out.Code = res.StatusCode
	data, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	out.Body.Write(data)
	e.check.verify(e.t, method, path, e.token(caller), raw, out)
	return out
}

// points is a vote's results as option → points.
func points(v campaign.VoteView) map[string]int {
	out := map[string]int{}
	for _, r := range v.Results {
		out[r.Option] = r.Points
	}
	return out
}

// A vote of each kind over HTTP, with its point totals (1.4): a normal vote of the Coalition
// (the General 3, the Admiral 2, the others 1, 1.4.1), a leader vote of both sides (the
// General and the Admiral 1 each, 1.4.2), a secret special vote with the caller's voters and
// points (1.4.3). One ballot a voter, changed until the close; who voted what shown only in an
// open vote; a secret vote's results only once it closed.
func TestVotes_POST_votes_201_PUT_ballot_200(t *testing.T) {
	e := newEnv(t)
	srv := httptest.NewServer(e.srv.Handler())
	defer srv.Close()
	closes := start.Add(48 * time.Hour).Format(time.RFC3339)
	call := func(caller string, body map[string]any) campaign.VoteView {
		t.Helper()
		var v campaign.VoteView
		want(t, e.live(srv, caller, "POST", c1+"/votes", body), http.StatusCreated, &v)
		return v
	}
	vote := func(caller string, id int64, choice string, status int) campaign.VoteView {
		t.Helper()
		var v campaign.VoteView
		var out any = &v
		if status != http.StatusOK {
			out = nil
		}
		want(t, e.live(srv, caller, "PUT", c1+"/votes/"+strconv.FormatInt(id, 10)+"/ballot", map[string]string{"choice": choice}), status, out)
		return v
	}

	t.Run("normal 1.4.1", func(t *testing.T) {
		v := call(leader, map[string]any{"kind": "normal", "side": "coalition", "question": "Attack Red Base?", "options": []string{"yes", "no"}, "closes_at": closes})
		electorate := map[string]int{}
		for _, w := range v.Electorate {
			electorate[w.Name] = w.Points
		}
		if want := map[string]int{"Gerrard": 3, "Sisay": 2, "Gazetzot": 1, "Kim": 1}; !mapsEqual(electorate, want) {
			t.Errorf("electorate %v, want %v", electorate, want)
		}
		vote(leader, v.ID, "yes", http.StatusOK)
		vote(holder, v.ID, "no", http.StatusOK)
		vote(player, v.ID, "No", http.StatusOK)
		vote(sameSide, v.ID, "yes", http.StatusOK)
		got := vote(sameSide, v.ID, "no", http.StatusOK) // changed until the close
		if p := points(got); p["yes"] != 3 || p["no"] != 4 || got.Cast != 4 {
			t.Errorf("results %v (%d ballots), want yes 3, no 4 (4 ballots)", p, got.Cast)
		}
		if len(got.Ballots) != 4 || got.Mine == nil || got.Mine.Choice != "no" || got.Mine.Points != 1 {
			t.Errorf("an open vote shows ballots %+v, mine %+v", got.Ballots, got.Mine)
		}
		vote(enemy, v.ID, "yes", http.StatusNotFound)
		vote(mover, v.ID, "yes", http.StatusForbidden)
		vote(leader, v.ID, "maybe", http.StatusUnprocessableEntity)
	})

	t.Run("leader 1.4.2", func(t *testing.T) {
		v := call(mover, map[string]any{"kind": "leader", "question": "Pause for the holidays?", "options": []string{"pause", "play on"}, "closes_at": closes})
		if len(v.Electorate) != 2 {
			t.Errorf("electorate %+v: the General and the Admiral only", v.Electorate)
		}
		vote(leader, v.ID, "pause", http.StatusOK)
		got := vote(holder, v.ID, "play on", http.StatusOK)
		if p := points(got); p["pause"] != 1 || p["play on"] != 1 {
			t.Errorf("results %v, want 1 each", p)
		}
		vote(player, v.ID, "pause", http.StatusForbidden)
		vote(enemy, v.ID, "pause", http.StatusForbidden)
	})

	t.Run("special 1.4.3, secret", func(t *testing.T) {
		v := call(batty, map[string]any{"kind": "special", "question": "Which map next round?", "options": []string{"old", "new"}, "closes_at": closes, "secret": true,
			"voters": []map[string]any{{"name": "Gazetzot", "points": 5}, {"name": "Tevesh", "points": 2}, {"name": "Kim"}}})
		vote(player, v.ID, "new", http.StatusOK)
		vote(enemy, v.ID, "old", http.StatusOK)
		got := vote(sameSide, v.ID, "old", http.StatusOK)
		if got.Results != nil || got.Ballots != nil || got.Cast != 3 || got.Mine == nil || got.Mine.Points != 1 {
			t.Errorf("a secret vote before its close shows %+v", got)
		}
		vote(leader, v.ID, "new", http.StatusForbidden)
		e.at(start.Add(49 * time.Hour))
		vote(player, v.ID, "old", http.StatusConflict)
		var closed campaign.VoteView
		want(t, e.live(srv, anon, "GET", c1+"/votes/"+strconv.FormatInt(v.ID, 10), nil), http.StatusOK, &closed)
		if p := points(closed); !closed.Closed || p["new"] != 5 || p["old"] != 3 || closed.Ballots != nil {
			t.Errorf("the closed secret vote shows %v, ballots %+v: want new 5, old 3 and no ballots", p, closed.Ballots)
		}
	})

	var list []campaign.VoteView
	want(t, e.live(srv, enemy, "GET", c1+"/votes", nil), http.StatusOK, &list)
	var kinds []string
	for _, v := range list {
		kinds = append(kinds, string(v.Kind))
	}
	if !slices.Equal(kinds, []string{"special", "leader"}) {
		t.Errorf("Phyrexia sees the votes %v: not the Coalition's own", kinds)
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
