package cards

import (
	"fmt"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// Reach is the set of sizes a creature may be given in an army when its rules text makes it
// differ from the printed size: kicker and threshold sizes (2.2.3.3), +1/+1 counters it can
// put on itself (2.2.3.2, 2.2.6), a sliver's own bonus (2.2.5), a copy card's free size
// (2.2.4). A Reach replaces the printed size: the printed size is allowed only if listed.
type Reach struct {
	// Sizes are sizes allowed as they stand (Werebear: 1/1 and 4/4).
	Sizes []domain.Size `json:"sizes,omitempty"`
	// From starts a ladder of +1/+1 counters: From, From+1/+1, From+2/+2 … (Flowstone
	// Sculpture: from 4/4).
	From *domain.Size `json:"from,omitempty"`
	// To ends the ladder; nil leaves it without end (Suntouched Myr: 1/1 to 3/3).
	To *domain.Size `json:"to,omitempty"`
	// Any allows every size (copy cards, 2.2.4).
	Any bool `json:"any,omitempty"`
	// Rule is the rule that allows the sizes ("2.2.3.3").
	Rule string `json:"rule,omitempty"`
	// Note says why, for the judge ("threshold: +3/+3").
	Note string `json:"note,omitempty"`
}

// Allows reports whether s is one of the reachable sizes.
func (r *Reach) Allows(s domain.Size) bool {
	if r.Any || slices.Contains(r.Sizes, s) {
		return true
	}
	if r.From == nil {
		return false
	}
	k := s.Power - r.From.Power
	if k < 0 || s.Toughness-r.From.Toughness != k {
		return false
	}
	return r.To == nil || (s.Power <= r.To.Power && s.Toughness <= r.To.Toughness)
}

// String lists the reachable sizes for people: "1/1 or 4/4", "4/4 and up by +1/+1 counters",
// "1/1 to 3/3", "any size".
func (r *Reach) String() string {
	if r.Any {
		return "any size"
	}
	var parts []string
	for _, s := range r.Sizes {
		parts = append(parts, s.String())
	}
	if r.From != nil {
		if r.To != nil {
			parts = append(parts, fmt.Sprintf("%s to %s", r.From, r.To))
		} else {
			parts = append(parts, fmt.Sprintf("%s and up by +1/+1 counters", r.From))
		}
	}
	switch len(parts) {
	case 0:
		return "no size"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// Validate reports what is wrong with a judge's reach, in plain words.
func (r *Reach) Validate() error {
	if r.From == nil && r.To != nil {
		return domain.Errorf(domain.ErrInvalid, "a reach with an end (to %s) needs a start (from)", r.To)
	}
	if r.From != nil && r.To != nil && (r.To.Power < r.From.Power || r.To.Toughness-r.From.Toughness != r.To.Power-r.From.Power) {
		return domain.Errorf(domain.ErrInvalid, "a ladder of +1/+1 counters from %s cannot end at %s", r.From, r.To)
	}
	if !r.Any && len(r.Sizes) == 0 && r.From == nil {
		return domain.Errorf(domain.ErrInvalid, "a reach must allow some size: give sizes, a ladder from a size, or any")
	}
	return nil
}

func sz(p, t int) domain.Size { return domain.Size{Power: p, Toughness: t} }

func ptr(s domain.Size) *domain.Size { return &s }

func exactly(rule, note string, sizes ...domain.Size) *Reach {
	return &Reach{Sizes: sizes, Rule: rule, Note: note}
}

func ladder(rule, note string, from domain.Size, to *domain.Size) *Reach {
	return &Reach{From: ptr(from), To: to, Rule: rule, Note: note}
}

func copyCard() *Reach {
	return &Reach{Any: true, Rule: "2.2.4", Note: "a copy card: used as */* at any one size, copying no abilities"}
}

// known is the built-in table of creatures whose army size differs from their printed size:
// the rulebook's own examples and common kicker, threshold, bloodthirst, sunburst, multikicker
// and sliver cards. The card data has no rules text, so a card missing here that has such an
// ability is accepted at another size only with a warning, until a judge records its Reach.
// Keys are card names as the catalogue spells them.
var known = map[string]*Reach{
	// Rulebook examples.
	"Werebear":            exactly("2.2.3.3", "threshold: +3/+3", sz(1, 1), sz(4, 4)),
	"Flowstone Sculpture": ladder("2.2.3.2", "an activated ability puts +1/+1 counters on it: any number when the army is made", sz(4, 4), nil),
	"Suntouched Myr":      ladder("2.2.6", "sunburst on a 3-mana 0/0: one to three +1/+1 counters", sz(1, 1), ptr(sz(3, 3))),
	"Skarrgan Firebird":   exactly("2.2.6", "bloodthirst 3: with or without the three counters, nothing between", sz(3, 3), sz(6, 6)),
	"Frozen Shade":        exactly("2.2.3.2", "its pump is an activated ability, which never changes power and toughness", sz(0, 1)),
	"Shivan Dragon":       exactly("2.2.3.2", "firebreathing is an activated ability, which never changes power and toughness", sz(5, 5)),
	"Winged Sliver":       exactly("2.2.5", "a sliver uses its printed size", sz(1, 1)),
	"Mnemonic Sliver":     exactly("2.2.5", "a sliver uses its printed size", sz(2, 2)),

	// Slivers that benefit from their own bonus (2.2.5).
	"Muscle Sliver":       exactly("2.2.5", "gets its own +1/+1", sz(2, 2)),
	"Sinew Sliver":        exactly("2.2.5", "gets its own +1/+1", sz(2, 2)),
	"Predatory Sliver":    exactly("2.2.5", "gets its own +1/+1", sz(2, 2)),
	"Might Sliver":        exactly("2.2.5", "gets its own +2/+2", sz(4, 4)),
	"Plated Sliver":       exactly("2.2.5", "gets its own +0/+1", sz(1, 2)),
	"Watcher Sliver":      exactly("2.2.5", "gets its own +0/+2", sz(2, 4)),
	"Blade Sliver":        exactly("2.2.5", "gets its own +1/+0", sz(3, 2)),
	"Bonesplitter Sliver": exactly("2.2.5", "gets its own +2/+0", sz(4, 2)),

	// Threshold (2.2.3.3).
	"Nimble Mongoose":   exactly("2.2.3.3", "threshold: +2/+2", sz(1, 1), sz(3, 3)),
	"Mystic Enforcer":   exactly("2.2.3.3", "threshold: +3/+3 and flying", sz(3, 3), sz(6, 6)),
	"Krosan Beast":      exactly("2.2.3.3", "threshold: +7/+7", sz(1, 1), sz(8, 8)),
	"Springing Tiger":   exactly("2.2.3.3", "threshold: +2/+2", sz(3, 3), sz(5, 5)),
	"Anurid Barkripper": exactly("2.2.3.3", "threshold: +2/+2", sz(2, 2), sz(4, 4)),

	// Kicker (2.2.3.3, 2.2.6).
	"Kavu Titan":      exactly("2.2.3.3", "kicked: three +1/+1 counters and trample", sz(2, 2), sz(5, 5)),
	"Kavu Primarch":   exactly("2.2.3.3", "kicked: four +1/+1 counters", sz(3, 3), sz(7, 7)),
	"Benalish Lancer": exactly("2.2.3.3", "kicked: two +1/+1 counters and first strike", sz(2, 2), sz(4, 4)),
	"Duskwalker":      exactly("2.2.3.3", "kicked: two +1/+1 counters and fear", sz(1, 1), sz(3, 3)),
	"Baloth Gorger":   exactly("2.2.3.3", "kicked: three +1/+1 counters", sz(4, 4), sz(7, 7)),

	// Multikicker: one +1/+1 counter per kick, any number of kicks (2.2.6).
	"Apex Hawks":       ladder("2.2.6", "multikicker: a +1/+1 counter per kick", sz(2, 2), nil),
	"Joraga Warcaller": ladder("2.2.6", "multikicker: a +1/+1 counter per kick", sz(1, 1), nil),
	"Gnarlid Pack":     ladder("2.2.6", "multikicker: a +1/+1 counter per kick", sz(2, 2), nil),

	// Bloodthirst (2.2.6).
	"Skarrgan Pit-Skulk":  exactly("2.2.6", "bloodthirst 1", sz(1, 1), sz(2, 2)),
	"Scab-Clan Mauler":    exactly("2.2.6", "bloodthirst 2", sz(1, 1), sz(3, 3)),
	"Gorehorn Minotaurs":  exactly("2.2.6", "bloodthirst 2", sz(3, 3), sz(5, 5)),
	"Ghor-Clan Savage":    exactly("2.2.6", "bloodthirst 3", sz(2, 3), sz(5, 6)),
	"Skarrgan Skybreaker": exactly("2.2.6", "bloodthirst 3", sz(3, 3), sz(6, 6)),

	// Sunburst on a 0/0: one counter per colour of mana spent, at least one to survive (2.2.6).
	"Etched Oracle":  ladder("2.2.6", "sunburst on a 4-mana 0/0: one to four +1/+1 counters", sz(1, 1), ptr(sz(4, 4))),
	"Skyreach Manta": ladder("2.2.6", "sunburst on a 5-mana 0/0: one to five +1/+1 counters", sz(1, 1), ptr(sz(5, 5))),

	// Activated abilities that put +1/+1 counters on the creature itself (2.2.3.2).
	"Arcbound Ravager": ladder("2.2.3.2", "modular 1 and an activated ability that adds +1/+1 counters", sz(1, 1), nil),
	"Walking Ballista": ladder("2.2.3.2", "enters with X counters and an activated ability adds more", sz(1, 1), nil),

	// Copy cards (2.2.4).
	"Clone":                copyCard(),
	"Vesuvan Doppelganger": copyCard(),
	"Vesuvan Shapeshifter": copyCard(),
	"Phantasmal Image":     copyCard(),
	"Phyrexian Metamorph":  copyCard(),
	"Evil Twin":            copyCard(),
	"Body Double":          copyCard(),
	"Mirror Image":         copyCard(),
	"Spark Double":         copyCard(),
	"Vizier of Many Faces": copyCard(),
	"Progenitor Mimic":     copyCard(),
	"Stunt Double":         copyCard(),
	"Sakashima's Student":  copyCard(),
	"Dack's Duplicate":     copyCard(),
	"Clever Impersonator":  copyCard(),
	"Altered Ego":          copyCard(),
}

// knownByKey is the table indexed by Key.
var knownByKey = func() map[string]*Reach {
	m := make(map[string]*Reach, len(known))
	for name, r := range known {
		m[Key(name)] = r
	}
	return m
}()

// KnownReach is the built-in table's entry for a card name, or nil.
func KnownReach(name string) *Reach { return knownByKey[Key(name)] }

// growth lists the wordings of rules text by which a creature can take another size when its
// army is made: kicker and threshold sizes (2.2.3.3) and +1/+1 counters it gets or can put on
// itself (2.2.3.2, 2.2.6: sunburst, bloodthirst, modular, graft, evolve, adapt, level up…).
// Everything else — activated pumps, conditions on the board — never changes the size
// (2.2.3.2, 2.2.3.4).
var growth = []struct{ word, say string }{
	{"kicker", "kicker"},
	{"kicked", "kicker"},
	{"threshold", "threshold"},
	{"+1/+1 counter", "+1/+1 counters"},
	{"level up", "level up"},
}

// Growth names what in a card's rules text can give it a size other than the printed one
// when its army is made (2.2.3.3, 2.2.6), or "" when nothing can.
func Growth(text string) string {
	t := strings.ToLower(text)
	for _, g := range growth {
		if strings.Contains(t, g.word) {
			return g.say
		}
	}
	return ""
}
