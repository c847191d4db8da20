// Rule 5.4.1: the sanction for an order given to an army by someone who does not control it.

package battle

import (
	"strconv"

	"github.com/coalition-wargame/coalition/domain"
)

// SanctionRates are the troops per point of severity and per pip of the die that a sanction
// costs slots 1–4 (5.4.1).
var SanctionRates = [domain.Slots]int{100, 50, 25, 10}

// SanctionLabel is the label of the d20 of the k-th sanction (k = 1, 2 …) laid on an army in
// one turn (5.4.1): "sanction:<army>:<k>".
func SanctionLabel(army string, k int) string {
	return "sanction:" + army + ":" + strconv.Itoa(k)
}

// SanctionLoss is what a sanction for an order given to an army by someone who does not
// control it costs the army (5.4.1): severity × d20 × (100, 50, 25, 10) troops in slots 1–4.
// The judge decides whether to apply it.
type SanctionLoss struct {
	Army     string `json:"army"`
	Severity int    `json:"severity"`
	Roll     Roll   `json:"roll"`
	// Slots are the troops lost in slots 1–4 (index 0 is slot 1).
	Slots [domain.Slots]int `json:"slots"`
}

// Sanction rolls the k-th sanction of the turn on the named army (k from 1) at the given
// severity, with the turn's draws. A severity below 0 or a k below 1 is an error.
func Sanction(army string, k, severity int, d *domain.Draws) (SanctionLoss, error) {
	if severity < 0 {
		return SanctionLoss{}, domain.Errorf(domain.ErrInvalid, "a sanction's severity must be 0 or more, not %d", severity)
	}
	if k < 1 {
		return SanctionLoss{}, domain.Errorf(domain.ErrInvalid, "sanctions on an army are numbered from 1, not %d", k)
	}
	rec := NewRecorder(d)
	v := rec.D20(SanctionLabel(army, k))
	s := SanctionLoss{Army: army, Severity: severity, Roll: rec.Rolls[0]}
	for i, rate := range SanctionRates {
		s.Slots[i] = severity * v * rate
	}
	return s, nil
}

// Losses spreads the sanction over the army's creatures: each slot's loss is shared among the
// creatures of that slot by their living troops, never more than are alive. The result is
// creature → troops lost, as in domain.BattleResult.Losses.
func (s SanctionLoss) Losses(a *domain.Army) map[string]int {
	out := map[string]int{}
	for slot := 1; slot <= domain.Slots; slot++ {
		weights := make([]float64, len(a.Troops))
		caps := make([]int, len(a.Troops))
		for i, t := range a.Troops {
			if t.Slot == slot && t.Alive > 0 {
				weights[i], caps[i] = float64(t.Alive), t.Alive
			}
		}
		for i, n := range apportion(s.Slots[slot-1], weights, caps) {
			if n > 0 {
				out[a.Troops[i].Creature] += n
			}
		}
	}
	return out
}
