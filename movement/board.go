// Rule M1 and the checks' index: the map as the turn opens, its armies by name and by square, and
// which of them fight.

package movement

import (
	"math/bits"
	"sync"

	"github.com/coalition-wargame/coalition/domain"
)

// board is the map as it stands when the turn opens, indexed for the checks.
type board struct {
	m *domain.Map
	// names is a hash table of army index + 1 (0 = empty slot) by exact name (nameHash),
	// with linear probing; its length is a power of two at least twice the number of armies.
	names []int32
	// shift takes a name's slot from the top bits of its hash.
	shift uint8
	// head and next list the armies on each square: head[square index] is the first army's
	// index + 1 (0 = none), next[army] the next one's.
	head, next []int32
	// fighting marks armies that share their square with an enemy (M1).
	fighting []bool
	order    []postKey
	// ints is the array the names, head and next tables share.
	ints []int32
	// arena is where the turn's orders take their legs and routes from.
	arena arena
	// overrule is set while a line the battle judge accepted is checked (ruling.go): its
	// controller and timing are not questioned.
	overrule bool
}

// boards keeps boards, with their tables, between calls: only the fighting marks and the
// orders' legs and routes outlive a check.
var boards = sync.Pool{New: func() any { return new(board) }}

// newBoard indexes the map; release gives the board back when it is no longer used.
func newBoard(m *domain.Map) *board {
	n := len(m.Armies)
	slots, shift := 8, 61
	for slots < 2*n {
		slots, shift = slots*2, shift-1
	}
	b := boards.Get().(*board)
	// the board's three int32 tables share one array
	b.ints = resize(b.ints, slots+m.Grid.Size()+n)
	ints := b.ints
	b.m, b.names, b.shift, b.head, b.next = m, ints[:slots:slots], uint8(shift), ints[slots:slots+m.Grid.Size()], ints[slots+m.Grid.Size():]
	b.fighting = make([]bool, n)
	for i := range m.Armies {
		if k := b.slot(m.Armies[i].Name); b.names[k] == 0 {
			b.names[k] = int32(i + 1)
		}
	}
	for i := n - 1; i >= 0; i-- {
		a := &m.Armies[i]
		if m.Grid.Contains(a.At) {
			k := m.Grid.Index(a.At)
			b.next[i] = b.head[k]
			b.head[k] = int32(i + 1)
		}
	}
	for i := range m.Armies {
		for j := b.next[i]; j > 0; j = b.next[j-1] {
			if domain.Enemy(m.Armies[i].Side, m.Armies[j-1].Side) {
				b.fighting[i], b.fighting[j-1] = true, true
			}
		}
	}
	return b
}

// release gives the board back for another check, keeping none of the map or the orders.
func (b *board) release() {
	b.m, b.fighting, b.arena = nil, nil, arena{}
	boards.Put(b)
}

// slot is where the names table holds the army called name, or the empty slot where it
// would go.
func (b *board) slot(name string) int {
	mask := len(b.names) - 1
	for k := int(nameHash(name) >> b.shift); ; k = (k + 1) & mask {
		if j := b.names[k]; j == 0 || b.m.Armies[j-1].Name == name {
			return k
		}
	}
}

// nameHash mixes a name's length with its first and last eight bytes, which tell the armies of
// a map apart ("Darkhand12", "Coalition 3"), into its top bits: a collision costs only a probe.
func nameHash(s string) uint64 {
	h := uint64(len(s))
	if n := len(s); n >= 8 {
		h ^= load64(s) ^ bits.RotateLeft64(load64(s[n-8:]), 29)
	} else {
		for i := 0; i < n; i++ {
			h = h<<8 | uint64(s[i])
		}
	}
	return h * 0x9e3779b97f4a7c15
}

// load64 reads the first eight bytes of s, little-endian.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// army finds an army by name as players write it, or -1.
func (b *board) army(name string) int {
	if j := b.names[b.slot(name)]; j > 0 {
		return int(j - 1)
	}
	for i := range b.m.Armies {
		if domain.SameName(b.m.Armies[i].Name, name) {
			return i
		}
	}
	return -1
}

// first gives the first army on square s, in map order, or -1; b.next[id] - 1 is the next.
func (b *board) first(s domain.Square) int32 {
	if !b.m.Grid.Contains(s) {
		return -1
	}
	return b.head[b.m.Grid.Index(s)] - 1
}
