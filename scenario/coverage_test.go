package scenario_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

// implementedRulings lists the standing rulings (RULINGS.md) the rule engine carries out when it
// adjudicates orders: every one must be pinned by at least one scenario.
var implementedRulings = expandRulings(map[string]int{"G": 4, "M": 15, "T": 3, "D": 8}, "B8", "M13a", "M13b", "M13c", "M13d", "M13e", "M13f")

// expandRulings names rulings 1..n of each letter, plus any named singly.
func expandRulings(series map[string]int, single ...string) []string {
	var out []string
	for letter, n := range series {
		for i := 1; i <= n; i++ {
			out = append(out, fmt.Sprintf("%s%d", letter, i))
		}
	}
	out = append(out, single...)
	sort.Strings(out)
	return out
}

// citation matches what a scenario's `rules` may hold: a rulebook number (1.7.2, 6) or a
// ruling id of RULINGS.md (G1–G4, M1–M15 with M13a–M13f, T1–T3, B1–B10, D1–D8, C1–C4).
var citation = regexp.MustCompile(`^(\d+(\.\d+)*|G[1-4]|M([1-9]|1[0-5]|13[a-f])|T[1-3]|B([1-9]|10)|D[1-8]|C[1-4]|R[1-9]\d*)$`)

// scenarioHeader is the part of a scenario file the coverage check reads.
type scenarioHeader struct {
	Rules []string `json:"rules"`
	Note  string   `json:"note"`
}

// readHeaders reads the rules and note of every scenario under root; pending scenarios
// (*.json.pending) are not run, so they pin nothing and are left out.
func readHeaders(t *testing.T, root string) map[string]scenarioHeader {
	t.Helper()
	out := map[string]scenarioHeader{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var h scenarioHeader
		if err := json.Unmarshal(data, &h); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		out[strings.TrimPrefix(path, root+"/")] = h
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// uncited returns the rulings of required that no scenario cites.
func uncited(required []string, files map[string]scenarioHeader) []string {
	cited := map[string]bool{}
	for _, h := range files {
		for _, r := range h.Rules {
			cited[strings.TrimSpace(r)] = true
		}
	}
	var missing []string
	for _, r := range required {
		if !cited[r] {
			missing = append(missing, r)
		}
	}
	return missing
}

// headerProblems returns what is wrong with one scenario's rules and note.
func headerProblems(h scenarioHeader) []string {
	var out []string
	if len(h.Rules) == 0 {
		out = append(out, "has no rules")
	}
	if strings.TrimSpace(h.Note) == "" {
		out = append(out, "has no note")
	}
	for _, r := range h.Rules {
		switch {
		case !citation.MatchString(r):
			out = append(out, fmt.Sprintf("cites %q, which is neither a rule number nor a ruling id", r))
		case r[0] == 'R' && !readings()[r]:
			out = append(out, fmt.Sprintf("cites reading %s, which docs/READINGS.md does not list", r))
		}
	}
	return out
}

// readings lists the readings docs/READINGS.md records (R1, R2 …), for scenarios that cite the
// project's own reading of a case no ruling settles.
var readings = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	data, err := os.ReadFile("../docs/READINGS.md")
	if err != nil {
		return out
	}
	for _, m := range regexp.MustCompile(`(?m)^\| (R\d+) \|`).FindAllStringSubmatch(string(data), -1) {
		out[m[1]] = true
	}
	return out
})

// TestCoverageEveryRulingIsPinned fails when a ruling the engine implements is cited by no
// scenario under testdata/scenarios.
func TestCoverageEveryRulingIsPinned(t *testing.T) {
	files := readHeaders(t, "../testdata/scenarios")
	if len(files) == 0 {
		t.Fatal("no scenarios found under testdata/scenarios")
	}
	for _, r := range uncited(implementedRulings, files) {
		t.Errorf("ruling %s is cited by no scenario under testdata/scenarios", r)
	}
}

// TestCoverageEveryScenarioHasRulesAndNote fails when a scenario file has an empty `rules`
// list, no `note`, or cites something that is not a rule or ruling.
func TestCoverageEveryScenarioHasRulesAndNote(t *testing.T) {
	files := readHeaders(t, "../testdata/scenarios")
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, p := range headerProblems(files[name]) {
			t.Errorf("%s %s", name, p)
		}
	}
}

// TestCoverageCheckCanFail proves the two checks above catch what they are about: an uncited
// ruling, a scenario without rules or note, and a misspelt citation.
func TestCoverageCheckCanFail(t *testing.T) {
	files := map[string]scenarioHeader{
		"a.json": {Rules: []string{"3.3.1", "M7"}, Note: "friends"},
		"b.json": {Rules: []string{"G1"}, Note: "grid"},
	}
	if got := uncited([]string{"G1", "M7", "M8"}, files); !slices.Equal(got, []string{"M8"}) {
		t.Errorf("uncited = %v, want [M8]", got)
	}
	for _, tc := range []struct {
		name string
		h    scenarioHeader
		want string
	}{
		{"no rules", scenarioHeader{Note: "n"}, "has no rules"},
		{"no note", scenarioHeader{Rules: []string{"M1"}}, "has no note"},
		{"blank note", scenarioHeader{Rules: []string{"M1"}, Note: "  "}, "has no note"},
		{"unknown ruling", scenarioHeader{Rules: []string{"M16"}, Note: "n"}, `cites "M16"`},
		{"unknown sub-ruling", scenarioHeader{Rules: []string{"M13g"}, Note: "n"}, `cites "M13g"`},
		{"lower case", scenarioHeader{Rules: []string{"m7"}, Note: "n"}, `cites "m7"`},
		{"unknown reading", scenarioHeader{Rules: []string{"R999"}, Note: "n"}, "cites reading R999"},
	} {
		got := strings.Join(headerProblems(tc.h), "; ")
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: problems %q, want one containing %q", tc.name, got, tc.want)
		}
	}
	if p := headerProblems(scenarioHeader{Rules: []string{"3.2.4.3.2", "6", "B10", "C2", "R9", "M13f"}, Note: "n"}); len(p) != 0 {
		t.Errorf("a well-formed header drew %v", p)
	}
	if len(implementedRulings) != 4+15+6+3+8+1 {
		t.Errorf("implementedRulings has %d entries, want 37", len(implementedRulings))
	}
}
