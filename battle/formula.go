// Rules B3, B7, 4.3.3 and 4.5: the battle judges' formulas for the size bonus, casualties, kills,
// captures and risked troops.

package battle

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"

	"github.com/coalition-wargame/coalition/domain"
)

// Formula is one of the battle judges' secret formulas (B3, B7, 4.3.3, 4.5): an expression in
// the expr language (https://expr-lang.org) that a battle judge may edit, kept with a name and
// a version so that every proposal says which version it used. Formulas are for battle judges
// only: the server must never show one, or a value only a formula gives, to a player.
type Formula struct {
	// Name is one of FormulaSize, FormulaCasualties, FormulaKill, FormulaCapture, FormulaRisk.
	Name    string `json:"name"`
	Version int    `json:"version"`
	Text    string `json:"text"`
}

// String names the formula and its version: "size v2".
func (f Formula) String() string { return fmt.Sprintf("%s v%d", f.Name, f.Version) }

// The formulas of a battle.
const (
	// FormulaSize gives the larger side its size bonus, 0–10 (B3, 4.2.2); variables SizeEnv.
	FormulaSize = "size"
	// FormulaCasualties gives the troops one side loses in the battle (B7, 4.2.5); variables
	// CasualtyEnv.
	FormulaCasualties = "casualties"
	// FormulaKill decides a kill attempt: it succeeds when the value is above 0 (4.3.3);
	// variables KillEnv.
	FormulaKill = "kill"
	// FormulaCapture decides a capture attempt like FormulaKill (4.5); variables CaptureEnv.
	FormulaCapture = "capture"
	// FormulaRisk gives how many of the risked troops die when an attempt fails or the battle
	// is lost (4.3.3); variables RiskEnv.
	FormulaRisk = "risk"
)

// FormulaNames are the names of every formula, in the order a battle uses them.
var FormulaNames = []string{FormulaSize, FormulaCasualties, FormulaKill, FormulaCapture, FormulaRisk}

// Stats are the troops one side (or one army) brings to a battle, as a formula sees them.
// Troops risked on a kill or capture attempt are left out: they do not fight (4.3.3).
type Stats struct {
	// Troops is the number of living troops.
	Troops int `expr:"troops" json:"troops"`
	// Strength is the sum over living troops of power + toughness.
	Strength int `expr:"strength" json:"strength"`
	// Slot1 … Slot4 are the living troops of each slot (1 = smallest creatures, 4 = largest).
	Slot1 int `expr:"slot1" json:"slot1"`
	Slot2 int `expr:"slot2" json:"slot2"`
	Slot3 int `expr:"slot3" json:"slot3"`
	Slot4 int `expr:"slot4" json:"slot4"`
	// Top is the living troops of the highest slot that has any (the largest creatures).
	Top int `expr:"top" json:"top"`
	// Rank is the army's rank: 1 General/Chief Praetor … 6 Lieutenant/Centurion; for two
	// armies, the higher one (the smaller number).
	Rank int `expr:"rank" json:"rank"`
	// Armies is how many armies fight on the side: 1 or 2 (4.4).
	Armies int `expr:"armies" json:"armies"`
}

// SizeEnv are the variables of the size formula (B3). The larger side is the one with the
// greater strength, then the more troops; when the sides are equal the formula is not used and
// nobody gets a size bonus. The value is rounded and kept within 0–10.
type SizeEnv struct {
	Larger  Stats `expr:"larger"`
	Smaller Stats `expr:"smaller"`
}

// Fighter is one side of a battle as the casualties formula sees it.
type Fighter struct {
	Stats
	// Bonus is the side's total bonus on each die (B2–B4).
	Bonus int `expr:"bonus" json:"bonus"`
	// Pairs is how many pairs of the first set of rolls the side won (B5).
	Pairs int `expr:"pairs" json:"pairs"`
	// Sum is the side's four first rolls plus four times its bonus.
	Sum int `expr:"sum" json:"sum"`
	// Stratless is set when the side sent no strategy (4.2.4).
	Stratless bool `expr:"stratless" json:"stratless"`
	// Runs is set when the side runs away (4.2.6).
	Runs bool `expr:"runs" json:"runs"`
}

// CasualtyEnv are the variables of the casualties formula (B7), evaluated once for each side:
// me is the side whose losses are computed. The value is rounded and kept within 0 and
// me.troops; it is then shared between the side's armies and spread over their creatures.
type CasualtyEnv struct {
	Me    Fighter `expr:"me"`
	Enemy Fighter `expr:"enemy"`
	// Won, Lost and Level say how the battle went for me; Level means nobody won.
	Won   bool `expr:"won"`
	Lost  bool `expr:"lost"`
	Level bool `expr:"level"`
	// Armies is the number of armies fighting, both sides together: 3 or 4 in a multiple-army
	// battle (4.4).
	Armies int `expr:"armies"`
}

// KillEnv are the variables of the kill formula (4.3.3); an attempt succeeds when the value is
// above 0.
type KillEnv struct {
	// Roll and EnemyRoll are the pair of d20 rolled for the attempt: the attacker's and the
	// target's.
	Roll      int `expr:"roll"`
	EnemyRoll int `expr:"enemy_roll"`
	// Me is the attacking army after the battle (its risked troops included: 4.3.4), Enemy
	// the target after the battle.
	Me    Stats `expr:"me"`
	Enemy Stats `expr:"enemy"`
	// Damage is the share of the target's fighting troops lost in this battle, 0–1.
	Damage float64 `expr:"damage"`
	// Pairs and EnemyPairs are the pairs of the first set won by the attacker's side and by
	// the target's.
	Pairs      int `expr:"pairs"`
	EnemyPairs int `expr:"enemy_pairs"`
}

// CaptureEnv are the variables of the capture formula (4.5): those of the kill formula, on the
// capture's own pair of dice, and the kill formula's value on them. A capture is always
// slightly worse than a kill: whatever the formula says, a value above kill − 1 counts as
// kill − 1.
type CaptureEnv struct {
	KillEnv
	Kill float64 `expr:"kill"`
}

// RiskEnv are the variables of the risk formula (4.3.3): how many of the risked troops die
// when an attempt fails or the battle is lost. The value is rounded and kept within 0 and
// risked.
type RiskEnv struct {
	// Risked is the number of troops risked: 500 for a kill, up to 2000 for a capture.
	Risked int `expr:"risked"`
	// Roll is a d20 rolled for the risk.
	Roll int `expr:"roll"`
	// Won is set when the attacker's side won the battle (the attempt then failed).
	Won bool `expr:"won"`
	// Capture is set for a capture attempt, clear for a kill.
	Capture bool `expr:"capture"`
	// Faction is the faction of the army that made the attempt: "raider", "theme" or
	// "town-defender" for a mercenary, empty for a team army. Whatever the formula says, a
	// raider's failed kill costs it nothing (6.3.2 Hellbent, Hellbent).
	Faction string `expr:"faction"`
}

var formulaEnvs = map[string]any{
	FormulaSize:       SizeEnv{},
	FormulaCasualties: CasualtyEnv{},
	FormulaKill:       KillEnv{},
	FormulaCapture:    CaptureEnv{},
	FormulaRisk:       RiskEnv{},
}

// DefaultFormulas are the formulas shipped with the server, version 1 (docs/RANDOMNESS.md
// lists the dice they read):
//
//   - size: 10 × (1 − smaller.strength / larger.strength): 0 for equal sides, 5 when the larger
//     side is twice as strong, 8 at five times, never above 10.
//   - casualties: a share of the smaller side's troops, min(me.troops, enemy.troops) × 0.4 (0.5
//     with three or four armies, 4.4), times the enemy's share of the two first-set sums, times
//     0.6 for the winner, 1.2 for the loser, 1 when nobody won; halved when the enemy was
//     stratless; nothing when the enemy ran away; halved when me ran away (4.2.6). So the winner
//     normally loses fewer, and both sides lose some.
//   - kill: roll − enemy_roll + 10 × damage, + 2 when the attacker has more troops in its top
//     slot than the target (4.3.4): heavy damage in the battle makes the kill easier (4.3.3).
//   - capture: kill − 2 (4.5).
//   - risk: every risked troop dies, except on a roll of 19 or 20 when the attacker won the
//     battle: the small chance of a failed kill that costs nothing (4.3.3).
func DefaultFormulas() []Formula {
	return []Formula{
		{Name: FormulaSize, Version: 1, Text: `10 * (1 - smaller.strength / larger.strength)`},
		{Name: FormulaCasualties, Version: 1, Text: `let fight = min(me.troops, enemy.troops) * (armies > 2 ? 0.5 : 0.4);
let share = enemy.sum / (me.sum + enemy.sum);
let outcome = won ? 0.6 : (lost ? 1.2 : 1.0);
let dealt = enemy.runs ? 0 : (enemy.stratless ? 0.5 : 1.0);
let taken = me.runs ? 0.5 : 1.0;
fight * share * outcome * dealt * taken`},
		{Name: FormulaKill, Version: 1, Text: `roll - enemy_roll + 10 * damage + (me.top > enemy.top ? 2 : 0)`},
		{Name: FormulaCapture, Version: 1, Text: `kill - 2`},
		{Name: FormulaRisk, Version: 1, Text: `won && roll >= 19 ? 0 : risked`},
	}
}

// Formulas is a compiled set of the five formulas, safe to share between goroutines.
type Formulas struct {
	defs  map[string]Formula
	progs map[string]*vm.Program
}

// CompileFormulas compiles a set of formulas; a formula left out is the default one. A name
// that is not a formula's, a name given twice, a version below 1, or a text that does not
// compile is an error that says which formula and why.
func CompileFormulas(fs []Formula) (*Formulas, error) {
	out := &Formulas{defs: map[string]Formula{}, progs: map[string]*vm.Program{}}
	for _, f := range fs {
		if _, ok := out.defs[f.Name]; ok {
			return nil, domain.Errorf(domain.ErrInvalid, "the %s formula is given twice", f.Name)
		}
		p, err := compileFormula(f)
		if err != nil {
			return nil, err
		}
		out.defs[f.Name], out.progs[f.Name] = f, p
	}
	for _, f := range DefaultFormulas() {
		if _, ok := out.defs[f.Name]; ok {
			continue
		}
		p, err := compileFormula(f)
		if err != nil {
			panic(err) // the defaults are tested to compile
		}
		out.defs[f.Name], out.progs[f.Name] = f, p
	}
	return out, nil
}

var defaultFormulas = sync.OnceValue(func() *Formulas {
	f, err := CompileFormulas(nil)
	if err != nil {
		panic(err)
	}
	return f
})

// Defaults is the compiled set of DefaultFormulas.
func Defaults() *Formulas { return defaultFormulas() }

// CheckFormula reports whether a battle judge's formula compiles, with a message that says
// what is wrong and which variables the formula may use.
func CheckFormula(f Formula) error {
	_, err := compileFormula(f)
	return err
}

func compileFormula(f Formula) (*vm.Program, error) {
	env, ok := formulaEnvs[f.Name]
	if !ok {
		return nil, domain.Errorf(domain.ErrInvalid, "%q is not a battle formula: the formulas are %s", f.Name, strings.Join(FormulaNames, ", "))
	}
	if f.Version < 1 {
		return nil, domain.Errorf(domain.ErrInvalid, "the %s formula needs a version number of 1 or more", f.Name)
	}
	if strings.TrimSpace(f.Text) == "" {
		return nil, domain.Errorf(domain.ErrInvalid, "the %s formula is empty", f)
	}
	p, err := expr.Compile(f.Text, expr.Env(env), expr.AsFloat64())
	if err != nil {
		return nil, domain.Errorf(domain.ErrInvalid, "the %s formula does not compile: %v\nit gives a number and may use: %s", f, err, strings.Join(FormulaVariables(f.Name), ", "))
	}
	return p, nil
}

// FormulaVariables lists the variables the named formula may use ("larger.troops" …).
func FormulaVariables(name string) []string {
	env, ok := formulaEnvs[name]
	if !ok {
		return nil
	}
	var out []string
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for i := range t.NumField() {
			fl := t.Field(i)
			if fl.Anonymous {
				walk(fl.Type, prefix)
				continue
			}
			tag := fl.Tag.Get("expr")
			if fl.Type.Kind() == reflect.Struct {
				walk(fl.Type, prefix+tag+".")
				continue
			}
			out = append(out, prefix+tag)
		}
	}
	walk(reflect.TypeOf(env), "")
	return out
}

// Formula returns the formula of the set with the given name.
func (fs *Formulas) Formula(name string) Formula { return fs.defs[name] }

// All returns the set's formulas in FormulaNames order.
func (fs *Formulas) All() []Formula {
	out := make([]Formula, 0, len(FormulaNames))
	for _, n := range FormulaNames {
		out = append(out, fs.defs[n])
	}
	return out
}

// eval runs the named formula on env. An error means the formula failed at run time (a
// remainder by zero, a result that is not a number).
func (fs *Formulas) eval(name string, env any) (float64, error) {
	v, err := expr.Run(fs.progs[name], env)
	if err != nil {
		return 0, domain.Errorf(domain.ErrInvalid, "the %s formula failed: %v", fs.defs[name], err)
	}
	x, ok := v.(float64)
	if !ok || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, domain.Errorf(domain.ErrInvalid, "the %s formula gave %v, not a number", fs.defs[name], v)
	}
	return x, nil
}

// Size is the size bonus the formula gives the larger side, rounded and kept within 0–10.
func (fs *Formulas) Size(env SizeEnv) (int, error) {
	v, err := fs.eval(FormulaSize, env)
	return clampRound(v, 0, 10), err
}

// Casualties is the number of troops side me loses, rounded and kept within 0 and me.troops.
func (fs *Formulas) Casualties(env CasualtyEnv) (int, error) {
	v, err := fs.eval(FormulaCasualties, env)
	return clampRound(v, 0, env.Me.Troops), err
}

// Kill is the kill formula's value; the kill succeeds when it is above 0.
func (fs *Formulas) Kill(env KillEnv) (float64, error) { return fs.eval(FormulaKill, env) }

// Capture is the capture formula's value, never above the kill formula's value − 1 on the same
// dice (4.5); the capture succeeds when it is above 0.
func (fs *Formulas) Capture(env KillEnv) (float64, error) {
	k, err := fs.Kill(env)
	if err != nil {
		return 0, err
	}
	v, err := fs.eval(FormulaCapture, CaptureEnv{KillEnv: env, Kill: k})
	return min(v, k-1), err
}

// Risk is the number of risked troops that die, rounded and kept within 0 and env.Risked.
func (fs *Formulas) Risk(env RiskEnv) (int, error) {
	v, err := fs.eval(FormulaRisk, env)
	return clampRound(v, 0, env.Risked), err
}

func clampRound(v float64, lo, hi int) int {
	r := math.Round(v)
	switch {
	case r < float64(lo):
		return lo
	case r > float64(hi):
		return hi
	}
	return int(r)
}

// stats describes troops as the formulas see them.
func stats(armies []*domain.Army, fighting func(a *domain.Army, i int) int) Stats {
	var s Stats
	s.Armies = len(armies)
	var bySlot [domain.Slots + 1]int
	for _, a := range armies {
		if s.Rank == 0 || int(a.Rank) < s.Rank {
			s.Rank = int(a.Rank)
		}
		for i, t := range a.Troops {
			n := fighting(a, i)
			if n <= 0 || t.Slot < 1 || t.Slot > domain.Slots {
				continue
			}
			s.Troops += n
			s.Strength += n * (t.Size.Power + t.Size.Toughness)
			bySlot[t.Slot] += n
		}
	}
	s.Slot1, s.Slot2, s.Slot3, s.Slot4 = bySlot[1], bySlot[2], bySlot[3], bySlot[4]
	for sl := domain.Slots; sl >= 1; sl-- {
		if bySlot[sl] > 0 {
			s.Top = bySlot[sl]
			break
		}
	}
	return s
}
