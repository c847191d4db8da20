package domain

import (
	"strings"
	"testing"
)

// TestIntnOnceIsIntn checks that IntnOnce draws what Intn draws, for labels short and long
// enough to spill the stack buffer and for every kind of n.
func TestIntnOnceIsIntn(t *testing.T) {
	for s := range 20 {
		seed := ScenarioSeed(int64(s), s%3)
		for _, label := range []string{"", "raider-spawn", "raider-spawn-rank", "theme-at-war:" + strings.Repeat("é", 40), strings.Repeat("x", 200)} {
			// a quarter of the draws of 1<<62 + 1 and 3<<61 + 1 are drawn again (k = 1 …)
			for _, n := range []int{-1, 0, 1, 2, 3, 7, 20, 1 << 40, 1<<62 + 1, 3<<61 + 1, 1<<63 - 1} {
				if got, want := seed.IntnOnce(label, n), seed.Intn(label, n); got != want {
					t.Fatalf("seed %d, %q, n %d: IntnOnce %d, Intn %d", s, label, n, got, want)
				}
			}
		}
	}
}
