// Rules 3.3.4, M4, M6 and M14: the turn's moves — each army's part, its route, and the map written
// after them.

package refengine

import (
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// unit is one army's part in the turn's moves.
type unit struct {
	name  string
	side  domain.Side
	start domain.Square
	// empty armies are destroyed when engaged (B9) and count as no enemy (R11).
	empty bool
	ord   *order
	// intercept is the army this one intercepts (M9), if it was ordered to.
	intercept string
	// route is the squares the army passes this turn, start excluded, destination included
	// (M4); nil for an army that does not move.
	route []domain.Square
	k     key
	joint bool
	// rest is what is left of a long move after this turn's leg (M14).
	rest []domain.Leg
	kw   domain.Keyword
	// outcome
	caught  bool // stopped by an interceptor (M9): it ends on route[end]
	failed  bool // its move was cut short: a partial move (M8)
	home    bool // a partial move all the way back to its start (M8)
	won     bool // it takes its destination
	end     int  // the route square it ends on (M8, M9), -1 for its start
	limited bool // a later joint engage (M13 limit)
}

func (u *unit) moving() bool { return len(u.route) > 0 }

func (u *unit) dest() domain.Square {
	if len(u.route) == 0 {
		return u.start
	}
	return u.route[len(u.route)-1]
}

func (u *unit) at(i int) domain.Square {
	if i < 0 {
		return u.start
	}
	return u.route[i]
}

// steps is M7 step 2: the number of route steps to its destination.
func (u *unit) steps() int { return len(u.route) }

// fixed reports whether the army ends the turn where it stands now, whatever others do: it
// does not move (M7 step 1), was caught (M9), or walked back to its start (M8).
func (u *unit) fixed() bool { return !u.moving() || u.caught || u.home }

// final is the square the army ends the turn on.
func (u *unit) final() domain.Square {
	switch {
	case !u.moving() || u.home:
		return u.start
	case u.caught || u.failed:
		return u.at(u.end)
	}
	return u.dest()
}

// closer is M7 steps 2–4: fewer route steps, then the earlier post, then the line written first.
func closer(a, b *unit, stepsA, stepsB int) bool {
	if stepsA != stepsB {
		return stepsA < stepsB
	}
	return a.k.cmp(b.k) < 0
}

// mover state of the lock
type moves struct {
	list []*unit // every army, in map order
	// joint lists, by square, the armies of the joint engagements carried out this round: the
	// one that counts toward the one-a-turn limit, on square counted, and those that made no
	// joint battle in an earlier round (M13b).
	joint   map[domain.Square][]*unit
	counted domain.Square
	// battles formed by the moves, by square.
	battles map[domain.Square]*domain.Battle
	// lonely are joint engagements known to get no enemy (R11); unmade the squares of joint
	// engagements known to make no joint battle (M13b).
	lonely map[jointKey]bool
	unmade map[domain.Square]bool
	// keptOut names the armies of those engagements that were kept out of their square when
	// they were tried (R47).
	keptOut map[string]bool
	// limited are the joint engagements refused by the one-a-turn limit this round.
	limited []jointKey
}

func (l *lock) resolve() {
	// R11: a joint engagement that stands on the orders but that no enemy army (one with
	// troops, B9) ends the turn with is two ordinary moves, and does not use up the turn's
	// one (3.2.5.3–3.2.5.4): the moves are settled again with it so, until none is left.
	// M13b: a joint engagement whose pairs M10 or M12 keep out of its square, or whose only
	// armies to get in are empty, made no joint battle: it did not succeed, so it does not use
	// up the turn's one, and the next in time order is tried; it is carried out all the same.
	lonely := map[jointKey]bool{}
	unmade := map[domain.Square]bool{}
	keptOut := map[string]bool{}
	rejected := len(l.res.Rejected)
	for {
		l.res.Rejected = l.res.Rejected[:rejected]
		mv := &moves{lonely: lonely, unmade: unmade, keptOut: keptOut, joint: map[domain.Square][]*unit{}}
		l.buildUnits(mv)
		l.jointOrders(mv)
		l.jointEnemies(mv)
		l.intercepts(mv)
		l.settleSquares(mv)
		// 3.2.5.4: the engagements are tried in time order, the one tried first settled
		// (M13b: no enemy, ordinary moves; no joint battle made, not counted); once one
		// stands, or none is left, the others with no enemy are ordinary moves too.
		if more := l.lonelyGroups(mv, true); len(more) > 0 {
			for _, k := range more {
				lonely[k] = true
			}
			continue
		}
		if !mv.counted.IsZero() && !l.jointBattleMade(mv, mv.counted) {
			// R47: its armies that were kept out stay out when the next one is tried, so
			// that it never becomes a second joint battle
			unmade[mv.counted] = true
			for _, u := range mv.joint[mv.counted] {
				if u.failed && !u.caught {
					keptOut[u.name] = true
				}
			}
			continue
		}
		if more := l.lonelyGroups(mv, false); len(more) > 0 {
			for _, k := range more {
				lonely[k] = true
			}
			continue
		}
		l.moveArmies(mv)
		return
	}
}

// buildUnits turns each army's counting order (or the next leg of its long move, M14) into its
// part in the moves, drawing the routes that are not written (M4).
func (l *lock) buildUnits(mv *moves) {
	for i := range l.m.Armies {
		a := &l.m.Armies[i]
		u := &unit{name: a.Name, side: a.Side, start: a.At, empty: a.Empty(), end: -1}
		l.units[a.Name] = u
		mv.list = append(mv.list, u)
		ord := l.orders[a.Name]
		u.ord = ord
		var leg domain.Leg
		switch {
		case l.fighting[a.Name] != nil:
			// M1: it fights; it stays. M14: a long move does not survive a battle.
			continue
		case ord != nil && ord.o.Kind == domain.InterceptKind:
			u.intercept = l.m.Army(ord.o.Target).Name
			continue
		case ord != nil && ord.o.Kind == domain.MoveKind && !ord.hold:
			// M14: a new order replaces a long move under way (3.3.6).
			o := ord.o
			leg = o.Legs[0]
			u.rest = o.Legs[1:]
			u.kw = o.Keyword
			u.k = ord.key()
		case ord != nil:
			continue // a hold or a transfer: the army stays
		case a.Plan != nil && len(a.Plan.Legs) > 0:
			// M14: the next leg of a long move, posted (and judged) in an earlier turn.
			leg = a.Plan.Legs[0]
			u.rest = a.Plan.Legs[1:]
			u.kw = a.Plan.Keyword
			u.k = key{at: a.Plan.At, post: a.Plan.Post, line: a.Plan.Line}
		default:
			continue
		}
		// M14: the keyword at the end of the line belongs to the last leg.
		u.joint = len(u.rest) == 0 && u.kw == domain.JointEngage
		switch {
		case len(leg.Route) > 0:
			u.route = slices.Clone(leg.Route[1:])
		case leg.To != a.At:
			u.route = shortestRoute(a.At, leg.To, l.draws, a.Name)
		}
	}
}

// shortestRoute draws one of the shortest routes from one square to another (M4), as
// docs/RANDOMNESS.md §5 numbers them: in lexicographic order of their steps, a step along
// the number before a step along the letter; the draw is Intn("route:<army>", count).
func shortestRoute(from, to domain.Square, d *domain.Draws, army string) []domain.Square {
	dn, dl := int(to.Col)-int(from.Col), int(to.Row)-int(from.Row)
	sn, sl := sign(dn), sign(dl)
	an, al := abs(dn), abs(dl)
	i := d.Intn("route:"+army, binom(an+al, an))
	var out []domain.Square
	cur := from
	for an+al > 0 {
		if an > 0 {
			w := binom(an+al-1, an-1)
			if i < w {
				cur.Col = uint8(int(cur.Col) + sn)
				an--
				out = append(out, cur)
				continue
			}
			i -= w
		}
		cur.Row = uint8(int(cur.Row) + sl)
		al--
		out = append(out, cur)
	}
	return out
}

func binom(n, k int) int {
	r := 1
	for i := 1; i <= k; i++ {
		r = r * (n - k + i) / i
	}
	return r
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (mv *moves) addBattle(s domain.Square, kind domain.BattleKind, attacker string, armies ...string) {
	if mv.battles == nil {
		mv.battles = map[domain.Square]*domain.Battle{}
	}
	mv.battles[s] = &domain.Battle{Square: s, Kind: kind, Attacker: attacker, Armies: armies}
}

// moveArmies puts every army on its square, lists partial moves and the engagements made,
// destroys empty armies that were engaged (B9) and keeps what is left of long moves (M14).
func (l *lock) moveArmies(mv *moves) {
	for _, u := range mv.list {
		l.army(u.name).At = u.final()
		// M13e: an army refused by the limit whose order named its own square holds and is not
		// listed as a partial move.
		if u.failed && !u.caught && u.moving() {
			l.res.Partial = append(l.res.Partial, u.name)
		}
	}
	var squares []domain.Square
	for s := range mv.battles {
		squares = append(squares, s)
	}
	slices.SortFunc(squares, cmpSquare)
	inBattle := map[string]bool{}
	for _, s := range squares {
		b := *mv.battles[s]
		// B9 / 4.3.1: an army with 0 troops in every slot is destroyed when engaged, with no
		// battle.
		var keep []string
		for _, n := range b.Armies {
			if l.army(n).Empty() {
				l.emptyKilled(n, b.Armies)
				l.remove(n)
			} else {
				keep = append(keep, n)
			}
		}
		b.Armies = keep
		mixed := false
		for _, n := range keep {
			if domain.Enemy(l.army(n).Side, l.army(keep[0]).Side) {
				mixed = true
			}
		}
		if !mixed {
			continue
		}
		if !slices.Contains(keep, b.Attacker) {
			b.Attacker = ""
		}
		slices.Sort(b.Armies)
		l.formed = append(l.formed, b)
		for _, n := range keep {
			inBattle[n] = true
		}
	}
	// M14: the rest of a long move is kept when the leg was completed and the army does not
	// end the turn in a battle; otherwise it is cancelled.
	for _, u := range mv.list {
		a := l.army(u.name)
		if a == nil {
			continue
		}
		a.Plan = nil
		if len(u.rest) == 0 || !u.won || inBattle[u.name] {
			continue
		}
		p := &domain.Plan{Legs: slices.Clone(u.rest), Keyword: u.kw, Post: u.k.post, At: u.k.at, Line: u.k.line}
		if u.ord != nil {
			p.Named = u.ord.o.Named
		}
		a.Plan = p
	}
}
