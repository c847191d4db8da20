package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/domain"
)

func verifyDiceDoc(t *testing.T, seed domain.Seed, commitment string, change int) []byte {
	t.Helper()
	d := seed.Draws()
	var rolls []battle.Roll
	for _, l := range []string{"dice:5E:Darkhand:1", "dice:5E:Darkhand:2", "dice:5E:Sai Rei:1", "risk:5E:Sai Rei"} {
		rolls = append(rolls, battle.Roll{Label: l, Value: d.Intn(l, 20) + 1})
	}
	rolls = append(rolls, battle.Roll{Label: "route:Sai Rei", Die: 3, Value: d.Intn("route:Sai Rei", 3) + 1})
	if change >= 0 {
		rolls[change].Value = rolls[change].Value%rolls[change].Faces() + 1
	}
	data, err := json.Marshal(battle.Publication{Commitment: commitment, Seed: seed.String(), Rolls: rolls})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestVerifyDiceCommand(t *testing.T) {
	seed := domain.ScenarioSeed(9, 1)
	other := domain.ScenarioSeed(9, 2)
	tests := []struct {
		name    string
		doc     []byte
		ok      bool
		printed []string
		err     string
	}{
		{"honest", verifyDiceDoc(t, seed, seed.Commitment(), -1), true, []string{"OK", "all 5 rolls"}, ""},
		{"changed roll", verifyDiceDoc(t, seed, seed.Commitment(), 2), false, []string{"roll 3, dice:5E:Sai Rei:1: published"}, "1 mismatch"},
		{"changed die of a route", verifyDiceDoc(t, seed, seed.Commitment(), 4), false, []string{"route:Sai Rei", "on a d3"}, "1 mismatch"},
		{"seed does not match the commitment", verifyDiceDoc(t, seed, other.Commitment(), -1), false, []string{"commitment: published " + other.Commitment()}, "1 mismatch"},
		{"not JSON", []byte("seed=1"), false, nil, "standard input: the publication is not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			err := verifyDiceCommand(nil, bytes.NewReader(tt.doc), &out)
			if tt.ok != (err == nil) {
				t.Fatalf("error %v, output %q", err, out.String())
			}
			if err != nil && !strings.Contains(err.Error(), tt.err) {
				t.Errorf("error %q, want one saying %q", err, tt.err)
			}
			for _, p := range tt.printed {
				if !strings.Contains(out.String(), p) {
					t.Errorf("output %q does not say %q", out.String(), p)
				}
			}
		})
	}
}

func TestVerifyDiceCommandFile(t *testing.T) {
	seed := domain.ScenarioSeed(9, 1)
	path := filepath.Join(t.TempDir(), "turn.json")
	if err := os.WriteFile(path, verifyDiceDoc(t, seed, seed.Commitment(), -1), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := verifyDiceCommand([]string{path}, strings.NewReader("not read"), &out); err != nil || !strings.HasPrefix(out.String(), "OK") {
		t.Fatalf("error %v, output %q", err, out.String())
	}
	if err := verifyDiceCommand([]string{"-"}, bytes.NewReader(verifyDiceDoc(t, seed, seed.Commitment(), 0)), &out); err == nil {
		t.Fatal("a changed roll read from - passes")
	}
	if err := verifyDiceCommand([]string{filepath.Join(t.TempDir(), "missing.json")}, nil, &out); err == nil {
		t.Fatal("a missing file passes")
	}
	if err := verifyDiceCommand([]string{"a", "b"}, nil, &out); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Fatalf("two files: %v", err)
	}
}
