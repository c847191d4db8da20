package format

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/deck"
)

// catalogue is the shipped every-card catalogue, loaded once; tests must not put into it.
func catalogue(t testing.TB) *deck.Catalogue {
	t.Helper()
	c, err := deck.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func readDeck(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// edit replaces one whole line of a deck list (it must be there) by new lines.
func edit(t *testing.T, list, old, new string) string {
	t.Helper()
	if !strings.Contains(list, "\n"+old+"\n") {
		t.Fatalf("the deck has no line %q", old)
	}
	return strings.Replace(list, "\n"+old+"\n", "\n"+new+"\n", 1)
}

// heroicList is the legal Coalition deck with Heroic's sideboard of 8.
func heroicList(t *testing.T) string {
	l := readDeck(t, "coalition-legal.txt")
	l = edit(t, l, "1 Mortify", "")
	return edit(t, l, "1 Unexpectedly Absent", "")
}

// ruleCase is a deck that breaks one rule only.
type ruleCase struct {
	rule string
	// broken is the legal deck with the one change that breaks the rule.
	broken func(t *testing.T, legal string) string
}

func swap(old, new string) func(*testing.T, string) string {
	return func(t *testing.T, l string) string { return edit(t, l, old, new) }
}

// checkRules checks that the legal deck is legal and that each broken deck has problems of
// its rule and of no other.
func checkRules(t *testing.T, cat *deck.Catalogue, fs *Formats, req Request, cases []ruleCase) {
	t.Helper()
	v, err := fs.Check(cat, req)
	if err != nil || !v.Legal {
		t.Fatalf("the legal %s deck: %v %+v", req.Format, err, v.Problems)
	}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			r := req
			r.List = tc.broken(t, req.List)
			v, err := fs.Check(cat, r)
			if err != nil {
				t.Fatal(err)
			}
			if v.Legal || len(v.Problems) == 0 {
				t.Fatalf("the deck breaking %s is legal", tc.rule)
			}
			for _, p := range v.Problems {
				if p.Rule != tc.rule {
					t.Errorf("problem %+v; want only %s", p, tc.rule)
				}
				if p.Message == "" {
					t.Errorf("problem %+v has no message", p)
				}
			}
		})
	}
}

// lightning breaks a rule with the card in the place of the deck's Lightning Bolt.
func lightning(card string) func(*testing.T, string) string {
	return swap("1 Lightning Bolt", "1 "+card)
}

// heroCases are the rules Coalition and Heroic share (906.6, the page's "Deck format" and
// "Deck Restrictions"), each broken by one change of the legal deck.
var heroCases = []ruleCase{
	{"size.main", swap("8 Swamp", "7 Swamp")},
	{"size.sideboard", swap("1 Naturalize", "1 Naturalize\n1 Pyroclasm")},
	{"hero", swap("1 Kaalia of the Vast", "1 Pyroclasm")},
	{"copies", func(t *testing.T, l string) string {
		return edit(t, edit(t, l, "1 Lightning Bolt", "2 Lightning Bolt"), "7 Mountain", "6 Mountain")
	}},
	{"typal", lightning("Swan Song")},
	{"banned.reserved", lightning("Lion's Eye Diamond")},
	{"banned.conspiracy", lightning("Backup Plan")},
	{"banned.ante", lightning("Rebirth")},
	{"banned.offensive", lightning("Crusade")},
	{"unknown-card", lightning("Lightening Bolt")},
	{"syntax", swap("1 Lightning Bolt", "1 Lightning Bolt\nLightning Bolt, a second copy")},
}

// TestCoalitionRules: a table test per rule of Coalition (revision page, coalition-format.md;
// F1–F9): the legal deck, and for each rule a deck breaking that rule only.
func TestCoalitionRules(t *testing.T) {
	checkRules(t, catalogue(t), Shipped(), Request{Format: "coalition", List: readDeck(t, "coalition-legal.txt")}, append(slices.Clone(heroCases), []ruleCase{
		{"legendary", swap("4 Bloodgift Demon", "3 Bloodgift Demon\n1 Rakdos, Lord of Riots")},
		{"companion", swap("1 Kaalia of the Vast", "1 Gyruda, Doom of Depths")},
		{"partner", swap("1 Kaalia of the Vast", "1 Krav, the Unredeemed")},
		{"typal.hero", swap("1 Kaalia of the Vast", "1 Hua Tuo, Honored Physician")},
		{"banned", lightning("Demonic Tutor")},
		{"banned.sticker", lightning("Pin Collection")},
	}...))
}

// TestHeroicRules: the same for Heroic (heroic-rules-wip.txt, 906.6a–f; its banned list).
func TestHeroicRules(t *testing.T) {
	checkRules(t, catalogue(t), Shipped(), Request{Format: "heroic", List: heroicList(t)}, append(slices.Clone(heroCases),
		ruleCase{"banned", lightning("Skullclamp")}))
}

// TestHeroicTypalHero: every legendary creature card of the data has a creature type, so a
// Heroic hero with no type to choose (Human may be chosen there) is a judge's card.
func TestHeroicTypalHero(t *testing.T) {
	list := heroicList(t)
	all := catalogue(t).Cards
	var cs []cards.Card
	l, _ := deck.Parse(list)
	for _, line := range l.Lines {
		c, _, _ := all.Find(line.Name)
		cs = append(cs, *c)
	}
	small := cards.New(cs)
	if err := small.PutAny(cards.Card{Name: "Nameless Champion", Supertypes: []string{"Legendary"}, Types: []string{"Creature"}, Power: "2", Toughness: "2", Colors: []string{}}); err != nil {
		t.Fatal(err)
	}
	checkRules(t, deck.NewCatalogue(small), Shipped(), Request{Format: "heroic", List: list}, []ruleCase{
		{"typal.hero", swap("1 Kaalia of the Vast", "1 Nameless Champion")},
	})
}

// TestManahearthRules: the same for Manahearth (manahearth.md rules 3 and 15; F4), with a
// sub-format whose sets are the legal deck's.
func TestManahearthRules(t *testing.T) {
	cat := catalogue(t)
	list := readDeck(t, "manahearth-legal.txt")
	fs := *Shipped()
	fs.Formats = slices.Clone(fs.Formats)
	i := slices.IndexFunc(fs.Formats, func(f Format) bool { return f.Name == "manahearth" })
	fs.Formats[i].Revisions = slices.Clone(fs.Formats[i].Revisions)
	sub := Subformat{Name: "test", Title: "the test's sets"}
	l, _ := deck.Parse(list)
	for _, line := range l.Lines {
		c, _, _ := cat.Cards.Find(line.Name)
		sub.Sets = append(sub.Sets, c.FirstSet)
	}
	shahrazad, _, _ := cat.Cards.Find("Shahrazad")
	sub.Sets = append(sub.Sets, shahrazad.FirstSet)
	fs.Formats[i].Revisions[0].Subformats = []Subformat{sub}
	checkRules(t, cat, &fs, Request{Format: "manahearth", Subformat: "test", List: list}, []ruleCase{
		{"size.main", swap("2 Plains", "2 Plains\n1 Giant Growth")},
		{"size.sideboard", swap("2 Plains", "2 Plains\nSB: 1 Giant Growth")},
		{"planeswalker", swap("1 Liliana of the Veil", "1 Doom Blade")},
		{"copies", func(t *testing.T, l string) string {
			return edit(t, edit(t, l, "2 Lightning Bolt", "3 Lightning Bolt"), "2 Plains", "1 Plains")
		}},
		{"copies.legendary", swap("2 Serra Angel", "2 Liliana of the Veil")},
		{"banned", swap("2 Duress", "2 Shahrazad")},
		{"subformat", swap("2 Serra Angel", "2 Bloodgift Demon")},
		{"unknown-card", swap("2 Shock", "2 Shokc")},
		{"syntax", swap("2 Shock", "2 Shock\nShock, twice")},
	})
}
