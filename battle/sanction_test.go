package battle

import (
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

// 5.4.1: severity × die roll × (100, 50, 25, 10) troops in slots 1–4.
func TestSanction(t *testing.T) {
	seed := domain.ScenarioSeed(11, 2)
	for _, sev := range []int{0, 1, 3} {
		for k := 1; k <= 3; k++ {
			s, err := Sanction("Darkhand", k, sev, seed.Draws())
			if err != nil {
				t.Fatal(err)
			}
			label := SanctionLabel("Darkhand", k)
			d := seed.D20(label)
			if s.Roll != (Roll{Label: label, Value: d}) {
				t.Fatalf("roll %+v, want %s = %d", s.Roll, label, d)
			}
			want := [4]int{sev * d * 100, sev * d * 50, sev * d * 25, sev * d * 10}
			if s.Slots != want {
				t.Errorf("severity %d, d20 %d: slots %v, want %v", sev, d, s.Slots, want)
			}
		}
	}
	if _, err := Sanction("Darkhand", 1, -1, seed.Draws()); err == nil {
		t.Error("a negative severity is accepted")
	}
	if _, err := Sanction("Darkhand", 0, 1, seed.Draws()); err == nil {
		t.Error("sanction number 0 is accepted")
	}
}

func TestSanctionLosses(t *testing.T) {
	a := &domain.Army{Name: "X", Troops: []domain.Troop{
		proposeTroop("Rats", "1/1", 1, 3000),
		proposeTroop("Mice", "1/1", 1, 1000),
		proposeTroop("Knights", "2/2", 2, 100),
		proposeTroop("Ogres", "3/3", 3, 0),
		proposeTroop("Giants", "4/4", 4, 1000),
	}}
	s := SanctionLoss{Slots: [4]int{400, 300, 50, 70}}
	got := s.Losses(a)
	want := map[string]int{"Rats": 300, "Mice": 100, "Knights": 100, "Giants": 70}
	if len(got) != len(want) {
		t.Fatalf("losses %v, want %v", got, want)
	}
	for c, n := range want {
		if got[c] != n {
			t.Errorf("%s lost %d, want %d (losses %v)", c, got[c], n, got)
		}
	}
}
