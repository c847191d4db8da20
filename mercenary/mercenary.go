// Package mercenary is the mercenary judge's rule engine (chapter 6): the factions' abilities
// applied at every update, the AI that plans the mercenaries' orders and battle strategies by
// their guidelines, and checks of those guidelines for the judge's own orders and after-lock
// edit. It imports only domain and the standard library.
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
//   - Placing a spawned raider (6.3 "random squares away from bases"): a square on or next to
//     no base, portal, town or army; one creature a slot at the slot's size from the card data.
//   - Disband (6.3.2): a raider with fewer than a quarter of its troops alive is "no longer
//     strong enough"; it leaves at the update, before the spawn roll, unless it fought this
//     turn or an enemy ended the turn with it.
//   - The ocean army (6.2.1) never attacks an army it engaged before, and after OceanAreaBattles
//     battles in a row within OceanArea steps of its latest one moves on to ocean beyond.
//
// Random draws (B6), each an Intn of the turn's seed under its label (domain.Seed.Intn):
//   - "raider-spawn": d20 at every update while fewer than 5 raiders are on the map;
//   - "raider-spawn-rank": d20, drawn only when a raider spawns (7 or less: a 2/2 rank);
//   - "raider-spawn-square": index into SpawnSquares, when the server places the raider;
//   - "raider-troop:<slot>": index into the pool's creatures of the slot's size, by name;
//   - "theme-at-war:<name key of the killed town defender>": index into the candidate theme
//     armies sorted by name (DeclareWar);
//   - "mercenary-suggest:<name key of the army>": index into the tied best choices of Plan,
//     in order of their squares (number, then letter); part of the lock when the AI plays.
package mercenary

import (
	"fmt"
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
	// Disbanded names the raiders that disbanded at this update (6.3.2).
	Disbanded []string `json:"disbanded,omitempty"`
	// Lines say what was done in plain words, for the lock report.
	Lines []string `json:"lines"`
}

// String is the report's lines, one a line.
func (r *Report) String() string { return strings.Join(r.Lines, "\n") }

func (r *Report) say(format string, args ...any) {
	r.Lines = append(r.Lines, fmt.Sprintf(format, args...))
}

// Update applies the mercenaries' abilities at an update, after the battle update: town
// defenders heal in their home towns (6.1.2), raiders ordered to disband leave the map, and a
// raider may spawn (6.3.2), placed by the server when opt.Place is set. start is every army's
// square when the turn opened.
func Update(m *domain.Map, start map[string]domain.Square, seed domain.Seed, opt UpdateOptions) *Report {
	r := &Report{Lines: make([]string, 0, 1)}
	for i := range m.Armies {
		a := &m.Armies[i]
		if a.Side == domain.Mercenary && a.Faction == domain.TownDefender {
			healDefender(m, a, start, r)
		}
	}
	if len(opt.Disband) > 0 {
		disband(m, opt, r)
	}
	r.Spawn = rollSpawn(m, seed)
	if r.Spawn.Spawned && opt.Place {
		place(m, &r.Spawn, seed, opt)
	}
	s := &r.Spawn
	switch {
	case s.Chance == 0:
		r.Lines = append(r.Lines, spawnLine(s.Raiders, " raiders are on the map, so none can spawn (6.3.2).", 0, 0))
	case !s.Spawned:
		r.Lines = append(r.Lines, spawnLine(s.Raiders, " raiders on the map, a d20 of ", s.Chance, s.Roll))
	default:
		r.spawned(s, opt.Place)
	}
	return r
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
