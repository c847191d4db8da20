package domain

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestCloneLeavesOriginal changes everything the rules change in place on a clone, and on a
// fork after ownTroops, and checks that the original map did not change.
func TestCloneLeavesOriginal(t *testing.T) {
	for _, c := range []struct {
		name string
		copy func(*Map) *Map
	}{
		{"clone", (*Map).Clone},
		{"fork", func(m *Map) *Map {
			f := m.Fork()
			f.Armies[0].ownTroops()
			return f
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := &Map{Grid: DefaultGrid,
				Sites: []Site{{Name: "Red Base", Kind: Base, Side: Coalition, Color: Red, At: Square{12, 10}}},
				Armies: []Army{{Name: "Sai Rei", Side: Coalition, Rank: Lieutenant, At: Square{3, 4},
					Troops:  make([]Troop, 1, 4), // room to append in place
					Capture: &Capture{Side: Phyrexia}, Incoming: []Shipment{{From: "Ash"}}}},
				Battles: []Battle{{Square: Square{3, 4}, Armies: []string{"Sai Rei", "X"}, Kind: Attack}},
			}
			m.Armies[0].Troops[0] = Troop{Creature: "Kris Mage", Size: Size{1, 1}, Slot: 1, Alive: 3000, Full: 5000, Wounds: []Wound{{Day: 1, Count: 10}}}
			cp := c.copy(m)
			a := &cp.Armies[0]
			a.At = Square{9, 9}
			a.Troops[0].Alive = 1
			a.Troops[0].Wounds[0].Count = 99
			a.Troops = append(a.Troops, Troop{Creature: "Grizzly Bears"})
			a.Capture.Converted = true
			a.Incoming[0].From = "Birch"
			cp.Sites[0].Destroyed = true
			cp.Battles[0].Kind = Push
			o := &m.Armies[0]
			switch {
			case o.At != (Square{3, 4}):
				t.Error("position changed")
			case o.Troops[0].Alive != 3000 || o.Troops[0].Wounds[0].Count != 10 || len(o.Troops) != 1 || o.Troops[:2][1].Creature != "":
				t.Error("troops changed")
			case o.Capture.Converted:
				t.Error("capture changed")
			case o.Incoming[0].From != "Ash":
				t.Error("shipment changed")
			case m.Sites[0].Destroyed:
				t.Error("site changed")
			case m.Battles[0].Kind != Attack:
				t.Error("battle changed")
			}
		})
	}
}

// TestForkSharesTroops checks that a fork shares troop lists until ownTroops, which copies
// them once; an army of a clone or a copied army owns its own.
func TestForkSharesTroops(t *testing.T) {
	m := &Map{Grid: DefaultGrid, Armies: []Army{
		{Name: "Sai Rei", Troops: []Troop{{Creature: "Kris Mage", Slot: 1, Alive: 10, Full: 10}}},
		{Name: "Unknown"},
	}}
	f := m.Fork()
	if &f.Armies[0].Troops[0] != &m.Armies[0].Troops[0] {
		t.Fatal("a fork copied troops no one changed")
	}
	f.Armies[0].ownTroops()
	own := &f.Armies[0].Troops[0]
	if own == &m.Armies[0].Troops[0] {
		t.Fatal("ownTroops left the troops shared")
	}
	f.Armies[0].ownTroops()
	if &f.Armies[0].Troops[0] != own {
		t.Error("a second ownTroops copied again")
	}
	if f.Armies[1].ownTroops(); f.Armies[1].Troops != nil {
		t.Error("ownTroops made a troop list for an army whose troops are unknown")
	}
	g := m.Fork().Clone()
	if g.Armies[0].shared || m.Fork().Armies[0].Clone().shared {
		t.Error("a clone's army thinks it shares its troops")
	}
}

// BenchmarkClone copies a full campaign's map (90 armies of 4 troops).
func BenchmarkClone(b *testing.B) {
	m := &Map{Grid: DefaultGrid}
	for i := 0; i < 90; i++ {
		a := Army{Name: "A", Side: Coalition, Rank: Lieutenant, At: Square{uint8(i%38 + 1), uint8(i%14 + 1)}}
		for s := 1; s <= 4; s++ {
			a.Troops = append(a.Troops, Troop{Creature: "C", Slot: s, Alive: 100, Full: 100})
		}
		m.Armies = append(m.Armies, a)
	}
	b.Run("clone", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m.Clone()
		}
	})
	b.Run("fork", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m.Fork()
		}
	})
}

// TestSameName pins how names compare: case, runs of spaces and spaces at either end do not
// matter, anything else does; NameKey agrees with SameName.
func TestSameName(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"Sai Rei", "sai rei", true},
		{"Sai Rei", "  SAI   REI ", true},
		{"Sai Rei", "SaiRei", false},
		{"Sai Rei", "Sai Rei2", false},
		{"Lim-Dûl", "lim-dûl", true},
		{"Lim-Dûl", "lim-dul", false},
		{"", "  ", true},
		{"A B", "A\tB", true},
		{"Darkhand5", "Darkhand 5", false},
	} {
		if got := SameName(c.a, c.b); got != c.same {
			t.Errorf("SameName(%q, %q) = %v, want %v", c.a, c.b, got, c.same)
		}
		if got := NameKey(c.a) == NameKey(c.b); got != c.same {
			t.Errorf("NameKey(%q) = %q, NameKey(%q) = %q: equal %v, want %v", c.a, NameKey(c.a), c.b, NameKey(c.b), got, c.same)
		}
	}
	if n := testing.AllocsPerRun(100, func() { SameName("Sai Rei", "sai  rei") }); n != 0 {
		t.Errorf("SameName allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { NameKey("sai rei") }); n != 0 {
		t.Errorf("NameKey of a key allocates %v times", n)
	}
}

// TestMapJSONRoundTrip keeps a map through JSON: a known empty troop list stays known (B9
// needs it), squares beyond the default grid survive, and the grid keeps its size.
func TestMapJSONRoundTrip(t *testing.T) {
	m := &Map{Grid: Grid{Cols: 80, Rows: 26}, Armies: []Army{
		{Name: "Hollow", Side: Phyrexia, Rank: Lieutenant, At: Square{70, 26}, Troops: []Troop{}},
		{Name: "Unknown", Side: Coalition, Rank: Lieutenant, At: Square{3, 4}},
	}}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var back Map
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatalf("%v in %s", err, data)
	}
	switch {
	case back.Grid != m.Grid:
		t.Errorf("grid %+v, want %+v", back.Grid, m.Grid)
	case back.Armies[0].At != (Square{70, 26}):
		t.Errorf("square %v, want 70Z", back.Armies[0].At)
	case back.Armies[0].Troops == nil || !back.Armies[0].Empty():
		t.Error("a known empty troop list came back unknown")
	case back.Armies[1].Troops != nil:
		t.Error("an unknown troop list came back known")
	}
}

// TestMayUse pins the colour rules of 2.2.1: a Coalition army uses its factions' colours,
// multicolour only with 5-Color, artifacts only with Colorless; Phyrexia uses anything but
// white or green; mercenaries anything.
func TestMayUse(t *testing.T) {
	rg := []Color{Red, Green}
	for _, c := range []struct {
		side     Side
		army     []Color
		creature []Color
		ok       bool
	}{
		{Coalition, []Color{Red}, []Color{Red}, true},         // Kris Mage in a red army
		{Coalition, []Color{Red}, []Color{Green}, false},      // Grizzly Bears need Green
		{Coalition, rg, rg, false},                            // R/G multi needs 5-Color (2.2.1)
		{Coalition, []Color{Red, Green, FiveColor}, rg, true}, // … which makes it allowed
		{Coalition, []Color{FiveColor}, []Color{White, Blue}, true},
		{Coalition, []Color{Red}, []Color{Artifact}, false}, // artifacts need Colorless
		{Coalition, []Color{Colorless}, []Color{Artifact}, true},
		{Coalition, []Color{Colorless}, nil, true},                // a colourless creature
		{Coalition, []Color{Blue}, []Color{Blue, Artifact}, true}, // a blue artifact is blue
		{Phyrexia, nil, []Color{Black}, true},
		{Phyrexia, nil, []Color{Blue, Red}, true},
		{Phyrexia, nil, []Color{Black, Green}, false},
		{Phyrexia, nil, []Color{White}, false},
		{Phyrexia, nil, []Color{Artifact}, true},
		{Mercenary, nil, []Color{White, Green}, true},
	} {
		a := &Army{Side: c.side, Colors: c.army}
		if got := a.MayUse(&Troop{Colors: c.creature}); got != c.ok {
			t.Errorf("%s army %v using a %v creature: %v, want %v", c.side, c.army, c.creature, got, c.ok)
		}
	}
}

// 6.1, R36: a town defender without a home town on record takes the town it starts in; a home
// town that is not a town on the map is refused.
func TestNoteHomes(t *testing.T) {
	m := &Map{Grid: DefaultGrid,
		Sites: []Site{{Name: "Ashvale", Kind: Town, Side: Neutral, At: Square{Col: 10, Row: 5}}, {Name: "Red Base", Kind: Base, Side: Coalition, At: Square{Col: 3, Row: 3}}},
		Armies: []Army{
			{Name: "Warden", Side: Mercenary, Rank: LtCommander, Faction: TownDefender, At: Square{Col: 10, Row: 5}},
			{Name: "Stray", Side: Mercenary, Rank: LtCommander, Faction: TownDefender, At: Square{Col: 12, Row: 5}},
			{Name: "Raider", Side: Mercenary, Rank: Lieutenant, Faction: Raider, At: Square{Col: 10, Row: 5}},
		}}
	m.NoteHomes()
	if got := []string{m.Army("Warden").Home, m.Army("Stray").Home, m.Army("Raider").Home}; got[0] != "Ashvale" || got[1] != "" || got[2] != "" {
		t.Errorf("homes %q: only the defender standing in a town takes it", got)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	m.Army("Stray").Home = "Red Base"
	if err := m.Validate(); err == nil || !strings.Contains(err.Error(), `army Stray has home town "Red Base", which is not a town on the map (6.1)`) {
		t.Errorf("a base as a home town: %v", err)
	}
}

// Validate refuses what no campaign can hold: unknown terrain, army names over MaxNameLength
// characters or with control characters, troop counts above the largest slot's capacity;
// each detail names the square, army or creature.
func TestValidateRefusesBadInput(t *testing.T) {
	good := func() *Map {
		return &Map{Grid: DefaultGrid, Terrain: TerrainMap{Default: Plains, Squares: map[Square]Terrain{{Col: 3, Row: 3}: Ocean}},
			Armies: []Army{{Name: "Sai Rei", Side: Coalition, Rank: Lieutenant, At: Square{Col: 3, Row: 4},
				Troops: []Troop{{Creature: "Kris Mage", Size: Size{1, 1}, Slot: 1, Alive: 5000, Full: 5000}}}}}
	}
	cases := []struct {
		name   string
		change func(m *Map)
		want   string // "" for a map that is valid
	}{
		{"a good map", func(*Map) {}, ""},
		{"no terrain at all", func(m *Map) { m.Terrain = TerrainMap{} }, ""},
		{"a name of 40 characters", func(m *Map) { m.Armies[0].Name = strings.Repeat("é", 40) }, ""},
		{"unknown default terrain", func(m *Map) { m.Terrain.Default = "lava" }, `the map's default terrain "lava" is not a terrain`},
		{"unknown square terrain", func(m *Map) { m.Terrain.Squares[Square{Col: 5, Row: 2}] = "Mountains" }, `the terrain of 5B, "Mountains", is not a terrain`},
		{"terrain off the map", func(m *Map) { m.Terrain.Squares[Square{Col: 39, Row: 2}] = Forest }, "39B has a terrain but is not on the map"},
		{"a name of 41 characters", func(m *Map) { m.Armies[0].Name = strings.Repeat("é", 41) }, "is too long: at most 40 characters"},
		{"a name of 5000 characters", func(m *Map) { m.Armies[0].Name = strings.Repeat("A", 5000) }, "is too long: at most 40 characters"},
		{"a NUL in a name", func(m *Map) { m.Armies[0].Name = "Sai\x00Rei" }, `army name "Sai\x00Rei" may not contain control characters`},
		{"an escape in a name", func(m *Map) { m.Armies[0].Name = "Sai\x1b[31mRei" }, "may not contain control characters"},
		{"a tab in a name", func(m *Map) { m.Armies[0].Name = "Sai\tRei" }, "may not contain control characters"},
		{"a line break in a name", func(m *Map) { m.Armies[0].Name = "Sai\nRei" }, "may not contain a colon or a line break"},
		{"alive over the capacity", func(m *Map) { m.Armies[0].Troops[0].Alive, m.Armies[0].Troops[0].Full = 1e15, 1e15 },
			"army Sai Rei: Kris Mage has 1000000000000000 troops; a slot holds at most 5000 (2.1)"},
		{"full over the capacity", func(m *Map) { m.Armies[0].Troops[0].Full = 5001 }, "army Sai Rei: Kris Mage has 5001 troops; a slot holds at most 5000 (2.1)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := good()
			c.change(m)
			err := m.Validate()
			switch {
			case c.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrInvalid)):
				t.Errorf("got %v, want ErrInvalid saying %q", err, c.want)
			}
		})
	}
}
