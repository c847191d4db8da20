package mercenary

import (
	"fmt"
	"math/rand/v2"

	"github.com/coalition-wargame/coalition/domain"
)

// FullMap builds a campaign-sized map for tests and benchmarks: the 38 × 14 grid with a sea,
// 7 bases, 5 portals, 3 towns, 45 armies a side (ranks 1/2/7/7/14/14, 2.5.2.1) and 12
// mercenaries (3 town defenders, 4 theme armies of which one is the ocean army, 5 raiders),
// placed at random from seed: no two armies of one side (or two mercenaries) share a square,
// but armies of different sides may (a battle this turn). It also returns a Memory that
// knows each theme army's territory and the ocean army, and puts one theme army at war.
func FullMap(seed uint64) (*domain.Map, *Memory) {
	rng := rand.New(rand.NewPCG(seed, 0x6d657263))
	g := domain.DefaultGrid
	m := &domain.Map{Grid: g, Terrain: domain.TerrainMap{Default: domain.Plains, Squares: map[domain.Square]domain.Terrain{}}}
	for c := 16; c <= 22; c++ {
		for r := 9; r <= 14; r++ {
			m.Terrain.Squares[domain.Square{Col: uint8(c), Row: uint8(r)}] = domain.Ocean
		}
	}
	colors := []domain.Color{domain.White, domain.Blue, domain.Black, domain.Red, domain.Green, domain.FiveColor, domain.Colorless}
	for i, c := range colors {
		m.Sites = append(m.Sites, domain.Site{Name: string(c) + " Base", Kind: domain.Base, Side: domain.Coalition, Color: c, At: domain.Square{Col: uint8(2 + i%2*3), Row: uint8(1 + 2*i)}, WinCondition: true})
	}
	for i := 0; i < 5; i++ {
		m.Sites = append(m.Sites, domain.Site{Name: fmt.Sprintf("Portal %d", i+1), Kind: domain.Portal, Side: domain.Phyrexia, At: domain.Square{Col: uint8(36 - i%2*3), Row: uint8(2 + 3*i)}, WinCondition: true})
	}
	towns := []domain.Square{{Col: 19, Row: 3}, {Col: 12, Row: 8}, {Col: 27, Row: 8}}
	for i, at := range towns {
		m.Sites = append(m.Sites, domain.Site{Name: fmt.Sprintf("Town %d", i+1), Kind: domain.Town, Side: domain.Neutral, At: at})
	}
	sides := map[domain.Square][]domain.Side{}
	free := func(s domain.Square, side domain.Side) bool {
		if len(sides[s]) >= 2 {
			return false
		}
		for _, x := range sides[s] {
			if x == side {
				return false
			}
		}
		return true
	}
	place := func(side domain.Side, ok func(domain.Square) bool) domain.Square {
		for {
			s := domain.Square{Col: uint8(1 + rng.IntN(g.Cols)), Row: uint8(1 + rng.IntN(g.Rows))}
			if free(s, side) && (ok == nil || ok(s)) {
				sides[s] = append(sides[s], side)
				return s
			}
		}
	}
	troops := func(r domain.Rank) []domain.Troop {
		var ts []domain.Troop
		for slot := 1; slot <= domain.Slots; slot++ {
			full := domain.SlotCapacity(slot)
			size := r.SlotSize(slot) - rng.IntN(2)
			ts = append(ts, domain.Troop{Creature: fmt.Sprintf("Creature %d/%d", slot, size), Size: domain.Size{Power: size, Toughness: size}, Slot: slot, Full: full, Alive: full * (1 + rng.IntN(10)) / 10})
		}
		return ts
	}
	ranks := []struct {
		r domain.Rank
		n int
	}{{domain.General, 1}, {domain.Admiral, 2}, {domain.Captain, 7}, {domain.Commander, 7}, {domain.LtCommander, 14}, {domain.Lieutenant, 14}}
	for _, side := range []domain.Side{domain.Coalition, domain.Phyrexia} {
		k := 0
		for _, rk := range ranks {
			for j := 0; j < rk.n; j++ {
				k++
				m.Armies = append(m.Armies, domain.Army{Name: fmt.Sprintf("%s %d", side, k), Side: side, Rank: rk.r, At: place(side, nil), Controllers: []string{fmt.Sprintf("player-%s-%d", side, k)}, Troops: troops(rk.r)})
			}
		}
	}
	nearSite := func(s domain.Square) bool {
		for _, st := range m.Sites {
			if domain.Ring(s, st.At) <= 1 {
				return true
			}
		}
		return false
	}
	judge := func(i int) []string {
		if i%2 == 0 {
			return []string{Judge}
		}
		return nil
	}
	mem := &Memory{Territory: map[string]domain.Square{}, AtWar: map[string]domain.Side{}}
	for i, at := range towns {
		name := fmt.Sprintf("Defender %d", i+1)
		sq := at
		if !free(sq, domain.Mercenary) || rng.IntN(3) == 0 {
			sq = place(domain.Mercenary, func(s domain.Square) bool { return domain.Ring(s, at) <= 3 })
		} else {
			sides[sq] = append(sides[sq], domain.Mercenary)
		}
		m.Armies = append(m.Armies, domain.Army{Name: name, Side: domain.Mercenary, Rank: domain.LtCommander, At: sq, Faction: domain.TownDefender, Home: fmt.Sprintf("Town %d", i+1), Controllers: judge(i), Troops: troops(domain.LtCommander)})
	}
	for i := 0; i < 4; i++ {
		name := fmt.Sprintf("Theme %d", i+1)
		var at domain.Square
		if i == 0 {
			at = place(domain.Mercenary, func(s domain.Square) bool { return m.Terrain.At(s) == domain.Ocean })
			mem.Ocean = name
		} else {
			at = place(domain.Mercenary, func(s domain.Square) bool { return m.Terrain.At(s) != domain.Ocean && !nearSite(s) })
		}
		mem.Territory[name] = at
		m.Armies = append(m.Armies, domain.Army{Name: name, Side: domain.Mercenary, Rank: domain.Commander, At: at, Faction: domain.Theme, Controllers: judge(i), Troops: troops(domain.Commander)})
	}
	mem.AtWar["Theme 2"] = domain.Phyrexia
	for i := 0; i < 5; i++ {
		r := domain.Lieutenant
		if i%2 == 1 {
			r = domain.LtCommander
		}
		m.Armies = append(m.Armies, domain.Army{Name: fmt.Sprintf("Raider %d", i+1), Side: domain.Mercenary, Rank: r, At: place(domain.Mercenary, func(s domain.Square) bool { return !nearSite(s) }), Faction: domain.Raider, Controllers: judge(i), Troops: troops(r)})
	}
	// some theme armies have wandered from their territory
	for i := 1; i < 4; i++ {
		a := m.Army(fmt.Sprintf("Theme %d", i+1))
		if rng.IntN(2) == 0 {
			mem.Territory[a.Name] = domain.Square{Col: uint8(1 + rng.IntN(g.Cols)), Row: uint8(1 + rng.IntN(g.Rows))}
		}
	}
	return m, mem
}
