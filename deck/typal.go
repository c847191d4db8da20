// Typal identity (906.4, the page's "Typal identity", F7): the creature types printed on a
// card, its type lines and rules text, every face.

package deck

import (
	"regexp"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/cards"
)

// Identity is a card's typal identity.
type Identity struct {
	// Types are the creature types printed on the card, sorted.
	Types []string `json:"types"`
	// Changeling is set when the card itself is every creature type (its own Changeling, or
	// text that makes it every creature type): it fits any chosen type.
	Changeling bool `json:"changeling,omitempty"`
}

// Has reports whether the identity holds type t; a changeling holds every type.
func (id Identity) Has(t string) bool {
	return id.Changeling || slices.Contains(id.Types, t)
}

// None reports whether the card has no typal identity: no deck restricts it.
func (id Identity) None() bool { return !id.Changeling && len(id.Types) == 0 }

// outlaws are the types the batch word "outlaw" stands for (700.12; the page's note).
var outlaws = []string{"Assassin", "Mercenary", "Pirate", "Rogue", "Warlock"}

// selfEvery finds text that makes the card itself every creature type (Mistform Ultimus),
// once the card's own name is "~".
var selfEvery = regexp.MustCompile(`(?:~|[Tt]his (?:card|creature|spell|permanent)) is every creature type`)

// Identity is the typal identity of a card (F7): the creature types on the type line of every
// face that is a creature, Kindred or Tribal, and every creature-type word in the rules text
// of every face — whole words, as Oracle capitalises them, plurals and possessives included,
// "outlaw" as its five types — with reminder text, "non-X" words, the card's own name and
// the names of other cards ("named …", "Partner with …", "meld them into …", "… Role") and
// of abilities ("Tail Spikes — …") left out. isName tells a card name of the catalogue, to know where such a name ends.
func (t *Types) Identity(c *cards.Card, isName func(string) bool) Identity {
	var id Identity
	own := ownNames(c)
	eachFace(c, func(types, subtypes []string, text string) {
		if typeFace(types) {
			for _, s := range subtypes {
				if t.Has(s) {
					id.Types = append(id.Types, s)
				}
			}
		}
		if text == "" {
			return
		}
		text = dropAbilityNames(stripReminder(replaceNames(text, own)))
		if changeling(text) {
			id.Changeling = true
		}
		id.Types = t.textTypes(text, isName, id.Types)
	})
	slices.Sort(id.Types)
	id.Types = slices.Compact(id.Types)
	return id
}

// ownNames are the names a card's text calls it by: the whole name, each face's, the short
// name before a comma ("Grist" for "Grist, the Hunger Tide") and an Alchemy card's paper name,
// longest first.
func ownNames(c *cards.Card) []string {
	names := []string{c.Name}
	for i := range c.Faces {
		names = append(names, c.Faces[i].Name)
	}
	for _, n := range names[:len(names):len(names)] {
		if short, _, ok := strings.Cut(n, ", "); ok {
			names = append(names, short)
		}
		if paper, ok := strings.CutPrefix(n, "A-"); ok {
			// An Alchemy card's text calls it by its paper name.
			names = append(names, paper)
		}
	}
	slices.SortFunc(names, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(names)
}

// changeling reports whether the text (reminder text gone, own name "~") gives the card
// itself every creature type: the keyword on a line of keywords, or "~ is every creature
// type". Giving changeling to other things ("a token with changeling") does not count.
func changeling(text string) bool {
	if !strings.Contains(text, "hangeling") && !strings.Contains(text, "every creature type") {
		return false
	}
	for _, line := range strings.Split(text, "\n") {
		for _, item := range strings.Split(line, ",") {
			if strings.EqualFold(strings.TrimRight(strings.TrimSpace(item), "."), "changeling") {
				return true
			}
		}
	}
	return selfEvery.MatchString(text)
}

// textTypes appends the creature types the text's words name.
func (t *Types) textTypes(text string, isName func(string) bool, out []string) []string {
	ws := words(text)
	for i := 0; i < len(ws); i++ {
		w := ws[i].text
		if n := nameAfter(text, ws, i, isName); n > 0 {
			i += n
			continue
		}
		if ws[i].capital() && roleName(text, ws, i) {
			continue
		}
		switch w {
		case "outlaw", "outlaws", "Outlaw", "Outlaws":
			out = append(out, outlaws...)
			continue
		}
		if two, ok := t.twoWord[w]; ok && i+1 < len(ws) && text[ws[i].end:ws[i+1].start] == " " {
			for _, n := range two {
				second := n[strings.IndexByte(n, ' ')+1:]
				if next := bare(ws[i+1].text); next == second || next == second+"s" {
					out = append(out, n)
					i++
				}
			}
		}
		out = append(out, t.forms[bare(w)]...)
	}
	return out
}

// bare is a word without its possessive ending: "Goblin's", "Goblins'" and "Elves’" give
// "Goblin", "Goblins" and "Elves".
func bare(w string) string {
	for _, end := range []string{"'s", "’s", "'", "’"} {
		if s, ok := strings.CutSuffix(w, end); ok {
			return s
		}
	}
	return w
}

// nameTriggers are the words after which the text names a card (F7).
var nameTriggers = [][]string{{"named"}, {"Partner", "with"}, {"meld", "them", "into"}}

// nameAfter is how many words from ws[i] on are a trigger and the card name it introduces,
// or 0: the longest run of up to twelve words the catalogue knows as a name, else the run of
// capitalised words ("a token named Minor Demon").
func nameAfter(text string, ws []word, i int, isName func(string) bool) int {
	for _, trig := range nameTriggers {
		if i+len(trig) >= len(ws) {
			continue
		}
		match := true
		for k, tw := range trig {
			if ws[i+k].text != tw || k > 0 && text[ws[i+k-1].end:ws[i+k].start] != " " {
				match = false
				break
			}
		}
		first := i + len(trig)
		if !match || text[ws[first-1].end:ws[first].start] != " " || !ws[first].capital() {
			continue
		}
		for last := min(first+12, len(ws)) - 1; last >= first; last-- {
			if isName != nil && isName(text[ws[first].start:ws[last].end]) {
				return last - i
			}
		}
		last := first
		for last+1 < len(ws) && nameGap(text[ws[last].end:ws[last+1].start]) && (ws[last+1].capital() || connector(ws[last+1].text) && last+2 < len(ws) && ws[last+2].capital()) {
			last++
		}
		return last - i
	}
	return 0
}

// nameGap reports whether the text between two words may stand inside a card name.
func nameGap(gap string) bool { return gap == " " || gap == ", " }

// connector reports whether w is a small word inside card names ("Wolves of the Hunt").
func connector(w string) bool { return w == "of" || w == "the" || w == "and" }

// roleName reports whether the capitalised word ws[i] is part of a Role token's name
// ("a Young Hero Role token", "a Sorcerer Role token"): the run of capitalised words it
// stands in ends with "Role".
func roleName(text string, ws []word, i int) bool {
	for j := i; j+1 < len(ws) && text[ws[j].end:ws[j+1].start] == " " && ws[j+1].capital(); j++ {
		if ws[j+1].text == "Role" {
			return true
		}
	}
	return false
}
