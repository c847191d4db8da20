package mercenary_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/mercenary"
)

// BenchmarkSpawnTroops measures a spawned raider's troops drawn from a pool the size of the
// card catalogue's (about 14,000 creatures), sorted by name as the server keeps it, and unsorted.
func BenchmarkSpawnTroops(b *testing.B) {
	var pool []domain.Troop
	for i := range 14000 {
		s := 1 + i%9
		pool = append(pool, domain.Troop{Creature: fmt.Sprintf("Creature %05d", (i*7919)%14000), Size: domain.Size{Power: s, Toughness: 1 + (i/9)%9}, Colors: []domain.Color{domain.Red}})
	}
	sorted := slices.Clone(pool)
	slices.SortStableFunc(sorted, func(a, b domain.Troop) int { return strings.Compare(a.Creature, b.Creature) })
	seed := domain.ScenarioSeed(1, 0)
	for _, c := range []struct {
		name string
		pool []domain.Troop
	}{{"sorted", sorted}, {"unsorted", pool}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if t := mercenary.SpawnTroops(domain.LtCommander, c.pool, seed); len(t) != 4 {
					b.Fatalf("%d troops", len(t))
				}
			}
		})
	}
}
