// Rules 4.1–4.2 and B2–B5: a proposed battle result — strategies read, bonuses, the dice and the
// winner.

package battle

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// Strategy is what a battle judge read in one army's battle strategy (4.1.1). An army of the
// battle with no Strategy in the Judgement sent none: it is stratless (4.2.4).
type Strategy struct {
	Army string `json:"army"`
	// Kill names the enemy army the strategy goes for a kill on, risking 500 troops of its top
	// slot (4.3.2); Capture names one it tries to capture instead, risking 2000 of its lowest
	// slot (4.5). Empty: no attempt.
	Kill    string `json:"kill,omitempty"`
	Capture string `json:"capture,omitempty"`
	// RunAway is set when the strategy runs away (4.2.6).
	RunAway bool `json:"run_away,omitempty"`
	// Fought is how much the army fought, for sharing its side's casualties with its partner
	// (4.4, B10): shares go by these weights; when both armies give 0 they share evenly.
	Fought float64 `json:"fought,omitempty"`
}

// Judgement is the battle judge's reading of one battle: the strategies received and the
// strategy bonus given.
type Judgement struct {
	Strategies []Strategy `json:"strategies"`
	// BonusTo names an army whose side gets the strategy bonus of Bonus points, 0–10 (B2,
	// 4.2.1). When exactly one side sent no strategy, the other gets 10 whatever these say.
	BonusTo string `json:"bonus_to,omitempty"`
	Bonus   int    `json:"bonus,omitempty"`
	// Leaves is the army of a winning pair its strategy sends away, and where (4.4, B10).
	Leaves *domain.Leave `json:"leaves,omitempty"`
}

// Config is a campaign's battle settings.
type Config struct {
	// Formulas are the battle judges' formulas; nil means Defaults().
	Formulas *Formulas
	// Dice are the rules for level results; nil means DefaultDiceRules.
	Dice *DiceRules
}

// Proposal is what the server proposes for one battle: a result the judge can adjust and
// confirm, how it was reached, and every die rolled, for publication after the lock (B6). The
// bonuses and formula values are for battle judges only.
type Proposal struct {
	Result domain.BattleResult `json:"result"`
	Sides  [2]SideReport       `json:"sides"`
	Dice   Dice                `json:"dice"`
	// Attempts are every kill and capture attempt made, the winner's first; the result
	// carries the first kill and the first capture, and the risked losses of any other go
	// with the battle's losses.
	Attempts []AttemptReport `json:"attempts,omitempty"`
	Rolls    []Roll          `json:"rolls"`
	// Formulas name the formula versions used ("size v1").
	Formulas []string `json:"formulas"`
	// Notes explain choices the judge may want to look at: attempts not allowed, bonuses
	// overridden.
	Notes []string `json:"notes,omitempty"`
}

// SideReport is one side of a proposed battle.
type SideReport struct {
	Side domain.Side `json:"side"`
	// Armies are the side's armies in the battle; Fighting those that fight (a stratless
	// partner of an army that sent a strategy does not, 4.4).
	Armies    []string `json:"armies"`
	Fighting  []string `json:"fighting"`
	Stratless bool     `json:"stratless,omitempty"`
	RunsAway  bool     `json:"runs_away,omitempty"`
	// Stats are the fighting troops before the battle, risked troops aside.
	Stats Stats `json:"stats"`
	// The bonuses on each die (B2–B4) and their total.
	StrategyBonus int `json:"strategy_bonus"`
	SizeBonus     int `json:"size_bonus"`
	ColorBonus    int `json:"color_bonus"`
	Bonus         int `json:"bonus"`
	// Lost is the troops the side loses in the battle, risked troops aside (B7).
	Lost int `json:"lost"`
}

// AttemptReport is a kill or capture attempt as proposed (4.3, 4.5).
type AttemptReport struct {
	// Kind is "kill" or "capture".
	Kind   string `json:"kind"`
	By     string `json:"by"`
	Target string `json:"target"`
	// Risked is the troops set aside for the attempt: 500 of the top slot for a kill, up to
	// 2000 of the lowest for a capture.
	Risked int `json:"risked"`
	// Rolled is set when the pair of dice was rolled (the attacker's side won); Roll and
	// EnemyRoll are the pair, Value the formula's value.
	Rolled    bool    `json:"rolled"`
	Roll      int     `json:"roll,omitempty"`
	EnemyRoll int     `json:"enemy_roll,omitempty"`
	Value     float64 `json:"value,omitempty"`
	Success   bool    `json:"success"`
	// RiskRoll is the d20 of the risk formula, rolled when the attempt failed.
	RiskRoll   int `json:"risk_roll,omitempty"`
	RiskedLost int `json:"risked_lost"`
}

// army is one army of the battle while a proposal is made.
type army struct {
	a      *domain.Army
	side   int
	strat  *Strategy
	fights bool
	// risked and lost are per troop (index in a.Troops): troops set aside for an attempt,
	// and troops lost in the battle.
	risked, lost []int
}

func (x *army) fighting(i int) int { return x.a.Troops[i].Alive - x.risked[i] }

func (x *army) after(i int) int { return x.a.Troops[i].Alive - x.lost[i] }

type proposer struct {
	m       *domain.Map
	b       domain.Battle
	j       Judgement
	fs      *Formulas
	rules   DiceRules
	rec     *Recorder
	armies  []*army
	planned []attempt
	sides   [2][]*army
	p       *Proposal
}

// Propose proposes the result of battle b on map m (B2–B10, 4.2–4.5): it works out each
// side's strategy, size and colour bonuses, rolls the dice from the turn's draws d, picks the
// winner, computes each army's casualties creature by creature and the kill and capture
// attempts, and returns them as a domain.BattleResult with every roll made. Every army of the
// battle needs a troop list. An error means the battle or the judgement does not fit the map,
// or a formula failed.
func Propose(m *domain.Map, b domain.Battle, j Judgement, cfg Config, d *domain.Draws) (*Proposal, error) {
	pr := &proposer{m: m, b: b, j: j, fs: cfg.Formulas, rules: DefaultDiceRules, rec: NewRecorder(d), p: &Proposal{}}
	if pr.fs == nil {
		pr.fs = Defaults()
	}
	if cfg.Dice != nil {
		pr.rules = *cfg.Dice
	}
	pr.p.Result.Square = b.Square
	steps := []func() error{pr.gather, pr.readStrategies, pr.plan, pr.bonuses, pr.fight, pr.casualties, pr.attempts}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	pr.finish()
	return pr.p, nil
}

// gather finds the battle's armies and splits them into two sides.
func (pr *proposer) gather() error {
	var order []domain.Side
	for _, n := range pr.b.Armies {
		a := pr.m.Army(n)
		if a == nil {
			return domain.Errorf(domain.ErrInvalid, "the battle at %s names %s, which is not on the map", pr.b.Square, n)
		}
		if a.Troops == nil {
			return domain.Errorf(domain.ErrInvalid, "%s has no troop list, so the battle at %s cannot be proposed", a.Name, pr.b.Square)
		}
		side := slices.Index(order, a.Side)
		if side < 0 {
			side = len(order)
			order = append(order, a.Side)
		}
		if side > 1 {
			return domain.Errorf(domain.ErrInvalid, "the battle at %s has armies of three sides; a battle has two (M12)", pr.b.Square)
		}
		x := &army{a: a, side: side, risked: make([]int, len(a.Troops)), lost: make([]int, len(a.Troops))}
		pr.armies = append(pr.armies, x)
		pr.sides[side] = append(pr.sides[side], x)
	}
	if len(order) < 2 {
		return domain.Errorf(domain.ErrInvalid, "the battle at %s has armies of only one side", pr.b.Square)
	}
	for s := range 2 {
		if len(pr.sides[s]) > 2 {
			return domain.Errorf(domain.ErrInvalid, "the battle at %s has %d armies of %s; a side fights with at most two (4.4)", pr.b.Square, len(pr.sides[s]), order[s].Title())
		}
		slices.SortFunc(pr.sides[s], func(x, y *army) int { return cmp.Compare(x.a.Name, y.a.Name) })
		pr.p.Sides[s].Side = order[s]
		for _, x := range pr.sides[s] {
			pr.p.Sides[s].Armies = append(pr.p.Sides[s].Armies, x.a.Name)
		}
	}
	return nil
}

func (pr *proposer) find(name string) *army {
	for _, x := range pr.armies {
		if domain.SameName(x.a.Name, name) {
			return x
		}
	}
	return nil
}

func (pr *proposer) note(format string, args ...any) {
	pr.p.Notes = append(pr.p.Notes, fmt.Sprintf(format, args...))
}

// readStrategies checks the judgement against the battle and decides who fights (4.4).
func (pr *proposer) readStrategies() error {
	for i := range pr.j.Strategies {
		st := &pr.j.Strategies[i]
		x := pr.find(st.Army)
		if x == nil {
			return domain.Errorf(domain.ErrInvalid, "a strategy is given for %s, which is not in the battle at %s", st.Army, pr.b.Square)
		}
		if x.strat != nil {
			return domain.Errorf(domain.ErrInvalid, "two strategies are given for %s", x.a.Name)
		}
		if st.Kill != "" && st.Capture != "" {
			return domain.Errorf(domain.ErrInvalid, "%s's strategy goes for both a kill and a capture; it may try only one (4.5)", x.a.Name)
		}
		for _, t := range []string{st.Kill, st.Capture} {
			if t == "" {
				continue
			}
			if y := pr.find(t); y == nil || y.side == x.side {
				return domain.Errorf(domain.ErrInvalid, "%s's strategy targets %s, which is not an enemy army in the battle at %s", x.a.Name, t, pr.b.Square)
			}
		}
		if st.Fought < 0 || math.IsNaN(st.Fought) || math.IsInf(st.Fought, 0) {
			return domain.Errorf(domain.ErrInvalid, "how much %s fought must be a number of 0 or more", x.a.Name)
		}
		x.strat = st
	}
	for s := range 2 {
		rep := &pr.p.Sides[s]
		sent := 0
		runs := true
		for _, x := range pr.sides[s] {
			if x.strat != nil {
				sent++
				runs = runs && x.strat.RunAway
			}
		}
		rep.Stratless = sent == 0
		rep.RunsAway = sent > 0 && runs
		for _, x := range pr.sides[s] {
			x.fights = sent == 0 || x.strat != nil
			if x.fights {
				rep.Fighting = append(rep.Fighting, x.a.Name)
			} else {
				pr.note("%s sent no strategy, so it does not take part; its partner fights alone (4.4)", x.a.Name)
			}
		}
	}
	return nil
}

func (pr *proposer) fightingArmies(s int) []*domain.Army {
	var out []*domain.Army
	for _, x := range pr.sides[s] {
		if x.fights {
			out = append(out, x.a)
		}
	}
	return out
}

func (pr *proposer) sideStats(s int, count func(x *army, i int) int) Stats {
	var xs []*army
	for _, x := range pr.sides[s] {
		if x.fights {
			xs = append(xs, x)
		}
	}
	armies := make([]*domain.Army, len(xs))
	for i, x := range xs {
		armies[i] = x.a
	}
	return stats(armies, func(a *domain.Army, i int) int {
		for _, x := range xs {
			if x.a == a {
				return count(x, i)
			}
		}
		return 0
	})
}

// bonuses works out each side's strategy (B2), size (B3) and colour (B4) bonuses.
func (pr *proposer) bonuses() error {
	sp := &pr.p.Sides
	for s := range 2 {
		sp[s].Stats = pr.sideStats(s, (*army).fighting)
		sp[s].ColorBonus = ColorBonus(pr.fightingArmies(s)...)
	}
	switch {
	case sp[0].Stratless != sp[1].Stratless:
		w := 0
		if sp[0].Stratless {
			w = 1
		}
		sp[w].StrategyBonus = 10
		if pr.j.Bonus != 0 && (pr.j.Bonus != 10 || pr.sideOf(pr.j.BonusTo) != w) {
			pr.note("%s sent no strategy, so %s gets the full strategy bonus of 10 (4.2.1); the judge's bonus is not used", joinNames(sp[1-w].Armies), joinNames(sp[w].Armies))
		}
	case pr.j.Bonus < 0 || pr.j.Bonus > 10:
		return domain.Errorf(domain.ErrInvalid, "the strategy bonus must be 0–10 (4.2.1), not %d", pr.j.Bonus)
	case pr.j.Bonus > 0:
		s := pr.sideOf(pr.j.BonusTo)
		if s < 0 {
			return domain.Errorf(domain.ErrInvalid, "the strategy bonus goes to %q, which is not an army in the battle at %s", pr.j.BonusTo, pr.b.Square)
		}
		sp[s].StrategyBonus = pr.j.Bonus
	}
	larger := -1
	switch c := cmp.Or(cmp.Compare(sp[0].Stats.Strength, sp[1].Stats.Strength), cmp.Compare(sp[0].Stats.Troops, sp[1].Stats.Troops)); c {
	case 1:
		larger = 0
	case -1:
		larger = 1
	}
	if larger >= 0 {
		v, err := pr.fs.Size(SizeEnv{Larger: sp[larger].Stats, Smaller: sp[1-larger].Stats})
		if err != nil {
			return err
		}
		sp[larger].SizeBonus = v
	}
	for s := range 2 {
		sp[s].Bonus = sp[s].StrategyBonus + sp[s].SizeBonus + sp[s].ColorBonus
	}
	return nil
}

func (pr *proposer) sideOf(name string) int {
	if x := pr.find(name); x != nil {
		return x.side
	}
	return -1
}

// fight rolls the dice (B5) and names the winner.
func (pr *proposer) fight() error {
	var ds [2]DiceSide
	for s := range 2 {
		sp := &pr.p.Sides[s]
		ds[s] = DiceSide{Key: SideKey(sp.Armies), Bonus: sp.Bonus, Stratless: sp.Stratless, RunsAway: sp.RunsAway}
	}
	pr.p.Dice = RollDice(pr.rec, pr.b.Square, ds, pr.rules)
	if w := pr.p.Dice.Winner; w >= 0 {
		pr.p.Result.Winner = pr.p.Sides[w].Fighting[0]
	}
	return nil
}

// finish writes the losses into the result.
func (pr *proposer) finish() {
	p := pr.p
	for _, x := range pr.armies {
		for i, n := range x.lost {
			if n == 0 {
				continue
			}
			if p.Result.Losses == nil {
				p.Result.Losses = map[string]map[string]int{}
			}
			if p.Result.Losses[x.a.Name] == nil {
				p.Result.Losses[x.a.Name] = map[string]int{}
			}
			p.Result.Losses[x.a.Name][x.a.Troops[i].Creature] += n
		}
	}
	if w := p.Dice.Winner; w >= 0 && pr.j.Leaves != nil {
		if len(pr.sides[w]) == 2 {
			p.Result.Leaves = pr.j.Leaves
		} else {
			pr.note("%s's strategy names an army to leave, but only a winning side of two armies sends one away (4.4)", pr.j.Leaves.Army)
		}
	}
	p.Rolls = pr.rec.Rolls
	for _, f := range pr.fs.All() {
		p.Formulas = append(p.Formulas, f.String())
	}
}

// ColorBonus is the colour bonus of the armies fighting as one side (B4, 4.2.3): 1 when every
// living creature shares a colour of Magic, or every living creature is an artifact (has no
// colour of Magic), else 0. Dead creatures do not count; a side with nothing alive gets none.
func ColorBonus(armies ...*domain.Army) int {
	const all = 1<<5 - 1
	shared, alive, artifacts := all, false, true
	for _, a := range armies {
		for i := range a.Troops {
			t := &a.Troops[i]
			if t.Alive <= 0 {
				continue
			}
			alive = true
			mask := colorMask(t.Colors)
			if mask != 0 {
				artifacts = false
			}
			shared &= mask
		}
	}
	if alive && (artifacts || shared != 0) {
		return 1
	}
	return 0
}

func colorMask(cs []domain.Color) int {
	m := 0
	for _, c := range cs {
		if c == domain.FiveColor {
			m |= 1<<5 - 1
		}
		for i, mc := range domain.MagicColors {
			if c == mc {
				m |= 1 << i
			}
		}
	}
	return m
}
