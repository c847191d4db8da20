package mercenary

import (
	"slices"
	"sync"

	"github.com/coalition-wargame/coalition/domain"
)

// board is the map indexed for the guidelines: who stands where, how strong each army is and
// which squares are near sites.
type board struct {
	m *domain.Map
	g domain.Grid
	// head and next list the armies on each square, in map order: head holds, per square
	// index, the first army's index into m.Armies plus one (0: nobody), next the next one's
	// on the same square plus one, per army (see on and after)
	head, next []int32
	// str is each army's Strength plus one, by index into m.Armies, once asked for (strength);
	// 0 until then.
	str []int
	// nearSite marks squares on or next to a base, portal or town (6.3.1).
	nearSite []bool
	// nearStronghold marks squares on or next to a base or portal (6.2.3).
	nearStronghold []bool
	// towns are the towns of the map.
	towns []*domain.Site
	// water lists the ocean squares, in reading order, once asked for (oceans).
	water []domain.Square
	// near is the memory of nearSite and nearStronghold.
	near []bool
	// team marks the armies of the two teams, every mercenary's enemies (M15), by index.
	team []bool
	// claimed, reach and opts are the suggester's scratch.
	claimed []bool
	reach   []domain.Square
	opts    []option
	weak    []spot
	strong  []domain.Square
	far     []int32
}

// boards keeps released boards, so that a plan or a check allocates no index of its own.
var boards sync.Pool

// zeroed is s with length n and every element zero, reusing s's memory when it has room.
func zeroed[T any](s []T, n int) []T {
	s = slices.Grow(s[:0], n)[:n]
	clear(s)
	return s
}

func newBoard(m *domain.Map) *board {
	b, _ := boards.Get().(*board)
	if b == nil {
		b = &board{}
	}
	g := m.Grid
	n := g.Size()
	b.m, b.g, b.water = m, g, nil
	b.head, b.next, b.str = zeroed(b.head, n), zeroed(b.next, len(m.Armies)), zeroed(b.str, len(m.Armies))
	b.near = zeroed(b.near, 2*n)
	b.nearSite, b.nearStronghold = b.near[:n:n], b.near[n:]
	b.towns = b.towns[:0]
	b.team = zeroed(b.team, len(m.Armies))
	for i := len(m.Armies) - 1; i >= 0; i-- {
		b.team[i] = m.Armies[i].Side.IsTeam()
		if s := m.Armies[i].At; g.Contains(s) {
			k := g.Index(s)
			b.next[i], b.head[k] = b.head[k], int32(i+1)
		}
	}
	for i := range m.Sites {
		s := &m.Sites[i]
		if !g.Contains(s.At) {
			continue
		}
		if s.Kind == domain.Town {
			b.towns = append(b.towns, s)
		}
		// the site's square and the 8 around it (G3)
		for c := max(int(s.At.Col)-1, 1); c <= min(int(s.At.Col)+1, g.Cols); c++ {
			for r := max(int(s.At.Row)-1, 1); r <= min(int(s.At.Row)+1, g.Rows); r++ {
				k := (r-1)*g.Cols + c - 1
				b.nearSite[k] = true
				if s.Kind != domain.Town {
					b.nearStronghold[k] = true
				}
			}
		}
	}
	return b
}

// release gives the board back for the next one; neither it nor what it returned may be used
// afterwards.
func (b *board) release() {
	b.m, b.water = nil, nil
	clear(b.towns)
	boards.Put(b)
}

// on is the index of the first army on square s, or -1; after is the next on its square.
func (b *board) on(s domain.Square) int32 {
	if !b.g.Contains(s) {
		return -1
	}
	return b.head[b.g.Index(s)] - 1
}

// after is the index of the army after army i on its square, or -1.
func (b *board) after(i int32) int32 { return b.next[i] - 1 }

// empty reports whether no army stands on square index k.
func (b *board) empty(k int) bool { return b.head[k] == 0 }

// oceans lists the ocean squares of the map in reading order.
func (b *board) oceans() []domain.Square {
	if b.water == nil {
		b.water = []domain.Square{}
		for k := 0; k < b.g.Size(); k++ {
			if sq := b.g.At(k); b.m.Terrain.At(sq) == domain.Ocean {
				b.water = append(b.water, sq)
			}
		}
	}
	return b.water
}

// strength is the Strength of army i of the map.
func (b *board) strength(i int32) int {
	if b.str[i] == 0 {
		b.str[i] = Strength(&b.m.Armies[i]) + 1
	}
	return b.str[i] - 1
}

// strengthOn is the strength of the armies on s that are enemies of side (all armies when
// side is empty).
func (b *board) strengthOn(s domain.Square, side domain.Side) int {
	n := 0
	for i := b.on(s); i >= 0; i = b.after(i) {
		if side == "" || domain.Enemy(b.m.Armies[i].Side, side) {
			n += b.strength(i)
		}
	}
	return n
}

// enemies lists the armies on s that are enemies of side (team armies, for a mercenary).
func (b *board) enemies(s domain.Square, side domain.Side) []*domain.Army {
	var out []*domain.Army
	for i := b.on(s); i >= 0; i = b.after(i) {
		if o := &b.m.Armies[i]; domain.Enemy(o.Side, side) {
			out = append(out, o)
		}
	}
	return out
}

// contested reports whether armies of different sides share square s: a battle is fought
// there this turn and nobody else may end in it (M12).
func (b *board) contested(s domain.Square) bool {
	first := b.on(s)
	if first < 0 {
		return false
	}
	for i := b.after(first); i >= 0; i = b.after(i) {
		if domain.Enemy(b.m.Armies[i].Side, b.m.Armies[first].Side) {
			return true
		}
	}
	return false
}

// fighting reports whether army a shares its square with an enemy (M1).
func (b *board) fighting(a *domain.Army) bool {
	for i := b.on(a.At); i >= 0; i = b.after(i) {
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
		for _, t := range b.towns {
			if t.Name == a.Home {
				return t
			}
		}
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
	for i := range a.Troops {
		t := &a.Troops[i]
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
