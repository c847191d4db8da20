// Rule B1: the battles fought this turn — every square where enemies stand as it opens, with the
// kind and attacker the lock that made it gave.

package battle

import (
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// Fought lists the battles fought this turn: every square where armies of different sides
// stand when the turn opens, with the kind and attacker the lock that made it gave (B1), in
// order of square.
func Fought(m *domain.Map) []domain.Battle {
	// armies by square, as Settle lists them; shared lists the squares that hold two armies
	// or more
	sc := getScratch()
	defer sc.release()
	g, q := m.Grid, &sc.sq
	q.g, q.head, q.next = g, zeroed(q.head, g.Size()), zeroed(q.next, len(m.Armies))
	head, next := q.head, q.next
	var buf [16]domain.Square
	shared := buf[:0]
	for i := len(m.Armies) - 1; i >= 0; i-- {
		s := m.Armies[i].At
		if !g.Contains(s) {
			return foughtOffGrid(m)
		}
		k := g.Index(s)
		if h := head[k]; h > 0 && next[h-1] == 0 {
			shared = append(shared, s)
		}
		next[i], head[k] = head[k], int32(i+1)
	}
	slices.SortFunc(shared, cmpSquare)
	battles, names := 0, 0
	for _, s := range shared {
		j := q.first(s)
		side, mixed, n := m.Armies[j].Side, false, 0
		for ; j >= 0; j = q.after(j) {
			mixed = mixed || domain.Enemy(m.Armies[j].Side, side)
			n++
		}
		if mixed {
			shared[battles] = s
			battles++
			names += n
		}
	}
	if battles == 0 {
		return nil
	}
	// one array holds the names of every battle, each its own part of it
	out, all := make([]domain.Battle, battles), make([]string, 0, names)
	for k, s := range shared[:battles] {
		from := len(all)
		for j := q.first(s); j >= 0; j = q.after(j) {
			all = append(all, m.Armies[j].Name)
		}
		out[k] = newBattle(m, s, all[from:len(all):len(all)])
	}
	return out
}

// newBattle is the battle on square s between the named armies, which it sorts, with the
// kind and attacker of the battle the lock made there (B1).
func newBattle(m *domain.Map, s domain.Square, names []string) domain.Battle {
	b := domain.Battle{Square: s, Kind: domain.Meeting, Armies: names}
	if prev := m.BattleAt(s); prev != nil {
		b.Kind, b.Attacker = prev.Kind, prev.Attacker
	}
	slices.Sort(b.Armies)
	if b.Attacker != "" && !slices.Contains(b.Armies, b.Attacker) {
		b.Attacker = ""
	}
	return b
}

// foughtOffGrid is Fought for a map with armies off its grid: the armies are sorted by square.
func foughtOffGrid(m *domain.Map) []domain.Battle {
	idx := make([]int32, len(m.Armies))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(a, b int32) int {
		if c := cmpSquare(m.Armies[a].At, m.Armies[b].At); c != 0 {
			return c
		}
		return int(a - b)
	})
	var out []domain.Battle
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && m.Armies[idx[j]].At == m.Armies[idx[i]].At {
			j++
		}
		if b, ok := battleOf(m, idx[i:j]); ok {
			out = append(out, b)
		}
		i = j
	}
	return out
}

// battleOf is the battle of the armies ids, in map order on one square, if two of them are
// enemies (B1).
func battleOf(m *domain.Map, ids []int32) (domain.Battle, bool) {
	first := &m.Armies[ids[0]]
	mixed := false
	for _, k := range ids[1:] {
		if domain.Enemy(m.Armies[k].Side, first.Side) {
			mixed = true
		}
	}
	if !mixed {
		return domain.Battle{}, false
	}
	names := make([]string, 0, len(ids))
	for _, k := range ids {
		names = append(names, m.Armies[k].Name)
	}
	return newBattle(m, first.At, names), true
}

func cmpSquare(a, b domain.Square) int {
	if a.Col != b.Col {
		return int(a.Col) - int(b.Col)
	}
	return int(a.Row) - int(b.Row)
}
