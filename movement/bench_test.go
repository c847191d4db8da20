package movement_test

import (
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/enginetest"
	"github.com/coalition-wargame/coalition/movement"
)

var benchOpening = time.Date(2026, 3, 1, 5, 0, 0, 0, time.UTC)

// benchMaps are the turns the benchmarks measure: a full campaign on the 38 × 14 map and 600
// armies on an 80 × 26 grid, every army ordered (see turn.BenchmarkRun).
var benchMaps = []struct {
	name string
	cfg  enginetest.Config
}{
	{"campaign", enginetest.Campaign()},
	{"600-armies", enginetest.Big()},
}

func benchTurn(cfg enginetest.Config) (*domain.Map, enginetest.Orders) {
	r := enginetest.Rand(1)
	m := enginetest.Map(r, cfg)
	return m, enginetest.Posts(r, m, benchOpening, 1, enginetest.Style{Realistic: true})
}

// BenchmarkParseLine measures reading one line of a campaign's posts (3.2.2.5): the lines of
// the campaign turn in turn, so ns/op is the mean cost of a line.
func BenchmarkParseLine(b *testing.B) {
	_, o := benchTurn(enginetest.Campaign())
	var lines []string
	for _, p := range o.Posts {
		lines = append(lines, strings.Split(p.Text, "\n")...)
	}
	lines = append(lines, "Sai Rei: 5E > 8E (5E - 6E - 7E - 8E) > 11E > 14E > 14H; Joint Engage Darkhand5")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := movement.ParseLine(lines[i%len(lines)]); err != nil {
			b.Fatalf("%q: %s", lines[i%len(lines)], err.Message)
		}
		i++
	}
}

// BenchmarkCheck measures reading and checking every post of a turn against the map (M1–M5,
// M13, M14, T1, T2, C2) and marking superseded orders, without resolving them.
func BenchmarkCheck(b *testing.B) {
	for _, c := range benchMaps {
		b.Run(c.name, func(b *testing.B) {
			m, o := benchTurn(c.cfg)
			opt := movement.Options{Lock: benchOpening.Add(72 * time.Hour), Transfers: o.Transfers}
			b.ReportAllocs()
			for b.Loop() {
				movement.Check(m, o.Posts, opt)
			}
		})
	}
}

// BenchmarkResolve measures resolving the checked orders of a turn at once (M6–M15). Resolve
// moves the armies on the map it is given, so every run needs a fresh copy: the copies are
// made in batches with the timer stopped, so that stopping the timer (which reads the memory
// statistics) happens once a batch, not once a run.
func BenchmarkResolve(b *testing.B) {
	for _, c := range benchMaps {
		b.Run(c.name, func(b *testing.B) {
			m, o := benchTurn(c.cfg)
			orders := movement.Check(m, o.Posts, movement.Options{Transfers: o.Transfers})
			seed := domain.ScenarioSeed(1, 0)
			batch := make([]*domain.Map, 32)
			b.ReportAllocs()
			b.ResetTimer()
			for done := 0; done < b.N; {
				b.StopTimer()
				n := min(len(batch), b.N-done)
				for i := range n {
					batch[i] = m.Clone()
				}
				b.StartTimer()
				for _, fresh := range batch[:n] {
					movement.Resolve(fresh, orders, seed)
				}
				done += n
			}
		})
	}
}
