package battle

import (
	"fmt"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

func diceSq(t testing.TB, s string) domain.Square {
	t.Helper()
	sq, err := domain.ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return sq
}

func TestScoreB5(t *testing.T) {
	tests := []struct {
		name   string
		hands  [2]Hand
		bonus  [2]int
		pairs  [2]int
		sums   [2]int
		leader int // with the sum deciding a level result
		byPair int // without
	}{
		{"B5 more pairs wins", [2]Hand{{10, 12, 3, 18}, {9, 11, 4, 2}}, [2]int{0, 0}, [2]int{3, 1}, [2]int{43, 26}, 0, 0},
		{"B5 bonus added to every roll", [2]Hand{{10, 12, 3, 18}, {9, 11, 4, 2}}, [2]int{0, 5}, [2]int{1, 3}, [2]int{43, 46}, 1, 1},
		{"B5 a pair tie scores for nobody", [2]Hand{{10, 10, 10, 10}, {10, 10, 10, 11}}, [2]int{0, 0}, [2]int{0, 1}, [2]int{40, 41}, 1, 1},
		{"B5 all pairs tied is level, sums equal", [2]Hand{{5, 6, 7, 8}, {5, 6, 7, 8}}, [2]int{2, 2}, [2]int{0, 0}, [2]int{34, 34}, -1, -1},
		{"B5 2-2 goes to the higher sum", [2]Hand{{20, 19, 1, 1}, {2, 2, 3, 3}}, [2]int{0, 0}, [2]int{2, 2}, [2]int{41, 10}, 0, -1},
		{"B5 2-2 to the other side's sum", [2]Hand{{3, 3, 2, 2}, {1, 1, 20, 19}}, [2]int{1, 0}, [2]int{2, 2}, [2]int{14, 41}, 1, -1},
		{"B5 1-1 with two pair ties is level on pairs", [2]Hand{{4, 9, 9, 1}, {3, 9, 9, 2}}, [2]int{0, 0}, [2]int{1, 1}, [2]int{23, 23}, -1, -1},
		{"B5 a pair won on the bonus", [2]Hand{{10, 1, 1, 1}, {12, 1, 5, 1}}, [2]int{3, 0}, [2]int{3, 1}, [2]int{25, 19}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Score(tt.hands, tt.bonus)
			if got.Pairs != tt.pairs || got.Sums != tt.sums {
				t.Errorf("Score = pairs %v sums %v, want pairs %v sums %v", got.Pairs, got.Sums, tt.pairs, tt.sums)
			}
			if l := got.Leader(true); l != tt.leader {
				t.Errorf("Leader(sum decides) = %d, want %d", l, tt.leader)
			}
			if l := got.Leader(false); l != tt.byPair {
				t.Errorf("Leader(pairs only) = %d, want %d", l, tt.byPair)
			}
		})
	}
}

func TestDiceLabels(t *testing.T) {
	sq := diceSq(t, "5E")
	tests := []struct{ got, want string }{
		{DiceLabel(sq, "Sai Rei", 0, 1), "dice:5E:Sai Rei:1"},
		{DiceLabel(sq, "Sai Rei", 0, 4), "dice:5E:Sai Rei:4"},
		{DiceLabel(sq, "Sai Rei", 2, 3), "dice:5E:Sai Rei:r2:3"},
		{SideKey([]string{"Sai Rei", "Darkhand"}), "Darkhand+Sai Rei"},
		{AttemptLabel("kill", sq, "Darkhand"), "kill-roll:5E:Darkhand"},
		{AttemptLabel("capture", sq, "Darkhand"), "capture-roll:5E:Darkhand"},
		{RiskLabel(sq, "Darkhand"), "risk:5E:Darkhand"},
		{SanctionLabel("Darkhand", 2), "sanction:Darkhand:2"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("label %q, want %q", tt.got, tt.want)
		}
	}
}

// referenceWinner decides a battle from the dice as B5 says, re-deriving every die straight
// from the seed rather than from what RollDice recorded.
func referenceWinner(seed domain.Seed, sq domain.Square, sides [2]DiceSide, rules DiceRules) (int, string, int) {
	hand := func(side, set int) Hand {
		var h Hand
		for i := range 4 {
			h[i] = seed.D20(DiceLabel(sq, sides[side].Key, set, i+1))
		}
		return h
	}
	f0 := sides[0].Stratless || sides[0].RunsAway
	f1 := sides[1].Stratless || sides[1].RunsAway
	switch {
	case f0 && f1:
		return -1, ByForfeit, 1
	case f0:
		if sides[0].Stratless {
			return 1, ByStratless, 1
		}
		return 1, ByRunAway, 1
	case f1:
		if sides[1].Stratless {
			return 0, ByStratless, 1
		}
		return 0, ByRunAway, 1
	}
	for set := 0; set <= rules.FreshRolls; set++ {
		h0, h1 := hand(0, set), hand(1, set)
		p0, p1, s0, s1 := 0, 0, 0, 0
		for i := range 4 {
			a, b := h0[i]+sides[0].Bonus, h1[i]+sides[1].Bonus
			s0, s1 = s0+a, s1+b
			if a > b {
				p0++
			} else if b > a {
				p1++
			}
		}
		how := ByFresh
		if set == 0 {
			how = ByPairs
		}
		if p0 != p1 {
			if p0 > p1 {
				return 0, how, set + 1
			}
			return 1, how, set + 1
		}
		if set == 0 {
			how = BySum
		}
		if rules.SumDecides && s0 != s1 {
			if s0 > s1 {
				return 0, how, set + 1
			}
			return 1, how, set + 1
		}
	}
	return -1, ByLevel, rules.FreshRolls + 1
}

func TestRollDiceMatchesB5(t *testing.T) {
	sq := diceSq(t, "12H")
	rulesets := []DiceRules{DefaultDiceRules, {SumDecides: false, FreshRolls: 3}, {SumDecides: true, FreshRolls: 0}, {SumDecides: false, FreshRolls: 0}}
	sideSets := [][2]DiceSide{
		{{Key: "Sai Rei"}, {Key: "Darkhand"}},
		{{Key: "Sai Rei", Bonus: 3}, {Key: "Darkhand", Bonus: 1}},
		{{Key: "A+B", Bonus: 11}, {Key: "C"}},
		{{Key: "Sai Rei", Stratless: true}, {Key: "Darkhand", Bonus: 10}},
		{{Key: "Sai Rei", Bonus: 10}, {Key: "Darkhand", RunsAway: true}},
		{{Key: "Sai Rei", Stratless: true}, {Key: "Darkhand", Stratless: true}},
	}
	seen := map[string]int{}
	for r, rules := range rulesets {
		for s, sides := range sideSets {
			for i := range 400 {
				seed := domain.ScenarioSeed(int64(i), r*10+s)
				rec := NewRecorder(seed.Draws())
				got := RollDice(rec, sq, sides, rules)
				w, how, sets := referenceWinner(seed, sq, sides, rules)
				if got.Winner != w || got.DecidedBy != how || len(got.Sets) != sets {
					t.Fatalf("rules %+v sides %+v seed %s: winner %d by %s in %d sets, want %d by %s in %d sets", rules, sides, seed, got.Winner, got.DecidedBy, len(got.Sets), w, how, sets)
				}
				if len(rec.Rolls) != 8*sets {
					t.Fatalf("recorded %d rolls for %d sets, want %d", len(rec.Rolls), sets, 8*sets)
				}
				seen[how]++
			}
		}
	}
	// the seeds above must have exercised every way a battle is decided
	for _, how := range []string{ByPairs, BySum, ByFresh, ByStratless, ByRunAway, ByForfeit, ByLevel} {
		if seen[how] == 0 {
			t.Errorf("no battle was decided by %q: the test does not cover it", how)
		}
	}
}

// A level first set (2-2, equal sums) goes to a fresh set rolled with "r1" labels (B5).
func TestRollDiceFreshSetAfterLevel(t *testing.T) {
	sq := diceSq(t, "3D")
	sides := [2]DiceSide{{Key: "X"}, {Key: "Y"}}
	for i := range 20000 {
		seed := domain.ScenarioSeed(int64(i), 99)
		rec := NewRecorder(seed.Draws())
		d := RollDice(rec, sq, sides, DefaultDiceRules)
		if len(d.Sets) < 2 {
			continue
		}
		first := d.Sets[0]
		if first.Pairs[0] != first.Pairs[1] || first.Sums[0] != first.Sums[1] {
			t.Fatalf("seed %s: a fresh set was rolled after a first set of pairs %v sums %v", seed, first.Pairs, first.Sums)
		}
		if d.DecidedBy != ByFresh || d.Winner < 0 {
			t.Fatalf("seed %s: decided by %q, winner %d", seed, d.DecidedBy, d.Winner)
		}
		if rec.Rolls[8].Label != "dice:3D:X:r1:1" || rec.Rolls[12].Label != "dice:3D:Y:r1:1" {
			t.Fatalf("fresh set labels %q, %q", rec.Rolls[8].Label, rec.Rolls[12].Label)
		}
		if got := seed.D20("dice:3D:X:r1:1"); d.Sets[1].Hands[0][0] != got {
			t.Fatalf("fresh die %d, the seed gives %d", d.Sets[1].Hands[0][0], got)
		}
		return
	}
	t.Fatal("no level first set in 20000 seeds")
}

// Dice do not depend on the bonuses: changing a bonus never re-rolls a die (B6).
func TestRollDiceIndependentOfBonus(t *testing.T) {
	sq := diceSq(t, "3D")
	seed := domain.ScenarioSeed(7, 0)
	a := RollDice(NewRecorder(seed.Draws()), sq, [2]DiceSide{{Key: "X"}, {Key: "Y"}}, DefaultDiceRules)
	b := RollDice(NewRecorder(seed.Draws()), sq, [2]DiceSide{{Key: "X", Bonus: 7}, {Key: "Y", Stratless: true}}, DefaultDiceRules)
	if a.Sets[0].Hands != b.Sets[0].Hands {
		t.Fatalf("first set %v, then %v with other bonuses", a.Sets[0].Hands, b.Sets[0].Hands)
	}
}

func TestRecorderRolls(t *testing.T) {
	seed := domain.ScenarioSeed(1, 1)
	rec := NewRecorder(seed.Draws())
	for i := range 200 {
		faces := 1 + i%25
		label := fmt.Sprintf("test:%d", i)
		v := rec.Roll(label, faces)
		if v < 1 || v > faces {
			t.Fatalf("d%d rolled %d", faces, v)
		}
		if want := seed.Intn(label, faces) + 1; v != want {
			t.Fatalf("%s: %d, Seed.Intn gives %d", label, v, want)
		}
		r := rec.Rolls[i]
		if r.Faces() != faces || r.Value != v || r.Label != label {
			t.Fatalf("recorded %+v for d%d = %d", r, faces, v)
		}
	}
}

func BenchmarkRollDice(b *testing.B) {
	sq := domain.Square{Col: 12, Row: 8}
	sides := [2]DiceSide{{Key: "Sai Rei", Bonus: 4}, {Key: "Darkhand", Bonus: 3}}
	d := domain.ScenarioSeed(1, 0).Draws()
	b.ReportAllocs()
	for b.Loop() {
		RollDice(NewRecorder(d), sq, sides, DefaultDiceRules)
	}
}
