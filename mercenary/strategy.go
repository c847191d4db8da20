package mercenary

// This file holds the AI's battle strategies for mercenaries in battle (4.1, B2): no mercenary
// battle goes stratless by neglect.

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// KillSquad is the troops of its top slot an army risks on a kill attempt, and needs alive
// there to make one (4.3.2).
const KillSquad = 500

// Strategy is the AI's battle strategy for a mercenary army in a battle fought this turn.
// Mercenaries never capture (they hold no base or portal to take a captive to, 4.5) and never
// run away.
type Strategy struct {
	Army   string        `json:"army"`
	Square domain.Square `json:"square"`
	// Kill names the enemy army it goes for a kill on, risking 500 troops of its top slot
	// (4.3.2); empty when it makes no attempt.
	Kill string `json:"kill,omitempty"`
	// Guideline is the rule the strategy follows: 6.1.1, 6.2.1, 6.2.3 or 6.3.2 (Hellbent).
	Guideline string `json:"guideline"`
	// Text is the strategy in words, as the battle judge reads it.
	Text string `json:"text"`
}

// Strategies writes the AI's strategy for every mercenary army the mercenary judge orders that
// fights in one of the battles fought this turn (B1), in the order of the battles:
//   - a raider goes for a kill on the weakest enemy army of its battle when it has 500 troops
//     alive in its top slot: Hellbent, it keeps its kill squad if the kill fails (6.3.2);
//   - an At War theme army goes for a kill on the weakest army of the team it is at war with,
//     with 500 in its top slot (6.2.3);
//   - a town defender and a theme army at peace fight and risk nothing: they defend (6.1, 6.2).
func (mem *Memory) Strategies(m *domain.Map, fought []domain.Battle) []Strategy {
	var out []Strategy
	for _, b := range fought {
		for _, n := range b.Armies {
			a := m.Army(n)
			if a == nil || a.Side != domain.Mercenary || !judgeOrders(a) {
				continue
			}
			out = append(out, mem.strategy(m, b, a))
		}
	}
	return out
}

func (mem *Memory) strategy(m *domain.Map, b domain.Battle, a *domain.Army) Strategy {
	st := Strategy{Army: a.Name, Square: b.Square}
	var foes []*domain.Army
	for _, n := range b.Armies {
		if o := m.Army(n); o != nil && domain.Enemy(o.Side, a.Side) {
			foes = append(foes, o)
		}
	}
	slices.SortStableFunc(foes, func(x, y *domain.Army) int { return cmp.Compare(Strength(x), Strength(y)) })
	_, top := a.TopSlot()
	switch {
	case a.Faction == domain.Raider:
		st.Guideline = "6.3.2"
		if len(foes) > 0 && top >= KillSquad {
			st.Kill = foes[0].Name
			st.Text = fmt.Sprintf("%s fights at %s and goes for a kill on %s, the weakest army it faces, risking 500 of its top slot: Hellbent, it keeps them if the kill fails (4.3.2, 6.3.2)", a.Name, b.Square, st.Kill)
		} else {
			st.Text = fmt.Sprintf("%s fights at %s; with %d troops alive in its top slot it cannot go for a kill (4.3.2)", a.Name, b.Square, top)
		}
	case a.Faction == domain.Theme && mem.AtWarWith(a.Name).IsTeam():
		st.Guideline = GuideAtWar
		war := mem.AtWarWith(a.Name)
		i := slices.IndexFunc(foes, func(o *domain.Army) bool { return o.Side == war })
		switch {
		case i >= 0 && top >= KillSquad:
			st.Kill = foes[i].Name
			st.Text = fmt.Sprintf("%s is At War with %s: it fights at %s and goes for a kill on %s, risking 500 of its top slot (4.3.2, 6.2.3)", a.Name, war.Title(), b.Square, st.Kill)
		default:
			st.Text = fmt.Sprintf("%s is At War with %s and fights at %s, making no kill attempt (6.2.3)", a.Name, war.Title(), b.Square)
		}
	case a.Faction == domain.TownDefender:
		st.Guideline = GuideDefender
		st.Text = fmt.Sprintf("%s fights at %s to keep its town and stay alive, risking nothing (6.1)", a.Name, b.Square)
	default:
		st.Guideline = GuideTheme
		st.Text = fmt.Sprintf("%s fights at %s to defend its territory, risking nothing (6.2)", a.Name, b.Square)
	}
	return st
}
