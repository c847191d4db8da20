package campaign_test

import (
	"context"
	"testing"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/round"
)

// A battle on a base is shown with the square's terrain (4.1.2.4), its weather drawn from the
// seed of the lock that made the battle (4.1.2.5, R74: the first turn's own for a battle on the
// first map) and the base's description (2.5.1.2, 4.1.2.4).
func TestBattleDeskShowsTerrainWeatherAndBaseDescription(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	m := &domain.Map{Grid: domain.DefaultGrid, Terrain: domain.TerrainMap{Default: domain.Plains, Squares: map[domain.Square]domain.Terrain{sq("5C"): domain.Mountain}},
		Sites:  []domain.Site{{Name: "Red Base", Kind: domain.Base, Side: domain.Coalition, Color: domain.Red, At: sq("5C"), WinCondition: true, Description: "A red keep on a crag; its walls hold catapults."}},
		Armies: []domain.Army{army("Sai Rei", domain.Coalition, domain.Captain, "5C", "Gazetzot"), army("Darkhand5", domain.Phyrexia, domain.Commander, "5C", "Tevesh")}}
	created, err := f.svc.CreateCampaign(ctx, f.admin, campaign.Setup{Name: "Weather", Map: m, Members: []campaign.Member{
		{Name: "Gazetzot", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.Captain},
		{Name: "Tevesh", Roles: []campaign.Role{campaign.Player}, Side: domain.Phyrexia, Rank: domain.Commander},
		{Name: "Batty", Roles: []campaign.Role{campaign.BattleJudge}}}})
	if err != nil {
		t.Fatal(err)
	}
	id := created.Campaign.ID
	seed := func(n int) domain.Seed {
		var s domain.Seed
		if err := f.db.Read(ctx, func(r campaign.Reader) error {
			tt, err := r.Turn(id, n)
			s = tt.Seed
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return s
	}
	check := func(n int, want round.Weather) {
		t.Helper()
		bv, err := f.svc.Battles(ctx, campaign.Actor{}, id, n)
		if err != nil {
			t.Fatal(err)
		}
		if len(bv.Battles) != 1 || bv.Battles[0].Setting == nil {
			t.Fatalf("turn %d's battles: %+v", n, bv.Battles)
		}
		st := bv.Battles[0].Setting
		if st.Terrain != domain.Mountain || st.Site != "Red Base" || st.Description != m.Sites[0].Description || st.Weather != want || st.Weather.Text == "" {
			t.Errorf("turn %d's battle at 5C is set %+v, want its weather %+v", n, st, want)
		}
	}
	check(1, round.WeatherOf(seed(1), sq("5C"), domain.Mountain))
	batty := campaign.Actor{}
	for _, a := range created.Accounts {
		if a.Account.Name == "Batty" {
			acc, err := f.svc.Login(ctx, "Batty", a.Password)
			if err != nil {
				t.Fatal(err)
			}
			batty.Account = acc
		}
	}
	// nobody wins: the battle goes on in turn 2, its weather drawn from turn 1's seed
	if _, err := f.svc.EnterResult(ctx, batty, id, 1, domain.BattleResult{Square: sq("5C")}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Lock(ctx, batty, id, 1, "test"); err != nil {
		t.Fatal(err)
	}
	check(2, round.WeatherOf(seed(1), sq("5C"), domain.Mountain))
	if round.WeatherOf(seed(2), sq("5C"), domain.Mountain) == round.WeatherOf(seed(1), sq("5C"), domain.Mountain) {
		t.Error("turn 2's own seed draws the same weather: the test cannot tell which seed the desk used")
	}
}
