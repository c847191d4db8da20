package campaign_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/movement"
	"github.com/coalition-wargame/coalition/turn"
)

// fiveTurns plays the test campaign for five locked turns: Sai Rei walks south then east,
// Urza's Guard west, and in turn 2 Gazetzot also orders Darkhand5, which he does not control. It
// returns the campaign and the ids of turn 2's posts: Sai Rei's, Gazetzot's for Darkhand5, and
// Tevesh's, whose second line asks a move out of range.
func fiveTurns(t *testing.T, f *fixture) (id, saiRei, darkhand, tevesh int64) {
	t.Helper()
	ctx := context.Background()
	id = f.campaign()
	orders := []map[string]string{
		{"Gazetzot": "Sai Rei: 3F > 6F\nUrza's Guard: 20F > 18F"},
		{"Gazetzot": "Sai Rei: 6F > 6I\nUrza's Guard: 18F > 15F", "Tevesh": "Darkhand5: 10F > 10C\nDarkhand5: 10F > 20F"},
		{"Gazetzot": "Sai Rei: 6I > 6L\nUrza's Guard: 15F > 12F"},
		{"Gazetzot": "Sai Rei: 6L > 6N\nUrza's Guard: 12F > 12I"},
		{"Gazetzot": "Sai Rei: 6N > 9N"},
	}
	for n, posts := range orders {
		for _, who := range []string{"Gazetzot", "Tevesh"} {
			text, ok := posts[who]
			if !ok {
				continue
			}
			out, err := f.svc.Post(ctx, f.as(who), id, campaign.PostRequest{Text: text})
			if err != nil {
				t.Fatal(err)
			}
			if n == 1 && who == "Gazetzot" {
				saiRei = out.Post.ID
			}
			if n == 1 && who == "Tevesh" {
				tevesh = out.Post.ID
			}
		}
		if n == 1 {
			out, err := f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Darkhand5: 10F > 10I"})
			if err != nil {
				t.Fatal(err)
			}
			darkhand = out.Post.ID
		}
		if _, err := f.svc.Lock(ctx, f.as("Mover"), id, n+1, "test"); err != nil {
			t.Fatal(err)
		}
	}
	return id, saiRei, darkhand, tevesh
}

func positions(t *testing.T, f *fixture, id int64, n int) map[string]domain.Square {
	t.Helper()
	rep, err := f.svc.Report(context.Background(), f.admin, id, n)
	if err != nil {
		t.Fatal(err)
	}
	var r turn.Report
	if err := json.Unmarshal(rep.Report, &r); err != nil {
		t.Fatal(err)
	}
	out := map[string]domain.Square{}
	for _, e := range r.Positions {
		out[e.Name] = e.Value
	}
	return out
}

// A correction of turn 2 in a 5-turn campaign (3.3.3, issue 14): the battle judge refuses Sai
// Rei's move and accepts Gazetzot's line for Darkhand5, which the checker refused for its
// controller; turns 2–5 are adjudicated again — Sai Rei's later moves start from a square it no
// longer stands on — the preview shows it, the confirmation keeps it with the originals, and
// every turn replays to the corrected history byte for byte.
func TestCorrectionOfTurn2ReadjudicatesTurns2To5(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	id, saiRei, darkhand, _ := fiveTurns(t, f)
	if p := positions(t, f, id, 5); p["Sai Rei"] != sq("9N") || p["Darkhand5"] != sq("10C") {
		t.Fatalf("before the correction, turn 5 leaves %v", p)
	}
	before, err := f.svc.Report(ctx, f.admin, id, 2)
	if err != nil {
		t.Fatal(err)
	}
	req := campaign.CorrectionRequest{Reason: "Sai Rei's move was posted for a player on leave; Gazetzot held Darkhand5 by the leaders' PM",
		Orders: []movement.Ruling{{Post: saiRei, Line: 1, Reason: "its player was on leave"}, {Post: darkhand, Line: 1, Accept: true}},
		Days:   []turn.DayCount{{Army: "Urza's Guard", Days: 1, Reason: "it camped"}}}
	if _, err := f.svc.PreviewCorrection(ctx, f.as("Mover"), id, 2, req); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("the movement judge corrects a turn: %v (only the battle judge overrules him, 3.3.3)", err)
	}
	p, err := f.svc.PreviewCorrection(ctx, f.as("Batty"), id, 2, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Changes) != 4 {
		t.Fatalf("the preview changes %d turns, want 2–5: %+v", len(p.Changes), p.Changes)
	}
	for i, tc := range p.Changes {
		if tc.Turn != 2+i || tc.Same || !movedArmy(tc, "Sai Rei") {
			t.Errorf("turn %d's change does not move Sai Rei: %+v", tc.Turn, tc)
		}
	}
	if l := p.Changes[0].Lines; len(l) < 2 {
		t.Errorf("turn 2's lines: %+v", l)
	}
	if p.Changes[1].Lines[0].After != string(domain.CodeWrongOrigin) {
		t.Errorf("turn 3's Sai Rei line after the correction: %+v", p.Changes[1].Lines)
	}
	// the preview kept nothing
	if again, _ := f.svc.Report(ctx, f.admin, id, 2); string(again.Report) != string(before.Report) {
		t.Fatal("the preview changed turn 2's report")
	}
	bad := req
	bad.Preview = strings.Repeat("0", 64)
	if _, err := f.svc.Correct(ctx, f.as("Batty"), id, 2, bad); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("a confirmation of another preview: %v", err)
	}
	req.Preview = p.Digest
	c, err := f.svc.Correct(ctx, f.as("Batty"), id, 2, req)
	if err != nil {
		t.Fatal(err)
	}
	if got := positions(t, f, id, 5); got["Sai Rei"] != sq("6F") || got["Darkhand5"] != sq("10I") || got["Urza's Guard"] != sq("12I") {
		t.Errorf("after the correction, turn 5 leaves %v", got)
	}
	if got := positions(t, f, id, 2); got["Sai Rei"] != sq("6F") {
		t.Errorf("after the correction, turn 2 leaves %v", got)
	}
	after, _ := f.svc.Report(ctx, f.admin, id, 2)
	if !strings.Contains(after.Text, "refused by the battle judge's correction") {
		t.Errorf("turn 2's report does not say the line was overruled:\n%s", after.Text)
	}
	recs, err := f.svc.Corrections(ctx, f.as("Mover"), id, 2)
	if err != nil || len(recs) != 1 || recs[0].ID != c.ID {
		t.Fatalf("the record: %v %+v", err, recs)
	}
	if len(recs[0].Original) != 4 || string(recs[0].Original[0].Report) != string(before.Report) {
		t.Errorf("the original of turn 2 is not kept in the record")
	}
	if pub, _ := f.svc.Corrections(ctx, f.as("Tevesh"), id, 2); len(pub) != 1 || pub[0].Original != nil {
		t.Errorf("a player reads the originals: %+v", pub)
	}
	// everyone who follows the campaign is told (the feed and the subscriptions: EventCorrected)
	feed, err := f.svc.Feed(ctx, campaign.Actor{}, id, 50)
	if err != nil {
		t.Fatal(err)
	}
	told := slices.IndexFunc(feed.Events, func(e campaign.Event) bool { return e.Kind == campaign.EventCorrected })
	if told < 0 {
		t.Errorf("the feed does not tell of the correction: %+v", feed.Events)
	} else if e := feed.Events[told]; e.Turn != 2 || !strings.Contains(e.Title, "turn 2 is corrected") || !strings.Contains(e.Body, "Turns 2–5 were adjudicated again") || !strings.Contains(e.Body, req.Reason) {
		t.Errorf("the correction's event: %q %q", e.Title, e.Body)
	}
	for n := 1; n <= 5; n++ {
		rr, err := f.svc.Replay(ctx, f.as("Mover"), id, n)
		if err != nil {
			t.Fatal(err)
		}
		if !rr.Same {
			t.Errorf("turn %d does not replay to the corrected history: %s", n, rr.Detail)
		}
	}
	// the correction is confirmed once: its preview no longer matches
	if _, err := f.svc.Correct(ctx, f.as("Batty"), id, 2, req); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("the same confirmation twice: %v", err)
	}
}

func sq(s string) domain.Square {
	q, err := domain.ParseSquare(s)
	if err != nil {
		panic(err)
	}
	return q
}

func movedArmy(tc campaign.TurnChange, army string) bool {
	for _, a := range tc.Armies {
		if a.Army == army && a.Before != nil && a.After != nil && a.Before.At != a.After.At {
			return true
		}
	}
	return false
}

// A correction is refused when it cannot be carried out: no reason, nothing to change, an open
// turn, a line accepted though it asks what cannot be done (R75).
func TestCorrectionRefusals(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	id, saiRei, _, tevesh := fiveTurns(t, f)
	cases := []struct {
		name string
		n    int
		req  campaign.CorrectionRequest
		kind error
		says string
	}{
		{"no reason", 2, campaign.CorrectionRequest{Days: []turn.DayCount{{Army: "Sai Rei", Days: 1}}}, domain.ErrInvalid, "reason"},
		{"nothing", 2, campaign.CorrectionRequest{Reason: "x"}, domain.ErrInvalid, "changes nothing"},
		{"an open turn", 6, campaign.CorrectionRequest{Reason: "x", Days: []turn.DayCount{{Army: "Sai Rei", Days: 1}}}, domain.ErrConflict, "not locked"},
		{"a refusal without reason", 2, campaign.CorrectionRequest{Reason: "x", Orders: []movement.Ruling{{Post: saiRei, Line: 1}}}, domain.ErrInvalid, "say why"},
		{"a line of another turn", 3, campaign.CorrectionRequest{Reason: "x", Orders: []movement.Ruling{{Post: saiRei, Line: 1, Accept: true}}}, domain.ErrInvalid, "no line 1 of post"},
		{"a line that cannot be carried out", 2, campaign.CorrectionRequest{Reason: "x", Orders: []movement.Ruling{{Post: tevesh, Line: 2, Accept: true}}}, domain.ErrInvalid, "R75"},
	}
	for _, c := range cases {
		_, err := f.svc.PreviewCorrection(ctx, f.as("Batty"), id, c.n, c.req)
		if !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
