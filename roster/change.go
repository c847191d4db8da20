package roster

import (
	"fmt"
	"slices"

	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/domain"
)

// CheckChange checks a new troop list for an army changing troops at a base or portal after
// counting 2 days there (2.3.2, D6): any list legal under 2.1 and 2.2, except that a Coalition
// army may not gain a creature of the colour of a destroyed Coalition base that it did not
// already have. current are the army's troops before the change; destroyed are the colours of
// the Coalition's destroyed bases. Whether the army has counted its days is the caller's
// business.
func CheckChange(cat Cards, list List, a Army, current []domain.Troop, destroyed []domain.Color) Report {
	r := Check(cat, list, a)
	if a.Side != domain.Coalition || len(destroyed) == 0 {
		return r
	}
	had := make(map[string]bool, len(current))
	for _, t := range current {
		had[cards.Key(t.Creature)] = true
	}
	for _, e := range list {
		if e.Legend {
			continue
		}
		card, ok := cat.Lookup(e.Creature)
		if !ok || had[cards.Key(card.Name)] {
			continue
		}
		t := domain.Troop{Colors: card.TroopColors()}
		for _, d := range destroyed {
			if ofBaseColor(&t, d) {
				r.problem("2.3.2", CodeDestroyedBaseColor, card.Name, fmt.Sprintf("the %s base is destroyed: %s may keep the %s creatures it has but not gain %s, which it did not have (2.3.2)",
					baseWord(d), a.name(), baseWord(d), card.Name))
				break
			}
		}
	}
	return r
}

// ofBaseColor reports whether a creature is of the colour of base colour d (2.3.2): a
// multicoloured creature is of the 5-Color base's colour and of each of its colours, a
// colourless one of the Colorless base's.
func ofBaseColor(t *domain.Troop, d domain.Color) bool {
	switch d {
	case domain.FiveColor:
		return t.Multicolor()
	case domain.Colorless, domain.Artifact:
		return t.Colorless()
	}
	return slices.Contains(t.Colors, d)
}

func baseWord(d domain.Color) string {
	switch d {
	case domain.FiveColor:
		return "5-Color"
	case domain.Colorless, domain.Artifact:
		return "Colorless"
	}
	return string(d)
}

// CheckCustomisation checks a new player's one customisation of an army (2.6): the army is of
// rank Lt Cmdr/CPL or lower, its new units and legend obey 2.1 and 2.2 with its colours
// unchanged, and as it is not healed the troops alive in the new list (Count less Dead) add up
// to those alive now. A new name is the caller's business. current are the army's troops now.
func CheckCustomisation(cat Cards, list List, a Army, current []domain.Troop) Report {
	r := Check(cat, list, a)
	if a.Rank < domain.LtCommander {
		r.problem("2.6", CodeRankTooHigh, "", fmt.Sprintf("%s is %s %s army: a new player customises an army of rank %s or lower (2.6)",
			a.name(), article(a.Rank.Name(a.Side)), a.Rank.Name(a.Side), domain.LtCommander.Name(a.Side)))
	}
	now := 0
	for _, t := range current {
		now += t.Alive
	}
	after := 0
	for _, e := range list {
		if !e.Legend {
			after += e.Count - e.Dead
		}
	}
	if after != now {
		r.problem("2.6", CodeAliveChanged, "", fmt.Sprintf("the new list has %s troops alive; %s has %s alive now, and a customised army is not healed: the number alive stays the same (2.6)",
			thousands(after), a.name(), thousands(now)))
	}
	return r
}

// CheckTransfer checks that sender has the creatures and receiver has room for them after a
// transfer (2.3.3, T2), listing every problem: at most 6 creatures counting dead ones, the
// slot sizes and counts of the receiver's rank, and a Coalition receiver's colours. It reads
// the rules as domain.TransferRoom does — same order, a new creature joining the first slot
// that fits it and has room — and accepts exactly the transfers it accepts.
func CheckTransfer(sender, receiver *domain.Army, creatures map[string]int) Report {
	r := newReport()
	if sender.Troops == nil {
		return r
	}
	names := make([]string, 0, len(creatures))
	for c := range creatures {
		names = append(names, c)
	}
	slices.Sort(names)
	types := len(receiver.Troops)
	var load [domain.Slots + 1]int
	for _, t := range receiver.Troops {
		load[t.Slot] += t.Alive
	}
	for _, c := range names {
		n := creatures[c]
		st := sender.Troop(c)
		switch {
		case n <= 0:
			r.problem("3.2.4.2", CodeTransferNoRoom, c, fmt.Sprintf("send a positive number of %s, not %d", c, n))
			continue
		case st == nil:
			r.problem("3.2.4.2", CodeTransferNoRoom, c, fmt.Sprintf("%s has no %s to send", sender.Name, c))
			continue
		case st.Alive < n:
			r.problem("3.2.4.2", CodeTransferNoRoom, c, fmt.Sprintf("%s has only %s %s alive, not %s", sender.Name, thousands(st.Alive), c, thousands(n)))
			continue
		case receiver.Troops == nil:
			continue
		}
		if rt := receiver.Troop(c); rt != nil {
			if load[rt.Slot]+n > domain.SlotCapacity(rt.Slot) {
				r.problem("2.3.3", CodeTransferNoRoom, c, fmt.Sprintf("%s's slot %d would hold %s troops; it holds at most %s (2.1, 2.3.3)",
					receiver.Name, rt.Slot, thousands(load[rt.Slot]+n), thousands(domain.SlotCapacity(rt.Slot))))
				continue
			}
			load[rt.Slot] += n
			continue
		}
		types++
		if types > MaxCreatures {
			r.problem("2.3.3", CodeTransferNoRoom, c, fmt.Sprintf("%s would have %d different creatures counting dead ones; at most %d (2.1, 2.3.3)", receiver.Name, types, MaxCreatures))
			continue
		}
		if receiver.Side == domain.Coalition && !receiver.MayUse(st) {
			r.problem("2.3.3", CodeTransferNoRoom, c, fmt.Sprintf("%s is %s; %s may not use %s creatures like %s (2.2.1, 2.3.3)",
				receiver.Name, domain.ColorList(receiver.Colors), receiver.Name, domain.ColorList(st.Colors), c))
			continue
		}
		slot := receiver.SlotFor(st.Size, n, load)
		if slot == 0 {
			r.problem("2.3.3", CodeTransferNoRoom, c, fmt.Sprintf("%s has no slot with room for %s %s %s creatures (2.1, 2.3.3)", receiver.Name, thousands(n), st.Size, c))
			continue
		}
		load[slot] += n
	}
	return r
}
