package refengine_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/refengine"
	"github.com/coalition-wargame/coalition/mercenary"
	"github.com/coalition-wargame/coalition/scenario"
	"github.com/coalition-wargame/coalition/turn"
)

// report dresses a reference result as a lock report, so that scenario.Compare (the shared
// check-scenarios comparison) can judge it.
func report(r *refengine.Result) *turn.Report {
	rep := &turn.Report{
		Positions:      turn.KeyedOf(r.Positions),
		Partial:        r.Partial,
		Days:           turn.KeyedOf(r.Days),
		Alive:          alive(r.Alive),
		DestroyedSites: r.DestroyedSites,
		Removed:        r.Removed,
		ChangedSides:   r.ChangedSides,
		Battles:        []turn.Battle{},
		Rejected:       []domain.Rejection{},
		Mercenary:      &mercenary.Report{Disbanded: r.Disbanded},
	}
	for _, b := range r.Battles {
		tb := turn.Battle{Square: b.Square, Armies: b.Armies, Kind: b.Kind}
		if b.Attacker != "" {
			a := b.Attacker
			tb.Attacker = &a
		}
		rep.Battles = append(rep.Battles, tb)
	}
	for _, x := range r.Rejected {
		rep.Rejected = append(rep.Rejected, domain.Rejection{Army: x.Army, Post: x.Post, Line: x.Line, Code: x.Code})
	}
	if r.Winner != "" {
		w := r.Winner
		rep.Winner = &w
	}
	return rep
}

// runScenario plays a scenario through the reference engine and returns each turn's result.
func runScenario(sc *scenario.Scenario) ([]*refengine.Result, error) {
	m := sc.Map
	var out []*refengine.Result
	for i, t := range sc.Turns {
		next, res, err := refengine.Run(m, refengine.Input{Seed: domain.ScenarioSeed(sc.File.Seed, i), Posts: t.Posts, Lock: t.Lock, Transfers: t.Transfers, Results: t.Results})
		if err != nil {
			return out, err
		}
		out = append(out, res)
		m = next
	}
	return out, nil
}

// TestScenarios plays every rule scenario of the project (testdata/scenarios, and the shared
// public ones) through the reference engine and checks each expect block as check-scenarios
// does: the reference must agree with every expectation the project has written down, and
// with the pending ones it proposes (testdata/scenarios/pending/*.json.pending).
func TestScenarios(t *testing.T) {
	var files []string
	for _, root := range []string{"../../testdata/scenarios", "/work/shared/scenarios"} {
		filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".json") || strings.HasSuffix(path, ".json.pending")) {
				files = append(files, path)
			}
			return nil
		})
	}
	if len(files) == 0 {
		t.Fatal("no scenarios found")
	}
	for _, path := range files {
		t.Run(strings.TrimPrefix(path, "../../testdata/scenarios/"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := scenario.Parse(data)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if playsTheAI(sc) {
				t.Skip("the mercenary AI plays the mercenaries here: it is a player, not a rule, and the reference engine adjudicates orders only")
			}
			res, err := runScenario(sc)
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			for i, tin := range sc.Turns {
				diffs, err := scenario.Compare(i, withoutSpawn(t, tin.Expect), report(res[i]))
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range diffs {
					t.Error(d)
				}
			}
		})
	}
}

// playsTheAI reports whether a scenario asks for the mercenary AI (chapter 6) or an after-lock
// edit (6.3.2), which the reference engine does not implement.
func playsTheAI(sc *scenario.Scenario) bool {
	if sc.Mercenary.Mode.On() {
		return true
	}
	for _, t := range sc.Turns {
		if t.Edit != nil {
			return true
		}
	}
	return false
}

// alive is the reference's troops alive in the report's form.
func alive(m map[string]map[string]int) turn.Keyed[turn.Keyed[int]] {
	out := map[string]turn.Keyed[int]{}
	for army, troops := range m {
		out[army] = turn.KeyedOf(troops)
	}
	return turn.KeyedOf(out)
}

// withoutSpawn drops a turn's expected raider spawn: the roll for a new raider (6.3.2) is the
// mercenary judge's, made after the update, and the reference engine adjudicates orders only.
func withoutSpawn(t *testing.T, expect json.RawMessage) json.RawMessage {
	t.Helper()
	if len(expect) == 0 {
		return expect
	}
	var exp map[string]json.RawMessage
	if err := json.Unmarshal(expect, &exp); err != nil {
		t.Fatal(err)
	}
	if _, ok := exp["spawn"]; !ok {
		return expect
	}
	delete(exp, "spawn")
	out, err := json.Marshal(exp)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
