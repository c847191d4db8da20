// Rule 3.3.4: every move of a turn resolved at once — the resolver, its units, and the leg each
// army moves this turn (M4, M14).

package movement

import (
	"slices"
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
	// RemovedAt is the square where each army of Removed was engaged.
	RemovedAt []domain.Square
	// Transfers are the accepted transfer orders, for the update (T3): Creatures is nil for one
	// whose private detail was never sent, which moves no troops but is cancelled like any
	// other when its receiver moves away.
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
	// counted is the square of the joint engagement that counts toward the one-a-turn limit
	// this round, if any; keptOut marks the armies of engagements found to make no joint
	// battle that were kept out of their square (M13b, R47).
	counted domain.Square
	keptOut []bool
	// limited are the joint engagements refused by the limit this round.
	limited []pairKey
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
		r.keptOut = resize(r.keptOut, len(r.units))
	}
	var lonely []pairKey
	var unmade []domain.Square
	for {
		r.out.Rejected = r.out.Rejected[:0]
		r.jointEngage(lonely, unmade)
		r.intercepts()
		r.settle()
		// The joint engagements are tried in time order (3.2.5.4). The one tried stands on
		// the orders (M13); if no enemy with troops ends the turn in its square after all
		// (intercepted on the way, say), its moves are ordinary moves (M13b). If its pairs are
		// kept out of the square (M10, M12, their own side), or only empty armies of them get
		// in, it makes no joint battle (M13b, R47). Either way it does not count toward the
		// one-a-turn limit, and the next is tried. Once one stands, or none is left, the
		// others with no enemy in their square are ordinary moves too.
		if more := r.lonelyPairs(lonely, true); len(more) > 0 {
			lonely = append(lonely, more...)
		} else if r.unmade() {
			unmade = append(unmade, r.counted)
		} else if more := r.lonelyPairs(lonely, false); len(more) > 0 {
			lonely = append(lonely, more...)
		} else {
			break
		}
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
				// with or without its private detail: a transfer whose receiver moves away is
				// listed as cancelled either way (T3)
				r.out.Transfers = append(r.out.Transfers, domain.TransferOrder{From: a.Name, To: o.Target, Creatures: l.Creatures, Post: l.Post, At: l.At, Line: l.Number})
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

// closer reports whether army a, sa steps from a square, takes it before army b, sb steps
// away: fewer steps, then the earlier post, then the lower post id, then the earlier line (M7).
func (r *resolver) closer(a, b int, sa, sb int8) bool {
	if sa != sb {
		return sa < sb
	}
	return r.keys[a].less(r.keys[b])
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
