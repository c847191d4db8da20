package cards

import (
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// Card is one creature card as the catalogue keeps it. Its JSON form is the one of the shipped
// data (cards/data/README.md), so a judge's correction and an imported catalogue serialise the
// same way.
type Card struct {
	Name string `json:"name"`
	// Colors are W, U, B, R, G letters; empty for a colourless card.
	Colors        []string `json:"colors"`
	ColorIdentity []string `json:"colorIdentity,omitempty"`
	ManaCost      string   `json:"manaCost,omitempty"`
	Supertypes    []string `json:"supertypes,omitempty"`
	// Types are the card types; an artifact creature has "Artifact" here.
	Types    []string `json:"types"`
	Subtypes []string `json:"subtypes,omitempty"`
	// Power and Toughness are as printed: "3", "*", "1+*", "0", ".5".
	Power     string `json:"power,omitempty"`
	Toughness string `json:"toughness,omitempty"`
	Layout    string `json:"layout,omitempty"`
	// Faces are the faces of a multi-faced card, front first.
	Faces []Face `json:"faces,omitempty"`
	// OldLegend is set when the card was printed with the old "Legend" creature type (2.2.1).
	OldLegend bool `json:"oldLegendSubtype,omitempty"`
	// Funny marks Un-set and other silver-bordered cards, which 2.2.1 allows.
	Funny bool `json:"isFunny,omitempty"`
	// DigitalOnly marks a card the data knows only from digital products.
	DigitalOnly bool `json:"digitalOnly,omitempty"`
	// Reach lists the sizes other than the printed one the card can take in an army (2.2.3.2,
	// 2.2.3.3, 2.2.4, 2.2.6); a judge records it with Put for a card the built-in table lacks.
	Reach *Reach `json:"reach,omitempty"`
	// Text is the card's rules text when the catalogue was read from data that has it (an
	// MTGJSON import, a judge's correction); "" is a card with no abilities, nil is unknown
	// (the shipped data has no text).
	Text *string `json:"text,omitempty"`
	// Of is the whole card's name when this card is one face of a multi-faced card.
	Of string `json:"of,omitempty"`

	// The fields below come with the every-card data (cards/data/mtg-cards.json.gz, LoadAll),
	// where Text is the front face's text and each face has its own.

	// Type is the front face's type line ("Legendary Creature — Human Cleric").
	Type    string `json:"type,omitempty"`
	Loyalty string `json:"loyalty,omitempty"`
	// Keywords are MTGJSON's keyword abilities of the card ("Changeling", "Flying").
	Keywords []string `json:"keywords,omitempty"`
	// Reserved marks a card on the Reserved List.
	Reserved bool `json:"isReserved,omitempty"`
	// FirstPrinted and FirstSet are the earliest release date (YYYY-MM-DD) and set code seen.
	FirstPrinted string `json:"firstPrinted,omitempty"`
	FirstSet     string `json:"firstSet,omitempty"`
	// Printings are the set codes of the card's printings, when the data knows them (an
	// MTGJSON import); the shipped data knows only FirstSet.
	Printings []string `json:"printings,omitempty"`
	// Aliases are older names of the card.
	Aliases []string `json:"aliases,omitempty"`
}

// Face is one face of a multi-faced card (transform, modal, flip, adventure, meld).
type Face struct {
	Name       string   `json:"name"`
	ManaCost   string   `json:"manaCost,omitempty"`
	Colors     []string `json:"colors,omitempty"`
	Type       string   `json:"type,omitempty"`
	Supertypes []string `json:"supertypes,omitempty"`
	Types      []string `json:"types,omitempty"`
	Subtypes   []string `json:"subtypes,omitempty"`
	Power      string   `json:"power,omitempty"`
	Toughness  string   `json:"toughness,omitempty"`
	// Text and Loyalty are given by the every-card data.
	Text    string `json:"text,omitempty"`
	Loyalty string `json:"loyalty,omitempty"`
}

// IsCreature reports whether the card (or one of its faces) is a creature.
func (c *Card) IsCreature() bool {
	if slices.Contains(c.Types, "Creature") {
		return true
	}
	for i := range c.Faces {
		if slices.Contains(c.Faces[i].Types, "Creature") {
			return true
		}
	}
	return false
}

// IsArtifact reports whether the card is an artifact.
func (c *Card) IsArtifact() bool { return slices.Contains(c.Types, "Artifact") }

// IsLegendary reports whether the card is a legend: the Legendary supertype or the old Legend
// creature type (2.1).
func (c *Card) IsLegendary() bool {
	return c.OldLegend || slices.Contains(c.Supertypes, "Legendary") || slices.Contains(c.Subtypes, "Legend")
}

// HasSubtype reports whether the card has creature type t ("Sliver").
func (c *Card) HasSubtype(t string) bool { return slices.Contains(c.Subtypes, t) }

// Printed reads the card's printed power and toughness.
func (c *Card) Printed() (power, toughness Stat) {
	p, err := ParseStat(c.Power)
	if err != nil {
		p = Stat{Text: c.Power, Kind: Unknown}
	}
	t, err := ParseStat(c.Toughness)
	if err != nil {
		t = Stat{Text: c.Toughness, Kind: Unknown}
	}
	return p, t
}

// PrintedSize is the card's printed size when both power and toughness are whole numbers.
func (c *Card) PrintedSize() (domain.Size, bool) {
	p, t := c.Printed()
	if p.Kind != Fixed || t.Kind != Fixed {
		return domain.Size{}, false
	}
	return domain.Size{Power: p.Min, Toughness: t.Min}, true
}

var letterColors = map[string]domain.Color{"W": domain.White, "U": domain.Blue, "B": domain.Black, "R": domain.Red, "G": domain.Green}

// TroopColors are the card's colours as a troop's colour words, in W U B R G order, with
// "artifact" added for an artifact creature (the scenario format's reading).
func (c *Card) TroopColors() []domain.Color {
	var out []domain.Color
	for _, l := range []string{"W", "U", "B", "R", "G"} {
		if slices.Contains(c.Colors, l) {
			out = append(out, letterColors[l])
		}
	}
	if c.IsArtifact() {
		out = append(out, domain.Artifact)
	}
	return out
}

// face is the card seen through its face i: the face's name, colours, types and size, and the
// whole card's flags.
func (c *Card) face(i int) Card {
	f := &c.Faces[i]
	out := *c
	out.Name = f.Name
	out.Of = c.Name
	out.Faces = nil
	if f.Colors != nil {
		out.Colors = f.Colors
	}
	out.ManaCost = f.ManaCost
	out.Supertypes = f.Supertypes
	out.Types = f.Types
	out.Subtypes = f.Subtypes
	out.Power, out.Toughness = f.Power, f.Toughness
	out.Type, out.Loyalty = f.Type, f.Loyalty
	return out
}

// validLetter reports whether s is one of the W U B R G colour letters.
func validLetter(s string) bool {
	_, ok := letterColors[s]
	return ok
}
