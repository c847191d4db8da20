package turn_test

import (
	"os"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/scenario"
	"github.com/coalition-wargame/coalition/turn"
)

// The lock report says what became of kills, captures, liberations, pairs that leave, pushes
// and transfers into battles, in words (3.1, 4.3–4.5, T3).
func TestRenderNamesWhatTheBattlesDid(t *testing.T) {
	for _, c := range []struct {
		file string
		turn int
		want []string
	}{
		{"kill-after-an-attack", 0, []string{"Ash's kill attempt on Grim failed; 500 of the troops it risked died (4.3)", "Grim: 20E > 21E (lost the battle at 20E)"}},
		{"kill-after-an-attack", 1, []string{"Sai Rei killed Crovax (4.3)", "Crovax: killed by Sai Rei at 4F (4.3)"}},
		{"capture-and-liberation", 0, []string{"Ash captured Grim (4.5)", "Grim: 10E > 13E (captured by Ash)", "Grim is captured by Ash and is controlled by the Coalition until it has counted 2 days (4.5)"}},
		{"capture-and-liberation", 2, []string{"Grim is liberated and fights for Phyrexia again (4.5)"}},
		{"two-against-one", 1, []string{"Birch: 10E > 10D (won at 10E and leaves the square to its partner)", "the Coalition won (Ash, Birch)"}},
		{"transfers-into-battles", 0, []string{"Hanna's Guard sent troops to Karn, which won the battle at 10E and gets them (T3)",
			"Mirri sent troops to Gerrard, which lost the battle at 20E: the troops are lost with it (3.2.4.3.3)"}},
		{"last-evincar-killed", 0, []string{"The round is over", "the Coalition wins."}},
	} {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile("../testdata/scenarios/battles/" + c.file + ".json")
			if err != nil {
				t.Fatal(err)
			}
			sc, err := scenario.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			m := sc.Map
			var rep *turn.Report
			for i := 0; i <= c.turn; i++ {
				tu := sc.Turns[i]
				if m, rep, err = turn.Run(m, turn.Input{Seed: domain.ScenarioSeed(sc.File.Seed, i), Posts: tu.Posts, Lock: tu.Lock, Transfers: tu.Transfers, Results: tu.Results}); err != nil {
					t.Fatal(err)
				}
			}
			text := turn.Render(turn.Heading{Campaign: c.file, Turn: c.turn + 1}, rep)
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("the report does not say %q:\n%s", w, text)
				}
			}
		})
	}
}
