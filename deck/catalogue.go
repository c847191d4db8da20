// The every-card catalogue as deck checking uses it: the cards with the creature types learnt
// from them once.

package deck

import (
	"sync"

	"github.com/coalition-wargame/coalition/cards"
)

// Catalogue is the every-card catalogue (cards.LoadAll) with its list of creature types,
// learnt on first use. A judge's correction put into the cards afterwards is read by every
// check; a creature type it brings that no other card has is learnt when the catalogue is
// built again.
type Catalogue struct {
	Cards *cards.Catalogue
	types func() *Types
}

// Shipped is the every-card catalogue shipped in the program (cards.LoadAll), loaded on its
// first use, so that a server's start-up never pays for it.
var Shipped = sync.OnceValues(func() (*Catalogue, error) {
	c, err := cards.LoadAll()
	if err != nil {
		return nil, err
	}
	return NewCatalogue(c), nil
})

// NewCatalogue wraps an every-card catalogue.
func NewCatalogue(c *cards.Catalogue) *Catalogue {
	return &Catalogue{Cards: c, types: sync.OnceValue(func() *Types { return NewTypes(c.Cards()) })}
}

// Types is the catalogue's list of creature types.
func (c *Catalogue) Types() *Types { return c.types() }

// Identity is the typal identity of a card of the catalogue.
func (c *Catalogue) Identity(card *cards.Card) Identity {
	return c.types().Identity(card, c.Cards.Has)
}

// Corrected is the catalogue for cs, a fork of c's cards with the judges' corrections fixes
// put over it: it shares c's creature types when every type the corrections bring is one of
// them (a correction of a card's text, say), and learns them afresh from cs otherwise, so that
// a type only a correction prints is a type at once. A correction never takes a type off the
// list: it was learnt from the data, where other cards may print it (docs/FORMATS.md T14).
func (c *Catalogue) Corrected(cs *cards.Catalogue, fixes []cards.Card) *Catalogue {
	known := c.Types()
	for _, t := range NewTypes(fixes).Names() {
		if !known.Has(t) {
			return NewCatalogue(cs)
		}
	}
	return &Catalogue{Cards: cs, types: c.types}
}
