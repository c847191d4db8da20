package cards

// This file holds the creature pool a spawned raider's troops are drawn from (6.3.2).

import "github.com/coalition-wargame/coalition/domain"

// CreaturePool is the creature pool a spawned raider's troops are drawn from (6.3.2,
// turn.Input.Creatures): every creature card of the catalogue with a printed size, legends left
// out (2.1 allows an army one legend, and a raider is drawn without one).
func (c *Catalogue) CreaturePool() []domain.Troop {
	var out []domain.Troop
	for _, card := range c.Cards() {
		if !card.IsCreature() || card.IsLegendary() {
			continue
		}
		size, ok := card.PrintedSize()
		if !ok {
			continue
		}
		out = append(out, domain.Troop{Creature: card.Name, Size: size, Colors: card.TroopColors()})
	}
	return out
}
