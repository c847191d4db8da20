package campaign_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

// lockNow locks the open turn n on a judge's word and returns its report's text.
func (f *fixture) lockNow(id int64, n int) string {
	f.t.Helper()
	ctx := context.Background()
	if _, err := f.svc.Lock(ctx, f.as("Mover"), id, n, "test lock"); err != nil {
		f.t.Fatal(err)
	}
	rep, err := f.svc.Report(ctx, f.as("Tevesh"), id, n)
	if err != nil {
		f.t.Fatal(err)
	}
	return rep.Text
}

// TestEmergency5_2_2_2 is the table of emergency configurations: a change that breaks 5.3,
// accepted by a judge with a reason, must be put right within one turn. The lock of the turn it
// was accepted in says so; the next lock closes it, legal again or listing what is still illegal,
// each item naming its rule.
func TestEmergency5_2_2_2(t *testing.T) {
	ctx := context.Background()
	for _, r := range []struct {
		name     string
		judge    string
		army     string
		to       []string
		breaks   []string
		fix      func(f *fixture, id int64)
		outcome  string
		stillBad []string
	}{
		{name: "5.3.4 put right: legal again after one turn", judge: "Mover", army: "Karn", to: []string{"Gazetzot"}, breaks: []string{"5.3.4"},
			fix: func(f *fixture, id int64) {
				must(f.svc.SetControl(ctx, f.as("Gerrard"), id, "Spare", []string{"Kim"}, "Kim's new army"))
			}, outcome: "legal again"},
		{name: "5.3.1 left as it was: still illegal after one turn", judge: "Batty", army: "Sai Rei", to: []string{"Kim"}, breaks: []string{"5.3.1"},
			outcome: "still illegal", stillBad: []string{"5.3.1"}},
		{name: "5.3.2 given back to the namesake: legal again", judge: "Batty", army: "Gazetzot", to: []string{"Hanna"}, breaks: []string{"5.3.2"},
			fix: func(f *fixture, id int64) {
				must(f.svc.SetControl(ctx, f.as("Gerrard"), id, "Gazetzot", []string{"Gazetzot"}, "back to him"))
			}, outcome: "legal again"},
		{name: "5.3.2 and 5.3.4 half put right", judge: "Mover", army: "Lin", to: []string{"Kim"}, breaks: []string{"5.3.2", "5.3.4"},
			fix: func(f *fixture, id int64) {
				must(f.svc.SetControl(ctx, f.as("Gerrard"), id, "Spare", []string{"Lin"}, "Lin's new army"))
			}, outcome: "still illegal", stillBad: []string{"5.3.2"}},
	} {
		t.Run(r.name, func(t *testing.T) {
			f := newFixture(t)
			id := f.governCampaign()
			_, err := f.svc.SetControl(ctx, f.as("Gerrard"), id, r.army, r.to, "wanted")
			if err == nil || !slices.Equal(rulesNamed(err), r.breaks) {
				t.Fatalf("without an emergency: %v, want a refusal naming %v", err, r.breaks)
			}
			if _, err := f.svc.DeclareEmergency(ctx, f.as(r.judge), id, campaign.EmergencyRequest{Kind: campaign.Accept, Army: r.army, Controllers: r.to}); err == nil {
				t.Fatal("an emergency without a reason was accepted")
			}
			e := must(f.svc.DeclareEmergency(ctx, f.as(r.judge), id, campaign.EmergencyRequest{Kind: campaign.Accept, Army: r.army, Controllers: r.to, Reason: "the front collapses"}))
			var got []string
			for _, b := range e.Breaches {
				got = append(got, b.Rule)
			}
			if !slices.Equal(got, r.breaks) || e.Turn != 1 {
				t.Errorf("emergency %+v: want breaches %v in turn 1", e, r.breaks)
			}
			if ctl := f.controllersOf(id, r.army); !slices.Equal(ctl, r.to) {
				t.Errorf("%s is controlled by %v, want %v", r.army, ctl, r.to)
			}
			v := must(f.svc.Emergencies(ctx, f.as("Mover"), id))
			if len(v.Emergencies) != 1 || v.Emergencies[0].Due != 2 || len(v.Emergencies[0].Illegal) != len(r.breaks) {
				t.Errorf("the judge console shows %+v", v.Emergencies)
			}
			rep := f.lockNow(id, 1)
			if !strings.Contains(rep, "is in force") || !strings.Contains(rep, "by the lock of turn 2 (5.2.2.2)") {
				t.Errorf("the lock of turn 1 does not say the side must be legal by turn 2:\n%s", rep)
			}
			if r.fix != nil {
				r.fix(f, id)
			}
			rep = f.lockNow(id, 2)
			v = must(f.svc.Emergencies(ctx, f.as("Mover"), id))
			closed := v.Emergencies[0]
			if closed.ClosedTurn != 2 || !strings.HasPrefix(closed.Outcome, r.outcome) {
				t.Errorf("closed %+v, want closed at 2 with %q", closed.Emergency, r.outcome)
			}
			i := strings.Index(rep, "Control lists (5.2.2.2, 5.3)")
			if i < 0 {
				t.Fatalf("the lock of turn 2 says nothing of the control list:\n%s", rep)
			}
			section := rep[i:]
			if r.stillBad == nil {
				if !strings.Contains(section, "legal configuration again") {
					t.Errorf("the lock of turn 2 does not say the side is legal again:\n%s", section)
				}
				return
			}
			if !strings.Contains(section, "still not in a legal configuration") {
				t.Errorf("the lock of turn 2 does not say the side is still illegal:\n%s", section)
			}
			var listed []string
			for _, b := range []string{"5.3.1", "5.3.2", "5.3.4"} {
				if strings.Contains(closed.Outcome, "("+b+")") {
					listed = append(listed, b)
				}
			}
			if !slices.Equal(listed, r.stillBad) {
				t.Errorf("still illegal: %q, want the rules %v", closed.Outcome, r.stillBad)
			}
			if rep3 := f.lockNow(id, 3); strings.Contains(rep3, "emergency") {
				t.Errorf("a closed emergency is reported again:\n%s", rep3)
			}
		})
	}
}

// An emergency authorization lets two other people change the side's control list until the
// lock of the turn after (5.2.2.2), under 5.3 as the holders are; a judge authorizes, nobody else.
func TestEmergencyAuthorization5_2_2_2(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	id := f.governCampaign()
	req := campaign.EmergencyRequest{Side: domain.Coalition, Kind: campaign.Authorize, People: []string{"Kim", "Pip"}, Reason: "holders away"}
	for _, who := range []string{"Gerrard", "Kim", "Tevesh"} {
		if _, err := f.svc.DeclareEmergency(ctx, f.as(who), id, req); !errors.Is(err, domain.ErrForbidden) {
			t.Errorf("%s authorized: %v", who, err)
		}
	}
	for _, bad := range []campaign.EmergencyRequest{
		{Side: domain.Coalition, Kind: campaign.Authorize, People: []string{"Kim"}, Reason: "one"},
		{Side: domain.Coalition, Kind: campaign.Authorize, People: []string{"Gerrard", "Hanna"}, Reason: "the holders"},
		{Side: domain.Coalition, Kind: campaign.Authorize, People: []string{"Kim", "Tevesh"}, Reason: "other side"},
		{Side: domain.Coalition, Kind: "veto", Reason: "no such kind"},
		{Kind: campaign.Accept, Army: "Urza's Guard", Controllers: []string{"Kim"}, Reason: "breaks nothing"},
	} {
		if _, err := f.svc.DeclareEmergency(ctx, f.as("Batty"), id, bad); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
	must(f.svc.DeclareEmergency(ctx, f.as("Batty"), id, req))
	must(f.svc.SetControl(ctx, f.as("Kim"), id, "Urza's Guard", []string{"Pip"}, "authorized"))
	if _, err := f.svc.SetControl(ctx, f.as("Pip"), id, "Karn", []string{"Pip"}, "authorized, but 5.3.4"); err == nil || !slices.Equal(rulesNamed(err), []string{"5.3.4"}) {
		t.Errorf("an authorized person broke 5.3.4: %v", err)
	}
	if rep := f.lockNow(id, 1); !strings.Contains(rep, "Kim and Pip authorized") {
		t.Errorf("the lock of turn 1 does not name the authorization:\n%s", rep)
	}
	must(f.svc.SetControl(ctx, f.as("Pip"), id, "Urza's Guard", []string{"Kim"}, "still authorized in turn 2"))
	if rep := f.lockNow(id, 2); !strings.Contains(rep, "ends at this lock") {
		t.Errorf("the lock of turn 2 does not end the authorization:\n%s", rep)
	}
	if _, err := f.svc.SetControl(ctx, f.as("Kim"), id, "Urza's Guard", []string{"Pip"}, "no longer"); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("after its turn of grace the authorization still holds: %v", err)
	}
}

// The change power (5.2.2.1): two holders a side, the CP/General and the first Admiral by
// default; a holder hands on his own, the CP/General takes it from either, the battle judge
// moves it too; nobody else, and never to a third holder or another side's player.
func TestChangePower5_2_2_1(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	id := f.governCampaign()
	holders := func() []string {
		return must(f.svc.Power(ctx, id)).Holders[domain.Coalition]
	}
	if h := holders(); !slices.Equal(h, []string{"Gerrard", "Hanna"}) {
		t.Fatalf("default holders %v", h)
	}
	if h := must(f.svc.Power(ctx, id)).Holders[domain.Phyrexia]; !slices.Equal(h, []string{"Tevesh"}) {
		t.Errorf("Phyrexia's holders %v: its only player", h)
	}
	for _, r := range []struct {
		by   string
		req  campaign.PowerRequest
		kind error
		want []string
	}{
		{by: "Kim", req: campaign.PowerRequest{Side: domain.Coalition, From: "Hanna", To: "Kim"}, kind: domain.ErrForbidden},
		{by: "Rook", req: campaign.PowerRequest{Side: domain.Coalition, From: "Hanna", To: "Rook"}, kind: domain.ErrForbidden},
		{by: "Hanna", req: campaign.PowerRequest{Side: domain.Coalition, From: "Gerrard", To: "Kim"}, kind: domain.ErrForbidden},
		{by: "Hanna", req: campaign.PowerRequest{Side: domain.Coalition, To: "Tevesh"}, kind: domain.ErrInvalid},
		{by: "Hanna", req: campaign.PowerRequest{Side: domain.Coalition, To: "Gerrard"}, kind: domain.ErrConflict},
		{by: "Mover", req: campaign.PowerRequest{Side: domain.Coalition, From: "Hanna", To: "Kim"}, kind: domain.ErrForbidden},
		{by: "Hanna", req: campaign.PowerRequest{Side: domain.Coalition, To: "Kim", Reason: "away"}, want: []string{"Gerrard", "Kim"}},
		{by: "Gerrard", req: campaign.PowerRequest{Side: domain.Coalition, From: "Gerrard", To: "Rook"}, want: []string{"Rook", "Kim"}},
		{by: "Gerrard", req: campaign.PowerRequest{Side: domain.Coalition, From: "Kim", To: "Gerrard", Reason: "back from leave"}, want: []string{"Rook", "Gerrard"}},
		{by: "Batty", req: campaign.PowerRequest{Side: domain.Coalition, From: "Rook", To: "Hanna"}, want: []string{"Hanna", "Gerrard"}},
	} {
		_, err := f.svc.HandPower(ctx, f.as(r.by), id, r.req)
		if r.want == nil {
			if !errors.Is(err, r.kind) || !strings.Contains(err.Error(), "5.2.2.1") {
				t.Errorf("%s %+v: %v, want %v naming 5.2.2.1", r.by, r.req, err, r.kind)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s %+v: %v", r.by, r.req, err)
		}
		if h := holders(); !slices.Equal(h, r.want) {
			t.Errorf("after %s %+v the holders are %v, want %v", r.by, r.req, h, r.want)
		}
	}
	if h := must(f.svc.Power(ctx, id)).History; len(h) != 4 || h[0].By != "Hanna" || !slices.Equal(h[0].Names, []string{"Gerrard", "Kim"}) {
		t.Errorf("history %+v", h)
	}
}
