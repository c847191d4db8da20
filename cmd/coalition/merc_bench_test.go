package main

import (
	"slices"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/enginetest"
	"github.com/coalition-wargame/coalition/mercenary"
	"github.com/coalition-wargame/coalition/turn"
)

// demoLock is the demo campaign's first lock: its map, the teams' realistic orders, none for the
// mercenaries, the card catalogue's creature pool, and the AI as mode says.
func demoLock(tb testing.TB, mode mercenary.Mode) (*domain.Map, turn.Input) {
	su, err := demoSetup()
	if err != nil {
		tb.Fatal(err)
	}
	m := su.Map
	m.NoteLeaders()
	m.NoteHomes()
	lock := time.Date(2026, 3, 2, 5, 0, 0, 0, time.UTC)
	o := enginetest.Posts(enginetest.Rand(5), m, lock.Add(-20*time.Hour), 1, enginetest.Style{Realistic: true})
	o.Posts = slices.DeleteFunc(o.Posts, func(p domain.Post) bool { return p.Author == mercenary.Judge })
	cat, err := cards.Load()
	if err != nil {
		tb.Fatal(err)
	}
	in := turn.Input{Seed: domain.ScenarioSeed(1, 0), Posts: o.Posts, Transfers: o.Transfers, Lock: o.Lock, MercenaryAI: mode, Creatures: cat.CreaturePool()}
	if _, _, err := turn.Run(m, in); err != nil {
		tb.Fatal(err)
	}
	return m, in
}

// BenchmarkDemoMercenaryPlan measures the AI's plan for the demo campaign's 7 mercenaries, as
// GET …/mercenary/plan makes it (turn.MercenaryPlan); compare it with BenchmarkDemoLock/off:
// the plan must add at most 10 % to a lock.
func BenchmarkDemoMercenaryPlan(b *testing.B) {
	m, in := demoLock(b, mercenary.ModeOff)
	b.ReportAllocs()
	for b.Loop() {
		if p := turn.MercenaryPlan(m, in.Seed, nil); len(p) != 7 {
			b.Fatalf("%d orders", len(p))
		}
	}
}

// BenchmarkDemoLock measures the demo campaign's first lock with the AI off and on auto (its
// plan, strategies and warnings at the lock): auto/off is what the AI adds to a lock.
func BenchmarkDemoLock(b *testing.B) {
	for _, mode := range []mercenary.Mode{mercenary.ModeOff, mercenary.ModeAuto} {
		b.Run(string(mode), func(b *testing.B) {
			m, in := demoLock(b, mode)
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := turn.Run(m, in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
