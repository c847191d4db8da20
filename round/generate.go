package round

// This file holds the generator's map: terrain, bases, portals and towns, win conditions and
// descriptions (2.5.1), drawn from the round's seed.

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/coalition-wargame/coalition/domain"
)

// Options are what the generator needs besides the round's seed.
type Options struct {
	// Players are the campaign's players and team leaders: each holding a rank gets his army.
	Players []Player
	// Pool is the creature pool troop lists are drawn from (LegalPool of the card data).
	Pool *Pool
	// By is the name the generator's descriptions and requests are written under (the judge's).
	By string
}

// Generate makes a whole legal round from a seed, the players and the card data (2.5): a map,
// 7 bases, 5 portals and 3 towns, 5 win conditions, accepted descriptions, the recommended
// number of armies (at least one a player), a troop list and a base for each, the armies dropped
// by their bases, and the mercenaries. The base positions are public. Every draw is labelled
// (docs/RANDOMNESS.md), so the same seed, players and pool give the same round.
func Generate(seed domain.Seed, grid domain.Grid, opt Options) (*Round, error) {
	r := &Round{Seed: seed, Grid: grid}
	if err := Fill(r, opt); err != nil {
		return nil, err
	}
	r.Published = true
	return r, nil
}

// Fill fills in what the round lacks, keeping everything it has, in the order of 2.5: the
// terrain, the sites, the win conditions, the descriptions, the counts, the armies and their
// troop lists, their bases, their squares, and the mercenaries. It is the judge's proposal: he
// may change any of it afterwards.
func Fill(r *Round, opt Options) error {
	if r.Grid == (domain.Grid{}) {
		r.Grid = domain.DefaultGrid
	}
	if r.Grid.Cols < 16 || r.Grid.Rows < 8 {
		return domain.Errorf(domain.ErrInvalid, "a %d × %d map is too small for a round: the generator needs at least 16 × 8", r.Grid.Cols, r.Grid.Rows)
	}
	g := &gen{r: r, d: r.Seed.Draws(), opt: opt}
	if r.Terrain.Default == "" && len(r.Terrain.Squares) == 0 {
		g.terrain()
	}
	steps := []func() error{g.bases, g.portals, g.towns, g.winConditions, g.descriptions, g.counts, g.armies, g.troops, g.baseRequests, g.place, g.mercenaries}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// gen is one run of the generator.
type gen struct {
	r   *Round
	d   *domain.Draws
	opt Options
}

// pick draws one of n for the label.
func (g *gen) pick(label string, n int) int { return g.d.Intn(label, n) }

// terrain draws a map: ocean along both short edges with islands off the coast, and blobs of
// mountains, forests, swamps and a lake inland, on plains.
func (g *gen) terrain() {
	r := g.r
	r.Terrain = domain.TerrainMap{Default: domain.Plains, Squares: map[domain.Square]domain.Terrain{}}
	cols, rows := r.Grid.Cols, r.Grid.Rows
	for row := 1; row <= rows; row++ {
		for _, col := range []int{1, 2, cols - 1, cols} {
			s := sqr(col, row)
			t := domain.Ocean
			if (col == 2 || col == cols-1) && g.pick("round-terrain:coast:"+s.String(), 4) == 0 {
				t = domain.Islands
			}
			r.Terrain.Squares[s] = t
		}
	}
	blobs := []struct {
		t domain.Terrain
		n int
	}{{domain.Mountain, 3}, {domain.Forest, 4}, {domain.Swamp, 3}, {domain.Ocean, 1}}
	for _, b := range blobs {
		for k := 1; k <= b.n; k++ {
			label := "round-terrain:" + string(b.t) + ":" + strconv.Itoa(k)
			c := sqr(4+g.pick(label, cols-6), 1+g.pick(label+":row", rows))
			rad := 1 + g.pick(label+":radius", 2)
			for i := range r.Grid.Size() {
				s := r.Grid.At(i)
				if domain.Steps(s, c) <= rad && int(s.Col) > 2 && int(s.Col) < cols-1 {
					r.Terrain.Squares[s] = b.t
				}
			}
		}
	}
}

func sqr(col, row int) domain.Square { return domain.Square{Col: uint8(col), Row: uint8(row)} }

// The names the generator gives sites of each kind, in order of use.
var (
	baseNames   = map[domain.Color]string{domain.White: "Benalia", domain.Blue: "Tolaria", domain.Black: "Urborg", domain.Red: "Shiv", domain.Green: "Llanowar", domain.FiveColor: "Keld", domain.Colorless: "Argive"}
	portalNames = []string{"Rath Portal", "Mercadia Gate", "Caligo Portal", "Koilos Portal", "Phyrexia's Maw", "Stronghold Gate", "Ashnod's Rift"}
	townNames   = []string{"Jamuraa", "Zhalfir", "Yavimaya Hollow", "Femeref", "Suq'Ata", "Vodalia", "Mercadia City"}
)

// siteSquares lists the squares of columns lo–hi (clamped to the map) where a new site may
// stand: not ocean, no army on it, at least spacing squares (king's moves) from every site
// and 5 steps from every enemy base or portal, in reading order.
func (g *gen) siteSquares(lo, hi int, side domain.Side, spacing int) []domain.Square {
	r := g.r
	taken := r.occupied()
	var out []domain.Square
	for i := range r.Grid.Size() {
		s := r.Grid.At(i)
		if int(s.Col) < max(lo, 3) || int(s.Col) > min(hi, r.Grid.Cols-2) || r.Terrain.At(s) == domain.Ocean || taken[s] != "" {
			continue
		}
		ok := true
		for _, st := range r.Sites {
			if domain.Ring(st.At, s) < spacing || (st.Kind != domain.Town && side.IsTeam() && domain.Enemy(st.Side, side) && domain.Steps(st.At, s) < BaseSpacing+2) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, s)
		}
	}
	return out
}

// placeSite draws a square for a new site among siteSquares, relaxing the spacing from 4 to 2
// squares when the map is crowded.
func (g *gen) placeSite(label string, lo, hi int, side domain.Side) (domain.Square, error) {
	for spacing := 4; spacing >= 2; spacing-- {
		if sqs := g.siteSquares(lo, hi, side, spacing); len(sqs) > 0 {
			return sqs[g.pick(label, len(sqs))], nil
		}
	}
	return domain.Square{}, domain.Errorf(domain.ErrInvalid, "no square is left for %s: the map is too crowded (2.5.1)", label)
}

// freeName is base, or base with a number after it, not yet the name of a site.
func (g *gen) freeName(base string) string {
	name := base
	for k := 2; g.r.Site(name) != nil; k++ {
		name = fmt.Sprintf("%s %d", base, k)
	}
	return name
}

// bases places a Coalition base of each faction colour the round lacks, in the western half.
func (g *gen) bases() error {
	for _, c := range Factions {
		if slices.ContainsFunc(g.r.Sites, func(s Site) bool { return s.Kind == domain.Base && s.Side == domain.Coalition && s.Color == c }) {
			continue
		}
		at, err := g.placeSite("round-site:base:"+string(c), 3, g.r.Grid.Cols/2-2, domain.Coalition)
		if err != nil {
			return err
		}
		g.r.Sites = append(g.r.Sites, Site{Site: domain.Site{Name: g.freeName(baseNames[c] + " Base"), Kind: domain.Base, Side: domain.Coalition, Color: c, At: at}})
	}
	return nil
}

// portals places Phyrexian portals up to 5, in the eastern half.
func (g *gen) portals() error {
	for k := len(g.r.SitesOf(domain.Portal, domain.Phyrexia)) + 1; k <= Portals; k++ {
		at, err := g.placeSite("round-site:portal:"+strconv.Itoa(k), g.r.Grid.Cols/2+3, g.r.Grid.Cols, domain.Phyrexia)
		if err != nil {
			return err
		}
		name := portalNames[(k-1)%len(portalNames)]
		g.r.Sites = append(g.r.Sites, Site{Site: domain.Site{Name: g.freeName(name), Kind: domain.Portal, Side: domain.Phyrexia, At: at, WinCondition: true}})
	}
	return nil
}

// towns places neutral towns up to 3 in the middle of the map, each about as far from the
// nearest Coalition base as from the nearest portal when a square allows (2.5.1.4).
func (g *gen) towns() error {
	for k := len(g.r.SitesOf(domain.Town, "")) + 1; k <= Towns; k++ {
		label := "round-site:town:" + strconv.Itoa(k)
		mid := g.r.Grid.Cols / 2
		var fair []domain.Square
		for spacing := 4; spacing >= 2 && len(fair) == 0; spacing-- {
			for _, s := range g.siteSquares(mid-5, mid+6, domain.Neutral, spacing) {
				if abs(g.nearest(s, domain.Coalition)-g.nearest(s, domain.Phyrexia)) <= 4 {
					fair = append(fair, s)
				}
			}
		}
		var at domain.Square
		if len(fair) > 0 {
			at = fair[g.pick(label, len(fair))]
		} else {
			var err error
			if at, err = g.placeSite(label, mid-5, mid+6, domain.Neutral); err != nil {
				return err
			}
		}
		g.r.Sites = append(g.r.Sites, Site{Site: domain.Site{Name: g.freeName(townNames[(k-1)%len(townNames)]), Kind: domain.Town, Side: domain.Neutral, At: at}})
	}
	return nil
}

// nearest is the steps from s to the side's nearest base or portal (a large number for none).
func (g *gen) nearest(s domain.Square, side domain.Side) int {
	best := 1 << 20
	for _, st := range g.r.Sites {
		if st.Side == side && st.Kind != domain.Town {
			best = min(best, domain.Steps(st.At, s))
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// winConditions chooses 5 of the Coalition's bases when its leaders chose none (the judge fills
// in what is missing), leaving out two drawn; every portal is one (2.5.1.3).
func (g *gen) winConditions() error {
	bases := g.r.SitesOf(domain.Base, domain.Coalition)
	for _, p := range g.r.SitesOf(domain.Portal, domain.Phyrexia) {
		p.WinCondition = true
	}
	if slices.ContainsFunc(bases, func(b *Site) bool { return b.WinCondition }) || len(bases) < WinConditions {
		return nil
	}
	left := slices.Clone(bases)
	for k := 1; len(left) > WinConditions; k++ {
		i := g.pick("round-win:"+strconv.Itoa(k), len(left))
		left = slices.Delete(left, i, i+1)
	}
	for _, b := range left {
		b.WinCondition = true
	}
	return nil
}

// defences are the generator's words for a base's defences, drawn per site.
var defences = []string{
	"a walled keep with a deep moat and a drawbridge",
	"earthworks and a palisade around a stone tower, with stores for a long siege",
	"a fortress cut into the rock, reached by a single narrow road",
	"three rings of walls, each higher than the last, with catapults on the towers",
	"a citadel over a harbour, its sea gate chained shut",
	"a hidden camp among the trees, its approaches trapped and watched",
}

// descriptions writes an accepted description for each base and portal that has none: where it
// stands and its defences (2.5.1.2).
func (g *gen) descriptions() error {
	for i := range g.r.Sites {
		s := &g.r.Sites[i]
		if s.Kind == domain.Town || s.Description != "" {
			continue
		}
		d := defences[g.pick("round-description:"+s.Name, len(defences))]
		s.Description = fmt.Sprintf("%s stands on %s at %s: %s.", s.Name, g.r.Terrain.At(s.At), s.At, d)
		s.Review, s.By = Accepted, g.opt.By
	}
	return nil
}

// counts sets the recommended number of armies (2.5.2.1) when none is set, raised to the
// players holding each rank.
func (g *gen) counts() error {
	if !g.r.Counts.IsZero() {
		return nil
	}
	c := Recommended
	for _, rk := range ArmyRanks {
		for _, side := range []domain.Side{domain.Coalition, domain.Phyrexia} {
			n := 0
			for _, p := range g.opt.Players {
				if p.Side == side && p.Rank == rk {
					n++
				}
			}
			c.Set(rk, max(c.Of(rk), n))
		}
	}
	g.r.Counts = c
	if ps := CheckCounts(c, g.opt.Players); len(ps) > 0 {
		return domain.Errorf(domain.ErrInvalid, "%s", ps[0].Message)
	}
	return nil
}
