// Package mercenary is the mercenary judge's rule engine (chapter 6): the factions' abilities
// applied at every update and checks of the AI guidelines for the judge's orders. It imports
// only domain and the standard library.
//
// Readings chosen where chapter 6 is silent:
//   - Town defender healing (6.1.2): a town defender heals at an update when it stood on its
//     home town (Army.Home) when the turn opened, stands there after the update, and no enemy
//     army shares the square with it. A defender that lost a battle was pushed off (B8) and so
//     does not heal; one that won heals; one whose battle nobody won, or that an enemy ended the
//     turn with, was not holding its town this turn and does not heal (as D1 does for days).
//     A defender with no home town on record does not heal.
//   - The 500 soldiers go to slot 1 (the lowest rank, smallest creatures), creature by
//     creature in the order the army lists them, each up to its full count; what is left goes
//     up to slot 2, and so on. Nothing ever heals past its full count.
//   - Raider spawning (6.3.2): the rulebook's "number of mercenaries" is read as the number of
//     raider armies, the only reading that fits the cap of 5 and the counts 0–4.
//   - "At War" healing (6.2.2): each troop of the chosen theme army gets back a quarter of its
//     full count (rounded down), never past its full count.
//
// Random draws (B6), each an Intn of the turn's seed under its label (domain.Seed.Intn):
//   - "raider-spawn": d20 at every update while fewer than 5 raiders are on the map;
//   - "raider-spawn-rank": d20, drawn only when a raider spawns (7 or less: a 2/2 rank);
//   - "theme-at-war:<name key of the killed town defender>": index into the candidate theme
//     armies sorted by name (DeclareWar);
//   - "mercenary-suggest:<name key of the army>": index into the tied best choices of Suggest,
//     in order of their squares (number, then letter); not part of the lock.
package mercenary

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// Judge is the author name of the mercenary judge's posts (M15).
const Judge = "mercenary-judge"

// TownDefenderHeal is how many soldiers a town defender heals each turn in its home town (6.1.2).
const TownDefenderHeal = 500

// MaxRaiders is the number of raider armies at which no more spawn (6.3.2).
const MaxRaiders = 5

// Report is what the mercenary rules did at an update.
type Report struct {
	// Healed are town defenders healed in their home town (6.1.2): army → troops.
	Healed map[string]int `json:"healed,omitempty"`
	// HealedCreatures details Healed: army → creature → troops.
	HealedCreatures map[string]map[string]int `json:"healed_creatures,omitempty"`
	// Spawn is the raider spawn roll of this update (6.3.2).
	Spawn Spawn `json:"spawn"`
	// Lines say what was done in plain words, for the lock report.
	Lines []string `json:"lines"`
}

// String is the report's lines, one a line.
func (r *Report) String() string { return strings.Join(r.Lines, "\n") }

func (r *Report) say(format string, args ...any) {
	r.Lines = append(r.Lines, fmt.Sprintf(format, args...))
}

// Spawn is one update's raider spawn roll (6.3.2). The server does not place the raider: the
// mercenary judge does.
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

// Update applies the mercenaries' abilities at an update, after the battle update: town
// defenders heal in their home towns (6.1.2) and a raider may spawn (6.3.2). start is every
// army's square when the turn opened.
func Update(m *domain.Map, start map[string]domain.Square, seed domain.Seed) *Report {
	r := &Report{Lines: make([]string, 0, 1)}
	for i := range m.Armies {
		a := &m.Armies[i]
		if a.Side == domain.Mercenary && a.Faction == domain.TownDefender {
			healDefender(m, a, start, r)
		}
	}
	r.Spawn = rollSpawn(m, seed)
	s := r.Spawn
	switch {
	case s.Chance == 0:
		r.Lines = append(r.Lines, spawnLine(s.Raiders, " raiders are on the map, so none can spawn (6.3.2).", 0, 0))
	case !s.Spawned:
		r.Lines = append(r.Lines, spawnLine(s.Raiders, " raiders on the map, a d20 of ", s.Chance, s.Roll))
	default:
		r.say("Raider spawn: %d raiders on the map, a d20 of %d or less spawns one; rolled %d: a raider spawns. Rank roll %d (7 or less is a 2/2 rank): a %s-class raider (%s); the mercenary judge places it away from bases (6.3, 6.3.2).",
			s.Raiders, s.Chance, s.Roll, s.RankRoll, s.Rank.Name(domain.Coalition), classSizes(s.Rank))
	}
	return r
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

// healDefender heals a town defender that held its home town all turn (6.1.2; see the package
// comment for the reading).
func healDefender(m *domain.Map, a *domain.Army, start map[string]domain.Square, r *Report) {
	if a.Home == "" {
		return
	}
	home := m.Site(a.Home)
	if home == nil || home.Kind != domain.Town {
		r.say("%s has home town %q, which is not a town on the map, so it does not heal (6.1.2).", a.Name, a.Home)
		return
	}
	from, known := start[a.Name]
	if !known || from != home.At || a.At != home.At {
		return
	}
	for i := range m.Armies {
		o := &m.Armies[i]
		if o.At == a.At && domain.Enemy(o.Side, a.Side) {
			r.say("%s does not heal in %s this turn: %s is in the town with it (6.1.2).", a.Name, home.Name, o.Name)
			return
		}
	}
	if a.Troops == nil {
		r.say("%s held %s but its troops are not on record, so the judge heals its %d soldiers by hand (6.1.2).", a.Name, home.Name, TownDefenderHeal)
		return
	}
	healed := HealLowest(a, TownDefenderHeal)
	total := 0
	for _, n := range healed {
		total += n
	}
	if total == 0 {
		return
	}
	if r.Healed == nil {
		r.Healed = map[string]int{}
		r.HealedCreatures = map[string]map[string]int{}
	}
	r.Healed[a.Name] = total
	r.HealedCreatures[a.Name] = healed
	parts := make([]string, 0, len(healed))
	for _, t := range a.Troops {
		if n := healed[t.Creature]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, t.Creature))
		}
	}
	r.say("%s held its home town %s and heals %d soldiers (6.1.2): %s.", a.Name, home.Name, total, strings.Join(parts, ", "))
}

// HealLowest heals up to n soldiers of an army, lowest slot first (6.1.2): within a slot,
// creature by creature in the army's order, each up to its full count; only when a slot is
// full do the rest go up to the next. It returns creature → soldiers healed.
func HealLowest(a *domain.Army, n int) map[string]int {
	out := map[string]int{}
	for slot := 1; slot <= domain.Slots && n > 0; slot++ {
		for i := range a.Troops {
			t := &a.Troops[i]
			if t.Slot != slot || t.Alive >= t.Full {
				continue
			}
			k := a.Restore(i, n)
			out[a.Troops[i].Creature] += k
			n -= k
			if n == 0 {
				break
			}
		}
	}
	return out
}
