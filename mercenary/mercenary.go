// Package mercenary is the mercenary judge's rule engine (chapter 6): the factions' abilities
// applied at every update and checks of the AI guidelines for the judge's orders. It imports
// only domain and the standard library.
package mercenary

import (
	"github.com/coalition-wargame/coalition/domain"
)

// Report is what the mercenary rules did at an update.
type Report struct {
	// Healed are town defenders healed in their home town (6.1.2): army → troops.
	Healed map[string]int `json:"healed,omitempty"`
}

// Update applies the mercenaries' abilities at an update.
func Update(m *domain.Map, start map[string]domain.Square, seed domain.Seed) *Report {
	return nil
}
