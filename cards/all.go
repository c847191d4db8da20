// The every-card catalogue: the shipped data of every Magic card (not only creatures) that
// deck lists are checked against, loaded only when a deck is checked, and the judges'
// corrections of any card put over it.

package cards

import (
	"bytes"
	_ "embed"
	"fmt"
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

//go:embed data/mtg-cards.json.gz
var shippedAll []byte

// LoadAll reads the every-card data shipped inside the program (cards/data/mtg-cards.json.gz):
// about 31,000 cards with their rules text and faces. It takes a few hundred milliseconds and
// tens of megabytes, so the server loads it on the first deck check, never at start-up; the
// troop lists use Load, the creatures alone.
func LoadAll() (*Catalogue, error) {
	cs, err := ReadCards(bytes.NewReader(shippedAll))
	if err != nil {
		return nil, fmt.Errorf("shipped every-card data: %w", err)
	}
	return New(cs), nil
}

// Find is the whole card a deck-list name stands for: the card of that name, or the card one
// of whose faces has it ("Delver of Secrets" is Delver of Secrets // Insectile Aberration),
// with every face. face is the index of the face named, or -1 for the whole card's name. The
// card is shared: it must not be modified.
func (c *Catalogue) Find(name string) (card *Card, face int, ok bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	e, r, ok := c.locate(Key(name))
	if !ok {
		return nil, -1, false
	}
	return &e.cards[r.card], int(r.face), true
}

// Has reports whether name is a card's name or a face's name, as Find looks it up.
func (c *Catalogue) Has(name string) bool {
	_, _, ok := c.Find(name)
	return ok
}

// PutAny adds any card (a land, a spell, a creature) or replaces the card of the same name over
// the every-card data: a judge's correction, as Put is for the creatures.
func (c *Catalogue) PutAny(card Card) error { return c.put(card, ValidateAny) }

// ValidateAny reports what is wrong with a card of any kind a judge wants to put: it needs a
// name, a card type and W/U/B/R/G colour letters, and a creature a readable power and
// toughness too.
func ValidateAny(card *Card) error {
	if card.IsCreature() {
		return Validate(card)
	}
	if Key(card.Name) == "" {
		return domain.Errorf(domain.ErrInvalid, "a card needs a name with letters or digits")
	}
	if len(card.Types) == 0 {
		return domain.Errorf(domain.ErrInvalid, "%s has no card type: give its types (Instant, Land, Artifact…)", card.Name)
	}
	if i := slices.IndexFunc(card.Colors, func(l string) bool { return !validLetter(l) }); i >= 0 {
		return domain.Errorf(domain.ErrInvalid, "%s: %q is not a colour; write W, U, B, R or G", card.Name, card.Colors[i])
	}
	return nil
}

// Texts are the rules texts of every face of the card, front first (the card's own text when
// it has a single face).
func (c *Card) Texts() []string {
	if len(c.Faces) == 0 {
		if c.Text == nil {
			return nil
		}
		return []string{*c.Text}
	}
	out := make([]string, len(c.Faces))
	for i := range c.Faces {
		out[i] = c.Faces[i].Text
	}
	if out[0] == "" && c.Text != nil {
		out[0] = *c.Text
	}
	return out
}

// Fork is a catalogue over the same base cards with a copy of the cards judges put: what is
// put into one afterwards is not in the other. The base is shared, not copied, so a server
// keeps one copy of the every-card data however many catalogues carry corrections over it.
func (c *Catalogue) Fork() *Catalogue {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return &Catalogue{base: c.base, over: newEntries(slices.Clone(c.over.cards))}
}
