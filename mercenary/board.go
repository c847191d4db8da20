package mercenary

import (
	"github.com/coalition-wargame/coalition/domain"
)

// board is the map indexed for the guidelines: who stands where and which squares are near
// sites.
type board struct {
	m *domain.Map
	g domain.Grid
	// occ lists, per square index, the armies on it (indexes into m.Armies).
	occ [][]int32
	// nearSite marks squares on or next to a base, portal or town (6.3.1).
	nearSite []bool
	// nearStronghold marks squares on or next to a base or portal (6.2.3).
	nearStronghold []bool
	// towns are the towns of the map.
	towns []*domain.Site
}

func newBoard(m *domain.Map) *board {
	g := m.Grid
	b := &board{m: m, g: g, occ: make([][]int32, g.Size()), nearSite: make([]bool, g.Size()), nearStronghold: make([]bool, g.Size())}
	for i := range m.Armies {
		if s := m.Armies[i].At; g.Contains(s) {
			k := g.Index(s)
			b.occ[k] = append(b.occ[k], int32(i))
		}
	}
	var buf []domain.Square
	for i := range m.Sites {
		s := &m.Sites[i]
		if !g.Contains(s.At) {
			continue
		}
		if s.Kind == domain.Town {
			b.towns = append(b.towns, s)
		}
		buf = append(g.Neighbours(buf[:0], s.At), s.At)
		for _, n := range buf {
			k := g.Index(n)
			b.nearSite[k] = true
			if s.Kind != domain.Town {
				b.nearStronghold[k] = true
			}
		}
	}
	return b
}

// at lists the armies on square s.
func (b *board) at(s domain.Square) []int32 {
	if !b.g.Contains(s) {
		return nil
	}
	return b.occ[b.g.Index(s)]
}

// enemies lists the armies on s that are enemies of side (team armies, for a mercenary).
func (b *board) enemies(s domain.Square, side domain.Side) []*domain.Army {
	var out []*domain.Army
	for _, i := range b.at(s) {
		if o := &b.m.Armies[i]; domain.Enemy(o.Side, side) {
			out = append(out, o)
		}
	}
	return out
}

// contested reports whether armies of different sides share square s: a battle is fought
// there this turn and nobody else may end in it (M12).
func (b *board) contested(s domain.Square) bool {
	ids := b.at(s)
	for _, i := range ids[min(1, len(ids)):] {
		if domain.Enemy(b.m.Armies[i].Side, b.m.Armies[ids[0]].Side) {
			return true
		}
	}
	return false
}

// fighting reports whether army a shares its square with an enemy (M1).
func (b *board) fighting(a *domain.Army) bool {
	for _, i := range b.at(a.At) {
		if domain.Enemy(b.m.Armies[i].Side, a.Side) {
			return true
		}
	}
	return false
}

// home is a town defender's town: the one Army.Home names, else the town nearest its square
// (ties: the one listed first), or nil when the map has no town.
func (b *board) home(a *domain.Army) *domain.Site {
	if a.Home != "" {
		if s := b.m.Site(a.Home); s != nil && s.Kind == domain.Town {
			return s
		}
	}
	var best *domain.Site
	for _, t := range b.towns {
		if best == nil || domain.Steps(a.At, t.At) < domain.Steps(a.At, best.At) {
			best = t
		}
	}
	return best
}

// Strength estimates an army's fighting weight for the guidelines: the sum over its living
// troops of count × (power + toughness). An army whose troops are unknown counts as full for
// its rank, each slot filled with creatures of the slot's largest size.
func Strength(a *domain.Army) int {
	n := 0
	if a.Troops == nil {
		for s := 1; s <= domain.Slots; s++ {
			n += domain.SlotCapacity(s) * 2 * a.Rank.SlotSize(s)
		}
		return n
	}
	for _, t := range a.Troops {
		n += t.Alive * (t.Size.Power + t.Size.Toughness)
	}
	return n
}

// shortestRoutes lists every shortest route from a to b in single steps (M4), both ends
// included, in a fixed order; nil when the squares are more than 3 steps apart.
func shortestRoutes(a, b domain.Square) [][]domain.Square {
	if domain.Steps(a, b) > 3 {
		return nil
	}
	var out [][]domain.Square
	var walk func(path []domain.Square)
	walk = func(path []domain.Square) {
		cur := path[len(path)-1]
		if cur == b {
			out = append(out, append([]domain.Square(nil), path...))
			return
		}
		if cur.Col != b.Col {
			next := cur
			if b.Col > cur.Col {
				next.Col++
			} else {
				next.Col--
			}
			walk(append(path, next))
		}
		if cur.Row != b.Row {
			next := cur
			if b.Row > cur.Row {
				next.Row++
			} else {
				next.Row--
			}
			walk(append(path, next))
		}
	}
	walk(append(make([]domain.Square, 0, 4), a))
	return out
}
