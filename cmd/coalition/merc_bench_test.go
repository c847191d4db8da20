package main

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/enginetest"
	"github.com/coalition-wargame/coalition/mercenary"
	"github.com/coalition-wargame/coalition/store"
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
	pool := cat.CreaturePool() // sorted by name, as the server keeps it
	slices.SortStableFunc(pool, func(a, b domain.Troop) int { return strings.Compare(a.Creature, b.Creature) })
	in := turn.Input{Seed: domain.ScenarioSeed(1, 0), Posts: o.Posts, Transfers: o.Transfers, Lock: o.Lock, MercenaryAI: mode, Creatures: pool}
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
	c := cpuTime()
	for b.Loop() {
		if p := turn.MercenaryPlan(m, in.Seed, nil); len(p) != 7 {
			b.Fatalf("%d orders", len(p))
		}
	}
	b.ReportMetric(float64((cpuTime()-c).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkDemoLock measures the demo campaign's first lock with the AI off and on auto (its
// plan, strategies and warnings at the lock): auto/off is what the AI adds to a lock.
func BenchmarkDemoLock(b *testing.B) {
	for _, mode := range []mercenary.Mode{mercenary.ModeOff, mercenary.ModeAuto} {
		b.Run(string(mode), func(b *testing.B) {
			m, in := demoLock(b, mode)
			b.ReportAllocs()
			c := cpuTime()
			for b.Loop() {
				if _, _, err := turn.Run(m, in); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-c).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// demoDesk is the server's workflow on a SQLite file with the demo campaign created anew for
// each lock: the demo's mercenary_ai as mode says, no after-lock edit window (the lock
// publishes at once), the teams' realistic orders posted.
type demoDesk struct {
	db     *store.DB
	opt    campaign.Options
	svc    *campaign.Service
	judge  campaign.Actor
	merc   campaign.Actor
	mode   mercenary.Mode
	orders []domain.Post
	// accounts are the demo's, made with the first campaign
	accounts map[string]*campaign.Account
}

func newDemoDesk(b *testing.B, mode mercenary.Mode) *demoDesk {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(b.TempDir(), "bench.db"), slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	cat, err := cards.Load()
	if err != nil {
		b.Fatal(err)
	}
	clock := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	// seeds from one fixed stream: the locks of both modes roll the same dice, spawns included
	seeds := rand.NewChaCha8([32]byte{13})
	opt := campaign.Options{Clock: func() time.Time { return clock }, PasswordCost: 4, Cards: cat, Rand: seeds, Log: slog.New(slog.DiscardHandler)}
	d := &demoDesk{db: db, opt: opt, svc: campaign.NewService(db, opt), mode: mode}
	m, _ := demoLock(b, mode)
	d.orders = enginetest.Posts(enginetest.Rand(5), m, clock, 1, enginetest.Style{Realistic: true}).Posts
	d.create(b)
	return d
}

// create makes a new demo campaign, with the teams' orders posted, and returns its id.
func (d *demoDesk) create(b *testing.B) int64 {
	ctx := context.Background()
	su, err := demoSetup()
	if err != nil {
		b.Fatal(err)
	}
	su.Mercenary = &campaign.MercenarySettings{Mode: d.mode}
	out, err := d.svc.CreateCampaign(ctx, campaign.Operator("bench"), su)
	if err != nil {
		b.Fatal(err)
	}
	if d.accounts == nil {
		d.accounts = map[string]*campaign.Account{}
		for _, a := range out.Accounts {
			d.accounts[a.Account.Name] = a.Account
		}
		d.judge, d.merc = campaign.Actor{Account: d.accounts["Barrin"]}, campaign.Actor{Account: d.accounts["Maraxus"]}
	}
	id := out.Campaign.ID
	for _, p := range d.orders {
		acc := d.accounts[p.Author]
		if acc == nil {
			continue
		}
		if _, err := d.svc.Post(ctx, campaign.Actor{Account: acc}, id, campaign.PostRequest{Text: p.Text}); err != nil {
			b.Fatal(err)
		}
	}
	return id
}

// BenchmarkDemoWorkflow measures, on the server's workflow and a SQLite file, the mercenary
// AI's plan for the demo's mercenaries (GET …/mercenary/plan: made anew for a map version
// (plan-cold: the map, the history and the plan), or as kept for it (plan)) and the demo's first lock with the AI off and on auto (a fresh campaign each time,
// made with the timer stopped). plan/lock-off is what the plan costs beside a lock; lock-auto
// against lock-off what the AI adds to it. cpu-ns/op is the process's CPU time per operation,
// which the load of other processes does not inflate as it does the wall time: compare that.
func BenchmarkDemoWorkflow(b *testing.B) {
	ctx := context.Background()
	b.Run("plan-cold", func(b *testing.B) {
		d := newDemoDesk(b, mercenary.ModeAuto)
		b.ReportAllocs()
		var cpu time.Duration
		for b.Loop() {
			b.StopTimer()
			svc := campaign.NewService(d.db, d.opt) // a plan not made yet for this map version
			b.StartTimer()
			c := cpuTime()
			if p, err := svc.MercenaryPlan(ctx, d.merc, 1, 1); err != nil || len(p.Orders) != 7 {
				b.Fatalf("%v %v", p, err)
			}
			cpu += cpuTime() - c
		}
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	})
	b.Run("plan", func(b *testing.B) {
		d := newDemoDesk(b, mercenary.ModeAuto)
		b.ReportAllocs()
		var cpu time.Duration
		for b.Loop() {
			c := cpuTime()
			if p, err := d.svc.MercenaryPlan(ctx, d.merc, 1, 1); err != nil || len(p.Orders) != 7 {
				b.Fatalf("%v %v", p, err)
			}
			cpu += cpuTime() - c
		}
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	})
	for _, mode := range []mercenary.Mode{mercenary.ModeOff, mercenary.ModeAuto} {
		b.Run("lock-"+string(mode), func(b *testing.B) {
			d := newDemoDesk(b, mode)
			// a first lock makes what a process makes once: the card catalogue's creature pool
			if _, err := d.svc.Lock(ctx, d.judge, 1, 1, "warm-up"); err != nil {
				b.Fatal(err)
			}
			id := d.create(b)
			b.ReportAllocs()
			var cpu time.Duration
			for b.Loop() {
				c := cpuTime()
				if _, err := d.svc.Lock(ctx, d.judge, id, 1, "bench"); err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - c
				b.StopTimer()
				id = d.create(b)
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}
