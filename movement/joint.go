// Rules 3.2.5 and M13: joint engagements — which stand, become ordinary moves, fail, or are
// refused by the one-a-turn limit.

package movement

import (
	"fmt"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

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
// one-a-turn limit. Engagements in lonely are known to get no enemy: their orders become
// ordinary moves; those on the squares in unmade are known to make no joint battle: they do
// not count toward the limit (M13b). It notes the square of the engagement that counts in
// r.counted and those refused by the limit in r.limited.
func (r *resolver) jointEngage(lonely []pairKey, unmade []domain.Square) {
	r.counted, r.limited = domain.Square{}, r.limited[:0]
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
	// ignored one does not count as an enemy coming to another's square but stays in its own
	// for every other pair's enemy test — repeated, since armies that hold may break another
	// engagement ("no other army of that side … stays in S"): conditions before the enemy
	// test (M13a)
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
		case slices.Contains(lonely, pairKey{g.sq, g.side}) || !r.enemyComes(g):
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
	// the first that makes its joint battle stands and counts; one on a square in unmade did
	// not make it when it was tried (M10, M12 or its own side kept its pairs out, or only
	// empty armies got in): it is still carried out, but the next one in time order is tried
	// (M13b, R47)
	var first domain.Square
	for _, gi := range candidates {
		g := &groups[gi]
		if first.IsZero() && !slices.Contains(unmade, g.sq) {
			first = g.sq
		}
		if slices.Contains(unmade, g.sq) {
			// tried before and found to make no joint battle: its armies that were kept out
			// then stay out (partial moves), so that it never becomes a second joint battle
			// (R47)
			for _, i := range g.units {
				if u := &r.units[i]; r.keptOut[i] {
					u.jointOrder, u.failed = false, true
				} else {
					u.joint = true
				}
			}
			continue
		}
		if g.sq == first {
			for _, i := range g.units {
				r.units[i].joint = true
			}
			continue
		}
		r.limited = append(r.limited, pairKey{g.sq, g.side})
		for _, i := range g.units {
			u := &r.units[i]
			does := "makes a partial move (3.2.5.4)"
			if !u.leaving() {
				does = "holds, its order naming its own square (3.2.5.4, M13e)"
			}
			r.rejectAt(i, domain.CodeJointEngageLimit, fmt.Sprintf("only one joint engagement is fought a turn and the one at %s was made first; %s %s", first, r.name(i), does))
			u.jointOrder = false
			if u.leaving() {
				u.failed = true
			}
		}
	}
	r.counted = first
}

// unmade reports whether the joint engagement that counts this round, at r.counted, made no
// joint battle although an enemy is there: no army of its pairs with troops ends the
// movement in its square — M10 or M12 kept them out, or their own side did, or only empty
// armies got in (M13b). When so, it notes in r.keptOut the armies of its pairs that were kept
// out.
func (r *resolver) unmade() bool {
	sq := r.counted
	if sq.IsZero() {
		return false
	}
	for i := range r.units {
		if u := &r.units[i]; u.joint && u.dest() == sq && !u.failed && u.caughtBy < 0 && u.final() == sq && !r.m.Armies[i].Empty() {
			return false
		}
	}
	for i := range r.units {
		if u := &r.units[i]; u.joint && u.dest() == sq && u.failed && u.caughtBy < 0 {
			r.keptOut[i] = true
		}
	}
	return true
}

// jointProblem says why a joint engagement cannot stand, or "" (3.2.5.2, 3.2.5.3).
func (r *resolver) jointProblem(g *jointGroup) string {
	if !r.sides[g.side].IsTeam() {
		// M13f
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

// enemyComes reports whether an enemy army may end the movement in the group's square (M13b):
// one that stays in it, moves to it, or leaves it and may walk back to it (M8). Which of
// them does is known only once the moves are settled: Resolve settles them again with the
// engagement's moves as ordinary moves if none does (lonelyPairs).
func (r *resolver) enemyComes(g *jointGroup) bool {
	for i := range r.units {
		u := &r.units[i]
		if u.dest() != g.sq && u.start() != g.sq || !enemies(u.side, g.side) {
			continue
		}
		// an empty enemy is destroyed on being engaged (B9): it is no enemy to fight
		if r.m.Armies[i].Empty() {
			continue
		}
		if u.start() == g.sq {
			if !u.leaving() || r.mayWalkBack(i) {
				return true
			}
			continue
		}
		// an enemy moving in comes only if no army of its own side stays there: that one
		// keeps the square against it (M7 step 1)
		if !r.heldBySide(g.sq, u.side, i) {
			return true
		}
	}
	return false
}

// mayWalkBack reports whether army i, leaving its square, may yet end the movement on it, its
// move failing and walking all the way back (M8). It surely arrives when no other army starts
// on or moves to its destination, no battle is fought there, and it has no joint engagement at
// stake; caught on its way (M9), it stops on its route, off its start.
func (r *resolver) mayWalkBack(i int) bool {
	u := &r.units[i]
	t := u.dest()
	if u.jointOrder || r.cells[r.g.Index(t)].battle {
		return true
	}
	for j := range r.units {
		if v := &r.units[j]; j != i && (v.start() == t || v.dest() == t) {
			return true
		}
	}
	return false
}

// heldBySide reports whether an army of side s other than except stays on square sq and keeps
// it against except, moving in: its joint engage partner on its own square does not (M13).
func (r *resolver) heldBySide(sq domain.Square, s int32, except int) bool {
	partner := r.units[except].jointOrder
	for j := range r.units {
		if v := &r.units[j]; j != except && v.side == s && !v.leaving() && v.start() == sq && !(partner && v.jointOrder) {
			return true
		}
	}
	return false
}

// endsIn reports whether army i ends the movement in square sq as an enemy of a joint
// engagement there reckons it (M13b): it stays there, arrives there, or walks back there as its
// own start square; not one caught on its way, nor one that stops there on a partial move
// towards another square, which could not stop there were the pair in it (R48).
func (r *resolver) endsIn(i int, sq domain.Square) bool {
	u := &r.units[i]
	f := u.final()
	return f == sq && u.caughtBy < 0 && (!u.failed || f == u.start())
}

// pairKey names the joint engagement of one side on one square.
type pairKey struct {
	sq   domain.Square
	side int32
}

// lonelyPairs lists the joint engagements of this round, not yet in known, with which no enemy
// army with troops ends the movement in their square (endsIn), whether or not their own
// armies got in (M13b: an enemy caught on its way, kept out by its own side, or empty is no
// enemy): with
// counted set, those on the square of the engagement that counts; else the others, those
// carried out after making no joint battle and those refused by the limit.
func (r *resolver) lonelyPairs(known []pairKey, counted bool) []pairKey {
	var out []pairKey
	lonely := func(k pairKey) bool {
		if (k.sq == r.counted) != counted || slices.Contains(out, k) || slices.Contains(known, k) {
			return false
		}
		for j := range r.units {
			if enemies(r.units[j].side, k.side) && r.endsIn(j, k.sq) && !r.m.Armies[j].Empty() {
				return false
			}
		}
		return true
	}
	for i := range r.units {
		if u := &r.units[i]; u.joint && lonely(pairKey{u.dest(), u.side}) {
			out = append(out, pairKey{u.dest(), u.side})
		}
	}
	for _, k := range r.limited {
		// both sides' pairs refused by the limit on one square (M13c): each has the other as
		// the enemy that tries to enter, so neither is an ordinary move (3.2.5.4, R110)
		both := slices.ContainsFunc(r.limited, func(o pairKey) bool { return o.sq == k.sq && enemies(o.side, k.side) })
		if !both && lonely(k) {
			out = append(out, k)
		}
	}
	return out
}
