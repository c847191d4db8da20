// Rules B8 and B10 (4.2.5, 4.4): losers pushed off the battle's square, and the winner of a pair
// that leaves it.

package battle

import (
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

func (lg *Ledger) occupied(s domain.Square) bool { return lg.sq.held(s) }

// leave sends one army of a winning pair out of the square before the losers are pushed
// (4.4, B10): the one the strategy names, to its square if free, else at random.
func (lg *Ledger) leave(m *domain.Map, b *domain.Battle, st *Settled, lv *domain.Leave, loserTo domain.Square, d *domain.Draws) error {
	var a *domain.Army
	to := domain.Square{}
	if lv != nil {
		if !slices.ContainsFunc(st.Winners, func(n string) bool { return domain.SameName(n, lv.Army) }) {
			return domain.Errorf(domain.ErrInvalid, "%s cannot leave %s as a winner: it is not on the winning side", lv.Army, b.Square)
		}
		a = m.Army(lv.Army)
		if !lv.To.IsZero() {
			if !m.Grid.Contains(lv.To) || !domain.Adjacent(lv.To, b.Square) {
				return domain.Errorf(domain.ErrInvalid, "%s cannot leave %s for %s: it is not next to the battle (4.4)", a.Name, b.Square, lv.To)
			}
			if !lg.occupied(lv.To) {
				to = lv.To
			}
		}
	} else {
		var buf [2]string
		names := append(buf[:0], st.Winners...)
		slices.Sort(names)
		a = m.Army(names[d.Intn("leave:"+b.Square.String(), len(names))])
	}
	if a.At != b.Square {
		return nil
	}
	// a random retreat keeps off the square the judge named for the loser: only a chosen
	// retreat overwrites the loser's (4.4)
	lg.pushAvoiding(m, indexOf(m, a), to, loserTo, d, "won at "+b.Square.String()+" and leaves the square to its partner")
	return nil
}

// pushAvoiding moves army i off its square after the moves (B8): to the given square, else to
// a random empty neighbour, keeping off square avoid while another empty neighbour remains; if
// none is empty, into a random neighbour held only by enemies (a push battle next turn); if
// every neighbour holds a friend, to a random empty square of the nearest ring that has one.
func (lg *Ledger) pushAvoiding(m *domain.Map, i int, to, avoid domain.Square, d *domain.Draws, reason string) {
	a := &m.Armies[i]
	from := a.At
	// pushed, or with nowhere at all to go and staying, it is no longer leaving (R101)
	if lg.isLeaving(i) {
		lg.leaving[i] = false
	}
	if to.IsZero() {
		var around, emptyBuf, enemyBuf [8]domain.Square
		empty, enemy := emptyBuf[:0], enemyBuf[:0]
		for _, n := range m.Grid.Neighbours(around[:0], from) {
			switch lg.occupant(m, n, i) {
			case 0:
				empty = append(empty, n)
			case 1:
				enemy = append(enemy, n)
			}
		}
		if len(empty) > 1 {
			k := 0
			for _, s := range empty {
				if s != avoid {
					empty[k] = s
					k++
				}
			}
			empty = empty[:k]
		}
		label := "push:" + a.Name
		switch {
		case len(empty) > 0:
			to = empty[d.Intn(label, len(empty))]
		case len(enemy) > 0:
			to = enemy[d.Intn(label, len(enemy))]
		default:
			var ring []domain.Square
			for r := 2; to.IsZero() && r < max(m.Grid.Cols, m.Grid.Rows); r++ {
				empty = empty[:0]
				ring = m.Grid.RingSquares(ring[:0], from, r)
				for _, n := range ring {
					if lg.occupant(m, n, i) == 0 {
						empty = append(empty, n)
					}
				}
				if len(empty) > 0 {
					to = empty[d.Intn(label, len(empty))]
				}
			}
			if to.IsZero() {
				return
			}
		}
	}
	lg.sq.move(m, i, to)
	a.Plan = nil
	lg.Displaced[a.Name] = true
	if lg.Pushes == nil {
		lg.Pushes = make([]Push, 0, lg.fights)
	}
	lg.Pushes = append(lg.Pushes, Push{Army: a.Name, From: from, To: to, Reason: reason})
	if lg.sq.after(lg.sq.first(to)) < 0 {
		return // alone on its new square
	}
	// the losers of the battle won there are leaving: they take no part (R101)
	names := lg.staying(m, to, nil)
	if len(names) < 2 || !mixedNames(m, names) {
		return
	}
	// an empty army pushed into an enemy is destroyed, with no battle (B9), and so is an
	// empty enemy it is pushed into: being pushed into, it is engaged
	var empty []int
	for j := lg.sq.first(to); j >= 0; j = lg.sq.after(j) {
		if o := &m.Armies[j]; j != i && !lg.isLeaving(j) && domain.Enemy(o.Side, a.Side) && o.Empty() {
			empty = append(empty, j)
		}
	}
	if a.Empty() {
		empty = append(empty, i)
	}
	for _, j := range empty {
		lg.emptied(m, j)
	}
	if a.Empty() {
		return
	}
	names = lg.staying(m, to, names[:0])
	if len(names) < 2 || !mixedNames(m, names) {
		return
	}
	for k := range lg.Battles {
		if lg.Battles[k].Square == to {
			lg.Battles[k].Armies = names
			return
		}
	}
	lg.Battles = append(lg.Battles, domain.Battle{Square: to, Armies: names, Kind: domain.Push})
}

// staying appends to names, sorted, the armies on square s but the losers leaving it.
func (lg *Ledger) staying(m *domain.Map, s domain.Square, names []string) []string {
	for j := lg.sq.first(s); j >= 0; j = lg.sq.after(j) {
		if !lg.isLeaving(j) {
			names = append(names, m.Armies[j].Name)
		}
	}
	slices.Sort(names)
	return names
}

func mixedNames(m *domain.Map, names []string) bool {
	first := m.Army(names[0]).Side
	for _, n := range names[1:] {
		if domain.Enemy(first, m.Army(n).Side) {
			return true
		}
	}
	return false
}

// occupant classifies square s for army i: 0 empty, 1 held by one enemy army, 2 anything
// else (a friend, or a battle already there). The losers of a battle won this turn are
// leaving their square and do not count (R101).
func (lg *Ledger) occupant(m *domain.Map, s domain.Square, i int) int {
	n := 0
	side := m.Armies[i].Side
	for j := lg.sq.first(s); j >= 0; j = lg.sq.after(j) {
		switch {
		case j == i, lg.isLeaving(j):
		case !domain.Enemy(m.Armies[j].Side, side):
			n = 2
		default:
			n++
		}
	}
	return min(n, 2)
}

// emptyAround reports whether a neighbour of s is empty for army i (occupant 0).
func (lg *Ledger) emptyAround(m *domain.Map, s domain.Square, i int) bool {
	var around [8]domain.Square
	for _, n := range m.Grid.Neighbours(around[:0], s) {
		if lg.occupant(m, n, i) == 0 {
			return true
		}
	}
	return false
}

// isLeaving reports whether army j lost a battle this turn and has yet to be pushed.
func (lg *Ledger) isLeaving(j int) bool { return j < len(lg.leaving) && lg.leaving[j] }

// pushLosers pushes the losers that were neither killed nor captured off the battle's square
// (B8), the first to the judge's square when it is still free, and returns a partly converted
// loser to its old side (4.5).
func (lg *Ledger) pushLosers(m *domain.Map, b *domain.Battle, st *Settled, losers []int32, gone []string, loserTo domain.Square, d *domain.Draws) error {
	first := true
	lostAt := ""
	for k, n := range st.Losers {
		if slices.Contains(gone, n) {
			continue
		}
		i := int(losers[k])
		a := &m.Armies[i]
		if a.Capture != nil && !a.Capture.Converted {
			lg.liberate(a)
		}
		if lostAt == "" {
			lostAt = withSquare("lost the battle at ", b.Square)
		}
		to, reason := domain.Square{}, lostAt
		if first && !loserTo.IsZero() {
			if !m.Grid.Contains(loserTo) || !domain.Adjacent(loserTo, b.Square) {
				return domain.Errorf(domain.ErrInvalid, "the loser at %s cannot be pushed to %s: it is not next to the battle (B8)", b.Square, loserTo)
			}
			// the judge chose the square before the moves: B8's order still holds — an empty
			// square first, an enemy's only when no neighbour is empty; a square a friend or a
			// battle holds now, or an enemy's beside an empty one, makes the push random (R107)
			switch occ := lg.occupant(m, loserTo, i); {
			case occ == 0, occ == 1 && !lg.emptyAround(m, b.Square, i):
				to = loserTo
			case occ == 1:
				reason += "; " + loserTo.String() + " is held by an enemy while a square beside the battle is empty, so the push is random (B8)"
			default:
				reason += "; " + loserTo.String() + " was taken after the moves, so the push is random"
			}
		}
		first = false
		lg.pushAvoiding(m, i, to, domain.Square{}, d, reason)
	}
	return nil
}

// bumpWinners pushes the winners still on the battle's square off it, when the army they
// captured has nowhere to go and stays (4.5, B9).
func (lg *Ledger) bumpWinners(m *domain.Map, b *domain.Battle, winners []int32, d *domain.Draws) {
	for _, i := range winners {
		if i := int(i); m.Armies[i].At == b.Square {
			lg.pushAvoiding(m, i, domain.Square{}, domain.Square{}, d, "bumped out: the army it captured stays at "+b.Square.String())
		}
	}
}
