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

// mercenaryCampaign is a campaign with two mercenary armies, one of them controlled by a
// Coalition player (a theme army at war, 6.2.2), a mercenary judge and that player.
func mercenaryCampaign(t *testing.T, f *fixture) int64 {
	t.Helper()
	m := &domain.Map{Grid: domain.DefaultGrid, Armies: []domain.Army{
		army("Sai Rei", domain.Coalition, domain.Captain, "3F", "Gazetzot"),
		army("Raiders", domain.Mercenary, domain.Lieutenant, "30F"),
		army("Hired Blades", domain.Mercenary, domain.Lieutenant, "31F", "Gazetzot"),
	}}
	created, err := f.svc.CreateCampaign(context.Background(), f.admin, campaign.Setup{Name: "Mercenaries", Map: m, Members: []campaign.Member{
		{Name: "Gazetzot", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.Captain},
		{Name: "Merc", Roles: []campaign.Role{campaign.MercenaryJudge}},
		{Name: "Mover", Roles: []campaign.Role{campaign.MovementJudge}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range created.Accounts {
		acc, err := f.svc.Login(context.Background(), a.Account.Name, a.Password)
		if err != nil {
			t.Fatal(err)
		}
		f.actors[a.Account.Name] = campaign.Actor{Account: acc}
	}
	return created.Campaign.ID
}

func orderable(v *campaign.MapView) []string {
	var out []string
	for _, a := range v.Armies {
		if a.Orderable {
			out = append(out, a.Name)
		}
	}
	return out
}

// The map marks the armies whose orders from the reader count (3.3.6, 5.4.1, M15): the mercenary
// judge's are the mercenary armies nobody controls, not every mercenary army; nobody orders
// anything on a locked turn's map.
func TestMapMarksOrderableArmies(t *testing.T) {
	f := newFixture(t)
	id := mercenaryCampaign(t, f)
	for _, c := range []struct {
		who  string
		want []string
	}{
		{"Gazetzot", []string{"Sai Rei", "Hired Blades"}},
		{"Merc", []string{"Raiders"}},
		{"Mover", nil},
		{"admin", nil},
		{"", nil},
	} {
		a := campaign.Actor{}
		switch c.who {
		case "admin":
			a = f.admin
		case "":
		default:
			a = f.as(c.who)
		}
		v, err := f.svc.CurrentMap(ctx, a, id)
		if err != nil {
			t.Fatal(err)
		}
		if got := orderable(v); !slices.Equal(got, c.want) {
			t.Errorf("%q may order %v, want %v", c.who, got, c.want)
		}
		tv, err := f.svc.TurnMap(ctx, a, id, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := orderable(tv); !slices.Equal(got, c.want) {
			t.Errorf("turn 1's map: %q may order %v, want %v", c.who, got, c.want)
		}
		_, w, err := f.svc.MapVersion(ctx, a, id)
		if err != nil {
			t.Fatal(err)
		}
		if (w.Author != "") != (c.want != nil) {
			t.Errorf("%q views the map as %+v", c.who, w)
		}
	}
	if _, err := f.svc.Lock(ctx, f.as("Mover"), id, 1, "test"); err != nil {
		t.Fatal(err)
	}
	tv, err := f.svc.TurnMap(ctx, f.as("Gazetzot"), id, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := orderable(tv); got != nil {
		t.Errorf("the locked turn's map marks %v orderable", got)
	}
}

// The order desk is the service's: a structured order for an army the author may not order is
// refused by Post, CheckPost and EditPost alike, whoever calls them (5.3, 5.4.1).
func TestOrderDeskRefusesOthersArmies(t *testing.T) {
	f := newFixture(t)
	id := mercenaryCampaign(t, f)
	hold := func(army string) campaign.PostRequest {
		return campaign.PostRequest{Orders: []campaign.OrderInput{{Army: army, Kind: domain.Hold}}}
	}
	own, err := f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Sai Rei: no move"})
	if err != nil {
		t.Fatal(err)
	}
	before := f.dump()
	for _, c := range []struct {
		who, army, want string
	}{
		{"Merc", "Hired Blades", "mercenary-judge does not control Hired Blades"},
		{"Gazetzot", "Raiders", "Gazetzot does not control Raiders"},
	} {
		for name, call := range map[string]func() error{
			"post":  func() error { _, err := f.svc.Post(ctx, f.as(c.who), id, hold(c.army)); return err },
			"check": func() error { _, err := f.svc.CheckPost(ctx, f.as(c.who), id, hold(c.army)); return err },
		} {
			if err := call(); !errors.Is(err, domain.ErrForbidden) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s %s as %s: %v, want forbidden: %q", name, c.army, c.who, err, c.want)
			}
		}
	}
	if _, err := f.svc.EditPost(ctx, f.as("Gazetzot"), id, own.Post.ID, hold("Raiders")); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("edit to order Raiders: %v, want forbidden", err)
	}
	if after := f.dump(); after != before {
		t.Error("a refused order changed the database")
	}
	for who, army := range map[string]string{"Merc": "Raiders", "Gazetzot": "Hired Blades"} {
		if _, err := f.svc.Post(ctx, f.as(who), id, hold(army)); err != nil {
			t.Errorf("%s ordering %s: %v", who, army, err)
		}
	}
}
