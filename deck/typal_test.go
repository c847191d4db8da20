package deck

import (
	"slices"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/cards"
)

func identityOf(t *testing.T, c *Catalogue, name string) Identity {
	t.Helper()
	card, _, ok := c.Cards.Find(name)
	if !ok {
		t.Fatalf("no card named %q in the catalogue", name)
	}
	return c.Identity(card)
}

// TestIdentityPageExamples are the examples of the format page's "Deck Restrictions".
func TestIdentityPageExamples(t *testing.T) {
	c := catalogue(t)
	for _, tt := range []struct {
		name       string
		types      []string
		changeling bool
	}{
		// "choose the Dragon type printed in her ability"
		{"Kaalia of the Vast", []string{"Angel", "Cleric", "Demon", "Dragon", "Human"}, false},
		// "only if you are choosing Phyrexian creature type"
		{"Portal to Phyrexia", []string{"Phyrexian"}, false},
		// "only if you are choosing Bird creature type"
		{"Swan Song", []string{"Bird"}, false},
		// "any of Snake, Wolf, or Elephant types"
		{"Bestial Menace", []string{"Elephant", "Snake", "Wolf"}, false},
		// "either Artificer or Servo types" (and Human, on its type line)
		{"Aether Chaser", []string{"Artificer", "Human", "Servo"}, false},
		// "target non-Brushwagg creature" does not count
		{"Embiggen", nil, false},
		// changeling: every type, one chosen for the deck
		{"Morophon, the Boundless", []string{"Shapeshifter"}, true},
		// "it's a 1/1 Insect creature" outside the battlefield
		{"Grist, the Hunger Tide", []string{"Insect"}, false},
	} {
		id := identityOf(t, c, tt.name)
		if !slices.Equal(id.Types, tt.types) || id.Changeling != tt.changeling {
			t.Errorf("%s: %v changeling=%v, want %v changeling=%v", tt.name, id.Types, id.Changeling, tt.types, tt.changeling)
		}
	}
}

// TestIdentityRulings are F7's clauses one by one, on real cards.
func TestIdentityRulings(t *testing.T) {
	c := catalogue(t)
	for _, tt := range []struct {
		rule, name string
		types      []string
		changeling bool
	}{
		{"back face's type line", "Delver of Secrets", []string{"Human", "Insect", "Wizard"}, false},
		{"reminder text ignored: Fabricate's Servo", "Angel of Invention", []string{"Angel"}, false},
		{"own name is a name: Goblin Bombardment", "Goblin Bombardment", nil, false},
		{"another card's name after named (Bruna) and meld them into (Brisela, Voice of Nightmares)", "Gisela, the Broken Blade", []string{"Angel", "Horror"}, false},
		{"Partner with Rory Williams is a name; Doctor's companion names the Doctor", "Amy Pond", []string{"Doctor", "Human"}, false},
		{"outlaw: Assassin, Mercenary, Pirate, Rogue and Warlock", "Double Down", []string{"Assassin", "Mercenary", "Pirate", "Rogue", "Warlock"}, false},
		{"plural Elves", "Birchlore Rangers", []string{"Druid", "Elf", "Ranger"}, false},
		{"plural Dwarves", "Depala, Pilot Exemplar", []string{"Dwarf", "Pilot"}, false},
		{"plural Oxen", "Ox Drover", []string{"Human", "Ox", "Peasant"}, false},
		{"plural Fungi", "The Mycotyrant", []string{"Elder", "Fungus", "Saproling"}, false},
		{"Elfhame inside a name is not Elf", "Elfhame Palace", nil, false},
		{"a type of two words: Time Lord", "TARDIS", []string{"Time Lord"}, false},
		{"a Role token's name: Sorcerer Role", "Spellbook Vendor", []string{"Human", "Peasant"}, false},
		{"an ability word: Tail Spikes", "Manticore", []string{"Manticore"}, false},
		{"a token type from text: Blinkmoth", "Blinkmoth Nexus", []string{"Blinkmoth"}, false},
		{"changeling by its own keyword", "Crib Swap", []string{"Shapeshifter"}, true},
		{"changeling by text: is every creature type", "Mistform Ultimus", []string{"Illusion"}, true},
		{"changeling given to a token does not count", "Birthing Boughs", []string{"Shapeshifter"}, false},
		{"every creature type given to others does not count", "Maskwood Nexus", []string{"Shapeshifter"}, false},
		{"an Alchemy card's text calls it by its paper name", "A-Esika's Chariot", []string{"Cat"}, false},
	} {
		id := identityOf(t, c, tt.name)
		if !slices.Equal(id.Types, tt.types) || id.Changeling != tt.changeling {
			t.Errorf("%s (%s): %v changeling=%v, want %v changeling=%v", tt.name, tt.rule, id.Types, id.Changeling, tt.types, tt.changeling)
		}
	}
}

// TestIdentityWords checks the word rules of F7 on texts written for the test.
func TestIdentityWords(t *testing.T) {
	c := catalogue(t)
	for _, tt := range []struct {
		text  string
		types []string
	}{
		{"Catastrophe strikes each Elfhame and Elvish creature.", nil},
		{"Target Half-Elf gets +1/+1.", nil},
		{"Destroy target non-Human creature.", nil},
		{"Goblins you control get +1/+1. Each Goblin's power is doubled.", []string{"Goblin"}},
		{"Elves’ and Wolves' abilities cost {1} less. Mice and Allies too.", []string{"Ally", "Elf", "Mouse", "Wolf"}},
		{"Destroy target goblin.", nil},
		{"Create a 1/1 green Elf Warrior creature token. (It's a Servo.)", []string{"Elf", "Warrior"}},
		{"Search your library for a card named Llanowar Elves.", nil},
		{"Create a 1/1 red Demon creature token named Minor Demon Spirit.", []string{"Demon"}},
		{"Outlaws you control have haste.", []string{"Assassin", "Mercenary", "Pirate", "Rogue", "Warlock"}},
		{"Coven — Whenever a Zombie attacks, draw a card.", []string{"Zombie"}},
		{"Create a Young Hero Role token attached to target Knight.", []string{"Knight"}},
		{"Time Lords you control get +1/+1.", []string{"Time Lord"}},
	} {
		text := tt.text
		card := cards.Card{Name: "Test Card", Types: []string{"Instant"}, Text: &text}
		id := c.Identity(&card)
		if !slices.Equal(id.Types, tt.types) || id.Changeling {
			t.Errorf("%q: %v changeling=%v, want %v", tt.text, id.Types, id.Changeling, tt.types)
		}
	}
}

// TestTypesList: creature types come from the catalogue's creature faces and token texts, not
// from other card types' subtypes or joke type lines.
func TestTypesList(t *testing.T) {
	ty := catalogue(t).Types()
	for _, yes := range []string{"Goblin", "Human", "Servo", "Saproling", "Blinkmoth", "Army", "Time Lord", "Assembly-Worker", "C'tan", "Brushwagg", "Phyrexian", "Elves"} {
		if !ty.Has(yes) {
			t.Errorf("%s is missing from the creature types", yes)
		}
	}
	for _, no := range []string{"Forest", "Equipment", "Aura", "Treasure", "Food", "Clue", "Saga", "Background", "The", "of", "Baddest,", "Elemental?", "Vehicle", "Gate"} {
		if ty.Has(no) {
			t.Errorf("%s is not a creature type", no)
		}
	}
	if n := len(ty.Names()); n < 330 || n > 380 {
		t.Errorf("%d creature types; the shipped data has about 350", n)
	}
}

// TestCorrected (T14): a correction of a card's text shares the catalogue's creature types; a
// correction that prints a type the data lacks has it learnt at once; the base is not changed.
func TestCorrected(t *testing.T) {
	base := catalogue(t)
	text := "Whenever a Goblin you control attacks, Lightning Bolt deals 1 damage to any target."
	bolt := cards.Card{Name: "Lightning Bolt", Types: []string{"Instant"}, Colors: []string{"R"}, Text: &text}
	f := base.Cards.Fork()
	if err := f.PutAny(bolt); err != nil {
		t.Fatal(err)
	}
	c := base.Corrected(f, []cards.Card{bolt})
	card, _, _ := c.Cards.Find("Lightning Bolt")
	if c.Types() != base.Types() || !slices.Equal(c.Identity(card).Types, []string{"Goblin"}) {
		t.Errorf("a text correction: shared types %v, identity %v", c.Types() == base.Types(), c.Identity(card))
	}
	zz := cards.Card{Name: "Zzyzx Scout", Types: []string{"Creature"}, Subtypes: []string{"Zzyzx"}, Power: "1", Toughness: "1", Colors: []string{}}
	f2 := base.Cards.Fork()
	if err := f2.PutAny(zz); err != nil {
		t.Fatal(err)
	}
	c2 := base.Corrected(f2, []cards.Card{zz})
	if c2.Types() == base.Types() || !c2.Types().Has("Zzyzx") || base.Types().Has("Zzyzx") {
		t.Errorf("a new type: learnt %v, in the base %v", c2.Types().Has("Zzyzx"), base.Types().Has("Zzyzx"))
	}
	if orig, _, _ := base.Cards.Find("Lightning Bolt"); strings.Contains(*orig.Text, "Goblin") {
		t.Error("the base's card was changed")
	}
}

// BenchmarkIdentity measures typal identity of a rules-heavy card.
func BenchmarkIdentity(b *testing.B) {
	c := catalogue(b)
	card, _, _ := c.Cards.Find("Gisela, the Broken Blade")
	c.Identity(card)
	for b.Loop() {
		c.Identity(card)
	}
}

// BenchmarkTypes measures learning the creature types of the whole catalogue, which the first
// deck check pays after loading the cards.
func BenchmarkTypes(b *testing.B) {
	cs := catalogue(b).Cards.Cards()
	for b.Loop() {
		NewTypes(cs)
	}
}
