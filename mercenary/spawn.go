package mercenary

// This file holds the raiders' abilities at the update (6.3.2): the spawn roll, the server's
// placement of a spawned raider when the AI plays, and Disband.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// Spawn is one update's raider spawn roll (6.3.2), and where the server placed the raider when
// it places it (UpdateOptions.Place); otherwise the mercenary judge places it.
type Spawn struct {
	// Raiders is the number of raider armies on the map when the roll is made.
	Raiders int `json:"raiders"`
	// Chance is how many faces of the d20 spawn a raider; 0 when no roll is made.
	Chance int `json:"chance"`
	// Roll is the d20 (label "raider-spawn"), 0 when no roll is made.
	Roll int `json:"roll,omitempty"`
	// Spawned is set when a raider spawns.
	Spawned bool `json:"spawned"`
	// RankRoll is the second d20 (label "raider-spawn-rank"), made only on a spawn.
	RankRoll int `json:"rank_roll,omitempty"`
	// Rank is the new raider's size class: Lt Commander (2/2–5/5) or Lieutenant (1/1–4/4).
	Rank domain.Rank `json:"rank,omitempty"`
	// Army is the name of the raider the server placed, At its square, Squares how many squares
	// away from every site and army it was drawn among (label "raider-spawn-square"), and Troops
	// its troop list, one creature a slot drawn from the creature pool ("raider-troop:<slot>").
	Army    string         `json:"army,omitempty"`
	At      domain.Square  `json:"at,omitzero"`
	Squares int            `json:"squares,omitempty"`
	Troops  []domain.Troop `json:"troops,omitempty"`
}

// UpdateOptions are what the mercenary update needs besides the map, the squares where the
// turn opened and the seed.
type UpdateOptions struct {
	// Disband names the armies whose order that counts this turn is to disband (6.3.2).
	Disband []string
	// Fought are the battles fought this turn (B1): their armies fight and do not disband.
	Fought []domain.Battle
	// Place is set when the server places a spawned raider (the mercenary AI is on); otherwise
	// the mercenary judge does.
	Place bool
	// Creatures is the pool a placed raider's troops are drawn from (the card data): each
	// entry's creature name, size and colours.
	Creatures []domain.Troop
	// Turn is the number of the turn the update ends, for a placed raider's name.
	Turn int
}

// SpawnChance is how many of 20 faces spawn a raider with the given number of raiders on the
// map (6.3.2): 3 with 0 or 1, 2 with 2, 1 with 3 or 4, none with 5 or more.
func SpawnChance(raiders int) int {
	switch {
	case raiders >= MaxRaiders:
		return 0
	case raiders >= 3:
		return 1
	case raiders == 2:
		return 2
	}
	return 3
}

// SpawnRank is the size class of a new raider for its rank roll (6.3.2): 1–7 (7/20) a 2/2 rank
// (Lt Commander class), 8–20 a 1/1 rank (Lieutenant class).
func SpawnRank(roll int) domain.Rank {
	if roll <= 7 {
		return domain.LtCommander
	}
	return domain.Lieutenant
}

// spawnLine is the report's line for a spawn roll that spawns nothing, as say would print it:
// "Raider spawn: <raiders><text>", then, when chance is not 0, "<chance> or less spawns one;
// rolled <roll>: no raider spawns (6.3.2).".
func spawnLine(raiders int, text string, chance, roll int) string {
	var buf [128]byte
	b := append(buf[:0], "Raider spawn: "...)
	b = strconv.AppendInt(b, int64(raiders), 10)
	b = append(b, text...)
	if chance != 0 {
		b = strconv.AppendInt(b, int64(chance), 10)
		b = append(b, " or less spawns one; rolled "...)
		b = strconv.AppendInt(b, int64(roll), 10)
		b = append(b, ": no raider spawns (6.3.2)."...)
	}
	return string(b)
}

// spawned says what became of a raider that spawned.
func (r *Report) spawned(s *Spawn, placing bool) {
	head := fmt.Sprintf("Raider spawn: %d raiders on the map, a d20 of %d or less spawns one; rolled %d: a raider spawns. Rank roll %d (7 or less is a 2/2 rank): a %s-class raider (%s)",
		s.Raiders, s.Chance, s.Roll, s.RankRoll, s.Rank.Name(domain.Coalition), classSizes(s.Rank))
	switch {
	case !placing:
		r.say("%s; the mercenary judge places it away from bases (6.3, 6.3.2).", head)
	case s.Army == "":
		r.say("%s; no square is away from every site and army, so the mercenary judge places it (6.3, 6.3.2).", head)
	default:
		troops := "its troops are not drawn: the server has no creature data, so the mercenary judge writes them"
		if len(s.Troops) > 0 {
			parts := make([]string, len(s.Troops))
			for i, t := range s.Troops {
				parts[i] = fmt.Sprintf("%s %s (%s)", thousands(t.Alive), t.Creature, t.Size)
			}
			troops = "with " + strings.Join(parts, ", ")
		}
		r.say("%s, %s, placed at %s (drawn among %d squares away from every base, portal, town and army), %s (6.3, 6.3.2).", head, s.Army, s.At, s.Squares, troops)
	}
}

func classSizes(r domain.Rank) string {
	return fmt.Sprintf("%d/%d–%d/%d", r.SlotSize(1), r.SlotSize(1), r.SlotSize(domain.Slots), r.SlotSize(domain.Slots))
}

// Raiders counts the raider armies on the map (6.3).
func Raiders(m *domain.Map) int {
	n := 0
	for i := range m.Armies {
		if a := &m.Armies[i]; a.Side == domain.Mercenary && a.Faction == domain.Raider {
			n++
		}
	}
	return n
}

// rollSpawn makes the update's raider spawn roll (6.3.2). Its one draw or two are all the
// update draws from the seed, so it makes them with Seed.IntnOnce, which keeps no HMAC.
func rollSpawn(m *domain.Map, seed domain.Seed) Spawn {
	s := Spawn{Raiders: Raiders(m)}
	s.Chance = SpawnChance(s.Raiders)
	if s.Chance == 0 {
		return s
	}
	s.Roll = seed.IntnOnce("raider-spawn", 20) + 1
	if s.Roll > s.Chance {
		return s
	}
	s.Spawned = true
	s.RankRoll = seed.IntnOnce("raider-spawn-rank", 20) + 1
	s.Rank = SpawnRank(s.RankRoll)
	return s
}

// SpawnSquares lists the squares where a spawned raider may be placed (6.3 "in random squares
// away from bases"): on the grid, not on or next to any base, portal or town, destroyed or
// not, and not on or next to any army, in reading order (by letter, then number).
func SpawnSquares(m *domain.Map) []domain.Square {
	g := m.Grid
	near := make([]bool, g.Size())
	mark := func(s domain.Square) {
		for dc := -1; dc <= 1; dc++ {
			for dr := -1; dr <= 1; dr++ {
				c, r := int(s.Col)+dc, int(s.Row)+dr
				if sq := (domain.Square{Col: uint8(max(c, 0)), Row: uint8(max(r, 0))}); c >= 1 && r >= 1 && g.Contains(sq) {
					near[g.Index(sq)] = true
				}
			}
		}
	}
	for i := range m.Sites {
		mark(m.Sites[i].At)
	}
	for i := range m.Armies {
		mark(m.Armies[i].At)
	}
	var out []domain.Square
	for k, taken := range near {
		if !taken {
			out = append(out, g.At(k))
		}
	}
	return out
}

// SpawnTroops draws a raider's troop list of rank r from the creature pool (6.3.2 "a 1/1 rank",
// "a 2/2 rank"): for each slot, one creature of the slot's size — it fits the slot and not the
// slot below — drawn with Intn("raider-troop:<slot>", n) among the pool's creatures of that size
// sorted by name (each name once), at the slot's full count (2.1). A slot with no creature of its
// size in the pool stays empty; an empty pool gives nil (troops unknown).
func SpawnTroops(r domain.Rank, pool []domain.Troop, seed domain.Seed) []domain.Troop {
	if len(pool) == 0 {
		return nil
	}
	out := []domain.Troop{}
	// the creatures of each slot's size, as indexes into the pool (a pool sorted by name, as
	// the card catalogue's is, needs no sort here)
	fit := make([]int32, 0, len(pool))
	byName := func(a, b int32) int { return strings.Compare(pool[a].Creature, pool[b].Creature) }
	for slot := 1; slot <= domain.Slots; slot++ {
		below := 0
		if slot > 1 {
			below = r.SlotSize(slot - 1)
		}
		fit = fit[:0]
		for i := range pool {
			if t := &pool[i]; t.Size.Fits(r.SlotSize(slot)) && (slot == 1 || !t.Size.Fits(below)) {
				fit = append(fit, int32(i))
			}
		}
		if !slices.IsSortedFunc(fit, byName) {
			slices.SortStableFunc(fit, byName)
		}
		fit = slices.CompactFunc(fit, func(a, b int32) bool { return pool[a].Creature == pool[b].Creature })
		if len(fit) == 0 {
			continue
		}
		c := &pool[fit[seed.IntnOnce("raider-troop:"+strconv.Itoa(slot), len(fit))]]
		n := domain.SlotCapacity(slot)
		out = append(out, domain.Troop{Creature: c.Creature, Size: c.Size, Colors: slices.Clone(c.Colors), Slot: slot, Alive: n, Full: n})
	}
	return out
}

// place puts a spawned raider on the map (6.3, 6.3.2): a square drawn with
// Intn("raider-spawn-square", n) among SpawnSquares, troops by SpawnTroops, no controller (the
// mercenary judge orders it), named "Raiders of Turn <turn>".
func place(m *domain.Map, s *Spawn, seed domain.Seed, opt UpdateOptions) {
	squares := SpawnSquares(m)
	if len(squares) == 0 {
		return
	}
	s.Squares = len(squares)
	s.At = squares[seed.IntnOnce("raider-spawn-square", len(squares))]
	s.Army = fmt.Sprintf("Raiders of Turn %d", opt.Turn)
	for k := 2; m.Army(s.Army) != nil; k++ {
		s.Army = fmt.Sprintf("Raiders of Turn %d (%d)", opt.Turn, k)
	}
	s.Troops = SpawnTroops(s.Rank, opt.Creatures, seed)
	m.Armies = append(m.Armies, domain.Army{Name: s.Army, Side: domain.Mercenary, Rank: s.Rank, At: s.At, Faction: domain.Raider, Troops: slices.Clone(s.Troops)})
}

// disband takes off the map each raider of opt.Disband that may disband this turn (6.3.2): a
// raider in a battle fought this turn fights instead (3.2.1), and one that an enemy ended the
// turn with is caught and fights next turn (read as D1 reads days). Anything else ordered to
// disband is not a raider and holds.
func disband(m *domain.Map, opt UpdateOptions, r *Report) {
	var gone []string
	for _, name := range opt.Disband {
		a := m.Army(name)
		if a == nil {
			continue
		}
		if a.Side != domain.Mercenary || a.Faction != domain.Raider {
			r.say("%s was ordered to disband, but only a raider may disband (6.3.2): it holds.", a.Name)
			continue
		}
		if b := battleOf(opt.Fought, a.Name); b != nil {
			r.say("%s was ordered to disband, but it fights at %s this turn (3.2.1): it stays on the map.", a.Name, b.Square)
			continue
		}
		if o := enemyOn(m, a); o != nil {
			r.say("%s was disbanding, but %s caught it at %s: it fights next turn and stays on the map (6.3.2).", a.Name, o.Name, a.At)
			continue
		}
		gone = append(gone, a.Name)
		r.Disbanded = append(r.Disbanded, a.Name)
		r.say("%s disbands at %s and leaves the map (6.3.2).", a.Name, a.At)
	}
	if len(gone) > 0 {
		m.Armies = slices.DeleteFunc(m.Armies, func(a domain.Army) bool { return slices.Contains(gone, a.Name) })
	}
}

func battleOf(bs []domain.Battle, army string) *domain.Battle {
	for i := range bs {
		if slices.Contains(bs[i].Armies, army) {
			return &bs[i]
		}
	}
	return nil
}

func enemyOn(m *domain.Map, a *domain.Army) *domain.Army {
	for i := range m.Armies {
		if o := &m.Armies[i]; o.At == a.At && domain.Enemy(o.Side, a.Side) {
			return o
		}
	}
	return nil
}
