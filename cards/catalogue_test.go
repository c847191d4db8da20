package cards

import (
	"bytes"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

var shippedOnce = sync.OnceValues(Load)

// shippedCatalogue is the shipped catalogue, loaded once; tests must not Put into it.
func shippedCatalogue(t testing.TB) *Catalogue { return mustLoad(t, shippedOnce) }

func TestLoad(t *testing.T) {
	c := shippedCatalogue(t)
	if n := c.Len(); n < 16921 {
		t.Fatalf("the shipped catalogue has %d cards, want every one of the 16,921 creatures", n)
	}
	legends := 0
	for _, card := range c.Cards() {
		if card.OldLegend {
			legends++
		}
		if !card.IsCreature() {
			t.Errorf("%s is in the catalogue but is not a creature", card.Name)
		}
	}
	if legends != 204 {
		t.Errorf("%d cards carry the old Legend flag, want the 204 of the shipped list", legends)
	}
}

func TestLookup(t *testing.T) {
	c := shippedCatalogue(t)
	tests := []struct {
		query, name, size string
		colors            []string
		of                string
	}{
		{"Grizzly Bears", "Grizzly Bears", "2/2", []string{"G"}, ""},
		{"grizzly bears", "Grizzly Bears", "2/2", []string{"G"}, ""},
		{"  GRIZZLY  BEARS ", "Grizzly Bears", "2/2", []string{"G"}, ""},
		{"Lim-Dûl the Necromancer", "Lim-Dûl the Necromancer", "4/4", []string{"B"}, ""},
		{"lim dul the necromancer", "Lim-Dûl the Necromancer", "4/4", []string{"B"}, ""},
		{"Lim-Dul the Necromancer", "Lim-Dûl the Necromancer", "4/4", []string{"B"}, ""},
		{"Æther Figment", "Aether Figment", "1/1", []string{"U"}, ""},
		{"summoners egg", "Summoner's Egg", "0/4", []string{}, ""},
		{"Insectile Aberration", "Insectile Aberration", "3/2", []string{"U"}, "Delver of Secrets // Insectile Aberration"},
		{"delver of secrets // insectile aberration", "Delver of Secrets // Insectile Aberration", "1/1", []string{"U"}, ""},
		{"Lhurgoyf", "Lhurgoyf", "*/1+*", []string{"G"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			card, ok := c.Lookup(tt.query)
			if !ok {
				t.Fatalf("Lookup(%q) found nothing", tt.query)
			}
			if card.Name != tt.name || card.Power+"/"+card.Toughness != tt.size || !slices.Equal(card.Colors, tt.colors) || card.Of != tt.of {
				t.Errorf("Lookup(%q) = %s %s/%s %v of %q, want %s %s %v of %q", tt.query, card.Name, card.Power, card.Toughness, card.Colors, card.Of, tt.name, tt.size, tt.colors, tt.of)
			}
		})
	}
	for _, miss := range []string{"", "   ", "Grizzly Bear", "Lightning Bolt", "Lim Dul"} {
		if card, ok := c.Lookup(miss); ok {
			t.Errorf("Lookup(%q) = %s, want nothing", miss, card.Name)
		}
	}
}

// TestLookupReach: cards of the built-in table come back with their reach (2.2.3.3, 2.2.6).
func TestLookupReach(t *testing.T) {
	c := shippedCatalogue(t)
	for name := range known {
		card, ok := c.Lookup(name)
		if !ok {
			t.Errorf("%s is in the table of variable sizes but not in the card data", name)
			continue
		}
		if card.Reach == nil {
			t.Errorf("%s comes back without its reach", name)
		}
	}
	if card, _ := c.Lookup("Grizzly Bears"); card.Reach != nil {
		t.Errorf("Grizzly Bears has a reach %v, want none", card.Reach)
	}
}

func TestSuggest(t *testing.T) {
	c := shippedCatalogue(t)
	tests := []struct {
		query string
		want  string
	}{
		{"Grizly Bears", "Grizzly Bears"},
		{"Serra Angle", "Serra Angel"},
		{"Shivan Dragn", "Shivan Dragon"},
		{"lim dul", "Lim-Dûl the Necromancer"},
		{"Werebaer", "Werebear"},
		{"Summoner Egg", "Summoner's Egg"},
	}
	for _, tt := range tests {
		got := c.Suggest(tt.query, 5)
		if !slices.Contains(got, tt.want) {
			t.Errorf("Suggest(%q) = %q, want it to hold %q", tt.query, got, tt.want)
		}
		if len(got) > 5 {
			t.Errorf("Suggest(%q, 5) gave %d names", tt.query, len(got))
		}
	}
	if got := c.Suggest("qqqqqqqqqqqqqqqqqqqqqqq", 5); len(got) != 0 {
		t.Errorf("Suggest(nonsense) = %q, want nothing", got)
	}
	if got := c.Suggest("Grizly Bears", 1); len(got) != 1 || got[0] != "Grizzly Bears" {
		t.Errorf("Suggest(Grizly Bears, 1) = %q, want the one nearest name", got)
	}
}

func TestSearch(t *testing.T) {
	c := shippedCatalogue(t)
	names := func(cs []Card) []string {
		var out []string
		for _, x := range cs {
			out = append(out, x.Name)
		}
		return out
	}
	got := names(c.Search("grizzly bears", 3))
	if len(got) == 0 || got[0] != "Grizzly Bears" {
		t.Errorf("Search(grizzly bears) = %q: the exact name comes first", got)
	}
	got = names(c.Search("goyf", 50))
	for _, want := range []string{"Lhurgoyf", "Tarmogoyf"} {
		if !slices.Contains(got, want) {
			t.Errorf("Search(goyf) = %q, want it to hold %s", got, want)
		}
	}
	// Word starts rank before matches inside a word.
	if i, j := slices.Index(got, "Chimney Goyf"), slices.Index(got, "Lhurgoyf"); i < 0 || i > j {
		t.Errorf("Search(goyf) = %q: Chimney Goyf (word start) must come before Lhurgoyf", got)
	}
	// Words in any order, accents ignored.
	got = names(c.Search("necromancer lim", 5))
	if !slices.Contains(got, "Lim-Dûl the Necromancer") {
		t.Errorf("Search(necromancer lim) = %q", got)
	}
	if got := c.Search("sliver", 4); len(got) != 4 {
		t.Errorf("Search(sliver, 4) gave %d cards, want 4", len(got))
	}
	if got := c.Search("", 10); len(got) != 0 {
		t.Errorf("Search(\"\") = %d cards, want none", len(got))
	}
}

func TestPutOverlaysAndDrop(t *testing.T) {
	c := New([]Card{
		{Name: "Grizzly Bears", Colors: []string{"G"}, Types: []string{"Creature"}, Power: "2", Toughness: "2"},
		{Name: "Delver of Secrets // Insectile Aberration", Colors: []string{"U"}, Types: []string{"Creature"}, Power: "1", Toughness: "1",
			Faces: []Face{{Name: "Delver of Secrets", Types: []string{"Creature"}, Power: "1", Toughness: "1"},
				{Name: "Insectile Aberration", Types: []string{"Creature"}, Power: "3", Toughness: "2"}}},
	})
	// A judge corrects a card.
	if err := c.Put(Card{Name: "grizzly bears", Colors: []string{"G"}, Types: []string{"Creature"}, Power: "3", Toughness: "3"}); err != nil {
		t.Fatal(err)
	}
	if card, _ := c.Lookup("Grizzly Bears"); card.Power != "3" {
		t.Errorf("after Put, Grizzly Bears is %s/%s, want the judge's 3/3", card.Power, card.Toughness)
	}
	// A judge adds a new card from a set newer than the data, with the sizes it can reach.
	newer := Card{Name: "Testing Kavu", Colors: []string{"R"}, Types: []string{"Creature"}, Power: "2", Toughness: "2",
		Reach: &Reach{Sizes: []domain.Size{{Power: 2, Toughness: 2}, {Power: 5, Toughness: 5}}, Rule: "2.2.3.3", Note: "kicker"}}
	if err := c.Put(newer); err != nil {
		t.Fatal(err)
	}
	card, ok := c.Lookup("testing kavu")
	if !ok || card.Reach == nil || !card.Reach.Allows(domain.Size{Power: 5, Toughness: 5}) {
		t.Errorf("Lookup(testing kavu) = %+v, %v: want the judge's card with its reach", card, ok)
	}
	if c.Len() != 3 {
		t.Errorf("Len = %d, want 3", c.Len())
	}
	if got := len(c.Search("grizzly", 10)); got != 1 {
		t.Errorf("Search(grizzly) finds %d cards: a corrected card must hide the shipped one", got)
	}
	// Faces of shipped cards still resolve.
	if card, ok := c.Lookup("Insectile Aberration"); !ok || card.Power != "3" {
		t.Errorf("Lookup(Insectile Aberration) = %+v, %v", card, ok)
	}
	if got := c.Overlays(); len(got) != 2 || got[0].Power != "3" || got[1].Name != "Testing Kavu" {
		t.Errorf("Overlays = %+v", got)
	}
	// Putting the same name again replaces the judge's card.
	if err := c.Put(Card{Name: "Grizzly Bears", Colors: []string{"G"}, Types: []string{"Creature"}, Power: "4", Toughness: "4"}); err != nil {
		t.Fatal(err)
	}
	if len(c.Overlays()) != 2 {
		t.Errorf("a second Put of one name must replace, not add: %d overlays", len(c.Overlays()))
	}
	// Dropping the correction brings the shipped card back.
	if !c.Drop("GRIZZLY BEARS") {
		t.Fatal("Drop(GRIZZLY BEARS) = false")
	}
	if card, _ := c.Lookup("Grizzly Bears"); card.Power != "2" {
		t.Errorf("after Drop, Grizzly Bears is %s/%s, want the shipped 2/2", card.Power, card.Toughness)
	}
	if c.Drop("Grizzly Bears") {
		t.Error("a second Drop must report nothing to drop")
	}
	if !c.Drop("Testing Kavu") {
		t.Error("Drop(Testing Kavu) = false")
	}
	if _, ok := c.Lookup("Testing Kavu"); ok {
		t.Error("a dropped new card must be gone")
	}
}

func TestPutRejects(t *testing.T) {
	c := New(nil)
	bad := []Card{
		{Name: "", Types: []string{"Creature"}, Power: "1", Toughness: "1"},
		{Name: "Lightning Bolt", Types: []string{"Instant"}},
		{Name: "Odd Colour", Colors: []string{"Purple"}, Types: []string{"Creature"}, Power: "1", Toughness: "1"},
		{Name: "Odd Size", Types: []string{"Creature"}, Power: "x", Toughness: "1"},
		{Name: "Odd Reach", Types: []string{"Creature"}, Power: "1", Toughness: "1", Reach: &Reach{}},
		{Name: "Bad Ladder", Types: []string{"Creature"}, Power: "1", Toughness: "1",
			Reach: &Reach{From: &domain.Size{Power: 3, Toughness: 3}, To: &domain.Size{Power: 4, Toughness: 6}}},
	}
	for _, card := range bad {
		err := c.Put(card)
		if !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("Put(%q) = %v, want an ErrInvalid", card.Name, err)
		}
	}
	if c.Len() != 0 {
		t.Errorf("rejected cards were kept: Len = %d", c.Len())
	}
}

func TestWriteReadCards(t *testing.T) {
	in := []Card{
		{Name: "Werebear", Colors: []string{"G"}, Types: []string{"Creature"}, Power: "1", Toughness: "1",
			Reach: &Reach{Sizes: []domain.Size{{Power: 1, Toughness: 1}, {Power: 4, Toughness: 4}}}},
		{Name: "Adun Oakenshield", Colors: []string{"B", "R", "G"}, Types: []string{"Creature"}, Supertypes: []string{"Legendary"}, Power: "1", Toughness: "2", OldLegend: true},
	}
	var buf bytes.Buffer
	if err := WriteCards(&buf, in); err != nil {
		t.Fatal(err)
	}
	out, err := ReadCards(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out[0].Reach == nil || !out[0].Reach.Allows(domain.Size{Power: 4, Toughness: 4}) || !out[1].OldLegend {
		t.Errorf("round trip lost data: %+v", out)
	}
	// Plain JSON reads too.
	plain, err := ReadCards(bytes.NewReader([]byte(`[{"name":"Grizzly Bears","colors":["G"],"types":["Creature"],"power":"2","toughness":"2"}]`)))
	if err != nil || len(plain) != 1 {
		t.Errorf("ReadCards(plain JSON) = %v, %v", plain, err)
	}
}

// TestConcurrentPutLookup is for go test -race: judges put cards while players look up.
func TestConcurrentPutLookup(t *testing.T) {
	c := New([]Card{{Name: "Grizzly Bears", Colors: []string{"G"}, Types: []string{"Creature"}, Power: "2", Toughness: "2"}})
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				if g == 0 {
					c.Put(Card{Name: "Grizzly Bears", Colors: []string{"G"}, Types: []string{"Creature"}, Power: "3", Toughness: "3"})
					c.Drop("Grizzly Bears")
					continue
				}
				if _, ok := c.Lookup("grizzly bears"); !ok {
					t.Error("Grizzly Bears vanished during a Put")
					return
				}
				c.Search("griz", 3)
				c.Suggest("grizly", 3)
			}
		}()
	}
	wg.Wait()
}

func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	c := shippedCatalogue(b)
	b.ReportAllocs()
	for b.Loop() {
		c.Lookup("Lim-Dûl the Necromancer")
	}
}

func BenchmarkSearch(b *testing.B) {
	c := shippedCatalogue(b)
	b.ReportAllocs()
	for b.Loop() {
		c.Search("goyf", 10)
	}
}

func BenchmarkSuggest(b *testing.B) {
	c := shippedCatalogue(b)
	b.ReportAllocs()
	for b.Loop() {
		c.Suggest("Grizly Bears", 5)
	}
}
