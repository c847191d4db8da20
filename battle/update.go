package battle

import (
	"fmt"
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// Turn is what the update needs to know of the turn besides the map and the ledger.
type Turn struct {
	// Start is every army as the turn opened, in map order: the armies of the map before the
	// lock, which the update only reads.
	Start []domain.Army
	// Moves are the moves made at the lock.
	Moves []domain.Move
	// Formed are the battles made at the lock (to be fought next turn).
	Formed []domain.Battle
	// Fought are the battles fought this turn.
	Fought []domain.Battle
	// Transfers are the accepted transfer orders (T3).
	Transfers []domain.TransferOrder
}

// opening returns the index in Start of the named army, or -1. Armies keep their order
// through a lock (some are only removed), so a caller walking the map in order passes back the
// cursor it got, and each lookup continues from there.
func (t Turn) opening(name string, cursor *int) int {
	o := t.Start
	for j := *cursor; j < len(o); j++ {
		if o[j].Name == name {
			*cursor = j + 1
			return j
		}
	}
	for j := 0; j < *cursor && j < len(o); j++ {
		if o[j].Name == name {
			return j
		}
	}
	return -1
}

// Changes is what the update did besides counting days.
type Changes struct {
	// Rejected are transfers cancelled because the receiver moved away (T3).
	Rejected []domain.Rejection
	// Healed are the troops restored: army → creature → count (D3–D5).
	Healed map[string]map[string]int
	// Converted names captured armies fully converted this turn (4.5).
	Converted []string
	// Destroyed names the sites destroyed this turn (D7).
	Destroyed []string
	// Delivered are the transfers carried out this turn.
	Delivered []domain.TransferOrder
}

// marks of an army's name in Update: what the ledger says of it and whether it is in a battle
// to be fought next turn
const (
	markLost uint8 = 1 << iota
	markDisplaced
	markLosses
	markNext
)

// day is what the update's day count did for an army: counted a day, or moved (day bits)
const (
	dayCounted uint8 = 1 << iota
	dayMoved
)

// Update finishes a lock after the moves and the battles: transfers (T3), day counts (D1, D2),
// healing (D3–D5), conversion of captured armies (4.5), base destruction (D7) and the end of
// the round (D8).
func Update(m *domain.Map, t Turn, lg *Ledger) *Changes {
	ch := &Changes{Healed: map[string]map[string]int{}}
	sc := getScratch()
	defer sc.release()
	marks := markNames(&sc.marks, t, lg)
	transfer(m, t, lg, ch, marks)

	n := len(m.Armies)
	sc.day = zeroed(sc.day, n)
	sc.destroy, sc.wins = sc.destroy[:0], sc.wins[:0]
	x := indexSites(m, &sc.sites)
	cursor := 0
	for i := range m.Armies {
		a := &m.Armies[i]
		var open *domain.Army
		if j := t.opening(a.Name, &cursor); j >= 0 {
			open = &t.Start[j]
		}
		mk := marks.get(a.Name)
		left := open == nil || a.At != open.At || mk&markDisplaced != 0
		if left {
			sc.day[i] |= dayMoved
			// losses of an earlier stay date from before the new count begins (D1, D3)
			clearWounds(a)
		}
		site := x.of(a.At)
		// base destruction (D7) and the end of the round (D8) wait for every army's count:
		// note the armies that may destroy a site or count toward a win
		win := false
		if site != nil && a.Side.IsTeam() && !site.Destroyed {
			switch {
			case site.Side == a.Side.Opponent() && site.Kind != domain.Town:
				if open != nil && open.At == a.At && mk&markDisplaced == 0 && open.Days >= 4 {
					sc.destroy = append(sc.destroy, int32(i))
				}
			case site.Side == a.Side && site.WinCondition:
				win = true
				sc.wins = append(sc.wins, int32(i))
			}
		}
		if !win {
			a.WinDays = 0
		}
		inNext, lost := mk&markNext != 0, mk&markLost != 0
		if a.Capture != nil && !a.Capture.Converted {
			convert(a, site, left, inNext || lost, ch)
			if a.Days != 0 && mk&markLosses != 0 {
				attribute(a, lg.Losses[a.Name])
			}
			continue
		}
		can := countable(m, a, site)
		switch {
		case left:
			// moving in counts a day (1.5), even for a winner moved off its square at the
			// settlement; a loser pushed away counts none (D1)
			a.Days = 0
			if can && !inNext && !lost {
				a.Days = 1
				sc.day[i] |= dayCounted
			}
		case inNext:
		case !can || lost:
			a.Days = 0
		default:
			a.Days++
			sc.day[i] |= dayCounted
		}
		if a.Days == 0 {
			if !left { // else cleared above
				clearWounds(a)
			}
		} else if mk&markLosses != 0 {
			attribute(a, lg.Losses[a.Name])
		}
		if sc.day[i]&dayCounted != 0 {
			if h := heal(a, site); len(h) > 0 {
				ch.Healed[a.Name] = h
			}
		}
	}
	destroy(m, x, sc.destroy, ch)
	decide(m, x, sc.wins, sc.day)
	return ch
}

// markNames sets, in s, the marks of the armies the ledger names as losers, displaced or
// wounded and of those in a battle to be fought next turn (made at the lock or left by the
// settlement).
func markNames(s *nameSet, t Turn, lg *Ledger) *nameSet {
	n := len(lg.Lost) + len(lg.Displaced) + len(lg.Losses)
	for _, bs := range [2][]domain.Battle{t.Formed, lg.Battles} {
		for _, b := range bs {
			n += len(b.Armies)
		}
	}
	s.reset(n)
	for name, v := range lg.Lost {
		if v {
			s.add(name, markLost)
		}
	}
	for name, v := range lg.Displaced {
		if v {
			s.add(name, markDisplaced)
		}
	}
	for name, l := range lg.Losses {
		if len(l) > 0 {
			s.add(name, markLosses)
		}
	}
	for _, bs := range [2][]domain.Battle{t.Formed, lg.Battles} {
		for _, b := range bs {
			for _, name := range b.Armies {
				s.add(name, markNext)
			}
		}
	}
	return s
}

// clearWounds forgets the army's unhealed losses: they date from before its count (D1).
func clearWounds(a *domain.Army) {
	for j := range a.Troops {
		if a.Troops[j].Wounds != nil {
			a.OwnTroops()
			a.Troops[j].Wounds = nil
		}
	}
}

// foughtIn reports whether the named army fought one of the battles this turn.
func foughtIn(t Turn, name string) bool {
	for _, b := range t.Fought {
		if slices.Contains(b.Armies, name) {
			return true
		}
	}
	return false
}

// movedAway reports whether the named army moved off its square at the lock.
func movedAway(t Turn, name string) bool {
	for _, mv := range t.Moves {
		if mv.Army == name && mv.To != mv.From {
			return true
		}
	}
	return false
}

// transfer carries out the turn's transfers (3.2.4.3, T3).
func transfer(m *domain.Map, t Turn, lg *Ledger, ch *Changes, marks *nameSet) {
	// transfers are made in the order they were posted (M2), each finding the room the
	// earlier ones left (2.3.3, T2)
	order := t.Transfers
	if !slices.IsSortedFunc(order, postOrder) {
		order = slices.Clone(order)
		slices.SortStableFunc(order, postOrder)
	}
	for _, tr := range order {
		s, r := m.Army(tr.From), m.Army(tr.To)
		if s == nil {
			continue
		}
		fought := r != nil && foughtIn(t, r.Name)
		if r != nil && movedAway(t, r.Name) && !fought {
			ch.Rejected = append(ch.Rejected, domain.Rejection{Army: s.Name, Post: tr.Post, Line: tr.Line, Code: domain.CodeTransferCancelled,
				Message: fmt.Sprintf("%s moved away, so the transfer is cancelled and %s keeps its troops (3.2.4.1)", r.Name, s.Name)})
			continue
		}
		if r != nil {
			if code, msg := domain.TransferRoom(s, withIncoming(r), tr.Creatures); code != "" {
				ch.Rejected = append(ch.Rejected, domain.Rejection{Army: s.Name, Post: tr.Post, Line: tr.Line, Code: code,
					Message: msg + ", after the transfers posted before it; " + s.Name + " keeps its troops"})
				continue
			}
		}
		// where the troops go: now, later (when its battle ends or is fought), or nowhere
		now, later, winOnly := false, false, false
		switch {
		case r == nil:
			// the receiver is gone: the troops are lost on the way
		case fought && lg.Won[r.Name]:
			now = true
		case fought && marks.get(r.Name)&markLost != 0:
			// killed with the lost battle (3.2.4.3.3)
		case fought:
			later, winOnly = true, true
		case marks.get(r.Name)&markNext != 0:
			later = true
		default:
			now = true
		}
		// the troops leave the sender: counts per creature as the sender names it (a later
		// one replacing an earlier of the same name) and the troops that describe them
		var cbuf [8]count
		var pbuf [8]domain.Troop
		cs, protos := cbuf[:0], pbuf[:0]
		var buf [8]string
		s.OwnTroops()
		for _, c := range sortedKeys(tr.Creatures, buf[:]) {
			st := s.Troop(c)
			if st == nil {
				continue
			}
			n := min(tr.Creatures[c], st.Alive)
			st.Alive -= n
			st.Full = max(st.Full-n, st.Alive)
			if k := slices.IndexFunc(cs, func(x count) bool { return x.creature == st.Creature }); k >= 0 {
				cs[k].n = n
			} else {
				cs = append(cs, count{st.Creature, n})
			}
			proto := *st
			proto.Alive, proto.Full, proto.Wounds = 0, 0, nil
			protos = append(protos, proto)
		}
		switch {
		case now:
			receive(r, sortCounts(cs), protos)
		case later:
			ship := domain.Shipment{From: s.Name, Creatures: make(map[string]int, len(cs)), WinOnly: winOnly}
			for _, x := range cs {
				ship.Creatures[x.creature] = x.n
			}
			if len(protos) > 0 {
				ship.Troops = slices.Clone(protos)
			}
			r.Incoming = append(r.Incoming, ship)
		}
		if r != nil {
			ch.Delivered = append(ch.Delivered, tr)
		}
	}
}

// postOrder orders transfers as they were posted (M2).
func postOrder(a, b domain.TransferOrder) int {
	if !a.At.Equal(b.At) {
		return a.At.Compare(b.At)
	}
	if a.Post != b.Post {
		return int(a.Post - b.Post)
	}
	return a.Line - b.Line
}

// sites finds the site on a square in constant time while the map is updated.
type sites struct {
	m  *domain.Map
	at []int16
}

// indexSites indexes the map's sites by square in *mem.
func indexSites(m *domain.Map, mem *[]int16) sites {
	*mem = zeroed(*mem, m.Grid.Size())
	x := sites{m: m, at: *mem}
	for i, s := range m.Sites {
		if m.Grid.Contains(s.At) {
			x.at[m.Grid.Index(s.At)] = int16(i + 1)
		}
	}
	return x
}

// of returns the site on square s, or nil.
func (x sites) of(s domain.Square) *domain.Site {
	if !x.m.Grid.Contains(s) {
		return nil
	}
	if i := x.at[x.m.Grid.Index(s)]; i > 0 {
		return &x.m.Sites[i-1]
	}
	return nil
}

// withIncoming is the army as it will be once the troops waiting for it arrive.
func withIncoming(a *domain.Army) *domain.Army {
	if len(a.Incoming) == 0 {
		return a
	}
	c := a.Clone()
	for _, s := range a.Incoming {
		Receive(&c, s)
	}
	return &c
}

// Countable reports whether army a counts days where it stands (D2).
func Countable(m *domain.Map, a *domain.Army) bool { return countable(m, a, m.SiteAt(a.At)) }

// countable is Countable for the site s the army stands on.
func countable(m *domain.Map, a *domain.Army, s *domain.Site) bool {
	if s == nil || s.Destroyed || !a.Side.IsTeam() {
		return false
	}
	switch {
	case s.Side == a.Side.Opponent() && s.Kind != domain.Town:
		return true
	case s.Kind == domain.Town:
		if a.Rank.Lowest() {
			return true
		}
	case s.Side == a.Side && a.Side == domain.Phyrexia && s.Kind == domain.Portal:
		return true
	case s.Side == a.Side && a.Side == domain.Coalition && s.Kind == domain.Base && a.HasColor(s.Color):
		return true
	}
	return s.Side == a.Side && s.WinCondition && AllWinConditionsDestroyed(m, a.Side.Opponent())
}

// AllWinConditionsDestroyed reports whether side has win-condition sites and every one is
// destroyed (1.7.2).
func AllWinConditionsDestroyed(m *domain.Map, side domain.Side) bool {
	n := 0
	for _, s := range m.Sites {
		if s.Side == side && s.WinCondition {
			if !s.Destroyed {
				return false
			}
			n++
		}
	}
	return n > 0
}

// attribute records this update's losses against the army's current count (D1).
func attribute(a *domain.Army, losses map[string]int) {
	if a.Days == 0 || len(losses) == 0 {
		return
	}
	a.OwnTroops()
	for c, n := range losses {
		t := a.Troop(c)
		if t == nil || n == 0 {
			continue
		}
		if k := len(t.Wounds); k > 0 && t.Wounds[k-1].Day == a.Days {
			t.Wounds[k-1].Count += n
		} else {
			t.Wounds = append(t.Wounds, domain.Wound{Day: a.Days, Count: n})
		}
	}
}

// heal restores the losses due at the army's new count (D3–D5) and returns them.
func heal(a *domain.Army, s *domain.Site) map[string]int {
	if s == nil || s.Destroyed || a.Troops == nil {
		return nil
	}
	switch {
	case s.Kind == domain.Portal && s.Side == domain.Phyrexia && a.Side == domain.Phyrexia:
		return healPhyrexian(a)
	case s.Kind == domain.Base && s.Side == domain.Coalition && a.Side == domain.Coalition && a.HasColor(s.Color):
		return restore(a, a.Days-2, s.Color)
	case s.Kind == domain.Town && a.Rank.Lowest() && a.Side == domain.Phyrexia:
		return healPhyrexian(a)
	case s.Kind == domain.Town && a.Rank.Lowest() && a.Side == domain.Coalition:
		return restore(a, a.Days-2, "")
	}
	return nil
}

// healPhyrexian heals as D3 does: at counts 2, 4, 6 … all but the latest day's losses.
func healPhyrexian(a *domain.Army) map[string]int {
	if a.Days%2 != 0 {
		return nil
	}
	return restore(a, a.Days-1, "")
}

// restore heals every loss suffered on a counted day up to upTo, losses from before the count
// began (day 0) included, and returns what it healed; a troop of colour color (none when it
// is "") heals a day more (D4: k+1 for the base's colour, else k+2).
func restore(a *domain.Army, upTo int, color domain.Color) map[string]int {
	if !a.Wounded() {
		return nil
	}
	a.OwnTroops()
	var out map[string]int
	for i := range a.Troops {
		t := &a.Troops[i]
		limit := upTo
		if color != "" && t.HasColor(color) {
			limit++
		}
		if limit < 0 {
			continue
		}
		tracked := 0
		for _, w := range t.Wounds {
			tracked += w.Count
		}
		n := max(t.Full-t.Alive-tracked, 0)
		kept := t.Wounds[:0]
		for _, w := range t.Wounds {
			if w.Day <= limit {
				n += w.Count
			} else {
				kept = append(kept, w)
			}
		}
		t.Wounds = kept
		if len(t.Wounds) == 0 {
			t.Wounds = nil
		}
		n = min(n, t.Full-t.Alive)
		if n > 0 {
			t.Alive += n
			if out == nil {
				out = map[string]int{}
			}
			out[t.Creature] = n
		}
	}
	return out
}

// convert counts a partially converted army's days wherever it stands; after 2 it is fully
// converted, and healed if it stands on a base, portal or town (4.5).
func convert(a *domain.Army, s *domain.Site, left, noCount bool, ch *Changes) {
	switch {
	case left:
		a.Days = 0
		return
	case noCount:
		return
	}
	a.Days++
	if a.Days < 2 {
		return
	}
	a.Capture.Converted = true
	ch.Converted = append(ch.Converted, a.Name)
	if s != nil && !s.Destroyed {
		a.OwnTroops()
		h := map[string]int{}
		for i := range a.Troops {
			t := &a.Troops[i]
			if t.Full > t.Alive {
				h[t.Creature] = t.Full - t.Alive
				t.Alive = t.Full
			}
			t.Wounds = nil
		}
		if len(h) > 0 {
			ch.Healed[a.Name] = h
		}
	}
}

// destroy destroys every enemy base or portal on which an army had counted 4 days when the
// turn opened and has stayed all turn (1.7.1, D7): the armies of cand, in map order, found so
// by Update.
func destroy(m *domain.Map, x sites, cand []int32, ch *Changes) {
	for _, i := range cand {
		if s := x.of(m.Armies[i].At); !s.Destroyed {
			s.Destroyed = true
			ch.Destroyed = append(ch.Destroyed, s.Name)
		}
	}
	if len(ch.Destroyed) == 0 {
		return
	}
	for i := range m.Armies {
		a := &m.Armies[i]
		if s := x.of(a.At); s != nil && s.Destroyed && slices.Contains(ch.Destroyed, s.Name) {
			a.Days = 0
			clearWounds(a)
		}
	}
}

// decide ends the round (D8): a side whose win conditions are all destroyed loses when an
// enemy army counts 4 days on one of its own win conditions; a side that had an army of rank
// Captain/Evincar or above and has none left loses at once. Update has set every army's win
// count to 0 but those of cand, in map order, which stand on a win condition of their side.
func decide(m *domain.Map, x sites, cand []int32, day []uint8) {
	// only days counted once every enemy win condition is destroyed count toward the win
	// (1.7.2: "the other team must move an army into one of their own Win Conditions and
	// count 4 days"); being defeated or moving starts the count again
	var winner domain.Side
	for _, i := range cand {
		a := &m.Armies[i]
		if s := x.of(a.At); s.Destroyed || !AllWinConditionsDestroyed(m, a.Side.Opponent()) {
			a.WinDays = 0
			continue
		}
		if day[i]&dayMoved != 0 {
			// an army that moves, or is defeated and pushed away, starts again from 0 (1.7.2:
			// 4 days counted in one win condition); the day it moves in may be its first
			a.WinDays = 0
		}
		if day[i]&dayCounted == 0 {
			// attacked, the day waits for the battle (1.5); the count goes on if it wins
			continue
		}
		a.WinDays++
		if a.WinDays >= 4 && winner == "" {
			winner = a.Side
		}
	}
	if m.Winner != "" {
		return
	}
	if winner != "" {
		m.Winner = winner
		return
	}
	var losers []domain.Side
	for _, side := range m.Leaders {
		has := false
		for i := range m.Armies {
			if m.Armies[i].Side == side && m.Armies[i].Rank.Leader() {
				has = true
				break
			}
		}
		if !has {
			losers = append(losers, side)
		}
	}
	if len(losers) == 1 {
		m.Winner = losers[0].Opponent()
	}
}
