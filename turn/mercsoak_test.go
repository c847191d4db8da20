package turn_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/enginetest"
	"github.com/coalition-wargame/coalition/mercenary"
	"github.com/coalition-wargame/coalition/movement"
	"github.com/coalition-wargame/coalition/turn"
)

// demoLike is a map like the demo campaign's (cmd/coalition/demo.go): the 38 × 14 grid with a
// sea along each edge, the demo's 7 bases, 5 portals and 3 towns, 45 armies a side of ranks
// 1/2/7/7/14/14 (enginetest, with a few battles), and the demo's 7 mercenaries on or near
// their squares — 3 town defenders in their towns, 2 theme armies, 2 raiders — plus an ocean
// theme army on the western sea.
func demoLike(seed uint64) *domain.Map {
	r := enginetest.Rand(seed)
	cfg := enginetest.Campaign()
	cfg.Mercenaries, cfg.Towns = 0, 0
	m := enginetest.Map(r, cfg)
	m.Terrain = domain.TerrainMap{Default: domain.Plains, Squares: map[domain.Square]domain.Terrain{}}
	for row := 1; row <= m.Grid.Rows; row++ {
		for _, col := range []int{1, 2, 37, 38} {
			m.Terrain.Squares[domain.Square{Col: uint8(col), Row: uint8(row)}] = domain.Ocean
		}
	}
	m.Sites = nil
	for i, at := range []string{"5B", "4H", "8M", "11E", "6K", "12J", "9C"} {
		m.Sites = append(m.Sites, domain.Site{Name: fmt.Sprintf("Base %d", i+1), Kind: domain.Base, Side: domain.Coalition, Color: domain.MagicColors[i%5], At: square(at), WinCondition: i < 5})
	}
	for i, at := range []string{"32C", "34H", "30M", "27F", "35L"} {
		m.Sites = append(m.Sites, domain.Site{Name: fmt.Sprintf("Portal %d", i+1), Kind: domain.Portal, Side: domain.Phyrexia, At: square(at), WinCondition: true})
	}
	towns := []string{"20C", "21L", "16G"}
	for i, at := range towns {
		m.Sites = append(m.Sites, domain.Site{Name: fmt.Sprintf("Town %d", i+1), Kind: domain.Town, Side: domain.Neutral, At: square(at)})
	}
	taken := map[domain.Square]bool{}
	for i := range m.Armies {
		taken[m.Armies[i].At] = true
	}
	place := func(near string) domain.Square {
		c := square(near)
		for ring := 0; ring < 8; ring++ {
			sq := []domain.Square{c}
			if ring > 0 {
				sq = m.Grid.RingSquares(nil, c, ring)
			}
			for _, s := range sq {
				if !taken[s] {
					taken[s] = true
					return s
				}
			}
		}
		panic("no room near " + near)
	}
	troops := func(rk domain.Rank) []domain.Troop {
		var out []domain.Troop
		for slot := 1; slot <= domain.Slots; slot++ {
			n, size := domain.SlotCapacity(slot), rk.SlotSize(slot)
			out = append(out, domain.Troop{Creature: fmt.Sprintf("Mercenary %d/%d", size, size), Size: domain.Size{Power: size, Toughness: size}, Slot: slot, Alive: n * (6 + r.IntN(5)) / 10, Full: n})
		}
		return out
	}
	mercs := []domain.Army{
		{Name: "Jamuraan Militia", Rank: domain.Commander, At: place(towns[0]), Faction: domain.TownDefender, Home: "Town 1"},
		{Name: "Zhalfirin Guard", Rank: domain.Commander, At: place(towns[1]), Faction: domain.TownDefender, Home: "Town 2"},
		{Name: "Hollow Keepers", Rank: domain.LtCommander, At: place(towns[2]), Faction: domain.TownDefender, Home: "Town 3"},
		{Name: "Mercadian Legion", Rank: domain.Captain, At: place("22G"), Faction: domain.Theme},
		{Name: "Kor Skyfishers", Rank: domain.Commander, At: place("14M"), Faction: domain.Theme},
		{Name: "Keldon Raiders", Rank: domain.LtCommander, At: place("24J"), Faction: domain.Raider},
		{Name: "Goblin Marauders", Rank: domain.Lieutenant, At: place("19A"), Faction: domain.Raider},
		{Name: "Leviathan", Rank: domain.Commander, At: place("1G"), Faction: domain.Theme, Ocean: true},
	}
	for i := range mercs {
		mercs[i].Side = domain.Mercenary
		mercs[i].Troops = troops(mercs[i].Rank)
	}
	m.Armies = append(m.Armies, mercs...)
	m.Battles = battle.Fought(m)
	if err := m.Validate(); err != nil {
		panic(err)
	}
	return m
}

// soakPool is the creature pool of the soak's spawned raiders: creatures of every size 1–6.
func soakPool() []domain.Troop {
	var out []domain.Troop
	for s := 1; s <= 6; s++ {
		for _, n := range []string{"Goblin", "Ogre", "Wurm"} {
			out = append(out, domain.Troop{Creature: fmt.Sprintf("%s %d/%d", n, s, s), Size: domain.Size{Power: s, Toughness: s}, Colors: []domain.Color{domain.Red}})
		}
	}
	return out
}

// soakResults settles the battles fought this turn as a battle judge would with the server's
// proposals: each mercenary with the AI's strategy, each team army with a strategy most of
// the time (a stratless one now and then). It reports the battles where a mercenary went
// stratless, which must never happen.
func soakResults(r *rand.Rand, m *domain.Map, seed domain.Seed, ai []mercenary.Strategy) ([]domain.BattleResult, []string, error) {
	var out []domain.BattleResult
	var stratless []string
	for _, b := range battle.Fought(m) {
		j := battle.Judgement{}
		for _, n := range b.Armies {
			a := m.Army(n)
			if a.Side == domain.Mercenary {
				if i := slices.IndexFunc(ai, func(s mercenary.Strategy) bool { return s.Army == n && s.Square == b.Square }); i >= 0 {
					j.Strategies = append(j.Strategies, battle.Strategy{Army: n, Kill: ai[i].Kill})
				}
				continue
			}
			if r.IntN(5) > 0 {
				j.Strategies = append(j.Strategies, battle.Strategy{Army: n})
			}
		}
		p, err := battle.Propose(m, b, j, battle.Config{}, seed.Draws())
		if err != nil {
			return nil, nil, fmt.Errorf("the battle at %s: %w", b.Square, err)
		}
		for _, sd := range p.Sides {
			if sd.Side == domain.Mercenary && sd.Stratless {
				stratless = append(stratless, b.String())
			}
		}
		res := p.Result
		res.LoserTo = domain.Square{}
		out = append(out, res)
	}
	return out, stratless, nil
}

// TestMercenaryAISoak plays a demo-like map for 20 turns with the mercenary AI on auto and no
// orders from anyone for the mercenaries (the teams post realistic orders), and checks after
// every lock that every order the AI made obeys its chapter-6 guideline (mercenary.Check finds
// nothing, and the movement checker accepts it), that every mercenary nobody ordered got one,
// and that no mercenary battle went stratless (B2).
func TestMercenaryAISoak(t *testing.T) {
	turns := 20
	seeds := []uint64{1, 2, 3}
	if testing.Short() {
		seeds = seeds[:1]
	}
	counts := map[string]int{}
	for _, s := range seeds {
		m := demoLike(s)
		r := enginetest.Rand(s + 100)
		var history []mercenary.Engagement
		lock := time.Date(2026, 3, 2, 5, 0, 0, 0, time.UTC)
		for n := range turns {
			seed := domain.ScenarioSeed(int64(s), n)
			o := enginetest.Posts(r, m, lock.Add(-20*time.Hour), int64(1000*n+1), enginetest.Style{Realistic: true})
			o.Posts = slices.DeleteFunc(o.Posts, func(p domain.Post) bool { return p.Author == mercenary.Judge })
			strategies := turn.MercenaryStrategies(m, history)
			results, stratless, err := soakResults(r, m, seed, strategies)
			if err != nil {
				t.Fatalf("seed %d, turn %d: %v", s, n+1, err)
			}
			for _, b := range stratless {
				t.Errorf("seed %d, turn %d: the mercenary in %s went stratless", s, n+1, b)
			}
			in := turn.Input{Seed: seed, Posts: o.Posts, Transfers: o.Transfers, Lock: o.Lock, Results: results,
				MercenaryAI: mercenary.ModeAuto, Creatures: soakPool(), MercenaryHistory: history}
			next, rep, err := turn.Run(m, in)
			if err != nil {
				t.Fatalf("seed %d, turn %d: %v", s, n+1, err)
			}
			for _, p := range soakProblems(m, rep, history, strategies) {
				t.Errorf("seed %d, turn %d: %s", s, n+1, p)
			}
			ai := rep.MercenaryAI
			counts["orders"] += len(ai.Orders)
			counts["strategies"] += len(ai.Strategies)
			counts["engagements"] += len(ai.Engagements)
			counts["disbanded"] += len(rep.Mercenary.Disbanded)
			if rep.Mercenary.Spawn.Army != "" {
				counts["spawned"]++
			}
			for _, sg := range ai.Orders {
				if sg.Order.Keyword == domain.Engage {
					counts["attacks "+sg.Guideline]++
				}
			}
			history = append(history, turn.History(rep)...)
			m, lock = next, lock.Add(48*time.Hour)
			if m.Winner != "" {
				break
			}
		}
	}
	t.Logf("%v", counts)
	for _, k := range []string{"orders", "strategies", "engagements", "spawned", "attacks 6.3.1", "attacks 6.1.1"} {
		if counts[k] == 0 {
			t.Errorf("no %s in %d turns: the soak proves little (%v)", k, turns*len(seeds), counts)
		}
	}
}

// soakProblems checks one lock of the soak: every AI order obeys its guideline on the map the
// turn opened on and was accepted, every mercenary the judge orders that had no order and no
// battle got one, and every mercenary in a battle fought this turn had the AI's strategy.
func soakProblems(m *domain.Map, rep *turn.Report, history []mercenary.Engagement, strategies []mercenary.Strategy) []string {
	out := turn.CheckAI(m, rep, history)
	ai := rep.MercenaryAI
	var lines []string
	for _, sg := range ai.Orders {
		lines = append(lines, sg.Line)
	}
	if len(lines) > 0 {
		// the lock carries the AI's orders out unchecked: the movement checker must accept each
		for _, l := range movement.CheckPost(m, domain.Post{ID: turn.AIPost, Author: mercenary.Judge, Text: strings.Join(lines, "\n")}, movement.Options{}) {
			switch {
			case l.Rejection != nil:
				out = append(out, fmt.Sprintf("the movement checker rejects the AI's order %q: %s %s", l.Text, l.Rejection.Code, l.Rejection.Message))
			case len(l.Warnings) > 0:
				out = append(out, fmt.Sprintf("the movement checker warns of the AI's order %q: %s", l.Text, l.Warnings[0].Message))
			case !reflect.DeepEqual(l.Order, ai.Orders[l.Number-1].Order):
				out = append(out, fmt.Sprintf("the AI's order %q reads back as %+v, not %+v", l.Text, l.Order, ai.Orders[l.Number-1].Order))
			}
		}
	}
	fought := battle.Fought(m)
	for i := range m.Armies {
		a := &m.Armies[i]
		if a.Side != domain.Mercenary || len(a.Controllers) > 0 {
			continue
		}
		inBattle := slices.ContainsFunc(fought, func(b domain.Battle) bool { return slices.Contains(b.Armies, a.Name) })
		ordered := slices.ContainsFunc(ai.Orders, func(s mercenary.Suggestion) bool { return s.Army == a.Name })
		hasStrategy := slices.ContainsFunc(strategies, func(s mercenary.Strategy) bool { return s.Army == a.Name })
		switch {
		case inBattle && !hasStrategy:
			out = append(out, a.Name+" fights with no strategy")
		case !inBattle && a.Plan == nil && !ordered:
			out = append(out, a.Name+" got no order")
		}
	}
	if names(ai.Strategies) != names(strategies) {
		out = append(out, fmt.Sprintf("the lock's strategies %v are not the workflow's %v", names(ai.Strategies), names(strategies)))
	}
	return out
}

func names(st []mercenary.Strategy) string {
	var out []string
	for _, s := range st {
		out = append(out, s.Army+"@"+s.Square.String()+">"+s.Kill)
	}
	return strings.Join(out, ",")
}
