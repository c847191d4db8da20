// Rules T2 and T3 (2.3.3, 3.2.4.3): troops received — at once, or when the receiver's battle ends.

package battle

import (
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// deliver hands over the troops waiting for a battle to end (T3): a receiver that was already
// in battle gets them only if it won, else they die; one attacked while waiting gets them
// whatever the outcome.
func (lg *Ledger) deliver(m *domain.Map, f *fight) {
	for k, n := range f.b.Armies {
		a := armyAt(m, int(f.ids[k]))
		if a == nil || len(a.Incoming) == 0 {
			continue
		}
		for _, s := range a.Incoming {
			if s.WinOnly && !lg.Won[n] {
				continue
			}
			Receive(a, s)
		}
		a.Incoming = nil
	}
}

// Receive adds a shipment's troops to an army (2.3.3, T2): a creature it has joins its slot;
// a new one the smallest slot that fits its size and has room. The receiver's full count rises
// with its alive count, never past its slot's size (2.1).
func Receive(a *domain.Army, s domain.Shipment) {
	if a.Troops == nil {
		return
	}
	var buf [8]count
	cs := buf[:0]
	for c, n := range s.Creatures {
		cs = append(cs, count{c, n})
	}
	receive(a, sortCounts(cs), s.Troops)
}

// count is a number of troops of a creature.
type count struct {
	creature string
	n        int
}

// sortCounts sorts counts of distinct creatures by creature.
func sortCounts(cs []count) []count {
	slices.SortFunc(cs, func(x, y count) int { return strings.Compare(x.creature, y.creature) })
	return cs
}

// receive is Receive of the shipment's counts, in order of creature, with the troops that
// describe its creatures.
func receive(a *domain.Army, cs []count, protos []domain.Troop) {
	if a.Troops == nil {
		return
	}
	for _, x := range cs {
		c, n := x.creature, x.n
		if n <= 0 {
			continue
		}
		var proto domain.Troop
		if a.TroopIndex(c) < 0 {
			for i := len(protos) - 1; i >= 0; i-- { // the last that matches
				if domain.SameName(protos[i].Creature, c) {
					proto = protos[i]
					break
				}
			}
		}
		a.Add(c, n, proto)
	}
}
