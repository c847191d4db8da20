package campaign_test

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

// governCampaign is the campaign of the governance tests. The Coalition: Gerrard (General,
// team leader) and Hanna (Admiral) hold the change power by default (5.2.2.1); Rook (Captain,
// team leader) does not. Gazetzot (Captain) controls his namesake army Gazetzot and Urza's
// Guard; Kim (Lieutenant) controls Karn, his last army; Lin (Lieutenant) his namesake and last
// army Lin; Pip (Lieutenant) his namesake army Pip, of Commander rank, and Pip's Aide; Ozzy (Lt.
// Commander) only Ozzy's Wing; Hanna Sai Rei and Vanguard; Spare has no controller. Phyrexia:
// Tevesh. Judges: Mover, Batty.
func (f *fixture) governCampaign() int64 {
	f.t.Helper()
	C := domain.Coalition
	m := &domain.Map{Grid: domain.DefaultGrid, Armies: []domain.Army{
		army("Gazetzot", C, domain.Captain, "3F", "Gazetzot"),
		army("Urza's Guard", C, domain.Lieutenant, "20F", "Gazetzot"),
		army("Sai Rei", C, domain.Captain, "5B", "Hanna"),
		army("Vanguard", C, domain.Admiral, "12B", "Hanna"),
		army("Karn", C, domain.Lieutenant, "15J", "Kim"),
		army("Lin", C, domain.Lieutenant, "25C", "Lin"),
		army("Pip", C, domain.Commander, "8H", "Pip"),
		army("Pip's Aide", C, domain.Lieutenant, "9H", "Pip"),
		army("Ozzy's Wing", C, domain.LtCommander, "30D", "Ozzy"),
		army("Spare", C, domain.Lieutenant, "33E"),
		army("Gerrard", C, domain.General, "36A", "Gerrard"),
		army("Darkhand5", domain.Phyrexia, domain.Commander, "10F", "Tevesh"),
	}}
	pl := func(name string, rank domain.Rank, roles ...campaign.Role) campaign.Member {
		return campaign.Member{Name: name, Roles: append([]campaign.Role{campaign.Player}, roles...), Side: C, Rank: rank}
	}
	su := campaign.Setup{Name: "Governed", Map: m, Members: []campaign.Member{
		pl("Gerrard", domain.General, campaign.Leader), pl("Hanna", domain.Admiral), pl("Rook", domain.Captain, campaign.Leader),
		pl("Gazetzot", domain.Captain), pl("Kim", domain.Lieutenant), pl("Lin", domain.Lieutenant), pl("Pip", domain.Lieutenant),
		pl("Ozzy", domain.LtCommander),
		{Name: "Tevesh", Roles: []campaign.Role{campaign.Player}, Side: domain.Phyrexia, Rank: domain.Commander},
		{Name: "Mover", Roles: []campaign.Role{campaign.MovementJudge}},
		{Name: "Batty", Roles: []campaign.Role{campaign.BattleJudge}},
	}}
	created, err := f.svc.CreateCampaign(context.Background(), f.admin, su)
	if err != nil {
		f.t.Fatal(err)
	}
	f.passwords = map[string]string{}
	for _, a := range created.Accounts {
		acc, err := f.svc.Login(context.Background(), a.Account.Name, a.Password)
		if err != nil {
			f.t.Fatal(err)
		}
		f.actors[a.Account.Name] = campaign.Actor{Account: acc}
		f.passwords[a.Account.Name] = a.Password
	}
	return created.Campaign.ID
}

// must is v, or a panic that fails the test on err.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// controllersOf is who controls army now.
func (f *fixture) controllersOf(id int64, army string) []string {
	f.t.Helper()
	l, err := f.svc.Control(context.Background(), id)
	if err != nil {
		f.t.Fatal(err)
	}
	return l.Current[army]
}

// rulesNamed lists the rules of chapter 5 an error's message names.
func rulesNamed(err error) []string {
	var out []string
	for _, r := range regexp.MustCompile(`5\.[0-9]+\.[0-9]+(\.[0-9]+)?`).FindAllString(err.Error(), -1) {
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return out
}

// TestControlChanges5_3 is the table of control changes: each protection of 5.3 refuses a change
// naming its rule, each exception lets one through (5.1's inactive players, 5.3.1's Captains and
// the namesake whose rank cannot hold his army, 5.3.2's consent), 5.3.3 is not enforced, and only
// the holders of change power (5.2.2.1) and the movement judge change the list.
func TestControlChanges5_3(t *testing.T) {
	ctx := context.Background()
	type step func(f *fixture, id int64)
	setInactive := func(who string) step {
		return func(f *fixture, id int64) {
			must(f.svc.SetInactive(ctx, f.as(who), id, campaign.InactiveRequest{Inactive: true, Reason: "holidays"}))
		}
	}
	declare := func(who string) step {
		return func(f *fixture, id int64) {
			must(f.svc.DeclareInactive(ctx, f.as("Rook"), id, campaign.DeclareRequest{Player: who, Reason: "silent for days"}))
		}
	}
	rows := []struct {
		name        string
		setup       []step
		by          string
		army        string
		to          []string
		rules       []string // the rules the refusal names; nil: the change is made
		kind        error
		controllers []string // after the change, when made
	}{
		{name: "a holder moves an army that is nobody's namesake nor last", by: "Gerrard", army: "Urza's Guard", to: []string{"Kim"}, controllers: []string{"Kim"}},
		{name: "5.2.2.1 a team leader without change power", by: "Rook", army: "Urza's Guard", to: []string{"Kim"}, rules: []string{"5.2.2.1"}, kind: domain.ErrForbidden},
		{name: "5.2.2.1 the second holder (Admiral by default)", by: "Hanna", army: "Urza's Guard", to: []string{"Kim"}, controllers: []string{"Kim"}},
		{name: "5.2.2.1 the movement judge keeps the list", by: "Mover", army: "Urza's Guard", to: []string{"Pip"}, controllers: []string{"Pip"}},
		{name: "5.2.2.1 the battle judge does not change it", by: "Batty", army: "Urza's Guard", to: []string{"Kim"}, rules: []string{"5.2.2.1"}, kind: domain.ErrForbidden},
		{name: "5.2.2.1 a player of the other side", by: "Tevesh", army: "Urza's Guard", to: []string{"Kim"}, rules: []string{"5.2.2.1"}, kind: domain.ErrForbidden},
		{name: "5.3.1 an army above the controller's rank", by: "Gerrard", army: "Sai Rei", to: []string{"Kim"}, rules: []string{"5.3.1"}, kind: domain.ErrInvalid},
		{name: "5.3.1 exception: a Captain controls any army", by: "Gerrard", army: "Vanguard", to: []string{"Gazetzot"}, controllers: []string{"Gazetzot"}},
		{name: "5.3.2 a namesake army without consent", by: "Gerrard", army: "Gazetzot", to: []string{"Hanna"}, rules: []string{"5.3.2"}, kind: domain.ErrInvalid},
		{name: "5.3.2 exception: it conflicts with 5.3.1 (a Lieutenant's Commander-rank namesake)", by: "Gerrard", army: "Pip", to: []string{"Gazetzot"}, controllers: []string{"Gazetzot"}},
		{name: "5.3.2 and 5.3.4 exception: the player said he is inactive (5.1)", setup: []step{setInactive("Lin")}, by: "Gerrard", army: "Lin", to: []string{"Kim"}, controllers: []string{"Kim"}},
		{name: "5.3.1 and 5.3.2 at once", by: "Gerrard", army: "Gazetzot", to: []string{"Kim"}, rules: []string{"5.3.1", "5.3.2"}, kind: domain.ErrInvalid},
		{name: "5.3.4 an active player's last army", by: "Gerrard", army: "Karn", to: []string{"Gazetzot"}, rules: []string{"5.3.4"}, kind: domain.ErrInvalid},
		{name: "5.3.4 the movement judge keeps it too", by: "Mover", army: "Karn", to: []string{"Gazetzot"}, rules: []string{"5.3.4"}, kind: domain.ErrInvalid},
		{name: "5.3.4 and 5.3.2 a namesake that is the last army", by: "Gerrard", army: "Lin", to: []string{"Kim"}, rules: []string{"5.3.2", "5.3.4"}, kind: domain.ErrInvalid},
		{name: "5.3.4 exception: his leaders declared him inactive (5.1)", setup: []step{declare("Kim")}, by: "Gerrard", army: "Karn", to: []string{"Gazetzot"}, controllers: []string{"Gazetzot"}},
		{name: "5.3.4 the battle judge rejected the declaration (5.1)", setup: []step{declare("Kim"), func(f *fixture, id int64) {
			st := must(f.svc.Activity(ctx, f.as("Batty"), id))
			must(f.svc.RejectDeclaration(ctx, f.as("Batty"), id, st.Statements[0].ID, "Kim posted in the side's channel yesterday"))
		}}, by: "Gerrard", army: "Karn", to: []string{"Gazetzot"}, rules: []string{"5.3.4"}, kind: domain.ErrInvalid},
		{name: "5.3.4 a declared player who posts since is active again (R81)", setup: []step{declare("Kim"), func(f *fixture, id int64) {
			f.clock.Set(start.Add(time.Minute))
			must(f.svc.SendMessage(ctx, f.as("Kim"), id, campaign.MessageRequest{Channel: "side", Text: "still here"}))
		}}, by: "Gerrard", army: "Karn", to: []string{"Gazetzot"}, rules: []string{"5.3.4"}, kind: domain.ErrInvalid},
		{name: "5.3.4 exception: no post within the last week (5.1)", setup: []step{func(f *fixture, id int64) { f.clock.Set(start.Add(8 * 24 * time.Hour)) }},
			by: "Gerrard", army: "Karn", to: []string{"Gazetzot"}, controllers: []string{"Gazetzot"}},
		{name: "5.3.4 a player who posted within the week is active", setup: []step{func(f *fixture, id int64) {
			f.clock.Set(start.Add(2 * 24 * time.Hour))
			must(f.svc.SendMessage(ctx, f.as("Kim"), id, campaign.MessageRequest{Channel: "public", Text: "hello"}))
			f.clock.Set(start.Add(8 * 24 * time.Hour))
		}}, by: "Gerrard", army: "Karn", to: []string{"Gazetzot"}, rules: []string{"5.3.4"}, kind: domain.ErrInvalid},
		{name: "5.3.3 is not enforced", by: "Gerrard", army: "Spare", to: []string{"Gazetzot"}, controllers: []string{"Gazetzot"}},
		{name: "5.2.2.1 the power handed on: the new holder changes the list", setup: []step{func(f *fixture, id int64) {
			must(f.svc.HandPower(ctx, f.as("Hanna"), id, campaign.PowerRequest{Side: domain.Coalition, To: "Rook", Reason: "away a month"}))
		}}, by: "Rook", army: "Urza's Guard", to: []string{"Kim"}, controllers: []string{"Kim"}},
		{name: "5.2.2.1 the power handed on: the old holder does not", setup: []step{func(f *fixture, id int64) {
			must(f.svc.HandPower(ctx, f.as("Hanna"), id, campaign.PowerRequest{Side: domain.Coalition, To: "Rook"}))
		}}, by: "Hanna", army: "Urza's Guard", to: []string{"Kim"}, rules: []string{"5.2.2.1"}, kind: domain.ErrForbidden},
		{name: "5.2.2.2 two people authorized in an emergency", setup: []step{func(f *fixture, id int64) {
			must(f.svc.DeclareEmergency(ctx, f.as("Batty"), id, campaign.EmergencyRequest{Side: domain.Coalition, Kind: campaign.Authorize, People: []string{"Kim", "Pip"}, Reason: "both holders are away"}))
		}}, by: "Kim", army: "Urza's Guard", to: []string{"Pip"}, controllers: []string{"Pip"}},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			f := newFixture(t)
			id := f.governCampaign()
			for _, s := range r.setup {
				s(f, id)
			}
			before := f.controllersOf(id, r.army)
			_, err := f.svc.SetControl(ctx, f.as(r.by), id, r.army, r.to, "test")
			if r.rules == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if got := f.controllersOf(id, r.army); !slices.Equal(got, r.controllers) {
					t.Errorf("%s is controlled by %v, want %v", r.army, got, r.controllers)
				}
				return
			}
			if err == nil {
				t.Fatalf("%s gave %s to %v: want a refusal naming %v", r.by, r.army, r.to, r.rules)
			}
			if !errors.Is(err, r.kind) {
				t.Errorf("refusal %v: want kind %v", err, r.kind)
			}
			if got := rulesNamed(err); !slices.Equal(got, r.rules) {
				t.Errorf("the refusal names %v, want %v: %v", got, r.rules, err)
			}
			if got := f.controllersOf(id, r.army); !slices.Equal(got, before) {
				t.Errorf("after a refusal %s is controlled by %v, was %v", r.army, got, before)
			}
		})
	}
}

// 5.3.2's consent is a request the namesake player accepts: accepted, the change is made as
// asked; declined, nothing changes and the change is still refused.
func TestConsentRequest5_3_2(t *testing.T) {
	ctx := context.Background()
	for _, accept := range []bool{true, false} {
		t.Run(map[bool]string{true: "accepted", false: "declined"}[accept], func(t *testing.T) {
			f := newFixture(t)
			id := f.governCampaign()
			req := must(f.svc.RequestConsent(ctx, f.as("Gerrard"), id, campaign.ControlRequestInput{Army: "Gazetzot", Controllers: []string{"Hanna"}, Reason: "Hanna leads the push"}))
			if req.Namesake != "Gazetzot" || req.Status != campaign.Pending {
				t.Fatalf("request %+v", req)
			}
			if _, err := f.svc.AnswerConsent(ctx, f.as("Gerrard"), id, req.ID, true, ""); !errors.Is(err, domain.ErrForbidden) {
				t.Errorf("the asker answered his own request: %v", err)
			}
			got := must(f.svc.AnswerConsent(ctx, f.as("Gazetzot"), id, req.ID, accept, "fine"))
			want := []string{"Gazetzot"}
			if accept {
				want = []string{"Hanna"}
			}
			if ctl := f.controllersOf(id, "Gazetzot"); !slices.Equal(ctl, want) {
				t.Errorf("after the answer (%s) Gazetzot is controlled by %v, want %v", got.Status, ctl, want)
			}
			if _, err := f.svc.AnswerConsent(ctx, f.as("Gazetzot"), id, req.ID, true, ""); !errors.Is(err, domain.ErrConflict) {
				t.Errorf("answered twice: %v", err)
			}
			if !accept {
				_, err := f.svc.SetControl(ctx, f.as("Gerrard"), id, "Gazetzot", []string{"Hanna"}, "anyway")
				if err == nil || !slices.Equal(rulesNamed(err), []string{"5.3.2"}) {
					t.Errorf("after a refusal of consent: %v", err)
				}
			}
		})
	}
	t.Run("a change that needs no consent is not asked", func(t *testing.T) {
		f := newFixture(t)
		id := f.governCampaign()
		if _, err := f.svc.RequestConsent(ctx, f.as("Gerrard"), id, campaign.ControlRequestInput{Army: "Urza's Guard", Controllers: []string{"Kim"}}); err == nil || !strings.Contains(err.Error(), "needs nobody's consent") {
			t.Errorf("got %v", err)
		}
		if _, err := f.svc.RequestConsent(ctx, f.as("Gerrard"), id, campaign.ControlRequestInput{Army: "Lin", Controllers: []string{"Kim"}}); err == nil || !slices.Equal(rulesNamed(err), []string{"5.3.4"}) {
			t.Errorf("consent does not lift 5.3.4 (R83): %v", err)
		}
	})
}

// A demotion frees the armies the new rank cannot control and tells the side (5.3.1); when it
// takes an active player's last army, 5.3.4's exception allows it only when his rank has more
// players than armies, else a new army is owed to him until he gets one.
func TestDemotion5_3_1And5_3_4(t *testing.T) {
	ctx := context.Background()
	for _, r := range []struct {
		name   string
		rank   domain.Rank
		notice string
		owed   bool
	}{
		{name: "exception: more Cadets than armies Cadets control", rank: domain.Cadet, notice: "5.3.4's exception applies"},
		{name: "no exception: a new army must be found", rank: domain.Lieutenant, notice: "a new army must be found for him (5.3.4", owed: true},
	} {
		t.Run(r.name, func(t *testing.T) {
			f := newFixture(t)
			id := f.governCampaign()
			must(f.svc.SetMember(ctx, f.as("Gerrard"), id, campaign.Member{Name: "Ozzy", Rank: r.rank}))
			if ctl := f.controllersOf(id, "Ozzy's Wing"); len(ctl) != 0 {
				t.Errorf("Ozzy's Wing is still controlled by %v (5.3.1)", ctl)
			}
			v := must(f.svc.Emergencies(ctx, f.as("Kim"), id))
			var texts []string
			for _, n := range v.Notices {
				texts = append(texts, n.Text)
			}
			all := strings.Join(texts, "\n")
			if !strings.Contains(all, "controlled by no player") || !strings.Contains(all, "(5.3.1)") || !strings.Contains(all, r.notice) {
				t.Errorf("the side was told:\n%s\nwant (5.3.1) and %q", all, r.notice)
			}
			msgs := must(f.svc.Messages(ctx, f.as("Kim"), id, 1))
			if len(msgs) != 1 || msgs[0].Channel != "coalition" || !strings.Contains(msgs[0].Text, "Ozzy's Wing") {
				t.Errorf("the side's channel holds %+v", msgs)
			}
			if got := len(v.Owed[domain.Coalition]); (got > 0) != r.owed {
				t.Errorf("owed armies %+v, want owed %v", v.Owed, r.owed)
			}
			if r.owed {
				must(f.svc.SetControl(ctx, f.as("Gerrard"), id, "Spare", []string{"Ozzy"}, "his new army"))
				if v := must(f.svc.Emergencies(ctx, f.as("Kim"), id)); len(v.Owed[domain.Coalition]) != 0 {
					t.Errorf("still owed after Spare went to Ozzy: %+v", v.Owed)
				}
			}
			if v := must(f.svc.Emergencies(ctx, f.as("Tevesh"), id)); len(v.Notices) != 0 || len(v.Owed[domain.Coalition]) != 0 {
				t.Errorf("the other side sees %+v", v)
			}
		})
	}
}
