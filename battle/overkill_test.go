package battle

import (
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

// TestOverkill pins what rule 4.3.4 changes: "Having more top ranked soldiers left alive than
// your opponent will improve your chances of making a kill. However, only 500 are risked, no
// matter how many are available."
//   - only 500 of a top slot of 1000 are risked: the other 500 fight;
//   - the kill is judged on the top-slot troops left alive after the battle, the risked ones
//     included (they did not fight, but they are alive);
//   - the default kill formula gives 2 more when the attacker has more of them than its target,
//     and nothing more for having many more.
func TestOverkill(t *testing.T) {
	t.Run("only 500 risked", func(t *testing.T) {
		m := proposeMap() // Sai Rei has 1000 alive in its top slot, 4/4 giants
		p, err := Propose(m, oneOnOne(m), Judgement{Strategies: []Strategy{{Army: "Sai Rei", Kill: "Darkhand"}, {Army: "Darkhand"}}}, Config{}, domain.ScenarioSeed(1, 1).Draws())
		if err != nil {
			t.Fatal(err)
		}
		if at := p.Attempts[0]; at.Risked != 500 || at.RiskedLost > 500 {
			t.Errorf("risked %d and lost %d of them; only 500 are risked (4.3.4)", at.Risked, at.RiskedLost)
		}
		if top := sideNamed(p, "Sai Rei").Stats.Top; top != 500 {
			t.Errorf("%d top-slot troops fight; the 500 not risked should (4.3.3, 4.3.4)", top)
		}
	})
	t.Run("top slot left alive, risked included", func(t *testing.T) {
		// a kill formula that is the difference of the top slots the attempt is judged on
		fs, err := CompileFormulas([]Formula{{Name: FormulaKill, Version: 9, Text: "me.top - enemy.top"}})
		if err != nil {
			t.Fatal(err)
		}
		m := proposeMap()
		b := oneOnOne(m)
		rolled := 0
		for i := range 40 {
			p, err := Propose(m, b, Judgement{Strategies: []Strategy{{Army: "Sai Rei", Kill: "Darkhand"}, {Army: "Darkhand"}}}, Config{Formulas: fs}, domain.ScenarioSeed(int64(i), 3).Draws())
			if err != nil {
				t.Fatal(err)
			}
			at := p.Attempts[0]
			if !at.Rolled {
				continue // Sai Rei lost: no kill roll
			}
			rolled++
			mine := 1000 - p.Result.Losses["Sai Rei"]["Sai Rei Giants"]
			theirs := 1000 - p.Result.Losses["Darkhand"]["Darkhand Giants"]
			if want := float64(mine - theirs); at.Value != want {
				t.Fatalf("seed %d: the kill was judged on top slots %v apart; want %d − %d = %v, the risked 500 counted among those left alive (4.3.4)", i, at.Value, mine, theirs, want)
			}
		}
		if rolled == 0 {
			t.Fatal("Sai Rei never won, so no kill was rolled")
		}
	})
	t.Run("default formula", func(t *testing.T) {
		fs := Defaults()
		kill := func(me, enemy int) float64 {
			v, err := fs.Kill(KillEnv{Roll: 12, EnemyRoll: 9, Damage: 0.25, Me: Stats{Top: me}, Enemy: Stats{Top: enemy}})
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		even := kill(500, 500)
		for _, c := range []struct {
			me, enemy int
			bonus     float64
		}{
			{501, 500, 2},  // more top-ranked soldiers left alive improve the chance
			{1000, 500, 2}, // by as much however many more
			{500, 500, 0},
			{400, 500, 0},
		} {
			if got := kill(c.me, c.enemy) - even; got != c.bonus {
				t.Errorf("top slots %d against %d: the kill formula gives %v more than with even top slots; want %v (4.3.4)", c.me, c.enemy, got, c.bonus)
			}
		}
	})
}
