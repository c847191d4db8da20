package cards

import (
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

func size(p, t int) domain.Size { return domain.Size{Power: p, Toughness: t} }

// TestReachAllows covers the rulebook's examples of sizes a creature can take (2.2.3.2,
// 2.2.3.3, 2.2.4, 2.2.5, 2.2.6).
func TestReachAllows(t *testing.T) {
	tests := []struct {
		rule, card string
		size       domain.Size
		want       bool
	}{
		{"2.2.3.3", "Werebear", size(1, 1), true},
		{"2.2.3.3", "Werebear", size(4, 4), true},
		{"2.2.3.3", "Werebear", size(2, 2), false},
		{"2.2.3.2", "Flowstone Sculpture", size(4, 4), true},
		{"2.2.3.2", "Flowstone Sculpture", size(6, 6), true},
		{"2.2.3.2", "Flowstone Sculpture", size(3, 3), false},
		{"2.2.3.2", "Flowstone Sculpture", size(5, 6), false},
		{"2.2.3.2", "Frozen Shade", size(0, 1), true},
		{"2.2.3.2", "Frozen Shade", size(1, 2), false},
		{"2.2.6", "Suntouched Myr", size(1, 1), true},
		{"2.2.6", "Suntouched Myr", size(3, 3), true},
		{"2.2.6", "Suntouched Myr", size(4, 4), false},
		{"2.2.6", "Suntouched Myr", size(0, 0), false},
		{"2.2.6", "Skarrgan Firebird", size(3, 3), true},
		{"2.2.6", "Skarrgan Firebird", size(6, 6), true},
		{"2.2.6", "Skarrgan Firebird", size(4, 4), false},
		{"2.2.6", "Skarrgan Firebird", size(5, 5), false},
		{"2.2.5", "Winged Sliver", size(1, 1), true},
		{"2.2.5", "Winged Sliver", size(2, 2), false},
		{"2.2.5", "Mnemonic Sliver", size(2, 2), true},
		{"2.2.5", "Muscle Sliver", size(2, 2), true},
		{"2.2.5", "Muscle Sliver", size(1, 1), false},
		{"2.2.4", "Clone", size(4, 4), true},
		{"2.2.4", "Clone", size(9, 1), true},
	}
	for _, tt := range tests {
		t.Run(tt.rule+"/"+tt.card+"/"+tt.size.String(), func(t *testing.T) {
			r := KnownReach(tt.card)
			if r == nil {
				t.Fatalf("%s is not in the table", tt.card)
			}
			if got := r.Allows(tt.size); got != tt.want {
				t.Errorf("%s as %s: %v, want %v (%s)", tt.card, tt.size, got, tt.want, r)
			}
		})
	}
}

func TestReachString(t *testing.T) {
	tests := map[string]string{
		"Werebear":            "1/1 or 4/4",
		"Flowstone Sculpture": "4/4 and up by +1/+1 counters",
		"Suntouched Myr":      "1/1 to 3/3",
		"Clone":               "any size",
	}
	for name, want := range tests {
		if got := KnownReach(name).String(); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

// TestKnownReachSound checks the table against the card data: every card exists, every
// entry is valid, and a card that keeps its printed size lists it.
func TestKnownReachSound(t *testing.T) {
	c := shippedCatalogue(t)
	for name, r := range known {
		if err := r.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if r.Rule == "" || r.Note == "" {
			t.Errorf("%s: every entry cites its rule and says why", name)
		}
		card, ok := c.Lookup(name)
		if !ok {
			t.Errorf("%s is not in the card data", name)
			continue
		}
		p, tg := card.Printed()
		if p.Kind != Fixed || tg.Kind != Fixed {
			t.Errorf("%s is printed %s/%s: the table is for cards with a printed size", name, card.Power, card.Toughness)
		}
	}
}
