// The catalogue's list of creature types (F7) and the word forms that name them in rules
// text: plurals ("Elves", "Wolves", "Allies") and possessives.

package deck

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/coalition-wargame/coalition/cards"
)

// Types is the list of creature types learnt from a catalogue (F7): the subtypes of its
// creature, Kindred and Tribal faces and the types of the creature tokens its rules text
// creates ("a 1/1 colorless Servo artifact creature token"), less the subtypes of other card
// types (Forest, Equipment, Aura, Treasure…). It is built once for a catalogue and safe for
// concurrent use.
type Types struct {
	names []string
	// forms maps a word as rules text prints it ("Elves", "Wolf", "Allies") to its types.
	forms map[string][]string
	// twoWord are the types of two words ("Time Lord"), by their first word.
	twoWord map[string][]string
}

// creatureKinds are the card types whose subtypes are creature types ("Summon" is the old
// word for a creature on Un-cards and promos).
var creatureKinds = []string{"Creature", "Kindred", "Tribal", "Summon"}

// notTypes are subtypes of the data's creature faces that are words of a joke type line, not
// creature types (B.F.M.'s "The Biggest, Baddest, Nastiest, Scariest Creature You'll Ever
// See"); the others of that line are dropped by their punctuation.
var notTypes = []string{"The"}

// typeFace reports whether a face with these card types has creature types for subtypes.
func typeFace(types []string) bool {
	for _, t := range types {
		if slices.Contains(creatureKinds, t) {
			return true
		}
	}
	return false
}

// NewTypes learns the creature types of the cards.
func NewTypes(cs []cards.Card) *Types {
	creature, other := map[string]bool{}, map[string]bool{}
	for i := range cs {
		c := &cs[i]
		eachFace(c, func(types, subtypes []string, text string) {
			if typeFace(types) {
				for _, s := range subtypes {
					creature[s] = true
				}
			} else if !c.Funny {
				for _, s := range subtypes {
					other[s] = true
				}
			}
			// Reminder text counts here: amass's Army token is named only there.
			for _, s := range tokenTypes(text) {
				creature[s] = true
			}
		})
	}
	var names []string
	for s := range creature {
		if !other[s] && typeShape(s) && !slices.Contains(notTypes, s) {
			names = append(names, s)
		}
	}
	return newTypes(names)
}

// newTypes indexes a list of creature types with their word forms.
func newTypes(names []string) *Types {
	slices.Sort(names)
	names = slices.Compact(names)
	t := &Types{names: names, forms: make(map[string][]string, len(names)*4), twoWord: map[string][]string{}}
	add := func(form, name string) {
		if !slices.Contains(t.forms[form], name) {
			t.forms[form] = append(t.forms[form], name)
		}
	}
	for _, n := range names {
		if first, _, two := strings.Cut(n, " "); two {
			t.twoWord[first] = append(t.twoWord[first], n)
			continue
		}
		for _, p := range plurals(n) {
			add(p, n)
		}
	}
	// A type spelt as another's plural (the joke type "Elves" of Elvish Impersonators) is that
	// plural in rules text: "Elves you control" is Elf.
	for _, n := range names {
		if _, plural := t.forms[n]; !plural && !strings.Contains(n, " ") {
			add(n, n)
		}
	}
	return t
}

// eachFace calls f with the card types, subtypes and rules text of each face of the card.
func eachFace(c *cards.Card, f func(types, subtypes []string, text string)) {
	if len(c.Faces) == 0 {
		text := ""
		if c.Text != nil {
			text = *c.Text
		}
		f(c.Types, c.Subtypes, text)
		return
	}
	texts := c.Texts()
	for i := range c.Faces {
		f(c.Faces[i].Types, c.Faces[i].Subtypes, texts[i])
	}
}

// typeShape reports whether s looks like a creature type: one or two capitalised words of
// letters, with an inner hyphen or apostrophe ("Assembly-Worker", "C'tan", "Time Lord").
func typeShape(s string) bool {
	words := strings.Split(s, " ")
	if len(words) > 2 {
		return false
	}
	for _, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) || len(wordAt(w, 0)) != len(w) {
			return false
		}
	}
	return true
}

// Names lists the creature types, sorted.
func (t *Types) Names() []string { return t.names }

// Has reports whether name is a creature type.
func (t *Types) Has(name string) bool {
	_, ok := slices.BinarySearch(t.names, name)
	return ok
}

// irregular are the plurals Oracle text uses that the usual endings do not make.
var irregular = map[string][]string{
	"Mouse": {"Mice"}, "Fungus": {"Fungi"}, "Ox": {"Oxen"}, "Child": {"Children"},
	"Grandchild": {"Grandchildren"}, "Homunculus": {"Homunculi"}, "Pegasus": {"Pegasi"},
	"Cyclops": {"Cyclopes"}, "Octopus": {"Octopi"}, "Djinn": {"Djinni"},
}

// plurals are the plural forms of a one-word creature type: "Goblins", "Elves", "Wolves",
// "Allies", "Foxes", "Heroes".
func plurals(t string) []string {
	out := []string{t + "s"}
	switch {
	case strings.HasSuffix(t, "fe"):
		out = append(out, t[:len(t)-2]+"ves")
	case strings.HasSuffix(t, "f"):
		out = append(out, t[:len(t)-1]+"ves")
	case strings.HasSuffix(t, "y") && len(t) > 1 && !strings.ContainsRune("aeiou", rune(t[len(t)-2])):
		out = append(out, t[:len(t)-1]+"ies")
	}
	for _, end := range []string{"s", "x", "z", "ch", "sh", "o"} {
		if strings.HasSuffix(t, end) {
			out = append(out, t+"es")
			break
		}
	}
	return append(out, irregular[t]...)
}
