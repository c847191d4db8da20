// The rules every system shares: unknown cards (F8), deck sizes (F1, F4), copy limits (F3,
// F4) and banned lists (F6).

package format

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/deck"
)

// check is one deck being judged.
type check struct {
	cat      *deck.Catalogue
	rev      *Revision
	sub      *Subformat
	ban      *bans
	deck     deck.Deck
	entries  []deck.Entry
	problems []deck.Problem
	// hero and types are what the hero rules found (Coalition, Heroic).
	hero  *deck.Entry
	types []string
	ids   map[*cards.Card]deck.Identity
}

// system is the rules a format's revisions are judged by.
type system struct {
	judge func(*check)
}

var systems = map[string]system{
	"coalition":  {judge: judgeCoalition},
	"heroic":     {judge: judgeHeroic},
	"manahearth": {judge: judgeManahearth},
}

// problem words a problem of rule id about an entry (nil: the deck as a whole), citing the
// revision's text.
func (c *check) problem(rule string, e *deck.Entry, format string, args ...any) deck.Problem {
	p := deck.Problem{Rule: rule, Message: fmt.Sprintf(format, args...)}
	if e != nil {
		p.Line, p.Card = e.Number, e.Card.Name
	}
	cite := c.rev.Cite[rule]
	if cite == "" {
		cite = c.rev.Cite[strings.Split(rule, ".")[0]]
	}
	if cite != "" {
		p.Message += " (" + cite + ")"
	}
	return p
}

// identity is an entry's typal identity, worked out once a check.
func (c *check) identity(card *cards.Card) deck.Identity {
	id, ok := c.ids[card]
	if !ok {
		id = c.cat.Identity(card)
		c.ids[card] = id
	}
	return id
}

// unknown reports the lines whose name no card has (F8): a name of the banned list is
// "banned" (the list names cards the data lacks, such as Nadu, Winged Wisdom), any other
// "unknown-card" with the nearest names.
func (c *check) unknown(l deck.List) {
	for _, line := range c.deck.Unknown {
		if c.ban != nil && c.ban.names[cards.Key(line.Name)] {
			p := c.problem("banned", nil, "%s is on the banned list", line.Name)
			p.Line, p.Card = line.Number, line.Name
			c.problems = append(c.problems, p)
			continue
		}
		c.problems = append(c.problems, c.cat.Unknown(line))
	}
}

// sizes is rule size.main and size.sideboard (F1, F4): the exact counts of the revision,
// every card line counted, known or not, the hero in the sideboard.
func (c *check) sizes() {
	main, side := deck.Size(c.deck.Main), deck.Size(c.deck.Side)
	for _, l := range c.deck.Unknown {
		if l.Sideboard {
			side += l.Count
		} else {
			main += l.Count
		}
	}
	if main != c.rev.Main {
		c.problems = append(c.problems, c.problem("size.main", nil, "the main deck has %d cards; it must have exactly %d", main, c.rev.Main))
	}
	if side != c.rev.Side {
		if c.rev.Side == 0 {
			c.problems = append(c.problems, c.problem("size.sideboard", nil, "the list has a sideboard of %d cards; the format has none", side))
		} else {
			c.problems = append(c.problems, c.problem("size.sideboard", nil, "the sideboard has %d cards; it must have exactly %d, the hero included", side, c.rev.Side))
		}
	}
}

// ownLimit finds a card's own word on how many copies a deck may have (F3): "A deck can have
// any number of cards named…", "…up to seven cards named…", "…only one card named…".
var ownLimit = regexp.MustCompile(`[Aa] deck can have (any number of|up to (\w+)|only one) cards? named`)

var numbers = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "twenty": 20}

// cardLimit is what the card's own text says of its copies: -1 for any number, 0 when it says
// nothing.
func cardLimit(card *cards.Card) int {
	for _, text := range card.Texts() {
		if !strings.Contains(text, "deck can have") {
			continue
		}
		m := ownLimit.FindStringSubmatch(text)
		switch {
		case m == nil:
		case m[1] == "any number of":
			return -1
		case m[1] == "only one":
			return 1
		default:
			return numbers[strings.ToLower(m[2])]
		}
	}
	return 0
}

// limit is a card's copy limit (0: none) and the kind of card it counts as: its front face's
// kind (F3), unless its own text says otherwise.
func (c *check) limit(card *cards.Card) (int, string) {
	cp := c.rev.Copies
	if own := cardLimit(card); own != 0 {
		if own < 0 {
			return 0, "any number, by its own text"
		}
		return own, "its own text"
	}
	basic := slices.Contains(card.Supertypes, "Basic")
	switch {
	case basic && cp.BasicUnlimited:
		return 0, "a basic land"
	case cp.Any > 0:
		return cp.Any, "any card"
	case creatureCard(card):
		return cp.Creature, "a creature"
	case slices.Contains(card.Types, "Land") && !basic:
		return cp.NonbasicLand, "a nonbasic land"
	}
	return cp.Other, "a non-creature, non-land card"
}

// creatureCard reports whether a card is a creature card in the deck: its front face is a
// creature, or its text makes it one outside the battlefield (Grist, the Hunger Tide; F2).
func creatureCard(card *cards.Card) bool {
	return slices.Contains(card.Types, "Creature") || slices.Contains(card.Types, "Summon") || creatureOffField(card)
}

// offField finds text that makes a card a creature while it is not on the battlefield.
var offField = regexp.MustCompile(`isn't on the battlefield, it's an? [^.]*\bcreature\b`)

func creatureOffField(card *cards.Card) bool {
	for _, text := range card.Texts() {
		if strings.Contains(text, "isn't on the battlefield") && offField.MatchString(text) {
			return true
		}
	}
	return false
}

// legendary reports whether any face of the card is legendary (F5), or it was printed with
// the old Legend type.
func legendary(card *cards.Card) bool {
	return card.IsLegendary() || onFace(card, "Legendary", func(*cards.Card) []string { return nil }, func(f *cards.Face) []string { return f.Supertypes })
}

// copies is rule copies (F3, F4): copies of a card are counted over main deck and sideboard;
// the problem stands on the line where the count passes the limit. With a legendary limit
// (Manahearth), a legendary card over it is copies.legendary.
func (c *check) copies() {
	seen := map[*cards.Card]int{}
	reported := map[*cards.Card]bool{}
	total := map[*cards.Card]int{}
	for _, e := range c.entries {
		total[e.Card] += e.Count
	}
	for i := range c.entries {
		e := &c.entries[i]
		seen[e.Card] += e.Count
		if reported[e.Card] {
			continue
		}
		limit, kind := c.limit(e.Card)
		rule := "copies"
		if l := c.rev.Copies.Legendary; l > 0 && legendary(e.Card) && (limit == 0 || l < limit) {
			limit, kind, rule = l, "a legendary card", "copies.legendary"
		}
		if limit > 0 && seen[e.Card] > limit {
			reported[e.Card] = true
			c.problems = append(c.problems, c.problem(rule, e, "%d copies of %s in the deck; %s may have %d", total[e.Card], e.Card.Name, kind, limit))
		}
	}
}

// bans is a banned list ready to check cards against.
type bans struct {
	list      *Banlist
	names     map[string]bool
	offensive map[string]bool
}

func newBans(b *Banlist) *bans {
	out := &bans{list: b, names: map[string]bool{}, offensive: map[string]bool{}}
	for _, n := range b.Names {
		out.names[cards.Key(n)] = true
	}
	for _, n := range b.Offensive {
		out.offensive[cards.Key(n)] = true
	}
	return out
}

// named reports whether the card's name, or one of its faces', is in the set of keys.
func named(set map[string]bool, card *cards.Card) bool {
	if set[cards.Key(card.Name)] {
		return true
	}
	for i := range card.Faces {
		if set[cards.Key(card.Faces[i].Name)] {
			return true
		}
	}
	return false
}

// banned is rule banned and its categories (F6): one problem for each reason a line's card is
// banned.
func (c *check) banned() {
	if c.ban == nil {
		return
	}
	for i := range c.entries {
		e := &c.entries[i]
		if named(c.ban.names, e.Card) {
			c.problems = append(c.problems, c.problem("banned", e, "%s is on the banned list by name", e.Card.Name))
		}
		for _, cat := range c.ban.list.Categories {
			if why := categoryOf(cat, e.Card, c.ban); why != "" {
				c.problems = append(c.problems, c.problem("banned."+cat, e, "%s is banned: %s", e.Card.Name, why))
			}
		}
	}
}
