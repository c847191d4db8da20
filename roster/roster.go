// Package roster checks troop lists against the army-building rules (2.1–2.2, 2.3.2, 2.3.3,
// 2.5.2, 2.6) using the card catalogue: slot sizes and counts by rank, at most six creatures,
// one legend, colours, banned cards and the sizes a creature can really have. Every problem
// is listed at once, each naming the creature and the rule; problems are data, not errors.
// The package is pure: it imports the domain, the catalogue and the standard library.
package roster

import (
	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/domain"
)

// Entry is one line of a troop list, as a player sends it.
type Entry struct {
	// Creature is the card's name as the player writes it; case, punctuation and accents do
	// not matter.
	Creature string `json:"creature"`
	// Size is the size chosen, "P/T"; empty means the printed size.
	Size string `json:"size,omitempty"`
	// Slot is 1–4 (1 holds the 5000 smallest creatures, 4 the 1000 largest); 0 puts the
	// creature in the first slot that fits it and has room.
	Slot int `json:"slot,omitempty"`
	// Count is how many troops of the creature the slot holds at full strength.
	Count int `json:"count,omitempty"`
	// Dead is how many of Count are dead: a customised army is not healed (2.6).
	Dead int `json:"dead,omitempty"`
	// Legend marks the army's one legend (2.1); its size, slot and count are not used.
	Legend bool `json:"legend,omitempty"`
}

// List is a troop list: one entry per creature, and at most one legend.
type List []Entry

// Army is what the check needs to know of the army a list is for.
type Army struct {
	Name string      `json:"name"`
	Side domain.Side `json:"side"`
	Rank domain.Rank `json:"rank"`
	// Colors are a Coalition army's factions, fixed for the round (2.2.1.1); a proxy army's
	// are any 3 chosen for it.
	Colors []domain.Color `json:"colors,omitempty"`
	// Legends are the legends other armies hold, each with the name of the army holding it:
	// no legend may be in two armies at once (2.1).
	Legends map[string]string `json:"legends,omitempty"`
}

// ArmyOf is the check's view of an army on the map.
func ArmyOf(a *domain.Army) Army {
	return Army{Name: a.Name, Side: a.Side, Rank: a.Rank, Colors: a.Colors}
}

// Code names the kind of a problem.
type Code string

// The problem and warning codes.
const (
	CodeNoArmy             Code = "no_army"                       // the rank holds no army (1.1)
	CodeBadColor           Code = "bad_color"                     // not a colour word
	CodeNoColors           Code = "no_colors"                     // a Coalition army without colours (2.5.2.2)
	CodeTooManyColors      Code = "too_many_colors"               // more than 3 colours (1.1.2, 2.2.1.1)
	CodeBadEntry           Code = "bad_entry"                     // a line with no creature name
	CodeUnknownCreature    Code = "unknown_creature"              // no card of that name
	CodeBadCount           Code = "bad_count"                     // count below 1, or dead not within it
	CodeBadSize            Code = "bad_size"                      // not written P/T
	CodeSizeNeeded         Code = "size_needed"                   // a variable creature with no size chosen
	CodeSizeNotPrinted     Code = "size_not_printed"              // a size the printed card cannot have
	CodeSizeUnreachable    Code = "size_unreachable"              // outside the sizes the card can reach
	CodeSizeUnproven       Code = "size_unproven"                 // warning: the data cannot prove the size
	CodeHalfPoints         Code = "half_points"                   // warning: an Un-set half point rounded up
	CodeBadSlot            Code = "bad_slot"                      // slot not 1–4
	CodeTooBig             Code = "too_big"                       // too big for its slot (2.1.x)
	CodeSlotFull           Code = "slot_full"                     // more troops than the slot holds (2.1.x)
	CodeNoSlot             Code = "no_slot"                       // no slot fits it with room
	CodeTooManyCreatures   Code = "too_many_creatures"            // more than 6 creatures (2.1)
	CodeDuplicate          Code = "duplicate_creature"            // listed twice at one size
	CodeTwoSizes           Code = "two_sizes"                     // a variable creature at two sizes (2.2.2)
	CodeColor              Code = "color_not_allowed"             // outside the army's colours (2.2.1)
	CodeColorlessCreature  Code = "colorless_creature"            // warning: colourless, not an artifact
	CodeBanned             Code = "banned"                        // Greater Morphling, Summoner's Egg
	CodeOldLegend          Code = "old_legend"                    // old Legend type outside the legend place (2.2.1)
	CodeDigitalOnly        Code = "digital_only"                  // warning: never printed on paper (2.2.1)
	CodeImprint            Code = "imprint"                       // warning: Duplicant's imprint is named now
	CodeTwoLegends         Code = "two_legends"                   // more than one legend (2.1)
	CodeNotLegend          Code = "not_legend"                    // the legend is not legendary (2.1)
	CodeLegendTaken        Code = "legend_taken"                  // the legend is in another army (2.1)
	CodeDestroyedBaseColor Code = "destroyed_base_color"          // a new creature of a destroyed base's colour (2.3.2)
	CodeRankTooHigh        Code = "rank_too_high"                 // customising above Lt Cmdr/CPL (2.6)
	CodeAliveChanged       Code = "alive_changed"                 // customising changed the troops alive (2.6)
	CodeTransferNoRoom     Code = Code(domain.CodeTransferNoRoom) // no room, or troops the sender lacks (2.3.3, T2)
)

// Problem is one thing wrong with a troop list (or, among warnings, one thing a judge should
// confirm): the rule, a code, the creature concerned and a message in plain words.
type Problem struct {
	Rule     string `json:"rule"`
	Code     Code   `json:"code"`
	Creature string `json:"creature,omitempty"`
	Message  string `json:"message"`
}

// Report is the outcome of a check.
type Report struct {
	// Problems make the list illegal; all of them are listed.
	Problems []Problem `json:"problems"`
	// Warnings are accepted, for the judge to confirm: sizes the card data cannot prove,
	// digital-only cards.
	Warnings []Problem `json:"warnings"`
	// Troops are the list's creatures as map troops — canonical names, sizes, colours and
	// slots resolved — for the entries that could be resolved; the whole army when OK.
	Troops []domain.Troop `json:"troops"`
	// Legend is the army's legend, by its canonical name.
	Legend string `json:"legend,omitempty"`
}

// OK reports whether the list has no problems (warnings aside).
func (r *Report) OK() bool { return len(r.Problems) == 0 }

func newReport() Report {
	return Report{Problems: []Problem{}, Warnings: []Problem{}, Troops: []domain.Troop{}}
}

func (r *Report) problem(rule string, code Code, creature, message string) {
	r.Problems = append(r.Problems, Problem{Rule: rule, Code: code, Creature: creature, Message: message})
}

func (r *Report) warn(rule string, code Code, creature, message string) {
	r.Warnings = append(r.Warnings, Problem{Rule: rule, Code: code, Creature: creature, Message: message})
}

// Cards is what the checks need of the card catalogue; *cards.Catalogue is one.
type Cards interface {
	Lookup(name string) (cards.Card, bool)
	Suggest(name string, n int) []string
}

var _ Cards = (*cards.Catalogue)(nil)
