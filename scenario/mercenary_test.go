package scenario_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/scenario"
)

// TestChapterSixScenarios: every guideline and ability of chapter 6 has a scenario under
// testdata/scenarios/mercenary named by its clause, which cites it.
func TestChapterSixScenarios(t *testing.T) {
	headers := readHeaders(t, "../testdata/scenarios/mercenary")
	for _, clause := range []string{"6.1.1", "6.1.2", "6.2.1", "6.2.2", "6.2.3", "6.3.1", "6.3.2"} {
		n := 0
		for name, h := range headers {
			if strings.HasPrefix(name, clause+"-") && strings.Contains(strings.Join(h.Rules, " "), clause) {
				n++
			}
		}
		if n == 0 {
			t.Errorf("no scenario named %s-… cites %s", clause, clause)
		}
	}
	for _, ability := range []string{"6.3.2-spawned", "6.3.2-disband", "6.3.2-hellbent", "6.3.2-after-lock-edit", "6.2.1-ocean-moves-on", "6.2.1-ocean-rarely"} {
		found := false
		for name := range headers {
			found = found || strings.HasPrefix(name, ability)
		}
		if !found {
			t.Errorf("no scenario %s…", ability)
		}
	}
}

// TestCompareCatchesWrongMercenaryExpectations proves the mercenary expectations can fail.
func TestCompareCatchesWrongMercenaryExpectations(t *testing.T) {
	for file, bad := range map[string][]string{
		"6.3.1-raider-engages-the-weakest-army.json": {
			`{"mercenary_orders": {"Raider One": "Raider One: no move"}}`,
			`{"mercenary_orders": {"Raider One": {"guideline": "6.1.1"}}}`,
			`{"mercenary_orders": {"Raider One": null}}`,
			`{"mercenary_warnings": [{"army": "Raider One", "code": "raider_near_site"}]}`,
			`{"after_lock_edit": {"carried_out": true}}`,
		},
		"6.1.1-tdf-leaving-its-town-is-warned.json": {`{"mercenary_warnings": []}`},
		"6.3.2-spawned-raider-is-placed.json":       {`{"spawn": {"at": "1A"}}`, `{"spawn": {"spawned": false}}`},
		"6.3.2-disband-removes-the-raider.json":     {`{"disbanded": []}`},
		"6-ai-writes-mercenary-strategies.json":     {`{"mercenary_strategies": {"Raider One": ""}}`, `{"mercenary_strategies": {"Sai Rei": ""}}`},
		"6.3.2-after-lock-edit-engages.json":        {`{"after_lock_edit": {"carried_out": false}}`},
	} {
		res := run(t, "../testdata/scenarios/mercenary/"+file)
		for _, b := range bad {
			diffs, err := scenario.Compare(0, json.RawMessage(b), res.Turns[0])
			if err != nil {
				t.Fatal(err)
			}
			if len(diffs) == 0 {
				t.Errorf("%s: expectation %s passed, but the result contradicts it", file, b)
			}
		}
	}
}
