package round_test

import (
	"testing"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/round"
)

// BenchmarkGenerate makes a whole round (45 armies a side and the mercenaries) from a seed.
func BenchmarkGenerate(b *testing.B) {
	_, pool := catalogue(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := round.Generate(round.SeedOf(int64(i)), domain.DefaultGrid, round.Options{Pool: pool}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheck runs every check of 2.5 and chapter 6 on a generated round, each troop list
// through the troop checker: what a judge's view of a round costs.
func BenchmarkCheck(b *testing.B) {
	cat, _ := catalogue(b)
	r, players := generated(b, 1)
	b.ReportAllocs()
	for b.Loop() {
		if ps := round.Check(r, players, cat); len(ps) > 0 {
			b.Fatal(ps[0])
		}
	}
}
