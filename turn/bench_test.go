package turn_test

import (
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/enginetest"
	"github.com/coalition-wargame/coalition/turn"
)

// campaignTurn is one realistic turn on a map built from cfg: every army ordered, the battles
// fought this turn given results.
func campaignTurn(tb testing.TB, cfg enginetest.Config, seed uint64) (*domain.Map, turn.Input) {
	r := enginetest.Rand(seed)
	m := enginetest.Map(r, cfg)
	o := enginetest.Posts(r, m, opening, 1, enginetest.Style{Realistic: true})
	res := enginetest.Results(r, m)
	for i := range res {
		res[i].LoserTo = domain.Square{} // random pushes: a judge's square may meet a friend (B8)
	}
	in := turn.Input{Seed: domain.ScenarioSeed(int64(seed), 0), Posts: o.Posts, Transfers: o.Transfers, Results: res}
	if _, _, err := turn.Run(m, in); err != nil {
		tb.Fatalf("the benchmark's turn does not run: %v", err)
	}
	return m, in
}

// BenchmarkRun measures one lock through turn.Run, parsing and checking included: a full
// campaign on the 38 × 14 map (45 armies a side of ranks 1/2/7/7/14/14, 12 mercenaries, 7
// bases, 5 portals, 3 towns; target under 100 µs), and 600 armies on an 80 × 26 grid (target
// under 1 ms).
func BenchmarkRun(b *testing.B) {
	for _, c := range []struct {
		name string
		cfg  enginetest.Config
	}{
		{"campaign", enginetest.Campaign()},
		{"600-armies", enginetest.Big()},
	} {
		b.Run(c.name, func(b *testing.B) {
			m, in := campaignTurn(b, c.cfg, 1)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, _, err := turn.Run(m, in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestBenchmarkTurnsAreRealistic checks that the benchmarks measure what they claim: every army
// ordered, most orders accepted, mostly moves of 1–3 steps with engages and replaces among them,
// an intercept or two, a transfer, holds, battles fought and made.
func TestBenchmarkTurnsAreRealistic(t *testing.T) {
	for _, c := range []struct {
		name     string
		cfg      enginetest.Config
		armies   int
		squares  int
		minMoves int
	}{
		{"campaign", enginetest.Campaign(), 102, 38 * 14, 60},
		{"600-armies", enginetest.Big(), 600, 80 * 26, 360},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, in := campaignTurn(t, c.cfg, 1)
			if len(m.Armies) != c.armies || m.Grid.Size() != c.squares {
				t.Fatalf("%d armies on %d squares, want %d on %d", len(m.Armies), m.Grid.Size(), c.armies, c.squares)
			}
			_, rep, err := turn.Run(m, in)
			if err != nil {
				t.Fatal(err)
			}
			lines, ordered := 0, map[string]bool{}
			count := map[string]int{}
			for _, p := range in.Posts {
				for _, l := range strings.Split(p.Text, "\n") {
					lines++
					name, rest, _ := strings.Cut(l, ": ")
					ordered[name] = true
					switch {
					case strings.Contains(rest, "Intercept"):
						count["intercept"]++
					case strings.Contains(rest, "Transfer"):
						count["transfer"]++
					case strings.Contains(rest, "engage"):
						count["engage"]++
					case strings.Contains(rest, "replace"):
						count["replace"]++
					case strings.Contains(rest, ">"):
						count["move"]++
					default:
						count["hold"]++
					}
				}
			}
			if len(ordered) != len(m.Armies) {
				t.Errorf("%d of %d armies are ordered", len(ordered), len(m.Armies))
			}
			moves := count["move"] + count["engage"] + count["replace"]
			if moves < c.minMoves || count["engage"] == 0 || count["replace"] == 0 || count["intercept"] == 0 || count["transfer"] == 0 || count["hold"] == 0 {
				t.Errorf("the orders are not a campaign's mix: %v", count)
			}
			if len(rep.Rejected) > lines/10 {
				t.Errorf("%d of %d lines are rejected: %v", len(rep.Rejected), lines, rep.Rejected[0])
			}
			if len(in.Results) == 0 || len(rep.Battles) == 0 || len(rep.Moves) < c.minMoves {
				t.Errorf("%d battles fought, %d made, %d moves", len(in.Results), len(rep.Battles), len(rep.Moves))
			}
			t.Logf("%d lines %v; %d rejected, %d moves (%d partial), %d battles fought, %d made", lines, count, len(rep.Rejected), len(rep.Moves), len(rep.Partial), len(in.Results), len(rep.Battles))
		})
	}
}
