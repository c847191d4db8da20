package movement

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/coalition-wargame/coalition/domain"
)

// Outcome is what a turn's moves did at the lock.
type Outcome struct {
	// Moves lists every army that moved or meant to, in map order.
	Moves []domain.Move
	// Battles are the engagements made at this lock, to be fought next turn (B1).
	Battles []domain.Battle
	// Rejected are orders that were accepted when posted but failed at the lock (M13).
	Rejected []domain.Rejection
	// Partial names the armies whose move was cut short (M8).
	Partial []string
	// Removed names empty armies destroyed on being engaged (B9).
	Removed []string
	// Transfers are the transfer orders to carry out at the update (T3).
	Transfers []domain.TransferOrder
}

type orderKey struct {
	at   int64
	post int64
	line int
}

func (k orderKey) less(o orderKey) bool {
	if k.at != o.at {
		return k.at < o.at
	}
	if k.post != o.post {
		return k.post < o.post
	}
	return k.line < o.line
}

// unit is one army during resolution.
type unit struct {
	// side is the army's side as an index in resolver.sides: units hold no pointers, so the
	// collector neither scans them nor guards their writes.
	side int32
	path [4]domain.Square
	plen int8
	// goal is the index in path where the army means to end; pos where it will end.
	goal, pos int8
	// anchored armies end on their start square whatever arrives (M7.1, M8).
	anchored bool
	failed   bool
	// jointOrder marks a Joint Engage order; joint a joint engagement that stands (M13).
	jointOrder, joint bool
	// drawn is set once the squares between start and destination are known: a written
	// route, a move with one shortest route, or a random route drawn when it decides
	// something (M4: an intercept target, a move cut short).
	drawn bool
	// caughtBy is the interceptor's army index, or -1 (M9).
	caughtBy int32
	// target is the army an interceptor waits for, or -1.
	target int32
	line   int32
	// next is the next army in the same square's list, index + 1 (0 = none).
	next int32
}

func (u *unit) start() domain.Square { return u.path[0] }
func (u *unit) dest() domain.Square  { return u.path[u.plen-1] }
func (u *unit) leaving() bool        { return u.plen > 1 }

// cell is what the resolver knows of one square of the grid.
type cell struct {
	// anchors and claims list the armies that stay on the square and those that mean to
	// end there, in map order: the first one's index + 1 (0 = none), then unit.next.
	anchors, claims int32
	// owner is the partial move that takes the square, index + 1 (0 = none) (M8).
	owner int32
	// battle marks a battle fought this turn (M12); held a square some army ends on.
	battle, held bool
}

type resolver struct {
	m      *domain.Map
	orders *Orders
	seed   domain.Seed
	draws  *domain.Draws
	g      domain.Grid
	units  []unit
	// keys order the armies' orders for M7's tie-breaks; they do not change while resolving,
	// so they stay out of the units copied when a round is run again.
	keys []orderKey
	// cells are the grid's squares by index; touched lists those whose lists are in use.
	cells    []cell
	touched  []int32
	partials []int32
	out      *Outcome
	// base, first, targeted, waiting, ys, candidates, groups, members and ok are scratch tables,
	// kept with the resolver between turns.
	base       []unit
	first      []int8
	targeted   []bool
	waiting    []int
	ys         []int
	candidates []int
	groups     []jointGroup
	members    []int
	ok         []bool
	// sides are the known sides, then any other side of the map's armies, in the order first
	// met; merc is the index of the mercenaries' side among them.
	sides []domain.Side
	merc  int32
}

// resolvers keeps resolvers, with their tables, between calls: none of them is part of the
// outcome, so a turn need not allocate them again.
var resolvers = sync.Pool{New: func() any { return new(resolver) }}

// knownSides start r.sides, so that sideOf finds them by a switch.
var knownSides = [...]domain.Side{domain.Coalition, domain.Phyrexia, domain.Mercenary, domain.Neutral}

// sideOf gives the index of side s in r.sides, adding it when it is new.
func (r *resolver) sideOf(s domain.Side) int32 {
	switch s {
	case domain.Coalition:
		return 0
	case domain.Phyrexia:
		return 1
	case domain.Mercenary:
		return 2
	case domain.Neutral:
		return 3
	}
	for i, x := range r.sides {
		if x == s {
			return int32(i)
		}
	}
	r.sides = append(r.sides, s)
	return int32(len(r.sides) - 1)
}

// enemies is domain.Enemy for sides given as indexes in r.sides.
func enemies(a, b int32) bool { return a != b }

// resize gives s with length n and every element zero, reusing its array when it is large
// enough.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// Resolve carries out every effective order of the turn at once (3.3.4) and updates the map:
// positions, long-move plans, and empty armies destroyed when engaged (B9). Battles fought
// this turn are not settled here.
func Resolve(m *domain.Map, orders *Orders, seed domain.Seed) *Outcome {
	r := resolvers.Get().(*resolver)
	r.m, r.orders, r.seed, r.g, r.out = m, orders, seed, m.Grid, &Outcome{}
	r.build()
	// only joint engagements can send the resolution round again
	var base []unit
	if slices.ContainsFunc(r.units, func(u unit) bool { return u.jointOrder }) {
		r.base = append(r.base[:0], r.units...)
		base = r.base
	}
	var lonely []domain.Square
	for {
		r.out.Rejected = r.out.Rejected[:0]
		r.jointEngage(lonely)
		r.intercepts()
		r.settle()
		// A joint engagement stands on the orders (M13); if no enemy ends the turn in its
		// square after all (intercepted on the way, say), the two moves are ordinary moves and
		// the engagement does not count toward the one-a-turn limit (3.2.5.4).
		more := r.lonelySquares(lonely)
		if len(more) == 0 {
			break
		}
		lonely = append(lonely, more...)
		copy(r.units, base)
	}
	r.finish()
	out := r.out
	clear(r.sides)
	r.m, r.orders, r.draws, r.out, r.sides = nil, nil, nil, nil, r.sides[:0]
	resolvers.Put(r)
	return out
}

func (r *resolver) build() {
	r.units = resize(r.units, len(r.m.Armies))
	r.keys = resize(r.keys, len(r.m.Armies))
	r.cells = resize(r.cells, r.g.Size())
	r.touched = r.touched[:0]
	r.sides, r.merc = append(r.sides[:0], knownSides[:]...), 2
	// the orders keep what Resolve needs of the map they were checked on
	fighting := r.orders.fighting
	var b *board
	if r.orders.m != r.m {
		b = newBoard(r.m)
		defer b.release()
		fighting = b.fighting
	}
	for i := range r.m.Armies {
		a := &r.m.Armies[i]
		u := &r.units[i]
		u.side, u.caughtBy, u.target, u.line = r.sideOf(a.Side), -1, -1, -1
		u.path[0], u.plen = a.At, 1
		if fighting[i] {
			r.cells[r.g.Index(a.At)].battle = true
			a.Plan = nil
			continue
		}
		if li := r.orders.Effective[i]; li >= 0 {
			l := &r.orders.Lines[li]
			u.line = int32(li)
			r.keys[i] = orderKey{l.At.UnixNano(), l.Post, l.Number}
			a.Plan = nil
			switch o := &l.Order; o.Kind {
			case domain.MoveKind:
				kw := domain.NoKeyword
				if len(o.Legs) == 1 {
					kw = o.Keyword
				} else {
					a.Plan = &domain.Plan{Legs: slices.Clone(o.Legs[1:]), Keyword: o.Keyword, Named: o.Named, Post: l.Post, At: l.At, Line: l.Number}
				}
				r.setLeg(u, a, o.Legs[0], kw)
			case domain.InterceptKind:
				if b != nil {
					u.target = int32(b.army(o.Target))
				} else {
					u.target = r.orders.targetOf(i)
				}
			case domain.Transfer:
				if l.Creatures != nil {
					r.out.Transfers = append(r.out.Transfers, domain.TransferOrder{From: a.Name, To: o.Target, Creatures: l.Creatures, Post: l.Post, At: l.At, Line: l.Number})
				}
			}
			continue
		}
		if p := a.Plan; p != nil {
			leg := p.Legs[0]
			if len(leg.Route) > 0 && leg.Route[0] != a.At {
				a.Plan = nil
				continue
			}
			r.keys[i] = orderKey{p.At.UnixNano(), p.Post, p.Line}
			kw := domain.NoKeyword
			if len(p.Legs) == 1 {
				kw = p.Keyword
				a.Plan = nil
			} else {
				np := *p
				np.Legs = p.Legs[1:]
				a.Plan = &np
			}
			r.setLeg(u, a, leg, kw)
		}
	}
}

// setLeg gives a unit the path of one leg: the written route, or a shortest route drawn at
// random from the turn's seed (M4).
func (r *resolver) setLeg(u *unit, a *domain.Army, leg domain.Leg, kw domain.Keyword) {
	u.jointOrder = kw == domain.JointEngage
	switch n := domain.Steps(a.At, leg.To); {
	case len(leg.Route) > 0:
		u.plen = int8(copy(u.path[:], leg.Route))
		u.drawn = true
	case a.At.Col == leg.To.Col || a.At.Row == leg.To.Row || n < 2:
		u.plen = int8(ShortestRoute(&u.path, a.At, leg.To, nil, a.Name))
		u.drawn = true
	default:
		// several shortest routes: which one is drawn only if it decides something
		u.path[0], u.path[n], u.plen = a.At, leg.To, int8(n+1)
	}
	u.goal = u.plen - 1
	u.pos = u.goal
}

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

// drawer gives the turn's draws, started on first use: each draw depends only on its label.
func (r *resolver) drawer() *domain.Draws {
	if r.draws == nil {
		r.draws = r.seed.Draws()
	}
	return r.draws
}

func (r *resolver) name(i int) string { return r.m.Armies[i].Name }

func (r *resolver) rejectAt(i int, code domain.Code, msg string) {
	u := &r.units[i]
	key := &r.keys[i]
	rej := domain.Rejection{Army: r.name(i), Code: code, Message: msg}
	if u.line >= 0 {
		l := &r.orders.Lines[u.line]
		rej.Post, rej.Line, rej.Text = l.Post, l.Number, l.Text
	} else if p := r.m.Armies[i].Plan; p != nil {
		rej.Post, rej.Line = p.Post, p.Line
	} else {
		rej.Post, rej.Line = key.post, key.line
	}
	r.out.Rejected = append(r.out.Rejected, rej)
}

// hold makes a unit stay on its start square.
func (u *unit) hold() {
	u.plen, u.goal, u.pos = 1, 0, 0
	u.jointOrder = false
}

type jointGroup struct {
	sq    domain.Square
	side  int32
	units []int
	// n is the number of its armies, counted before they are listed in units.
	n      int
	second orderKey
}

// findGroup gives the index of the group of joint engagements that u's order joins: the same
// square and side; or -1.
func findGroup(groups []jointGroup, u *unit) int {
	for g := range groups {
		if groups[g].sq == u.dest() && groups[g].side == u.side {
			return g
		}
	}
	return -1
}

// jointEngage applies M13: which joint engagements stand, become moves, fail or exceed the
// one-a-turn limit. Squares in lonely are known to get no enemy: their engagements become
// ordinary moves.
func (r *resolver) jointEngage(lonely []domain.Square) {
	groups := r.groups[:0]
	joint := 0
	for i := range r.units {
		u := &r.units[i]
		if !u.jointOrder {
			continue
		}
		joint++
		if g := findGroup(groups, u); g >= 0 {
			groups[g].n++
			if groups[g].second.less(r.keys[i]) {
				groups[g].second = r.keys[i]
			}
		} else {
			groups = append(groups, jointGroup{sq: u.dest(), side: u.side, n: 1, second: r.keys[i]})
		}
	}
	r.groups = groups
	if len(groups) == 0 {
		return
	}
	// each group's armies, in map order, share the members array
	members := resize(r.members, joint)
	r.members = members
	at := 0
	for gi := range groups {
		groups[gi].units = members[at : at : at+groups[gi].n]
		at += groups[gi].n
	}
	for i := range r.units {
		if u := &r.units[i]; u.jointOrder {
			g := &groups[findGroup(groups, u)]
			g.units = append(g.units, i)
		}
	}
	// first every engagement that fails is ignored and its armies hold (3.2.5.3), so that an
	// ignored one does not count as an enemy coming to another's square
	// — repeated, since armies that hold may break another engagement ("no other army of that
	// side … stays in S")
	ok := resize(r.ok, len(groups))
	r.ok = ok
	for gi := range ok {
		ok[gi] = true
	}
	for again := true; again; {
		again = false
		for gi := range groups {
			g := &groups[gi]
			if !ok[gi] {
				continue
			}
			if why := r.jointProblem(g); why != "" {
				for _, i := range g.units {
					r.rejectAt(i, domain.CodeJointEngageFailed, why)
					r.units[i].hold()
				}
				ok[gi], again = false, true
			}
		}
	}
	candidates := r.candidates[:0]
	for gi := range groups {
		g := &groups[gi]
		switch {
		case !ok[gi]:
		case slices.Contains(lonely, g.sq) || !r.enemyComes(g):
			for _, i := range g.units {
				r.units[i].jointOrder = false
			}
		default:
			candidates = append(candidates, gi)
		}
	}
	r.candidates = candidates
	// by the time of the pair's second order, then its post's id, then — both orders in one
	// post — the line written first (3.3.1, M7 step 4)
	slices.SortStableFunc(candidates, func(a, b int) int {
		ka, kb := groups[a].second, groups[b].second
		switch {
		case ka.less(kb):
			return -1
		case kb.less(ka):
			return 1
		}
		return 0
	})
	if len(candidates) == 0 {
		return
	}
	first := groups[candidates[0]].sq
	for _, gi := range candidates {
		g := &groups[gi]
		if g.sq == first {
			for _, i := range g.units {
				r.units[i].joint = true
			}
			continue
		}
		for _, i := range g.units {
			r.rejectAt(i, domain.CodeJointEngageLimit, fmt.Sprintf("only one joint engagement is fought a turn and the one at %s was made first; %s makes a partial move (3.2.5.4)", first, r.name(i)))
			u := &r.units[i]
			u.jointOrder = false
			if u.leaving() {
				u.failed = true
			}
		}
	}
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// jointProblem says why a joint engagement cannot stand, or "" (3.2.5.2, 3.2.5.3).
func (r *resolver) jointProblem(g *jointGroup) string {
	if !r.sides[g.side].IsTeam() {
		return "mercenaries form no team, so they cannot joint engage (3.2.5.2, 6)"
	}
	if len(g.units) != 2 {
		names := make([]string, len(g.units))
		for i, u := range g.units {
			names[i] = r.name(u)
		}
		if len(g.units) == 1 {
			return fmt.Sprintf("no other army of %s joint engaged %s: a joint engagement needs exactly two (3.2.5.2)", r.sides[g.side].Title(), g.sq)
		}
		return fmt.Sprintf("%d armies (%s) joint engaged %s: a joint engagement needs exactly two (3.2.5.2)", len(g.units), strings.Join(names, ", "), g.sq)
	}
	if r.cells[r.g.Index(g.sq)].battle {
		return fmt.Sprintf("a battle is fought at %s this turn (3.3.1)", g.sq)
	}
	for i := range r.units {
		u := &r.units[i]
		if u.leaving() && u.dest() != g.sq || !u.leaving() && u.start() != g.sq || u.side != g.side || slices.Contains(g.units, i) {
			continue
		}
		if u.leaving() {
			return fmt.Sprintf("%s of the same side also moves to %s (3.2.5.2)", r.name(i), g.sq)
		}
		return fmt.Sprintf("%s of the same side stays in %s (3.2.5.2)", r.name(i), g.sq)
	}
	return ""
}

// enemyComes reports whether an enemy army moves to or stays in the group's square.
func (r *resolver) enemyComes(g *jointGroup) bool {
	for i := range r.units {
		u := &r.units[i]
		if u.leaving() && u.dest() != g.sq || !u.leaving() && u.start() != g.sq || !enemies(u.side, g.side) {
			continue
		}
		// an empty enemy is destroyed on being engaged (B9): it is no enemy to fight
		if r.m.Armies[i].Empty() {
			continue
		}
		if !u.leaving() {
			return true
		}
		// an enemy moving in comes only if no army of its own side stays there: that one
		// keeps the square against it (M7 step 1)
		if !r.heldBySide(g.sq, u.side, i) {
			return true
		}
	}
	return false
}

// heldBySide reports whether an army of side s other than except stays on square sq.
func (r *resolver) heldBySide(sq domain.Square, s int32, except int) bool {
	for j := range r.units {
		if v := &r.units[j]; j != except && v.side == s && !v.leaving() && v.start() == sq {
			return true
		}
	}
	return false
}

// intercepts applies M9 and M10: an army passing over an interceptor that waits for it stops
// there, unless another enemy engaging the interceptor was closer.
func (r *resolver) intercepts() {
	waiting := r.waiting[:0]
	for i := range r.units {
		if r.units[i].target >= 0 {
			waiting = append(waiting, i)
		}
	}
	r.waiting = waiting
	if len(waiting) == 0 {
		return
	}
	for _, w := range waiting {
		if t := int(r.units[w].target); t >= 0 && r.units[t].leaving() {
			r.route(t)
		}
	}
	// first pass: where would each target be caught, ignoring M10 (0: nowhere)
	first := resize(r.first, len(r.units))
	r.first = first
	targeted := resize(r.targeted, len(r.units))
	r.targeted = targeted
	for _, w := range waiting {
		targeted[r.units[w].target] = true
	}
	catchAt := func(x int, from int8) (int8, int) {
		u := &r.units[x]
		if !targeted[x] {
			return -1, -1
		}
		for k := from; k < u.goal; k++ {
			for _, w := range waiting {
				if int(r.units[w].target) == x && r.units[w].start() == u.path[k] {
					return k, w
				}
			}
		}
		return -1, -1
	}
	for x := range r.units {
		if r.units[x].leaving() && !r.units[x].failed {
			if k, _ := catchAt(x, 1); k > 0 {
				first[x] = k
			}
		}
	}
	for x := range r.units {
		u := &r.units[x]
		// an army the first pass saw caught nowhere is caught nowhere
		if !u.leaving() || u.failed || first[x] == 0 {
			continue
		}
		for k, w := catchAt(x, 1); k > 0; k, w = catchAt(x, k+1) {
			sq := u.path[k]
			best := -1
			ys := r.ys[:0]
			for y := range r.units {
				v := &r.units[y]
				if y == x || !v.leaving() || v.failed || v.dest() != sq || !enemies(v.side, r.units[w].side) {
					continue
				}
				if fk := first[y]; fk > 0 && fk < v.plen-1 {
					continue // caught on its way elsewhere: it never engages here
				}
				ys = append(ys, y)
				if best < 0 || r.closer(y, best, v.plen-1, r.units[best].plen-1) {
					best = y
				}
			}
			r.ys = ys
			xFights := true
			if best >= 0 {
				switch yk := r.units[best].plen - 1; {
				case k > yk:
					xFights = false
				case k == yk:
					xFights = r.drawer().Intn("m10:"+sq.String(), 2) == 0
				}
			}
			if !xFights {
				continue
			}
			u.goal, u.pos, u.caughtBy = k, k, int32(w)
			for _, y := range ys {
				r.units[y].failed = true
			}
			break
		}
	}
}

// closer reports whether army a, sa steps from a square, takes it before army b, sb steps
// away: fewer steps, then the earlier post, then the lower post id, then the earlier line (M7).
func (r *resolver) closer(a, b int, sa, sb int8) bool {
	if sa != sb {
		return sa < sb
	}
	return r.keys[a].less(r.keys[b])
}

// settle finds where every army ends: who takes contested squares (M7, M11, M12, M13) and
// where the others' partial moves stop (M8), repeated until nothing changes.
func (r *resolver) settle() {
	for i := range r.units {
		u := &r.units[i]
		if !u.leaving() && !u.joint {
			u.anchored = true
		}
	}
	for round := 0; ; round++ {
		if round > 4*len(r.units)+8 {
			panic("movement: resolution does not settle")
		}
		changed := r.contestIntents()
		r.settlePartials()
		for i := range r.units {
			u := &r.units[i]
			if u.failed && !u.anchored && u.pos == 0 {
				u.anchored = true
				changed = true
			}
		}
		if !changed {
			return
		}
	}
}

func (r *resolver) resetLists() {
	for _, k := range r.touched {
		c := &r.cells[k]
		c.anchors, c.claims, c.held = 0, 0, false
	}
	r.touched = r.touched[:0]
}

// cell gives square s's cell, noting that its lists are in use.
func (r *resolver) cell(s domain.Square) *cell {
	k := r.g.Index(s)
	c := &r.cells[k]
	if c.anchors == 0 && c.claims == 0 && !c.held {
		r.touched = append(r.touched, int32(k))
	}
	return c
}

// push puts army i first in the list that head starts.
func (r *resolver) push(head *int32, i int) {
	r.units[i].next = *head
	*head = int32(i + 1)
}

// contestIntents decides, square by square, which arriving armies take their destination;
// the others fail and will make partial moves. It reports whether any army failed.
func (r *resolver) contestIntents() bool {
	r.resetLists()
	// backwards, so that each square's lists are in map order
	for i := len(r.units) - 1; i >= 0; i-- {
		u := &r.units[i]
		switch {
		case u.anchored:
			c := r.cell(u.start())
			r.push(&c.anchors, i)
		case !u.failed:
			c := r.cell(u.path[u.goal])
			r.push(&c.claims, i)
		}
	}
	changed := false
	for _, k := range r.touched {
		if r.cells[k].claims > 0 && r.contest(int(k)) {
			changed = true
		}
	}
	return changed
}

func (r *resolver) fail(i int32) {
	r.units[i].failed = true
}

// contest settles the arrivals on one square; it reports whether any failed.
func (r *resolver) contest(k int) bool {
	claims, anchors := r.cells[k].claims, r.cells[k].anchors
	if anchors == 0 && r.units[claims-1].next == 0 && !r.cells[k].battle {
		// a lone arrival on a square no army stays on takes it
		return false
	}
	failed := false
	if r.cells[k].battle {
		for c := claims - 1; c >= 0; c = r.units[c].next - 1 {
			r.fail(c)
		}
		return true
	}
	for c := claims - 1; c >= 0; c = r.units[c].next - 1 {
		if r.units[c].caughtBy >= 0 {
			for o := claims - 1; o >= 0; o = r.units[o].next - 1 {
				if o != c {
					r.fail(o)
					failed = true
				}
			}
			return failed
		}
	}
	// one candidate per side: the army that stays, the joint pair, or the closest arrival
	var cand [3]int32
	var sides [3]int32
	ns := 0
	sideIdx := func(s int32) int {
		for i := 0; i < ns; i++ {
			if sides[i] == s {
				return i
			}
		}
		sides[ns], cand[ns] = s, -1
		ns++
		return ns - 1
	}
	var anchoredSide [3]bool
	var jointSide [3]bool
	for a := anchors - 1; a >= 0; a = r.units[a].next - 1 {
		si := sideIdx(r.units[a].side)
		anchoredSide[si] = true
		if r.units[a].joint {
			jointSide[si] = true
		}
	}
	for c := claims - 1; c >= 0; c = r.units[c].next - 1 {
		if r.units[c].joint {
			jointSide[sideIdx(r.units[c].side)] = true
		}
	}
	for c := claims - 1; c >= 0; c = r.units[c].next - 1 {
		u := &r.units[c]
		si := sideIdx(u.side)
		switch {
		case anchoredSide[si]:
			// an army that stays keeps its square against every arrival of its side, a joint
			// pair included (M7 step 1, M13 "up to two armies of each side")
			r.fail(c)
			failed = true
		case jointSide[si]:
			// the pair stands or falls together; the closer of the two speaks for it (M12)
			if !u.joint {
				r.fail(c)
				failed = true
			} else if cand[si] < 0 || r.closer(int(c), int(cand[si]), u.goal, r.units[cand[si]].goal) {
				cand[si] = c
			}
		case cand[si] < 0:
			cand[si] = c
		case r.closer(int(c), int(cand[si]), u.goal, r.units[cand[si]].goal):
			r.fail(cand[si])
			cand[si] = c
			failed = true
		default:
			r.fail(c)
			failed = true
		}
	}
	if ns < 3 {
		return failed
	}
	// Coalition, Phyrexia and a mercenary on one square (M12, 3.3.5)
	merc := -1
	for i := 0; i < ns; i++ {
		if sides[i] == r.merc {
			merc = i
		}
	}
	if merc < 0 {
		return failed
	}
	if anchoredSide[merc] {
		var a, b int32 = -1, -1
		for i := 0; i < ns; i++ {
			if i != merc {
				if a < 0 {
					a = cand[i]
				} else {
					b = cand[i]
				}
			}
		}
		if a >= 0 && b >= 0 {
			if r.closer(int(a), int(b), r.units[a].goal, r.units[b].goal) {
				r.failSide(k, b)
			} else {
				r.failSide(k, a)
			}
			failed = true
		}
		return failed
	}
	if cand[merc] >= 0 {
		r.fail(cand[merc])
		failed = true
	}
	return failed
}

// failSide fails an arrival on square k, and its joint partner with it.
func (r *resolver) failSide(k int, c int32) {
	r.fail(c)
	if !r.units[c].joint {
		return
	}
	for o := r.cells[k].claims - 1; o >= 0; o = r.units[o].next - 1 {
		if r.units[o].joint && r.units[o].side == r.units[c].side {
			r.fail(o)
		}
	}
}

// settlePartials walks every failed army back along its route to the nearest square where it
// may end the turn (M8): not held at the end by any army, no battle, and, among partial
// moves wanting one square, the closest (M7 steps 2–4). Its own start square is always free.
func (r *resolver) settlePartials() {
	r.resetLists()
	r.partials = r.partials[:0]
	for i := range r.units {
		u := &r.units[i]
		switch {
		case u.anchored:
			r.cell(u.start()).held = true
		case !u.failed:
			r.cell(u.path[u.goal]).held = true
		default:
			r.route(i)
			u.pos = max(u.goal-1, 0)
			r.partials = append(r.partials, int32(i))
		}
	}
	if len(r.partials) == 0 {
		return
	}
	for {
		for _, p := range r.partials {
			u := &r.units[p]
			r.cells[r.g.Index(u.start())].owner = 0
			r.cells[r.g.Index(u.path[u.pos])].owner = 0
		}
		// an army back on its start square keeps it (M8)
		for _, p := range r.partials {
			if u := &r.units[p]; u.pos == 0 {
				r.cells[r.g.Index(u.start())].owner = p + 1
			}
		}
		changed := false
		for _, p := range r.partials {
			u := &r.units[p]
			if u.pos == 0 {
				continue
			}
			c := &r.cells[r.g.Index(u.path[u.pos])]
			for u.pos > 0 && (c.held || c.battle || (c.owner > 0 && r.units[c.owner-1].pos == 0)) {
				u.pos--
				changed = true
				c = &r.cells[r.g.Index(u.path[u.pos])]
			}
			if u.pos == 0 {
				continue
			}
			switch q := c.owner - 1; {
			case q < 0:
				c.owner = p + 1
			case r.closer(int(p), int(q), u.pos, r.units[q].pos):
				r.units[q].pos--
				c.owner = p + 1
				changed = true
			default:
				u.pos--
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	for _, p := range r.partials {
		u := &r.units[p]
		r.cells[r.g.Index(u.start())].owner = 0
		r.cells[r.g.Index(u.path[u.pos])].owner = 0
	}
}

// lonelySquares lists the squares of joint engagements, not yet in known, that no enemy
// reached (or only an empty one, which is destroyed with no battle, B9). Only partners that
// reached the engagement's square count: one caught on the way (M9) is not there.
func (r *resolver) lonelySquares(known []domain.Square) []domain.Square {
	var out []domain.Square
	for i := range r.units {
		u := &r.units[i]
		sq := u.dest()
		if !u.joint || u.failed || u.caughtBy >= 0 || u.final() != sq || slices.Contains(out, sq) || slices.Contains(known, sq) {
			continue
		}
		enemy := false
		for j := range r.units {
			if enemies(r.units[j].side, u.side) && r.units[j].final() == sq && !r.m.Armies[j].Empty() {
				enemy = true
				break
			}
		}
		if !enemy {
			out = append(out, sq)
		}
	}
	return out
}

func (u *unit) final() domain.Square {
	switch {
	case u.anchored:
		return u.start()
	case u.failed:
		return u.path[u.pos]
	}
	return u.path[u.goal]
}

// finish writes the result to the map and the outcome: positions, moves, battles made,
// plans kept or cancelled (M14), and empty armies destroyed (B9).
func (r *resolver) finish() {
	m := r.m
	n, steps, partial := 0, 0, 0
	for i := range r.units {
		if u := &r.units[i]; u.leaving() || u.joint {
			n++
			if u.drawn {
				steps += int(u.plen) - 1
			}
			if u.failed && u.leaving() {
				partial++
			}
		}
	}
	r.out.Moves = make([]domain.Move, 0, n)
	if partial > 0 {
		r.out.Partial = make([]string, 0, partial)
	}
	// the moves' routes share one array
	routes := make([]domain.Square, 0, steps)
	for i := range r.units {
		u := &r.units[i]
		a := &m.Armies[i]
		to := u.final()
		if u.leaving() || u.joint {
			// written in place: copying a Move that holds pointers costs write barriers while
			// the collector marks
			r.out.Moves = r.out.Moves[:len(r.out.Moves)+1]
			mv := &r.out.Moves[len(r.out.Moves)-1]
			mv.Army, mv.From, mv.To, mv.Partial, mv.Intercepted = a.Name, u.start(), to, u.failed, u.caughtBy >= 0
			if u.drawn {
				from := len(routes)
				routes = append(routes, u.path[1:u.plen]...)
				mv.Route = routes[from:len(routes):len(routes)]
			}
			if u.failed && u.leaving() {
				r.out.Partial = append(r.out.Partial, a.Name)
			}
		}
		if u.failed || u.caughtBy >= 0 {
			a.Plan = nil
		}
		a.At = to
	}
	// battles made at this lock, square by square: each square's anchors list the armies
	// that end there, in map order; crowded (reusing touched's array) lists the squares where
	// several end
	r.resetLists()
	crowded := r.touched[:0]
	for i := len(r.units) - 1; i >= 0; i-- {
		k := r.g.Index(m.Armies[i].At)
		c := &r.cells[k]
		if c.anchors > 0 && r.units[c.anchors-1].next == 0 && !c.battle {
			crowded = append(crowded, int32(k))
		}
		r.push(&c.anchors, i)
	}
	slices.Sort(crowded)
	var removed []bool
	var idsBuf, liveBuf [8]int
	for _, k := range crowded {
		c := &r.cells[k]
		ids := idsBuf[:0]
		for i := c.anchors - 1; i >= 0; i = r.units[i].next - 1 {
			ids = append(ids, int(i))
		}
		if !mixed(m, ids) {
			continue
		}
		// B9: empty armies are destroyed when engaged, with no battle
		live := liveBuf[:0]
		for _, i := range ids {
			if !m.Armies[i].Empty() {
				live = append(live, i)
				continue
			}
			if removed == nil {
				removed = make([]bool, len(m.Armies))
			}
			removed[i] = true
		}
		if len(live) < 2 || !mixed(m, live) {
			continue
		}
		bt := domain.Battle{Square: r.g.At(int(k)), Armies: make([]string, 0, len(live))}
		for _, i := range live {
			bt.Armies = append(bt.Armies, m.Armies[i].Name)
			m.Armies[i].Plan = nil
		}
		slices.Sort(bt.Armies)
		bt.Kind = domain.Meeting
		for _, i := range live {
			u := &r.units[i]
			switch {
			case u.caughtBy >= 0:
				bt.Kind, bt.Attacker = domain.Intercept, m.Armies[u.caughtBy].Name
			case u.joint && !u.failed && u.final() == u.dest() && bt.Kind != domain.Intercept:
				bt.Kind, bt.Attacker = domain.Joint, ""
			}
		}
		if bt.Kind == domain.Meeting {
			for _, i := range live {
				if m.Armies[i].At == r.units[i].start() {
					bt.Kind = domain.Attack
				}
			}
			if bt.Kind == domain.Attack {
				for _, i := range live {
					if m.Armies[i].At != r.units[i].start() {
						bt.Attacker = m.Armies[i].Name
					}
				}
			}
		}
		r.out.Battles = append(r.out.Battles, bt)
	}
	for i := range removed {
		if removed[i] {
			r.out.Removed = append(r.out.Removed, m.Armies[i].Name)
		}
	}
	if len(r.out.Removed) > 0 {
		i := 0
		m.Armies = slices.DeleteFunc(m.Armies, func(domain.Army) bool { i++; return removed[i-1] })
	}
}

func mixed(m *domain.Map, ids []int) bool {
	for _, i := range ids[1:] {
		if domain.Enemy(m.Armies[i].Side, m.Armies[ids[0]].Side) {
			return true
		}
	}
	return false
}
