package deck

import (
	"cmp"
	"encoding/json"
	"flag"
	"hash/fnv"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/cards"
)

var draw = flag.Bool("draw", false, "write testdata/text-types.draft.json: the sample drawn again, with the types Identity gives, to be read and corrected by hand")

// sampleSeed seeds the draw: the number and the year.
const sampleSeed = "issue-19/2026"

// sampleCard is one card of the golden sample, with the types a reader found in its text.
type sampleCard struct {
	Name string `json:"name"`
	// Text is the card's rules text, every face, for the reader.
	Text []string `json:"text"`
	// Types are the creature types the card's text prints, as a judge reads it (F7).
	Types []string `json:"types"`
	// Note says why, where the reading is not plain.
	Note string `json:"note,omitempty"`
}

// textOnly reports whether a card has no creature type on any type line but prints a
// creature-type word in its rules text — any form the type list knows, anywhere in the text,
// reminder text, "non-" words and names included: the population the sample is drawn from.
func textOnly(c *cards.Card, t *Types) bool {
	line := false
	eachFace(c, func(types, subtypes []string, _ string) {
		line = line || typeFace(types) && len(subtypes) > 0
	})
	if line {
		return false
	}
	for _, text := range c.Texts() {
		for _, w := range words(text) {
			for _, part := range strings.Split(bare(w.text), "-") {
				if len(t.forms[part]) > 0 || part == "outlaw" || part == "outlaws" {
					return true
				}
			}
		}
	}
	return false
}

// drawSample draws 100 cards from the population: each card's rank is the 64-bit FNV-1a hash
// of the seed and its name, and the 100 of lowest rank are taken, sorted by name. A card
// added to or dropped from the data changes the sample by that card at most.
func drawSample(c *Catalogue) []cards.Card {
	type ranked struct {
		card cards.Card
		rank uint64
	}
	var pop []ranked
	for _, card := range c.Cards.Cards() {
		if textOnly(&card, c.Types()) {
			h := fnv.New64a()
			h.Write([]byte(sampleSeed + "\x00" + card.Name))
			pop = append(pop, ranked{card, h.Sum64()})
		}
	}
	slices.SortFunc(pop, func(a, b ranked) int { return cmp.Compare(a.rank, b.rank) })
	out := make([]cards.Card, 0, 100)
	for _, r := range pop[:100] {
		out = append(out, r.card)
	}
	slices.SortFunc(out, func(a, b cards.Card) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func TestSampleDraft(t *testing.T) {
	if !*draw {
		t.Skip("run with -draw to write a draft of the sample")
	}
	c := catalogue(t)
	var out []sampleCard
	for _, card := range drawSample(c) {
		out = append(out, sampleCard{Name: card.Name, Text: card.Texts(), Types: nonNil(c.Identity(&card).Types)})
	}
	b, _ := json.MarshalIndent(out, "", "  ")
	if err := os.WriteFile("testdata/text-types.draft.json", append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// TestTextTypesSample checks typal identity (F7) on 100 cards with no creature type on a type
// line whose rules text prints a creature-type word, drawn from the shipped catalogue as
// drawSample says and each read by hand: testdata/text-types.json holds the types a judge
// reads in each, with a note where the reading is not plain (reminder text, "non-", names).
func TestTextTypesSample(t *testing.T) {
	c := catalogue(t)
	data, err := os.ReadFile("testdata/text-types.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden []sampleCard
	if err := json.Unmarshal(data, &golden); err != nil {
		t.Fatal(err)
	}
	drawn := drawSample(c)
	if len(drawn) != len(golden) {
		t.Fatalf("drew %d cards, the golden sample has %d", len(drawn), len(golden))
	}
	none := 0
	for i, want := range golden {
		card := drawn[i]
		if card.Name != want.Name {
			t.Fatalf("card %d of the draw is %s, the golden sample's is %s: the draw or the data changed; draw again with -draw and read every card", i, card.Name, want.Name)
		}
		got := nonNil(c.Identity(&card).Types)
		if !slices.Equal(got, want.Types) {
			t.Errorf("%s: identity %v, read %v (%s)\n%q", card.Name, got, want.Types, want.Note, card.Texts())
		}
		if len(want.Types) == 0 {
			none++
		}
	}
	if none == 0 || none == len(golden) {
		t.Errorf("the sample has %d cards without identity: it should hold both kinds", none)
	}
}
