package mercenary

import (
	"slices"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

// pool is a small creature pool: two creatures of each size 1/1 to 5/5, and a 2/3.
func pool() []domain.Troop {
	var out []domain.Troop
	for s := 1; s <= 5; s++ {
		for _, n := range []string{"A", "B"} {
			out = append(out, domain.Troop{Creature: n + " " + domain.Size{Power: s, Toughness: s}.String(), Size: domain.Size{Power: s, Toughness: s}, Colors: []domain.Color{domain.Red}})
		}
	}
	return append(out, domain.Troop{Creature: "C 2/3", Size: domain.Size{Power: 2, Toughness: 3}})
}

// TestUpdatePlacesSpawnedRaider (6.3, 6.3.2): with the AI on, a spawned raider is placed on a
// square drawn among those away from every site and army, its troops one creature a slot at
// the slot's size drawn from the pool, at full count; with the AI off it is only reported.
func TestUpdatePlacesSpawnedRaider(t *testing.T) {
	spawns := 0
	for i := int64(0); i < 200 && spawns < 20; i++ {
		seed := domain.ScenarioSeed(i, 0)
		m := suggestMap(team("Sai Rei", domain.Coalition, "14C", 100))
		before := len(m.Armies)
		r := Update(m, nil, seed, UpdateOptions{Place: true, Creatures: pool(), Turn: 7})
		s := r.Spawn
		if !s.Spawned {
			if len(m.Armies) != before || s.Army != "" {
				t.Fatalf("seed %d: no spawn, but %+v", i, s)
			}
			continue
		}
		spawns++
		squares := SpawnSquares(suggestMap(team("Sai Rei", domain.Coalition, "14C", 100)))
		if s.Army != "Raiders of Turn 7" || s.Squares != len(squares) || s.At != squares[seed.Intn("raider-spawn-square", len(squares))] {
			t.Fatalf("seed %d: %+v", i, s)
		}
		a := m.Army(s.Army)
		if a == nil || a.At != s.At || a.Faction != domain.Raider || a.Side != domain.Mercenary || a.Rank != s.Rank || a.Controllers != nil || len(a.Troops) != domain.Slots {
			t.Fatalf("seed %d: placed %+v", i, a)
		}
		for _, st := range m.Sites {
			if domain.Ring(st.At, a.At) <= 1 {
				t.Fatalf("seed %d: placed at %s next to %s", i, a.At, st.Name)
			}
		}
		if domain.Ring(a.At, sq("14C")) <= 1 {
			t.Fatalf("seed %d: placed at %s next to Sai Rei", i, a.At)
		}
		for _, tr := range a.Troops {
			max, below := a.Rank.SlotSize(tr.Slot), a.Rank.SlotSize(tr.Slot-1)
			if !tr.Size.Fits(max) || (tr.Slot > 1 && tr.Size.Fits(below)) || tr.Alive != domain.SlotCapacity(tr.Slot) || tr.Full != tr.Alive {
				t.Fatalf("seed %d: slot %d of rank %v: %+v", i, tr.Slot, a.Rank, tr)
			}
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("seed %d: %v", i, err)
		}
		if !strings.Contains(r.String(), "Raiders of Turn 7, placed at "+a.At.String()) {
			t.Fatalf("seed %d: report %q", i, r.String())
		}
		off := suggestMap()
		if r := Update(off, nil, seed, UpdateOptions{}); len(off.Armies) != 0 || !strings.Contains(r.String(), "the mercenary judge places it") {
			t.Fatalf("seed %d: with the AI off: %q, %d armies", i, r.String(), len(off.Armies))
		}
	}
	if spawns < 5 {
		t.Fatalf("only %d spawns in 200 seeds", spawns)
	}
}

// TestSpawnTroops draws each slot among the pool's creatures of the slot's size, sorted by name
// (label raider-troop:<slot>); no pool gives unknown troops.
func TestSpawnTroops(t *testing.T) {
	seed := domain.ScenarioSeed(5, 0)
	got := SpawnTroops(domain.LtCommander, pool(), seed)
	// a 2/2 rank: slots of 2/2, 3/3, 4/4, 5/5
	cands := [][]string{{"A 1/1", "A 2/2", "B 1/1", "B 2/2"}, {"A 3/3", "B 3/3", "C 2/3"}, {"A 4/4", "B 4/4"}, {"A 5/5", "B 5/5"}}
	for i, tr := range got {
		want := cands[i][seed.Intn("raider-troop:"+string(rune('1'+i)), len(cands[i]))]
		if tr.Slot != i+1 || tr.Creature != want {
			t.Fatalf("slot %d: %+v, want %s", i+1, tr, want)
		}
	}
	if SpawnTroops(domain.Lieutenant, nil, seed) != nil {
		t.Fatal("an empty pool gave troops")
	}
}

// TestUpdateDisbands (6.3.2): a raider ordered to disband leaves the map at the update, unless
// it fought this turn or an enemy ended the turn with it; a non-raider holds.
func TestUpdateDisbands(t *testing.T) {
	m := suggestMap(raider("14C", 3000),
		unit{name: "Fighter", side: domain.Mercenary, faction: domain.Raider, at: "20C", alive: 100, size: 1},
		unit{name: "Caught", side: domain.Mercenary, faction: domain.Raider, at: "25C", alive: 100, size: 1}, team("Hunter", domain.Coalition, "25C", 100),
		warden("10E", 4000))
	fought := []domain.Battle{{Square: sq("20C"), Armies: []string{"Fighter", "Gone"}}}
	r := Update(m, nil, domain.ScenarioSeed(1, 0), UpdateOptions{Disband: []string{"Raider One", "Fighter", "Caught", "Warden"}, Fought: fought})
	if !slices.Equal(r.Disbanded, []string{"Raider One"}) || m.Army("Raider One") != nil || m.Army("Fighter") == nil || m.Army("Caught") == nil || m.Army("Warden") == nil {
		t.Fatalf("disbanded %v; lines %q", r.Disbanded, r.Lines)
	}
	for _, want := range []string{"Raider One disbands at 14C", "Fighter was ordered to disband, but it fights at 20C", "Caught was disbanding, but Hunter caught it", "only a raider may disband"} {
		if !strings.Contains(r.String(), want) {
			t.Errorf("no %q in %q", want, r.String())
		}
	}
}
