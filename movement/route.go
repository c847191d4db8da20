// Rule M4: routes — the shortest route from a square to another, drawn at random from the turn's
// seed when there are several.

package movement

import (
	"fmt"

	"github.com/coalition-wargame/coalition/domain"
)

// route draws a unit's random route if it has not been drawn yet (M4). The draw has its own
// label, so when it is made does not change what it gives.
func (r *resolver) route(i int) {
	if u := &r.units[i]; !u.drawn {
		ShortestRoute(&u.path, u.path[0], u.path[u.plen-1], r.drawer(), r.name(i))
		u.drawn = true
	}
}

// ShortestRoute fills path with a shortest route from one square to another, start included,
// and returns its length in squares (d may be nil when there is only one). When several
// shortest routes exist it draws one
// uniformly with the label "route:" + army name: the routes are numbered in lexicographic
// order of their steps, a step along the number coming before a step along the letter
// (docs/RANDOMNESS.md).
func ShortestRoute(path *[4]domain.Square, from, to domain.Square, d *domain.Draws, army string) int {
	dc, dr := int(to.Col)-int(from.Col), int(to.Row)-int(from.Row)
	nc, nr := abs(dc), abs(dr)
	n := nc + nr
	if n > 3 {
		panic(fmt.Sprintf("movement: route of %d steps from %s to %s", n, from, to))
	}
	if nc == 0 || nr == 0 {
		// one shortest route: straight along the number or the letter
		sc, sr := sign(dc), sign(dr)
		path[0] = from
		for i := 1; i <= n; i++ {
			path[i] = domain.Square{Col: uint8(int(from.Col) + i*sc), Row: uint8(int(from.Row) + i*sr)}
		}
		return n + 1
	}
	count := binom(n, nc)
	idx := 0
	if count > 1 {
		if d == nil {
			panic("movement: a route with several choices needs the turn's draws")
		}
		idx = d.Intn("route:"+army, count)
	}
	path[0] = from
	cur := from
	for i := 1; i <= n; i++ {
		col := false
		if nc > 0 {
			with := binom(nc+nr-1, nc-1)
			if idx < with {
				col = true
			} else {
				idx -= with
			}
		}
		if col {
			cur.Col = uint8(int(cur.Col) + sign(dc))
			nc--
		} else {
			cur.Row = uint8(int(cur.Row) + sign(dr))
			nr--
		}
		path[i] = cur
	}
	return n + 1
}

func binom(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	v := 1
	for i := 1; i <= k; i++ {
		v = v * (n - k + i) / i
	}
	return v
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
