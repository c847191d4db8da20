package roster

import (
	"encoding/json"
	"flag"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/domain"
)

var update = flag.Bool("update", false, "rewrite the golden files")

var catOnce = sync.OnceValues(cards.Load)

func catalogue(t testing.TB) *cards.Catalogue {
	t.Helper()
	c, err := catOnce()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func e(name, size string, slot, count int) Entry {
	return Entry{Creature: name, Size: size, Slot: slot, Count: count}
}

func legend(name string) Entry { return Entry{Creature: name, Legend: true} }

func coalition(rank domain.Rank, colors ...domain.Color) Army {
	return Army{Name: "Sai Rei", Side: domain.Coalition, Rank: rank, Colors: colors}
}

func phyrexia(rank domain.Rank) Army {
	return Army{Name: "Darkhand5", Side: domain.Phyrexia, Rank: rank}
}

const (
	W  = domain.White
	U  = domain.Blue
	B  = domain.Black
	R  = domain.Red
	G  = domain.Green
	C5 = domain.FiveColor
	CL = domain.Colorless
)

func codes(ps []Problem) []Code {
	out := []Code{}
	for _, p := range ps {
		out = append(out, p.Code)
	}
	slices.Sort(out)
	return out
}

func sorted(cs ...Code) []Code {
	out := append([]Code{}, cs...)
	slices.Sort(out)
	return out
}

type ruleCase struct {
	name     string
	army     Army
	list     List
	problems []Code
	warnings []Code
}

func runCases(t *testing.T, tests []ruleCase) {
	t.Helper()
	cat := catalogue(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Check(cat, tt.list, tt.army)
			if got, want := codes(r.Problems), sorted(tt.problems...); !slices.Equal(got, want) {
				t.Errorf("problems %v, want %v\n%s", got, want, show(r))
			}
			if got, want := codes(r.Warnings), sorted(tt.warnings...); !slices.Equal(got, want) {
				t.Errorf("warnings %v, want %v\n%s", got, want, show(r))
			}
			for _, p := range append(r.Problems, r.Warnings...) {
				if p.Rule == "" || p.Message == "" {
					t.Errorf("a problem without its rule or message: %+v", p)
				}
			}
		})
	}
}

func show(r Report) string {
	b, _ := json.MarshalIndent(r, "", "  ")
	return string(b)
}

// TestSlots covers 2.1: sizes are maximums in both power and toughness, counts per slot, six
// creatures, one legend.
func TestSlots(t *testing.T) {
	cmdr := coalition(domain.Commander, R) // slots 3/3, 4/4, 5/5, 6/6
	runCases(t, []ruleCase{
		{name: "2.1/a 2/3 creature fits a 3/3 slot", army: cmdr,
			list: List{e("Anaba Bodyguard", "", 1, 5000)}},
		{name: "2.1/a 2/4 creature does not fit a 3/3 slot", army: cmdr,
			list: List{e("Aerathi Berserker", "", 1, 5000)}, problems: []Code{CodeTooBig}},
		{name: "2.1/a 2/4 creature fits the 4/4 slot", army: cmdr,
			list: List{e("Aerathi Berserker", "", 2, 2500)}},
		{name: "2.1/the numbers are maximums", army: cmdr,
			list: List{e("Hill Giant", "", 1, 100)}},
		{name: "2.1/a slot holds its count at most", army: cmdr,
			list: List{e("Hill Giant", "", 1, 5001)}, problems: []Code{CodeSlotFull}},
		{name: "2.1/creatures sharing a slot share its count", army: cmdr,
			list: List{e("Hill Giant", "", 1, 3000), e("Gray Ogre", "", 1, 2001)}, problems: []Code{CodeSlotFull}},
		{name: "2.1/not all creatures in a slot are the same", army: cmdr,
			list: List{e("Hill Giant", "", 1, 3000), e("Gray Ogre", "", 1, 2000)}},
		{name: "2.1/at most 6 different creatures", army: coalition(domain.Captain, R),
			list: List{e("Kris Mage", "", 1, 1000), e("Gray Ogre", "", 1, 1000), e("Hill Giant", "", 1, 1000), e("Raging Goblin", "", 1, 1000),
				e("Goblin Balloon Brigade", "", 1, 1000), e("Anaba Bodyguard", "", 2, 1000), e("Crimson Kobolds", "", 2, 1000)},
			problems: []Code{CodeTooManyCreatures}},
		{name: "2.1/six creatures and a legend of any size and colour", army: coalition(domain.Captain, R),
			list: List{e("Kris Mage", "", 1, 1000), e("Gray Ogre", "", 1, 1000), e("Hill Giant", "", 1, 1000), e("Raging Goblin", "", 1, 1000),
				e("Goblin Balloon Brigade", "", 1, 1000), e("Shivan Dragon", "", 2, 2500), legend("Akroma, Angel of Wrath")}},
		{name: "2.1/one legend only", army: coalition(domain.Captain, R),
			list:     List{e("Kris Mage", "", 1, 1000), legend("Akroma, Angel of Wrath"), legend("Lim-Dûl the Necromancer")},
			problems: []Code{CodeTwoLegends}},
		{name: "2.1/the legend is a legendary creature", army: coalition(domain.Captain, R),
			list:     List{e("Kris Mage", "", 1, 1000), legend("Grizzly Bears")},
			problems: []Code{CodeNotLegend}},
		{name: "2.1/no legend in two armies", army: Army{Name: "Sai Rei", Side: domain.Coalition, Rank: domain.Captain, Colors: []domain.Color{R},
			Legends: map[string]string{"akroma angel of wrath": "Gerrard"}},
			list:     List{e("Kris Mage", "", 1, 1000), legend("Akroma, Angel of Wrath")},
			problems: []Code{CodeLegendTaken}},
		{name: "2.1/an army keeps its own legend", army: Army{Name: "Sai Rei", Side: domain.Coalition, Rank: domain.Captain, Colors: []domain.Color{R},
			Legends: map[string]string{"Akroma, Angel of Wrath": "sai rei"}},
			list: List{e("Kris Mage", "", 1, 1000), legend("Akroma, Angel of Wrath")}},
		{name: "2.1/a creature listed twice", army: cmdr,
			list: List{e("Hill Giant", "", 1, 1000), e("hill giant", "", 2, 1000)}, problems: []Code{CodeDuplicate}},
		{name: "2.1/a count of at least 1", army: cmdr,
			list: List{e("Hill Giant", "", 1, 0)}, problems: []Code{CodeBadCount}},
		{name: "2.1/slots are 1 to 4", army: cmdr,
			list: List{e("Hill Giant", "", 5, 100)}, problems: []Code{CodeBadSlot}},
		{name: "2.1/a Cadet holds no army", army: coalition(domain.Cadet, R),
			list: List{e("Kris Mage", "", 1, 100)}, problems: []Code{CodeNoArmy}},
	})
}

// TestSlotSizesByRank checks every slot of every rank against the rulebook's tables
// (2.1.1–2.1.6): a */* creature at the slot's size fits, one point bigger does not.
func TestSlotSizesByRank(t *testing.T) {
	table := map[domain.Rank][4]int{ // the rulebook's numbers, not domain.SlotSize's
		domain.General:     {6, 7, 8, 9},
		domain.Admiral:     {5, 6, 7, 8},
		domain.Captain:     {4, 5, 6, 7},
		domain.Commander:   {3, 4, 5, 6},
		domain.LtCommander: {2, 3, 4, 5},
		domain.Lieutenant:  {1, 2, 3, 4},
	}
	counts := [4]int{5000, 2500, 1500, 1000}
	cat := catalogue(t)
	for rank, sizes := range table {
		for slot := 1; slot <= 4; slot++ {
			n := sizes[slot-1]
			rule := "2.1." + string(rune('0'+int(rank)))
			t.Run(rule+"/"+rank.Name(domain.Phyrexia)+"/slot "+string(rune('0'+slot)), func(t *testing.T) {
				a := phyrexia(rank)
				fit := Check(cat, List{e("Plague Rats", sizeText(n, n), slot, counts[slot-1])}, a)
				if !fit.OK() {
					t.Errorf("Plague Rats %d/%d in slot %d: %s", n, n, slot, show(fit))
				}
				over := Check(cat, List{e("Plague Rats", sizeText(n, n+1), slot, 1)}, a)
				if got := codes(over.Problems); !slices.Equal(got, []Code{CodeTooBig}) || over.Problems[0].Rule != rule {
					t.Errorf("Plague Rats %d/%d in slot %d: %s, want too_big under %s", n, n+1, slot, show(over), rule)
				}
				full := Check(cat, List{e("Plague Rats", sizeText(1, 1), slot, counts[slot-1]+1)}, a)
				if got := codes(full.Problems); !slices.Equal(got, []Code{CodeSlotFull}) {
					t.Errorf("%d Plague Rats in slot %d: %s, want slot_full", counts[slot-1]+1, slot, show(full))
				}
			})
		}
	}
}

func sizeText(p, t int) string { return domain.Size{Power: p, Toughness: t}.String() }

// TestAutomaticSlots: a creature given no slot joins the first that fits it with room (T2's
// reading).
func TestAutomaticSlots(t *testing.T) {
	cat := catalogue(t)
	lt := coalition(domain.Lieutenant, R, G)
	r := Check(cat, List{e("Kris Mage", "", 0, 5000), e("Grizzly Bears", "", 0, 2500), e("Raging Goblin", "", 0, 1000)}, lt)
	if !r.OK() {
		t.Fatal(show(r))
	}
	want := map[string]int{"Kris Mage": 1, "Grizzly Bears": 2, "Raging Goblin": 3}
	for _, tr := range r.Troops {
		if tr.Slot != want[tr.Creature] {
			t.Errorf("%s went to slot %d, want %d", tr.Creature, tr.Slot, want[tr.Creature])
		}
	}
	r = Check(cat, List{e("Kris Mage", "", 1, 5000), e("Raging Goblin", "", 0, 3000)}, lt)
	if got := codes(r.Problems); !slices.Equal(got, []Code{CodeNoSlot}) {
		t.Errorf("3,000 more 1/1s with only 2,500/1,500/1,000 slots left: %s", show(r))
	}
}

// TestColors covers 2.2.1 and 2.2.1.1, and the 2.3.1.2 example army (Kris Mages and Grizzly
// Bears in a red and green army).
func TestColors(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "2.3.1.2/Kris Mage and Grizzly Bears in a red and green army", army: coalition(domain.Lieutenant, R, G),
			list: List{e("Kris Mage", "", 1, 5000), e("Grizzly Bears", "", 2, 2500)}},
		{name: "2.2.1/a green creature in a black and red army", army: coalition(domain.Lieutenant, B, R),
			list: List{e("Kris Mage", "", 1, 5000), e("Grizzly Bears", "", 2, 2500)}, problems: []Code{CodeColor}},
		{name: "2.2.1/a red and green multicolour creature needs 5-Color", army: coalition(domain.Lieutenant, R, G),
			list: List{e("Scab-Clan Mauler", "", 1, 5000)}, problems: []Code{CodeColor}},
		{name: "2.2.1/a 5-Color member uses multicolour creatures", army: coalition(domain.Lieutenant, R, G, C5),
			list: List{e("Scab-Clan Mauler", "", 1, 5000)}},
		{name: "2.2.1/an artifact needs Colorless", army: coalition(domain.Lieutenant, R),
			list: List{e("Ornithopter", "", 2, 2500)}, problems: []Code{CodeColor}},
		{name: "2.2.1/a Colorless member uses artifacts", army: coalition(domain.Lieutenant, R, CL),
			list: List{e("Ornithopter", "", 2, 2500)}},
		{name: "2.2.1/a colourless non-artifact is read as an artifact", army: coalition(domain.General, CL),
			list: List{e("Ulamog's Crusher", "", 3, 1500)}, warnings: []Code{CodeColorlessCreature}},
		{name: "2.2.1/Phyrexia uses blue, red, black, multicoloured and artifact creatures", army: phyrexia(domain.Captain),
			list: List{e("Plague Rats", "1/1", 1, 4000), e("Hypnotic Specter", "", 1, 1000), e("Dack's Duplicate", "4/4", 2, 1000),
				e("Ornithopter", "", 2, 1000), e("Mahamoti Djinn", "", 3, 1500), e("Shivan Dragon", "", 4, 1000)}},
		{name: "2.2.1/Phyrexia uses no green creature", army: phyrexia(domain.Captain),
			list: List{e("Grizzly Bears", "", 1, 5000)}, problems: []Code{CodeColor}},
		{name: "2.2.1/Phyrexia uses no white creature", army: phyrexia(domain.Captain),
			list: List{e("Serra Angel", "", 1, 5000)}, problems: []Code{CodeColor}},
		{name: "2.2.1/Phyrexia uses no multicolour creature that is part white", army: phyrexia(domain.Captain),
			list: List{e("Blind Hunter", "", 1, 5000)}, problems: []Code{CodeColor}},
		{name: "2.2.1/the legend is not subject to colours", army: phyrexia(domain.Captain),
			list: List{e("Plague Rats", "1/1", 1, 5000), legend("Akroma, Angel of Wrath")}},
		{name: "2.2.1.1/a proxy army has any 3 colours", army: coalition(domain.Lieutenant, W, U, C5),
			list: List{e("Blind Hunter", "", 2, 2500)}},
		{name: "2.2.1.1/no army has 4 colours", army: coalition(domain.Lieutenant, W, U, B, R),
			list: List{e("Kris Mage", "", 1, 2500)}, problems: []Code{CodeTooManyColors}},
		{name: "2.5.2.2/a Coalition army has its colours", army: coalition(domain.Lieutenant),
			list: List{e("Kris Mage", "", 1, 2500)}, problems: []Code{CodeNoColors}},
		{name: "2.2.1.1/a colour word", army: coalition(domain.Lieutenant, R, "purple"),
			list: List{e("Kris Mage", "", 1, 2500)}, problems: []Code{CodeBadColor}},
		{name: "6/mercenaries use any colour", army: Army{Name: "Raider", Side: domain.Mercenary, Rank: domain.Lieutenant},
			list: List{e("Kris Mage", "", 1, 2500), e("Serra Angel", "", 4, 1000), e("Grizzly Bears", "", 2, 2500)}},
	})
}

// TestBans covers 2.2.1 (old Legends, Greater Morphling, every set ever printed) and
// 2.2.3.1.4 (Summoner's Egg).
func TestBans(t *testing.T) {
	evincar := phyrexia(domain.Captain)
	runCases(t, []ruleCase{
		{name: "2.2.1/a creature of the old Legend type is not a troop", army: evincar,
			list: List{e("Sol'kanar the Swamp King", "", 2, 100)}, problems: []Code{CodeOldLegend}},
		{name: "2.2.1/a creature of the old Legend type is the army's legend", army: evincar,
			list: List{e("Plague Rats", "1/1", 1, 100), legend("Sol'kanar the Swamp King")}},
		{name: "2.2.1/Greater Morphling is banned", army: evincar,
			list: List{e("Greater Morphling", "", 2, 100)}, problems: []Code{CodeBanned}},
		{name: "2.2.3.1.4/Summoner's Egg is banned", army: evincar,
			list: List{e("Summoners Egg", "", 1, 100)}, problems: []Code{CodeBanned}},
		{name: "2.2.1/Unglued cards are allowed (half points round up)", army: coalition(domain.Lieutenant, W),
			list: List{e("Little Girl", "", 1, 100)}, warnings: []Code{CodeHalfPoints}},
		{name: "2.2.1/a digital-only card is for the judge", army: coalition(domain.Captain, W),
			list: List{e("Aardvark Sloth", "", 1, 100)}, warnings: []Code{CodeDigitalOnly}},
		{name: "2.2.3.1.4/Duplicant names its imprint", army: coalition(domain.Captain, CL),
			list: List{e("Duplicant", "", 1, 100)}, warnings: []Code{CodeImprint}},
		{name: "2.2.1/an unknown creature", army: evincar,
			list: List{e("Grizly Bears", "", 1, 100)}, problems: []Code{CodeUnknownCreature}},
	})
	r := Check(catalogue(t), List{e("Grizly Bears", "", 1, 100)}, evincar)
	if len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Message, "Grizzly Bears") {
		t.Errorf("an unknown name suggests the close one: %s", show(r))
	}
}

// TestSizes covers 2.2.2–2.2.6 with the rulebook's own examples.
func TestSizes(t *testing.T) {
	green := coalition(domain.Commander, G) // slots 3/3, 4/4, 5/5, 6/6
	runCases(t, []ruleCase{
		{name: "2.2.2/Lhurgoyf fills the 3/3 slot of a green army", army: green,
			list: List{e("Lhurgoyf", "3/3", 1, 5000)}},
		{name: "2.2.2/Lhurgoyf fills the 6/6 slot", army: green,
			list: List{e("Lhurgoyf", "6/6", 4, 1000)}},
		{name: "2.2.2/Lhurgoyf is not both the 3/3 and the 6/6", army: green,
			list: List{e("Lhurgoyf", "3/3", 1, 5000), e("Lhurgoyf", "6/6", 4, 1000)}, problems: []Code{CodeTwoSizes}},
		{name: "2.2.2/a */* creature needs its size", army: phyrexia(domain.Lieutenant),
			list: List{e("Plague Rats", "", 1, 5000)}, problems: []Code{CodeSizeNeeded}},
		{name: "2.2.2/Lhurgoyf's toughness is 1 or more", army: green,
			list: List{e("Lhurgoyf", "2/0", 1, 5000)}, problems: []Code{CodeSizeNotPrinted}},
		{name: "2.2.2/a size is written P/T", army: green,
			list: List{e("Lhurgoyf", "big", 1, 5000)}, problems: []Code{CodeBadSize}},
		{name: "2.2.3.2/Flowstone Sculpture as a 4/4", army: coalition(domain.Commander, CL),
			list: List{e("Flowstone Sculpture", "4/4", 2, 2500)}},
		{name: "2.2.3.2/Flowstone Sculpture as a 6/6", army: coalition(domain.Commander, CL),
			list: List{e("Flowstone Sculpture", "6/6", 4, 1000)}},
		{name: "2.2.3.2/Flowstone Sculpture is never smaller than 4/4", army: coalition(domain.Commander, CL),
			list: List{e("Flowstone Sculpture", "3/3", 1, 1000)}, problems: []Code{CodeSizeUnreachable}},
		{name: "2.2.3.2/Frozen Shade is a 0/1", army: coalition(domain.Lieutenant, B),
			list: List{e("Frozen Shade", "", 1, 5000)}},
		{name: "2.2.3.2/Frozen Shade is always 0/1, even in a swamp", army: coalition(domain.Lieutenant, B),
			list: List{e("Frozen Shade", "2/3", 3, 1500)}, problems: []Code{CodeSizeUnreachable}},
		{name: "2.2.3.3/Werebear as a 1/1", army: coalition(domain.Captain, G),
			list: List{e("Werebear", "1/1", 1, 5000)}},
		{name: "2.2.3.3/Werebear as a 4/4 with threshold", army: coalition(domain.Captain, G),
			list: List{e("Werebear", "4/4", 1, 5000)}},
		{name: "2.2.3.3/Werebear is not a 2/2", army: coalition(domain.Captain, G),
			list: List{e("Werebear", "2/2", 1, 5000)}, problems: []Code{CodeSizeUnreachable}},
		{name: "2.2.4/Clone fills any slot", army: coalition(domain.Captain, U),
			list: List{e("Clone", "7/7", 4, 1000)}},
		{name: "2.2.4/Clone needs its size", army: coalition(domain.Captain, U),
			list: List{e("Clone", "", 4, 1000)}, problems: []Code{CodeSizeNeeded}},
		{name: "2.2.4/Vesuvan Doppelganger is a copy card too", army: coalition(domain.Captain, U),
			list: List{e("Vesuvan Doppelganger", "5/5", 2, 2500)}},
		{name: "2.2.5/Winged Sliver is a 1/1", army: coalition(domain.Lieutenant, U),
			list: List{e("Winged Sliver", "", 1, 5000), e("Mnemonic Sliver", "2/2", 2, 2500)}},
		{name: "2.2.5/Winged Sliver is not a 2/2 beside Mnemonic Sliver", army: coalition(domain.Lieutenant, U),
			list: List{e("Winged Sliver", "2/2", 2, 1000), e("Mnemonic Sliver", "2/2", 2, 1000)}, problems: []Code{CodeSizeUnreachable}},
		{name: "2.2.5/a sliver keeps its printed size", army: coalition(domain.Captain, R),
			list: List{e("Fury Sliver", "4/4", 1, 1000)}, problems: []Code{CodeSizeNotPrinted}},
		{name: "2.2.6/Suntouched Myr as a 1/1", army: coalition(domain.Lieutenant, CL),
			list: List{e("Suntouched Myr", "1/1", 1, 5000)}},
		{name: "2.2.6/Suntouched Myr as a 3/3", army: coalition(domain.Lieutenant, CL),
			list: List{e("Suntouched Myr", "3/3", 3, 1500)}},
		{name: "2.2.6/Suntouched Myr is never a 4/4", army: coalition(domain.Lieutenant, CL),
			list: List{e("Suntouched Myr", "4/4", 4, 1000)}, problems: []Code{CodeSizeUnreachable}},
		{name: "2.2.6/Skarrgan Firebird as a 3/3", army: coalition(domain.Captain, R),
			list: List{e("Skarrgan Firebird", "3/3", 1, 5000)}},
		{name: "2.2.6/Skarrgan Firebird as a 6/6", army: coalition(domain.Captain, R),
			list: List{e("Skarrgan Firebird", "6/6", 3, 1500)}},
		{name: "2.2.6/Skarrgan Firebird is nothing between", army: coalition(domain.Captain, R),
			list: List{e("Skarrgan Firebird", "4/4", 1, 5000)}, problems: []Code{CodeSizeUnreachable}},
		{name: "2.2.6/Grizzly Bears as a 3/3 is for the judge", army: coalition(domain.Commander, G),
			list: List{e("Grizzly Bears", "3/3", 1, 5000)}, warnings: []Code{CodeSizeUnproven}},
		{name: "2.2.6/Grizzly Bears is never smaller than printed", army: coalition(domain.Lieutenant, G),
			list: List{e("Grizzly Bears", "1/1", 1, 5000)}, problems: []Code{CodeSizeNotPrinted}},
		{name: "2.1/infinite power fits no slot", army: coalition(domain.General, R),
			list: List{e("Infinity Elemental", "9/5", 4, 1000)}, problems: []Code{CodeTooBig}},
	})
}

// TestEveryProblemAtOnce: one list, every problem listed, each naming its creature.
func TestEveryProblemAtOnce(t *testing.T) {
	r := Check(catalogue(t), List{
		e("Grizzly Bears", "", 2, 2500),          // green in a black/red army
		e("Sengir Vampire", "", 1, 100),          // 4/4 in a 1/1 slot
		e("Plague Rats", "", 1, 2500),            // */* without a size
		e("Greater Morphling", "", 4, 1000),      // banned, blue, and 5/5 in a 4/4 slot
		e("Lightning Serpant Lord", "", 3, 1000), // no such creature card
		legend("Kris Mage"),                      // not a legend
	}, coalition(domain.Lieutenant, B, R))
	want := sorted(CodeColor, CodeTooBig, CodeSizeNeeded, CodeBanned, CodeColor, CodeTooBig, CodeUnknownCreature, CodeNotLegend)
	if got := codes(r.Problems); !slices.Equal(got, want) {
		t.Fatalf("problems %v, want %v\n%s", got, want, show(r))
	}
	for _, p := range r.Problems {
		if p.Creature == "" {
			t.Errorf("%s names no creature", p.Code)
		}
	}
}

// TestChange covers 2.3.2's example: Black Base destroyed, Sai Rei (black and red) changes
// troops at Red Base.
func TestChange(t *testing.T) {
	cat := catalogue(t)
	sai := coalition(domain.Captain, B, R)
	had := []domain.Troop{
		{Creature: "Plague Rats", Size: domain.Size{Power: 1, Toughness: 1}, Colors: []domain.Color{B}, Slot: 1, Alive: 5000, Full: 5000},
		{Creature: "Hill Giant", Size: domain.Size{Power: 3, Toughness: 3}, Colors: []domain.Color{R}, Slot: 1, Alive: 0, Full: 0},
	}
	black := []domain.Color{B}
	tests := []struct {
		name      string
		list      List
		destroyed []domain.Color
		want      []Code
	}{
		{"2.3.2/Plague Rats may not become Bog Imps", List{e("Bog Imp", "", 1, 5000)}, black, []Code{CodeDestroyedBaseColor}},
		{"2.3.2/Plague Rats may stay", List{e("Plague Rats", "1/1", 1, 5000), e("Shivan Dragon", "", 2, 2500)}, black, nil},
		{"2.3.2/Plague Rats may become a red 1/1", List{e("Kris Mage", "", 1, 5000)}, black, nil},
		{"2.3.2/with Black Base standing, Bog Imps are fine", List{e("Bog Imp", "", 1, 5000)}, nil, nil},
		{"2.3.2/the new list obeys 2.1 and 2.2", List{e("Grizzly Bears", "", 1, 5000)}, black, []Code{CodeColor}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := CheckChange(cat, tt.list, sai, had, tt.destroyed)
			if got := codes(r.Problems); !slices.Equal(got, sorted(tt.want...)) {
				t.Errorf("problems %v, want %v\n%s", got, tt.want, show(r))
			}
		})
	}
	five := coalition(domain.Captain, R, G, C5)
	r := CheckChange(cat, List{e("Scab-Clan Mauler", "", 1, 5000)}, five, nil, []domain.Color{C5})
	if got := codes(r.Problems); !slices.Equal(got, []Code{CodeDestroyedBaseColor}) {
		t.Errorf("2.3.2/a new multicolour creature once the 5-Color base is destroyed: %s", show(r))
	}
	r = CheckChange(cat, List{e("Scab-Clan Mauler", "", 1, 5000)}, five, nil, []domain.Color{G})
	if got := codes(r.Problems); !slices.Equal(got, []Code{CodeDestroyedBaseColor}) {
		t.Errorf("2.3.2/a new red and green creature once Green Base is destroyed: %s", show(r))
	}
	r = CheckChange(cat, List{e("Bog Imp", "", 1, 5000)}, phyrexia(domain.Captain), nil, black)
	if !r.OK() {
		t.Errorf("2.3.2/the destroyed-base rule binds the Coalition only: %s", show(r))
	}
}

// TestCustomisation covers 2.6: rank no higher than Lt Cmdr/CPL, new units and legend, the
// same colours, and the same number of troops alive.
func TestCustomisation(t *testing.T) {
	cat := catalogue(t)
	had := []domain.Troop{
		{Creature: "Kris Mage", Slot: 1, Alive: 3000, Full: 5000},
		{Creature: "Gray Ogre", Slot: 2, Alive: 1000, Full: 2500},
	}
	ltc := coalition(domain.LtCommander, R)
	tests := []struct {
		name string
		army Army
		list List
		want []Code
	}{
		{"2.6/new units and legend, troops alive the same", ltc,
			List{Entry{Creature: "Raging Goblin", Slot: 1, Count: 5000, Dead: 2000}, Entry{Creature: "Hill Giant", Slot: 2, Count: 2500, Dead: 1500}, legend("Akroma, Angel of Wrath")}, nil},
		{"2.6/the army is not healed", ltc,
			List{e("Raging Goblin", "", 1, 5000), e("Hill Giant", "", 2, 2500)}, []Code{CodeAliveChanged}},
		{"2.6/no army above Lt Cmdr", coalition(domain.Commander, R),
			List{Entry{Creature: "Raging Goblin", Slot: 1, Count: 4000}}, []Code{CodeRankTooHigh}},
		{"2.6/colours stay", ltc,
			List{Entry{Creature: "Grizzly Bears", Slot: 1, Count: 4000}}, []Code{CodeColor}},
		{"2.6/dead within the count", ltc,
			List{Entry{Creature: "Raging Goblin", Slot: 1, Count: 100, Dead: 200}}, []Code{CodeBadCount, CodeAliveChanged}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := CheckCustomisation(cat, tt.list, tt.army, had)
			if got := codes(r.Problems); !slices.Equal(got, sorted(tt.want...)) {
				t.Errorf("problems %v, want %v\n%s", got, tt.want, show(r))
			}
		})
	}
	r := CheckCustomisation(cat, tests[0].list, ltc, had)
	for _, tr := range r.Troops {
		if tr.Creature == "Raging Goblin" && (tr.Alive != 3000 || tr.Full != 5000) {
			t.Errorf("Raging Goblin: %d of %d alive, want 3,000 of 5,000", tr.Alive, tr.Full)
		}
	}
}

// TestTroops: the report turns the list into map troops with canonical names and colours.
func TestTroops(t *testing.T) {
	r := Check(catalogue(t), List{e("lim dul the necromancer", "", 2, 100), e("ornithopter", "", 1, 10), legend("sol'kanar the swamp king")},
		phyrexia(domain.Captain))
	if !r.OK() {
		t.Fatal(show(r))
	}
	want := []domain.Troop{
		{Creature: "Lim-Dûl the Necromancer", Size: domain.Size{Power: 4, Toughness: 4}, Colors: []domain.Color{B}, Slot: 2, Alive: 100, Full: 100},
		{Creature: "Ornithopter", Size: domain.Size{Power: 0, Toughness: 2}, Colors: []domain.Color{domain.Artifact}, Slot: 1, Alive: 10, Full: 10},
	}
	if len(r.Troops) != 2 {
		t.Fatalf("troops %+v", r.Troops)
	}
	for i := range want {
		g := r.Troops[i]
		if g.Creature != want[i].Creature || g.Size != want[i].Size || !slices.Equal(g.Colors, want[i].Colors) || g.Slot != want[i].Slot || g.Alive != want[i].Alive || g.Full != want[i].Full {
			t.Errorf("troop %d = %+v, want %+v", i, g, want[i])
		}
	}
	if r.Legend != "Sol'kanar the Swamp King" {
		t.Errorf("legend %q", r.Legend)
	}
}

// TestBindJSON: the server binds a list and an army from JSON as players send them.
func TestBindJSON(t *testing.T) {
	var in struct {
		Army   Army `json:"army"`
		Troops List `json:"troops"`
	}
	body := `{"army": {"name": "Darkhand5", "side": "phyrexia", "rank": "evincar"},
	          "troops": [{"creature": "Plague Rats", "size": "1/1", "slot": 1, "count": 5000},
	                     {"creature": "Sol'kanar the Swamp King", "legend": true}]}`
	if err := json.Unmarshal([]byte(body), &in); err != nil {
		t.Fatal(err)
	}
	if in.Army.Rank != domain.Captain || len(in.Troops) != 2 || !in.Troops[1].Legend {
		t.Fatalf("bound %+v", in)
	}
	r := Check(catalogue(t), in.Troops, in.Army)
	if !r.OK() {
		t.Error(show(r))
	}
	out, err := json.Marshal(r)
	if err != nil || !strings.Contains(string(out), `"problems":[]`) {
		t.Errorf("a clean report prints an empty problem list: %s %v", out, err)
	}
}

// TestGoldenMessages pins the words players and judges read (go test -update rewrites).
func TestGoldenMessages(t *testing.T) {
	cat := catalogue(t)
	reports := map[string]Report{
		"messy": Check(cat, List{
			e("Grizzly Bears", "", 1, 5000), e("Sengir Vampire", "", 1, 100), e("Plague Rats", "", 2, 2500),
			e("Greater Morphling", "", 4, 1000), e("Grizly Bears", "", 3, 100), e("Lhurgoyf", "2/4", 3, 100),
			e("Lhurgoyf", "3/3", 4, 100), e("Werebear", "2/2", 2, 100), e("Sol'kanar the Swamp King", "", 4, 100),
			e("Little Girl", "", 1, 1), legend("Kris Mage"), legend("Akroma, Angel of Wrath"),
		}, coalition(domain.Lieutenant, B, R)),
		"slots": Check(cat, List{
			e("Hill Giant", "", 1, 3000), e("Gray Ogre", "", 1, 2500), e("Shivan Dragon", "", 1, 100), e("Grizzly Bears", "3/3", 2, 100),
			e("Raging Goblin", "", 0, 3000), e("Kris Mage", "", 0, 3000), e("Goblin Balloon Brigade", "", 2, 10),
		}, coalition(domain.Commander, R, G)),
		"change": CheckChange(cat, List{e("Bog Imp", "", 1, 5000), e("Kris Mage", "", 2, 100)}, coalition(domain.Captain, B, R),
			[]domain.Troop{{Creature: "Plague Rats", Slot: 1, Alive: 5000, Full: 5000}}, []domain.Color{B}),
		"customise": CheckCustomisation(cat, List{e("Kris Mage", "", 1, 5000)}, coalition(domain.Commander, R),
			[]domain.Troop{{Creature: "Kris Mage", Slot: 1, Alive: 3000, Full: 5000}}),
	}
	got, err := json.MarshalIndent(reports, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	const path = "testdata/reports.golden.json"
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("reports differ from %s (run go test -update and review the diff):\n%s", path, got)
	}
}

func FuzzCheck(f *testing.F) {
	f.Add("Plague Rats", "1/1", 1, 5000, 0, false, int8(3))
	f.Add("lhurgoyf", "6/6", 4, 1000, 10, false, int8(4))
	f.Add("Sol'kanar the Swamp King", "", 0, 0, 0, true, int8(1))
	f.Add("Clone", "99/99", -1, -5, 7, false, int8(6))
	f.Add("", "1/", 9, 1, 2, true, int8(0))
	cat := catalogue(f)
	f.Fuzz(func(t *testing.T, name, size string, slot, count, dead int, isLegend bool, rank int8) {
		list := List{{Creature: name, Size: size, Slot: slot, Count: count, Dead: dead, Legend: isLegend}, e("Kris Mage", "", 0, 100)}
		for _, a := range []Army{coalition(domain.Rank(rank), R), phyrexia(domain.Rank(rank))} {
			r := Check(cat, list, a)
			for _, p := range append(r.Problems, r.Warnings...) {
				if p.Rule == "" || p.Code == "" || p.Message == "" {
					t.Fatalf("incomplete problem %+v", p)
				}
			}
			if r.OK() {
				for _, tr := range r.Troops {
					if tr.Slot < 1 || tr.Slot > 4 || !tr.Size.Fits(a.Rank.SlotSize(tr.Slot)) || tr.Full > domain.SlotCapacity(tr.Slot) || tr.Alive < 0 {
						t.Fatalf("accepted an illegal troop %+v in %+v", tr, a)
					}
				}
			}
		}
	})
}

func BenchmarkCheck(b *testing.B) {
	cat := catalogue(b)
	list := List{
		e("Plague Rats", "1/1", 1, 4000), e("Hypnotic Specter", "", 1, 1000), e("Dack's Duplicate", "4/4", 2, 1000),
		e("Ornithopter", "", 2, 1000), e("Mahamoti Djinn", "", 3, 1500), e("Shivan Dragon", "", 4, 1000),
		legend("Sol'kanar the Swamp King"),
	}
	a := phyrexia(domain.Captain)
	if r := Check(cat, list, a); !r.OK() {
		b.Fatal(show(r))
	}
	b.ReportAllocs()
	for b.Loop() {
		Check(cat, list, a)
	}
}

// TestSizesWithRulesText: where the catalogue knows a card's rules text (an MTGJSON import, a
// judge's correction), a size other than the printed one needs kicker, threshold or +1/+1
// counters in it; other abilities, pumps and conditions on the board never change the size
// (2.2.3.2, 2.2.3.3, 2.2.3.4, 2.2.6). Without text the judge decides (a warning).
func TestSizesWithRulesText(t *testing.T) {
	text := func(s string) *string { return &s }
	cat := cards.New([]cards.Card{
		{Name: "Grizzly Bears", Colors: []string{"G"}, Types: []string{"Creature"}, Power: "2", Toughness: "2", Text: text("")},
		{Name: "Wild Nacatl", Colors: []string{"G"}, Types: []string{"Creature"}, Power: "1", Toughness: "1",
			Text: text("Wild Nacatl gets +1/+1 as long as you control a Mountain.\nWild Nacatl gets +1/+1 as long as you control a Plains.")},
		{Name: "Kicker Test Beast", Colors: []string{"G"}, Types: []string{"Creature"}, Power: "2", Toughness: "2",
			Text: text("Kicker {2}{G}\nIf Kicker Test Beast was kicked, it enters with three +1/+1 counters on it and with trample.")},
		{Name: "Werewolf Pack", Colors: []string{"G"}, Types: []string{"Creature"}, Power: "3", Toughness: "3"},
	})
	green := coalition(domain.Commander, G) // slots 3/3, 4/4, 5/5, 6/6
	for _, tt := range []struct {
		name     string
		entry    Entry
		problems []Code
		warnings []Code
	}{
		{"2.2.6/a vanilla Grizzly Bears is never a 3/3", e("Grizzly Bears", "3/3", 1, 5000), []Code{CodeSizeUnreachable}, nil},
		{"2.2.6/a vanilla Grizzly Bears as printed", e("Grizzly Bears", "2/2", 1, 5000), nil, nil},
		{"2.2.3.4/Wild Nacatl's Mountain is ignored", e("Wild Nacatl", "2/2", 1, 5000), []Code{CodeSizeUnreachable}, nil},
		{"2.2.3.3/a kicker card kicked is for the judge", e("Kicker Test Beast", "5/5", 3, 1500), nil, []Code{CodeSizeUnproven}},
		{"2.2.6/a card without known text is for the judge", e("Werewolf Pack", "4/4", 2, 2500), nil, []Code{CodeSizeUnproven}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := Check(cat, List{tt.entry}, green)
			if got, want := codes(r.Problems), sorted(tt.problems...); !slices.Equal(got, want) {
				t.Errorf("problems %v, want %v\n%s", got, want, show(r))
			}
			if got, want := codes(r.Warnings), sorted(tt.warnings...); !slices.Equal(got, want) {
				t.Errorf("warnings %v, want %v\n%s", got, want, show(r))
			}
		})
	}
}

// A list checked for an army without a name (a check by side and rank) calls it "the army":
// no message starts with an empty name.
func TestMessagesNameAnUnnamedArmy(t *testing.T) {
	cat := catalogue(t)
	unnamed := Army{Side: domain.Coalition, Rank: domain.Captain, Colors: []domain.Color{R}}
	had := []domain.Troop{{Creature: "Kris Mage", Slot: 1, Alive: 3000, Full: 5000}}
	reports := map[string]Report{
		"customise": CheckCustomisation(cat, List{e("Raging Goblin", "", 1, 5000)}, unnamed, had),
		"change":    CheckChange(cat, List{e("Kris Mage", "", 1, 5000)}, Army{Side: domain.Coalition, Rank: domain.Captain, Colors: []domain.Color{R, C5}}, nil, []domain.Color{R}),
	}
	for kind, r := range reports {
		if len(r.Problems) == 0 {
			t.Errorf("%s: no problems to read: %s", kind, show(r))
		}
		for _, p := range r.Problems {
			if strings.HasPrefix(p.Message, " ") || strings.Contains(p.Message, "  ") || strings.Contains(p.Message, "; has") || !strings.Contains(strings.ToLower(p.Message), "the army") {
				t.Errorf("%s: %q does not name the army", kind, p.Message)
			}
		}
	}
}
