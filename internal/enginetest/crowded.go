package enginetest

import (
	"math/rand/v2"
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// Crowded is a small map packed with armies for the differential test: 12–21 armies of every
// side on a 6 × 6 or 7 × 7 grid, mostly of ranks that may joint engage, some of them empty, so
// that joint engagements, intercepts, replace chains and transfers (Style.Crowded) meet in a
// few squares.
func Crowded(r *rand.Rand) Config {
	n := 6 + r.IntN(2)
	c := Config{Grid: domain.Grid{Cols: n, Rows: n}, Empty: 0.1, Unknown: 0.03}
	ranks := func() []domain.Rank {
		out := make([]domain.Rank, 5+r.IntN(5))
		for i := range out {
			out[i] = domain.Rank(4 + r.IntN(3)) // Commander to Lieutenant: they may joint engage
			if r.IntN(8) == 0 {
				out[i] = domain.Rank(1 + r.IntN(3)) // a leader (M13: it may not)
			}
		}
		return out
	}
	c.Coalition, c.Phyrexia = ranks(), ranks()
	c.sprinkle(r, 2, 3)
	return c
}

// crowd writes a crowded turn (Style.Crowded): joint engage pairs of both sides, some on one
// square, some kept out of it, one of three or on a site, mercenary pairs (M13); intercepts with
// their targets passing over the interceptor and other enemies engaging it (M9, M10); replace
// chains (M7, M8); transfers, some without a detail, to receivers that may move away (T3); and
// an ordinary order for every other army.
func (g *gen) crowd() {
	taken := map[int]bool{}
	for range 1 + g.r.IntN(4) {
		g.crowdedPair(taken)
	}
	for range g.r.IntN(4) {
		g.interceptPassing(taken)
	}
	for range g.r.IntN(3) {
		g.replaceChain(taken)
	}
	for range g.r.IntN(3) {
		g.crowdedTransfer(taken)
	}
	for i := range g.m.Armies {
		if !taken[i] {
			g.order(i)
		}
	}
}

// at lists the armies on square s.
func (g *gen) at(s domain.Square) []int { return g.occ[s] }

// line writes one line for army i and marks it taken.
func (g *gen) line(taken map[int]bool, i int, text string) {
	a := &g.m.Armies[i]
	author := g.author(a)
	g.add(author, g.name(a, author)+text)
	taken[i] = true
}

// moveText writes a move of army a to dest along route (start and destination included; nil
// for no written route), with the keyword the map as posted needs there.
func (g *gen) moveText(a *domain.Army, dest domain.Square, route []domain.Square, keyword string) string {
	s := g.sq(a.At) + " > " + g.sq(dest)
	if len(route) > 0 {
		s += " " + g.routeText(route)
	}
	if keyword == "" {
		keyword = g.keyword(a, dest)
	}
	return s + keyword
}

// crowdedPair orders a joint engagement (M13): usually two armies of one team on an enemy's
// square, now and then both teams' pairs on one square, a square an interceptor or a
// mercenary holds, an empty square, a site, one member on its own square, three armies, or two
// mercenaries.
func (g *gen) crowdedPair(taken map[int]bool) {
	free := func(i int) bool { return !taken[i] && !g.fighting(i) }
	var target domain.Square
	switch x := g.r.IntN(10); {
	case x < 6:
		target = g.m.Armies[g.r.IntN(len(g.m.Armies))].At
	case x < 8:
		target = g.m.Grid.At(g.r.IntN(g.m.Grid.Size()))
	default:
		if len(g.m.Sites) == 0 {
			return
		}
		target = g.m.Sites[g.r.IntN(len(g.m.Sites))].At
	}
	sides := []domain.Side{domain.Coalition, domain.Phyrexia}
	if g.chance(0.1) {
		sides = []domain.Side{domain.Mercenary} // mercenaries form no team (M13f)
	} else if g.chance(0.25) {
		sides = sides[:2] // both teams on one square (M13c)
	} else {
		k := g.r.IntN(2)
		sides = sides[k : k+1]
	}
	for _, side := range sides {
		cands := g.near(target, 3, func(o *domain.Army) bool { return o.Side == side })
		cands = slices.DeleteFunc(cands, func(i int) bool { return !free(i) || g.m.Armies[i].At == target && !g.chance(0.3) })
		if len(cands) < 2 {
			continue
		}
		g.r.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
		n := 2
		switch x := g.r.IntN(20); {
		case x == 0 && len(cands) > 2:
			n = 3 // three armies: it fails (M13), and they hold (M13a)
		case x == 1:
			n = 1
		}
		for _, i := range cands[:n] {
			a := &g.m.Armies[i]
			var route []domain.Square
			if a.At != target && g.chance(0.4) {
				route = g.route(a.At, target)
			}
			kw := []string{"; Joint Engage", "; joint engage", "; JE", " Joint Engagement"}[g.r.IntN(4)]
			g.line(taken, i, g.moveText(a, target, route, kw))
		}
	}
}

// fighting reports whether army i shares its square with an enemy (M1).
func (g *gen) fighting(i int) bool {
	a := &g.m.Armies[i]
	for _, j := range g.at(a.At) {
		if domain.Enemy(g.m.Armies[j].Side, a.Side) {
			return true
		}
	}
	return false
}

// interceptPassing orders an army to intercept an enemy and that enemy to pass over the
// interceptor's square (M9); now and then another enemy moves to engage the interceptor, or
// the enemy is caught on its way by a second interceptor first (M10).
func (g *gen) interceptPassing(taken map[int]bool) {
	for _, w := range g.r.Perm(len(g.m.Armies)) {
		if taken[w] || g.fighting(w) {
			continue
		}
		iw := &g.m.Armies[w]
		for _, x := range g.near(iw.At, 2, func(o *domain.Army) bool { return domain.Enemy(o.Side, iw.Side) }) {
			if taken[x] || g.fighting(x) {
				continue
			}
			xa := &g.m.Armies[x]
			// a route from x over w's square to a square one step beyond it
			if domain.Steps(xa.At, iw.At) < 1 || domain.Steps(xa.At, iw.At) > 2 {
				continue
			}
			var beyond []domain.Square
			for _, n := range g.m.Grid.Neighbours(nil, iw.At) {
				if domain.Steps(iw.At, n) == 1 && domain.Steps(xa.At, n) == domain.Steps(xa.At, iw.At)+1 {
					beyond = append(beyond, n)
				}
			}
			if len(beyond) == 0 {
				continue
			}
			dest := beyond[g.r.IntN(len(beyond))]
			route := append(g.route(xa.At, iw.At), dest)
			g.line(taken, w, "Intercept "+xa.Name)
			g.line(taken, x, g.moveText(xa, dest, route, ""))
			if g.chance(0.5) {
				// another enemy of the interceptor engages it (M10)
				for _, y := range g.near(iw.At, 3, func(o *domain.Army) bool { return domain.Enemy(o.Side, iw.Side) }) {
					if !taken[y] && !g.fighting(y) && g.m.Armies[y].At != iw.At {
						ya := &g.m.Armies[y]
						var rt []domain.Square
						if g.chance(0.5) {
							rt = g.route(ya.At, iw.At)
						}
						g.line(taken, y, g.moveText(ya, iw.At, rt, ""))
						break
					}
				}
			}
			return
		}
	}
}

// replaceChain orders two or three friends each into the next one's square with replace
// (M7, M8): the last moves off, holds, or moves into the first one's square.
func (g *gen) replaceChain(taken map[int]bool) {
	start := g.r.IntN(len(g.m.Armies))
	if taken[start] || g.fighting(start) {
		return
	}
	chain := []int{start}
	for len(chain) < 3 {
		last := &g.m.Armies[chain[len(chain)-1]]
		next := g.near(last.At, 3, func(o *domain.Army) bool { return o.Side == last.Side && o.At != last.At })
		next = slices.DeleteFunc(next, func(i int) bool { return taken[i] || g.fighting(i) || slices.Contains(chain, i) })
		if len(next) == 0 {
			break
		}
		chain = append(chain, next[g.r.IntN(len(next))])
	}
	if len(chain) < 2 {
		return
	}
	for k, i := range chain[:len(chain)-1] {
		a, b := &g.m.Armies[i], &g.m.Armies[chain[k+1]]
		g.line(taken, i, g.moveText(a, b.At, nil, "; replace "+b.Name))
	}
	last := chain[len(chain)-1]
	switch x := g.r.IntN(3); {
	case x == 0:
		g.line(taken, last, "no move")
	case x == 1 && domain.Steps(g.m.Armies[last].At, g.m.Armies[start].At) <= 3:
		g.line(taken, last, g.moveText(&g.m.Armies[last], g.m.Armies[start].At, nil, "; replace "+g.m.Armies[start].Name))
	default:
		g.line(taken, last, g.move(&g.m.Armies[last], 1+g.r.IntN(3)))
	}
}

// crowdedTransfer orders a transfer between friendly neighbours (T1), with its private detail
// most of the time (T2); the receiver moves away now and then, or joint engages (T3).
func (g *gen) crowdedTransfer(taken map[int]bool) {
	for _, i := range g.r.Perm(len(g.m.Armies)) {
		a := &g.m.Armies[i]
		if taken[i] || g.fighting(i) || g.m.SiteAt(a.At) != nil {
			continue
		}
		rs := g.near(a.At, 2, func(o *domain.Army) bool { return o != a && o.Side == a.Side && domain.Adjacent(o.At, a.At) })
		if len(rs) == 0 {
			continue
		}
		j := rs[g.r.IntN(len(rs))]
		author := g.author(a)
		text := g.transferTo(a, &g.m.Armies[j], author)
		if g.chance(0.3) {
			delete(g.details[author], a.Name) // no private detail (R8, T3)
		}
		g.line(taken, i, text)
		if !taken[j] && g.chance(0.5) {
			g.order(j)
			taken[j] = true
		}
		return
	}
}
