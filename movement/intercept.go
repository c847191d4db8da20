// Rules 3.2.3, M9 and M10: intercepts — checking the target, and catching an army on its way.

package movement

import "github.com/coalition-wargame/coalition/domain"

func (b *board) checkIntercept(l *Line, a *domain.Army) {
	t := b.army(l.Order.Target)
	if t < 0 {
		l.reject(domain.CodeUnknownArmy, "there is no army named %q to intercept", l.Order.Target)
		return
	}
	x := &b.m.Armies[t]
	if x == a || !domain.Enemy(a.Side, x.Side) {
		l.reject(domain.CodeInterceptNotEnemy, "%s is not an enemy of %s: only an enemy army can be intercepted (3.2.3.1)", x.Name, a.Name)
		return
	}
	l.Order.Target = x.Name
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
