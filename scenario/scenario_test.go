package scenario_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/scenario"
)

// scenarioFiles lists every scenario under testdata/scenarios.
func scenarioFiles(t testing.TB) []string {
	var files []string
	err := filepath.WalkDir("../testdata/scenarios", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".json") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no scenarios found under testdata/scenarios")
	}
	return files
}

// TestScenarios runs every scenario in testdata through the lock pipeline and checks each
// turn's expect block, as ../shared/tools/check-scenarios does with the binary.
func TestScenarios(t *testing.T) {
	for _, path := range scenarioFiles(t) {
		name := strings.TrimPrefix(path, "../testdata/scenarios/")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := scenario.Parse(data)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			res, err := sc.Run()
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			for i, tin := range sc.Turns {
				diffs, err := scenario.Compare(i, tin.Expect, res.Turns[i])
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
