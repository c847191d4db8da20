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

// opening returns the named army as the turn opened, or nil. Armies keep their order through a
// lock (some are only removed), so a caller walking the map in order passes back the cursor it
// got, and each lookup continues from there.
func (t Turn) opening(name string, cursor *int) *domain.Army {
	o := t.Start
	for j := *cursor; j < len(o); j++ {
		if o[j].Name == name {
			*cursor = j + 1
			return &o[j]
		}
	}
	for j := 0; j < *cursor && j < len(o); j++ {
		if o[j].Name == name {
			return &o[j]
		}
	}
	return nil
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

// Update finishes a lock after the moves and the battles: transfers (T3), day counts (D1, D2),
// healing (D3–D5), conversion of captured armies (4.5), base destruction (D7) and the end of
// the round (D8).
func Update(m *domain.Map, t Turn, lg *Ledger) *Changes {
	ch := &Changes{Healed: map[string]map[string]int{}}
	n := 0
	for _, bs := range [][]domain.Battle{t.Formed, lg.Battles} {
		for _, b := range bs {
			n += len(b.Armies)
		}
	}
	next := make(map[string]bool, n)
	for _, bs := range [][]domain.Battle{t.Formed, lg.Battles} {
		for _, b := range bs {
			for _, n := range b.Armies {
				next[n] = true
			}
		}
	}
	transfer(m, t, lg, ch, next)

	// counted and moved are per army, in map order
	flags := make([]bool, 2*len(m.Armies))
	counted, moved := flags[:len(m.Armies)], flags[len(m.Armies):]
	x := indexSites(m)
	cursor := 0
	for i := range m.Armies {
		a := &m.Armies[i]
		open := t.opening(a.Name, &cursor)
		left := open == nil || a.At != open.At || lg.Displaced[a.Name]
		if left {
			moved[i] = true
			// losses of an earlier stay date from before the new count begins (D1, D3)
			clearWounds(a)
		}
		inNext := next[a.Name]
		if a.Capture != nil && !a.Capture.Converted {
			convert(a, x.of(a.At), left, inNext || lg.Lost[a.Name], ch)
			if a.Days != 0 {
				attribute(a, lg.Losses[a.Name])
			}
			continue
		}
		site := x.of(a.At)
		can := countable(m, a, site)
		switch {
		case left:
			// moving in counts a day (1.5), even for a winner moved off its square at the
			// settlement; a loser pushed away counts none (D1)
			a.Days = 0
			if can && !inNext && !lg.Lost[a.Name] {
				a.Days, counted[i] = 1, true
			}
		case inNext:
		case !can || lg.Lost[a.Name]:
			a.Days = 0
		default:
			a.Days++
			counted[i] = true
		}
		if a.Days == 0 {
			clearWounds(a)
		} else {
			attribute(a, lg.Losses[a.Name])
		}
		if counted[i] {
			if h := heal(a, site); len(h) > 0 {
				ch.Healed[a.Name] = h
			}
		}
	}
	destroy(m, x, t, lg, ch)
	decide(m, x, counted, moved)
	return ch
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
func transfer(m *domain.Map, t Turn, lg *Ledger, ch *Changes, next map[string]bool) {
	// transfers are made in the order they were posted (M2), each finding the room the
	// earlier ones left (2.3.3, T2)
	order := slices.Clone(t.Transfers)
	slices.SortStableFunc(order, func(a, b domain.TransferOrder) int {
		if !a.At.Equal(b.At) {
			return a.At.Compare(b.At)
		}
		if a.Post != b.Post {
			return int(a.Post - b.Post)
		}
		return a.Line - b.Line
	})
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
		ship := domain.Shipment{From: s.Name, Creatures: tr.Creatures}
		var buf [8]string
		sent := map[string]int{}
		s.OwnTroops()
		for _, c := range sortedKeys(tr.Creatures, buf[:]) {
			st := s.Troop(c)
			if st == nil {
				continue
			}
			n := min(tr.Creatures[c], st.Alive)
			st.Alive -= n
			st.Full = max(st.Full-n, st.Alive)
			sent[st.Creature] = n
			proto := *st
			proto.Alive, proto.Full, proto.Wounds = 0, 0, nil
			ship.Troops = append(ship.Troops, proto)
		}
		ship.Creatures = sent
		switch {
		case r == nil:
			// the receiver is gone: the troops are lost on the way
		case fought && lg.Won[r.Name]:
			Receive(r, ship)
		case fought && lg.Lost[r.Name]:
			// killed with the lost battle (3.2.4.3.3)
		case fought:
			ship.WinOnly = true
			r.Incoming = append(r.Incoming, ship)
		case next[r.Name]:
			r.Incoming = append(r.Incoming, ship)
		default:
			Receive(r, ship)
		}
		if r != nil {
			ch.Delivered = append(ch.Delivered, tr)
		}
	}
}

// sites finds the site on a square in constant time while the map is updated.
type sites struct {
	m  *domain.Map
	at []int16
}

func indexSites(m *domain.Map) sites {
	x := sites{m: m, at: make([]int16, m.Grid.Size())}
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
	c := a.Days
	phyrexian := func() map[string]int { // D3: at 2, 4, 6 … all but the latest day's losses
		if c%2 != 0 {
			return nil
		}
		return restore(a, func(*domain.Troop) int { return c - 1 })
	}
	coalition := func(color domain.Color) map[string]int { // D4: k+1 for the base's colour, else k+2
		return restore(a, func(t *domain.Troop) int {
			if color != "" && t.HasColor(color) {
				return c - 1
			}
			return c - 2
		})
	}
	switch {
	case s.Kind == domain.Portal && s.Side == domain.Phyrexia && a.Side == domain.Phyrexia:
		return phyrexian()
	case s.Kind == domain.Base && s.Side == domain.Coalition && a.Side == domain.Coalition && a.HasColor(s.Color):
		return coalition(s.Color)
	case s.Kind == domain.Town && a.Rank.Lowest() && a.Side == domain.Phyrexia:
		return phyrexian()
	case s.Kind == domain.Town && a.Rank.Lowest() && a.Side == domain.Coalition:
		return coalition("")
	}
	return nil
}

// restore heals every loss suffered on a counted day up to upTo(troop), losses from before the
// count began (day 0) included, and returns what it healed.
func restore(a *domain.Army, upTo func(*domain.Troop) int) map[string]int {
	if !a.Wounded() {
		return nil
	}
	a.OwnTroops()
	var out map[string]int
	for i := range a.Troops {
		t := &a.Troops[i]
		limit := upTo(t)
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
// turn opened and has stayed all turn (1.7.1, D7).
func destroy(m *domain.Map, x sites, t Turn, lg *Ledger, ch *Changes) {
	cursor := 0
	for i := range m.Armies {
		a := &m.Armies[i]
		open := t.opening(a.Name, &cursor)
		s := x.of(a.At)
		if s == nil || s.Destroyed || s.Kind == domain.Town || !a.Side.IsTeam() || s.Side != a.Side.Opponent() {
			continue
		}
		if open == nil || open.At != a.At || lg.Displaced[a.Name] || open.Days < 4 {
			continue
		}
		s.Destroyed = true
		ch.Destroyed = append(ch.Destroyed, s.Name)
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
// Captain/Evincar or above and has none left loses at once.
func decide(m *domain.Map, x sites, counted, moved []bool) {
	// only days counted once every enemy win condition is destroyed count toward the win
	// (1.7.2: "the other team must move an army into one of their own Win Conditions and
	// count 4 days"); being defeated or moving starts the count again
	var winner domain.Side
	for i := range m.Armies {
		a := &m.Armies[i]
		s := x.of(a.At)
		if !a.Side.IsTeam() || s == nil || s.Side != a.Side || !s.WinCondition || s.Destroyed || !AllWinConditionsDestroyed(m, a.Side.Opponent()) {
			a.WinDays = 0
			continue
		}
		if moved[i] {
			// an army that moves, or is defeated and pushed away, starts again from 0 (1.7.2:
			// 4 days counted in one win condition); the day it moves in may be its first
			a.WinDays = 0
		}
		if !counted[i] {
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
