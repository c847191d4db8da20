package scenario_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/coalition-wargame/coalition/scenario"
)

// TestCompareCatchesWrongExpectations proves the scenario test can fail: a wrong position, a
// missing battle, a wrong rejection code and a wrong day count are each reported.
func TestCompareCatchesWrongExpectations(t *testing.T) {
	res := run(t, "../testdata/scenarios/public/attack.json")
	for _, bad := range []string{
		`{"positions": {"Sai Rei": "3F"}}`,
		`{"battles": []}`,
		`{"battles": [{"armies": ["Darkhand5", "Sai Rei"], "kind": "meeting"}]}`,
		`{"rejected": [{"army": "Sai Rei", "code": "missing_engage"}]}`,
		`{"days": {"Sai Rei": 3}}`,
		`{"partial": ["Sai Rei"]}`,
		`{"winner": "coalition"}`,
		`{"destroyed_sites": ["Red Base"]}`,
		`{"positions": {"Sai Rei": null}}`,
		`{"positions": {"Sai Rei": ["4F", "6F"]}}`,
	} {
		diffs, err := scenario.Compare(0, json.RawMessage(bad), res.Turns[0])
		if err != nil {
			t.Fatal(err)
		}
		if len(diffs) == 0 {
			t.Errorf("expectation %s passed, but the result contradicts it", bad)
		}
	}
}

// run adjudicates the scenario file at path.
func run(t *testing.T, path string) *scenario.Outcome {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sc.Run()
	if err != nil {
		t.Fatal(err)
	}
	return res
}
