// Rules B2, B7–B10, 4.3–4.5 and T2: the reference settlement of the battles fought this turn, and
// troops received.

package refengine

import (
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// settle settles the battles fought this turn from the judge's results, in order of square
// (docs/RANDOMNESS.md §7), after the moves (B8: "After the turn's moves are resolved, the loser
// is moved"), in two passes. First every battle's result: losses (B7), a kill (4.3, B9), a
// capture (4.5, B9). Then, battle by battle, what moves: a winning pair's leaver (4.4, B10),
// the losers' pushes (B8), the bump of a winner whose capture stayed put (4.5), and the troops
// waiting for the end of the battle (T3). Until pushed, a loser is leaving its square: no push
// counts it there (R101).
func (l *lock) settle() error {
	var won []*afterBattle
	for _, f := range l.fought {
		var r *domain.BattleResult
		for i := range l.in.Results {
			if l.in.Results[i].Square == f.square {
				r = &l.in.Results[i]
			}
		}
		if r == nil {
			return errorf("the battle at %s (%v) has no result", f.square, f.armies)
		}
		ab, err := l.settleOne(f, r)
		if err != nil {
			return err
		}
		if ab != nil {
			won = append(won, ab)
		}
	}
	for _, ab := range won {
		if err := l.afterOne(ab); err != nil {
			return err
		}
	}
	// 6.2.2: a team that kills a town defender sets a theme army at war with the other team.
	for _, k := range l.defenderKills {
		l.declareWar(k.target, k.by)
	}
	return nil
}

// afterBattle is a won battle whose result stands, and what is left to do once every battle's
// result stands.
type afterBattle struct {
	f               *fought
	r               *domain.BattleResult
	winners, losers []string
	bump            string
}

func (l *lock) result(s domain.Square) *domain.BattleResult {
	for i := range l.in.Results {
		if l.in.Results[i].Square == s {
			return &l.in.Results[i]
		}
	}
	return nil
}

// settleOne applies one battle's result; it returns what moves after, nil when nobody won.
func (l *lock) settleOne(f *fought, r *domain.BattleResult) (*afterBattle, error) {
	// 4.3.2, 4.5 ("lacks 500 top rank"), B9, R33: a kill needs 500 alive in the slot of the
	// army's largest creatures, counted before the battle (the risked troops do not fight); an
	// army without them makes no kill attempt, whatever the judge wrote.
	killable := true
	if k := r.Kill; k != nil {
		if by := l.m.Army(k.By); by != nil && by.Troops != nil {
			top := 0
			for _, t := range by.Troops {
				top = max(top, t.Slot)
			}
			alive := 0
			for _, t := range by.Troops {
				if t.Slot == top {
					alive += t.Alive
				}
			}
			killable = alive >= 500
		}
	}
	// B7: the judge's losses, never more than the troops alive.
	for _, name := range sortedKeys(r.Losses) {
		a := l.m.Army(name)
		if a == nil || !slices.Contains(f.armies, a.Name) {
			return nil, errorf("the result at %s gives losses for %s, which does not fight there", f.square, name)
		}
		for _, c := range sortedKeys(r.Losses[name]) {
			if err := l.lose(a, c, r.Losses[name][c]); err != nil {
				return nil, err
			}
		}
	}
	// B2: nobody won: the battle goes on next turn with its first kind and attacker.
	if r.Winner == "" {
		f.decided = false
		// 4.3.1, B9, R102: engaged again as the battle goes on, an army it left with no
		// troops is destroyed now, with no battle
		var keep []string
		for _, n := range f.armies {
			if a := l.m.Army(n); a != nil && a.Empty() {
				l.emptyKilled(n, f.armies)
				l.remove(n)
			} else {
				keep = append(keep, n)
			}
		}
		sides := map[domain.Side]bool{}
		for _, n := range keep {
			sides[l.army(n).Side] = true
		}
		attacker := f.attacker
		if !slices.Contains(keep, attacker) {
			attacker = ""
		}
		switch {
		case len(sides) >= 2:
			l.goesOn = append(l.goesOn, domain.Battle{Square: f.square, Armies: keep, Kind: f.kind, Attacker: attacker})
		case len(keep) == 2:
			// 4.4, B10: two friends left alone on the square: one leaves, drawn as a
			// winning pair's leaver is
			slices.Sort(keep)
			l.push(l.army(keep[l.draws.Intn("leave:"+f.square.String(), 2)]), f.square, domain.Square{})
		}
		return nil, nil
	}
	w := l.m.Army(r.Winner)
	if w == nil || !slices.Contains(f.armies, w.Name) {
		return nil, errorf("the winner at %s, %s, does not fight there", f.square, r.Winner)
	}
	f.decided, f.winner = true, w.Side
	var winners, losers []string
	for _, n := range f.armies {
		if l.army(n).Side == w.Side {
			winners = append(winners, n)
		} else {
			losers = append(losers, n)
		}
	}
	f.winners = winners
	won := func(n string) bool { return slices.Contains(winners, n) }
	// 4.3.2–4.3.3, B9: a kill risks 500 of the top slot; it needs the battle won.
	if k := r.Kill; k != nil {
		by := l.m.Army(k.By)
		if by == nil || !slices.Contains(f.armies, by.Name) {
			return nil, errorf("the kill at %s is by %s, who does not fight there", f.square, k.By)
		}
		if killable {
			lost := k.RiskedLost
			// 6.3.2 Hellbent: a raider keeps its kill squad after a failed kill
			if by.Side == domain.Mercenary && by.Faction == domain.Raider && !(k.Success && won(by.Name)) {
				lost = 0
			}
			l.risk(by, lost, true)
			if k.Success && won(by.Name) {
				t := l.m.Army(k.Target)
				if t == nil || !slices.Contains(losers, t.Name) {
					return nil, errorf("the kill at %s targets %s, who did not lose there", f.square, k.Target)
				}
				// (a town defender captured by a team is still one: the project's reading)
				if t.Faction == domain.TownDefender && by.Side.IsTeam() {
					l.defenderKills = append(l.defenderKills, defenderKill{target: t.Name, by: by.Side})
				}
				tn := t.Name // remove moves the armies after it in the map's list
				l.remove(tn)
				losers = slices.DeleteFunc(losers, func(n string) bool { return n == tn })
			}
		}
	}
	// 4.5, B9: a capture risks 2000 of the lowest slot; it needs the battle won.
	var bump string
	if k, c := r.Kill, r.Capture; k != nil && c != nil && domain.SameName(k.Target, c.Target) {
		return nil, errorf("the result at %s both kills and captures %s (4.5: one or the other)", f.square, k.Target)
	}
	if c := r.Capture; c != nil {
		by := l.m.Army(c.By)
		if by == nil || !slices.Contains(f.armies, by.Name) {
			return nil, errorf("the capture at %s is by %s, who does not fight there", f.square, c.By)
		}
		// 4.5, R33: only the two lowest ranks can be captured; no attempt is made on another.
		if t := l.m.Army(c.Target); t == nil || t.Rank.Lowest() {
			l.risk(by, c.RiskedLost, false)
			if c.Success && won(by.Name) {
				t := l.m.Army(c.Target)
				if t == nil || !slices.Contains(losers, t.Name) {
					return nil, errorf("the capture at %s targets %s, who did not lose there", f.square, c.Target)
				}
				if !l.capture(by, t) {
					bump = by.Name
				}
				losers = slices.DeleteFunc(losers, func(n string) bool { return n == t.Name })
			}
		}
	}
	slices.Sort(losers)
	for _, n := range losers {
		l.leaving[n] = true
	}
	return &afterBattle{f: f, r: r, winners: winners, losers: losers, bump: bump}, nil
}

// afterOne makes a won battle's moves and hands over the troops waiting for its end.
func (l *lock) afterOne(ab *afterBattle) error {
	f, r, winners, losers, bump := ab.f, ab.r, ab.winners, ab.losers, ab.bump
	won := func(n string) bool { return slices.Contains(winners, n) }
	// 4.4, B10: of a winning pair, one leaves the square, before the losers are pushed.
	if len(winners) == 2 {
		if err := l.leave(f, r, winners); err != nil {
			return err
		}
	}
	// B8: the losers are pushed in the order of their names (R18: the judge's square is the
	// first loser's). 4.5: a partially converted army that loses is liberated first.
	for i, n := range losers {
		a := l.army(n)
		if a.Capture != nil && !a.Capture.Converted {
			l.liberate(a)
		}
		if i == 0 && !r.LoserTo.IsZero() {
			if err := l.pushTo(a, f.square, r.LoserTo); err != nil {
				return err
			}
			continue
		}
		l.push(a, f.square, domain.Square{})
	}
	// 4.5: "If it stays put, the winning army is then bumped out of the square": the captor,
	// or, when the captor was the pair's leaver, its partner, as two friends may not share it.
	if bump != "" {
		for _, n := range winners {
			if a := l.army(n); a != nil && a.At == f.square {
				l.push(a, f.square, domain.Square{})
			}
		}
	}
	// T3: troops waiting for the end of this battle.
	for _, n := range f.armies {
		a := l.army(n)
		if a == nil {
			continue
		}
		for _, s := range a.Incoming {
			if !s.WinOnly || won(n) {
				receive(a, s.Creatures, s.Troops)
			}
		}
		a.Incoming = nil
	}
	return nil
}

// lose takes n troops of a creature from an army, as a battle's losses (B7).
func (l *lock) lose(a *domain.Army, creature string, n int) error {
	if a.Troops == nil || n <= 0 {
		return nil
	}
	t := a.Troop(creature)
	if t == nil {
		return errorf("%s has no %s to lose", a.Name, creature)
	}
	n = min(n, t.Alive)
	t.Alive -= n
	if l.lost[a.Name] == nil {
		l.lost[a.Name] = map[string]int{}
	}
	l.lost[a.Name][t.Creature] += n
	return nil
}

// risk kills n of the troops risked in a kill (the top slot, the largest creatures still
// alive) or a capture (the lowest slot, the smallest creatures), 4.3.2, 4.5, B9.
func (l *lock) risk(a *domain.Army, n int, top bool) {
	if a.Troops == nil || n <= 0 {
		return
	}
	slot := 0
	for _, t := range a.Troops {
		if t.Alive == 0 {
			continue
		}
		if slot == 0 || (top && t.Slot > slot) || (!top && t.Slot < slot) {
			slot = t.Slot
		}
	}
	for i := range a.Troops {
		t := &a.Troops[i]
		if t.Slot == slot && n > 0 {
			k := min(n, t.Alive)
			l.lose(a, t.Creature, k)
			n -= k
		}
	}
}

// capture makes the target the captor's (4.5, B9): it becomes partially converted, is
// controlled by the capturing side and teleported to the nearest (in steps) unoccupied,
// undestroyed base or portal of the captor's side, else the nearest unoccupied town; ties at
// random ("capture:<army>", among the tied sites sorted by square). It reports false when
// there is no such site: the captured army stays and the winner is bumped.
func (l *lock) capture(by, t *domain.Army) bool {
	switch {
	case t.Capture != nil && t.Capture.Side == by.Side:
		// 4.5: "A Coalition army that is captured by Phyrexia, and then recaptured by the
		// Coalition, will regain its old colors": taken back by its own side, it is theirs
		// again as it was (the project's reading, as for a liberation).
		t.Side, t.Colors, t.Controllers = t.Capture.Side, t.Capture.Colors, t.Capture.Controllers
		t.Capture = nil
	default:
		if t.Capture == nil {
			t.Capture = &domain.Capture{Side: t.Side, Colors: t.Colors, Controllers: t.Controllers}
		} else {
			// captured again by a third side: its original owners stay those it is liberated
			// to (4.5; the project's reading)
			t.Capture.Converted = false
		}
		t.Side = by.Side
		// 4.5: "immediately controlled by the capturing side": no player controls it until
		// the side's control list names one (5.2.1; the project's reading), so a partially
		// converted army cannot be ordered off its square; a mercenary captor's is the
		// mercenary judge's (R16).
		t.Controllers = nil
		// 4.5: "A Phyrexian army captured by the Coalition is considered to be the color of
		// the army that captured it. It will have no secondaries." (R21: the captor's first
		// colour)
		if by.Side == domain.Coalition && len(by.Colors) > 0 {
			t.Colors = []domain.Color{by.Colors[0]}
		}
	}
	l.res.ChangedSides[t.Name] = t.Side
	free := func(s *domain.Site) bool { return len(l.armiesAt(s.At)) == 0 }
	for _, kinds := range [][]domain.SiteKind{{domain.Base, domain.Portal}, {domain.Town}} {
		var best []domain.Square
		dist := -1
		for i := range l.m.Sites {
			s := &l.m.Sites[i]
			if !slices.Contains(kinds, s.Kind) || s.Destroyed || !free(s) {
				continue
			}
			if s.Kind != domain.Town && s.Side != by.Side {
				continue
			}
			d := domain.Steps(t.At, s.At)
			switch {
			case dist < 0 || d < dist:
				best, dist = []domain.Square{s.At}, d
			case d == dist:
				best = append(best, s.At)
			}
		}
		if len(best) > 0 {
			slices.SortFunc(best, cmpSquare)
			t.At = best[l.draws.Intn("capture:"+t.Name, len(best))]
			return true
		}
	}
	return false
}

// liberate returns a partially converted army to its old side (4.5).
func (l *lock) liberate(a *domain.Army) {
	c := a.Capture
	a.Side, a.Colors, a.Controllers = c.Side, c.Colors, c.Controllers
	a.Capture = nil
	l.res.ChangedSides[a.Name] = a.Side
}

// leave sends one army of a winning pair away (4.4, B10): the one the judge names, else one
// drawn ("leave:<square>" among the pair's names sorted); it goes to the judge's square if
// that is free, else it is pushed at random, keeping off the loser's named square while another
// empty neighbour is free (R25).
func (l *lock) leave(f *fought, r *domain.BattleResult, winners []string) error {
	names := slices.Clone(winners)
	slices.Sort(names)
	var leaver *domain.Army
	if r.Leaves != nil && r.Leaves.Army != "" {
		leaver = l.m.Army(r.Leaves.Army)
		if leaver == nil || !slices.Contains(names, leaver.Name) {
			return errorf("the army leaving %s, %s, is not of the winning pair", f.square, r.Leaves.Army)
		}
	} else {
		leaver = l.army(names[l.draws.Intn("leave:"+f.square.String(), 2)])
	}
	if r.Leaves != nil && !r.Leaves.To.IsZero() && domain.Adjacent(r.Leaves.To, f.square) && len(l.armiesAt(r.Leaves.To)) == 0 {
		leaver.At = r.Leaves.To
		return nil
	}
	l.push(leaver, f.square, r.LoserTo)
	return nil
}

// pushTo moves a loser to the square the judge named (B8).
func (l *lock) pushTo(a *domain.Army, from, to domain.Square) error {
	if !domain.Adjacent(from, to) {
		return errorf("%s cannot be pushed to %s: it is not next to %s", a.Name, to, from)
	}
	// B8 moves the loser to an empty square, or into a square held by one enemy; a judge's
	// square a friend, or a battle, holds after the moves cannot be taken: the push is random
	// (the project's reading of a judge's square that the moves made wrong).
	others := l.othersAt(to, a)
	// R107: B8's order holds for the judge's square too — an enemy's only when no neighbour is
	// empty
	emptyNext := false
	for _, s := range l.m.Grid.Neighbours(nil, from) {
		if len(l.othersAt(s, a)) == 0 {
			emptyNext = true
		}
	}
	if len(others) > 1 || len(others) == 1 && (!domain.Enemy(others[0].Side, a.Side) || l.battleOn(to) || emptyNext) {
		l.push(a, from, domain.Square{})
		return nil
	}
	l.arrive(a, to, domain.Push)
	return nil
}

// push moves an army off a battle square at random (B8, docs/RANDOMNESS.md §6): to an empty
// neighbour; if none, into a neighbour held by exactly one army, an enemy, that is not in a
// battle (R17); if none, to an empty square of the nearest ring that has one. avoid is a
// square to keep off while another candidate exists (R25).
func (l *lock) push(a *domain.Army, from, avoid domain.Square) {
	emptyOf := func(s domain.Square) bool { return len(l.othersAt(s, a)) == 0 }
	var cands []domain.Square
	for _, s := range l.m.Grid.Neighbours(nil, from) {
		if emptyOf(s) {
			cands = append(cands, s)
		}
	}
	if len(cands) > 1 && !avoid.IsZero() && slices.Contains(cands, avoid) {
		cands = slices.DeleteFunc(cands, func(s domain.Square) bool { return s == avoid })
	}
	if len(cands) == 0 {
		for _, s := range l.m.Grid.Neighbours(nil, from) {
			os := l.othersAt(s, a)
			if len(os) == 1 && domain.Enemy(os[0].Side, a.Side) && !l.battleOn(s) {
				cands = append(cands, s)
			}
		}
	}
	for r := 2; len(cands) == 0 && r <= max(l.m.Grid.Cols, l.m.Grid.Rows); r++ {
		for _, s := range l.m.Grid.RingSquares(nil, from, r) {
			if emptyOf(s) {
				cands = append(cands, s)
			}
		}
	}
	if len(cands) == 0 {
		delete(l.leaving, a.Name)
		return // nowhere at all to go: it stays
	}
	l.arrive(a, cands[l.draws.Intn("push:"+a.Name, len(cands))], domain.Push)
}

// emptyKilled notes a town defender destroyed with no troops (4.3.1, B9) as a kill by the
// one team whose armies with troops among those named engaged it (6.2.2, R103).
func (l *lock) emptyKilled(name string, among []string) {
	t := l.army(name)
	if t == nil || t.Faction != domain.TownDefender {
		return
	}
	sides := map[domain.Side]bool{}
	for _, n := range among {
		if o := l.army(n); o != nil && n != name && !o.Empty() && domain.Enemy(o.Side, t.Side) && !l.leaving[n] {
			sides[o.Side] = true
		}
	}
	if len(sides) != 1 {
		return
	}
	for s := range sides {
		if s.IsTeam() {
			l.defenderKills = append(l.defenderKills, defenderKill{target: name, by: s})
		}
	}
}

// othersAt lists the armies on s but a and the losers leaving their battle's square (R101).
func (l *lock) othersAt(s domain.Square, a *domain.Army) []*domain.Army {
	var out []*domain.Army
	for _, o := range l.armiesAt(s) {
		if o.Name != a.Name && !l.leaving[o.Name] {
			out = append(out, o)
		}
	}
	return out
}

// battleOn reports whether a battle is to be fought on s next turn, or is fought there this
// turn and not yet over.
func (l *lock) battleOn(s domain.Square) bool {
	for _, bs := range [][]domain.Battle{l.formed, l.pushed, l.goesOn} {
		for _, b := range bs {
			if b.Square == s {
				return true
			}
		}
	}
	return false
}

// arrive puts a pushed army on s; if an enemy is there they fight a push battle next turn (B8),
// unless one of them has no troops left (B9).
func (l *lock) arrive(a *domain.Army, s domain.Square, kind domain.BattleKind) {
	delete(l.leaving, a.Name)
	a.At = s
	var enemies []string
	for _, o := range l.othersAt(s, a) {
		if domain.Enemy(o.Side, a.Side) {
			enemies = append(enemies, o.Name)
		}
	}
	if len(enemies) == 0 {
		return
	}
	name := a.Name // a is not to be used once an army is removed from the map's list
	armies := append([]string{name}, enemies...)
	var keep []string
	for _, n := range armies {
		if l.army(n).Empty() {
			l.emptyKilled(n, armies)
			l.remove(n)
		} else {
			keep = append(keep, n)
		}
	}
	if len(keep) < 2 || !slices.Contains(keep, name) {
		return
	}
	slices.Sort(keep)
	l.pushed = append(l.pushed, domain.Battle{Square: s, Armies: keep, Kind: kind})
}

// receive adds troops to an army (T2, R9): a creature it has rises in alive and full (the
// slot's full counts never past its size); a new one joins the smallest slot that fits its size
// and has room. Creatures are taken in the order of their names.
func receive(a *domain.Army, creatures map[string]int, newTroops []domain.Troop) {
	if a.Troops == nil {
		return
	}
	for _, c := range sortedKeys(creatures) {
		n := creatures[c]
		if t := a.Troop(c); t != nil {
			// R9: its full count rises with the troops received, but the slot's full counts
			// together never pass the slot's size.
			others := 0
			for _, o := range a.Troops {
				if o.Slot == t.Slot && o.Creature != t.Creature {
					others += o.Full
				}
			}
			t.Alive += n
			t.Full = max(min(t.Full+n, domain.SlotCapacity(t.Slot)-others), t.Alive)
			continue
		}
		var proto *domain.Troop
		for i := range newTroops {
			if domain.SameName(newTroops[i].Creature, c) {
				proto = &newTroops[i]
			}
		}
		if proto == nil {
			continue
		}
		var load [domain.Slots + 1]int
		for _, t := range a.Troops {
			load[t.Slot] += t.Alive
		}
		slot := slotFor(a.Rank, proto.Size, n, load)
		if slot == 0 {
			continue
		}
		a.Troops = append(a.Troops, domain.Troop{Creature: proto.Creature, Size: proto.Size, Colors: proto.Colors, Slot: slot, Alive: n, Full: n})
	}
}
