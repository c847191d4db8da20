package movement_test

import (
	"reflect"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/movement"
)

// lineSeeds are lines players write (3.2.2.5, 3.2.3.1, 3.2.4.2, 3.2.5.1) and lines that trip
// parsers: empty parts, odd arrows and dashes, letter-first squares, colons. The lines that
// broke ParseLine are in testdata/fuzz/FuzzParseLine, where go test replays them.
var lineSeeds = []string{
	"Sai Rei: 3D > 5E; replace Darkhand5",
	"Sai Rei: 3F > 4F; engage Darkhand5",
	"5E > 8E > 11E > 14H",
	"Sai Rei: 5E > 8E > 11E > 14E > 14H",
	"3D > 5E (3D - 4D - 4E - 5E) > 8E; engage Grim",
	"Ash: 10C > 10E; Joint Engage",
	"Ash: 10C > 10E; joint engagement Grim",
	"Birch: 10G -> 10E (10G, 10F, 10E) JE",
	"d3 => e5",
	"D3>D5",
	"3D > 5E (3D – 4D — 5E)",
	"3D > 5E ()",
	"3D > 5E (3D - 4D",
	"3D > 0A",
	"3D > 300Z",
	"Intercept Darkhand5",
	"Grim: Intercept Sai Rei.",
	"Ash: Transfer to Birch at 11D",
	"Ash: Transfer Birch at 11D.",
	"Transfer to Lord at the Gate at 5E",
	"no move",
	"Sai Rei: No move.",
	"Darkhand5: cannot move, fighting",
	"Sai Rei:",
	":",
	"38B > 39B",
	"10J to the moon",
	"Ghost: 1A > 2A",
}

// FuzzParseLine checks that ParseLine never panics, that a rejected line says why with the
// parse_error code, and that every accepted order printed back with Format parses to the same
// order (Format's promise).
func FuzzParseLine(f *testing.F) {
	for _, s := range lineSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		defer failOnPanic(t, line)
		o, perr := movement.ParseLine(line)
		if perr != nil {
			if perr.Code != domain.CodeParseError || strings.TrimSpace(perr.Message) == "" {
				t.Fatalf("ParseLine(%q) fails with code %q and message %q", line, perr.Code, perr.Message)
			}
			return
		}
		switch o.Kind {
		case domain.Hold, domain.MoveKind, domain.InterceptKind, domain.Transfer:
		default:
			t.Fatalf("ParseLine(%q) accepts an order of kind %q", line, o.Kind)
		}
		text := movement.Format(o)
		back, perr := movement.ParseLine(text)
		if perr != nil {
			t.Fatalf("ParseLine(%q) = %+v; Format prints it as %q, which does not parse: %s", line, o, text, perr.Message)
		}
		if !reflect.DeepEqual(o, back) {
			t.Fatalf("ParseLine(%q) = %+v; Format prints it as %q, which parses to %+v", line, o, text, back)
		}
	})
}

// fuzzMap is a small map with every kind of neighbour an order can meet: friends, enemies, a
// mercenary, a battle fought this turn, a site, an army with two controllers, an army named
// after its player, a long move under way, and troops to transfer.
func fuzzMap() *domain.Map {
	sq := func(s string) domain.Square {
		v, err := domain.ParseSquare(s)
		if err != nil {
			panic(err)
		}
		return v
	}
	bears := func(alive int) []domain.Troop {
		return []domain.Troop{{Creature: "Grizzly Bears", Size: domain.Size{Power: 2, Toughness: 2}, Colors: []domain.Color{domain.Green}, Slot: 2, Alive: alive, Full: 2500}}
	}
	m := &domain.Map{Grid: domain.Grid{Cols: 8, Rows: 6},
		Sites: []domain.Site{{Name: "Green Base", Kind: domain.Base, Side: domain.Coalition, Color: domain.Green, At: sq("2B")}},
		Armies: []domain.Army{
			{Name: "Sai Rei", Side: domain.Coalition, Rank: domain.Lieutenant, At: sq("3C"), Controllers: []string{"Gazetzot"}, Colors: []domain.Color{domain.Green}, Troops: bears(2000)},
			{Name: "Birch", Side: domain.Coalition, Rank: domain.Lieutenant, At: sq("4D"), Controllers: []string{"Gazetzot"}, Colors: []domain.Color{domain.Green}, Troops: bears(1500)},
			{Name: "Ash", Side: domain.Coalition, Rank: domain.Captain, At: sq("2B"), Controllers: []string{"Ash"}},
			{Name: "Two Hands", Side: domain.Coalition, Rank: domain.Commander, At: sq("6A"), Controllers: []string{"Gazetzot", "Mirri"}},
			{Name: "Darkhand5", Side: domain.Phyrexia, Rank: domain.Lieutenant, At: sq("5C"), Controllers: []string{"Vorath"}, Troops: bears(100)},
			{Name: "Grim", Side: domain.Phyrexia, Rank: domain.Lieutenant, At: sq("3E"), Controllers: []string{"Vorath"},
				Plan: &domain.Plan{Legs: []domain.Leg{{To: sq("6E")}, {To: sq("8F")}}, Post: 1, At: time.Date(2026, 2, 27, 0, 0, 0, 0, time.UTC), Line: 1}},
			{Name: "Raider One", Side: domain.Mercenary, Rank: domain.Lieutenant, At: sq("6D"), Faction: domain.Raider},
			{Name: "Fighter", Side: domain.Coalition, Rank: domain.Lieutenant, At: sq("7F"), Controllers: []string{"Mirri"}},
			{Name: "Foe", Side: domain.Phyrexia, Rank: domain.Lieutenant, At: sq("7F"), Controllers: []string{"Vorath"}},
		},
		Battles: []domain.Battle{{Square: sq("7F"), Armies: []string{"Fighter", "Foe"}, Kind: domain.Meeting}},
	}
	if err := m.Validate(); err != nil {
		panic(err)
	}
	return m
}

var fuzzAuthors = []string{"Gazetzot", "Vorath", "Ash", "Mirri", movement.MercenaryJudge, "Nobody"}

// FuzzCheck checks that Check never panics on any post text from any author, that every line
// it reads is either accepted or rejected with a code and a message, and that Resolve never
// panics on what Check accepted.
func FuzzCheck(f *testing.F) {
	for i, s := range lineSeeds {
		f.Add(s, uint8(i), false)
	}
	f.Add("Sai Rei: 3C > 5C; engage Darkhand5\nBirch: 4D > 3C; replace Sai Rei", uint8(0), false)
	f.Add("Sai Rei: 3C > 4C; Joint Engage\nBirch: 4D > 4C; Joint Engage", uint8(0), false)
	f.Add("Darkhand5: 5C > 4C > 2C > 2A\nGrim: Intercept Sai Rei", uint8(1), true)
	f.Add("Sai Rei: Transfer to Birch at 4D", uint8(0), false)
	f.Add("3C > 3C", uint8(2), false)
	f.Add("Raider One: 6D > 5C (6D - 6C - 5C); engage Darkhand5", uint8(4), false)
	lock := time.Date(2026, 3, 3, 5, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, text string, who uint8, private bool) {
		defer failOnPanic(t, text)
		m := fuzzMap()
		post := domain.Post{ID: 7, Author: fuzzAuthors[int(who)%len(fuzzAuthors)], At: lock.Add(-time.Duration(who) * time.Hour), Private: private, Text: text}
		orders := movement.Check(m, []domain.Post{post}, movement.Options{Lock: lock,
			Transfers: []domain.TransferDetail{{Post: 7, Army: "Sai Rei", Creatures: map[string]int{"Grizzly Bears": int(who) * 20}}}})
		for _, l := range orders.Lines {
			if r := l.Rejection; r != nil && (r.Code == "" || strings.TrimSpace(r.Message) == "") {
				t.Fatalf("line %q is rejected with code %q and message %q", l.Text, r.Code, r.Message)
			}
		}
		if len(orders.Effective) != len(m.Armies) {
			t.Fatalf("Check gives %d effective orders for %d armies", len(orders.Effective), len(m.Armies))
		}
		movement.Resolve(m, orders, domain.ScenarioSeed(int64(who), 0))
		for _, a := range m.Armies {
			if !m.Grid.Contains(a.At) {
				t.Fatalf("after %q, %s is off the map on %q", text, a.Name, a.At)
			}
		}
	})
}

// failOnPanic turns a panic into a failure that names the input, so that go test replays every
// failing corpus entry instead of stopping at the first panic.
func failOnPanic(t *testing.T, input any) {
	if r := recover(); r != nil {
		t.Fatalf("panic on %q: %v\n%s", input, r, debug.Stack())
	}
}
