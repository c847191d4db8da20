// What a correction changes (3.3.3): for each turn adjudicated again, the armies whose square,
// days or troops differ in the map its lock left, the battles it made, and its lines' outcomes.

package campaign

import (
	"fmt"
	"maps"
	"slices"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/turn"
)

// TurnChange is what a correction changed in one turn's lock.
type TurnChange struct {
	Turn int `json:"turn"`
	// Same is set when the lock gives exactly what it gave before.
	Same bool `json:"same"`
	// Armies are the armies whose state after the lock differs; Before or After is nil for an
	// army that was not, or is no longer, on the map.
	Armies []ArmyDiff `json:"armies"`
	// Battles are the battles the lock made, before and after, where they differ.
	Battles *Difference `json:"battles,omitempty"`
	// Lines are the lines whose outcome differs: "accepted" or a refusal's code.
	Lines []LineChange `json:"lines"`
	// Results say what became of later turns' results (R77).
	Results []string `json:"results,omitempty"`
}

// ArmyDiff is an army's state after a lock, before and after a correction.
type ArmyDiff struct {
	Army   string     `json:"army"`
	Before *ArmyState `json:"before"`
	After  *ArmyState `json:"after"`
}

// ArmyState is what a correction may change of an army: its square, days and troops alive.
type ArmyState struct {
	At    domain.Square `json:"at"`
	Side  domain.Side   `json:"side"`
	Days  int           `json:"days"`
	Alive int           `json:"alive"`
}

// Difference is a list before and after.
type Difference struct {
	Before []string `json:"before"`
	After  []string `json:"after"`
}

// LineChange is one line's outcome before and after a correction.
type LineChange struct {
	Post   int64  `json:"post"`
	Line   int    `json:"line"`
	Army   string `json:"army"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// diffTurn is what changed at turn k's lock: the maps it left, before and after, and its reports.
func diffTurn(k int, before, after *domain.Map, old, rep *turn.Report) TurnChange {
	tc := TurnChange{Turn: k, Armies: []ArmyDiff{}, Lines: []LineChange{}}
	states := func(m *domain.Map) map[string]ArmyState {
		out := map[string]ArmyState{}
		for i := range m.Armies {
			a := &m.Armies[i]
			out[a.Name] = ArmyState{At: a.At, Side: a.Side, Days: a.Days, Alive: a.Alive()}
		}
		return out
	}
	was, is := states(before), states(after)
	names := slices.Sorted(maps.Keys(was))
	for n := range is {
		if _, ok := was[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		b, okB := was[n]
		a, okA := is[n]
		if okB && okA && a == b {
			continue
		}
		ch := ArmyDiff{Army: n}
		if okB {
			ch.Before = &b
		}
		if okA {
			ch.After = &a
		}
		tc.Armies = append(tc.Armies, ch)
	}
	battles := func(m *domain.Map) []string {
		var out []string
		for _, b := range m.Battles {
			out = append(out, fmt.Sprintf("%s: %s", b.Square, joinArmies(b.Armies)))
		}
		return out
	}
	if bb, ba := battles(before), battles(after); !slices.Equal(bb, ba) {
		tc.Battles = &Difference{Before: nonNil(bb), After: nonNil(ba)}
	}
	outcome := func(r *turn.Report) map[[2]int64]domain.Rejection {
		out := map[[2]int64]domain.Rejection{}
		for _, rj := range r.Rejected {
			out[[2]int64{rj.Post, int64(rj.Line)}] = rj
		}
		return out
	}
	ob, oa := outcome(old), outcome(rep)
	keys := slices.Collect(maps.Keys(ob))
	for key := range oa {
		if _, ok := ob[key]; !ok {
			keys = append(keys, key)
		}
	}
	slices.SortFunc(keys, func(x, y [2]int64) int {
		if x[0] != y[0] {
			return int(x[0] - y[0])
		}
		return int(x[1] - y[1])
	})
	for _, key := range keys {
		b, okB := ob[key]
		a, okA := oa[key]
		if okB && okA && a.Code == b.Code {
			continue
		}
		lc := LineChange{Post: key[0], Line: int(key[1]), Before: "accepted", After: "accepted"}
		if okB {
			lc.Before, lc.Army = string(b.Code), b.Army
		}
		if okA {
			lc.After, lc.Army = string(a.Code), a.Army
		}
		tc.Lines = append(tc.Lines, lc)
	}
	tc.Same = len(tc.Armies) == 0 && tc.Battles == nil && len(tc.Lines) == 0
	return tc
}
