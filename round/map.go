package round

// This file holds the map a round starts on (2.5): its sites with their accepted descriptions,
// the armies with their troop lists resolved by the troop checker, and the mercenaries.

import (
	"slices"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/roster"
)

// Map is the map the round starts on: the grid and terrain, the sites with their descriptions
// (published with the map, 2.5.1.2), every army with its troop list as the troop checker reads it
// and its controllers — a namesake army its player's, a proxy given to its side's leaders in
// turn unless the round names them (5.2.1) — and the mercenaries, uncontrolled. Call it on a
// round that passes Check.
func Map(r *Round, players []Player, cat roster.Cards) *domain.Map {
	m := &domain.Map{Grid: r.Grid, Terrain: r.Terrain}
	for _, s := range r.Sites {
		site := s.Site
		if s.Review != Accepted {
			site.Description = ""
		}
		m.Sites = append(m.Sites, site)
	}
	leaders := map[domain.Side][]string{}
	for _, p := range players {
		if p.Leader && p.Side.IsTeam() {
			leaders[p.Side] = append(leaders[p.Side], p.Name)
		}
	}
	next := map[domain.Side]int{}
	for i := range r.Armies {
		a := &r.Armies[i]
		rep := CheckList(cat, a)
		da := domain.Army{Name: a.Name, Side: a.Side, Rank: a.Rank, At: a.At, Colors: slices.Clone(a.Colors), Legend: rep.Legend, Troops: rep.Troops}
		switch {
		case len(a.Controllers) > 0:
			da.Controllers = slices.Clone(a.Controllers)
		case a.Player != "":
			da.Controllers = []string{a.Player}
		case len(leaders[a.Side]) > 0:
			ls := leaders[a.Side]
			da.Controllers = []string{ls[next[a.Side]%len(ls)]}
			next[a.Side]++
		}
		m.Armies = append(m.Armies, da)
	}
	for _, a := range r.Mercenaries {
		m.Armies = append(m.Armies, a.Clone())
	}
	return m
}
