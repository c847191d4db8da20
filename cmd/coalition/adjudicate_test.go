package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the current output of coalition adjudicate")

const (
	publicScenarios = "../../testdata/scenarios/public"
	goldenDir       = "../../testdata/golden"
)

func noEnv(string) string { return "" }

// adjudicateFile runs `coalition adjudicate path` through run, as the binary would.
func adjudicateFile(path string) (string, string, error) {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"coalition", "adjudicate", path}, noEnv, strings.NewReader(""), &stdout, &stderr)
	return stdout.String(), stderr.String(), err
}

// TestAdjudicateGolden compares the output of `coalition adjudicate` for every public scenario,
// byte for byte, with testdata/golden/NAME.json. After a deliberate change of the output, run
// `go test ./cmd/coalition -run TestAdjudicateGolden -update` and review the diff.
func TestAdjudicateGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(publicScenarios, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no public scenarios in %s (%v)", publicScenarios, err)
	}
	if *update {
		if err := os.MkdirAll(goldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	for _, path := range files {
		name := filepath.Base(path)
		names = append(names, name)
		t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
			out, _, err := adjudicateFile(path)
			if err != nil {
				t.Fatalf("coalition adjudicate %s: %v", name, err)
			}
			golden := filepath.Join(goldenDir, name)
			if *update {
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if out != string(want) {
				t.Errorf("coalition adjudicate %s differs from %s (run with -update if the change is meant):\n%s", name, golden, lineDiff(string(want), out))
			}
		})
	}
	if *update {
		return
	}
	stored, err := filepath.Glob(filepath.Join(goldenDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range stored {
		if !slices.Contains(names, filepath.Base(g)) {
			t.Errorf("%s has no public scenario: delete it or run with -update", g)
		}
	}
}

// lineDiff shows the first line where want and got differ, with a little context.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n\twant " + a + "\n\tgot  " + b
		}
	}
	return "(no line differs)"
}

// TestAdjudicateGoldenCatchesChanges proves the golden comparison can fail: a golden file with
// one army moved no longer matches the output.
func TestAdjudicateGoldenCatchesChanges(t *testing.T) {
	out, _, err := adjudicateFile(filepath.Join(publicScenarios, "attack.json"))
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(out, `"Sai Rei": "5F"`, `"Sai Rei": "3F"`, 1)
	if changed == out {
		t.Fatal("attack.json's output does not put Sai Rei on 5F; pick another change")
	}
	if d := lineDiff(changed, out); !strings.Contains(d, "Sai Rei") {
		t.Errorf("the diff does not show the changed line: %s", d)
	}
}

// TestAdjudicateInvalidScenario checks that a scenario the rules cannot settle makes run
// return an error that names the file and the problem (scenario-format.md), and prints
// nothing on standard output.
func TestAdjudicateInvalidScenario(t *testing.T) {
	const armies = `"armies": [
		{"name": "Sai Rei", "side": "coalition", "rank": "lieutenant", "at": "3D", "controllers": ["Gazetzot"]},
		{"name": "Darkhand5", "side": "phyrexia", "rank": "centurion", "at": "3D", "controllers": ["Vorath"]}]`
	cases := []struct {
		name, scenario string
		want           []string
	}{
		{"bad JSON", `{"name": "broken", "armies": [`, []string{"not valid JSON"}},
		{"not an object", `[1, 2, 3]`, []string{"does not fit the scenario format", "must be an object, not an array"}},
		{"unknown winner", `{"name": "x", "seed": 1, ` + armies + `, "turns": [{"posts": [],
			"results": [{"square": "3D", "winner": "Ghost"}]}]}`, []string{"Ghost", "not an army", "turn 1"}},
		{"losses of an unknown army", `{"name": "x", "seed": 1, ` + armies + `, "turns": [{"posts": [],
			"results": [{"square": "3D", "winner": "Sai Rei", "losses": {"Ghost": {"Rats": 5}}}]}]}`, []string{"Ghost", "unknown army"}},
		{"winner not in the battle", `{"name": "x", "seed": 1, "armies": [
			{"name": "Sai Rei", "side": "coalition", "rank": "lieutenant", "at": "3D"},
			{"name": "Darkhand5", "side": "phyrexia", "rank": "centurion", "at": "3D"},
			{"name": "Birch", "side": "coalition", "rank": "lieutenant", "at": "9D"}], "turns": [{"posts": [],
			"results": [{"square": "3D", "winner": "Birch"}]}]}`, []string{"Birch", "not in that battle", "3D"}},
		{"kill and capture of one army", `{"name": "x", "seed": 1, ` + armies + `, "turns": [{"posts": [],
			"results": [{"square": "3D", "winner": "Sai Rei", "kill": {"by": "Sai Rei", "target": "Darkhand5", "success": true},
			"capture": {"by": "Sai Rei", "target": "Darkhand5", "success": true}}]}]}`, []string{"3D", "kills and captures", "Darkhand5", "4.5"}},
		{"battle with no result", `{"name": "x", "seed": 1, ` + armies + `, "turns": [{"posts": [], "results": []}]}`,
			[]string{"3D", "no result", "Darkhand5", "Sai Rei"}},
		{"result with no battle", `{"name": "x", "seed": 1, ` + armies + `, "turns": [{"posts": [],
			"results": [{"square": "3D", "winner": "Sai Rei"}, {"square": "9J", "winner": "Sai Rei"}]}]}`, []string{"9J", "no battle"}},
		{"army off the map", `{"name": "x", "seed": 1, "armies": [{"name": "Ash", "side": "coalition", "rank": "general", "at": "39A"}], "turns": []}`,
			[]string{"Ash", "off the map"}},
		{"two armies of one name", `{"name": "x", "seed": 1, "armies": [
			{"name": "Ash", "side": "coalition", "rank": "general", "at": "3A"},
			{"name": "ash", "side": "phyrexia", "rank": "general", "at": "5A"}], "turns": []}`, []string{"two armies", "Ash"}},
		{"post id used twice", `{"name": "x", "seed": 1, "armies": [], "turns": [
			{"posts": [{"id": 1, "author": "A", "at": "2026-03-01T12:00:00Z", "text": "no move"}]},
			{"posts": [{"id": 1, "author": "A", "at": "2026-03-02T12:00:00Z", "text": "no move"}]}]}`, []string{"post id 1"}},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
			if err := os.WriteFile(path, []byte(c.scenario), 0o644); err != nil {
				t.Fatal(err)
			}
			out, _, err := adjudicateFile(path)
			if err == nil {
				t.Fatalf("run accepted the scenario and printed %.200s", out)
			}
			for _, w := range append(c.want, filepath.Base(path)) {
				if !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(w)) {
					t.Errorf("the error %q does not mention %q", err, w)
				}
			}
			if out != "" {
				t.Errorf("run printed %.200s before failing", out)
			}
		})
	}
	t.Run("missing file", func(t *testing.T) {
		if _, _, err := adjudicateFile(filepath.Join(dir, "nowhere.json")); err == nil || !strings.Contains(err.Error(), "nowhere.json") {
			t.Errorf("a missing file gives %v", err)
		}
	})
	t.Run("no file", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), []string{"coalition", "adjudicate"}, noEnv, strings.NewReader(""), &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), "usage") {
			t.Errorf("adjudicate with no file gives %v", err)
		}
	})
}
