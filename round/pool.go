package round

// This file holds the creature pool the generator draws troop lists from: the card data's
// creatures that the troop checker accepts, by size and colour.

import (
	"slices"
	"strconv"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/roster"
)

// The colour classes of the pool: the five colours, multicoloured without white or green (which
// Phyrexia may use), multicoloured with white or green, and colourless (2.2.1).
const (
	classMulti   = 5
	classMultiWG = 6
	classNone    = 7
	classes      = 8
	largest      = 9 // the largest creature an army can field is 9/9 (2.1.1)
)

// Pool is the creatures troop lists are drawn from: by size — the larger of power and
// toughness, 1–9 — and colour class, each list sorted by name.
type Pool struct {
	troops []domain.Troop
	by     [largest + 1][classes][]int32
}

// NewPool indexes creatures (each name once, the first kept) for the generator.
func NewPool(troops []domain.Troop) *Pool {
	p := &Pool{troops: slices.Clone(troops)}
	slices.SortStableFunc(p.troops, func(a, b domain.Troop) int { return strings.Compare(a.Creature, b.Creature) })
	p.troops = slices.CompactFunc(p.troops, func(a, b domain.Troop) bool { return a.Creature == b.Creature })
	for i := range p.troops {
		t := &p.troops[i]
		k := max(t.Size.Power, t.Size.Toughness, 1)
		if k > largest {
			continue
		}
		c := class(t)
		p.by[k][c] = append(p.by[k][c], int32(i))
	}
	return p
}

// LegalPool is the creatures of troops (the card data's creature pool) that the troop checker
// accepts alone in an army, with neither problem nor warning: the generator's lists then pass
// the checker by construction.
func LegalPool(cat roster.Cards, troops []domain.Troop) *Pool {
	var ok []domain.Troop
	for _, t := range troops {
		if max(t.Size.Power, t.Size.Toughness) > largest {
			continue
		}
		rep := roster.Check(cat, roster.List{{Creature: t.Creature, Count: 1000}}, roster.Army{Name: "Pool", Side: domain.Mercenary, Rank: domain.General})
		if rep.OK() && len(rep.Warnings) == 0 && len(rep.Troops) == 1 {
			rt := rep.Troops[0]
			ok = append(ok, domain.Troop{Creature: rt.Creature, Size: rt.Size, Colors: rt.Colors})
		}
	}
	return NewPool(ok)
}

// Len is the number of creatures in the pool.
func (p *Pool) Len() int { return len(p.troops) }

// class is a creature's colour class.
func class(t *domain.Troop) int {
	var magic []domain.Color
	for _, c := range t.Colors {
		if c.IsMagic() && !slices.Contains(magic, c) {
			magic = append(magic, c)
		}
	}
	switch len(magic) {
	case 0:
		return classNone
	case 1:
		return slices.Index(domain.MagicColors, magic[0])
	}
	if slices.Contains(magic, domain.White) || slices.Contains(magic, domain.Green) {
		return classMultiWG
	}
	return classMulti
}

// classesFor are the colour classes an army may field (2.2.1): a Coalition army its factions'
// (multicoloured for 5-Color, colourless for Colorless), Phyrexia no white or green, mercenaries
// anything.
func classesFor(side domain.Side, colors []domain.Color) []int {
	switch side {
	case domain.Coalition:
		var out []int
		for _, c := range colors {
			switch c = faction(c); c {
			case domain.FiveColor:
				out = append(out, classMulti, classMultiWG)
			case domain.Colorless:
				out = append(out, classNone)
			default:
				if i := slices.Index(domain.MagicColors, c); i >= 0 {
					out = append(out, i)
				}
			}
		}
		slices.Sort(out)
		return slices.Compact(out)
	case domain.Phyrexia:
		return []int{1, 2, 3, classMulti, classNone}
	}
	return []int{0, 1, 2, 3, 4, classMulti, classMultiWG, classNone}
}

// draw picks a creature of size k (or, when there is none, of the largest size below it) in the
// classes given, by the draw named label: the i-th of the classes' lists one after another, or
// the first after it not among used; false when none is left.
func (p *Pool) draw(d *domain.Draws, label string, k int, cls []int, used []string) (domain.Troop, bool) {
	for size := min(k, largest); size >= 1; size-- {
		total := 0
		for _, c := range cls {
			total += len(p.by[size][c])
		}
		if total <= len(used) {
			continue
		}
		i := d.Intn(label, total)
		for step := 0; step < total; step++ {
			j := (i + step) % total
			for _, c := range cls {
				if l := p.by[size][c]; j < len(l) {
					if t := p.troops[l[j]]; !slices.Contains(used, t.Creature) {
						return t, true
					}
					break
				} else {
					j -= len(l)
				}
			}
		}
	}
	return domain.Troop{}, false
}

// Troops draws a troop list for an army of a rank, side and colours: for each slot a creature of
// the slot's size the army may field (one it fits and the slot below does not, or the largest
// smaller one), drawn with the label prefix + slot number, at the slot's full count (2.1).
func (p *Pool) Troops(d *domain.Draws, prefix string, rank domain.Rank, side domain.Side, colors []domain.Color) []domain.Troop {
	var out []domain.Troop
	var used []string
	cls := classesFor(side, colors)
	for slot := 1; slot <= domain.Slots; slot++ {
		t, ok := p.draw(d, prefix+strconv.Itoa(slot), rank.SlotSize(slot), cls, used)
		if !ok {
			continue
		}
		used = append(used, t.Creature)
		t.Slot, t.Full, t.Alive = slot, domain.SlotCapacity(slot), domain.SlotCapacity(slot)
		t.Colors = slices.Clone(t.Colors)
		out = append(out, t)
	}
	return out
}
