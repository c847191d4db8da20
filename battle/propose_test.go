package battle

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

func proposeTroop(creature, size string, slot, alive int, colors ...domain.Color) domain.Troop {
	sz, err := domain.ParseSize(size)
	if err != nil {
		panic(err)
	}
	return domain.Troop{Creature: creature, Size: sz, Colors: colors, Slot: slot, Alive: alive, Full: alive}
}

// proposeArmy is a full Lieutenant-rank army: 5000, 2500, 1500 and 1000 troops in slots 1–4.
func proposeArmy(name string, side domain.Side, at string, rank domain.Rank, c domain.Color) domain.Army {
	sq, _ := domain.ParseSquare(at)
	return domain.Army{Name: name, Side: side, Rank: rank, At: sq, Controllers: []string{name}, Colors: []domain.Color{c}, Troops: []domain.Troop{
		proposeTroop(name+" Rats", "1/1", 1, 5000, c),
		proposeTroop(name+" Knights", "2/2", 2, 2500, c),
		proposeTroop(name+" Ogres", "3/3", 3, 1500, c),
		proposeTroop(name+" Giants", "4/4", 4, 1000, c),
	}}
}

// proposeMap has a 1-against-1 battle at 5E (Sai Rei against Darkhand), and a 2-against-1
// battle at 10E (Gerrard and Tahngarth against Crovax).
func proposeMap() *domain.Map {
	m := &domain.Map{Grid: domain.DefaultGrid, Armies: []domain.Army{
		proposeArmy("Sai Rei", domain.Coalition, "5E", domain.Lieutenant, domain.Red),
		proposeArmy("Darkhand", domain.Phyrexia, "5E", domain.Lieutenant, domain.Black),
		proposeArmy("Gerrard", domain.Coalition, "10E", domain.LtCommander, domain.White),
		proposeArmy("Tahngarth", domain.Coalition, "10E", domain.Lieutenant, domain.Red),
		proposeArmy("Crovax", domain.Phyrexia, "10E", domain.Commander, domain.Black),
	}}
	m.Battles = Fought(m)
	return m
}

func oneOnOne(m *domain.Map) domain.Battle      { return *m.BattleAt(domain.Square{Col: 5, Row: 5}) }
func twoAgainstOne(m *domain.Map) domain.Battle { return *m.BattleAt(domain.Square{Col: 10, Row: 5}) }

func both(names ...string) []Strategy {
	var out []Strategy
	for _, n := range names {
		out = append(out, Strategy{Army: n})
	}
	return out
}

// sideNamed is the report of the side the named army is on.
func sideNamed(p *Proposal, army string) SideReport {
	for _, s := range p.Sides {
		if slices.Contains(s.Armies, army) {
			return s
		}
	}
	panic("no side has " + army)
}

// only keeps the strategies of the battle's armies.
func only(j Judgement, b domain.Battle) Judgement {
	var out []Strategy
	for _, st := range j.Strategies {
		if slices.Contains(b.Armies, st.Army) {
			out = append(out, st)
		}
	}
	j.Strategies = out
	if !slices.Contains(b.Armies, j.BonusTo) {
		j.BonusTo, j.Bonus = "", 0
	}
	return j
}

func lostBy(r domain.BattleResult, army string) int {
	n := 0
	for _, v := range r.Losses[army] {
		n += v
	}
	return n
}

func TestColorBonusB4(t *testing.T) {
	R, G, U, B, W := domain.Red, domain.Green, domain.Blue, domain.Black, domain.White
	army := func(troops ...domain.Troop) *domain.Army { return &domain.Army{Name: "X", Troops: troops} }
	tests := []struct {
		name   string
		armies []*domain.Army
		want   int
	}{
		{"4.2.3 5000 Red, 2500 Red, 1500 Red, 1000 Red/Green: bonus", []*domain.Army{army(
			proposeTroop("a", "1/1", 1, 5000, R), proposeTroop("b", "2/2", 2, 2500, R), proposeTroop("c", "3/3", 3, 1500, R), proposeTroop("d", "4/4", 4, 1000, R, G))}, 1},
		{"4.2.3 5000 R/G, 2500 R/G, 1500 U/G, 1000 R/U: no bonus", []*domain.Army{army(
			proposeTroop("a", "1/1", 1, 5000, R, G), proposeTroop("b", "2/2", 2, 2500, R, G), proposeTroop("c", "3/3", 3, 1500, U, G), proposeTroop("d", "4/4", 4, 1000, R, U))}, 0},
		{"4.2.3 after battles 3000 R/G, 1600 R/G, 0 U/G, 400 R/U: bonus", []*domain.Army{army(
			proposeTroop("a", "1/1", 1, 3000, R, G), proposeTroop("b", "2/2", 2, 1600, R, G), proposeTroop("c", "3/3", 3, 0, U, G), proposeTroop("d", "4/4", 4, 400, R, U))}, 1},
		{"B4 all living creatures artifacts: bonus", []*domain.Army{army(
			proposeTroop("a", "1/1", 1, 5000, domain.Artifact), proposeTroop("b", "2/2", 2, 2500))}, 1},
		{"B4 artifacts and a red creature: no bonus", []*domain.Army{army(
			proposeTroop("a", "1/1", 1, 5000, domain.Artifact), proposeTroop("b", "2/2", 2, 2500, R))}, 0},
		{"B4 the artifact is dead: bonus", []*domain.Army{army(
			proposeTroop("a", "1/1", 1, 0, domain.Artifact), proposeTroop("b", "2/2", 2, 2500, R))}, 1},
		{"B4 the only off-colour creature is dead: bonus", []*domain.Army{army(
			proposeTroop("a", "1/1", 1, 4000, B), proposeTroop("b", "2/2", 2, 0, W), proposeTroop("c", "3/3", 3, 10, B))}, 1},
		{"B4 a five-colour creature shares every colour", []*domain.Army{army(
			proposeTroop("a", "1/1", 1, 4000, U), proposeTroop("b", "2/2", 2, 20, domain.FiveColor))}, 1},
		{"B4 W/U and B/R share nothing", []*domain.Army{army(
			proposeTroop("a", "1/1", 1, 4000, W, U), proposeTroop("b", "2/2", 2, 20, B, R))}, 0},
		{"B4 nothing alive: no bonus", []*domain.Army{army(proposeTroop("a", "1/1", 1, 0, R))}, 0},
		{"B4 a pair fighting as one side, both red: bonus", []*domain.Army{
			army(proposeTroop("a", "1/1", 1, 4000, R)), army(proposeTroop("b", "1/1", 1, 4000, R, G))}, 1},
		{"B4 a pair fighting as one side, red and blue: no bonus", []*domain.Army{
			army(proposeTroop("a", "1/1", 1, 4000, R)), army(proposeTroop("b", "1/1", 1, 4000, U))}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ColorBonus(tt.armies...); got != tt.want {
				t.Errorf("ColorBonus = %d, want %d", got, tt.want)
			}
		})
	}
}

// 4.2.4, B2: a stratless army loses but still rolls; its opponent gets +10.
func TestProposeStratlessSideLoses(t *testing.T) {
	m := proposeMap()
	b := oneOnOne(m)
	for i := range 300 {
		seed := domain.ScenarioSeed(int64(i), 1)
		p, err := Propose(m, b, Judgement{Strategies: both("Darkhand"), BonusTo: "Sai Rei", Bonus: 6}, Config{}, seed.Draws())
		if err != nil {
			t.Fatal(err)
		}
		if p.Result.Winner != "Darkhand" || p.Dice.DecidedBy != ByStratless {
			t.Fatalf("seed %d: winner %q by %q, want Darkhand by stratless", i, p.Result.Winner, p.Dice.DecidedBy)
		}
		sai, dark := sideNamed(p, "Sai Rei"), sideNamed(p, "Darkhand")
		if !sai.Stratless || dark.Stratless {
			t.Fatalf("sides %+v", p.Sides)
		}
		if dark.StrategyBonus != 10 || sai.StrategyBonus != 0 {
			t.Fatalf("strategy bonuses %d / %d, want 0 / 10", sai.StrategyBonus, dark.StrategyBonus)
		}
		if len(p.Rolls) != 8 {
			t.Fatalf("%d rolls, want the stratless side's four too", len(p.Rolls))
		}
		if lostBy(p.Result, "Sai Rei") == 0 {
			t.Fatalf("seed %d: the stratless side lost nothing", i)
		}
		if i == 0 && !slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, "full strategy bonus of 10") }) {
			t.Errorf("no note that the judge's bonus was overridden: %v", p.Notes)
		}
	}
}

// B2: both stratless: nobody wins and both lose nothing.
func TestProposeBothStratless(t *testing.T) {
	m := proposeMap()
	p, err := Propose(m, oneOnOne(m), Judgement{}, Config{}, domain.ScenarioSeed(1, 1).Draws())
	if err != nil {
		t.Fatal(err)
	}
	if p.Result.Winner != "" || p.Dice.DecidedBy != ByForfeit || len(p.Result.Losses) != 0 {
		t.Fatalf("winner %q by %q, losses %v", p.Result.Winner, p.Dice.DecidedBy, p.Result.Losses)
	}
}

// B7: the winner normally loses fewer; both sides usually lose some.
func TestProposeWinnerLosesFewerOnAverage(t *testing.T) {
	m := proposeMap()
	b := oneOnOne(m)
	var winnerLost, loserLost, fewer, battles, bothLose int
	wins := map[string]int{}
	for i := range 1000 {
		p, err := Propose(m, b, Judgement{Strategies: both("Sai Rei", "Darkhand")}, Config{}, domain.ScenarioSeed(int64(i), 2).Draws())
		if err != nil {
			t.Fatal(err)
		}
		w := p.Result.Winner
		if w == "" {
			continue
		}
		l := "Darkhand"
		if w == "Darkhand" {
			l = "Sai Rei"
		}
		wins[w]++
		battles++
		wl, ll := lostBy(p.Result, w), lostBy(p.Result, l)
		winnerLost += wl
		loserLost += ll
		if wl < ll {
			fewer++
		}
		if wl > 0 && ll > 0 {
			bothLose++
		}
	}
	if battles < 950 {
		t.Fatalf("only %d of 1000 battles had a winner", battles)
	}
	if winnerLost*2 > loserLost {
		t.Errorf("winners lost %d troops, losers %d: want the winner to lose well under half as many", winnerLost, loserLost)
	}
	if fewer*10 < battles*9 {
		t.Errorf("the winner lost fewer in %d of %d battles", fewer, battles)
	}
	if bothLose*10 < battles*9 {
		t.Errorf("both sides lost troops in only %d of %d battles", bothLose, battles)
	}
	// equal armies, no bonuses: the dice are fair
	if wins["Sai Rei"] < battles*4/10 || wins["Darkhand"] < battles*4/10 {
		t.Errorf("wins %v of %d between equal armies", wins, battles)
	}
	t.Logf("%d battles: winners lost %d on average, losers %d; the winner lost fewer in %d", battles, winnerLost/battles, loserLost/battles, fewer)
}

// B3: the larger army gets the size bonus; bonuses are added to the dice.
func TestProposeBonuses(t *testing.T) {
	m := proposeMap()
	dark := m.Army("Darkhand")
	for i := range dark.Troops {
		dark.Troops[i].Alive /= 2
	}
	dark.Troops[0].Colors = []domain.Color{domain.Green} // no colour bonus any more
	p, err := Propose(m, oneOnOne(m), Judgement{Strategies: both("Sai Rei", "Darkhand"), BonusTo: "Darkhand", Bonus: 4}, Config{}, domain.ScenarioSeed(3, 3).Draws())
	if err != nil {
		t.Fatal(err)
	}
	sai, dk := sideNamed(p, "Sai Rei"), sideNamed(p, "Darkhand")
	if sai.SizeBonus != 5 || dk.SizeBonus != 0 {
		t.Errorf("size bonuses %d / %d, want 5 to the army twice as strong", sai.SizeBonus, dk.SizeBonus)
	}
	if sai.ColorBonus != 1 || dk.ColorBonus != 0 {
		t.Errorf("colour bonuses %d / %d, want 1 / 0", sai.ColorBonus, dk.ColorBonus)
	}
	if sai.StrategyBonus != 0 || dk.StrategyBonus != 4 {
		t.Errorf("strategy bonuses %d / %d, want 0 / 4", sai.StrategyBonus, dk.StrategyBonus)
	}
	if sai.Bonus != 6 || dk.Bonus != 4 || p.Dice.Sides[0] != (DiceSide{Key: "Darkhand", Bonus: 4}) || p.Dice.Sides[1] != (DiceSide{Key: "Sai Rei", Bonus: 6}) {
		t.Errorf("total bonuses %d / %d, dice %+v", sai.Bonus, dk.Bonus, p.Dice.Sides)
	}
	if sai.Stats.Troops != 10000 || dk.Stats.Troops != 5000 || sai.Stats.Top != 1000 || sai.Stats.Rank != int(domain.Lieutenant) {
		t.Errorf("stats %+v / %+v", sai.Stats, dk.Stats)
	}
}

// 4.2.6: a side that runs away leaves the field (it loses), deals no damage and takes less.
func TestProposeRunAway(t *testing.T) {
	m := proposeMap()
	b := oneOnOne(m)
	var ranLost, stoodLost int
	for i := range 200 {
		seed := domain.ScenarioSeed(int64(i), 4)
		run, err := Propose(m, b, Judgement{Strategies: []Strategy{{Army: "Sai Rei", RunAway: true}, {Army: "Darkhand"}}}, Config{}, seed.Draws())
		if err != nil {
			t.Fatal(err)
		}
		if run.Result.Winner != "Darkhand" || run.Dice.DecidedBy != ByRunAway {
			t.Fatalf("winner %q by %q", run.Result.Winner, run.Dice.DecidedBy)
		}
		if n := lostBy(run.Result, "Darkhand"); n != 0 {
			t.Fatalf("the runner's enemy lost %d", n)
		}
		// the same battle fought, and lost, without running
		stood, err := Propose(m, b, Judgement{Strategies: both("Sai Rei", "Darkhand"), BonusTo: "Darkhand", Bonus: 10}, Config{}, seed.Draws())
		if err != nil {
			t.Fatal(err)
		}
		ranLost += lostBy(run.Result, "Sai Rei")
		stoodLost += lostBy(stood.Result, "Sai Rei")
		if lostBy(run.Result, "Sai Rei") == 0 {
			t.Fatalf("seed %d: the runner lost nothing; some damage is always done (4.2.6)", i)
		}
	}
	if ranLost >= stoodLost {
		t.Errorf("running cost %d troops, standing %d", ranLost, stoodLost)
	}
}

// The proposal is a result battle.Settle accepts, and the losses it applies are the
// proposed ones.
func TestProposalSettles(t *testing.T) {
	judgements := []Judgement{
		{Strategies: both("Sai Rei", "Darkhand", "Gerrard", "Tahngarth", "Crovax")},
		{Strategies: []Strategy{{Army: "Sai Rei", Kill: "Darkhand"}, {Army: "Darkhand", Capture: "Sai Rei"}, {Army: "Gerrard", Capture: "Crovax"}, {Army: "Tahngarth", Kill: "Crovax", Fought: 3}, {Army: "Crovax", Kill: "Gerrard"}}},
		{Strategies: []Strategy{{Army: "Sai Rei", Capture: "Darkhand"}, {Army: "Darkhand", Kill: "Sai Rei"}, {Army: "Gerrard", Kill: "Crovax"}, {Army: "Crovax", Kill: "Tahngarth"}}, BonusTo: "Crovax", Bonus: 3},
		{Strategies: both("Darkhand", "Tahngarth")},
	}
	var kills, captures, failed int
	for i := range 200 {
		seed := domain.ScenarioSeed(int64(i), 5)
		for ji, j := range judgements {
			m := proposeMap()
			var results []domain.BattleResult
			var props []*Proposal
			for _, b := range m.Battles {
				p, err := Propose(m, b, only(j, b), Config{}, seed.Draws())
				if err != nil {
					t.Fatalf("judgement %d: %v", ji, err)
				}
				results = append(results, p.Result)
				props = append(props, p)
			}
			for _, r := range results {
				switch {
				case r.Kill != nil && r.Kill.Success:
					kills++
				case r.Capture != nil && r.Capture.Success:
					captures++
				case r.Kill != nil || r.Capture != nil:
					failed++
				}
			}
			before := m.Clone()
			lg, err := Settle(m, Fought(m), results, seed.Draws())
			if err != nil {
				data, _ := json.MarshalIndent(props, "", " ")
				t.Fatalf("seed %d judgement %d: Settle rejects the proposal: %v\n%s", i, ji, err, data)
			}
			for _, p := range props {
				for army, losses := range p.Result.Losses {
					for c, n := range losses {
						if got := lg.Losses[army][c]; got < n {
							t.Fatalf("%s lost %d %s, proposed %d", army, got, c, n)
						}
						if b := before.Army(army).Troop(c); n > b.Alive {
							t.Fatalf("%s: %d %s proposed lost of %d alive", army, n, c, b.Alive)
						}
					}
				}
			}
		}
	}
	if kills == 0 || captures == 0 || failed == 0 {
		t.Errorf("%d kills, %d captures and %d failed attempts settled: the test misses a case", kills, captures, failed)
	}
}

// 4.3.2, 4.3.3, B9: a kill risks 500 of the top slot, which do not fight; it needs the battle
// won; a failed one usually costs the risked troops.
func TestProposeKill(t *testing.T) {
	m := proposeMap()
	b := oneOnOne(m)
	var tries, kills, kept int
	for i := range 400 {
		seed := domain.ScenarioSeed(int64(i), 6)
		p, err := Propose(m, b, Judgement{Strategies: []Strategy{{Army: "Sai Rei", Kill: "Darkhand"}, {Army: "Darkhand"}}}, Config{}, seed.Draws())
		if err != nil {
			t.Fatal(err)
		}
		k := p.Result.Kill
		if k == nil || k.By != "Sai Rei" || k.Target != "Darkhand" {
			t.Fatalf("kill %+v", k)
		}
		at := p.Attempts[0]
		if at.Risked != 500 {
			t.Fatalf("risked %d", at.Risked)
		}
		if st := sideNamed(p, "Sai Rei").Stats; st.Troops != 9500 || st.Top != 500 {
			t.Fatalf("the risked 500 fight: stats %+v", st)
		}
		if p.Result.Losses["Sai Rei"]["Sai Rei Giants"] > 500 {
			t.Fatalf("the risked giants took casualties: %v", p.Result.Losses["Sai Rei"])
		}
		if p.Result.Winner != "Sai Rei" {
			if k.Success || at.Rolled || k.RiskedLost != 500 {
				t.Fatalf("a lost battle's kill: %+v", at)
			}
			continue
		}
		tries++
		if !at.Rolled || at.Roll != seed.D20("kill-roll:5E:Sai Rei") || at.EnemyRoll != seed.D20("kill-roll:5E:Darkhand") {
			t.Fatalf("kill rolls %+v", at)
		}
		if k.Success {
			kills++
			if k.RiskedLost != 0 {
				t.Fatalf("a successful kill lost %d risked troops", k.RiskedLost)
			}
		} else if k.RiskedLost == 0 {
			kept++
			if at.RiskRoll < 19 {
				t.Fatalf("kept the risked troops on a risk roll of %d", at.RiskRoll)
			}
		}
	}
	if kills == 0 || kills == tries || kept == 0 {
		t.Errorf("%d kills and %d failures that kept their troops in %d tries", kills, kept, tries)
	}
	t.Logf("%d kills in %d tries; %d failures cost nothing", kills, tries, kept)
}

func TestProposeAttemptsNotAllowed(t *testing.T) {
	tests := []struct {
		name  string
		setup func(m *domain.Map)
		strat []Strategy
		note  string
	}{
		{"4.3.2 a kill needs 500 alive in the top slot", func(m *domain.Map) { m.Army("Sai Rei").Troops[3].Alive = 499 },
			[]Strategy{{Army: "Sai Rei", Kill: "Darkhand"}, {Army: "Darkhand"}}, "needs 500"},
		{"4.5 only the two lowest ranks can be captured", func(m *domain.Map) { m.Army("Darkhand").Rank = domain.Commander },
			[]Strategy{{Army: "Sai Rei", Capture: "Darkhand"}, {Army: "Darkhand"}}, "only Lieutenant/Centurion and Lt Commander/CPL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := proposeMap()
			tt.setup(m)
			p, err := Propose(m, oneOnOne(m), Judgement{Strategies: tt.strat}, Config{}, domain.ScenarioSeed(1, 7).Draws())
			if err != nil {
				t.Fatal(err)
			}
			if p.Result.Kill != nil || p.Result.Capture != nil || len(p.Attempts) != 0 {
				t.Errorf("attempt made: %+v", p.Attempts)
			}
			if !slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, tt.note) }) {
				t.Errorf("notes %q do not say %q", p.Notes, tt.note)
			}
		})
	}
}

// 4.5: a capture risks up to 2000 of the lowest slot and needs the battle won.
func TestProposeCapture(t *testing.T) {
	m := proposeMap()
	m.Army("Sai Rei").Troops[0].Alive = 1200
	var captures, tries int
	for i := range 300 {
		p, err := Propose(m, oneOnOne(m), Judgement{Strategies: []Strategy{{Army: "Sai Rei", Capture: "Darkhand"}, {Army: "Darkhand"}}, BonusTo: "Sai Rei", Bonus: 5}, Config{}, domain.ScenarioSeed(int64(i), 8).Draws())
		if err != nil {
			t.Fatal(err)
		}
		c := p.Result.Capture
		if st := sideNamed(p, "Sai Rei").Stats; c == nil || p.Attempts[0].Risked != 1200 || st.Slot1 != 0 || st.Troops != 5000 {
			t.Fatalf("capture %+v, attempts %+v, stats %+v", c, p.Attempts, st)
		}
		if p.Result.Winner == "Sai Rei" {
			tries++
			if c.Success {
				captures++
			}
		}
	}
	if captures == 0 || captures == tries {
		t.Errorf("%d captures in %d tries", captures, tries)
	}
}

// 4.4, B10: a pair rolls as one side with combined size; casualties are shared by how much
// each fought; a stratless partner does not take part.
func TestProposeTwoArmies(t *testing.T) {
	m := proposeMap()
	b := twoAgainstOne(m)
	seed := domain.ScenarioSeed(4, 9)
	p, err := Propose(m, b, Judgement{Strategies: []Strategy{{Army: "Gerrard", Fought: 3}, {Army: "Tahngarth", Fought: 1}, {Army: "Crovax"}}}, Config{}, seed.Draws())
	if err != nil {
		t.Fatal(err)
	}
	pair := sideNamed(p, "Gerrard")
	if pair.Stats.Troops != 20000 || pair.Stats.Armies != 2 || pair.Stats.Rank != int(domain.LtCommander) {
		t.Errorf("the pair's stats %+v", pair.Stats)
	}
	if pair.ColorBonus != 0 {
		t.Error("a white and a red army share no colour")
	}
	if !slices.ContainsFunc(p.Rolls, func(r Roll) bool { return r.Label == "dice:10E:Gerrard+Tahngarth:1" }) {
		t.Errorf("rolls %v", p.Rolls)
	}
	if len(p.Rolls) < 8 || len(p.Rolls)%8 != 0 {
		t.Errorf("%d rolls: the pair rolls one set of four", len(p.Rolls))
	}
	g, th := lostBy(p.Result, "Gerrard"), lostBy(p.Result, "Tahngarth")
	if g+th != pair.Lost || g < 3*th-3 || g > 3*th+3 {
		t.Errorf("Gerrard lost %d and Tahngarth %d of %d; want 3 to 1", g, th, pair.Lost)
	}

	// Tahngarth sent no strategy: Gerrard fights alone (4.4)
	p, err = Propose(m, b, Judgement{Strategies: both("Gerrard", "Crovax"), Leaves: &domain.Leave{Army: "Tahngarth"}}, Config{}, seed.Draws())
	if err != nil {
		t.Fatal(err)
	}
	pair = sideNamed(p, "Gerrard")
	if !slices.Equal(pair.Fighting, []string{"Gerrard"}) || pair.Stats.Troops != 10000 || pair.Stratless {
		t.Errorf("the pair without Tahngarth's strategy: %+v", pair)
	}
	if lostBy(p.Result, "Tahngarth") != 0 {
		t.Errorf("Tahngarth did not fight but lost %d", lostBy(p.Result, "Tahngarth"))
	}
	if !slices.ContainsFunc(p.Rolls, func(r Roll) bool { return r.Label == "dice:10E:Gerrard+Tahngarth:1" }) {
		t.Error("the pair's dice label changed when one army sat out")
	}
	if p.Result.Winner == "Gerrard" && (p.Result.Leaves == nil || p.Result.Leaves.Army != "Tahngarth") {
		t.Errorf("the winning pair's leaver: %+v", p.Result.Leaves)
	}
}

func TestProposeReproducible(t *testing.T) {
	m := proposeMap()
	j := Judgement{Strategies: []Strategy{{Army: "Sai Rei", Kill: "Darkhand"}, {Army: "Darkhand"}}, BonusTo: "Sai Rei", Bonus: 2}
	seed := domain.ScenarioSeed(42, 0)
	a, err := Propose(m, oneOnOne(m), j, Config{}, seed.Draws())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Propose(m, oneOnOne(m), j, Config{}, seed.Draws())
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Fatalf("two proposals from one seed differ:\n%s\n%s", ja, jb)
	}
	if ms := Verify(seed.Commitment(), seed, a.Rolls); len(ms) != 0 {
		t.Fatalf("the proposal's rolls do not verify: %v", ms)
	}
	if !slices.Equal(a.Formulas, []string{"size v1", "casualties v1", "kill v1", "capture v1", "risk v1"}) {
		t.Errorf("formulas %v", a.Formulas)
	}
}

func TestProposeErrors(t *testing.T) {
	tests := []struct {
		name  string
		setup func(m *domain.Map) domain.Battle
		j     Judgement
		want  string
	}{
		{"army not on the map", func(m *domain.Map) domain.Battle {
			b := oneOnOne(m)
			b.Armies = append(b.Armies, "Nobody")
			return b
		}, Judgement{}, "Nobody, which is not on the map"},
		{"no troop list", func(m *domain.Map) domain.Battle { m.Army("Darkhand").Troops = nil; return oneOnOne(m) }, Judgement{}, "Darkhand has no troop list"},
		{"one side only", func(m *domain.Map) domain.Battle {
			return domain.Battle{Square: domain.Square{Col: 10, Row: 5}, Armies: []string{"Gerrard", "Tahngarth"}}
		}, Judgement{}, "only one side"},
		{"three armies a side", func(m *domain.Map) domain.Battle {
			b := twoAgainstOne(m)
			b.Armies = append(b.Armies, "Sai Rei")
			return b
		}, Judgement{}, "at most two"},
		{"strategy for an army not in the battle", oneOnOne, Judgement{Strategies: both("Gerrard")}, "not in the battle at 5E"},
		{"two strategies for one army", oneOnOne, Judgement{Strategies: both("Sai Rei", "sai rei")}, "two strategies"},
		{"kill and capture", oneOnOne, Judgement{Strategies: []Strategy{{Army: "Sai Rei", Kill: "Darkhand", Capture: "Darkhand"}}}, "both a kill and a capture"},
		{"kill a friend", twoAgainstOne, Judgement{Strategies: []Strategy{{Army: "Gerrard", Kill: "Tahngarth"}}}, "not an enemy army"},
		{"bonus above 10", oneOnOne, Judgement{Strategies: both("Sai Rei", "Darkhand"), BonusTo: "Sai Rei", Bonus: 11}, "0–10"},
		{"bonus to nobody", oneOnOne, Judgement{Strategies: both("Sai Rei", "Darkhand"), Bonus: 3}, "not an army in the battle"},
		{"negative fought", oneOnOne, Judgement{Strategies: []Strategy{{Army: "Sai Rei", Fought: -1}}}, "0 or more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := proposeMap()
			b := tt.setup(m)
			_, err := Propose(m, b, tt.j, Config{}, domain.ScenarioSeed(1, 1).Draws())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

func TestProposeUsesConfiguredFormulas(t *testing.T) {
	fs, err := CompileFormulas([]Formula{{Name: FormulaCasualties, Version: 7, Text: "won ? 10 : 100"}})
	if err != nil {
		t.Fatal(err)
	}
	m := proposeMap()
	p, err := Propose(m, oneOnOne(m), Judgement{Strategies: both("Sai Rei", "Darkhand")}, Config{Formulas: fs, Dice: &DiceRules{}}, domain.ScenarioSeed(2, 2).Draws())
	if err != nil {
		t.Fatal(err)
	}
	if p.Result.Winner == "" {
		if lostBy(p.Result, "Sai Rei") != 100 || lostBy(p.Result, "Darkhand") != 100 {
			t.Errorf("losses %v", p.Result.Losses)
		}
	} else if w := p.Result.Winner; lostBy(p.Result, w) != 10 {
		t.Errorf("winner %s lost %d, want 10", w, lostBy(p.Result, w))
	}
	if !slices.Contains(p.Formulas, "casualties v7") {
		t.Errorf("formulas %v", p.Formulas)
	}
}

func TestApportion(t *testing.T) {
	tests := []struct {
		name    string
		total   int
		weights []float64
		caps    []int
		want    []int
	}{
		{"even", 10, []float64{1, 1}, []int{100, 100}, []int{5, 5}},
		{"remainder to the earlier", 11, []float64{1, 1}, []int{100, 100}, []int{6, 5}},
		{"by weight", 100, []float64{3, 1}, []int{100, 100}, []int{75, 25}},
		{"equal fractions: the earlier first", 10, []float64{5000, 2500, 1500, 1000}, []int{5000, 2500, 1500, 1000}, []int{5, 3, 1, 1}},
		{"largest fraction first", 10, []float64{1, 3, 6}, []int{10, 10, 10}, []int{1, 3, 6}},
		{"largest fraction first, uneven", 7, []float64{1, 3, 6}, []int{10, 10, 10}, []int{1, 2, 4}},
		{"cap passes the rest on", 100, []float64{1, 1}, []int{10, 200}, []int{10, 90}},
		{"weight 0 gets nothing", 50, []float64{0, 1}, []int{100, 100}, []int{0, 50}},
		{"more than fits is dropped", 500, []float64{1, 1}, []int{100, 100}, []int{100, 100}},
		{"nothing to share", 0, []float64{1}, []int{5}, []int{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := apportion(tt.total, tt.weights, tt.caps); !slices.Equal(got, tt.want) {
				t.Errorf("apportion = %v, want %v", got, tt.want)
			}
		})
	}
}

func BenchmarkPropose(b *testing.B) {
	m := proposeMap()
	bt := oneOnOne(m)
	j := Judgement{Strategies: []Strategy{{Army: "Sai Rei", Kill: "Darkhand"}, {Army: "Darkhand"}}, BonusTo: "Darkhand", Bonus: 3}
	d := domain.ScenarioSeed(1, 0).Draws()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Propose(m, bt, j, Config{}, d); err != nil {
			b.Fatal(err)
		}
	}
}
