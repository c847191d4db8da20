package campaign_test

import (
	"context"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

// T3: a transfer whose private detail never came does nothing, and whether a detail was sent
// is told only to the sending side and the judges: the warning is in their JSON report and in
// no one's text, nor in the other side's or the public's report.
func TestReportTransferWithoutDetailIsPrivate(t *testing.T) {
	f := newFixture(t)
	m := &domain.Map{Grid: domain.DefaultGrid, Armies: []domain.Army{
		army("Sai Rei", domain.Coalition, domain.Captain, "3F", "Gazetzot"),
		army("Urza's Guard", domain.Coalition, domain.Lieutenant, "4F", "Gazetzot"),
		army("Darkhand5", domain.Phyrexia, domain.Commander, "20F", "Tevesh"),
	}}
	created, err := f.svc.CreateCampaign(context.Background(), f.admin, campaign.Setup{Name: "T3", Map: m, Members: []campaign.Member{
		{Name: "Gazetzot", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.Captain},
		{Name: "Tevesh", Roles: []campaign.Role{campaign.Player}, Side: domain.Phyrexia, Rank: domain.Commander},
		{Name: "Mover", Roles: []campaign.Role{campaign.MovementJudge}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range created.Accounts {
		acc, err := f.svc.Login(ctx, a.Account.Name, a.Password)
		if err != nil {
			t.Fatal(err)
		}
		f.actors[a.Account.Name] = campaign.Actor{Account: acc}
	}
	id := created.Campaign.ID
	out, err := f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Urza's Guard: Transfer to Sai Rei at 3F"})
	if err != nil || out.Lines[0].Status == "rejected" {
		t.Fatalf("%v %+v", err, out)
	}
	if _, err := f.svc.Lock(ctx, f.as("Mover"), id, 1, "test"); err != nil {
		t.Fatal(err)
	}
	const warning = "no private detail"
	for _, c := range []struct {
		who  string
		a    campaign.Actor
		sees bool
	}{{"sender", f.as("Gazetzot"), true}, {"judge", f.as("Mover"), true}, {"enemy", f.as("Tevesh"), false}, {"anonymous", campaign.Actor{}, false}} {
		v, err := f.svc.Report(ctx, c.a, id, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(v.Report), warning); got != c.sees {
			t.Errorf("%s reads the no-detail warning in the report: %v, want %v", c.who, got, c.sees)
		}
		if strings.Contains(v.Text, warning) || strings.Contains(v.Text, "Warnings") {
			t.Errorf("%s reads a private warning in the report's text:\n%s", c.who, v.Text)
		}
	}
}
