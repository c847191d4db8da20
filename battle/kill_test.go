package battle

import (
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

// TestKillEngagedNamesOneSide checks R103's killer: the one side of the armies that engaged an
// army with no troops, none when two sides did, whatever the order they are found in.
func TestKillEngagedNamesOneSide(t *testing.T) {
	co, ph := domain.Coalition, domain.Phyrexia
	for _, c := range []struct {
		sides []domain.Side
		want  domain.Side
	}{
		{nil, ""},
		{[]domain.Side{co}, co},
		{[]domain.Side{co, co}, co},
		{[]domain.Side{co, ph}, ""},
		{[]domain.Side{co, ph, co}, ""},
		{[]domain.Side{ph, co, ph}, ""},
	} {
		k := Kill{Army: "Warden"}
		for _, s := range c.sides {
			k.Engaged(s)
		}
		if k.By != c.want {
			t.Errorf("engaged by %v: By %q, want %q", c.sides, k.By, c.want)
		}
	}
}
