package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/mercenary"
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

// creature is a real Magic creature for the demo's troop lists.
type creature struct {
	name   string
	p, t   int
	colors []domain.Color
}

var (
	w, u, b, r, g = domain.White, domain.Blue, domain.Black, domain.Red, domain.Green
	artifact      = []domain.Color{domain.Artifact}
)

var demoCreatures = []creature{
	{"Benalish Hero", 1, 1, []domain.Color{w}}, {"Savannah Lions", 2, 1, []domain.Color{w}}, {"White Knight", 2, 2, []domain.Color{w}},
	{"Northern Paladin", 3, 3, []domain.Color{w}}, {"Serra Angel", 4, 4, []domain.Color{w}}, {"Baneslayer Angel", 5, 5, []domain.Color{w}},
	{"Sun Titan", 6, 6, []domain.Color{w}}, {"Angel of Serenity", 5, 6, []domain.Color{w}},
	{"Merfolk of the Pearl Trident", 1, 1, []domain.Color{u}}, {"Man-o'-War", 2, 2, []domain.Color{u}}, {"Phantom Monster", 3, 3, []domain.Color{u}},
	{"Air Elemental", 4, 4, []domain.Color{u}}, {"Sea Serpent", 5, 5, []domain.Color{u}}, {"Mahamoti Djinn", 5, 6, []domain.Color{u}},
	{"Frost Titan", 6, 6, []domain.Color{u}},
	{"Plague Rats", 1, 1, []domain.Color{b}}, {"Hypnotic Specter", 2, 2, []domain.Color{b}}, {"Phyrexian Broodlings", 2, 2, []domain.Color{b}},
	{"Vampire Nighthawk", 2, 3, []domain.Color{b}}, {"Sengir Vampire", 4, 4, []domain.Color{b}}, {"Phyrexian Plaguelord", 4, 4, []domain.Color{b}},
	{"Juzam Djinn", 5, 5, []domain.Color{b}}, {"Phyrexian Negator", 5, 5, []domain.Color{b}}, {"Grave Titan", 6, 6, []domain.Color{b}},
	{"Lord of the Pit", 7, 7, []domain.Color{b}},
	{"Mogg Fanatic", 1, 1, []domain.Color{r}}, {"Gray Ogre", 2, 2, []domain.Color{r}}, {"Hill Giant", 3, 3, []domain.Color{r}},
	{"Two-Headed Dragon", 4, 4, []domain.Color{r}}, {"Shivan Dragon", 5, 5, []domain.Color{r}}, {"Rathi Dragon", 5, 5, []domain.Color{r}},
	{"Inferno Titan", 6, 6, []domain.Color{r}}, {"Crimson Hellkite", 6, 6, []domain.Color{r}},
	{"Llanowar Elves", 1, 1, []domain.Color{g}}, {"Grizzly Bears", 2, 2, []domain.Color{g}}, {"War Mammoth", 3, 3, []domain.Color{g}},
	{"Ironroot Treefolk", 3, 5, []domain.Color{g}}, {"Spined Wurm", 5, 4, []domain.Color{g}}, {"Colossal Dreadmaw", 6, 6, []domain.Color{g}},
	{"Thorn Elemental", 7, 7, []domain.Color{g}}, {"Force of Nature", 8, 8, []domain.Color{g}},
	{"Triskelion", 1, 1, artifact}, {"Alloy Myr", 2, 2, artifact}, {"Steel Golem", 3, 4, artifact}, {"Myr Enforcer", 4, 4, artifact},
	{"Su-Chi", 4, 4, artifact}, {"Juggernaut", 5, 5, artifact}, {"Wurmcoil Engine", 6, 6, artifact}, {"Phyrexian Colossus", 8, 8, artifact},
	{"Colossus of Sardia", 9, 9, artifact},
	{"Boros Swiftblade", 1, 2, []domain.Color{r, w}}, {"Watchwolf", 3, 3, []domain.Color{g, w}}, {"Rhox War Monk", 3, 4, []domain.Color{g, w, u}},
	{"Woolly Thoctar", 5, 4, []domain.Color{r, g, w}}, {"Spiritmonger", 6, 6, []domain.Color{b, g}}, {"Cinder Shade", 1, 1, []domain.Color{b, r}},
	{"Vampiric Dragon", 5, 5, []domain.Color{b, r}},
}

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

// demoSetup builds the demo campaign: 7 bases (5 win conditions), 5 portals, 3 towns, 45
// armies a side of ranks 1/2/7/7/14/14 (2.5.2.1), mercenaries, and player accounts.
func demoSetup() (campaign.Setup, error) {
	m := &domain.Map{Grid: domain.DefaultGrid, Terrain: domain.TerrainMap{Default: domain.Plains, Squares: map[domain.Square]domain.Terrain{}}}
	for i := range m.Grid.Size() {
		s := m.Grid.At(i)
		if t := demoTerrain(s); t != domain.Plains {
			m.Terrain.Squares[s] = t
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
		m.Sites = append(m.Sites, domain.Site{Name: x.name + " Base", Kind: domain.Base, Side: domain.Coalition, Color: x.color, At: sq(x.at), WinCondition: x.win})
	}
	for i, at := range []string{"32C", "34H", "30M", "27F", "35L"} {
		m.Sites = append(m.Sites, domain.Site{Name: []string{"Rath", "Mercadia Gate", "Caligo", "Koilos", "Phyrexia's Maw"}[i] + " Portal", Kind: domain.Portal, Side: domain.Phyrexia, At: sq(at), WinCondition: true})
	}
	towns := []struct{ name, at string }{{"Jamuraa", "20C"}, {"Zhalfir", "21L"}, {"Yavimaya Hollow", "16G"}}
	for _, x := range towns {
		m.Sites = append(m.Sites, domain.Site{Name: x.name, Kind: domain.Town, Side: domain.Neutral, At: sq(x.at)})
	}
	taken := map[domain.Square]bool{}
	place := func(near domain.Square) domain.Square {
		for ring := 1; ring < 8; ring++ {
			for _, s := range m.Grid.RingSquares(nil, near, ring) {
				if !taken[s] && m.Terrain.At(s) != domain.Ocean && m.SiteAt(s) == nil {
					taken[s] = true
					return s
				}
			}
		}
		panic("no room near " + near.String())
	}
	ranks := []domain.Rank{domain.General, domain.Admiral, domain.Admiral}
	for range 7 {
		ranks = append(ranks, domain.Captain)
	}
	for range 7 {
		ranks = append(ranks, domain.Commander)
	}
	for range 14 {
		ranks = append(ranks, domain.LtCommander)
	}
	for range 14 {
		ranks = append(ranks, domain.Lieutenant)
	}
	coalitionNames := []string{"Gerrard", "Sisay", "Barrin's Guard", "Hanna", "Mirri", "Tahngarth", "Orim", "Eladamri", "Lin Sivvi", "Takara",
		"Rofellos", "Multani's Wardens", "Squee"}
	phyrexiaNames := []string{"Gix", "Tsabo Tavoc", "Belbe", "Crovax", "Volrath", "Greven", "Rakka Mar", "Dralnu", "Vorthos", "Ertai",
		"Sloth", "Dreg Reaver", "Kuldotha"}
	factions := [][]domain.Color{{w, r, g}, {u, w}, {b, r}, {u, domain.Colorless}, {g, w}, {r, g}, {w, domain.FiveColor}}
	coalitionColors := func(i int) []domain.Color { return factions[i%len(factions)] }
	armyName := func(names []string, side string, i int, rank domain.Rank, s domain.Side) string {
		if i < len(names) {
			return names[i]
		}
		return fmt.Sprintf("%s %s %d", side, rank.Name(s), i-len(names)+1)
	}
	for i, rk := range ranks {
		cols := coalitionColors(i)
		home := bases[0]
		for _, x := range bases {
			if slices.Contains(cols, x.color) {
				home = x
				if i%2 == 1 {
					break
				}
			}
		}
		a := domain.Army{Name: armyName(coalitionNames, "Coalition", i, rk, domain.Coalition), Side: domain.Coalition, Rank: rk, At: place(sq(home.at)), Colors: cols}
		a.Troops = troops(&a, i)
		m.Armies = append(m.Armies, a)
	}
	portals := m.Sites[len(bases) : len(bases)+5]
	for i, rk := range ranks {
		a := domain.Army{Name: armyName(phyrexiaNames, "Phyrexian", i, rk, domain.Phyrexia), Side: domain.Phyrexia, Rank: rk, At: place(portals[i%len(portals)].At)}
		a.Troops = troops(&a, i)
		m.Armies = append(m.Armies, a)
	}
	mercs := []domain.Army{
		{Name: "Jamuraan Militia", Rank: domain.Commander, At: sq(towns[0].at), Faction: domain.TownDefender, Home: towns[0].name},
		{Name: "Zhalfirin Guard", Rank: domain.Commander, At: sq(towns[1].at), Faction: domain.TownDefender, Home: towns[1].name},
		{Name: "Hollow Keepers", Rank: domain.LtCommander, At: sq(towns[2].at), Faction: domain.TownDefender, Home: towns[2].name},
		{Name: "Mercadian Legion", Rank: domain.Captain, At: place(sq("22G")), Faction: domain.Theme},
		{Name: "Kor Skyfishers", Rank: domain.Commander, At: place(sq("14M")), Faction: domain.Theme},
		{Name: "Keldon Raiders", Rank: domain.LtCommander, At: place(sq("24J")), Faction: domain.Raider},
		{Name: "Goblin Marauders", Rank: domain.Lieutenant, At: place(sq("19A")), Faction: domain.Raider},
	}
	for i := range mercs {
		mercs[i].Side = domain.Mercenary
		mercs[i].Troops = troops(&mercs[i], i)
		taken[mercs[i].At] = true
		m.Armies = append(m.Armies, mercs[i])
	}

	players := []campaign.Member{
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
	// Players control their namesake armies (5.2.1); the leaders share out the proxies.
	named := map[string]bool{}
	for _, p := range players {
		if a := m.Army(p.Name); a != nil {
			a.Controllers = []string{p.Name}
			named[a.Name] = true
		}
	}
	n := 0
	for i := range m.Armies {
		a := &m.Armies[i]
		if named[a.Name] || !a.Side.IsTeam() {
			continue
		}
		switch a.Side {
		case domain.Coalition:
			a.Controllers = []string{[]string{"Gerrard", "Sisay"}[n%2]}
		case domain.Phyrexia:
			a.Controllers = []string{[]string{"Gix", "Tsabo Tavoc"}[n%2]}
		}
		n++
	}
	if err := m.Validate(); err != nil {
		return campaign.Setup{}, err
	}
	return campaign.Setup{Name: demoName, Map: m, Members: players}, nil
}

// troops fills an army's four slots (2.1) with creatures it may use (2.2.1): in each slot
// the largest creature that fits, rotating among equals so that armies differ; slot counts
// at their maximum, a few armies bloodied by earlier battles.
func troops(a *domain.Army, seed int) []domain.Troop {
	var out []domain.Troop
	used := map[string]bool{}
	for slot := 1; slot <= domain.Slots; slot++ {
		max := a.Rank.SlotSize(slot)
		var best []creature
		bestSize := -1
		for _, c := range demoCreatures {
			t := domain.Troop{Colors: c.colors}
			if used[c.name] || c.p > max || c.t > max || !a.MayUse(&t) {
				continue
			}
			size := c.p + c.t
			switch {
			case size > bestSize:
				best, bestSize = []creature{c}, size
			case size == bestSize:
				best = append(best, c)
			}
		}
		if len(best) == 0 {
			continue
		}
		c := best[(seed+slot)%len(best)]
		used[c.name] = true
		full := domain.SlotCapacity(slot)
		alive := full
		if seed%5 == 3 && slot == 1 {
			alive = full * 4 / 5
		}
		out = append(out, domain.Troop{Creature: c.name, Size: domain.Size{Power: c.p, Toughness: c.t}, Colors: slices.Clone(c.colors), Slot: slot, Alive: alive, Full: full})
	}
	return out
}
