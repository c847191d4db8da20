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
	// jointSquare is the square of the turn's one joint engage battle (M13), if any; its
	// standing groups are jointSides.
	jointSquare domain.Square
	jointUnits  []*unit
	// battles formed by the moves, by square.
	battles map[domain.Square]*domain.Battle
	// lonely are joint engagements known to get no enemy (R11).
	lonely map[jointKey]bool
}

func (l *lock) resolve() {
	// R11: a joint engagement that stands on the orders but that no enemy army (one with
	// troops, B9) ends the turn with is two ordinary moves, and does not use up the turn's
	// one (3.2.5.3–3.2.5.4): the moves are settled again with it so, until none is left.
	lonely := map[jointKey]bool{}
	rejected := len(l.res.Rejected)
	for {
		l.res.Rejected = l.res.Rejected[:rejected]
		mv := &moves{lonely: lonely}
		l.buildUnits(mv)
		l.jointOrders(mv)
		l.jointEnemies(mv)
		l.intercepts(mv)
		l.settleSquares(mv)
		if more := l.lonelyGroups(mv); len(more) > 0 {
			for _, k := range more {
				lonely[k] = true
			}
			continue
		}
		l.moveArmies(mv)
		return
	}
}

// jointKey names the joint engage orders of one side on one square.
type jointKey struct {
	side   domain.Side
	square domain.Square
}

// lonelyGroups lists the sides whose pair stands on the turn's joint engagement square but
// with which no enemy army that has troops ends the turn there (R11).
func (l *lock) lonelyGroups(mv *moves) []jointKey {
	var out []jointKey
	for _, side := range []domain.Side{domain.Coalition, domain.Phyrexia} {
		if !slices.ContainsFunc(mv.jointUnits, func(u *unit) bool { return u.side == side }) {
			continue
		}
		enemy := false
		for _, u := range mv.list {
			if domain.Enemy(u.side, side) && !u.empty && u.final() == mv.jointSquare && (u.fixed() || u.won) {
				enemy = true
			}
		}
		if !enemy {
			out = append(out, jointKey{side, mv.jointSquare})
		}
	}
	return out
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

// jointGroup is the joint engage orders of one side naming one square (M13).
type jointGroup struct {
	side   domain.Side
	square domain.Square
	units  []*unit
	failed bool
	// enemy is set when an enemy moves to or stays in the square.
	enemy bool
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
// the square has no battle this turn (R10), and the side is a team (R24). A group that fails
// is ignored and its armies hold, which may make another group fail: repeat until nothing
// changes.
func (l *lock) jointOrders(mv *moves) {
	groups := l.jointGroups(mv)
	for changed := true; changed; {
		changed = false
		for _, g := range groups {
			if g.failed {
				continue
			}
			bad := len(g.units) != 2 || !g.side.IsTeam()
			for _, f := range l.fought {
				if f.square == g.square {
					bad = true
				}
			}
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

func (mv *moves) addBattle(s domain.Square, kind domain.BattleKind, attacker string, armies ...string) {
	if mv.battles == nil {
		mv.battles = map[domain.Square]*domain.Battle{}
	}
	mv.battles[s] = &domain.Battle{Square: s, Kind: kind, Attacker: attacker, Armies: armies}
}

// jointEnemies applies the rest of M13 to the groups the orders leave standing. A group whose
// square no enemy's order moves to or keeps it in becomes two ordinary moves (3.2.5.3). Of
// the others, only the one whose second order is earliest is tried (3.2.5.4; both sides'
// groups on one square count as one, R12); resolve settles it again as ordinary moves if no
// enemy with troops ends the turn there after all (R11). The later ones make partial moves
// and are rejected (joint_engage_limit), unless no enemy can come to their square (R11: every
// enemy named there is empty, or its friend stays there): those are ordinary moves too.
func (l *lock) jointEnemies(mv *moves) {
	var candidates []*jointGroup
	for _, g := range l.jointGroups(mv) {
		named := false // an enemy's order moves it to, or keeps it in, the square
		for _, e := range mv.list {
			if !domain.Enemy(e.side, g.side) {
				continue
			}
			stays := e.start == g.square && !e.moving()
			comes := e.moving() && !e.failed && e.dest() == g.square
			named = named || stays || comes
			if e.empty {
				continue
			}
			blocked := comes && l.sideStays(mv, e.side, g.square)
			if stays || comes && !blocked {
				g.enemy = true // an enemy the orders bring there for certain
			}
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
		case mv.jointSquare.IsZero() || g.square == mv.jointSquare:
			// the first stands; whether an enemy really ends the turn there (one that walks
			// back to it, say, or none when the only one is intercepted or empty) is
			// settled by resolve, which settles the moves again without it if not
			mv.jointSquare = g.square
			mv.jointUnits = append(mv.jointUnits, g.units...)
		case !g.enemy:
			for _, u := range g.units {
				u.joint = false // no enemy can come (R11): ordinary moves, not limited
			}
		default:
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

// sideStays reports whether an army of side stays in s: an arrival of that side then never
// arrives (M7 step 1), even when the one staying has no troops and is destroyed (B9, R11).
func (l *lock) sideStays(mv *moves, side domain.Side, s domain.Square) bool {
	for _, u := range mv.list {
		if u.side == side && u.start == s && !u.moving() {
			return true
		}
	}
	return false
}

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
		if s == mv.jointSquare {
			// M7 step 1 / M8: a friend of the pair that walked back to its start there keeps
			// it; the pair are arrivals like any other, and no joint battle is fought.
			friendStays := fixed != nil && fixed.home && !slices.Contains(mv.jointUnits, fixed) &&
				slices.ContainsFunc(mv.jointUnits, func(u *unit) bool { return u.side == fixed.side })
			if !friendStays {
				l.jointArrivals(mv, s, arr, fixed)
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

// jointArrivals settles the square of the turn's joint engage battle (M13): the pair (two
// pairs when both sides joint engaged it, R12) enter; the other side has one army there, the
// one already in it or else its closest arrival (M7); everyone else makes a partial move. The
// battle is a joint battle with no attacker (R14).
func (l *lock) jointArrivals(mv *moves, s domain.Square, arr []*unit, fixed *unit) {
	pairSide := map[domain.Side]bool{}
	armies := []string{}
	for _, u := range mv.jointUnits {
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
		for _, u := range mv.jointUnits {
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
			for _, u := range mv.jointUnits {
				if u.side != keep {
					u.won, u.failed = false, true
				} else if !u.caught {
					armies = append(armies, u.name)
				}
			}
			for _, u := range arr {
				if !slices.Contains(mv.jointUnits, u) {
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
		for _, u := range mv.jointUnits {
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
			for _, u := range slices.Concat(arr, mv.jointUnits) {
				u.won = false
				u.failed = u.failed || u != third && u.moving()
			}
			third.won = true
			mv.addBattle(s, domain.Attack, third.name, fixed.name, third.name)
			return
		}
	}
	for _, u := range arr {
		if slices.Contains(mv.jointUnits, u) {
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

// moveArmies puts every army on its square, lists partial moves and the engagements made,
// destroys empty armies that were engaged (B9) and keeps what is left of long moves (M14).
func (l *lock) moveArmies(mv *moves) {
	for _, u := range mv.list {
		l.army(u.name).At = u.final()
		if u.failed && !u.caught {
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
