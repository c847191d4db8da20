package round

// This file holds the generator's mercenaries (2.5.3, chapter 6), added after the players'
// armies: a town defender in each town (6.1), four theme armies away from the bases — one in
// the ocean (6.2) — and three raiders away from the bases (6.3), their troop lists drawn from
// the card data.

import (
	"slices"
	"strconv"

	"github.com/coalition-wargame/coalition/domain"
)

// The names the generator gives mercenaries, drawn among those not yet taken.
var (
	themeNames  = []string{"Mercadian Legion", "Kor Skyfishers", "Thran Constructs", "Keldon Warband", "Cho-Arrim Rebels", "Nishoba Pride"}
	oceanNames  = []string{"Vodalian Legion", "Saprazzan Tide", "Deep Krakens"}
	raiderNames = []string{"Keldon Raiders", "Goblin Marauders", "Dwarven Pirates", "Rathi Reavers", "Ramosian Rogues", "Kyren Thieves"}
)

// mercenaries adds the mercenaries the round lacks.
func (g *gen) mercenaries() error {
	r := g.r
	for _, t := range r.SitesOf(domain.Town, "") {
		if slices.ContainsFunc(r.Mercenaries, func(a domain.Army) bool { return a.Faction == domain.TownDefender && a.At == t.At }) ||
			g.count(domain.TownDefender) >= TownDefenders {
			continue
		}
		if occ := r.occupied()[t.At]; occ != "" {
			return domain.Errorf(domain.ErrConflict, "%s stands in the town %s, where its town defender starts (6.1)", occ, t.Name)
		}
		g.addMercenary(domain.Army{Name: g.free(t.Name + " Defenders"), Rank: TownDefenderRank, At: t.At, Faction: domain.TownDefender, Home: t.Name})
	}
	ocean := slices.ContainsFunc(r.Mercenaries, func(a domain.Army) bool { return a.Faction == domain.Theme && a.Ocean })
	for k := g.count(domain.Theme) + 1; k <= ThemeArmies; k++ {
		names, label, wantOcean := themeNames, "theme:"+strconv.Itoa(k), !ocean
		if wantOcean {
			names, label = oceanNames, "ocean"
		}
		at, ok := g.awaySquare("round-mercenary:"+label, wantOcean)
		if !ok {
			return domain.Errorf(domain.ErrInvalid, "no square is left away from the bases for a theme army (6.2)")
		}
		g.addMercenary(domain.Army{Name: g.drawName("round-name:"+label, names), Rank: ThemeRank, At: at, Faction: domain.Theme, Territory: at, Ocean: wantOcean})
		ocean = true
	}
	need := slices.Clone(RaiderRanks)
	for _, a := range r.Mercenaries {
		if i := slices.Index(need, a.Rank); a.Faction == domain.Raider && i >= 0 {
			need = slices.Delete(need, i, i+1)
		}
	}
	for k, rk := range need {
		label := "raider:" + strconv.Itoa(k+1)
		at, ok := g.awaySquare("round-mercenary:"+label, false)
		if !ok {
			return domain.Errorf(domain.ErrInvalid, "no square is left away from the bases for a raider (6.3)")
		}
		g.addMercenary(domain.Army{Name: g.drawName("round-name:"+label, raiderNames), Rank: rk, At: at, Faction: domain.Raider})
	}
	return nil
}

// count is the number of the round's mercenaries of a faction.
func (g *gen) count(f domain.Faction) int {
	n := 0
	for _, a := range g.r.Mercenaries {
		if a.Faction == f {
			n++
		}
	}
	return n
}

// addMercenary adds a mercenary with a troop list drawn from the pool (it may field anything).
func (g *gen) addMercenary(a domain.Army) {
	a.Side = domain.Mercenary
	a.Troops = g.opt.Pool.Troops(g.d, "round-troop:"+a.Name+":", a.Rank, domain.Mercenary, nil)
	g.r.Mercenaries = append(g.r.Mercenaries, a)
}

// taken reports whether an army or mercenary of the round is named name.
func (g *gen) taken(name string) bool { return g.r.Army(name) != nil || g.r.Mercenary(name) != nil }

// free is name, or name with a number after it, that no army has.
func (g *gen) free(name string) string {
	out := name
	for k := 2; g.taken(out); k++ {
		out = name + " " + strconv.Itoa(k)
	}
	return out
}

// drawName draws a name among those of the list no army has (numbered when all are taken).
func (g *gen) drawName(label string, names []string) string {
	var left []string
	for _, n := range names {
		if !g.taken(n) {
			left = append(left, n)
		}
	}
	if len(left) == 0 {
		return g.free(names[0])
	}
	return left[g.pick(label, len(left))]
}

// awaySquare draws a square neither on nor next to any site or army (6.2 "not near a base or
// portal", 6.3 "away from bases", R73), of ocean or of land as asked.
func (g *gen) awaySquare(label string, ocean bool) (domain.Square, bool) {
	r := g.r
	near := map[domain.Square]bool{}
	mark := func(s domain.Square) {
		near[s] = true
		for _, n := range r.Grid.Neighbours(nil, s) {
			near[n] = true
		}
	}
	for _, s := range r.Sites {
		mark(s.At)
	}
	for s := range r.occupied() {
		mark(s)
	}
	var cand []domain.Square
	for i := range r.Grid.Size() {
		s := r.Grid.At(i)
		if !near[s] && (r.Terrain.At(s) == domain.Ocean) == ocean {
			cand = append(cand, s)
		}
	}
	if len(cand) == 0 {
		return domain.Square{}, false
	}
	return cand[g.pick(label, len(cand))], true
}
