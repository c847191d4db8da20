package cards

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

var allOnce = sync.OnceValues(LoadAll)

// everyCard is the shipped every-card catalogue, loaded once; tests must not put into it.
func everyCard(t testing.TB) *Catalogue { return mustLoad(t, allOnce) }

// mustLoad is a loaded catalogue, or the test's end.
func mustLoad(t testing.TB, load func() (*Catalogue, error)) *Catalogue {
	t.Helper()
	c, err := load()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestLoadAll(t *testing.T) {
	c := everyCard(t)
	// 30,992 names, two pairs of which compare the same (Key): "Waste Land" (an Un-card) and
	// Wasteland, "Surgeon ~General~ Commander" and Surgeon General Commander; the later name
	// of each pair counts.
	if n := c.Len(); n != 30990 {
		t.Fatalf("the every-card catalogue has %d cards, want the 30,990 distinct names of the shipped data", n)
	}
	if card, _, _ := c.Find("Wasteland"); card.Name != "Wasteland" {
		t.Errorf("Wasteland is %q", card.Name)
	}
	reserved, faces, noText := 0, 0, 0
	for _, card := range c.Cards() {
		if card.Reserved {
			reserved++
		}
		if len(card.Faces) > 0 {
			faces++
		}
		if card.Text == nil {
			noText++
		}
	}
	if reserved != 571 || faces != 741 || noText != 0 {
		t.Errorf("%d reserved (want 571), %d multi-faced (want 741), %d without a text field (want 0)", reserved, faces, noText)
	}
}

func TestFind(t *testing.T) {
	c := everyCard(t)
	for _, tt := range []struct {
		query, name string
		face        int
	}{
		{"Lightning Bolt", "Lightning Bolt", -1},
		{"lightning bolt", "Lightning Bolt", -1},
		{"Delver of Secrets", "Delver of Secrets // Insectile Aberration", 0},
		{"Insectile Aberration", "Delver of Secrets // Insectile Aberration", 1},
		{"Fire // Ice", "Fire // Ice", -1},
		{"Fire/Ice", "Fire // Ice", -1},
		{"Lim-Dul's Vault", "Lim-Dûl's Vault", -1},
		{"Aether Vial", "Aether Vial", -1},
	} {
		card, face, ok := c.Find(tt.query)
		if !ok || card.Name != tt.name || face != tt.face {
			t.Errorf("Find(%q) = %v, %d, %v; want %s, face %d", tt.query, card, face, ok, tt.name, tt.face)
		}
	}
	if _, _, ok := c.Find("Lightning Bolts of Doom"); ok {
		t.Error("a name no card has was found")
	}
	card, _, _ := c.Find("Bala Ged Recovery")
	if texts := card.Texts(); len(texts) != 2 || texts[1] == "" || card.Faces[1].Types[0] != "Land" {
		t.Errorf("Bala Ged Recovery's faces: %q", texts)
	}
}

func TestPutAny(t *testing.T) {
	c := New(nil)
	text := "Draw two cards."
	if err := c.PutAny(Card{Name: "Judge's Insight", Types: []string{"Instant"}, Colors: []string{"U"}, Text: &text}); err != nil {
		t.Fatal(err)
	}
	if card, _, ok := c.Find("judges insight"); !ok || *card.Text != text {
		t.Errorf("the judge's card was not found: %v", card)
	}
	for _, bad := range []Card{
		{Name: "   ", Types: []string{"Instant"}},
		{Name: "Typeless"},
		{Name: "Mauve Bolt", Types: []string{"Instant"}, Colors: []string{"M"}},
		{Name: "Sizeless Bear", Types: []string{"Creature"}, Power: "big", Toughness: "2"},
	} {
		if err := c.PutAny(bad); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("PutAny(%q) = %v, want ErrInvalid", bad.Name, err)
		}
	}
	if !c.Drop("Judge's Insight") || c.Has("Judge's Insight") {
		t.Error("Drop left the judge's card")
	}
}

// TestFork: a fork shares the base and the judges' cards put before it; what is put into
// the fork afterwards stays out of the original, and the other way round.
func TestFork(t *testing.T) {
	text := "Draw a card."
	c := New([]Card{{Name: "Opt", Types: []string{"Instant"}, Colors: []string{"U"}, Text: &text}})
	if err := c.PutAny(Card{Name: "Before", Types: []string{"Sorcery"}, Colors: []string{}}); err != nil {
		t.Fatal(err)
	}
	f := c.Fork()
	fixed := "Scry 1. Draw a card."
	if err := f.PutAny(Card{Name: "Opt", Types: []string{"Instant"}, Colors: []string{"U"}, Text: &fixed}); err != nil {
		t.Fatal(err)
	}
	if err := c.PutAny(Card{Name: "After", Types: []string{"Sorcery"}, Colors: []string{}}); err != nil {
		t.Fatal(err)
	}
	if card, _, _ := f.Find("Opt"); *card.Text != fixed {
		t.Errorf("the fork's Opt: %q", *card.Text)
	}
	if card, _, _ := c.Find("Opt"); *card.Text != text {
		t.Errorf("the original's Opt changed with the fork: %q", *card.Text)
	}
	if !f.Has("Before") || f.Has("After") || !c.Has("After") || c.Len() != 3 || f.Len() != 2 {
		t.Errorf("fork %d cards (Before %v, After %v), original %d", f.Len(), f.Has("Before"), f.Has("After"), c.Len())
	}
}

func TestReadMTGJSONAll(t *testing.T) {
	f, err := os.Open("testdata/AtomicAll.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cs, err := ReadMTGJSONAll(f)
	if err != nil {
		t.Fatal(err)
	}
	m := byName(cs)
	if len(cs) != 4 {
		t.Errorf("read %d cards, want 4 (the token left out)", len(cs))
	}
	bala := m["Bala Ged Recovery // Bala Ged Sanctuary"]
	if len(bala.Faces) != 2 || bala.Faces[1].Text == "" || *bala.Text != bala.Faces[0].Text || bala.Type != "Sorcery" {
		t.Errorf("Bala Ged: %+v", bala)
	}
	if !m["Lion's Eye Diamond"].Reserved || m["Swan Song"].Reserved {
		t.Error("the Reserved List flag was lost")
	}
	kaalia := m["Kaalia of the Vast"]
	if !slices.Equal(kaalia.Keywords, []string{"Flying"}) || kaalia.FirstSet != "CMD" || !slices.Equal(kaalia.Printings, []string{"CMD", "2X2"}) {
		t.Errorf("Kaalia: keywords %v, first set %q, printings %v", kaalia.Keywords, kaalia.FirstSet, kaalia.Printings)
	}
	// Merged over the shipped data, the newer text wins and the shipped first printing stays.
	base := everyCard(t).Cards()
	merged, added, _ := Merge(base, cs)
	if added != 0 || len(merged) != len(base) {
		t.Errorf("merge added %d cards to %d, want none", added, len(base))
	}
	var buf bytes.Buffer
	if err := WriteCards(&buf, merged); err != nil {
		t.Fatal(err)
	}
	back, err := ReadCards(&buf)
	if err != nil {
		t.Fatal(err)
	}
	k := byName(back)["Kaalia of the Vast"]
	if k.FirstPrinted != "2011-06-17" || len(k.Printings) != 2 || k.Type != "Legendary Creature — Human Cleric" {
		t.Errorf("Kaalia after the merge: first printed %q, printings %v, type %q", k.FirstPrinted, k.Printings, k.Type)
	}
}

// BenchmarkLoadAll is what the first deck check pays: gunzip, decode and index every card.
func BenchmarkLoadAll(b *testing.B) {
	for b.Loop() {
		if _, err := LoadAll(); err != nil {
			b.Fatal(err)
		}
	}
}
