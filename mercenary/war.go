package mercenary

import (
	"fmt"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// Memory is what the mercenary judge remembers about theme armies that domain.Army does not
// hold yet: which team each is at war with, where its territory is and which is the ocean
// army. A nil Memory means nothing is remembered: no army is at war, every theme army
// patrols around where it stands, and a theme army standing on ocean is the ocean army.
type Memory struct {
	// AtWar maps a theme army's name to the team it is at war with (6.2.2).
	AtWar map[string]domain.Side `json:"at_war,omitempty"`
	// Territory maps a theme army's name to its starting square, the centre of the territory
	// it patrols (6.2.1).
	Territory map[string]domain.Square `json:"territory,omitempty"`
	// Ocean names the underwater theme army, whose territory is every ocean square (6.2).
	Ocean string `json:"ocean,omitempty"`
	// Engagements are the mercenaries' battles of earlier turns, as the lock reports recorded
	// them: the ocean army remembers its targets and areas by them (6.2.1).
	Engagements []Engagement `json:"engagements,omitempty"`
}

// FromMap is what the map itself remembers of the theme armies (domain.Army's AtWar,
// Territory and Ocean), as a Memory.
func FromMap(m *domain.Map) *Memory {
	var mem *Memory
	for i := range m.Armies {
		a := &m.Armies[i]
		if a.Side != domain.Mercenary || a.Faction != domain.Theme || (a.AtWar == "" && a.Territory.IsZero() && !a.Ocean) {
			continue
		}
		if mem == nil {
			mem = &Memory{}
		}
		if a.AtWar != "" {
			if mem.AtWar == nil {
				mem.AtWar = map[string]domain.Side{}
			}
			mem.AtWar[a.Name] = a.AtWar
		}
		if !a.Territory.IsZero() {
			if mem.Territory == nil {
				mem.Territory = map[string]domain.Square{}
			}
			mem.Territory[a.Name] = a.Territory
		}
		if a.Ocean {
			mem.Ocean = a.Name
		}
	}
	return mem
}

// AtWarWith is the team the named army is at war with, or "" (6.2.2).
func (mem *Memory) AtWarWith(name string) domain.Side {
	if mem == nil {
		return ""
	}
	if s, ok := mem.AtWar[name]; ok {
		return s
	}
	for n, s := range mem.AtWar {
		if domain.SameName(n, name) {
			return s
		}
	}
	return ""
}

// TerritoryOf is the centre of a theme army's territory: the remembered starting square, else
// the square it stands on.
func (mem *Memory) TerritoryOf(a *domain.Army) domain.Square {
	if mem != nil {
		if s, ok := mem.Territory[a.Name]; ok {
			return s
		}
		for n, s := range mem.Territory {
			if domain.SameName(n, a.Name) {
				return s
			}
		}
	}
	return a.At
}

// IsOcean reports whether a is the ocean theme army (6.2): the one Memory names, or, when
// Memory names none, a theme army standing on an ocean square.
func (mem *Memory) IsOcean(m *domain.Map, a *domain.Army) bool {
	if a.Faction != domain.Theme {
		return false
	}
	if mem != nil && mem.Ocean != "" {
		return domain.SameName(mem.Ocean, a.Name)
	}
	return m.Terrain.At(a.At) == domain.Ocean
}

// War is what DeclareWar did: which theme army went to war with which team, and how it healed.
type War struct {
	// Killed is the town defender whose kill set it off.
	Killed string `json:"killed"`
	// Killer is the team that scored the kill.
	Killer domain.Side `json:"killer"`
	// Candidates are the theme armies that could be chosen, sorted by name.
	Candidates []string `json:"candidates"`
	// Army is the theme army now at war, empty when there was none to choose.
	Army string `json:"army,omitempty"`
	// Against is the team it is at war with: the one that did not score the kill.
	Against domain.Side `json:"against,omitempty"`
	// Healed is what it healed on declaring war: creature → troops.
	Healed map[string]int `json:"healed,omitempty"`
	// Line says what happened in plain words.
	Line string `json:"line"`
}

// DeclareWar declares war as Memory.DeclareWar does, with what the map remembers; the lock
// calls it when a team's kill removes a town defender.
func DeclareWar(m *domain.Map, killed string, killer domain.Side, seed domain.Seed) (War, error) {
	mem := FromMap(m)
	if mem == nil {
		mem = &Memory{}
	}
	return mem.DeclareWar(m, killed, killer, seed)
}

// DeclareWar is called by the mercenary judge when team killer kills the town defender named
// killed (6.2.2): a random theme army that is not the ocean army and is not at war yet becomes
// At War with the other team, remembered in mem, and heals a quarter of each troop's full
// count, once. The choice is an Intn under the label "theme-at-war:<name key of killed>" over
// the candidates sorted by name. An error means killer is not a team.
func (mem *Memory) DeclareWar(m *domain.Map, killed string, killer domain.Side, seed domain.Seed) (War, error) {
	if !killer.IsTeam() {
		return War{}, domain.Errorf(domain.ErrInvalid, "only the Coalition or Phyrexia can kill a town defender, not %q (6.2.2)", killer)
	}
	w := War{Killed: killed, Killer: killer, Candidates: []string{}}
	for i := range m.Armies {
		a := &m.Armies[i]
		if a.Side == domain.Mercenary && a.Faction == domain.Theme && !mem.IsOcean(m, a) && mem.AtWarWith(a.Name) == "" {
			w.Candidates = append(w.Candidates, a.Name)
		}
	}
	slices.Sort(w.Candidates)
	if len(w.Candidates) == 0 {
		w.Line = fmt.Sprintf("%s killed %s, but no theme army is left to go to war: the ocean army never does, and the others already are (6.2.2).", killer.Title(), killed)
		return w, nil
	}
	pick := seed.Draws().Intn("theme-at-war:"+domain.NameKey(killed), len(w.Candidates))
	a := m.Army(w.Candidates[pick])
	w.Army, w.Against = a.Name, killer.Opponent()
	if mem.AtWar == nil {
		mem.AtWar = map[string]domain.Side{}
	}
	mem.AtWar[a.Name] = w.Against
	a.AtWar = w.Against
	w.Healed = HealQuarter(a)
	var parts []string
	for _, t := range a.Troops {
		if n := w.Healed[t.Creature]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, t.Creature))
		}
	}
	heal := "it has nothing to heal"
	if len(parts) > 0 {
		heal = "it heals " + strings.Join(parts, ", ")
	}
	w.Line = fmt.Sprintf("%s killed the town defender %s: the theme army %s (drawn %d of %d) goes to war with %s; %s (6.2.2).",
		killer.Title(), killed, a.Name, pick+1, len(w.Candidates), w.Against.Title(), heal)
	return w, nil
}

// HealQuarter heals each troop of an army by a quarter of its full count, rounded down, never
// past it (6.2.2), and returns creature → troops healed.
func HealQuarter(a *domain.Army) map[string]int {
	out := map[string]int{}
	for i := range a.Troops {
		if k := a.Restore(i, a.Troops[i].Full/4); k > 0 {
			out[a.Troops[i].Creature] = k
		}
	}
	return out
}

// NoteTerritories records on the map what the AI must remember of the theme armies before it
// plays them (6.2): a theme army at peace with no territory on record takes the square it
// stands on as the centre of its territory ("starts in a random space", as R36 reads a town
// defender's home), and, when no army is the ocean army, the first theme army standing on ocean
// becomes it. It returns the names of the armies it changed.
func NoteTerritories(m *domain.Map) []string {
	var changed []string
	ocean := slices.ContainsFunc(m.Armies, func(a domain.Army) bool { return a.Side == domain.Mercenary && a.Ocean })
	for i := range m.Armies {
		a := &m.Armies[i]
		if a.Side != domain.Mercenary || a.Faction != domain.Theme || a.Ocean {
			continue
		}
		switch {
		case !ocean && a.Territory.IsZero() && a.AtWar == "" && m.Terrain.At(a.At) == domain.Ocean:
			a.Ocean, ocean = true, true
		case a.Territory.IsZero() && a.AtWar == "":
			a.Territory = a.At
		default:
			continue
		}
		changed = append(changed, a.Name)
	}
	return changed
}

// NoteTerritories notes in the memory what NoteTerritories would note on the map, leaving the
// map as it is.
func (mem *Memory) NoteTerritories(m *domain.Map) {
	for i := range m.Armies {
		a := &m.Armies[i]
		if a.Side != domain.Mercenary || a.Faction != domain.Theme || mem.IsOcean(m, a) && mem.Ocean != "" || mem.AtWarWith(a.Name) != "" {
			continue
		}
		if _, ok := mem.Territory[a.Name]; ok {
			continue
		}
		if mem.Ocean == "" && m.Terrain.At(a.At) == domain.Ocean {
			mem.Ocean = a.Name
			continue
		}
		if mem.Territory == nil {
			mem.Territory = map[string]domain.Square{}
		}
		mem.Territory[a.Name] = a.At
	}
}
