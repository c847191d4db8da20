// Rules 3.2.3, M9 and M10: an army caught on its way by an interceptor, or passed on to the army
// engaging it.

package refengine

import "github.com/coalition-wargame/coalition/domain"

// intercepts applies M9 and M10: an army X whose route passes over the square of an army
// ordered to intercept it (not as its destination) stops at the first such square and fights
// there, unless an enemy Y engaging the interceptor is closer (M10, R13).
func (l *lock) intercepts(mv *moves) {
	var interceptors []*unit
	for _, u := range mv.list {
		if u.intercept != "" {
			interceptors = append(interceptors, u)
		}
	}
	// first is the index on x's route of the first interceptor of x from index from on.
	first := func(x *unit, from int) (int, *unit) {
		for i := from; i < len(x.route)-1; i++ {
			for _, iu := range interceptors {
				if iu.intercept == x.name && iu.start == x.route[i] {
					return i, iu
				}
			}
		}
		return -1, nil
	}
	raw := map[*unit]bool{}
	for _, x := range mv.list {
		// a later joint engage makes only a partial move (3.2.5.4), short of the squares it
		// would pass: it is not caught (the project's reading)
		if i, _ := first(x, 0); i >= 0 && !x.failed {
			raw[x] = true
		}
	}
	for _, x := range mv.list {
		if !raw[x] {
			continue
		}
		for i, iu := first(x, 0); iu != nil; i, iu = first(x, i+1) {
			// M10: the armies engaging the interceptor (their destination is its square).
			var best *unit
			var engagers []*unit
			for _, y := range mv.list {
				if y == x || !y.moving() || y.failed || y.dest() != iu.start || !domain.Enemy(y.side, iu.side) {
					continue
				}
				if raw[y] {
					continue // caught on its way, it does not engage the interceptor
				}
				engagers = append(engagers, y)
				if best == nil || closer(y, best, y.steps(), best.steps()) {
					best = y // R13: the closest of them, in M7's order
				}
			}
			xFights := true
			if best != nil {
				xs, ys := i+1, best.steps()
				switch {
				case xs < ys:
				case ys < xs:
					xFights = false
				default:
					xFights = l.draws.Intn("m10:"+iu.start.String(), 2) == 0
				}
			}
			if !xFights {
				continue // "If ArmyB fights you, ArmyA will carry out its normal move."
			}
			x.caught, x.end = true, i
			mv.addBattle(iu.start, domain.Intercept, iu.name, iu.name, x.name)
			for _, y := range engagers {
				y.failed = true // "If ArmyA fights you, ArmyB will carry out only a partial move."
			}
			break
		}
	}
}
