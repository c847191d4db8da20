package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/mercenary"
	"github.com/coalition-wargame/coalition/round"
)

// demoName is the demo campaign's name; serve --demo loads it once.
const demoName = "Demo: the Phyrexian invasion of Dominaria"

// loadDemo creates the demo campaign unless it exists, and prints its accounts.
func loadDemo(ctx context.Context, svc *campaign.Service, stdout io.Writer) error {
	cs, err := svc.Campaigns(ctx)
	if err != nil {
		return err
	}
	for _, c := range cs {
		if c.Name == demoName {
			fmt.Fprintf(stdout, "The demo campaign is campaign %d (its accounts were printed when it was created).\n", c.ID)
			return nil
		}
	}
	su, err := demoSetup()
	if err != nil {
		return err
	}
	// the demo plays its mercenaries by the AI (chapter 6), its mercenary judge watching; its
	// locks publish at once (no after-lock edit window until a judge sets one, R55)
	su.Mercenary = &campaign.MercenarySettings{Mode: mercenary.ModeAuto}
	out, err := svc.CreateCampaign(ctx, campaign.Operator("demo"), su)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Loaded the demo campaign as campaign %d: %d armies on a %d × %d map.\n", out.Campaign.ID, len(su.Map.Armies), su.Map.Grid.Cols, su.Map.Grid.Rows)
	fmt.Fprintln(stdout, "Demo accounts (passwords are shown this once):")
	for _, a := range out.Accounts {
		var role string
		for _, m := range su.Members {
			if m.Name == a.Account.Name {
				role = describe(m)
			}
		}
		fmt.Fprintf(stdout, "  %-14s %-22s %s\n", a.Account.Name, a.Password, role)
	}
	fmt.Fprintf(stdout, "Its map: GET /api/campaigns/%d/map; log in with POST /api/login.\n", out.Campaign.ID)
	return nil
}

func describe(m campaign.Member) string {
	var parts []string
	for _, r := range m.Roles {
		parts = append(parts, string(r))
	}
	s := strings.Join(parts, ", ")
	if m.Plays() {
		s = fmt.Sprintf("%s %s of %s", s, m.Rank.Name(m.Side), m.Side.Title())
	}
	return s
}

var (
	w, u, b, r, g = domain.White, domain.Blue, domain.Black, domain.Red, domain.Green
)

// demoTerrain draws a plausible map: seas east and west, a mountain spine, forests, swamps.
func demoTerrain(s domain.Square) domain.Terrain {
	c, row := int(s.Col), int(s.Row)
	near := func(cc, rr, d int) bool { return abs(c-cc)+abs(row-rr) <= d }
	switch {
	case c <= 1 || c >= 38:
		return domain.Ocean
	case c == 2 && row%4 != 1, c == 37 && row%3 == 0:
		return domain.Islands
	case c == 37:
		return domain.Ocean
	case c == 2:
		return domain.Ocean
	case c == 17+row/3 && row >= 3 && row <= 12:
		return domain.Mountain
	case near(8, 11, 2), near(24, 3, 2), near(29, 11, 1):
		return domain.Forest
	case near(33, 5, 1), near(13, 3, 1):
		return domain.Swamp
	case near(20, 9, 0):
		return domain.Islands
	}
	return domain.Plains
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sq(s string) domain.Square {
	q, err := domain.ParseSquare(s)
	if err != nil {
		panic(err)
	}
	return q
}

// demoSeed is the demo round's seed: round.SeedOf(2001), the year of the invasion.
var demoSeed = round.SeedOf(2001)

// demoCards is the shipped card data and its creature pool, loaded once for the demo.
var demoCards = sync.OnceValues(func() (*cards.Catalogue, error) { return cards.Load() })

// demoSetup builds the demo campaign with the round generator (2.5): the demo's own map, its 7
// bases (5 win conditions), 5 portals and 3 towns, its named armies — 45 a side of ranks
// 1/2/7/7/14/14 (2.5.2.1), each player's with his factions' colours — and the rest drawn by the
// generator from the seed and the card data: descriptions, troop lists, where each army starts
// by its base, and the mercenaries (6.1–6.3), which the demo's judge then names. The round
// passes every check of 2.5 and chapter 6.
func demoSetup() (campaign.Setup, error) {
	rd, players, members, err := demoRound()
	if err != nil {
		return campaign.Setup{}, err
	}
	cat, err := demoCards()
	if err != nil {
		return campaign.Setup{}, err
	}
	m := round.Map(rd, players, cat)
	if err := m.Validate(); err != nil {
		return campaign.Setup{}, err
	}
	return campaign.Setup{Name: demoName, Map: m, Members: members}, nil
}

// demoRound is the demo's round, set up and checked, with its players and members.
func demoRound() (*round.Round, []round.Player, []campaign.Member, error) {
	cat, err := demoCards()
	if err != nil {
		return nil, nil, nil, err
	}
	rd := &round.Round{Seed: demoSeed, Grid: domain.DefaultGrid, Published: true,
		Terrain: domain.TerrainMap{Default: domain.Plains, Squares: map[domain.Square]domain.Terrain{}}}
	for i := range rd.Grid.Size() {
		s := rd.Grid.At(i)
		if t := demoTerrain(s); t != domain.Plains {
			rd.Terrain.Squares[s] = t
		}
	}
	bases := []struct {
		name  string
		color domain.Color
		at    string
		win   bool
	}{
		{"Benalia", w, "5B", true}, {"Tolaria", u, "4H", true}, {"Urborg", b, "8M", false}, {"Shiv", r, "11E", true},
		{"Llanowar", g, "6K", true}, {"Keld", domain.FiveColor, "12J", true}, {"Argive", domain.Colorless, "9C", false},
	}
	for _, x := range bases {
		rd.Sites = append(rd.Sites, round.Site{Site: domain.Site{Name: x.name + " Base", Kind: domain.Base, Side: domain.Coalition, Color: x.color, At: sq(x.at), WinCondition: x.win}})
	}
	for i, at := range []string{"32C", "34H", "30M", "27F", "35L"} {
		rd.Sites = append(rd.Sites, round.Site{Site: domain.Site{Name: []string{"Rath", "Mercadia Gate", "Caligo", "Koilos", "Phyrexia's Maw"}[i] + " Portal", Kind: domain.Portal, Side: domain.Phyrexia, At: sq(at), WinCondition: true}})
	}
	for _, x := range []struct{ name, at string }{{"Jamuraa", "20C"}, {"Zhalfir", "21L"}, {"Yavimaya Hollow", "16G"}} {
		rd.Sites = append(rd.Sites, round.Site{Site: domain.Site{Name: x.name, Kind: domain.Town, Side: domain.Neutral, At: sq(x.at)}})
	}
	members := demoMembers()
	var players []round.Player
	factionsOf := map[string][]domain.Color{}
	for _, m := range members {
		if m.Plays() {
			players = append(players, round.Player{Name: m.Name, Side: m.Side, Rank: m.Rank, Leader: m.Has(campaign.Leader), Factions: m.Factions})
			factionsOf[m.Name] = m.Factions
		}
	}
	ranks := []domain.Rank{domain.General, domain.Admiral, domain.Admiral}
	for _, n := range []struct {
		rank  domain.Rank
		count int
	}{{domain.Captain, 7}, {domain.Commander, 7}, {domain.LtCommander, 14}, {domain.Lieutenant, 14}} {
		for range n.count {
			ranks = append(ranks, n.rank)
		}
	}
	names := map[domain.Side][]string{
		domain.Coalition: {"Gerrard", "Sisay", "Barrin's Guard", "Hanna", "Mirri", "Tahngarth", "Orim", "Eladamri", "Lin Sivvi", "Takara", "Rofellos", "Multani's Wardens", "Squee"},
		domain.Phyrexia:  {"Gix", "Tsabo Tavoc", "Belbe", "Crovax", "Volrath", "Greven", "Rakka Mar", "Dralnu", "Vorthos", "Ertai", "Sloth", "Dreg Reaver", "Kuldotha"},
	}
	factions := [][]domain.Color{{w, r, g}, {u, w}, {b, r}, {u, domain.Colorless}, {g, w}, {r, g}, {w, domain.FiveColor}}
	for _, side := range []domain.Side{domain.Coalition, domain.Phyrexia} {
		for i, rk := range ranks {
			a := round.Army{Name: fmt.Sprintf("%s %s %d", map[domain.Side]string{domain.Coalition: "Coalition", domain.Phyrexia: "Phyrexian"}[side], rk.Name(side), i-len(names[side])+1), Side: side, Rank: rk}
			if i < len(names[side]) {
				a.Name = names[side][i]
			}
			if fs, ok := factionsOf[a.Name]; ok {
				a.Player = a.Name
				if side == domain.Coalition {
					a.Colors = slices.Clone(fs)
				}
			} else if side == domain.Coalition {
				a.Colors = factions[i%len(factions)]
			}
			rd.Armies = append(rd.Armies, a)
		}
	}
	// the README's example: Hanna by Tolaria on 3G, a friend (Sisay) on 5G, 6G left free
	for name, at := range map[string]string{"Hanna": "3G", "Sisay": "5G"} {
		a := rd.Army(name)
		a.Base, a.At = "Tolaria Base", sq(at)
	}
	pool, err := demoPool()
	if err != nil {
		return nil, nil, nil, err
	}
	if err := round.Fill(rd, round.Options{Players: players, Pool: pool, By: "demo"}); err != nil {
		return nil, nil, nil, err
	}
	keepFree(rd, sq("6G"))
	nameMercenaries(rd)
	if ps := round.Check(rd, players, cat); len(ps) > 0 {
		return nil, nil, nil, fmt.Errorf("the demo round breaks %d checks, the first: %s", len(ps), ps[0].Message)
	}
	return rd, players, members, nil
}

// demoPool is the generator's creature pool of the shipped card data.
var demoPool = sync.OnceValues(func() (*round.Pool, error) {
	cat, err := demoCards()
	if err != nil {
		return nil, err
	}
	return round.LegalPool(cat, cat.CreaturePool()), nil
})

// keepFree moves the army the generator dropped on s, if any, to the first free square within 3
// of its base, as the judge may (2.5.2.3).
func keepFree(rd *round.Round, s domain.Square) {
	taken := map[domain.Square]bool{s: true}
	for _, x := range rd.Sites {
		taken[x.At] = true
	}
	for _, a := range rd.Armies {
		taken[a.At] = true
	}
	for _, a := range rd.Mercenaries {
		taken[a.At] = true
	}
	for i := range rd.Armies {
		a := &rd.Armies[i]
		if a.At != s {
			continue
		}
		base := rd.Site(a.Base)
		for ring := 1; ring <= round.PlacementDistance; ring++ {
			for _, c := range rd.Grid.RingSquares(nil, base.At, ring) {
				if !taken[c] && rd.Terrain.At(c) != domain.Ocean {
					a.At = c
					return
				}
			}
		}
	}
}

// nameMercenaries gives the generator's mercenaries the demo's names: each town's defender,
// two theme armies and the raiders by rank.
func nameMercenaries(rd *round.Round) {
	town := map[string]string{"Jamuraa": "Jamuraan Militia", "Zhalfir": "Zhalfirin Guard", "Yavimaya Hollow": "Hollow Keepers"}
	themes := []string{"Mercadian Legion", "Kor Skyfishers", "Thran Constructs"}
	lieutenants := []string{"Goblin Marauders", "Dwarven Pirates"}
	for i := range rd.Mercenaries {
		a := &rd.Mercenaries[i]
		switch {
		case a.Faction == domain.TownDefender:
			a.Name = town[a.Home]
		case a.Faction == domain.Theme && a.Ocean:
			a.Name = "Vodalian Legion"
		case a.Faction == domain.Theme:
			a.Name, themes = themes[0], themes[1:]
		case a.Rank == domain.LtCommander:
			a.Name = "Keldon Raiders"
		default:
			a.Name, lieutenants = lieutenants[0], lieutenants[1:]
		}
	}
}

// demoMembers are the demo's players, team leaders and judges.
func demoMembers() []campaign.Member {
	return []campaign.Member{
		{Name: "Gerrard", Roles: []campaign.Role{campaign.Player, campaign.Leader}, Side: domain.Coalition, Rank: domain.General, Factions: []domain.Color{w, r, g}},
		{Name: "Sisay", Roles: []campaign.Role{campaign.Player, campaign.Leader}, Side: domain.Coalition, Rank: domain.Admiral, Factions: []domain.Color{u, w}},
		{Name: "Hanna", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.Captain, Factions: []domain.Color{u, domain.Colorless}},
		{Name: "Mirri", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.Captain, Factions: []domain.Color{g, w}},
		{Name: "Squee", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.Commander, Factions: []domain.Color{r}},
		{Name: "Gix", Roles: []campaign.Role{campaign.Player, campaign.Leader}, Side: domain.Phyrexia, Rank: domain.General},
		{Name: "Tsabo Tavoc", Roles: []campaign.Role{campaign.Player, campaign.Leader}, Side: domain.Phyrexia, Rank: domain.Admiral},
		{Name: "Crovax", Roles: []campaign.Role{campaign.Player}, Side: domain.Phyrexia, Rank: domain.Captain},
		{Name: "Ertai", Roles: []campaign.Role{campaign.Player}, Side: domain.Phyrexia, Rank: domain.Captain},
		{Name: "Barrin", Roles: []campaign.Role{campaign.MovementJudge}},
		{Name: "Serra", Roles: []campaign.Role{campaign.BattleJudge}},
		{Name: "Maraxus", Roles: []campaign.Role{campaign.MercenaryJudge}},
	}
}
