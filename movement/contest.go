// Rules 3.3.1, M7, M11 and M12: who takes a square that several armies want.

package movement

import "github.com/coalition-wargame/coalition/domain"

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
			// pair included (M7 step 1, M13 "up to two armies of each side"); a side that did
			// not joint engage has one army there, replace or not (M13c)
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
