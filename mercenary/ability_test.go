package mercenary

import (
	"maps"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

func sq(text string) domain.Square {
	s, err := domain.ParseSquare(text)
	if err != nil {
		panic(err)
	}
	return s
}

func troop(creature string, slot, alive, full int) domain.Troop {
	size := slot
	return domain.Troop{Creature: creature, Size: domain.Size{Power: size, Toughness: size}, Slot: slot, Alive: alive, Full: full}
}

// TestSpawnChance is 6.3.2's table: 3/20 with 0 or 1 raiders, 2/20 with 2, 1/20 with 3 or 4,
// and no roll at all with 5 or more.
func TestSpawnChance(t *testing.T) {
	for raiders, want := range []int{3, 3, 2, 1, 1, 0, 0} {
		if got := SpawnChance(raiders); got != want {
			t.Errorf("SpawnChance(%d) = %d, want %d", raiders, got, want)
		}
	}
}

// TestSpawnRank: 7 faces of 20 give a 2/2 rank (Lt Commander class), the rest 1/1 (6.3.2).
func TestSpawnRank(t *testing.T) {
	for _, c := range []struct {
		roll int
		want domain.Rank
	}{{1, domain.LtCommander}, {7, domain.LtCommander}, {8, domain.Lieutenant}, {20, domain.Lieutenant}} {
		if got := SpawnRank(c.roll); got != c.want {
			t.Errorf("SpawnRank(%d) = %v, want %v", c.roll, got, c.want)
		}
	}
}

// spawnMap has n raiders and, to show they do not count, 3 town defenders, a theme army and a
// captured raider now fighting for the Coalition.
func spawnMap(n int) *domain.Map {
	m := &domain.Map{Grid: domain.DefaultGrid}
	add := func(name string, side domain.Side, f domain.Faction, at string) {
		m.Armies = append(m.Armies, domain.Army{Name: name, Side: side, Rank: domain.Lieutenant, At: sq(at), Faction: f})
	}
	for i := 0; i < n; i++ {
		add("Raider "+string(rune('A'+i)), domain.Mercenary, domain.Raider, string(rune('A'+i))+"1")
	}
	add("Defender 1", domain.Mercenary, domain.TownDefender, "10J")
	add("Defender 2", domain.Mercenary, domain.TownDefender, "11J")
	add("Defender 3", domain.Mercenary, domain.TownDefender, "12J")
	add("Theme", domain.Mercenary, domain.Theme, "13J")
	add("Captured Raider", domain.Coalition, domain.Raider, "14J")
	return m
}

// TestUpdateSpawnRoll checks, for each raider count and many seeds, that Update rolls the
// "raider-spawn" d20 of the turn's seed, spawns exactly when it is within the chance, and on a
// spawn rolls "raider-spawn-rank" for the rank; with 5 raiders nothing is rolled.
func TestUpdateSpawnRoll(t *testing.T) {
	for raiders := 0; raiders <= 5; raiders++ {
		spawned, lt, ltc := 0, 0, 0
		for i := int64(0); i < 300; i++ {
			seed := domain.ScenarioSeed(i, 0)
			m := spawnMap(raiders)
			if got := Raiders(m); got != raiders {
				t.Fatalf("Raiders = %d, want %d", got, raiders)
			}
			r := Update(m, nil, seed, UpdateOptions{})
			s := r.Spawn
			if s.Raiders != raiders || s.Chance != SpawnChance(raiders) {
				t.Fatalf("%d raiders: spawn %+v", raiders, s)
			}
			if len(r.Lines) != 1 || !strings.HasPrefix(r.Lines[0], "Raider spawn:") {
				t.Fatalf("%d raiders: lines %q", raiders, r.Lines)
			}
			if raiders == MaxRaiders {
				if s.Roll != 0 || s.Spawned {
					t.Fatalf("5 raiders: rolled %+v", s)
				}
				continue
			}
			roll := seed.D20("raider-spawn")
			if s.Roll != roll || s.Spawned != (roll <= s.Chance) {
				t.Fatalf("%d raiders, seed %d: spawn %+v, the d20 is %d", raiders, i, s, roll)
			}
			if !s.Spawned {
				if s.RankRoll != 0 || s.Rank != 0 || strings.Contains(r.Lines[0], "a raider spawns") {
					t.Fatalf("no spawn but %+v, %q", s, r.Lines[0])
				}
				continue
			}
			spawned++
			if rr := seed.D20("raider-spawn-rank"); s.RankRoll != rr || s.Rank != SpawnRank(rr) {
				t.Fatalf("seed %d: rank %+v, the rank d20 is %d", i, s, rr)
			}
			if !strings.Contains(r.Lines[0], "a raider spawns") {
				t.Fatalf("spawn line %q", r.Lines[0])
			}
			if s.Rank == domain.Lieutenant {
				lt++
			} else {
				ltc++
			}
		}
		if raiders < MaxRaiders && spawned == 0 {
			t.Errorf("%d raiders: 300 seeds never spawned a raider; the test proves nothing", raiders)
		}
		if raiders == 0 && (lt == 0 || ltc == 0) {
			t.Errorf("0 raiders: %d Lieutenant and %d Lt Commander spawns; both ranks should occur", lt, ltc)
		}
	}
}

// TestHealLowest: the 500 go to the lowest slot first, creature by creature in the army's
// order, and up to the next slot only when it is full; never past full (6.1.2).
func TestHealLowest(t *testing.T) {
	for _, c := range []struct {
		name   string
		troops []domain.Troop
		want   map[string]int
	}{
		{"spills over to the next slot", []domain.Troop{troop("Goblins", 1, 4700, 5000), troop("Ogres", 2, 2000, 2500)}, map[string]int{"Goblins": 300, "Ogres": 200}},
		{"two creatures in the lowest slot", []domain.Troop{troop("Goblins", 1, 1900, 2000), troop("Elves", 1, 2400, 3000), troop("Ogres", 2, 2000, 2500)}, map[string]int{"Goblins": 100, "Elves": 400}},
		{"lowest slots full", []domain.Troop{troop("Goblins", 1, 5000, 5000), troop("Ogres", 2, 2500, 2500), troop("Giants", 3, 500, 1500)}, map[string]int{"Giants": 500}},
		{"never past full", []domain.Troop{troop("Goblins", 1, 4800, 5000), troop("Giants", 3, 1400, 1500)}, map[string]int{"Goblins": 200, "Giants": 100}},
		{"listed out of slot order", []domain.Troop{troop("Ogres", 2, 2000, 2500), troop("Goblins", 1, 4600, 5000)}, map[string]int{"Goblins": 400, "Ogres": 100}},
		{"all full", []domain.Troop{troop("Goblins", 1, 5000, 5000)}, map[string]int{}},
		{"slot 1 empty by losses", []domain.Troop{troop("Goblins", 1, 0, 5000)}, map[string]int{"Goblins": 500}},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := &domain.Army{Troops: c.troops}
			before := map[string]int{}
			for _, tr := range a.Troops {
				before[tr.Creature] = tr.Alive
			}
			got := HealLowest(a, TownDefenderHeal)
			if !maps.Equal(got, c.want) {
				t.Fatalf("healed %v, want %v", got, c.want)
			}
			for _, tr := range a.Troops {
				if tr.Alive != before[tr.Creature]+c.want[tr.Creature] || tr.Alive > tr.Full {
					t.Errorf("%s: alive %d (full %d), was %d", tr.Creature, tr.Alive, tr.Full, before[tr.Creature])
				}
			}
		})
	}
}

// TestUpdateHealsTownDefender is 6.1.2 with the package's reading: a defender heals when it
// held its home town from the turn's start to the update with no enemy beside it.
func TestUpdateHealsTownDefender(t *testing.T) {
	type setup struct {
		start, at string
		home      string
		faction   domain.Faction
		side      domain.Side
		unknown   bool
		full      bool
		enemy     bool
	}
	base := setup{start: "10E", at: "10E", home: "Ashvale", faction: domain.TownDefender, side: domain.Mercenary}
	for _, c := range []struct {
		name   string
		change func(*setup)
		healed int
		line   string
	}{
		{"held its town all turn", func(*setup) {}, 500, "heals 500"},
		{"arrived this turn", func(s *setup) { s.start = "11E" }, 0, ""},
		{"lost and was pushed off", func(s *setup) { s.at = "11F" }, 0, ""},
		{"an enemy is in the town with it", func(s *setup) { s.enemy = true }, 0, "does not heal"},
		{"no home town on record", func(s *setup) { s.home = "" }, 0, ""},
		{"home is not a town", func(s *setup) { s.home = "Red Base" }, 0, "not a town"},
		{"troops unknown", func(s *setup) { s.unknown = true }, 0, "by hand"},
		{"at full strength", func(s *setup) { s.full = true }, 0, ""},
		{"a raider in a town does not heal", func(s *setup) { s.faction = domain.Raider }, 0, ""},
		{"a captured defender does not heal", func(s *setup) { s.side = domain.Coalition }, 0, ""},
		{"not on record at the turn's start", func(s *setup) { s.start = "" }, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := base
			c.change(&s)
			m := &domain.Map{Grid: domain.DefaultGrid, Sites: []domain.Site{
				{Name: "Ashvale", Kind: domain.Town, Side: domain.Neutral, At: sq("10E")},
				{Name: "Red Base", Kind: domain.Base, Side: domain.Coalition, Color: domain.Red, At: sq("5J")},
			}}
			w := domain.Army{Name: "Warden", Side: s.side, Rank: domain.LtCommander, At: sq(s.at), Faction: s.faction, Home: s.home,
				Troops: []domain.Troop{troop("Goblins", 1, 4700, 5000), troop("Ogres", 2, 2000, 2500)}}
			if s.full {
				w.Troops = []domain.Troop{troop("Goblins", 1, 5000, 5000)}
			}
			if s.unknown {
				w.Troops = nil
			}
			m.Armies = append(m.Armies, w)
			start := map[string]domain.Square{}
			if s.start != "" {
				start["Warden"] = sq(s.start)
			}
			if s.enemy {
				m.Armies = append(m.Armies, domain.Army{Name: "Sai Rei", Side: domain.Coalition, Rank: domain.Lieutenant, At: sq(s.at)})
				start["Sai Rei"] = sq("11E")
			}
			r := Update(m, start, domain.ScenarioSeed(1, 0), UpdateOptions{})
			if got := r.Healed["Warden"]; got != c.healed {
				t.Fatalf("healed %d, want %d; lines %q", got, c.healed, r.Lines)
			}
			if c.healed > 0 {
				a := m.Army("Warden")
				if a.Troops[0].Alive != 5000 || a.Troops[1].Alive != 2200 {
					t.Errorf("alive %d, %d; want 5000, 2200", a.Troops[0].Alive, a.Troops[1].Alive)
				}
				if hc := r.HealedCreatures["Warden"]; hc["Goblins"] != 300 || hc["Ogres"] != 200 {
					t.Errorf("healed creatures %v", hc)
				}
			}
			if c.line != "" && !strings.Contains(r.String(), c.line) {
				t.Errorf("the report %q does not say %q", r.String(), c.line)
			}
			if c.line == "" && len(r.Lines) != 1 {
				t.Errorf("the report says more than the spawn roll: %q", r.Lines)
			}
		})
	}
}

func warMap() *domain.Map {
	m := &domain.Map{Grid: domain.DefaultGrid, Terrain: domain.TerrainMap{Squares: map[domain.Square]domain.Terrain{sq("20L"): domain.Ocean}}}
	for _, x := range []struct{ name, at string }{{"Basilisk", "5C"}, {"Chimera", "25C"}, {"Kraken", "20L"}, {"Wyrm", "30C"}} {
		m.Armies = append(m.Armies, domain.Army{Name: x.name, Side: domain.Mercenary, Rank: domain.Commander, At: sq(x.at), Faction: domain.Theme,
			Troops: []domain.Troop{troop("Lizards", 1, 1000, 5000), troop("Drakes", 2, 2400, 2500), troop("Titans", 4, 1000, 1000)}})
	}
	m.Armies = append(m.Armies, domain.Army{Name: "Raider", Side: domain.Mercenary, Rank: domain.Lieutenant, At: sq("9C"), Faction: domain.Raider})
	return m
}

// TestDeclareWar is 6.2.2: a random theme army, never the ocean army nor one already at war,
// goes to war with the team that did not score the kill and heals a quarter of each troop once.
func TestDeclareWar(t *testing.T) {
	for _, c := range []struct {
		name       string
		mem        Memory
		killer     domain.Side
		candidates []string
	}{
		{"ocean army found by its terrain", Memory{}, domain.Coalition, []string{"Basilisk", "Chimera", "Wyrm"}},
		{"ocean army named", Memory{Ocean: "Wyrm"}, domain.Phyrexia, []string{"Basilisk", "Chimera", "Kraken"}},
		{"armies at war are not chosen again", Memory{AtWar: map[string]domain.Side{"chimera": domain.Coalition}}, domain.Coalition, []string{"Basilisk", "Wyrm"}},
		{"nobody left", Memory{AtWar: map[string]domain.Side{"Basilisk": domain.Coalition, "Chimera": domain.Phyrexia, "Wyrm": domain.Phyrexia}}, domain.Coalition, []string{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			chosen := map[string]bool{}
			for i := int64(0); i < 30; i++ {
				m, mem := warMap(), c.mem
				mem.AtWar = maps.Clone(c.mem.AtWar)
				seed := domain.ScenarioSeed(i, 0)
				w, err := mem.DeclareWar(m, "Town Guard", c.killer, seed)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Join(w.Candidates, ",") != strings.Join(c.candidates, ",") {
					t.Fatalf("candidates %v, want %v", w.Candidates, c.candidates)
				}
				if len(c.candidates) == 0 {
					if w.Army != "" || len(mem.AtWar) != len(c.mem.AtWar) || !strings.Contains(w.Line, "no theme army") {
						t.Fatalf("nobody to choose, yet %+v", w)
					}
					return
				}
				want := c.candidates[seed.Intn("theme-at-war:town guard", len(c.candidates))]
				if w.Army != want {
					t.Fatalf("seed %d: chose %s, the draw says %s", i, w.Army, want)
				}
				chosen[w.Army] = true
				if w.Against != c.killer.Opponent() || mem.AtWarWith(w.Army) != c.killer.Opponent() {
					t.Fatalf("%s at war with %q (remembered %q), want %s", w.Army, w.Against, mem.AtWarWith(w.Army), c.killer.Opponent())
				}
				a := m.Army(w.Army)
				if a.Troops[0].Alive != 2250 || a.Troops[1].Alive != 2500 || a.Troops[2].Alive != 1000 {
					t.Fatalf("after the war heal: %+v", a.Troops)
				}
				if !maps.Equal(w.Healed, map[string]int{"Lizards": 1250, "Drakes": 100}) {
					t.Fatalf("healed %v", w.Healed)
				}
				for i := range m.Armies {
					if o := &m.Armies[i]; o.Name != w.Army && o.Faction == domain.Theme && o.Troops[0].Alive != 1000 {
						t.Fatalf("%s healed too", o.Name)
					}
				}
			}
			if len(chosen) < 2 {
				t.Errorf("30 seeds always chose %v: the draw does not decide", chosen)
			}
		})
	}
	if _, err := (&Memory{}).DeclareWar(warMap(), "Town Guard", domain.Mercenary, domain.Seed{}); err == nil {
		t.Error("a kill by a mercenary sent a theme army to war")
	}
}
