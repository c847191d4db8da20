// Rules 3.3.2 and M8: partial moves walk back along the army's own route.

package movement

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
