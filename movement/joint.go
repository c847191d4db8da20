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
