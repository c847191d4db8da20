// Package format holds the card formats whose decks the server checks — Coalition, Heroic and
// Manahearth (../shared/formats) — as versioned data (deck sizes, copy limits, banned lists,
// the clauses each revision has: data/formats.json) and one rule function per rule, each
// problem named by its rule id (F9) and citing the revision's text. Check judges a deck list
// against a revision; the package is pure: the catalogue and the list in, a verdict out.
package format

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/deck"
)

// Formats is a document of formats and banned lists: the shipped one (Shipped) or one an
// admin edited.
type Formats struct {
	Banlists []Banlist `json:"banlists"`
	Formats  []Format  `json:"formats"`
}

// Format is a card format and its published revisions.
type Format struct {
	// Name is how a check names it: "coalition", "heroic", "manahearth".
	Name string `json:"name"`
	// System is the set of rules its revisions are judged by (systems).
	System string `json:"system"`
	Title  string `json:"title"`
	// Default is the revision a check uses when it names none.
	Default   string     `json:"default"`
	Revisions []Revision `json:"revisions"`
}

// Revision is one published version of a format's deck rules (F1–F6).
type Revision struct {
	Name   string `json:"name"`
	Source string `json:"source"`
	// Main and Side are the exact sizes of the main deck and of the sideboard, the hero
	// included (F1).
	Main int `json:"main"`
	Side int `json:"side"`
	// HumanAllowed lets the deck choose Human as its type.
	HumanAllowed bool `json:"humanAllowed,omitempty"`
	// NoLegendary refuses a legendary card other than the hero (F5).
	NoLegendary bool `json:"noLegendary,omitempty"`
	// NoCompanionPartner refuses Companion and Partner and its variants (F5).
	NoCompanionPartner bool   `json:"noCompanionPartner,omitempty"`
	Copies             Copies `json:"copies"`
	// Banned is the id of the revision's banned list.
	Banned string `json:"banned"`
	// Subformats are the narrower formats of the revision, each a set filter (Manahearth's
	// rule 3.4: "Standard Manahearth…").
	Subformats []Subformat `json:"subformats,omitempty"`
	// Cite is what each rule id cites of the revision's text, for the messages.
	Cite map[string]string `json:"cite"`
}

// Copies are the copy limits of a revision (F3, F4): 0 is no limit.
type Copies struct {
	// Any limits every card, basic lands included (Manahearth).
	Any          int `json:"any,omitempty"`
	Creature     int `json:"creature,omitempty"`
	NonbasicLand int `json:"nonbasicLand,omitempty"`
	Other        int `json:"other,omitempty"`
	// BasicUnlimited lifts every limit from basic lands.
	BasicUnlimited bool `json:"basicUnlimited,omitempty"`
	// Legendary limits a legendary card (copies.legendary).
	Legendary int `json:"legendary,omitempty"`
}

// Subformat is a narrower format: only cards printed in its sets are allowed.
type Subformat struct {
	Name  string   `json:"name"`
	Title string   `json:"title,omitempty"`
	Sets  []string `json:"sets"`
}

// Verdict is what a check says of a deck; its JSON form is the one of `coalition deck check
// --json` and POST /api/decks/check.
type Verdict struct {
	Legal bool `json:"legal"`
	// Hero is the hero's name, "" when the format has none or none could be named.
	Hero string `json:"hero"`
	// Types are the creature types the deck may choose: the hero's types (Human only where
	// the revision allows it) that every card with a typal identity shares. Empty when no
	// type fits every card (the typal problems say which type they were judged against).
	Types    []string       `json:"types"`
	Problems []deck.Problem `json:"problems"`
	// Format and Revision name what the deck was checked against (not in the JSON form,
	// whose shape the issue fixes).
	Format   string `json:"-"`
	Revision string `json:"-"`
}

// ErrUnknown is a format, revision or sub-format no document has.
var ErrUnknown = errors.New("unknown format")

// Find returns the revision of the format named: the format's default when rev is "".
func (fs *Formats) Find(name, rev string) (*Format, *Revision, error) {
	i := slices.IndexFunc(fs.Formats, func(f Format) bool { return strings.EqualFold(f.Name, name) })
	if i < 0 {
		return nil, nil, fmt.Errorf("%w %q: the formats are %s", ErrUnknown, name, strings.Join(fs.Names(), ", "))
	}
	f := &fs.Formats[i]
	rev = cmp.Or(rev, f.Default)
	j := slices.IndexFunc(f.Revisions, func(r Revision) bool { return r.Name == rev })
	if j < 0 {
		var names []string
		for _, r := range f.Revisions {
			names = append(names, r.Name)
		}
		return nil, nil, fmt.Errorf("%w: %s has no revision %q; its revisions are %s", ErrUnknown, f.Name, rev, strings.Join(names, ", "))
	}
	return f, &f.Revisions[j], nil
}

// Names lists the formats' names.
func (fs *Formats) Names() []string {
	var out []string
	for _, f := range fs.Formats {
		out = append(out, f.Name)
	}
	return out
}

// Banlist returns the banned list of that id.
func (fs *Formats) Banlist(id string) (*Banlist, bool) {
	i := slices.IndexFunc(fs.Banlists, func(b Banlist) bool { return b.ID == id })
	if i < 0 {
		return nil, false
	}
	return &fs.Banlists[i], true
}

// Request is what to check a deck list against.
type Request struct {
	Format   string `json:"format"`
	Revision string `json:"revision,omitempty"`
	// Subformat narrows the revision to a set filter (Manahearth); "" for none.
	Subformat string `json:"subformat,omitempty"`
	List      string `json:"list"`
}

// Check judges a deck list against a format's revision. An error is bad input: an unknown
// format, revision or sub-format (ErrUnknown), or a text with no card line (deck.ErrUnreadable).
// Everything wrong with a readable deck is a problem of the verdict.
func (fs *Formats) Check(cat *deck.Catalogue, req Request) (Verdict, error) {
	f, rev, err := fs.Find(req.Format, req.Revision)
	if err != nil {
		return Verdict{}, err
	}
	sys, ok := systems[f.System]
	if !ok {
		return Verdict{}, fmt.Errorf("%w: %s is judged by the rules of %q, which this program does not know", ErrUnknown, f.Name, f.System)
	}
	c := &check{cat: cat, rev: rev, ids: map[*cards.Card]deck.Identity{}}
	if req.Subformat != "" {
		i := slices.IndexFunc(rev.Subformats, func(s Subformat) bool { return strings.EqualFold(s.Name, req.Subformat) })
		if i < 0 {
			return Verdict{}, fmt.Errorf("%w: %s %s has no sub-format %q", ErrUnknown, f.Name, rev.Name, req.Subformat)
		}
		c.sub = &rev.Subformats[i]
	}
	if b, ok := fs.Banlist(rev.Banned); ok {
		c.ban = newBans(b)
	} else if rev.Banned != "" {
		return Verdict{}, fmt.Errorf("%w: %s %s names the banned list %q, which the document lacks", ErrUnknown, f.Name, rev.Name, rev.Banned)
	}
	list, err := deck.Parse(req.List)
	if err != nil {
		return Verdict{}, err
	}
	c.problems = append(c.problems, list.Problems...)
	c.deck = cat.Resolve(list)
	c.entries = c.deck.Entries()
	c.unknown(list)
	sys.judge(c)
	slices.SortStableFunc(c.problems, func(a, b deck.Problem) int { return cmp.Compare(a.Line, b.Line) })
	v := Verdict{Legal: len(c.problems) == 0, Types: c.types, Problems: c.problems, Format: f.Name, Revision: rev.Name}
	if c.hero != nil {
		v.Hero = c.hero.Card.Name
	}
	if v.Types == nil {
		v.Types = []string{}
	}
	if v.Problems == nil {
		v.Problems = []deck.Problem{}
	}
	return v, nil
}
