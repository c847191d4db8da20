// Rules T3, D1–D8 and 6.1.2: the reference update after the moves and battles.

package refengine

import (
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// update is the movement judge's update after the battles (3.1, docs/RANDOMNESS.md §7):
// transfers (T3), days (D1, D2), healing (D3–D5, 4.5), sites destroyed (D7), the win (D8),
// then the mercenaries' abilities (6.1.2, 6.3.2 Disband).
func (l *lock) update() {
	l.deliverTransfers()
	counted := l.countDays()
	l.recordLosses()
	for _, name := range counted {
		l.heal(l.army(name))
	}
	l.destroySites()
	l.decide(counted)
	l.defendersHeal()
	l.disband()
}

// disband takes off the map each raider whose order was to disband (6.3.2, "take one movement
// turn to Disband", R40) — unless it fought this turn (3.2.1) or an enemy ended the turn on its
// square (caught, it fights next turn).
func (l *lock) disband() {
	var gone []string
	for i := range l.m.Armies {
		a := &l.m.Armies[i]
		o := l.orders[a.Name]
		if o == nil || o.o.Kind != domain.Hold || o.o.Note != "disband" || a.Side != domain.Mercenary || a.Faction != domain.Raider || l.fighting[a.Name] != nil || l.enemyWith(a) {
			continue
		}
		gone = append(gone, a.Name)
	}
	for _, name := range gone {
		l.remove(name)
	}
	l.res.Disbanded = gone
}

// deliverTransfers carries out the accepted transfers (T3, 3.2.4.3).
func (l *lock) deliverTransfers() {
	transfers := slices.Clone(l.transfers) // in post order (M2)
	for _, ord := range transfers {
		s := l.army(ord.army)
		if s == nil {
			continue
		}
		rname := ""
		for n := range l.start {
			if domain.SameName(n, ord.o.Target) {
				rname = n
			}
		}
		r := l.army(rname)
		f := l.fighting[rname]
		// T3: "If the receiver moves away, the transfer is cancelled and the sender keeps
		// them ... with or without a private detail ... and whether or not the receiver
		// survives the turn": its move is what counts, not where it stands now.
		if u := l.units[rname]; u != nil && u.final() != u.start && f == nil {
			l.reject(s.Name, ord.post.ID, ord.line, domain.CodeTransferCancelled)
			continue
		}
		if ord.detail == nil || s.Troops == nil {
			continue // R8: no detail, no troops
		}
		// the sender's troops as they were, for creatures new to the receiver (T2)
		protos := slices.Clone(s.Troops)
		give := func() {
			for _, c := range sortedKeys(ord.detail) {
				if t := s.Troop(c); t != nil {
					n := min(ord.detail[c], t.Alive)
					t.Alive -= n
					t.Full -= n // T2: "Troops sent lower the sender's full count"
				}
			}
		}
		switch {
		case r == nil:
			// the receiver was destroyed on its own square (B9, a kill): the troops are lost
			// with it (T3)
			give()
			continue
		case !room(s, withIncoming(r), ord.detail):
			// T2: the receiver must have room after the transfer; the transfers posted before
			// it (and troops still on their way to it) took the room: this one is not made
			// and the sender keeps its troops
			l.reject(s.Name, ord.post.ID, ord.line, domain.CodeTransferNoRoom)
			continue
		}
		give()
		switch {
		case f != nil && !f.decided:
			// 3.2.4.3.3: the receiver in battle gets them at the end of the battle if it
			// wins; nobody won: they wait (B2)
			r.Incoming = append(r.Incoming, domain.Shipment{From: s.Name, Creatures: ord.detail, WinOnly: true, Troops: protos})
		case f != nil && slices.Contains(f.winners, rname):
			receive(r, ord.detail, protos)
		case f != nil:
			// it lost: the troops are killed
		case l.enemyWith(r):
			// 3.2.4.3.2: attacked this turn, it gets them when that battle is settled.
			r.Incoming = append(r.Incoming, domain.Shipment{From: s.Name, Creatures: ord.detail, Troops: protos})
		default:
			receive(r, ord.detail, protos) // 3.2.4.3.1
		}
	}
}

// withIncoming is the army with the troops still on their way to it, for the room a transfer
// finds (T2).
func withIncoming(a *domain.Army) *domain.Army {
	c := a.Clone()
	for _, s := range a.Incoming {
		receive(&c, s.Creatures, s.Troops)
	}
	return &c
}

// enemyWith reports whether an enemy ends the turn in a's square.
func (l *lock) enemyWith(a *domain.Army) bool {
	for _, o := range l.armiesAt(a.At) {
		if domain.Enemy(o.Side, a.Side) {
			return true
		}
	}
	return false
}

// countDays counts every army's day (D1, D2, R19, R20) and returns the armies that counted
// one, in map order.
func (l *lock) countDays() []string {
	var counted []string
	for i := range l.m.Armies {
		a := &l.m.Armies[i]
		// D1: "Leaving the square resets its count to 0."
		if a.At != l.start[a.Name] {
			l.resetCount(a)
		}
		f := l.fighting[a.Name]
		// D1: an army that an enemy ended the turn with does not count; an army whose battle
		// was settled at this update counts only if it won.
		lost := f != nil && f.decided && !slices.Contains(f.winners, a.Name)
		blocked := l.enemyWith(a) || lost

		// R20 / 4.5: a partially converted army counts wherever it stands while it neither
		// moves nor fights, whatever side captured it ("If it wins or is not attacked, and
		// counts 2 days": as D1 has it, a battle won at this update does not stop the count,
		// one lost does); at 2 it is fully converted, and healed on a base or town.
		if c := a.Capture; c != nil && !c.Converted {
			if a.At != l.start[a.Name] || blocked {
				if lost {
					// captured where it stands: it "must count 2 days in its current
					// location" (4.5), from 0
					l.resetCount(a)
				}
				continue
			}
			a.Days++
			// R109: it has changed side, and the day counts toward its new side's win
			l.convCounted = append(l.convCounted, a.Name)
			if a.Days >= 2 {
				c.Converted = true
				if s := l.m.SiteAt(a.At); s != nil && !s.Destroyed {
					healAll(a)
				}
			}
			continue
		}
		if lost {
			// 1.7.2: an army the enemy defeats "must start over again from 0" (a loser is
			// pushed off; one taken back by its side where it stands stays)
			l.resetCount(a)
		}
		if blocked {
			if a.Days == 0 {
				l.resetCount(a) // no count: every loss dates from before one
			}
			continue // the count as it stands (an army converted to a mercenary keeps its 2)
		}
		// D2: mercenaries count no days, nor does an army off the sites where it may count.
		if !l.countable(a) {
			l.resetCount(a)
			continue
		}
		a.Days++
		counted = append(counted, a.Name)
	}
	return counted
}

func (l *lock) resetCount(a *domain.Army) {
	a.Days, a.WinDays = 0, 0
	for i := range a.Troops {
		a.Troops[i].Wounds = nil // every loss now dates from before the count (day 0)
	}
}

// countable is D2: where an army may count days.
func (l *lock) countable(a *domain.Army) bool {
	s := l.m.SiteAt(a.At)
	if s == nil || s.Destroyed || !a.Side.IsTeam() {
		return false // R19: a destroyed site counts no days
	}
	switch {
	case a.Side == domain.Phyrexia && s.Kind == domain.Portal && s.Side == domain.Phyrexia:
		return true
	case a.Side == domain.Coalition && s.Kind == domain.Base && s.Side == domain.Coalition && a.HasColor(s.Color):
		return true
	case s.Kind == domain.Town && a.Rank.Lowest():
		return true
	case (s.Kind == domain.Base || s.Kind == domain.Portal) && s.Side == a.Side.Opponent():
		return true // 1.7.1: to destroy it
	case s.Side == a.Side && s.WinCondition && l.allWinConditionsDestroyed(a.Side.Opponent()):
		return true // 1.7.2
	}
	return false
}

// allWinConditionsDestroyed reports whether side has win-condition sites and every one of them
// is destroyed (1.7.2, D2).
func (l *lock) allWinConditionsDestroyed(side domain.Side) bool {
	n := 0
	for _, s := range l.m.Sites {
		if s.Side == side && s.WinCondition {
			n++
			if !s.Destroyed {
				return false
			}
		}
	}
	return n > 0
}

// recordLosses files the losses of this lock's battles under the day they belong to (D1):
// the day counted at this update, else the count as it stands.
func (l *lock) recordLosses() {
	for _, name := range sortedKeys(l.lost) {
		a := l.army(name)
		if a == nil || a.Days == 0 {
			continue // day 0: lost before the count began, which the troop's full count tells
		}
		for _, c := range sortedKeys(l.lost[name]) {
			n := l.lost[name][c]
			t := a.Troop(c)
			if t == nil || n == 0 {
				continue
			}
			i := slices.IndexFunc(t.Wounds, func(w domain.Wound) bool { return w.Day == a.Days })
			if i < 0 {
				t.Wounds = append(t.Wounds, domain.Wound{Day: a.Days, Count: n})
			} else {
				t.Wounds[i].Count += n
			}
		}
	}
}

// heal restores the losses an army's count has earned (D3, D4, D5).
func (l *lock) heal(a *domain.Army) {
	s := l.m.SiteAt(a.At)
	k := a.Days
	switch {
	case a.Side == domain.Phyrexia && (s.Kind == domain.Portal && s.Side == domain.Phyrexia || s.Kind == domain.Town && a.Rank.Lowest()):
		// D3 / D5: at counts 2, 4, 6 … every loss but those of the latest counted day.
		if k%2 == 0 {
			restore(a, func(t *domain.Troop, day int) bool { return day < k })
		}
	case a.Side == domain.Coalition && s.Kind == domain.Base && s.Side == domain.Coalition && a.HasColor(s.Color):
		// D4: a loss of counted day d heals at count d+1 if the creature shares the base's
		// colour, else at d+2.
		restore(a, func(t *domain.Troop, day int) bool {
			if t.HasColor(s.Color) {
				return day <= k-1
			}
			return day <= k-2
		})
	case a.Side == domain.Coalition && s.Kind == domain.Town && a.Rank.Lowest():
		// D5: as D4 with no base colour.
		restore(a, func(t *domain.Troop, day int) bool { return day <= k-2 })
	}
}

// restore heals the losses of the days ok says, day 0 being the losses from before the count.
func restore(a *domain.Army, ok func(t *domain.Troop, day int) bool) {
	for i := range a.Troops {
		t := &a.Troops[i]
		wounded := 0
		for _, w := range t.Wounds {
			wounded += w.Count
		}
		if before := t.Full - t.Alive - wounded; before > 0 && ok(t, 0) {
			t.Alive += before
		}
		var keep []domain.Wound
		for _, w := range t.Wounds {
			if ok(t, w.Day) {
				t.Alive += w.Count
			} else {
				keep = append(keep, w)
			}
		}
		t.Wounds = keep
		t.Alive = min(t.Alive, t.Full)
	}
}

func healAll(a *domain.Army) {
	restore(a, func(*domain.Troop, int) bool { return true })
}

// destroySites is D7 / 1.7.1: a base or portal is destroyed at the update after an enemy army
// has counted 4 days on it and then stayed on it a whole turn; R19: it counts no more days.
func (l *lock) destroySites() {
	for i := range l.m.Sites {
		s := &l.m.Sites[i]
		if s.Destroyed || s.Kind == domain.Town {
			continue
		}
		for _, a := range l.armiesAt(s.At) {
			if a.Side.IsTeam() && a.Side == s.Side.Opponent() && l.start[a.Name] == s.At && l.startDays[a.Name] >= 4 {
				s.Destroyed = true
			}
		}
		if s.Destroyed {
			for _, a := range l.armiesAt(s.At) {
				l.resetCount(a)
			}
		}
	}
}

// decide is D8: win-condition days (R23) and the two ways to win.
func (l *lock) decide(counted []string) {
	for i := range l.m.Armies {
		a := &l.m.Armies[i]
		s := l.m.SiteAt(a.At)
		switch {
		case !slices.Contains(counted, a.Name) && !slices.Contains(l.convCounted, a.Name):
		case s != nil && !s.Destroyed && s.Side == a.Side && s.WinCondition && l.allWinConditionsDestroyed(a.Side.Opponent()):
			a.WinDays++
		}
	}
	if l.m.Winner != "" {
		return
	}
	// 1.7.3: a side that had an army of rank Captain/Evincar or above and has none left
	// loses, at once (R108: before a day counted at this update wins); R22: both at once,
	// nobody wins by it.
	var lost []domain.Side
	for _, side := range l.m.Leaders {
		if !side.IsTeam() {
			continue
		}
		if !slices.ContainsFunc(l.m.Armies, func(a domain.Army) bool { return a.Side == side && a.Rank.Leader() }) {
			lost = append(lost, side)
		}
	}
	if len(lost) == 1 {
		l.m.Winner = lost[0].Opponent()
		return
	}
	// 1.7.2: 4 days on an own win condition once every enemy win condition is destroyed.
	for i := range l.m.Armies {
		a := &l.m.Armies[i]
		if a.Side.IsTeam() && a.WinDays >= 4 {
			l.m.Winner = a.Side
			return
		}
	}
}

// defendersHeal: 6.1.2, a town defender heals 500 soldiers for every turn it spends in its
// home town, lowest rank first (the mercenary package's reading: it stood on its home town
// when the turn opened, stands there now, and no enemy is with it).
func (l *lock) defendersHeal() {
	for i := range l.m.Armies {
		a := &l.m.Armies[i]
		if a.Side != domain.Mercenary || a.Faction != domain.TownDefender || a.Home == "" || a.Troops == nil {
			continue
		}
		home := l.m.Site(a.Home)
		if home == nil || home.Kind != domain.Town || l.start[a.Name] != home.At || a.At != home.At || l.enemyWith(a) {
			continue
		}
		n := 500
		for slot := 1; slot <= domain.Slots && n > 0; slot++ {
			for j := range a.Troops {
				t := &a.Troops[j]
				if t.Slot == slot && t.Alive < t.Full && n > 0 {
					k := min(n, t.Full-t.Alive)
					t.Alive += k
					n -= k
				}
			}
		}
	}
}

// declareWar: 6.2.2, a random theme army (not the ocean one, not already at war) goes to war
// with the team that did not score the kill, and heals a quarter of each rank once.
func (l *lock) declareWar(killed string, killer domain.Side) {
	ocean := ""
	for _, a := range l.m.Armies {
		if a.Side == domain.Mercenary && a.Faction == domain.Theme && a.Ocean {
			ocean = a.Name
		}
	}
	var cands []string
	for _, a := range l.m.Armies {
		if a.Side != domain.Mercenary || a.Faction != domain.Theme || a.AtWar != "" {
			continue
		}
		if a.Name == ocean || (ocean == "" && l.m.Terrain.At(a.At) == domain.Ocean) {
			continue
		}
		cands = append(cands, a.Name)
	}
	if len(cands) == 0 {
		return
	}
	slices.Sort(cands)
	a := l.army(cands[l.draws.Intn("theme-at-war:"+domain.NameKey(killed), len(cands))])
	a.AtWar = killer.Opponent()
	for i := range a.Troops {
		t := &a.Troops[i]
		t.Alive = min(t.Full, t.Alive+t.Full/4)
	}
}
