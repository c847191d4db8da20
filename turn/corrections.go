package turn

// This file holds the battle judge's corrections of a locked turn in the pipeline (3.3.3, R75,
// R76): the lines' outcomes he overruled, carried into the movement check, and the day counts he
// set, written into the map the update leaves.

import (
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/movement"
)

// DayCount is the battle judge's day count for an army (3.3.3, 1.5): the days it has counted in
// the map the corrected turn's update leaves (R76).
type DayCount struct {
	Army   string `json:"army"`
	Days   int    `json:"days"`
	Reason string `json:"reason,omitempty"`
}

// Corrections are the corrections a turn was adjudicated with, as its report shows them.
type Corrections struct {
	Orders []movement.Ruling `json:"orders,omitempty"`
	// Days are the day counts set, each with the count the update gave before it was set.
	Days []DaySet `json:"days,omitempty"`
}

// DaySet is a day count the judge set: the army, the update's count and the judge's.
type DaySet struct {
	Army   string `json:"army"`
	Before int    `json:"before"`
	After  int    `json:"after"`
	Reason string `json:"reason,omitempty"`
}

// setDays sets the judge's day counts on m; a count for an army no longer on the map is skipped.
func setDays(m *domain.Map, days []DayCount) []DaySet {
	var out []DaySet
	for _, d := range days {
		a := m.Army(d.Army)
		if a == nil {
			continue
		}
		out = append(out, DaySet{Army: a.Name, Before: a.Days, After: d.Days, Reason: d.Reason})
		a.Days = d.Days
	}
	return out
}

// corrections is what the report says of the turn's corrections, nil for none.
func corrections(in Input, days []DaySet) *Corrections {
	if len(in.Rulings) == 0 && len(days) == 0 {
		return nil
	}
	return &Corrections{Orders: in.Rulings, Days: days}
}
