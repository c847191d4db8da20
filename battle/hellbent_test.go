package battle

import (
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

// hellbentMap makes Darkhand of proposeMap a raider (6.3).
func hellbentMap() *domain.Map {
	m := proposeMap()
	d := m.Army("Darkhand")
	d.Side, d.Faction, d.Controllers = domain.Mercenary, domain.Raider, nil
	m.Battles = Fought(m)
	return m
}

// TestProposeHellbent (6.3.2): a raider whose kill fails, or whose side loses, keeps its kill
// squad; a team army in its place loses the risked troops.
func TestProposeHellbent(t *testing.T) {
	m := hellbentMap()
	b := oneOnOne(m)
	failed := 0
	for i := range 200 {
		p, err := Propose(m, b, Judgement{Strategies: []Strategy{{Army: "Sai Rei"}, {Army: "Darkhand", Kill: "Sai Rei"}}}, Config{}, domain.ScenarioSeed(int64(i), 9).Draws())
		if err != nil {
			t.Fatal(err)
		}
		k := p.Result.Kill
		if k == nil || k.Success {
			continue
		}
		failed++
		if k.RiskedLost != 0 {
			t.Fatalf("a raider's failed kill lost %d risked troops", k.RiskedLost)
		}
		if !strings.Contains(strings.Join(p.Notes, "\n"), "Hellbent") {
			t.Fatalf("no note of Hellbent: %q", p.Notes)
		}
	}
	if failed == 0 {
		t.Fatal("no raider's kill failed in 200 battles: the test proves nothing")
	}
}

// TestSettleHellbent (6.3.2, R38): a judge's result that names risked losses for a raider's
// failed kill is settled without them, with a note; a team army's are taken.
func TestSettleHellbent(t *testing.T) {
	for _, raider := range []bool{true, false} {
		m := proposeMap()
		if raider {
			m = hellbentMap()
		}
		res := domain.BattleResult{Square: domain.Square{Col: 5, Row: 5}, Winner: "Sai Rei", LoserTo: domain.Square{Col: 6, Row: 6},
			Kill: &domain.Attempt{By: "Darkhand", Target: "Sai Rei", RiskedLost: 300}}
		lg, err := Settle(m, []domain.Battle{oneOnOne(m)}, []domain.BattleResult{res}, domain.ScenarioSeed(1, 0).Draws())
		if err != nil {
			t.Fatal(err)
		}
		giants := m.Army("Darkhand").Troop("Darkhand Giants").Alive
		notes := strings.Join(lg.Settled[0].Notes, "\n")
		switch {
		case raider && (giants != 1000 || lg.Settled[0].Kill.RiskedLost != 0 || !strings.Contains(notes, "Hellbent")):
			t.Fatalf("raider: %d giants, kill %+v, notes %q", giants, lg.Settled[0].Kill, notes)
		case !raider && giants != 700:
			t.Fatalf("team army: %d giants", giants)
		}
	}
}
