// Rules T2 and T3 (3.2.4.3): the turn's transfers carried out at the update.

package battle

import (
	"fmt"
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// foughtIn reports whether the named army fought one of the battles this turn.
func foughtIn(t Turn, name string) bool {
	for _, b := range t.Fought {
		if slices.Contains(b.Armies, name) {
			return true
		}
	}
	return false
}

// movedAway reports whether the named army moved off its square at the lock (it may have been
// destroyed since, B9).
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
		// a receiver that moved away cancels the transfer, whether or not it is still on the
		// map and whether or not a detail was sent (T3)
		if movedAway(t, tr.To) && !foughtIn(t, tr.To) {
			ch.Rejected = append(ch.Rejected, domain.Rejection{Army: s.Name, Post: tr.Post, Line: tr.Line, Code: domain.CodeTransferCancelled,
				Message: fmt.Sprintf("%s moved away, so the transfer is cancelled and %s keeps its troops (3.2.4.1)", tr.To, s.Name)})
			continue
		}
		if tr.Creatures == nil {
			continue // no private detail was sent: the transfer does nothing (3.2.4.2, R8)
		}
		fought := r != nil && foughtIn(t, r.Name)
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
		for _, c := range sortedKeys(tr.Creatures, buf[:]) {
			i := s.TroopIndex(c)
			if i < 0 {
				continue
			}
			n := s.Send(i, tr.Creatures[c])
			st := &s.Troops[i]
			if k := slices.IndexFunc(cs, func(x count) bool { return x.creature == st.Creature }); k >= 0 {
				cs[k].n = n
			} else {
				cs = append(cs, count{st.Creature, n})
			}
			protos = append(protos, st.Bare())
		}
		switch {
		case now:
			receive(r, sortCounts(cs), protos)
		case later:
			var troops []domain.Troop
			if len(protos) > 0 {
				troops = slices.Clone(protos)
			}
			ship := domain.Shipment{From: s.Name, Creatures: make(map[string]int, len(cs)), WinOnly: winOnly, Troops: troops}
			for _, x := range cs {
				ship.Creatures[x.creature] = x.n
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
