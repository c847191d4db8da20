package mercenary

import (
	"slices"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

// mv builds a move order: the army's square, then each leg's destination.
func mv(army string, squares ...string) domain.Order {
	o := domain.Order{Army: army, Kind: domain.MoveKind, From: sq(squares[0])}
	for _, s := range squares[1:] {
		o.Legs = append(o.Legs, domain.Leg{To: sq(s)})
	}
	return o
}

// routed builds a one-leg move with a written route (M4), start and destination included.
func routed(army string, squares ...string) domain.Order {
	o := domain.Order{Army: army, Kind: domain.MoveKind, From: sq(squares[0]), Legs: []domain.Leg{{To: sq(squares[len(squares)-1])}}}
	for _, s := range squares {
		o.Legs[0].Route = append(o.Legs[0].Route, sq(s))
	}
	return o
}

func engage(o domain.Order, named string) domain.Order {
	o.Keyword, o.Named = domain.Engage, named
	return o
}

func checkMap() *domain.Map {
	return &domain.Map{Grid: domain.DefaultGrid,
		Sites: []domain.Site{
			{Name: "Ashvale", Kind: domain.Town, Side: domain.Neutral, At: sq("10E")},
			{Name: "Brindle", Kind: domain.Town, Side: domain.Neutral, At: sq("20E")},
			{Name: "Red Base", Kind: domain.Base, Side: domain.Coalition, Color: domain.Red, At: sq("5J")},
			{Name: "Portal One", Kind: domain.Portal, Side: domain.Phyrexia, At: sq("30J")},
		},
		Armies: []domain.Army{
			{Name: "Warden", Side: domain.Mercenary, Rank: domain.LtCommander, At: sq("10E"), Faction: domain.TownDefender, Home: "Ashvale",
				Troops: []domain.Troop{troop("Goblins", 1, 4000, 5000)}},
			{Name: "Chimera", Side: domain.Mercenary, Rank: domain.Commander, At: sq("27J"), Faction: domain.Theme},
			{Name: "Raider One", Side: domain.Mercenary, Rank: domain.Lieutenant, At: sq("14C"), Faction: domain.Raider},
			{Name: "Sai Rei", Side: domain.Coalition, Rank: domain.Lieutenant, At: sq("12C"), Controllers: []string{"Gazetzot"}},
		}}
}

func codes(ws []Warning) []Code {
	var out []Code
	for _, w := range ws {
		out = append(out, w.Code)
	}
	return out
}

// TestCheck is one case per guideline of 6.1.1, 6.2.1, 6.2.3, 6.3.1 and 6.3.2, each with the moves it
// allows and the moves it warns about.
func TestCheck(t *testing.T) {
	atWar := &Memory{AtWar: map[string]domain.Side{"Chimera": domain.Phyrexia}}
	for _, c := range []struct {
		name  string
		setup func(*domain.Army)
		mem   *Memory
		order domain.Order
		want  []Code
	}{
		// 6.1.1 town defenders
		{"TDF steps next to its town", nil, nil, mv("Warden", "10E", "11F"), nil},
		{"TDF steps back into its town", func(a *domain.Army) { a.At = sq("11E") }, nil, mv("Warden", "11E", "10E"), nil},
		{"TDF leaves its town", nil, nil, mv("Warden", "10E", "12E"), []Code{LeavesTown}},
		{"TDF pushed away comes back", func(a *domain.Army) { a.At = sq("13E") }, nil, mv("Warden", "13E", "12E"), nil},
		{"TDF pushed away goes further", func(a *domain.Army) { a.At = sq("13E") }, nil, mv("Warden", "13E", "14F"), []Code{LeavesTown}},
		{"TDF pushed away moves no nearer", func(a *domain.Army) { a.At = sq("13E") }, nil, mv("Warden", "13E", "13H"), []Code{LeavesTown}},
		{"TDF under 3500 retreats towards another town", func(a *domain.Army) { a.Troops[0].Alive = 3000 }, nil, mv("Warden", "10E", "13E"), nil},
		{"TDF under 3500 moves towards no town", func(a *domain.Army) { a.Troops[0].Alive = 3000 }, nil, mv("Warden", "10E", "10B"), []Code{LeavesTown}},
		{"TDF of 3500 may not retreat", func(a *domain.Army) { a.Troops[0].Alive = 3500 }, nil, mv("Warden", "10E", "13E"), []Code{LeavesTown}},
		{"TDF long move leaves on its second leg", nil, nil, mv("Warden", "10E", "11E", "13E"), []Code{LeavesTown}},
		{"TDF with no home defends the nearest town", func(a *domain.Army) { a.Home, a.At = "", sq("20F") }, nil, mv("Warden", "20F", "23F"), []Code{LeavesTown}},
		{"TDF with no home stays by the nearest town", func(a *domain.Army) { a.Home, a.At = "", sq("20F") }, nil, mv("Warden", "20F", "21F"), nil},
		// 6.2.3 At War theme armies
		{"At War next to a portal", nil, atWar, mv("Chimera", "27J", "29J"), []Code{NearStronghold}},
		{"At War onto a portal", nil, atWar, mv("Chimera", "27J", "30J"), []Code{NearStronghold}},
		{"At War next to a base", func(a *domain.Army) { a.At = sq("7J") }, atWar, mv("Chimera", "7J", "6I"), []Code{NearStronghold}},
		{"At War into a town", func(a *domain.Army) { a.At = sq("22E") }, atWar, mv("Chimera", "22E", "20E"), nil},
		{"At War two squares from a portal", nil, atWar, mv("Chimera", "27J", "28J"), nil},
		{"At War long move ends its second turn next to a portal", func(a *domain.Army) { a.At = sq("24J") }, atWar, mv("Chimera", "24J", "27J", "29I"), []Code{NearStronghold}},
		{"not at war next to a portal", nil, nil, mv("Chimera", "27J", "29J"), nil},
		{"at war with the other team, remembered by name", nil, &Memory{AtWar: map[string]domain.Side{"CHIMERA": domain.Coalition}}, mv("Chimera", "27J", "29J"), []Code{NearStronghold}},
		// 6.2.1 theme armies at peace
		{"theme patrols within a turn's move of its territory", nil, &Memory{Territory: map[string]domain.Square{"Chimera": sq("25J")}}, mv("Chimera", "27J", "28J"), nil},
		{"theme leaves its territory", nil, &Memory{Territory: map[string]domain.Square{"Chimera": sq("25J")}}, mv("Chimera", "27J", "27M"), []Code{LeavesTerritory}},
		{"theme far away comes back", func(a *domain.Army) { a.At = sq("20J") }, &Memory{Territory: map[string]domain.Square{"Chimera": sq("27J")}}, mv("Chimera", "20J", "22J"), nil},
		{"the ocean army has no territory", nil, &Memory{Ocean: "Chimera", Territory: map[string]domain.Square{"Chimera": sq("25J")}}, mv("Chimera", "27J", "27M"), nil},
		{"an At War army has left its territory", nil, &Memory{AtWar: map[string]domain.Side{"Chimera": domain.Phyrexia}, Territory: map[string]domain.Square{"Chimera": sq("20J")}}, mv("Chimera", "27J", "26L"), nil},
		// 6.3.2 Disband
		{"a raider disbands", nil, nil, domain.Order{Army: "Raider One", Kind: domain.Hold, Note: DisbandNote}, nil},
		{"a town defender cannot disband", nil, nil, domain.Order{Army: "Warden", Kind: domain.Hold, Note: DisbandNote}, []Code{DisbandNotRaider}},
		// 6.3.1 raiders
		{"raider next to a town", nil, nil, mv("Raider One", "14C", "11D"), []Code{NearSite}},
		{"raider onto a town", func(a *domain.Army) { a.At = sq("12E") }, nil, mv("Raider One", "12E", "10E"), []Code{NearSite}},
		{"raider next to a base", func(a *domain.Army) { a.At = sq("7H") }, nil, mv("Raider One", "7H", "6I"), []Code{NearSite}},
		{"raider next to a portal", func(a *domain.Army) { a.At = sq("28H") }, nil, mv("Raider One", "28H", "29I"), []Code{NearSite}},
		{"raider two squares from a town", nil, nil, mv("Raider One", "14C", "12C"), nil},
		{"raider long move ends its first turn next to a town", nil, nil, mv("Raider One", "14C", "11D", "13D"), []Code{NearSite}},
		{"raider long move ends its second turn next to a town", nil, nil, mv("Raider One", "14C", "13E", "11E"), []Code{NearSite}},
		{"raider intercepts", nil, nil, domain.Order{Army: "Raider One", Kind: domain.InterceptKind, Target: "Sai Rei"}, nil},
		{"a team army is not checked", nil, nil, mv("Sai Rei", "12C", "11D"), nil},
		{"an unknown army is not checked", nil, nil, mv("Nobody", "12C", "11D"), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := checkMap()
			if c.setup != nil {
				if a := m.Army(c.order.Army); a != nil {
					c.setup(a)
				}
			}
			ws := c.mem.Check(m, c.order)
			if !slices.Equal(codes(ws), c.want) {
				t.Fatalf("warnings %v, want %v", ws, c.want)
			}
			for _, w := range ws {
				if w.Line != 1 || w.Message == "" || w.Rule == "" || w.Army != c.order.Army {
					t.Errorf("warning %+v", w)
				}
			}
		})
	}
}

func editMap() *domain.Map {
	m := checkMap()
	add := func(name string, side domain.Side, f domain.Faction, at string) {
		m.Armies = append(m.Armies, domain.Army{Name: name, Side: side, Rank: domain.Lieutenant, At: sq(at), Faction: f})
	}
	add("Raider Two", domain.Mercenary, domain.Raider, "30C")
	add("Darkhand5", domain.Phyrexia, "", "14F")
	add("Blocker", domain.Coalition, "", "13D")
	add("Weakling", domain.Coalition, "", "12D")
	add("Scout", domain.Phyrexia, "", "16D")
	add("Picket", domain.Phyrexia, "", "16C")
	add("Loner", domain.Phyrexia, "", "30F")
	return m
}

// TestCheckEdit is the after-lock edit of 6.3.2: one raider a turn, engaging an army, passing
// through no army's square.
func TestCheckEdit(t *testing.T) {
	hold := domain.Order{Army: "Raider One", Kind: domain.Hold, Note: "no move"}
	for _, c := range []struct {
		name  string
		edits []domain.Order
		want  []Code
	}{
		{"straight engage over empty squares", []domain.Order{engage(mv("Raider One", "14C", "12C"), "Sai Rei")}, nil},
		{"straight engage down a column", []domain.Order{engage(mv("Raider One", "14C", "14F"), "Darkhand5")}, nil},
		{"a move to an empty square", []domain.Order{mv("Raider One", "14C", "15C")}, []Code{EditNoEngage}},
		{"a hold", []domain.Order{hold}, []Code{EditNoEngage}},
		{"every shortest route passes an army", []domain.Order{engage(mv("Raider One", "14C", "12D"), "Weakling")}, []Code{EditPassesArmy}},
		{"the random route may pass an army", []domain.Order{engage(mv("Raider One", "14C", "16D"), "Scout")}, []Code{EditPassesArmy}},
		{"a written route avoids it", []domain.Order{engage(routed("Raider One", "14C", "15C", "15D", "16D"), "Scout")}, nil},
		{"a written route passes it", []domain.Order{engage(routed("Raider One", "14C", "15C", "16C", "16D"), "Scout")}, []Code{EditPassesArmy}},
		{"intercepting a team army", []domain.Order{{Army: "Raider One", Kind: domain.InterceptKind, Target: "Sai Rei"}}, nil},
		{"intercepting a mercenary", []domain.Order{{Army: "Raider One", Kind: domain.InterceptKind, Target: "Raider Two"}}, []Code{EditNoEngage}},
		{"a town defender may not be edited", []domain.Order{engage(mv("Warden", "10E", "12C"), "Sai Rei")}, []Code{EditNotRaider}},
		{"a team army may not be edited", []domain.Order{mv("Sai Rei", "12C", "12B")}, []Code{EditNotRaider}},
		{"two raiders in one turn", []domain.Order{engage(mv("Raider One", "14C", "12C"), "Sai Rei"), engage(mv("Raider Two", "30C", "30F"), "Loner")}, []Code{EditTooMany}},
		{"one raider edited twice", []domain.Order{engage(mv("Raider One", "14C", "12C"), "Sai Rei"), engage(mv("Raider One", "14C", "14F"), "Darkhand5")}, nil},
		{"both rules broken", []domain.Order{mv("Raider One", "14C", "12B")}, []Code{EditNoEngage, EditPassesArmy}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ws := CheckEdit(editMap(), c.edits...)
			if !slices.Equal(codes(ws), c.want) {
				t.Fatalf("warnings %v, want %v", ws, c.want)
			}
			for _, w := range ws {
				if w.Rule != "6.3.2" || w.Message == "" {
					t.Errorf("warning %+v", w)
				}
			}
		})
	}
}

// TestShortestRoutes: every shortest route, each a chain of single steps.
func TestShortestRoutes(t *testing.T) {
	for _, c := range []struct {
		from, to string
		n        int
	}{{"14C", "14C", 1}, {"14C", "12C", 1}, {"14C", "12D", 3}, {"14C", "15E", 3}, {"14C", "13D", 2}, {"14C", "14F", 1}, {"14C", "15F", 0}} {
		rs := shortestRoutes(sq(c.from), sq(c.to))
		if len(rs) != c.n {
			t.Errorf("%s > %s: %d routes, want %d", c.from, c.to, len(rs), c.n)
		}
		for _, r := range rs {
			if r[0] != sq(c.from) || r[len(r)-1] != sq(c.to) || len(r) != domain.Steps(sq(c.from), sq(c.to))+1 {
				t.Errorf("%s > %s: route %v", c.from, c.to, r)
			}
			for i := 1; i < len(r); i++ {
				if domain.Steps(r[i-1], r[i]) != 1 {
					t.Errorf("%s > %s: route %v jumps", c.from, c.to, r)
				}
			}
		}
	}
}
