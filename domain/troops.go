// Rules 2.1, 2.3.3, T2, B7 and D1–D5: how an army's troops change — lost, sent, received,
// wounded, healed — each change copying first the troops a forked map still shares.

package domain

import (
	"slices"
	"strings"
)

// ownTroops gives the army its own copy of its troop list if it still shares it with the map
// it was forked from (Map.Fork). Every method that changes troops calls it first, before it
// takes a pointer to a troop; nothing outside this file changes troops.
func (a *Army) ownTroops() {
	if !a.shared {
		return
	}
	a.shared = false
	if a.Troops == nil {
		return
	}
	own := make([]Troop, len(a.Troops), len(a.Troops)+1)
	copy(own, a.Troops)
	for j := range own {
		if own[j].Wounds != nil {
			own[j].Wounds = slices.Clone(own[j].Wounds)
		}
	}
	a.Troops = own
}

// TroopIndex is the index in Troops of the named creature (compared without regard to case),
// or -1.
func (a *Army) TroopIndex(creature string) int {
	for i := range a.Troops {
		if c := a.Troops[i].Creature; c == creature || strings.EqualFold(c, creature) {
			return i
		}
	}
	return -1
}

// Lose kills up to n of troop i's troops alive, never more than it has (B7, 4.3.2), and returns
// how many it killed; their full count stays, to heal back to (D3, D4).
func (a *Army) Lose(i, n int) int {
	n = min(n, a.Troops[i].Alive)
	if n <= 0 {
		return 0
	}
	a.ownTroops()
	a.Troops[i].Alive -= n
	return n
}

// Send takes up to n of troop i's troops alive out of the army for a transfer, never more than
// it has, and returns how many it took. Troops sent lower the full count as well: a transfer
// is not healed back (T2).
func (a *Army) Send(i, n int) int {
	n = min(n, a.Troops[i].Alive)
	if n <= 0 {
		return 0
	}
	a.ownTroops()
	t := &a.Troops[i]
	t.Alive -= n
	t.Full = max(t.Full-n, t.Alive)
	return n
}

// Add gives the army n more troops of a creature (2.3.3, T2): one it has gets them in its slot;
// a new one, described by proto (size, colours), joins the smallest slot that fits its size and
// has room, and is not added (false) when no slot has. The full count rises with the troops
// alive, never past what its slot leaves it (2.1). An army whose troops are unknown gets none.
func (a *Army) Add(creature string, n int, proto Troop) bool {
	if a.Troops == nil || n <= 0 {
		return false
	}
	a.ownTroops()
	i := a.TroopIndex(creature)
	if i < 0 {
		slot := a.SlotFor(proto.Size, n, a.Load())
		if slot == 0 {
			return false
		}
		a.Troops = append(a.Troops, Troop{Creature: proto.Creature, Size: proto.Size, Colors: proto.Colors, Slot: slot})
		i = len(a.Troops) - 1
	}
	t := &a.Troops[i]
	t.Alive += n
	room := SlotCapacity(t.Slot)
	for _, x := range a.Troops {
		if x.Slot == t.Slot && x.Creature != t.Creature {
			room -= x.Full
		}
	}
	t.Full = max(t.Alive, min(t.Full+n, room))
	return true
}

// Wound records that n of troop i's troops were lost during the army's current counted day,
// a.Days, to be healed by its count (D1, D3, D4).
func (a *Army) Wound(i, n int) {
	if n == 0 {
		return
	}
	a.ownTroops()
	t := &a.Troops[i]
	if k := len(t.Wounds); k > 0 && t.Wounds[k-1].Day == a.Days {
		t.Wounds[k-1].Count += n
	} else {
		t.Wounds = append(t.Wounds, Wound{Day: a.Days, Count: n})
	}
}

// ClearWounds forgets the army's unhealed wounds: every loss now dates from before its count,
// day 0 (D1, D3).
func (a *Army) ClearWounds() {
	for j := range a.Troops {
		if a.Troops[j].Wounds != nil {
			a.ownTroops()
			a.Troops[j].Wounds = nil
		}
	}
}

// Heal restores troop i's losses that date from before the army's count (day 0) and from
// counted days up to upTo, never past its full count, and returns how many it restored
// (D3–D5); upTo below 0 heals nothing. The wounds of later days stay.
func (a *Army) Heal(i, upTo int) int {
	if upTo < 0 {
		return 0
	}
	a.ownTroops()
	t := &a.Troops[i]
	tracked := 0
	for _, w := range t.Wounds {
		tracked += w.Count
	}
	n := max(t.Full-t.Alive-tracked, 0)
	kept := t.Wounds[:0]
	for _, w := range t.Wounds {
		if w.Day <= upTo {
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
	if n <= 0 {
		return 0
	}
	t.Alive += n
	return n
}

// Restore brings up to n of troop i's dead troops back to life, never past its full count,
// whatever day they fell (6.1.2, 6.2.2), and returns how many.
func (a *Army) Restore(i, n int) int {
	n = min(n, a.Troops[i].Full-a.Troops[i].Alive)
	if n <= 0 {
		return 0
	}
	a.ownTroops()
	a.Troops[i].Alive += n
	return n
}

// Bare is the troop with no troops alive, no full count and no wounds: what describes a
// creature (name, size, colours, slot) to an army that does not have it yet (T2).
func (t Troop) Bare() Troop {
	t.Alive, t.Full, t.Wounds = 0, 0, nil
	return t
}
