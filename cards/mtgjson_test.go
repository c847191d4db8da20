package cards

import (
	"bytes"
	"compress/gzip"
	"os"
	"slices"
	"strings"
	"testing"
)

func readFixture(t *testing.T, name string) []Card {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cs, err := ReadMTGJSON(f)
	if err != nil {
		t.Fatalf("ReadMTGJSON(%s): %v", name, err)
	}
	return cs
}

func byName(cs []Card) map[string]Card {
	m := map[string]Card{}
	for _, c := range cs {
		m[c.Name] = c
	}
	return m
}

func TestReadMTGJSONAtomicCards(t *testing.T) {
	cs := readFixture(t, "AtomicCards.json")
	m := byName(cs)
	if _, ok := m["Lightning Bolt"]; ok {
		t.Error("an instant was read as a creature")
	}
	if len(cs) != 7 {
		t.Errorf("read %d cards, want the 7 creatures", len(cs))
	}
	bears := m["Grizzly Bears"]
	if bears.Power != "2" || bears.Toughness != "2" || !slices.Equal(bears.Colors, []string{"G"}) || !slices.Equal(bears.Types, []string{"Creature"}) {
		t.Errorf("Grizzly Bears = %+v", bears)
	}
	if bears.Text == nil || *bears.Text != "" {
		t.Errorf("Grizzly Bears has no rules text, and MTGJSON says so: %v", bears.Text)
	}
	if adun := m["Adun Oakenshield"]; adun.Text == nil || !strings.Contains(*adun.Text, "Return target creature card") {
		t.Errorf("Adun Oakenshield's rules text is kept: %v", adun.Text)
	}
	delver := m["Delver of Secrets // Insectile Aberration"]
	if len(delver.Faces) != 2 || delver.Faces[1].Name != "Insectile Aberration" || delver.Faces[1].Power != "3" || delver.Power != "1" {
		t.Errorf("Delver = %+v", delver)
	}
	if !m["Greater Morphling"].Funny {
		t.Error("Greater Morphling is funny")
	}
	if !m["A-Testing Wurm"].DigitalOnly || m["Testing Wurm"].DigitalOnly {
		t.Error("an Alchemy A- card exists only digitally; its paper original does not")
	}
	// AtomicCards has no printed type lines: the shipped legend list supplies the flag.
	if m["Adun Oakenshield"].OldLegend {
		t.Error("AtomicCards alone cannot know Adun Oakenshield's old type line")
	}
	MarkOldLegends(cs)
	if !byName(cs)["Adun Oakenshield"].OldLegend {
		t.Error("MarkOldLegends must flag Adun Oakenshield (2.2.1)")
	}
}

func TestReadMTGJSONAllPrintings(t *testing.T) {
	cs := readFixture(t, "AllPrintings.json")
	m := byName(cs)
	for _, name := range []string{"Lightning Bolt", "Goblin"} {
		if _, ok := m[name]; ok {
			t.Errorf("%s is not a creature card (an instant, a token)", name)
		}
	}
	if len(cs) != 6 {
		t.Errorf("read %d cards, want 6: %v", len(cs), cs)
	}
	if !m["Adun Oakenshield"].OldLegend {
		t.Error(`Adun Oakenshield was printed "Summon Legend": old Legend (2.2.1)`)
	}
	if m["Ascended Cleric"].OldLegend {
		t.Error(`"Legendary Creature" is not the old Legend creature type`)
	}
	if !m["Digital Drake"].DigitalOnly {
		t.Error("Digital Drake was printed only in an online-only set and on MTGO")
	}
	if m["Grizzly Bears"].DigitalOnly {
		t.Error("Grizzly Bears is on paper")
	}
	if !m["Greater Morphling"].Funny {
		t.Error("Greater Morphling is funny")
	}
	if d := m["Delver of Secrets // Insectile Aberration"]; len(d.Faces) != 2 || d.Faces[0].Name != "Delver of Secrets" {
		t.Errorf("Delver = %+v", d)
	}
}

func TestReadMTGJSONSetFileAndGzip(t *testing.T) {
	cs := readFixture(t, "DOM.json")
	if len(cs) != 1 || cs[0].Name != "Baloth Gorger" {
		t.Errorf("DOM.json = %+v", cs)
	}
	raw, err := os.ReadFile("testdata/AtomicCards.json")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(raw)
	zw.Close()
	gz, err := ReadMTGJSON(&buf)
	if err != nil || len(gz) != 7 {
		t.Errorf("ReadMTGJSON(gzipped AtomicCards) = %d cards, %v", len(gz), err)
	}
}

func TestReadMTGJSONRejects(t *testing.T) {
	for _, in := range []string{``, `[]`, `{}`, `{"meta": {}}`, `{"data": [1]}`, `{"data": {"A": [], "B": {}}}`, `{"data": {"A": [{"name": 3}]}}`, `{"data": {"A": [`} {
		if cs, err := ReadMTGJSON(bytes.NewReader([]byte(in))); err == nil {
			t.Errorf("ReadMTGJSON(%q) = %v, want an error", in, cs)
		}
	}
}

func TestMerge(t *testing.T) {
	base := []Card{
		{Name: "Adun Oakenshield", Types: []string{"Creature"}, Power: "1", Toughness: "2", OldLegend: true},
		{Name: "Grizzly Bears", Colors: []string{"G"}, Types: []string{"Creature"}, Power: "2", Toughness: "2"},
		{Name: "Werebear", Colors: []string{"G"}, Types: []string{"Creature"}, Power: "1", Toughness: "1", Reach: KnownReach("Werebear")},
	}
	newer := []Card{
		{Name: "Adun Oakenshield", Types: []string{"Creature"}, Power: "1", Toughness: "2"},
		{Name: "Grizzly Bears", Colors: []string{"G"}, Types: []string{"Creature"}, Power: "2", Toughness: "3"},
		{Name: "Werebear", Colors: []string{"G"}, Types: []string{"Creature"}, Power: "1", Toughness: "1"},
		{Name: "Testing Wurm", Colors: []string{"G"}, Types: []string{"Creature"}, Power: "7", Toughness: "7"},
	}
	merged, added, changed := Merge(base, newer)
	m := byName(merged)
	if added != 1 || changed != 1 || len(merged) != 4 {
		t.Errorf("Merge: %d added, %d changed, %d cards; want 1, 1, 4", added, changed, len(merged))
	}
	if !m["Adun Oakenshield"].OldLegend {
		t.Error("the old-Legend flag must survive a newer source that lacks it")
	}
	if m["Grizzly Bears"].Toughness != "3" {
		t.Error("the newer card must win")
	}
	if m["Werebear"].Reach == nil {
		t.Error("a recorded reach must survive")
	}
	if !slices.IsSortedFunc(merged, func(a, b Card) int { return compareNames(a.Name, b.Name) }) {
		t.Error("Merge returns cards sorted by name")
	}
}

func compareNames(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func FuzzReadMTGJSON(f *testing.F) {
	for _, name := range []string{"AtomicCards.json", "AllPrintings.json", "DOM.json"} {
		raw, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Add([]byte(`{"data": {"X": {"cards": [{"name": "A", "types": ["Creature"], "side": "b"}], "isOnlineOnly": true}}}`))
	f.Add([]byte(`{"data": {"cards": [], "isOnlineOnly": true}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, err := ReadMTGJSON(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, c := range cs {
			if c.Name == "" || !c.IsCreature() {
				t.Fatalf("read a card that is not a named creature: %+v", c)
			}
		}
	})
}
