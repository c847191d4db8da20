// Package enginetest builds random but reproducible campaign maps, posts and battle results
// for the rule engine's property tests and benchmarks. It imports only domain and the
// standard library, so that any engine package's tests may use it.
package enginetest

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// Config says what Map builds.
type Config struct {
	Grid domain.Grid
	// Coalition and Phyrexia list the ranks of each team's armies, one army per entry.
	Coalition, Phyrexia []domain.Rank
	Mercenaries         int
	Bases, Portals      int
	Towns               int
	// Battles is how many squares hold two enemy armies when the turn opens (fought this turn);
	// Joint is how many more hold a joint battle, two armies of one team against one enemy.
	Battles, Joint int
	// Unknown is the chance that a team army's troop list is not known (nil troops).
	Unknown float64
	// Empty is the chance that an army has a troop list with no troop alive (B9).
	Empty float64
	// Unruly gives a few armies no controller or two (M2), as a long campaign does.
	Unruly bool
}

// Rand is the random source of a seed: the same seed always builds the same map and posts.
func Rand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x636f616c6974696f)) }

// CampaignRanks are the rulebook's recommended armies of one side: 1/2/7/7/14/14 (45 armies).
func CampaignRanks() []domain.Rank {
	var out []domain.Rank
	for r, n := range map[domain.Rank]int{domain.General: 1, domain.Admiral: 2, domain.Captain: 7, domain.Commander: 7, domain.LtCommander: 14, domain.Lieutenant: 14} {
		for range n {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return out
}

// Campaign is one turn of a full campaign on the rulebook's 38 × 14 map: 45 armies a side of the
// recommended ranks, 12 mercenaries, 7 bases, 5 portals and 3 towns, and a few battles.
func Campaign() Config {
	return Config{Grid: domain.DefaultGrid, Coalition: CampaignRanks(), Phyrexia: CampaignRanks(),
		Mercenaries: 12, Bases: 7, Portals: 5, Towns: 3, Battles: 4, Joint: 1}
}

// Big is a 600-army map on an 80 × 26 grid: six campaigns' worth of armies and sites.
func Big() Config {
	var ranks []domain.Rank
	for range 6 {
		ranks = append(ranks, CampaignRanks()...)
	}
	return Config{Grid: domain.Grid{Cols: 80, Rows: domain.MaxRows}, Coalition: ranks, Phyrexia: slices.Clone(ranks),
		Mercenaries: 60, Bases: 42, Portals: 30, Towns: 18, Battles: 24, Joint: 6}
}

// Small is a random crowded map for property tests: a small grid, a handful of armies of every
// side, sites, battles fought this turn, unknown troop lists and empty armies.
func Small(r *rand.Rand) Config {
	c := Config{Unknown: 0.15, Empty: 0.04, Unruly: true}
	if r.IntN(8) == 0 {
		c.Grid = domain.DefaultGrid
	} else {
		c.Grid = domain.Grid{Cols: 4 + r.IntN(9), Rows: 3 + r.IntN(7)}
	}
	area := c.Grid.Size()
	n := min(3+r.IntN(10), area/6)
	ranks := func() []domain.Rank {
		out := make([]domain.Rank, n)
		for i := range out {
			out[i] = domain.Rank(1 + r.IntN(6))
		}
		return out
	}
	c.Coalition, c.Phyrexia = ranks(), ranks()
	c.sprinkle(r, 3, 4)
	return c
}

// sprinkle adds to a small map 0–3 mercenaries, up to sites-1 bases, portals and towns each,
// 0–2 battles fought this turn and, one time in jointOneIn, a joint battle.
func (c *Config) sprinkle(r *rand.Rand, sites, jointOneIn int) {
	c.Mercenaries = r.IntN(4)
	c.Bases, c.Portals, c.Towns = r.IntN(sites), r.IntN(sites), r.IntN(sites)
	c.Battles = r.IntN(3)
	if r.IntN(jointOneIn) == 0 {
		c.Joint = 1
	}
}

// creature nouns by size 1–6, and the colours a troop may have.
var nouns = [...]string{"", "Sprite", "Bear", "Knight", "Troll", "Wurm", "Dragon"}

// Map builds a map from the config: sites and armies on distinct squares, except the armies of
// the battles fought this turn, which share theirs. It panics if the grid is too small.
func Map(r *rand.Rand, c Config) *domain.Map {
	m := &domain.Map{Grid: c.Grid}
	free := make([]domain.Square, 0, c.Grid.Size())
	for i := range c.Grid.Size() {
		free = append(free, c.Grid.At(i))
	}
	r.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	take := func() domain.Square {
		if len(free) == 0 {
			panic("enginetest: the grid is too small for the armies and sites")
		}
		s := free[len(free)-1]
		free = free[:len(free)-1]
		return s
	}
	var siteSquares []domain.Square
	addSites := func(kind domain.SiteKind, side domain.Side, n int) {
		for i := range n {
			s := domain.Site{Name: fmt.Sprintf("%s %s %d", side.Title(), kind, i+1), Kind: kind, Side: side, At: take(), WinCondition: kind != domain.Town && i < 2}
			if kind == domain.Base {
				s.Color = domain.MagicColors[i%5]
			}
			if kind == domain.Town {
				s.Name = fmt.Sprintf("Town %d", i+1)
			}
			m.Sites = append(m.Sites, s)
			siteSquares = append(siteSquares, s.At)
		}
	}
	addSites(domain.Base, domain.Coalition, c.Bases)
	addSites(domain.Portal, domain.Phyrexia, c.Portals)
	addSites(domain.Town, domain.Neutral, c.Towns)
	// armies stand on sites as often as players like to: give the site squares back
	free = append(free, siteSquares...)
	r.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })

	players := map[domain.Side][]string{
		domain.Coalition: {"Gazetzot", "Sai Rei", "Mirri", "Barrin", "Hanna", "Gerrard", "Orim"},
		domain.Phyrexia:  {"Vorath", "Crovax", "Greven", "Belbe", "Tsabo", "Volrath"},
		domain.Mercenary: {"Ertai", "Starke"},
	}
	var armies []domain.Army
	add := func(side domain.Side, rank domain.Rank, i int) {
		a := domain.Army{Side: side, Rank: rank}
		switch side {
		case domain.Coalition:
			a.Name = fmt.Sprintf("Coalition %d", i+1)
		case domain.Phyrexia:
			a.Name = fmt.Sprintf("Darkhand%d", i+1)
		default:
			a.Name = fmt.Sprintf("Raider %d", i+1)
			a.Faction = []domain.Faction{domain.TownDefender, domain.Theme, domain.Raider}[r.IntN(3)]
		}
		ps := players[side]
		switch x := r.IntN(40); {
		case side == domain.Mercenary && x < 36:
			// ordered by the mercenary judge
		case x == 0 && c.Unruly:
			// nobody may order it
		case x == 1 && c.Unruly:
			a.Controllers = []string{ps[0], ps[1]}
		case x < 5:
			a.Controllers = []string{a.Name} // a player army named after its player (3.2.2.5)
		default:
			a.Controllers = []string{ps[r.IntN(len(ps))]}
		}
		a.Colors = armyColors(r, side)
		if r.Float64() >= c.Unknown || side == domain.Mercenary {
			a.Troops = troops(r, a, r.Float64() < c.Empty)
		}
		armies = append(armies, a)
	}
	for i, rk := range c.Coalition {
		add(domain.Coalition, rk, i)
	}
	for i, rk := range c.Phyrexia {
		add(domain.Phyrexia, rk, i)
	}
	for i := range c.Mercenaries {
		add(domain.Mercenary, domain.Rank(4+r.IntN(3)), i)
	}
	r.Shuffle(len(armies), func(i, j int) { armies[i], armies[j] = armies[j], armies[i] })

	// battles fought this turn: an enemy pair on one square, or a joint battle (two of a team
	// against one enemy, M13) — the lock before made them
	placed := make([]bool, len(armies))
	pick := func(pred func(*domain.Army) bool) int {
		for i := range armies {
			if !placed[i] && pred(&armies[i]) {
				placed[i] = true
				return i
			}
		}
		return -1
	}
	kinds := []domain.BattleKind{domain.Attack, domain.Meeting, domain.Intercept, domain.Push}
	for b := range c.Battles + c.Joint {
		joint := b >= c.Battles
		x := pick(func(a *domain.Army) bool { return !joint || (a.Side.IsTeam() && !a.Rank.Leader()) })
		if x < 0 {
			break
		}
		var ids []int
		ids = append(ids, x)
		if joint {
			if y := pick(func(a *domain.Army) bool { return a.Side == armies[x].Side && !a.Rank.Leader() }); y >= 0 {
				ids = append(ids, y)
			}
		}
		z := pick(func(a *domain.Army) bool { return domain.Enemy(a.Side, armies[x].Side) })
		if z < 0 {
			for _, i := range ids {
				placed[i] = false
			}
			break
		}
		ids = append(ids, z)
		sq := take()
		bt := domain.Battle{Square: sq, Kind: kinds[r.IntN(len(kinds))]}
		if len(ids) == 3 {
			bt.Kind = domain.Joint
		}
		for _, i := range ids {
			armies[i].At = sq
			bt.Armies = append(bt.Armies, armies[i].Name)
		}
		slices.Sort(bt.Armies)
		if bt.Kind == domain.Attack || bt.Kind == domain.Intercept {
			bt.Attacker = armies[ids[0]].Name
		}
		m.Battles = append(m.Battles, bt)
	}
	for i := range armies {
		if !placed[i] {
			armies[i].At = take()
		}
		if m.SiteAt(armies[i].At) != nil && armies[i].Side.IsTeam() {
			armies[i].Days = r.IntN(5)
		}
	}
	m.Armies = armies
	m.NoteLeaders()
	if err := m.Validate(); err != nil {
		panic("enginetest: built an invalid map: " + err.Error())
	}
	return m
}

func armyColors(r *rand.Rand, side domain.Side) []domain.Color {
	switch side {
	case domain.Coalition:
		n := 1 + r.IntN(2)
		perm := r.Perm(5)
		out := make([]domain.Color, 0, n)
		for _, i := range perm[:n] {
			out = append(out, domain.MagicColors[i])
		}
		return out
	case domain.Phyrexia:
		return []domain.Color{domain.Black}
	}
	return nil
}

// troops fills the four slots of an army with creatures that fit its rank (2.1): full slots,
// some of them wounded, or none alive at all.
func troops(r *rand.Rand, a domain.Army, empty bool) []domain.Troop {
	out := []domain.Troop{}
	for slot := 1; slot <= domain.Slots; slot++ {
		if slot > 1 && r.IntN(5) == 0 {
			continue
		}
		size := min(a.Rank.SlotSize(slot), len(nouns)-1)
		col := domain.Black
		if len(a.Colors) > 0 {
			col = a.Colors[r.IntN(len(a.Colors))]
		}
		full := domain.SlotCapacity(slot)
		alive := full
		if r.IntN(3) == 0 {
			alive = r.IntN(full + 1)
		}
		if empty {
			alive = 0
		}
		t := domain.Troop{Creature: fmt.Sprintf("%s %s", titleColor(col), nouns[size]), Size: domain.Size{Power: size, Toughness: size},
			Colors: []domain.Color{col}, Slot: slot, Alive: alive, Full: full}
		if a.Troop(t.Creature) != nil || slices.ContainsFunc(out, func(x domain.Troop) bool { return x.Creature == t.Creature }) {
			continue
		}
		out = append(out, t)
	}
	return out
}

func titleColor(c domain.Color) string {
	s := string(c)
	if s == "" {
		return "Grey"
	}
	return string(s[0]-'a'+'A') + s[1:]
}
