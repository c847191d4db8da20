// Coalition's deck rules (coalition-format.md, "Deck format" and "Deck Restrictions"; the
// draft's 906; F1–F9): sizes, the hero, copies, no legendary but the hero, no companion or
// partner, typal identity, the banned list.

package format

import (
	"fmt"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/deck"
)

// judgeCoalition checks a deck by Coalition's rules, as far as the revision has each clause.
func judgeCoalition(c *check) {
	c.sizes()
	c.copies()
	if c.rev.NoCompanionPartner {
		c.companionPartner()
	}
	c.banned()
	c.heroRules(func(h *deck.Entry) ([]deck.Problem, []string) {
		var ps []deck.Problem
		if c.rev.NoLegendary {
			ps = c.legendary(h)
		}
		more, types := c.typal(h)
		return append(ps, more...), types
	})
}

// heroCard reports whether a card may be a hero (906.3a, F2): a legendary creature on its
// front face, or a legendary card whose text makes it a creature outside the battlefield
// (Grist, the Hunger Tide, by the page's own example).
func heroCard(card *cards.Card) bool {
	return card.IsLegendary() && creatureCard(card)
}

// heroRules is rule hero (F2): the hero is a sideboard card that may be a hero; with several,
// the one that leaves the fewest problems by the rules that depend on it (the first in the
// list on a tie). With none, only hero is reported (F5).
func (c *check) heroRules(byHero func(h *deck.Entry) ([]deck.Problem, []string)) {
	var best []deck.Problem
	found := false
	seen := map[*cards.Card]bool{}
	for i := range c.deck.Side {
		h := &c.deck.Side[i]
		if !heroCard(h.Card) || seen[h.Card] {
			continue
		}
		seen[h.Card] = true
		ps, types := byHero(h)
		if !found || len(ps) < len(best) {
			found, best, c.hero, c.types = true, ps, h, types
		}
	}
	if !found {
		msg := "the sideboard has no legendary creature to be the hero"
		for i := range c.deck.Main {
			if heroCard(c.deck.Main[i].Card) {
				msg += fmt.Sprintf("; %s is in the main deck, but the hero starts in the sideboard", c.deck.Main[i].Card.Name)
				break
			}
		}
		c.problems = append(c.problems, c.problem("hero", nil, "%s", msg))
		return
	}
	c.problems = append(c.problems, best...)
}

// legendary is rule legendary (F5): no legendary card but the hero in the 70, either face
// counting; a second copy of the hero is refused too.
func (c *check) legendary(h *deck.Entry) []deck.Problem {
	var ps []deck.Problem
	for i := range c.entries {
		e := &c.entries[i]
		switch {
		case !legendary(e.Card):
		case e.Card != h.Card:
			ps = append(ps, c.problem("legendary", e, "%s is legendary and is not the hero (%s)", e.Card.Name, h.Card.Name))
		case e.Number != h.Number:
			ps = append(ps, c.problem("legendary", e, "%s is the hero: the deck holds no other copy of it", e.Card.Name))
		case e.Count > 1:
			ps = append(ps, c.problem("legendary", e, "%d copies of the hero %s: the deck holds it once", e.Count, e.Card.Name))
		}
	}
	return ps
}

// companionPartner is rules companion and partner (F5): the Companion keyword, and Partner,
// "Partner with", "Partner—" or a partner variant, on any card.
func (c *check) companionPartner() {
	for i := range c.entries {
		e := &c.entries[i]
		if lineStarts(e.Card, "Companion —", "Companion—") != "" {
			c.problems = append(c.problems, c.problem("companion", e, "%s has companion", e.Card.Name))
		}
		if w := lineStarts(e.Card, "Partner", "Friends forever", "Choose a Background", "Doctor's companion"); w != "" {
			c.problems = append(c.problems, c.problem("partner", e, "%s has %s", e.Card.Name, strings.ToLower(w[:1])+w[1:]))
		}
	}
}

// typal is rules typal.hero and typal (906.4, 906.6e, F7): the deck chooses one type printed
// on its hero — any type for a changeling hero, Human only where the revision allows — and
// every card with a typal identity, other than a changeling, must have it. It returns the
// problems for the type that fits the most cards (the first by name on a tie) and every type
// that fits them all.
func (c *check) typal(h *deck.Entry) ([]deck.Problem, []string) {
	hid := c.identity(h.Card)
	choices := hid.Types
	if hid.Changeling {
		choices = c.cat.Types().Names()
	}
	if !c.rev.HumanAllowed {
		choices = slices.DeleteFunc(slices.Clone(choices), func(t string) bool { return t == "Human" })
	}
	if len(choices) == 0 {
		why := "no creature type"
		if slices.Contains(hid.Types, "Human") {
			why = "no creature type but Human, which the deck may not choose"
		}
		return []deck.Problem{c.problem("typal.hero", h, "the hero %s has %s: the deck has no type to choose", h.Card.Name, why)}, nil
	}
	var fit []string
	best, bestMiss := "", -1
	for _, t := range choices {
		miss := 0
		for i := range c.entries {
			if id := c.identity(c.entries[i].Card); !id.None() && !id.Has(t) {
				miss++
			}
		}
		if miss == 0 {
			fit = append(fit, t)
		}
		if bestMiss < 0 || miss < bestMiss || miss == bestMiss && t < best {
			best, bestMiss = t, miss
		}
	}
	if len(fit) > 0 {
		return nil, fit
	}
	var ps []deck.Problem
	for i := range c.entries {
		e := &c.entries[i]
		if id := c.identity(e.Card); !id.None() && !id.Has(best) {
			ps = append(ps, c.problem("typal", e, "%s has the typal identity %s, not %s, the type of the hero %s that fits the most cards (the hero's types: %s)",
				e.Card.Name, strings.Join(id.Types, ", "), best, h.Card.Name, typeList(choices)))
		}
	}
	return ps, nil
}

// typeList writes a list of types, shortened when it is every type.
func typeList(types []string) string {
	if len(types) > 12 {
		return fmt.Sprintf("every creature type, %d of them", len(types))
	}
	return strings.Join(types, ", ")
}
