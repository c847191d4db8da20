// Finding a list's lines in the every-card catalogue, and the nearest names for the lines
// that name no card (F8).

package deck

import (
	"fmt"
	"strings"

	"github.com/coalition-wargame/coalition/cards"
)

// Entry is a line of the list and the card it names.
type Entry struct {
	Line
	// Card is the whole card, every face; it is the catalogue's and must not be modified.
	Card *cards.Card
	// Face is the index of the face the line named ("Delver of Secrets"), or -1 for the whole
	// card's name.
	Face int
}

// Deck is a list's lines found in the catalogue: the main deck, the sideboard, and the lines
// whose name no card has.
type Deck struct {
	Main, Side []Entry
	Unknown    []Line
}

// Entries are the main deck's entries and then the sideboard's.
func (d *Deck) Entries() []Entry {
	out := make([]Entry, 0, len(d.Main)+len(d.Side))
	return append(append(out, d.Main...), d.Side...)
}

// Size counts the cards of the entries.
func Size(es []Entry) int {
	n := 0
	for _, e := range es {
		n += e.Count
	}
	return n
}

// Resolve finds every line of the list in the catalogue: by the card's name or a face's,
// whatever the case, accents and apostrophes (F8).
func (c *Catalogue) Resolve(l List) Deck {
	var d Deck
	for _, line := range l.Lines {
		card, face, ok := c.Cards.Find(line.Name)
		switch {
		case !ok:
			d.Unknown = append(d.Unknown, line)
		case line.Sideboard:
			d.Side = append(d.Side, Entry{Line: line, Card: card, Face: face})
		default:
			d.Main = append(d.Main, Entry{Line: line, Card: card, Face: face})
		}
	}
	return d
}

// Suggestions is how many near names an unknown card's problem offers.
const Suggestions = 3

// Unknown is the "unknown-card" problem of a line whose name no card has, with the nearest
// real names.
func (c *Catalogue) Unknown(l Line) Problem {
	msg := fmt.Sprintf("no card is named %q", clip(l.Name))
	if near := c.Cards.Suggest(l.Name, Suggestions); len(near) > 0 {
		msg += "; the nearest names are " + orList(near)
	}
	return Problem{Rule: "unknown-card", Line: l.Number, Card: l.Name, Message: msg}
}

// orList writes names as "A", "A or B", "A, B or C".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
