// Rules 3.2.5 and M13: joint engagements — the conditions on the orders, the enemy test, the one-
// a-turn limit, and the joint battle's square.

package refengine

import (
	"maps"
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// jointKey names the joint engage orders of one side on one square.
type jointKey struct {
	side   domain.Side
	square domain.Square
}

// lonelyGroups lists the sides whose pair stands on a joint engagement square of this round,
// or was refused by the limit, but with which no enemy army that has troops ends the turn
// there (R11, M13b): with tried set, the pairs on the square of the engagement tried (the one
// that counts); else the others.
func (l *lock) lonelyGroups(mv *moves, tried bool) []jointKey {
	var keys []jointKey
	squares := slices.SortedFunc(maps.Keys(mv.joint), cmpSquare)
	for _, sq := range squares {
		for _, side := range []domain.Side{domain.Coalition, domain.Phyrexia} {
			if slices.ContainsFunc(mv.joint[sq], func(u *unit) bool { return u.side == side }) {
				keys = append(keys, jointKey{side, sq})
			}
		}
	}
	keys = append(keys, mv.limited...)
	var out []jointKey
	for _, k := range keys {
		if (k.square == mv.counted) != tried {
			continue
		}
		// M13c, 3.2.5.4: both sides' pairs refused by the limit on one square have each other
		// for the enemy trying to enter: they are not ordinary moves (R110)
		enemy := slices.Contains(mv.limited, k) && slices.ContainsFunc(mv.limited, func(o jointKey) bool { return o.square == k.square && domain.Enemy(o.side, k.side) })
		for _, u := range mv.list {
			// M13b: "an enemy army with troops that ends the turn's movement in S": one that
			// stays, arrives, or walks back to it as its start; not one caught on its way, nor
			// one stopping there on a partial move towards another square, which could not
			// stop there were the pair in it (R48)
			if domain.Enemy(u.side, k.side) && !u.empty && u.final() == k.square && !u.caught && (!u.failed || u.home) {
				enemy = true
			}
		}
		if !enemy {
			out = append(out, k)
		}
	}
	return out
}

// jointBattleMade reports whether the joint engagement on sq made its joint battle: an army of
// its pairs that has troops ends the turn's movement there (M13b).
func (l *lock) jointBattleMade(mv *moves, sq domain.Square) bool {
	for _, u := range mv.joint[sq] {
		if !u.empty && !u.caught && !u.failed && u.final() == sq {
			return true
		}
	}
	return false
}

// jointGroup is the joint engage orders of one side naming one square (M13).
type jointGroup struct {
	side   domain.Side
	square domain.Square
	units  []*unit
	failed bool
}

// second is the key of the later of the pair's orders (3.2.5.4: "The timestamp will be based
// on the 2nd Joint Engage").
func (g *jointGroup) second() key {
	k := g.units[0].k
	for _, u := range g.units[1:] {
		if u.k.cmp(k) > 0 {
			k = u.k
		}
	}
	return k
}

func (l *lock) jointGroups(mv *moves) []*jointGroup {
	var groups []*jointGroup
	for _, u := range mv.list {
		if !u.joint {
			continue
		}
		i := slices.IndexFunc(groups, func(g *jointGroup) bool { return g.side == u.side && g.square == u.dest() })
		if i < 0 {
			groups = append(groups, &jointGroup{side: u.side, square: u.dest()})
			i = len(groups) - 1
		}
		groups[i].units = append(groups[i].units, u)
	}
	return groups
}

// failJoint makes a joint engage order ignored: the army holds (3.2.5.3).
func (l *lock) failJoint(u *unit, code domain.Code) {
	u.joint = false
	u.route = nil
	u.rest = nil
	l.reject(u.name, u.k.post, u.k.line, code)
}

// jointOrders applies M13's conditions that the orders alone decide (3.2.5.2–3.2.5.3): exactly
// two orders of one side name the square, no other army of that side moves to or stays in it,
// and the side is a team (M13f). A battle fought in the square this turn is no condition: M12
// keeps the pair out, with partial moves (M13b, R10). A group that fails
// is ignored and its armies hold, which may make another group fail: repeat until nothing
// changes. All this is settled before any enemy test (M13a).
func (l *lock) jointOrders(mv *moves) {
	groups := l.jointGroups(mv)
	for changed := true; changed; {
		changed = false
		for _, g := range groups {
			if g.failed {
				continue
			}
			bad := len(g.units) != 2 || !g.side.IsTeam()
			for _, v := range mv.list {
				if v.side != g.side || slices.Contains(g.units, v) {
					continue
				}
				if v.moving() && v.dest() == g.square {
					bad = true // another army of the side moves to S
				}
				if !v.moving() && v.start == g.square {
					bad = true // another army of the side stays in S
				}
			}
			if bad {
				g.failed = true
				changed = true
				for _, u := range g.units {
					l.failJoint(u, domain.CodeJointEngageFailed)
				}
			}
		}
	}
}

// jointEnemies applies the rest of M13 to the groups the orders leave standing. A group whose
// square no enemy's order moves to, keeps in or takes off becomes two ordinary moves
// (3.2.5.3). Of the others, only the one whose second order is earliest is tried (3.2.5.4;
// both sides' groups on one square count as one, M13c), with those found before to make no
// joint battle (M13b); the later ones make partial moves and are rejected
// (joint_engage_limit). resolve settles the moves again with a group's orders as ordinary
// moves if no enemy with troops ends the turn in its square after all (M13b), whether it was
// tried or limited, and with the next group tried if the one tried makes no joint battle.
func (l *lock) jointEnemies(mv *moves) {
	var candidates []*jointGroup
	for _, g := range l.jointGroups(mv) {
		// named: an enemy with troops may end the movement in the square (M13b): its order
		// keeps it there, moves it there, or takes it off to a square it may fail to take
		// (it may walk back, M8); which of them does, resolve finds out. An empty one never counts; nor one moving in where a
		// friend of its stays (M7 step 1), unless that friend is its joint engage partner.
		named := false
		for _, e := range mv.list {
			if !domain.Enemy(e.side, g.side) || e.empty {
				continue
			}
			stays := e.start == g.square && !e.moving()
			comes := e.moving() && !e.failed && e.dest() == g.square && !l.keptOutBySide(mv, e, g.square)
			leaves := e.start == g.square && e.moving() && l.mayFail(mv, e)
			named = named || stays || comes || leaves
		}
		if named && !mv.lonely[jointKey{g.side, g.square}] {
			candidates = append(candidates, g)
			continue
		}
		for _, u := range g.units {
			u.joint = false // no enemy (R11): ordinary moves (M7)
		}
	}
	slices.SortStableFunc(candidates, func(a, b *jointGroup) int {
		return a.second().cmp(b.second())
	})
	for _, g := range candidates {
		switch {
		case mv.unmade[g.square]:
			// M13b: it made no joint battle when it was tried; carried out, not counted, its
			// armies kept out then making partial moves again (R47)
			for _, u := range g.units {
				if mv.keptOut[u.name] {
					u.joint, u.failed = false, true
				} else {
					mv.joint[g.square] = append(mv.joint[g.square], u)
				}
			}
		case mv.counted.IsZero() || g.square == mv.counted:
			// the first stands; whether an enemy really ends the turn there (one that walks
			// back to it, say, or none when the only one is intercepted or empty) and whether
			// its battle is made is settled by resolve, which settles the moves again if not
			mv.counted = g.square
			mv.joint[g.square] = append(mv.joint[g.square], g.units...)
		default:
			// limited; whether an enemy really ends the turn in its square (M13b: else its
			// orders are ordinary moves, not limited) is settled by resolve too
			mv.limited = append(mv.limited, jointKey{g.side, g.square})
			for _, u := range g.units {
				u.joint = false
				u.limited = true
				u.failed = true
				if !u.moving() {
					u.home = true
				}
				l.reject(u.name, u.k.post, u.k.line, domain.CodeJointEngageLimit)
			}
		}
	}
}

// mayFail reports whether e's move may fail, so that it may walk all the way back to its start
// (M8): an army arriving alone on a square no other army starts on or moves to, with no battle
// in it, takes it (M7, M12), unless its own joint engagement is at stake (M13).
func (l *lock) mayFail(mv *moves, e *unit) bool {
	if e.joint || l.closedSquare(e.dest()) {
		return true
	}
	for _, u := range mv.list {
		if u != e && (u.start == e.dest() || u.moving() && u.dest() == e.dest()) {
			return true
		}
	}
	return false
}

// keptOutBySide reports whether an army of e's side stays in s, so that e, moving there, never
// arrives (M7 step 1), even when the one staying has no troops and is destroyed (B9); e's
// joint engage partner on its own square does not keep it out (M13).
func (l *lock) keptOutBySide(mv *moves, e *unit, s domain.Square) bool {
	for _, u := range mv.list {
		if u != e && u.side == e.side && u.start == s && !u.moving() && !(u.joint && e.joint) {
			return true
		}
	}
	return false
}

// jointArrivals settles the square of the turn's joint engage battle (M13): the pair (two
// pairs when both sides joint engaged it, R12) enter; the other side has one army there, the
// one already in it or else its closest arrival (M7); everyone else makes a partial move. The
// battle is a joint battle with no attacker (R14).
func (l *lock) jointArrivals(mv *moves, s domain.Square, arr []*unit, fixed *unit, pairs []*unit) {
	pairSide := map[domain.Side]bool{}
	armies := []string{}
	for _, u := range pairs {
		pairSide[u.side] = true
		if u.caught {
			continue // intercepted on the way (M9): it fights the interceptor, not here
		}
		armies = append(armies, u.name)
		if u.moving() && !u.failed {
			u.won = true
		}
	}
	var enemy *unit
	enemyFixed := fixed != nil && !pairSide[fixed.side]
	if enemyFixed {
		enemy = fixed
	}
	// M12 with both sides' pairs (R12) on a mercenary that stays: the pair whose closer army
	// has fewer steps (then M7's steps 3–4) fights it; the other pair makes partial moves.
	if enemyFixed && fixed.side == domain.Mercenary && len(pairSide) == 2 {
		best := map[domain.Side]*unit{}
		for _, u := range pairs {
			if b := best[u.side]; u.moving() && !u.caught && (b == nil || closer(u, b, u.steps(), b.steps())) {
				best[u.side] = u
			}
		}
		c, p := best[domain.Coalition], best[domain.Phyrexia]
		if c != nil && p != nil {
			keep := domain.Coalition
			if closer(p, c, p.steps(), c.steps()) {
				keep = domain.Phyrexia
			}
			armies = []string{fixed.name}
			for _, u := range pairs {
				if u.side != keep {
					u.won, u.failed = false, true
				} else if !u.caught {
					armies = append(armies, u.name)
				}
			}
			for _, u := range arr {
				if !slices.Contains(pairs, u) {
					u.failed = true
				}
			}
			mv.addBattle(s, domain.Joint, "", armies...)
			return
		}
	}
	// M12: a mercenary already in the square that stays is fought by the arrival with fewer
	// steps (then M7's steps 3–4), the pair's closer army standing for the pair; if the other
	// team's arrival is closer, it attacks the mercenary and the pair make partial moves.
	if enemyFixed && fixed.side == domain.Mercenary && len(pairSide) == 1 {
		var pair, third *unit
		for _, u := range pairs {
			if u.moving() && !u.caught && (pair == nil || closer(u, pair, u.steps(), pair.steps())) {
				pair = u
			}
		}
		for _, u := range arr {
			if !pairSide[u.side] && u.side != domain.Mercenary && (third == nil || closer(u, third, u.steps(), third.steps())) {
				third = u
			}
		}
		if pair != nil && third != nil && closer(third, pair, third.steps(), pair.steps()) {
			for _, u := range slices.Concat(arr, pairs) {
				u.won = false
				// one caught on its way (M9) stays caught there: it is not kept out
				u.failed = u.failed || u != third && u.moving() && !u.caught
			}
			third.won = true
			mv.addBattle(s, domain.Attack, third.name, fixed.name, third.name)
			return
		}
	}
	for _, u := range arr {
		if slices.Contains(pairs, u) {
			continue
		}
		// a friend of a pair, an arrival where the enemy stays, or a mercenary where both
		// teams' pairs fight (R12, M12) falls back
		if pairSide[u.side] || enemyFixed || len(pairSide) == 2 {
			u.failed = true
			continue
		}
		switch {
		case enemy == nil:
			enemy = u
		case enemy.side == domain.Mercenary && u.side != domain.Mercenary:
			// M12: the two teams fight; the mercenary falls back
			enemy.failed = true
			enemy = u
		case u.side == domain.Mercenary && enemy.side != domain.Mercenary:
			u.failed = true
		case closer(u, enemy, u.steps(), enemy.steps()):
			enemy.failed = true
			enemy = u
		default:
			u.failed = true
		}
	}
	if enemy != nil && enemy != fixed {
		enemy.won = true
	}
	if enemy != nil {
		armies = append(armies, enemy.name)
	}
	mv.addBattle(s, domain.Joint, "", armies...)
}
