// Rules M8, M9, M11, M13, M14 and B9: the resolution written to the map — moves, the battles made
// and their kinds, and empty armies destroyed.

package movement

import (
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// finish writes the result to the map and the outcome: positions, moves and plans (M8, M14),
// the battles made (M9, M11, M13), and empty armies destroyed when engaged (B9).
func (r *resolver) finish() {
	r.writeMoves()
	removed := r.formBattles()
	r.removeEmpty(removed)
}

// writeMoves puts every army on the square it ends on and lists the moves, the partial moves
// (M8) and the long moves cut short (M14).
func (r *resolver) writeMoves() {
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
}

// formBattles lists the battles made at this lock, square by square, and returns the marks of
// the empty armies engaged, destroyed with no battle (B9), or nil when there are none.
func (r *resolver) formBattles() []bool {
	m := r.m
	// each square's anchors list the armies that end there, in map order; crowded (reusing
	// touched's array) lists the squares where several end
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
		r.kind(&bt, live)
		r.out.Battles = append(r.out.Battles, bt)
	}
	return removed
}

// kind gives a battle made at this lock its kind and attacker from how its armies came: an
// interception (M9), a joint battle that a successful pair fights in (M13d), an attack on an
// army that did not move there, or a meeting of arrivals (M11).
func (r *resolver) kind(bt *domain.Battle, live []int) {
	m := r.m
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
}

// removeEmpty takes the empty armies engaged at this lock off the map, listing them as removed
// (B9).
func (r *resolver) removeEmpty(removed []bool) {
	m := r.m
	for i := range removed {
		if removed[i] {
			r.out.Removed = append(r.out.Removed, m.Armies[i].Name)
			r.out.RemovedAt = append(r.out.RemovedAt, m.Armies[i].At)
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
