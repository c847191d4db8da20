// Package round holds the rules of setting up a new round (2.5) and its mercenaries (2.5.3,
// chapter 6): the round's setup document, every check of it with its rule, a generator that
// makes a whole legal round from a seed, the players and the card data, the placement of armies
// by their bases, and the weather of a battle (4.1.2.5). It is pure: it imports domain, the card
// catalogue and the troop-list rules, and the standard library.
package round

import (
	"crypto/sha256"
	"slices"
	"strconv"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/roster"
)

// Round is a new round as the judges set it up before its first turn (2.5): the map, its
// sites and their descriptions, the armies of both sides and the mercenaries.
type Round struct {
	// Seed draws everything the generator and the placement leave to chance (docs/RANDOMNESS.md,
	// the round-… labels).
	Seed    domain.Seed       `json:"seed"`
	Grid    domain.Grid       `json:"grid"`
	Terrain domain.TerrainMap `json:"terrain"`
	// Sites are the bases, portals and towns, with the sides' descriptions (2.5.1).
	Sites []Site `json:"sites"`
	// Published is set when the judges made the base positions public (2.5.1.3, 2.5.2.3): the
	// Coalition's win conditions are chosen by then.
	Published bool `json:"published"`
	// Counts is the number of armies of each rank each side starts with (2.5.2.1).
	Counts Counts `json:"counts"`
	// Armies are the two sides' armies: their troop lists, colours and placement (2.5.2).
	Armies []Army `json:"armies"`
	// Mercenaries are the neutral armies added after the players (2.5.3, chapter 6).
	Mercenaries []domain.Army `json:"mercenaries"`
	// Requests are the team leaders' requests to the judges (2.5.1.1, 2.5.2.2).
	Requests []Request `json:"requests"`
}

// Review is a judge's verdict on a base description (2.5.1.2).
type Review string

// The verdicts: a description waits for the judge, is accepted, or is rejected with a reason.
const (
	Pending  Review = "pending"
	Accepted Review = "accepted"
	Rejected Review = "rejected"
)

// Site is a base, portal or town of the round with its description (2.5.1.2): Description is
// the side's text, Review the judge's verdict and Reason why it was rejected.
type Site struct {
	domain.Site
	Review Review `json:"review,omitempty"`
	Reason string `json:"reason,omitempty"`
	// By is who wrote the description.
	By string `json:"by,omitempty"`
}

// Army is one army of a side as the round sets it up (2.5.2.2, 2.5.2.3).
type Army struct {
	Name string      `json:"name"`
	Side domain.Side `json:"side"`
	Rank domain.Rank `json:"rank"`
	// Player is the player the army is named for; empty for a proxy army (2.5.2.2).
	Player string `json:"player,omitempty"`
	// Colors are a Coalition army's factions, fixed for the round (2.2.1.1).
	Colors []domain.Color `json:"colors,omitempty"`
	// Troops is the troop list as sent; Legend is its legend, if any (2.1).
	Troops roster.List `json:"troops"`
	// Base is the base or portal the army is requested to start by (2.5.2.3).
	Base string `json:"base,omitempty"`
	// At is where the army was dropped; zero until it is placed.
	At domain.Square `json:"at,omitzero"`
	// Controllers control the army when the round starts (5.2.1); none gives a namesake army to
	// its player and a proxy to the side's leaders in turn.
	Controllers []string `json:"controllers,omitempty"`
	// By is who sent the army's request.
	By string `json:"by,omitempty"`
}

// Request is a team leader's request to the judges (2.5.1.1 "Team leaders may make requests").
type Request struct {
	By   string      `json:"by"`
	Side domain.Side `json:"side"`
	Text string      `json:"text"`
}

// Counts is the number of armies of each rank each side starts with (2.5.2.1).
type Counts struct {
	General     int `json:"general"`
	Admiral     int `json:"admiral"`
	Captain     int `json:"captain"`
	Commander   int `json:"commander"`
	LtCommander int `json:"lt-commander"`
	Lieutenant  int `json:"lieutenant"`
}

// Of is the count of rank r.
func (c *Counts) Of(r domain.Rank) int {
	if p := c.at(r); p != nil {
		return *p
	}
	return 0
}

// Set sets the count of rank r.
func (c *Counts) Set(r domain.Rank, n int) {
	if p := c.at(r); p != nil {
		*p = n
	}
}

func (c *Counts) at(r domain.Rank) *int {
	switch r {
	case domain.General:
		return &c.General
	case domain.Admiral:
		return &c.Admiral
	case domain.Captain:
		return &c.Captain
	case domain.Commander:
		return &c.Commander
	case domain.LtCommander:
		return &c.LtCommander
	case domain.Lieutenant:
		return &c.Lieutenant
	}
	return nil
}

// Total is the number of armies of a side.
func (c *Counts) Total() int {
	return c.General + c.Admiral + c.Captain + c.Commander + c.LtCommander + c.Lieutenant
}

// IsZero reports whether no count is set.
func (c *Counts) IsZero() bool { return *c == Counts{} }

// ArmyRanks are the ranks that hold armies, highest first.
var ArmyRanks = []domain.Rank{domain.General, domain.Admiral, domain.Captain, domain.Commander, domain.LtCommander, domain.Lieutenant}

// Recommended is 2.5.2.1's recommended number of armies: 1/2/7/7/14/14, 45 a side.
var Recommended = Counts{General: 1, Admiral: 2, Captain: 7, Commander: 7, LtCommander: 14, Lieutenant: 14}

// Maximum is the most armies of each rank a side may create, the most players that can hold
// the rank (2.5.2.1); Lieutenants have no limit (0 here).
var Maximum = Counts{General: 1, Admiral: 2, Captain: 7, Commander: 7, LtCommander: 14}

// Player is a player or team leader of a side, as the round's checks see him.
type Player struct {
	Name   string      `json:"name"`
	Side   domain.Side `json:"side"`
	Rank   domain.Rank `json:"rank"`
	Leader bool        `json:"leader,omitempty"`
	// Factions are a Coalition player's factions (1.1.2): his army's colours (2.2.1.1).
	Factions []domain.Color `json:"factions,omitempty"`
}

// HoldsArmy reports whether the player's rank creates an army (Drudges and Cadets do not, 1.1).
func (p *Player) HoldsArmy() bool { return p.Rank >= domain.General && p.Rank <= domain.Lieutenant }

// Factions are the Coalition's seven factions, one base each (1.1.2).
var Factions = []domain.Color{domain.White, domain.Blue, domain.Black, domain.Red, domain.Green, domain.FiveColor, domain.Colorless}

// Sizes of the round (1.1, 2.5.1.3, 2.5.1.4, 6.1–6.3).
const (
	Bases             = 7
	Portals           = 5
	WinConditions     = 5
	Towns             = 3
	TownDefenders     = 3
	ThemeArmies       = 4
	BaseSpacing       = 3 // no base less than 3 squares from an enemy base (2.5.1.1)
	PlacementDistance = 3 // an army starts within 3 squares of its base (R71)
)

// SeedOf is the seed of a round made from a whole number, as `coalition new-round --seed N`
// gives it: the SHA-256 of the text "coalition-round:<n>".
func SeedOf(n int64) domain.Seed {
	return sha256.Sum256([]byte("coalition-round:" + strconv.FormatInt(n, 10)))
}

// Site returns the site named name, or nil.
func (r *Round) Site(name string) *Site {
	for i := range r.Sites {
		if domain.SameName(r.Sites[i].Name, name) {
			return &r.Sites[i]
		}
	}
	return nil
}

// Army returns the side's army named name, or nil.
func (r *Round) Army(name string) *Army {
	for i := range r.Armies {
		if domain.SameName(r.Armies[i].Name, name) {
			return &r.Armies[i]
		}
	}
	return nil
}

// Mercenary returns the mercenary army named name, or nil.
func (r *Round) Mercenary(name string) *domain.Army {
	for i := range r.Mercenaries {
		if domain.SameName(r.Mercenaries[i].Name, name) {
			return &r.Mercenaries[i]
		}
	}
	return nil
}

// SitesOf lists the sites of a kind and side, in the round's order.
func (r *Round) SitesOf(kind domain.SiteKind, side domain.Side) []*Site {
	var out []*Site
	for i := range r.Sites {
		if s := &r.Sites[i]; s.Kind == kind && (side == "" || s.Side == side) {
			out = append(out, s)
		}
	}
	return out
}

// Clone copies the round so that changing the copy leaves r as it was.
func (r *Round) Clone() *Round {
	c := *r
	c.Terrain.Squares = make(map[domain.Square]domain.Terrain, len(r.Terrain.Squares))
	for k, v := range r.Terrain.Squares {
		c.Terrain.Squares[k] = v
	}
	c.Sites = slices.Clone(r.Sites)
	c.Armies = slices.Clone(r.Armies)
	for i := range c.Armies {
		a := &c.Armies[i]
		a.Colors = slices.Clone(a.Colors)
		a.Troops = slices.Clone(a.Troops)
		a.Controllers = slices.Clone(a.Controllers)
	}
	c.Mercenaries = make([]domain.Army, len(r.Mercenaries))
	for i := range r.Mercenaries {
		c.Mercenaries[i] = r.Mercenaries[i].Clone()
	}
	c.Requests = slices.Clone(r.Requests)
	return &c
}

// occupied is the set of squares the round's armies and mercenaries stand on.
func (r *Round) occupied() map[domain.Square]string {
	out := map[domain.Square]string{}
	for _, a := range r.Armies {
		if !a.At.IsZero() {
			out[a.At] = a.Name
		}
	}
	for _, a := range r.Mercenaries {
		if !a.At.IsZero() {
			out[a.At] = a.Name
		}
	}
	return out
}
