package mercenary

import (
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

// unit is an army of one troop of size/size creatures in slot 1: its strength is
// alive × 2 × size.
type unit struct {
	name    string
	side    domain.Side
	faction domain.Faction
	at      string
	alive   int
	size    int
	ctrl    []string
	home    string
}

func suggestMap(units ...unit) *domain.Map {
	m := &domain.Map{Grid: domain.DefaultGrid,
		Terrain: domain.TerrainMap{Squares: map[domain.Square]domain.Terrain{}},
		Sites: []domain.Site{
			{Name: "Ashvale", Kind: domain.Town, Side: domain.Neutral, At: sq("10E")},
			{Name: "Brindle", Kind: domain.Town, Side: domain.Neutral, At: sq("30E")},
			{Name: "Red Base", Kind: domain.Base, Side: domain.Coalition, Color: domain.Red, At: sq("5J")},
			{Name: "Portal One", Kind: domain.Portal, Side: domain.Phyrexia, At: sq("34J")},
		}}
	for c := 18; c <= 22; c++ {
		for r := 10; r <= 14; r++ {
			m.Terrain.Squares[domain.Square{Col: uint8(c), Row: uint8(r)}] = domain.Ocean
		}
	}
	for _, u := range units {
		size := domain.Size{Power: max(u.size, 1), Toughness: max(u.size, 1)}
		// at most 5000 of one creature (2.1): a bigger unit has reserves in slot 2
		troops := []domain.Troop{{Creature: "Troops", Size: size, Slot: 1, Alive: min(u.alive, 5000), Full: 5000}}
		if u.alive > 5000 {
			troops = append(troops, domain.Troop{Creature: "Reserves", Size: size, Slot: 2, Alive: u.alive - 5000, Full: u.alive - 5000})
		}
		m.Armies = append(m.Armies, domain.Army{Name: u.name, Side: u.side, Rank: domain.LtCommander, At: sq(u.at), Faction: u.faction, Home: u.home, Controllers: u.ctrl, Troops: troops})
	}
	return m
}

func raider(at string, alive int) unit {
	return unit{name: "Raider One", side: domain.Mercenary, faction: domain.Raider, at: at, alive: alive, size: 2}
}

func team(name string, side domain.Side, at string, alive int) unit {
	return unit{name: name, side: side, at: at, alive: alive, size: 1, ctrl: []string{"player"}}
}

func themeArmy(at string) unit {
	return unit{name: "Chimera", side: domain.Mercenary, faction: domain.Theme, at: at, alive: 4000, size: 3}
}

func warden(at string, alive int) unit {
	return unit{name: "Warden", side: domain.Mercenary, faction: domain.TownDefender, at: at, alive: alive, size: 2, home: "Ashvale"}
}

// TestSuggest is one case per guideline Suggest follows (6.1.1, 6.2.1, 6.2.3, 6.3.1, M12).
// want is the exact line of the first mercenary; not lists lines it must not be, where several
// answers follow the guideline.
func TestSuggest(t *testing.T) {
	coal, phyr := domain.Coalition, domain.Phyrexia
	horde := unit{name: "Horde", side: coal, at: "10E", alive: 5000, size: 3, ctrl: []string{"player"}}
	kraken := unit{name: "Kraken", side: domain.Mercenary, faction: domain.Theme, at: "20L", alive: 4000, size: 3}
	for _, c := range []struct {
		name  string
		mem   *Memory
		units []unit
		want  string
		not   []string
	}{
		// 6.3.1 raiders (Raider One: 3000 2/2 = strength 12000)
		{"raider engages the weakest army in reach", nil,
			[]unit{raider("14C", 3000), team("Weak Two", phyr, "15D", 2000), team("Weak One", coal, "12C", 1000), team("Strong", coal, "16C", 7000)},
			"Raider One: 14C > 12C; engage Weak One", nil},
		{"raider does not engage a strong army", nil,
			[]unit{raider("14C", 3000), team("Strong", coal, "13C", 6000)},
			"", []string{"Raider One: 14C > 13C; engage Strong"}},
		{"raider never engages next to a site", nil,
			[]unit{raider("14C", 3000), team("Weak", coal, "11D", 500), team("Weaker", coal, "12B", 900)},
			"Raider One: 14C > 12B; engage Weaker", nil},
		{"raider avoids an escorted army", nil,
			[]unit{raider("14C", 3000), team("Escorted", coal, "12C", 500), team("Escort", coal, "12B", 6000), team("Alone", phyr, "15D", 2000)},
			"Raider One: 14C > 15D; engage Alone", nil},
		{"raider in a battle fights", nil,
			[]unit{raider("14C", 3000), team("Sai Rei", coal, "14C", 500)},
			"Raider One: fighting", nil},
		{"raider with nothing to engage moves away from strong armies", nil,
			[]unit{raider("14C", 3000), team("Strong", coal, "14B", 9000)},
			"", []string{"Raider One: no move", "Raider One: 14C > 14B; engage Strong"}},
		{"raider next to a site leaves", nil,
			[]unit{raider("11E", 3000)},
			"", []string{"Raider One: no move"}},
		{"a second mercenary does not take a square already taken (M12)", nil,
			[]unit{raider("14C", 3000), {name: "Raider Two", side: domain.Mercenary, faction: domain.Raider, at: "16C", alive: 3000, size: 2}, team("Weak", coal, "15D", 500)},
			"Raider One: 14C > 15D; engage Weak", nil},
		{"a mercenary another player controls gets no suggestion", nil,
			[]unit{{name: "Raider One", side: domain.Mercenary, faction: domain.Raider, at: "14C", alive: 3000, size: 2, ctrl: []string{"someone"}}, warden("10E", 4000)},
			"Warden: no move", nil},
		// 6.2.1 theme armies (Chimera: 4000 3/3)
		{"theme attacks an army near its territory", nil,
			[]unit{themeArmy("25C"), team("Intruder", coal, "27C", 4000)},
			"Chimera: 25C > 27C; engage Intruder", nil},
		{"theme ignores an army out of reach", nil,
			[]unit{themeArmy("25C"), team("Far", coal, "29C", 100)},
			"Chimera: no move", nil},
		{"theme attacks the army nearest its territory", nil,
			[]unit{themeArmy("25C"), team("Weak", coal, "27C", 100), team("Near", phyr, "25D", 9000)},
			"Chimera: 25C > 25D; engage Near", nil},
		{"theme away from its territory goes back", &Memory{Territory: map[string]domain.Square{"Chimera": sq("25C")}},
			[]unit{themeArmy("28C")},
			"Chimera: 28C > 25C", nil},
		{"theme attacks only near its territory", &Memory{Territory: map[string]domain.Square{"Chimera": sq("25C")}},
			[]unit{themeArmy("28C"), team("Beyond", coal, "31C", 100)},
			"Chimera: 28C > 25C", nil},
		{"ocean army attacks on the ocean", nil,
			[]unit{kraken, team("Swimmer", coal, "20N", 3000), team("Walker", coal, "20I", 100)},
			"Kraken: 20L > 20N; engage Swimmer", nil},
		{"ocean army ignores the land", nil,
			[]unit{kraken, team("Walker", coal, "20I", 100)},
			"Kraken: no move", nil},
		{"ocean army ashore goes back to the ocean", &Memory{Ocean: "Kraken"},
			[]unit{{name: "Kraken", side: domain.Mercenary, faction: domain.Theme, at: "20F", alive: 4000, size: 3}},
			"Kraken: 20F > 20I", nil},
		// 6.2.3 At War
		{"At War attacks its war enemy first", &Memory{AtWar: map[string]domain.Side{"Chimera": phyr}},
			[]unit{themeArmy("25C"), team("Coalition Army", coal, "26C", 100), team("Phyrexian Army", phyr, "27D", 9000)},
			"Chimera: 25C > 27D; engage Phyrexian Army", nil},
		{"At War attacks either team", &Memory{AtWar: map[string]domain.Side{"Chimera": phyr}},
			[]unit{themeArmy("25C"), team("Coalition Army", coal, "26C", 100), team("Far Phyrexian", phyr, "25K", 100)},
			"Chimera: 25C > 26C; engage Coalition Army", nil},
		{"At War never next to a portal", &Memory{AtWar: map[string]domain.Side{"Chimera": phyr}},
			[]unit{themeArmy("32H"), team("Guard", phyr, "33I", 100)},
			"", []string{"Chimera: 32H > 33I; engage Guard", "Chimera: 32H > 33J", "Chimera: 32H > 33K", "Chimera: 32H > 35I", "Chimera: 32H > 34H"}},
		{"At War advances towards its war enemy", &Memory{AtWar: map[string]domain.Side{"Chimera": phyr}},
			[]unit{themeArmy("25C"), team("Far Phyrexian", phyr, "25K", 100)},
			"Chimera: 25C > 25F", nil},
		// 6.1.1 town defenders (Warden: 2/2 creatures, strength alive × 4)
		{"TDF holds its town", nil, []unit{warden("10E", 4000)}, "Warden: no move", nil},
		{"TDF retakes its town", nil, []unit{warden("11E", 4000), team("Taker", coal, "10E", 3000)}, "Warden: 11E > 10E; engage Taker", nil},
		{"TDF goes back into its town", nil, []unit{warden("12F", 4000)}, "Warden: 12F > 10E", nil},
		{"TDF waits beside its town against overwhelming odds", nil, []unit{warden("11E", 4000), horde, team("Second", coal, "9E", 5000)}, "Warden: no move", nil},
		{"weak TDF retreats from overwhelming odds", nil, []unit{warden("11E", 3000), horde, team("Second", coal, "9E", 5000)}, "Warden: 11E > 14E", nil},
		{"TDF driven far away comes back", nil, []unit{warden("16E", 4000)}, "Warden: 16E > 13E", nil},
		{"TDF stays beside a town in battle", nil, []unit{warden("11E", 4000), team("Sai Rei", coal, "10E", 100), team("Darkhand5", phyr, "10E", 100)}, "Warden: no move", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := suggestMap(c.units...)
			if err := m.Validate(); err != nil {
				t.Fatal(err)
			}
			got := c.mem.Suggest(m, domain.ScenarioSeed(7, 0))
			if len(got) == 0 {
				t.Fatal("no suggestion")
			}
			line := got[0].Line
			if c.want != "" && line != c.want {
				t.Fatalf("suggested %q (%s), want %q", line, got[0].Reason, c.want)
			}
			for _, n := range c.not {
				if line == n {
					t.Fatalf("suggested %q (%s), which breaks the guideline", line, got[0].Reason)
				}
			}
			var orders []domain.Order
			dest := map[domain.Square]bool{}
			for _, s := range got {
				orders = append(orders, s.Order)
				if s.Order.Kind == domain.MoveKind {
					if dest[s.Order.Legs[0].To] {
						t.Errorf("two mercenaries are sent to %s", s.Order.Legs[0].To)
					}
					dest[s.Order.Legs[0].To] = true
				}
			}
			if ws := c.mem.Check(m, orders...); len(ws) > 0 {
				t.Errorf("the suggestion breaks a guideline: %v", ws)
			}
		})
	}
}

// TestSuggestTieDraw: two equal choices are decided by the draw "mercenary-suggest:<name key>"
// over the tied squares in order of number, then letter; both outcomes occur.
func TestSuggestTieDraw(t *testing.T) {
	m := suggestMap(raider("14C", 3000), team("Left", domain.Coalition, "12C", 1000), team("Right", domain.Phyrexia, "16C", 1000))
	lines := []string{"Raider One: 14C > 12C; engage Left", "Raider One: 14C > 16C; engage Right"}
	seen := map[string]bool{}
	for i := int64(0); i < 30; i++ {
		seed := domain.ScenarioSeed(i, 0)
		got := Suggest(m, seed)[0].Line
		if want := lines[seed.Intn("mercenary-suggest:raider one", 2)]; got != want {
			t.Fatalf("seed %d: %q, the draw says %q", i, got, want)
		}
		if again := Suggest(m, seed)[0].Line; again != got {
			t.Fatalf("seed %d: %q, then %q", i, got, again)
		}
		seen[got] = true
	}
	if len(seen) != 2 {
		t.Fatalf("30 seeds gave only %v", seen)
	}
}

// TestStrength: troops known count alive × (power + toughness); unknown, a full army of its rank.
func TestStrength(t *testing.T) {
	a := &domain.Army{Rank: domain.Lieutenant, Troops: []domain.Troop{troop("Goblins", 1, 1000, 5000), troop("Ogres", 2, 500, 2500)}}
	if got := Strength(a); got != 1000*2+500*4 {
		t.Errorf("Strength = %d", got)
	}
	a.Troops = nil
	if got := Strength(a); got != 5000*2+2500*4+1500*6+1000*8 {
		t.Errorf("Strength of a full Lieutenant army = %d", got)
	}
}

// BenchmarkSuggest runs Suggest on a full map: 45 armies a side and 12 mercenaries.
func BenchmarkSuggest(b *testing.B) {
	m, mem := FullMap(1)
	seed := domain.ScenarioSeed(1, 0)
	n := 0
	for _, a := range m.Armies {
		if a.Side == domain.Mercenary {
			n++
		}
	}
	if len(m.Armies) != 102 || n != 12 {
		b.Fatalf("%d armies, %d mercenaries", len(m.Armies), n)
	}
	b.ReportAllocs()
	for b.Loop() {
		if s := mem.Suggest(m, seed); len(s) == 0 {
			b.Fatal("no suggestions")
		}
	}
}

func TestReportString(t *testing.T) {
	r := Update(suggestMap(warden("10E", 4000)), map[string]domain.Square{"Warden": sq("10E")}, domain.ScenarioSeed(1, 0), UpdateOptions{})
	if !strings.Contains(r.String(), "Warden held its home town Ashvale and heals 500 soldiers (6.1.2): 500 Troops.") {
		t.Fatalf("report:\n%s", r)
	}
}
