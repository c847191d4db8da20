// Rules B5 and B6: the dice of a battle, rolled from the turn's seed so that anyone can roll them
// again.

package battle

import (
	"slices"
	"strconv"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// Roll is one published die of a turn (B6): the label it was drawn with, how many faces the
// die has, and what it showed. Value is Draws.Intn(Label, Die) + 1, from 1 to Die.
type Roll struct {
	Label string `json:"label"`
	// Die is the number of faces; 0 (left out of JSON) means a d20.
	Die   int `json:"die,omitempty"`
	Value int `json:"value"`
}

// Faces is the number of faces of the roll's die: Die, or 20 when Die is 0.
func (r Roll) Faces() int {
	if r.Die == 0 {
		return 20
	}
	return r.Die
}

// Derive re-rolls the die from a turn's draws: what the roll must show if it was made honestly.
func (r Roll) Derive(d *domain.Draws) int { return d.Intn(r.Label, r.Faces()) + 1 }

// String prints the roll as "label = value (dN)".
func (r Roll) String() string {
	return r.Label + " = " + strconv.Itoa(r.Value) + " (d" + strconv.Itoa(r.Faces()) + ")"
}

// Recorder draws dice from a turn's draws and keeps every roll it made, in order, for
// publication after the lock (B6).
type Recorder struct {
	Draws *domain.Draws
	Rolls []Roll
}

// NewRecorder starts recording the rolls drawn from d.
func NewRecorder(d *domain.Draws) *Recorder { return &Recorder{Draws: d} }

// Roll rolls a die of the given number of faces for the draw named label: 1 to faces.
func (r *Recorder) Roll(label string, faces int) int {
	v := r.Draws.Intn(label, faces) + 1
	die := faces
	if die == 20 {
		die = 0
	}
	r.Rolls = append(r.Rolls, Roll{Label: label, Die: die, Value: v})
	return v
}

// D20 rolls a twenty-sided die for the draw named label.
func (r *Recorder) D20(label string) int { return r.Roll(label, 20) }

// SideKey names one side of a battle in dice labels: the names of the side's armies in the
// battle, sorted byte by byte and joined with "+" ("Darkhand+Sai Rei"). A 2-army side rolls as
// one (B10), under this key, whichever of its armies fight.
func SideKey(armies []string) string {
	s := slices.Clone(armies)
	slices.Sort(s)
	return strings.Join(s, "+")
}

// DiceLabel is the label of die i (1–4) of a side's set in the battle on square sq (B5):
// "dice:<square>:<side>:<i>" for the first set, and "dice:<square>:<side>:r<k>:<i>" for the
// k-th fresh set rolled after a level result (k = 1, 2 …).
func DiceLabel(sq domain.Square, side string, set, i int) string {
	var b strings.Builder
	b.WriteString("dice:")
	b.WriteString(sq.String())
	b.WriteByte(':')
	b.WriteString(side)
	b.WriteByte(':')
	if set > 0 {
		b.WriteByte('r')
		b.WriteString(strconv.Itoa(set))
		b.WriteByte(':')
	}
	b.WriteString(strconv.Itoa(i))
	return b.String()
}

// AttemptLabel is the label of one die of the pair rolled for a kill (4.3.3) or capture (4.5)
// attempt in the battle on square sq: "kill-roll:<square>:<army>" or
// "capture-roll:<square>:<army>", once for the attacking army and once for its target.
func AttemptLabel(kind string, sq domain.Square, army string) string {
	return kind + "-roll:" + sq.String() + ":" + army
}

// RiskLabel is the label of the d20 that decides how many of the troops an army risked on a
// failed kill or capture die (4.3.3): "risk:<square>:<army>".
func RiskLabel(sq domain.Square, army string) string {
	return "risk:" + sq.String() + ":" + army
}

// Hand is the four d20 one side rolls in a set (B5), unmodified.
type Hand [4]int

// Tally is how a set of rolls scores (B5): each side's roll i plus its bonus is matched against
// the other side's roll i plus its bonus; a pair tie scores for nobody.
type Tally struct {
	// Pairs is how many of the four pairs each side won.
	Pairs [2]int `json:"pairs"`
	// Sums are each side's four rolls plus four times its bonus.
	Sums [2]int `json:"sums"`
}

// Score scores one set of rolls of two sides with their bonuses (B5).
func Score(hands [2]Hand, bonus [2]int) Tally {
	var t Tally
	for i := range 4 {
		a, b := hands[0][i]+bonus[0], hands[1][i]+bonus[1]
		t.Sums[0] += a
		t.Sums[1] += b
		switch {
		case a > b:
			t.Pairs[0]++
		case b > a:
			t.Pairs[1]++
		}
	}
	return t
}

// Leader is the side (0 or 1) ahead in the tally: more pairs won, else, when sumDecides, the
// higher sum of modified rolls. It is -1 when the result is level.
func (t Tally) Leader(sumDecides bool) int {
	switch {
	case t.Pairs[0] > t.Pairs[1]:
		return 0
	case t.Pairs[1] > t.Pairs[0]:
		return 1
	case !sumDecides:
		return -1
	case t.Sums[0] > t.Sums[1]:
		return 0
	case t.Sums[1] > t.Sums[0]:
		return 1
	}
	return -1
}

// DiceRules are the campaign's settings for a level result (B5, configurable).
type DiceRules struct {
	// SumDecides gives a level result on pairs to the higher sum of modified rolls.
	SumDecides bool `json:"sum_decides"`
	// FreshRolls is how many fresh sets of rolls may follow while the result stays level; when
	// they run out, nobody wins and the battle goes on next turn (B2).
	FreshRolls int `json:"fresh_rolls"`
}

// DefaultDiceRules are B5's defaults: a level result goes to the higher sum, then to fresh sets
// of rolls, at most 10 of them (11 level sets running happen less than once in 10^12 battles).
var DefaultDiceRules = DiceRules{SumDecides: true, FreshRolls: 10}

// DiceSide is one side of a battle as the dice see it.
type DiceSide struct {
	// Key names the side in the dice labels (SideKey).
	Key string `json:"key"`
	// Bonus is added to each of the side's rolls: strategy, size and colour bonuses (B2–B4).
	Bonus int `json:"bonus"`
	// Stratless sides lose whatever the dice say, but still roll: the rolls feed the
	// casualties (4.2.4).
	Stratless bool `json:"stratless,omitempty"`
	// RunsAway sides leave the field and so lose, but still roll (4.2.6).
	RunsAway bool `json:"runs_away,omitempty"`
}

func (s DiceSide) forfeits() bool { return s.Stratless || s.RunsAway }

// Set is one set of four rolls per side and how it scored.
type Set struct {
	Hands [2]Hand `json:"hands"`
	Tally
}

// How a battle's winner was decided.
const (
	ByPairs     = "pairs"        // more pairs won in the first set (B5)
	BySum       = "sum"          // level on pairs; the higher sum of modified rolls (B5)
	ByFresh     = "fresh rolls"  // level in the first set; decided by a fresh set (B5)
	ByStratless = "stratless"    // the other side sent no strategy (4.2.4)
	ByRunAway   = "runs away"    // the other side ran away (4.2.6)
	ByForfeit   = "both forfeit" // both sides stratless or running: nobody wins (B2)
	ByLevel     = "level"        // level after every set allowed: nobody wins (B2)
)

// Dice are the rolls of one battle and the side they favour (B5).
type Dice struct {
	Sides [2]DiceSide `json:"sides"`
	// Sets are the first set of rolls, then any fresh sets rolled after level results.
	Sets []Set `json:"sets"`
	// Winner is the winning side, 0 or 1, or -1 when nobody won.
	Winner int `json:"winner"`
	// DecidedBy says how: one of the By… constants.
	DecidedBy string `json:"decided_by"`
}

// First is the battle's first set of rolls, which feeds the casualties formula.
func (d *Dice) First() Set { return d.Sets[0] }

// RollDice rolls the dice of the battle on square sq between two sides (B5): four d20 each,
// matched pair by pair with each side's bonus; a level result goes to the sums, then to fresh
// sets, as the rules say. A side that is stratless or runs away loses but rolls all the same;
// when both do, nobody wins (B2). Every die is recorded in rec.
func RollDice(rec *Recorder, sq domain.Square, sides [2]DiceSide, rules DiceRules) Dice {
	d := Dice{Sides: sides, Winner: -1}
	roll := func(set int) Set {
		var s Set
		for side := range 2 {
			for i := range 4 {
				s.Hands[side][i] = rec.D20(DiceLabel(sq, sides[side].Key, set, i+1))
			}
		}
		s.Tally = Score(s.Hands, [2]int{sides[0].Bonus, sides[1].Bonus})
		return s
	}
	first := roll(0)
	d.Sets = append(d.Sets, first)
	f0, f1 := sides[0].forfeits(), sides[1].forfeits()
	switch {
	case f0 && f1:
		d.DecidedBy = ByForfeit
		return d
	case f0 || f1:
		loser := 0
		if f1 {
			loser = 1
		}
		d.Winner = 1 - loser
		d.DecidedBy = ByRunAway
		if sides[loser].Stratless {
			d.DecidedBy = ByStratless
		}
		return d
	}
	if w := first.Pairs; w[0] != w[1] {
		d.Winner, d.DecidedBy = first.Leader(false), ByPairs
		return d
	}
	if w := first.Leader(rules.SumDecides); w >= 0 {
		d.Winner, d.DecidedBy = w, BySum
		return d
	}
	for k := 1; k <= rules.FreshRolls; k++ {
		s := roll(k)
		d.Sets = append(d.Sets, s)
		if w := s.Leader(rules.SumDecides); w >= 0 {
			d.Winner, d.DecidedBy = w, ByFresh
			return d
		}
	}
	d.DecidedBy = ByLevel
	return d
}
