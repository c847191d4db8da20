package turn_test

import (
	"slices"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/enginetest"
	"github.com/coalition-wargame/coalition/mercenary"
	"github.com/coalition-wargame/coalition/turn"
)

// demoTurn is one turn of the demo-like map: the teams' realistic orders, none for the
// mercenaries, and the battles fought this turn settled as the soak settles them.
func demoTurn(tb testing.TB, mode mercenary.Mode) (*domain.Map, turn.Input) {
	m := demoLike(1)
	r := enginetest.Rand(7)
	lock := time.Date(2026, 3, 2, 5, 0, 0, 0, time.UTC)
	o := enginetest.Posts(r, m, lock.Add(-20*time.Hour), 1, enginetest.Style{Realistic: true})
	o.Posts = slices.DeleteFunc(o.Posts, func(p domain.Post) bool { return p.Author == mercenary.Judge })
	seed := domain.ScenarioSeed(1, 0)
	res, _, err := soakResults(r, m, seed, turn.MercenaryStrategies(m, nil))
	if err != nil {
		tb.Fatal(err)
	}
	in := turn.Input{Seed: seed, Posts: o.Posts, Transfers: o.Transfers, Lock: o.Lock, Results: res, MercenaryAI: mode, Creatures: soakPool()}
	if _, _, err := turn.Run(m, in); err != nil {
		tb.Fatal(err)
	}
	return m, in
}

// BenchmarkMercenaryPlan measures the AI's plan for the demo-like map's 8 mercenaries
// (MercenaryPlan, as the plan endpoint makes it); compare it with BenchmarkMercenaryLock/off,
// a lock of the same map (the plan must add at most 10 % to a lock).
func BenchmarkMercenaryPlan(b *testing.B) {
	m, in := demoTurn(b, mercenary.ModeOff)
	b.ReportAllocs()
	for b.Loop() {
		if p := turn.MercenaryPlan(m, in.Seed, nil); len(p) != 8 {
			b.Fatalf("%d orders", len(p))
		}
	}
}

// BenchmarkMercenaryLock measures a lock of the demo-like map with no orders for the
// mercenaries, the AI off and on auto (its plan, strategies and warnings at the lock).
func BenchmarkMercenaryLock(b *testing.B) {
	for _, mode := range []mercenary.Mode{mercenary.ModeOff, mercenary.ModeAuto} {
		b.Run(string(mode), func(b *testing.B) {
			m, in := demoTurn(b, mode)
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := turn.Run(m, in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
