package battle

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

// turnRolls plays the dice of a turn: both battles of proposeMap with kill attempts, and a
// sanction.
func turnRolls(t *testing.T, seed domain.Seed) []Roll {
	t.Helper()
	m := proposeMap()
	j := Judgement{Strategies: []Strategy{{Army: "Sai Rei", Kill: "Darkhand"}, {Army: "Darkhand"}, {Army: "Gerrard", Capture: "Crovax"}, {Army: "Tahngarth"}, {Army: "Crovax", Kill: "Gerrard"}}}
	var rolls []Roll
	for _, b := range m.Battles {
		p, err := Propose(m, b, only(j, b), Config{}, seed.Draws())
		if err != nil {
			t.Fatal(err)
		}
		rolls = append(rolls, p.Rolls...)
	}
	s, err := Sanction("Darkhand", 1, 2, seed.Draws())
	if err != nil {
		t.Fatal(err)
	}
	return append(rolls, s.Roll)
}

// B6: from the revealed seed anyone re-derives every die of the turn; a changed seed or a
// changed roll is caught.
func TestVerifyTurnDice(t *testing.T) {
	seed := domain.ScenarioSeed(2026, 3)
	commitment := seed.Commitment()
	rolls := turnRolls(t, seed)
	if len(rolls) < 17 {
		t.Fatalf("only %d rolls", len(rolls))
	}
	if ms := Verify(commitment, seed, rolls); len(ms) != 0 {
		t.Fatalf("an honest turn has mismatches: %v", ms)
	}
	// an outsider's re-derivation, from the documented construction alone
	for _, r := range rolls {
		if got := seed.Intn(r.Label, r.Faces()) + 1; got != r.Value {
			t.Fatalf("%s: published %d, Seed.Intn gives %d", r.Label, r.Value, got)
		}
	}

	t.Run("changed seed", func(t *testing.T) {
		other := seed
		other[31] ^= 1
		ms := Verify(commitment, other, rolls)
		if len(ms) == 0 || ms[0].Index != 0 || !strings.Contains(ms[0].String(), "commitment") {
			t.Fatalf("mismatches %v: want the commitment first", ms)
		}
		if len(ms) < 2 {
			t.Errorf("no roll differs under another seed: %v", ms)
		}
		// a seed that matches a forged commitment still fails on the dice
		if ms := Verify(other.Commitment(), other, rolls); len(ms) == 0 || ms[0].Index == 0 {
			t.Errorf("a forged commitment and seed: %v", ms)
		}
	})
	t.Run("changed roll", func(t *testing.T) {
		for i := range rolls {
			bad := append([]Roll(nil), rolls...)
			bad[i].Value = bad[i].Value%bad[i].Faces() + 1
			ms := Verify(commitment, seed, bad)
			if len(ms) != 1 || ms[0].Index != i+1 || ms[0].Label != rolls[i].Label {
				t.Fatalf("roll %d changed: mismatches %v", i+1, ms)
			}
			if !strings.Contains(ms[0].String(), rolls[i].Label) {
				t.Errorf("mismatch %q does not name the roll", ms[0])
			}
		}
	})
	t.Run("changed label", func(t *testing.T) {
		caught := 0
		for i := range rolls {
			bad := append([]Roll(nil), rolls...)
			bad[i].Label += "x"
			ms := Verify(commitment, seed, bad)
			if want := bad[i].Derive(seed.Draws()) != bad[i].Value; want != (len(ms) == 1) || len(ms) > 1 {
				t.Fatalf("roll %d relabelled %q: mismatches %v", i+1, bad[i].Label, ms)
			}
			caught += len(ms)
		}
		// a relabelled d20 keeps its value by chance one time in 20
		if caught < len(rolls)/2 {
			t.Errorf("only %d of %d relabelled rolls caught", caught, len(rolls))
		}
	})
	t.Run("wrong commitment", func(t *testing.T) {
		ms := Verify(strings.Repeat("0", 64), seed, rolls)
		if len(ms) != 1 || ms[0].Index != 0 {
			t.Fatalf("mismatches %v", ms)
		}
	})
	t.Run("commitment in upper case", func(t *testing.T) {
		if ms := Verify(strings.ToUpper(commitment), seed, rolls); len(ms) != 0 {
			t.Fatalf("mismatches %v", ms)
		}
	})
}

func TestParsePublication(t *testing.T) {
	seed := domain.ScenarioSeed(5, 5)
	good := `{"commitment": "` + seed.Commitment() + `", "seed": "` + seed.String() + `", "rolls": [{"label": "dice:5E:Sai Rei:1", "value": 7}, {"label": "route:Sai Rei", "die": 3, "value": 2}], "turn": 4}`
	p, err := ParsePublication([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rolls) != 2 || p.Rolls[0].Faces() != 20 || p.Rolls[1].Faces() != 3 {
		t.Fatalf("parsed %+v", p)
	}
	ms, err := p.Check()
	if err != nil {
		t.Fatal(err)
	}
	// the values above are made up: each is right or reported
	for _, r := range p.Rolls {
		bad := r.Derive(seed.Draws()) != r.Value
		reported := false
		for _, m := range ms {
			reported = reported || m.Label == r.Label
		}
		if bad != reported {
			t.Errorf("%s: wrong %v, reported %v", r.Label, bad, reported)
		}
	}

	tests := []struct{ name, text, want string }{
		{"not JSON", `commitment: x`, "not valid JSON"},
		{"no seed", `{"commitment": "` + seed.Commitment() + `", "rolls": []}`, "no seed"},
		{"no commitment", `{"seed": "` + seed.String() + `"}`, "no commitment"},
		{"short seed", `{"commitment": "ab", "seed": "abcd"}`, "not 64 hex digits"},
		{"roll without label", `{"commitment": "ab", "seed": "` + seed.String() + `", "rolls": [{"value": 3}]}`, "roll 1 of the publication has no label"},
		{"negative die", `{"commitment": "ab", "seed": "` + seed.String() + `", "rolls": [{"label": "x", "die": -2, "value": 3}]}`, "-2 faces"},
		{"trailing text", `{"commitment": "ab", "seed": "` + seed.String() + `"} {}`, "text after"},
		{"value as text", `{"commitment": "ab", "seed": "` + seed.String() + `", "rolls": [{"label": "x", "value": "7"}]}`, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParsePublication([]byte(tt.text))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

func FuzzParsePublication(f *testing.F) {
	seed := domain.ScenarioSeed(1, 1)
	rolls, _ := json.Marshal([]Roll{{Label: "dice:5E:A:1", Value: seed.D20("dice:5E:A:1")}, {Label: "route:A", Die: 3, Value: 1}})
	f.Add(`{"commitment": "` + seed.Commitment() + `", "seed": "` + seed.String() + `", "rolls": ` + string(rolls) + `}`)
	f.Add(`{"commitment": "", "seed": ""}`)
	f.Add(`{"rolls": [{"label": "x", "die": 1, "value": 1}]}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParsePublication([]byte(text))
		if err != nil {
			return
		}
		ms, err := p.Check()
		if err != nil {
			t.Fatalf("a parsed publication does not check: %v", err)
		}
		if len(ms) > len(p.Rolls)+1 {
			t.Fatalf("%d mismatches for %d rolls", len(ms), len(p.Rolls))
		}
	})
}
