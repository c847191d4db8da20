package refengine_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/enginetest"
	"github.com/coalition-wargame/coalition/internal/refengine"
	"github.com/coalition-wargame/coalition/scenario"
	"github.com/coalition-wargame/coalition/turn"
)

var (
	minimizeSeed    = flag.Int64("diff.minimize", -1, "shrink this seed's first disagreement to one turn and write it as min-seed-N.json into -diff.dump")
	minimizeCrowded = flag.Bool("diff.minimize.crowded", false, "with -diff.minimize: the seed is one of TestDifferentialCrowded's")
)

// TestMinimize shrinks a disagreeing seed of TestDifferential to a small one-turn case: from
// the map the turn opened on, it drops posts, then lines, then battle results, then armies,
// as long as the engines still disagree, and writes what is left as a scenario. The scenario
// replays the turn with the seed of a first turn, so routes drawn at random may differ, and a
// map's long moves, wounds, captures and battle kinds are not part of the format: check that
// the file still shows the disagreement (coalition adjudicate) before building on it.
func TestMinimize(t *testing.T) {
	if *minimizeSeed < 0 {
		t.Skip("run with -diff.minimize=SEED -diff.dump=DIR")
	}
	seed := uint64(*minimizeSeed)
	r := enginetest.Rand(seed)
	var cfg enginetest.Config
	var style enginetest.Style
	if *minimizeCrowded {
		cfg, style = enginetest.Crowded(r), enginetest.Style{Crowded: true}
	} else {
		cfg, style = enginetest.Small(r), enginetest.Style{Realistic: seed%7 == 3}
	}
	m := enginetest.Map(r, cfg)
	var in turn.Input
	for k := 0; ; k++ {
		if k == *diffTurns {
			t.Fatalf("seed %d: the engines agree on %d turns", seed, k)
		}
		o := enginetest.Posts(r, m, opening.Add(time.Duration(k)*72*time.Hour), int64(k*1000+1), style)
		in = turn.Input{Seed: domain.ScenarioSeed(int64(seed), k), Posts: o.Posts, Lock: o.Lock, Transfers: o.Transfers, Results: enginetest.Results(r, m)}
		if differs(m, in) {
			break
		}
		next, _, err := turn.Run(m, in)
		if err != nil {
			t.Fatal(err)
		}
		m = next
	}
	shrink := func(try func() (*domain.Map, turn.Input, bool)) bool {
		m2, in2, ok := try()
		if ok && m2.Validate() == nil && differs(m2, in2) {
			m, in = m2, in2
			return true
		}
		return false
	}
	for i := 0; i < len(in.Posts); {
		if !shrink(func() (*domain.Map, turn.Input, bool) {
			in2 := in
			in2.Posts = slices.Delete(slices.Clone(in.Posts), i, i+1)
			return m, in2, true
		}) {
			i++
		}
	}
	for pi := range in.Posts {
		for i := 0; ; {
			lines := strings.Split(in.Posts[pi].Text, "\n")
			if i >= len(lines) || len(lines) == 1 {
				break
			}
			if !shrink(func() (*domain.Map, turn.Input, bool) {
				in2 := in
				in2.Posts = slices.Clone(in.Posts)
				in2.Posts[pi].Text = strings.Join(slices.Delete(lines, i, i+1), "\n")
				return m, in2, true
			}) {
				i++
			}
		}
	}
	for i := 0; i < len(in.Results); {
		if !shrink(func() (*domain.Map, turn.Input, bool) {
			in2 := in
			in2.Results = slices.Delete(slices.Clone(in.Results), i, i+1)
			return m, in2, true
		}) {
			i++
		}
	}
	for i := 0; i < len(m.Armies); {
		if !shrink(func() (*domain.Map, turn.Input, bool) {
			m2 := m.Clone()
			name := m2.Armies[i].Name
			m2.Armies = slices.Delete(m2.Armies, i, i+1)
			m2.Battles = slices.DeleteFunc(m2.Battles, func(b domain.Battle) bool { return slices.Contains(b.Armies, name) })
			in2 := in
			squares, _ := enginetest.Fought(m2)
			in2.Results = slices.DeleteFunc(slices.Clone(in.Results), func(r domain.BattleResult) bool {
				return domain.SameName(r.Winner, name) || r.Losses[name] != nil || !slices.Contains(squares, r.Square)
			})
			return m2, in2, true
		}) {
			i++
		}
	}
	in.Transfers = slices.DeleteFunc(slices.Clone(in.Transfers), func(d domain.TransferDetail) bool {
		return !slices.ContainsFunc(in.Posts, func(p domain.Post) bool { return p.ID == d.Post })
	})
	_, rep, _, _ := runProject(m, in)
	_, res, _ := refengine.Run(m, refengine.Input{Seed: in.Seed, Posts: in.Posts, Lock: in.Lock, Transfers: in.Transfers, Results: in.Results})
	if rep != nil && res != nil {
		t.Logf("seed %d, %d armies left:\n\t%s", seed, len(m.Armies), strings.Join(compare(rep, res), "\n\t"))
	}
	for _, a := range m.Armies {
		if a.Plan != nil || a.Capture != nil || len(a.Incoming) > 0 {
			t.Logf("%s also has plan %+v, capture %+v, incoming %+v (not in the scenario format)", a.Name, a.Plan, a.Capture, a.Incoming)
		}
	}
	if *diffDump == "" {
		return
	}
	data, err := enginetest.ScenarioJSON(fmt.Sprintf("min-seed-%d", seed), int64(seed), m, []enginetest.Turn{{Orders: enginetest.Orders{Posts: in.Posts, Transfers: in.Transfers, Lock: in.Lock}, Results: in.Results}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*diffDump, fmt.Sprintf("min-seed-%d.json", seed)), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// differs reports whether the engines disagree on one turn from map m (or the project's does
// not finish it).
func differs(m *domain.Map, in turn.Input) bool {
	next, rep, perr, done := runProject(m, in)
	if !done {
		return true
	}
	_, res, rerr := refengine.Run(m, refengine.Input{Seed: in.Seed, Posts: in.Posts, Lock: in.Lock, Transfers: in.Transfers, Results: in.Results})
	if (perr != nil) != (rerr != nil) {
		return true
	}
	return perr == nil && (len(compare(rep, res)) > 0 || jointMade(m, next.Battles) > 1 || jointMade(m, res.Battles) > 1)
}

var compareFile = flag.String("diff.file", "", "play this scenario file through both engines and list where they disagree")

// TestCompareFile plays a scenario file (-diff.file=PATH) through the project's lock pipeline
// and the reference, turn by turn from the same map, and lists every difference in the
// scenario format's fields: a quick way to try a hand-written case on both engines.
func TestCompareFile(t *testing.T) {
	if *compareFile == "" {
		t.Skip("run with -diff.file=PATH")
	}
	data, err := os.ReadFile(*compareFile)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	m := sc.Map
	for i, tin := range sc.Turns {
		in := turn.Input{Seed: domain.ScenarioSeed(sc.File.Seed, i), Posts: tin.Posts, Lock: tin.Lock, Transfers: tin.Transfers, Results: tin.Results}
		next, rep, perr, done := runProject(m, in)
		if !done {
			t.Fatalf("turn %d: the project's engine does not finish", i+1)
		}
		_, res, rerr := refengine.Run(m, refengine.Input{Seed: in.Seed, Posts: in.Posts, Lock: in.Lock, Transfers: in.Transfers, Results: in.Results})
		if perr != nil || rerr != nil {
			t.Fatalf("turn %d: project error %v, reference error %v", i+1, perr, rerr)
		}
		for _, d := range compare(rep, res) {
			t.Errorf("turn %d: %s", i+1, d)
		}
		m = next
	}
}
