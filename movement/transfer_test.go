package movement_test

import (
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/movement"
)

// TestTransferCheckOrder pins the order in which a transfer line is checked (T2): receiver
// exists, square, transfer_not_friendly, transfer_wrong_square, transfer_not_adjacent,
// transfer_from_site, transfer_no_room. Each line breaks the check it is named for and every
// check after it, so that only the first failure can be named.
func TestTransferCheckOrder(t *testing.T) {
	sq := func(s string) domain.Square {
		v, err := domain.ParseSquare(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	bears := func(alive int) []domain.Troop {
		return []domain.Troop{{Creature: "Grizzly Bears", Size: domain.Size{Power: 2, Toughness: 2}, Colors: []domain.Color{domain.Green}, Slot: 2, Alive: alive, Full: 2500}}
	}
	army := func(name string, side domain.Side, at string) domain.Army {
		return domain.Army{Name: name, Side: side, Rank: domain.Lieutenant, At: sq(at), Controllers: []string{"Gazetzot"}, Colors: []domain.Color{domain.Green}, Troops: bears(1000)}
	}
	m := &domain.Map{Grid: domain.DefaultGrid,
		Sites: []domain.Site{{Name: "Green Base", Kind: domain.Base, Side: domain.Coalition, Color: domain.Green, At: sq("5E")}},
		Armies: []domain.Army{
			army("Ash", domain.Coalition, "5E"),   // on a base: it may not send troops (T1)
			army("Birch", domain.Coalition, "6E"), // next to Ash; both have their slot 2 nearly full
			army("Cedar", domain.Coalition, "9E"), // three squares from Ash
			army("Grim", domain.Phyrexia, "9H"),   // an enemy, far away
		}}
	m.Armies[0].Troops, m.Armies[1].Troops = bears(2000), bears(2400)
	for _, c := range []struct {
		line string
		want domain.Code
	}{
		{"Transfer to Nobody at 40A", domain.CodeUnknownArmy},             // receiver exists
		{"Transfer to Grim at 40A", domain.CodeOffMap},                    // square
		{"Transfer to Grim at 9E", domain.CodeTransferNotFriendly},        // not friendly, wrong square, not adjacent
		{"Transfer to Ash at 5E", domain.CodeTransferNotFriendly},         // itself
		{"Transfer to Cedar at 6E", domain.CodeTransferWrongSquare},       // wrong square, not adjacent
		{"Transfer to Cedar at 9E", domain.CodeTransferNotAdjacent},       // not adjacent, from a site, no room
		{"Transfer to Birch at 6E", domain.CodeTransferFromSite},          // from a site, no room
		{"Birch: Transfer to Ash at 5E", domain.CodeTransferNoRoom},       // no room
		{"Birch: Transfer to Ash at 6E", domain.CodeTransferWrongSquare},  // Ash stands on 5E
		{"Cedar: Transfer to Grim at 9H", domain.CodeTransferNotFriendly}, // not adjacent either
	} {
		author, army := "Gazetzot", "Ash"
		if o, err := movement.ParseLine(c.line); err == nil && o.Army != "" {
			army = o.Army
		}
		text := c.line
		if army == "Ash" {
			text = "Ash: " + c.line
		}
		post := domain.Post{ID: 1, Author: author, At: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), Text: text}
		// more bears than the receiver has room for, in every case
		detail := []domain.TransferDetail{{Post: 1, Army: army, Creatures: map[string]int{"Grizzly Bears": 900}}}
		lines := movement.CheckPost(m, post, movement.Options{Transfers: detail})
		if len(lines) != 1 {
			t.Fatalf("%q: %d lines", text, len(lines))
		}
		got := domain.Code("")
		if r := lines[0].Rejection; r != nil {
			got = r.Code
		}
		if got != c.want {
			t.Errorf("%q is rejected with %q; want %q (T2's order)", text, got, c.want)
		}
	}
}
