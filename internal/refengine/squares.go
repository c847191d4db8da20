// Rules M7, M8, M11 and M12: who ends where — arrivals contesting a square, and partial moves
// walking back.

package refengine

import (
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// settleSquares settles who ends where (M7, M8, M11, M12): first the armies that mean to enter
// a square (3.3.2 gives them priority), then the partial moves; an army whose partial move
// takes it all the way back to its start keeps that square against any arrival, which can
// turn a settled arrival away, so the two steps are repeated until nothing changes.
func (l *lock) settleSquares(mv *moves) {
	for {
		l.arrivals(mv)
		if !l.partials(mv) {
			return
		}
	}
}

// closedSquare reports whether a battle is fought on s this turn (M12: no army may end there).
func (l *lock) closedSquare(s domain.Square) bool {
	for _, f := range l.fought {
		if f.square == s {
			return true
		}
	}
	return false
}

// arrivals decides every square wanted by armies that mean to enter it (M7, M11, M12, M13).
func (l *lock) arrivals(mv *moves) {
	// battles are recomputed from scratch, except interceptions (M9), decided before.
	for s, b := range mv.battles {
		if b.Kind != domain.Intercept {
			delete(mv.battles, s)
		}
	}
	want := map[domain.Square][]*unit{}
	var squares []domain.Square
	for _, u := range mv.list {
		u.won = false
		if !u.moving() || u.caught || u.failed {
			continue
		}
		if _, ok := want[u.dest()]; !ok {
			squares = append(squares, u.dest())
		}
		want[u.dest()] = append(want[u.dest()], u)
	}
	slices.SortFunc(squares, cmpSquare)
	for _, s := range squares {
		arr := want[s]
		// M12: no army may end where a battle is fought this turn, nor where an interception
		// battle was made.
		if l.closedSquare(s) || mv.battles[s] != nil {
			for _, u := range arr {
				u.failed = true
			}
			continue
		}
		var fixed *unit
		for _, u := range mv.list {
			if u.fixed() && u.final() == s {
				fixed = u
			}
		}
		if pairs := mv.joint[s]; len(pairs) > 0 {
			// M7 step 1 / M8: a friend of a pair that walked back to its start there keeps it
			// against that pair, which is kept out (M13b); the other side's pair, if any,
			// still engages it (M13c, M13d).
			if fixed != nil && fixed.home && !slices.Contains(pairs, fixed) {
				pairs = slices.DeleteFunc(slices.Clone(pairs), func(u *unit) bool { return u.side == fixed.side })
			}
			// a pair whose armies were all caught on their way (M9) has none here
			if !slices.ContainsFunc(pairs, func(u *unit) bool { return !u.caught }) {
				pairs = nil
			}
			if len(pairs) > 0 {
				l.jointArrivals(mv, s, arr, fixed, pairs)
				continue
			}
		}
		// M7 within each side (mercenaries are one side for sharing squares, R15).
		winners := map[domain.Side]*unit{}
		for _, u := range arr {
			if fixed != nil && fixed.side == u.side {
				u.failed = true // step 1: the army already in it that does not leave keeps it
				continue
			}
			if w := winners[u.side]; w == nil || closer(u, w, u.steps(), w.steps()) {
				if w != nil {
					w.failed = true
				}
				winners[u.side] = u
			} else {
				u.failed = true
			}
		}
		var present []*unit
		if fixed != nil {
			present = append(present, fixed)
		}
		for _, side := range []domain.Side{domain.Coalition, domain.Phyrexia, domain.Mercenary} {
			if w := winners[side]; w != nil {
				present = append(present, w)
			}
		}
		// M12: a Coalition, a Phyrexian and a mercenary army in one square.
		if len(present) == 3 {
			if fixed != nil && fixed.side == domain.Mercenary {
				// "if the mercenary was already there and stays, the arrival with fewer steps
				// (then M7's steps 3–4) fights it and the other makes a partial move"
				a, b := present[1], present[2]
				if closer(a, b, a.steps(), b.steps()) {
					b.failed = true
					present = []*unit{fixed, a}
				} else {
					a.failed = true
					present = []*unit{fixed, b}
				}
			} else {
				// "the Coalition and Phyrexian armies fight there and the mercenary makes a
				// partial move"
				present = slices.DeleteFunc(present, func(u *unit) bool {
					if u.side == domain.Mercenary {
						u.failed = true
						return true
					}
					return false
				})
			}
		}
		for _, u := range present {
			if u != fixed {
				u.won = true
			}
		}
		if len(present) == 2 {
			// M11: an arrival ending with an enemy that did not move there attacks it; two
			// arrivals meet.
			if fixed != nil {
				att := present[1]
				mv.addBattle(s, domain.Attack, att.name, fixed.name, att.name)
			} else {
				mv.addBattle(s, domain.Meeting, "", present[0].name, present[1].name)
			}
		}
	}
}

// partials walks every army whose move was cut short back along its own route to the nearest
// square where it may end the turn (M8): not held at the end of the turn by any other army,
// not a square with a battle in it. Among partial moves wanting one square, friend or foe,
// M7's steps 2–4 decide. It reports whether an army walked all the way back to its start,
// where it keeps its square against any arrival and the arrivals must be settled again.
func (l *lock) partials(mv *moves) bool {
	held := map[domain.Square]bool{}
	var walkers []*unit
	for _, u := range mv.list {
		switch {
		case u.fixed():
			held[u.final()] = true
		case u.won:
			held[u.dest()] = true
		case u.failed:
			u.end = len(u.route) - 2 // one step back from the square it could not have
			walkers = append(walkers, u)
		}
	}
	battle := func(s domain.Square) bool { return l.closedSquare(s) || mv.battles[s] != nil }
	for changed := true; changed; {
		changed = false
		home := map[domain.Square]bool{}
		for _, u := range walkers {
			if u.end < 0 {
				home[u.start] = true
			}
		}
		// walk back past the squares it may not have
		for _, u := range walkers {
			for u.end >= 0 && (held[u.route[u.end]] || home[u.route[u.end]] || battle(u.route[u.end])) {
				u.end--
				changed = true
			}
		}
		// partial moves wanting one square: M7 steps 2–4
		want := map[domain.Square][]*unit{}
		for _, u := range walkers {
			if u.end >= 0 {
				want[u.route[u.end]] = append(want[u.route[u.end]], u)
			}
		}
		for _, us := range want {
			if len(us) < 2 {
				continue
			}
			best := us[0]
			for _, u := range us[1:] {
				if closer(u, best, u.end+1, best.end+1) {
					best = u
				}
			}
			for _, u := range us {
				if u != best {
					u.end--
					changed = true
				}
			}
		}
	}
	grew := false
	for _, u := range walkers {
		if u.end < 0 {
			u.home = true
			grew = true
		}
	}
	return grew
}
