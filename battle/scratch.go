// Working memory of Fought, Settle and Update, kept between locks.

package battle

import (
	"sync"

	"github.com/coalition-wargame/coalition/domain"
)

// scratch is working memory that Fought, Settle and Update take from scratchPool and give
// back when they return; nothing in it outlives the call that took it.
type scratch struct {
	sq squares
	// Update's: the marks of names, the sites by square, what the day count did for each
	// army, and the armies that may destroy a site or count toward a win
	marks         nameSet
	sites         []int16
	day           []uint8
	destroy, wins []int32
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func getScratch() *scratch { return scratchPool.Get().(*scratch) }

func (sc *scratch) release() { scratchPool.Put(sc) }

// zeroed returns s with length n and every element zero, reusing its memory when it fits.
func zeroed[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// squares lists the armies on each square: head[square] is the first army's index + 1,
// next[army] the next one's, in map order.
type squares struct {
	g          domain.Grid
	head, next []int32
}

// index lists the armies of m by square, in the scratch's memory; armies off the grid are in
// no list.
func (sc *scratch) index(m *domain.Map) *squares {
	q := &sc.sq
	g := m.Grid
	q.g = g
	head, next := zeroed(q.head, g.Size()), zeroed(q.next, len(m.Armies))
	q.head, q.next = head, next
	for i := len(m.Armies) - 1; i >= 0; i-- {
		if s := m.Armies[i].At; g.Contains(s) {
			k := g.Index(s)
			next[i], head[k] = head[k], int32(i+1)
		}
	}
	return q
}

// first is the index of the first army on square s, or -1.
func (q *squares) first(s domain.Square) int {
	if !q.g.Contains(s) {
		return -1
	}
	return int(q.head[q.g.Index(s)]) - 1
}

// after is the index of the army after army i on its square, or -1.
func (q *squares) after(i int) int { return int(q.next[i]) - 1 }

// held reports whether any army stands on square s.
func (q *squares) held(s domain.Square) bool { return q.g.Contains(s) && q.head[q.g.Index(s)] > 0 }

// move puts army i on square to (the zero square: off the map), keeping the lists right.
func (q *squares) move(m *domain.Map, i int, to domain.Square) {
	a := &m.Armies[i]
	if from := a.At; q.g.Contains(from) {
		k := q.g.Index(from)
		if q.head[k] == int32(i+1) {
			q.head[k] = q.next[i]
		} else {
			for j := q.head[k]; j > 0; j = q.next[j-1] {
				if q.next[j-1] == int32(i+1) {
					q.next[j-1] = q.next[i]
					break
				}
			}
		}
	}
	a.At = to
	q.next[i] = 0
	if q.g.Contains(to) {
		k := q.g.Index(to)
		q.next[i], q.head[k] = q.head[k], int32(i+1)
	}
}

// indexOf is the index of army a in m.Armies.
func indexOf(m *domain.Map, a *domain.Army) int {
	for i := range m.Armies {
		if &m.Armies[i] == a {
			return i
		}
	}
	return -1
}

// nameSet holds bits for names, compared exactly, in an open-addressed table.
type nameSet struct {
	keys []string
	bits []uint8 // 0: a free slot
	mask uint64
}

// hashName hashes a name from its length and its first and last 8 bytes.
func hashName(s string) uint64 {
	var a, b uint64
	if n := len(s); n >= 8 {
		a = uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		t := s[n-8:]
		b = uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
	} else {
		for i := 0; i < n; i++ {
			a = a<<8 | uint64(s[i])
		}
	}
	h := (a^uint64(len(s)))*0x9e3779b97f4a7c15 + b
	h ^= h >> 32
	h *= 0xc2b2ae3d27d4eb4f
	return h ^ h>>29
}

// reset empties the set and makes room for n names.
func (s *nameSet) reset(n int) {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	s.keys = zeroed(s.keys, size)
	s.bits = zeroed(s.bits, size)
	s.mask = uint64(size - 1)
}

// add sets bits b for name.
func (s *nameSet) add(name string, b uint8) {
	i := hashName(name) & s.mask
	for s.bits[i] != 0 {
		if s.keys[i] == name {
			s.bits[i] |= b
			return
		}
		i = (i + 1) & s.mask
	}
	s.keys[i], s.bits[i] = name, b
}

// get returns the bits set for name.
func (s *nameSet) get(name string) uint8 {
	i := hashName(name) & s.mask
	for s.bits[i] != 0 {
		if s.keys[i] == name {
			return s.bits[i]
		}
		i = (i + 1) & s.mask
	}
	return 0
}
