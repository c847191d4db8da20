package round

// This file holds the generator's armies (2.5.2): one for each player holding a rank, proxies up
// to the counts, their troop lists and colours, the base each starts by, and their placement by
// the seed next to that base (2.5.2.3).

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/coalition-wargame/coalition/domain"
)

// armies creates each player's army he has not sent (2.5.2.2: his name, his rank, his factions'
// colours) and proxy armies up to the counts (2.5.2.1), with any 3 colours for a Coalition one.
func (g *gen) armies() error {
	r := g.r
	names, players := map[string]bool{}, map[string]bool{}
	for _, a := range r.Armies {
		names[domain.NameKey(a.Name)] = true
		players[domain.NameKey(a.Player)] = true
	}
	for _, a := range r.Mercenaries {
		names[domain.NameKey(a.Name)] = true
	}
	for _, p := range g.opt.Players {
		if !p.HoldsArmy() || !p.Side.IsTeam() || players[domain.NameKey(p.Name)] {
			continue
		}
		if names[domain.NameKey(p.Name)] {
			return domain.Errorf(domain.ErrConflict, "an army is already named %s, the player's name his army takes (2.5.2.2)", p.Name)
		}
		a := Army{Name: p.Name, Side: p.Side, Rank: p.Rank, Player: p.Name, By: g.opt.By}
		if p.Side == domain.Coalition {
			a.Colors = slices.Clone(p.Factions)
			if len(a.Colors) == 0 {
				a.Colors = g.colors(a.Name)
			}
		}
		r.Armies = append(r.Armies, a)
		names[domain.NameKey(a.Name)] = true
	}
	for _, side := range []domain.Side{domain.Coalition, domain.Phyrexia} {
		for _, rk := range ArmyRanks {
			n := 0
			for _, a := range r.Armies {
				if a.Side == side && a.Rank == rk {
					n++
				}
			}
			for k := 1; n < r.Counts.Of(rk); k++ {
				name := fmt.Sprintf("%s %s %d", adjective(side), rk.Name(side), k)
				if names[domain.NameKey(name)] {
					continue
				}
				names[domain.NameKey(name)] = true
				a := Army{Name: name, Side: side, Rank: rk, By: g.opt.By}
				if side == domain.Coalition {
					a.Colors = g.colors(name)
				}
				r.Armies = append(r.Armies, a)
				n++
			}
		}
	}
	return nil
}

// adjective is the side's word before a proxy's rank: "Coalition", "Phyrexian".
func adjective(s domain.Side) string {
	if s == domain.Phyrexia {
		return "Phyrexian"
	}
	return "Coalition"
}

// colors draws 3 different factions for a Coalition army with none (2.2.1.1: a proxy army's
// are any 3 chosen for it).
func (g *gen) colors(army string) []domain.Color {
	left := slices.Clone(Factions)
	var out []domain.Color
	for k := 1; k <= 3; k++ {
		i := g.pick("round-colors:"+army+":"+strconv.Itoa(k), len(left))
		out = append(out, left[i])
		left = slices.Delete(left, i, i+1)
	}
	return out
}

// troops draws a troop list for every army without one (the judge makes up what is missing,
// 2.5.2.2): one creature a slot of the slot's size that the army may field, at full count.
func (g *gen) troops() error {
	if g.opt.Pool == nil || g.opt.Pool.Len() == 0 {
		return domain.Errorf(domain.ErrInvalid, "the generator has no creature data to draw troop lists from")
	}
	for i := range g.r.Armies {
		a := &g.r.Armies[i]
		if len(a.Troops) > 0 {
			continue
		}
		a.Troops = ListOf(g.opt.Pool.Troops(g.d, "round-troop:"+a.Name+":", a.Rank, a.Side, a.Colors))
	}
	return nil
}

// baseRequests chooses a base for every army without one (2.5.2.3): a Coalition army one of its
// colours' bases, a Phyrexian army a portal, drawn.
func (g *gen) baseRequests() error {
	for i := range g.r.Armies {
		a := &g.r.Armies[i]
		if a.Base != "" {
			continue
		}
		var can []*Site
		if a.Side == domain.Coalition {
			for _, b := range g.r.SitesOf(domain.Base, domain.Coalition) {
				if slices.ContainsFunc(a.Colors, func(c domain.Color) bool { return faction(c) == b.Color }) {
					can = append(can, b)
				}
			}
		} else {
			can = g.r.SitesOf(domain.Portal, domain.Phyrexia)
		}
		if len(can) > 0 {
			a.Base = can[g.pick("round-base:"+a.Name, len(can))].Name
		}
	}
	return nil
}

// place drops the armies (Place).
func (g *gen) place() error {
	place(g.r, g.d)
	return nil
}

// Place drops every army that has a base to start by and no square yet on a free square next
// to that base (2.5.2.3): among the free squares 1 square (king's moves) from it, else 2, else 3
// — land first, ocean only when no land square is free that near — drawn with the label
// "round-place:<army>"; an army with no free square within 3 stays off the map for the judge. It
// returns the names of the armies it placed.
func Place(r *Round) []string {
	return place(r, r.Seed.Draws())
}

func place(r *Round, d *domain.Draws) []string {
	var out []string
	taken := r.occupied()
	for _, s := range r.Sites {
		taken[s.At] = s.Name
	}
	for i := range r.Armies {
		a := &r.Armies[i]
		base := r.Site(a.Base)
		if !a.At.IsZero() || base == nil {
			continue
		}
		if at, ok := dropSquare(r, d, a.Name, base.At, taken); ok {
			a.At = at
			taken[at] = a.Name
			out = append(out, a.Name)
		}
	}
	return out
}

// dropSquare draws a free square near base for the army (Place).
func dropSquare(r *Round, d *domain.Draws, army string, base domain.Square, taken map[domain.Square]string) (domain.Square, bool) {
	for _, ocean := range []bool{false, true} {
		for ring := 1; ring <= PlacementDistance; ring++ {
			var cand []domain.Square
			for _, s := range r.Grid.RingSquares(nil, base, ring) {
				if taken[s] == "" && (r.Terrain.At(s) == domain.Ocean) == ocean {
					cand = append(cand, s)
				}
			}
			if len(cand) > 0 {
				return cand[d.Intn("round-place:"+army, len(cand))], true
			}
		}
	}
	return domain.Square{}, false
}
