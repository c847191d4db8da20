// Manahearth's deck rules (manahearth.md rule 3 and rule 15; F4): 31 cards with a
// planeswalker, two of a name, one of a legendary name, the rule-15 names, and sub-formats as
// set filters.

package format

import (
	"cmp"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/cards"
)

// judgeManahearth checks a deck by Manahearth's rules.
func judgeManahearth(c *check) {
	c.sizes()
	c.planeswalker()
	c.copies()
	c.banned()
	if c.sub != nil {
		c.subformat()
	}
}

// planeswalker is rule planeswalker (rule 3.1, F4): at least one card whose front face is a
// planeswalker, for the Hero Zone.
func (c *check) planeswalker() {
	for _, e := range c.entries {
		if slices.Contains(e.Card.Types, "Planeswalker") {
			return
		}
	}
	c.problems = append(c.problems, c.problem("planeswalker", nil, "the deck has no planeswalker card for its Hero Zone"))
}

// subformat is rule subformat (rule 3.4): every card must have been printed in one of the
// sub-format's sets — any of its printings when the data knows them (an MTGJSON import), else
// its first printing (the shipped data).
func (c *check) subformat() {
	for i := range c.entries {
		e := &c.entries[i]
		if !printedIn(e.Card, c.sub.Sets) {
			c.problems = append(c.problems, c.problem("subformat", e, "%s was not printed in a set of %s", e.Card.Name, cmp.Or(c.sub.Title, c.sub.Name)))
		}
	}
}

// printedIn reports whether a printing of the card is in one of the sets.
func printedIn(card *cards.Card, sets []string) bool {
	printings := card.Printings
	if len(printings) == 0 && card.FirstSet != "" {
		printings = []string{card.FirstSet}
	}
	for _, p := range printings {
		if slices.ContainsFunc(sets, func(s string) bool { return strings.EqualFold(s, p) }) {
			return true
		}
	}
	return false
}
