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
)

// renameRun plays turn 1 of the governance campaign: Kim names Gazetzot his contingency,
// Gazetzot orders his two armies, and — when rename is set — he becomes "Gaz the Bold" with his
// namesake army, approved by the battle judge, before the lock. It returns the fixture and id.
func renameRun(t *testing.T, rename bool) (*fixture, int64) {
	ctx := context.Background()
	f := newFixture(t)
	id := f.governCampaign()
	must(f.svc.SetMember(ctx, f.as("Gerrard"), id, campaign.Member{Name: "Kim", Contingency: "Gazetzot"}))
	must(f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Gazetzot: 3F > 4F\nUrza's Guard: 20F > 21F"}))
	if rename {
		n := must(f.svc.AskName(ctx, f.as("Gazetzot"), id, campaign.NameRequest{Name: "Gaz the Bold", RenameArmy: true}))
		if n.Army != "Gazetzot" || n.ArmyName != "Gaz the Bold" {
			t.Fatalf("request %+v", n)
		}
		must(f.svc.DecideName(ctx, f.as("Batty"), id, n.ID, true, "e-mailed me"))
	}
	return f, id
}

// TestNameChange1_6 is the name change that keeps the account's powers (1.6): its controls, its
// contingency links and its history follow the new name, old posts keep the name they were made
// under with the new one beside it, and the lock after it gives the same result as a lock without
// it — the same report and map, but for the name.
func TestNameChange1_6(t *testing.T) {
	ctx := context.Background()
	plain, pid := renameRun(t, false)
	f, id := renameRun(t, true)

	if _, err := f.svc.Login(ctx, "Gazetzot", "x"); err == nil {
		t.Error("the old name still logs in")
	}
	for _, army := range []string{"Gazetzot", "Urza's Guard"} {
		if got := f.controllersOf(id, army); !slices.Equal(got, []string{"Gaz the Bold"}) {
			t.Errorf("%s is controlled by %v after the name change", army, got)
		}
	}
	ms := must(f.svc.Members(ctx, id))
	kim := ms[slices.IndexFunc(ms, func(m campaign.Member) bool { return m.Name == "Kim" })]
	if kim.Contingency != "Gaz the Bold" {
		t.Errorf("Kim's contingency is %q", kim.Contingency)
	}
	hist := must(f.svc.Control(ctx, id)).History
	if len(hist) < 2 || !strings.Contains(hist[len(hist)-1].Reason, "screen name change (1.6): Gazetzot is now Gaz the Bold") {
		t.Errorf("the control history does not tell the name change: %+v", hist)
	}
	posts := must(f.svc.Posts(ctx, f.as("Tevesh"), id, 1))
	if len(posts) != 1 || posts[0].Author != "Gazetzot" || posts[0].AuthorNow != "Gaz the Bold" {
		t.Errorf("the old post shows %+v", posts)
	}
	names := must(f.svc.NameChanges(ctx, f.as("Tevesh"), id))
	if len(names) != 1 || names[0].Status != campaign.Approved {
		t.Errorf("the name history shows %+v", names)
	}
	// the namesake army keeps its name in the open turn, which its orders name
	if got := f.controllersOf(id, "Gaz the Bold"); got != nil {
		t.Errorf("the army was renamed before the turn's lock: %v", got)
	}

	plain.lockNow(pid, 1)
	f.lockNow(id, 1)
	a := must(plain.svc.Report(ctx, plain.as("Mover"), pid, 1))
	b := must(f.svc.Report(ctx, f.as("Mover"), id, 1))
	if got := strings.ReplaceAll(string(b.Report), "Gaz the Bold", "Gazetzot"); got != string(a.Report) {
		t.Errorf("the lock after the name change differs from the lock without it:\n%s\n%s", a.Report, b.Report)
	}
	var rep struct {
		Moves []struct{ Army, To string } `json:"moves"`
	}
	if err := json.Unmarshal(b.Report, &rep); err != nil || len(rep.Moves) != 2 {
		t.Errorf("the orders posted under the old name did not move the armies: %s", b.Report)
	}
	if r := must(f.svc.Replay(ctx, f.as("Mover"), id, 1)); !r.Same {
		t.Errorf("replay of turn 1: %s", r.Detail)
	}

	m := must(f.svc.CurrentMap(ctx, f.as("Tevesh"), id))
	i := slices.IndexFunc(m.Armies, func(a campaign.MapArmy) bool { return a.Name == "Gaz the Bold" })
	if i < 0 || m.Armies[i].At.String() != "4F" || !slices.Equal(m.Armies[i].Controllers, []string{"Gaz the Bold"}) {
		t.Fatalf("turn 2 does not open with the namesake army renamed: %+v", m.Armies)
	}
	gaz := must(f.svc.Login(ctx, "Gaz the Bold", f.passwordOf("Gazetzot")))
	must(f.svc.Post(ctx, campaign.Actor{Account: gaz}, id, campaign.PostRequest{Text: "Gaz the Bold: 4F > 5F"}))
	f.lockNow(id, 2)
	if r := must(f.svc.Replay(ctx, f.as("Mover"), id, 2)); !r.Same {
		t.Errorf("replay of turn 2: %s", r.Detail)
	}
	if got := f.controllersOf(id, "Gaz the Bold"); !slices.Equal(got, []string{"Gaz the Bold"}) {
		t.Errorf("after turn 2 the army is controlled by %v", got)
	}
}

// passwordOf is the password CreateCampaign gave an account of governCampaign.
func (f *fixture) passwordOf(name string) string { return f.passwords[name] }

// Name changes are decided by the battle judge only, once; a name another account holds or would
// look like is refused, and so is a second request while one waits.
func TestNameChangeRefusals1_6(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	id := f.governCampaign()
	if _, err := f.svc.AskName(ctx, f.as("Kim"), id, campaign.NameRequest{Name: "Hanna"}); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("a taken name: %v", err)
	}
	if _, err := f.svc.AskName(ctx, f.as("Kim"), id, campaign.NameRequest{Name: "Kimmy", RenameArmy: true}); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("Kim has no namesake army: %v", err)
	}
	n := must(f.svc.AskName(ctx, f.as("Kim"), id, campaign.NameRequest{Name: "Kimmy"}))
	if _, err := f.svc.AskName(ctx, f.as("Kim"), id, campaign.NameRequest{Name: "Kimberly"}); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("a second request: %v", err)
	}
	for _, who := range []string{"Mover", "Gerrard", "Kim"} {
		if _, err := f.svc.DecideName(ctx, f.as(who), id, n.ID, true, ""); !errors.Is(err, domain.ErrForbidden) {
			t.Errorf("%s decided: %v", who, err)
		}
	}
	if got := must(f.svc.NameChanges(ctx, f.as("Tevesh"), id)); len(got) != 0 {
		t.Errorf("another player sees a waiting request: %+v", got)
	}
	must(f.svc.DecideName(ctx, f.as("Batty"), id, n.ID, false, "too close to Kim's army"))
	if _, err := f.svc.DecideName(ctx, f.as("Batty"), id, n.ID, true, ""); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("decided twice: %v", err)
	}
}

// Admission (1.1): a newcomer asks a side; its team leaders accept him with a rank below
// Praetor/Admiral and at most three factions on the Coalition side (1.1.2), or decline; the
// battle judge may not ask (1.3), nor may the other side's leaders answer.
func TestAdmission1_1(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	id := f.governCampaign()
	must(f.svc.CreateAccount(ctx, f.admin, "Newcomer", "newcomer-password", false))
	nc := campaign.Actor{Account: must(f.svc.Login(ctx, "Newcomer", "newcomer-password"))}
	four := []domain.Color{domain.Red, domain.Green, domain.Blue, domain.White}
	if _, err := f.svc.AskAdmission(ctx, nc, id, campaign.AdmissionRequest{Side: domain.Coalition, Factions: four}); err == nil || !strings.Contains(err.Error(), "1.1.2") {
		t.Errorf("four factions: %v", err)
	}
	for _, who := range []string{"Batty", "Kim"} {
		if _, err := f.svc.AskAdmission(ctx, f.as(who), id, campaign.AdmissionRequest{Side: domain.Phyrexia}); !errors.Is(err, domain.ErrForbidden) {
			t.Errorf("%s asked for admission: %v", who, err)
		}
	}
	ad := must(f.svc.AskAdmission(ctx, nc, id, campaign.AdmissionRequest{Side: domain.Coalition, Message: "I play green", Factions: []domain.Color{domain.Green}}))
	if _, err := f.svc.AskAdmission(ctx, nc, id, campaign.AdmissionRequest{Side: domain.Phyrexia}); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("two requests at once: %v", err)
	}
	for _, r := range []struct {
		who  string
		dec  campaign.AdmissionDecision
		kind error
	}{
		{who: "Tevesh", dec: campaign.AdmissionDecision{Rank: domain.Lieutenant}, kind: domain.ErrForbidden},
		{who: "Kim", dec: campaign.AdmissionDecision{Rank: domain.Lieutenant}, kind: domain.ErrForbidden},
		{who: "Rook", dec: campaign.AdmissionDecision{Rank: domain.Admiral}, kind: domain.ErrForbidden},
		{who: "Rook", dec: campaign.AdmissionDecision{Rank: domain.Lieutenant, Factions: four}, kind: domain.ErrInvalid},
		{who: "Rook", dec: campaign.AdmissionDecision{}, kind: domain.ErrInvalid},
	} {
		if _, err := f.svc.DecideAdmission(ctx, f.as(r.who), id, ad.ID, true, r.dec); !errors.Is(err, r.kind) {
			t.Errorf("%s accepted with %+v: %v, want %v", r.who, r.dec, err, r.kind)
		}
	}
	got := must(f.svc.DecideAdmission(ctx, f.as("Rook"), id, ad.ID, true, campaign.AdmissionDecision{Rank: domain.Commander, Factions: []domain.Color{domain.Green, domain.Red}}))
	if got.Status != campaign.Accepted || got.Rank != domain.Commander {
		t.Errorf("accepted %+v", got)
	}
	ms := must(f.svc.Members(ctx, id))
	i := slices.IndexFunc(ms, func(m campaign.Member) bool { return m.Name == "Newcomer" })
	if i < 0 || ms[i].Side != domain.Coalition || ms[i].Rank != domain.Commander || len(ms[i].Factions) != 2 || ms[i].JoinedAt == nil {
		t.Fatalf("members %+v", ms)
	}
	v := must(f.svc.Activity(ctx, f.as("Kim"), id))
	j := slices.IndexFunc(v.Players, func(a campaign.Activity) bool { return a.Player == "Newcomer" })
	if j < 0 || v.Players[j].Active || !slices.Equal(v.Players[j].Why, []string{"controls no army (5.1)"}) {
		t.Errorf("the newcomer's activity %+v: he joined now (R80) and controls nothing", v.Players[j])
	}
	if _, err := f.svc.DecideAdmission(ctx, f.as("Rook"), id, ad.ID, false, campaign.AdmissionDecision{}); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("decided twice: %v", err)
	}
}

// Rule 1.3: the battle judge cannot hold a player's role, and an assistant judge acts as the
// judge he assists, who may overrule him — never the other way round.
func TestJudges1_3(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	m := &domain.Map{Grid: domain.DefaultGrid, Armies: []domain.Army{
		army("Karn", domain.Coalition, domain.Lieutenant, "15J", "Kim"),
		army("Vorthos", domain.Phyrexia, domain.Lieutenant, "15J", "Tevesh"),
	}}
	players := []campaign.Member{
		{Name: "Gerrard", Roles: []campaign.Role{campaign.Player, campaign.Leader}, Side: domain.Coalition, Rank: domain.General},
		{Name: "Kim", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.Lieutenant},
		{Name: "Tevesh", Roles: []campaign.Role{campaign.Player}, Side: domain.Phyrexia, Rank: domain.Commander},
		{Name: "Batty", Roles: []campaign.Role{campaign.BattleJudge}},
		{Name: "Mover", Roles: []campaign.Role{campaign.MovementJudge, campaign.Player}, Side: domain.Phyrexia, Rank: domain.Lieutenant},
	}
	bad := append(slices.Clone(players), campaign.Member{Name: "Both", Roles: []campaign.Role{campaign.BattleJudge, campaign.Player}, Side: domain.Coalition})
	if _, err := f.svc.CreateCampaign(ctx, f.admin, campaign.Setup{Name: "Bad", Map: m, Members: bad}); err == nil || !strings.Contains(err.Error(), "1.3") {
		t.Errorf("a battle judge who plays was created: %v", err)
	}
	created := must(f.svc.CreateCampaign(ctx, f.admin, campaign.Setup{Name: "Judged", Map: m, Members: players}))
	id := created.Campaign.ID
	for _, a := range created.Accounts {
		f.actors[a.Account.Name] = campaign.Actor{Account: must(f.svc.Login(ctx, a.Account.Name, a.Password))}
	}
	must(f.svc.CreateAccount(ctx, f.admin, "Ada", "ada-password-long", false))
	f.actors["Ada"] = campaign.Actor{Account: must(f.svc.Login(ctx, "Ada", "ada-password-long"))}

	for _, r := range []struct {
		name string
		m    campaign.Member
		want string
	}{
		{name: "the battle judge made a player", m: campaign.Member{Name: "Batty", Roles: []campaign.Role{campaign.BattleJudge, campaign.Player}, Side: domain.Coalition}, want: "1.3"},
		{name: "the battle judge made a team leader", m: campaign.Member{Name: "Batty", Roles: []campaign.Role{campaign.BattleJudge, campaign.Leader}, Side: domain.Coalition}, want: "1.3"},
		{name: "a player made the battle judge", m: campaign.Member{Name: "Kim", Roles: []campaign.Role{campaign.Player, campaign.BattleJudge}}, want: "1.3"},
		{name: "an assistant battle judge who plays", m: campaign.Member{Name: "Ada", Roles: []campaign.Role{campaign.BattleJudge, campaign.Player}, Side: domain.Coalition, Assists: "Batty"}, want: "1.3"},
		{name: "an assistant of a judge of another position", m: campaign.Member{Name: "Ada", Roles: []campaign.Role{campaign.BattleJudge}, Assists: "Mover"}, want: "1.3"},
		{name: "an assistant of nobody here", m: campaign.Member{Name: "Ada", Roles: []campaign.Role{campaign.BattleJudge}, Assists: "Nobody"}, want: "1.3"},
		{name: "the movement judge may play (1.3)", m: campaign.Member{Name: "Mover", Roles: []campaign.Role{campaign.MovementJudge, campaign.Player}, Side: domain.Phyrexia}},
		{name: "an assistant battle judge", m: campaign.Member{Name: "Ada", Roles: []campaign.Role{campaign.BattleJudge}, Assists: "Batty"}},
	} {
		_, err := f.svc.SetMember(ctx, f.admin, id, r.m)
		if (err == nil) != (r.want == "") || (err != nil && !strings.Contains(err.Error(), r.want)) {
			t.Errorf("%s: %v, want %q", r.name, err, r.want)
		}
	}
	if _, err := f.svc.SetMember(ctx, f.as("Gerrard"), id, campaign.Member{Name: "Kim", Assists: "Batty"}); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("a leader named an assistant: %v", err)
	}
	// the assistant acts as the battle judge: he enters a result and rejects a declaration
	karn := domain.BattleResult{Square: sq("15J"), Winner: "Karn", Losses: map[string]map[string]int{"Vorthos": {"Grizzly Bears": 200}}}
	vorthos := domain.BattleResult{Square: sq("15J"), Winner: "Vorthos", Losses: map[string]map[string]int{"Karn": {"Grizzly Bears": 200}}}
	must(f.svc.EnterResult(ctx, f.as("Ada"), id, 1, karn))
	d := must(f.svc.DeclareInactive(ctx, f.as("Gerrard"), id, campaign.DeclareRequest{Player: "Kim", Reason: "quiet"}))
	must(f.svc.RejectDeclaration(ctx, f.as("Ada"), id, d.ID, "he is on the forum daily"))
	// the head overrules his assistant; the assistant does not overrule the head
	must(f.svc.EnterResult(ctx, f.as("Batty"), id, 1, vorthos))
	if _, err := f.svc.EnterResult(ctx, f.as("Ada"), id, 1, karn); !errors.Is(err, domain.ErrForbidden) || !strings.Contains(err.Error(), "1.3") {
		t.Errorf("the assistant overruled the head battle judge: %v", err)
	}
	rs := must(f.svc.Results(ctx, f.as("Batty"), id, 1))
	body, _ := json.Marshal(rs)
	if !strings.Contains(string(body), `"winner":"Vorthos"`) {
		t.Errorf("the head's result did not stand: %s", body)
	}
	if _, err := f.svc.AskAdmission(ctx, f.as("Ada"), id, campaign.AdmissionRequest{Side: domain.Coalition}); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("an assistant battle judge asked to play: %v", err)
	}
}
