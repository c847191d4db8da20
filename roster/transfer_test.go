package roster_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/roster"
)

func troop(name string, size int, color domain.Color, slot, alive int) domain.Troop {
	return domain.Troop{Creature: name, Size: domain.Size{Power: size, Toughness: size}, Colors: []domain.Color{color}, Slot: slot, Alive: alive, Full: alive}
}

// TestCheckTransfer covers 2.3.3 and T2: room after the transfer, dead creatures counted.
func TestCheckTransfer(t *testing.T) {
	sender := &domain.Army{Name: "Gerrard", Side: domain.Coalition, Rank: domain.Captain, Colors: []domain.Color{domain.Red, domain.Green},
		Troops: []domain.Troop{troop("Kris Mage", 1, domain.Red, 1, 3000), troop("Grizzly Bears", 2, domain.Green, 1, 2000), troop("Shivan Dragon", 5, domain.Red, 2, 500)}}
	receiver := func(colors []domain.Color, troops ...domain.Troop) *domain.Army {
		return &domain.Army{Name: "Sai Rei", Side: domain.Coalition, Rank: domain.Lieutenant, Colors: colors, Troops: append([]domain.Troop{}, troops...)}
	}
	red := []domain.Color{domain.Red}
	five := []domain.Troop{troop("A", 1, domain.Red, 1, 0), troop("B", 1, domain.Red, 1, 0), troop("C", 1, domain.Red, 1, 0),
		troop("D", 1, domain.Red, 1, 0), troop("E", 1, domain.Red, 1, 0)}
	tests := []struct {
		name      string
		receiver  *domain.Army
		creatures map[string]int
		want      []roster.Code
	}{
		{"2.3.3/a transfer with room", receiver(red), map[string]int{"Kris Mage": 1000}, nil},
		{"2.3.3/six creature types counting dead ones", receiver(red, append(five, troop("F", 1, domain.Red, 1, 0))...),
			map[string]int{"Kris Mage": 10}, []roster.Code{roster.CodeTransferNoRoom}},
		{"2.3.3/a sixth type is fine", receiver(red, five...), map[string]int{"Kris Mage": 10}, nil},
		{"2.3.3/the slot's count", receiver(red, troop("Kris Mage", 1, domain.Red, 1, 4500)), map[string]int{"Kris Mage": 1000},
			[]roster.Code{roster.CodeTransferNoRoom}},
		{"2.3.3/a Coalition receiver's colours", receiver(red), map[string]int{"Grizzly Bears": 100}, []roster.Code{roster.CodeTransferNoRoom}},
		{"2.3.3/a creature too big for every slot", receiver(red), map[string]int{"Shivan Dragon": 100}, []roster.Code{roster.CodeTransferNoRoom}},
		{"3.2.4.2/only troops the sender has", receiver(red), map[string]int{"Kris Mage": 4000, "Serra Angel": 1, "Shivan Dragon": 0},
			[]roster.Code{roster.CodeTransferNoRoom, roster.CodeTransferNoRoom, roster.CodeTransferNoRoom}},
		{"2.3.3/every problem at once", receiver([]domain.Color{domain.Green}, troop("Grizzly Bears", 2, domain.Green, 2, 2500)),
			map[string]int{"Grizzly Bears": 100, "Kris Mage": 100}, []roster.Code{roster.CodeTransferNoRoom, roster.CodeTransferNoRoom}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := roster.CheckTransfer(sender, tt.receiver, tt.creatures)
			var got []roster.Code
			for _, p := range r.Problems {
				got = append(got, p.Code)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("problems %v, want %v: %+v", got, tt.want, r.Problems)
			}
		})
	}
}

// TestCheckTransferAgreesWithMovement: CheckTransfer accepts exactly the transfers
// domain.TransferRoom accepts (T2), and its first problem has the same code.
func TestCheckTransferAgreesWithMovement(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	colors := []domain.Color{domain.White, domain.Blue, domain.Black, domain.Red, domain.Green}
	armyColors := [][]domain.Color{{domain.Red}, {domain.Red, domain.Green}, {domain.FiveColor, domain.Blue}, {domain.Colorless}, {domain.Artifact, domain.Black, domain.White}}
	randomTroops := func(n int) []domain.Troop {
		var ts []domain.Troop
		for i := 0; i < n; i++ {
			var cs []domain.Color
			switch rng.IntN(4) {
			case 0:
				cs = []domain.Color{domain.Artifact}
			case 1:
				cs = []domain.Color{colors[rng.IntN(5)], colors[rng.IntN(5)]}
			default:
				cs = []domain.Color{colors[rng.IntN(5)]}
			}
			s := 1 + rng.IntN(8)
			ts = append(ts, domain.Troop{Creature: "C" + strconv.Itoa(rng.IntN(10)), Size: domain.Size{Power: s, Toughness: 1 + rng.IntN(8)},
				Colors: cs, Slot: 1 + rng.IntN(4), Alive: rng.IntN(3000), Full: 3000})
		}
		return ts
	}
	accepted, rejected := 0, 0
	for i := 0; i < 5000; i++ {
		side := domain.Coalition
		if rng.IntN(3) == 0 {
			side = domain.Phyrexia
		}
		sender := &domain.Army{Name: "S", Side: side, Rank: domain.Rank(1 + rng.IntN(6)), Troops: randomTroops(rng.IntN(7))}
		receiver := &domain.Army{Name: "R", Side: side, Rank: domain.Rank(1 + rng.IntN(6)), Colors: armyColors[rng.IntN(len(armyColors))], Troops: randomTroops(rng.IntN(7))}
		if rng.IntN(10) == 0 {
			receiver.Troops = nil
		}
		creatures := map[string]int{}
		for j := rng.IntN(4); j >= 0; j-- {
			creatures["C"+strconv.Itoa(rng.IntN(10))] = rng.IntN(2000) - 100
		}
		code, msg := domain.TransferRoom(sender, receiver, creatures)
		r := roster.CheckTransfer(sender, receiver, creatures)
		if (code == "") != r.OK() {
			t.Fatalf("case %d: movement says %q %q, roster says %+v\nsender %+v\nreceiver %+v\ncreatures %v", i, code, msg, r.Problems, sender, receiver, creatures)
		}
		if code != "" {
			rejected++
			if string(r.Problems[0].Code) != string(code) {
				t.Fatalf("case %d: first problem %s, movement's %s (%s)", i, r.Problems[0].Code, code, msg)
			}
		} else {
			accepted++
		}
	}
	if accepted < 500 || rejected < 500 {
		t.Fatalf("the random cases must cover both outcomes: %d accepted, %d rejected", accepted, rejected)
	}
}

// TestColorsAgreeWithMovement: a transfer's colour check in the troop-list checker agrees with
// the one the movement judge applies (2.2.1, T2), on every combination of army and creature
// colours.
func TestColorsAgreeWithMovement(t *testing.T) {
	all := []domain.Color{domain.White, domain.Blue, domain.Black, domain.Red, domain.Green, domain.FiveColor, domain.Colorless, domain.Artifact}
	creatures := [][]domain.Color{{domain.Red}, {domain.Red, domain.Green}, {domain.Artifact}, nil, {domain.Blue, domain.Artifact}, {domain.White, domain.Blue, domain.Black}}
	for mask := 1; mask < 1<<len(all); mask++ {
		var colors []domain.Color
		for i, c := range all {
			if mask&(1<<i) != 0 {
				colors = append(colors, c)
			}
		}
		a := &domain.Army{Name: "A", Side: domain.Coalition, Rank: domain.Lieutenant, Colors: colors, Troops: []domain.Troop{}}
		for _, cs := range creatures {
			tr := domain.Troop{Creature: "X", Size: domain.Size{Power: 1, Toughness: 1}, Colors: cs, Slot: 1, Alive: 1, Full: 1}
			sender := &domain.Army{Name: "S", Side: domain.Coalition, Rank: domain.Lieutenant, Troops: []domain.Troop{tr}}
			code, _ := domain.TransferRoom(sender, a, map[string]int{"X": 1})
			want := code == ""
			r := roster.CheckTransfer(sender, a, map[string]int{"X": 1})
			got := r.OK()
			if got != want {
				t.Errorf("army %v, creature %v: roster %v, domain.TransferRoom %v", colors, cs, got, want)
			}
		}
	}
}
