package domain

import (
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxNameLength is the most characters an army's name may have, as an account's (the
// OpenAPI document's maxLength of both).
const MaxNameLength = 40

// TerrainMap gives the terrain of every square: a default and the exceptions (G4).
type TerrainMap struct {
	Default Terrain            `json:"default,omitempty"`
	Squares map[Square]Terrain `json:"squares,omitempty"`
}

// At is the terrain of a square.
func (t TerrainMap) At(s Square) Terrain {
	if v, ok := t.Squares[s]; ok {
		return v
	}
	if t.Default == "" {
		return Plains
	}
	return t.Default
}

// Map is the state of a campaign between two locks: the grid, its sites and armies, the
// battles to be fought this turn, and what the rules remember from earlier turns.
type Map struct {
	Grid    Grid       `json:"grid"`
	Terrain TerrainMap `json:"terrain"`
	Sites   []Site     `json:"sites"`
	Armies  []Army     `json:"armies"`
	// Battles are the engagements made at the last lock, fought this turn (B1).
	Battles []Battle `json:"battles,omitempty"`
	// Leaders are the sides that have had an army of rank Captain/Evincar or above this round;
	// such a side loses when it has none left (D8).
	Leaders []Side `json:"leaders,omitempty"`
	Winner  Side   `json:"winner,omitempty"`
	// Turn counts the locks run so far.
	Turn int `json:"turn"`
}

// Army returns the army with the given name (compared as SameName does), or nil.
func (m *Map) Army(name string) *Army {
	for i := range m.Armies {
		if m.Armies[i].Name == name {
			return &m.Armies[i]
		}
	}
	for i := range m.Armies {
		if SameName(m.Armies[i].Name, name) {
			return &m.Armies[i]
		}
	}
	return nil
}

// SiteAt returns the site on square s, or nil.
func (m *Map) SiteAt(s Square) *Site {
	for i := range m.Sites {
		if m.Sites[i].At == s {
			return &m.Sites[i]
		}
	}
	return nil
}

// Site returns the site with the given name, or nil.
func (m *Map) Site(name string) *Site {
	for i := range m.Sites {
		if SameName(m.Sites[i].Name, name) {
			return &m.Sites[i]
		}
	}
	return nil
}

// BattleAt returns the battle fought on square s this turn, or nil.
func (m *Map) BattleAt(s Square) *Battle {
	for i := range m.Battles {
		if m.Battles[i].Square == s {
			return &m.Battles[i]
		}
	}
	return nil
}

// HasLeader reports whether side s has had a Captain/Evincar-rank army this round.
func (m *Map) HasLeader(s Side) bool { return slices.Contains(m.Leaders, s) }

// NoteLeaders records the sides that have an army of rank Captain/Evincar or above now.
func (m *Map) NoteLeaders() {
	both := func() bool { return m.HasLeader(Coalition) && m.HasLeader(Phyrexia) }
	for i := 0; i < len(m.Armies) && !both(); i++ {
		a := &m.Armies[i]
		if a.Rank.Leader() && a.Side.IsTeam() && !m.HasLeader(a.Side) {
			m.Leaders = append(m.Leaders, a.Side)
		}
	}
	slices.Sort(m.Leaders)
}

// NoteHomes gives every town defender without a home town the town it stands on: a campaign
// or scenario starts each in its home town (6.1).
func (m *Map) NoteHomes() {
	for i := range m.Armies {
		a := &m.Armies[i]
		if a.Faction != TownDefender || a.Home != "" {
			continue
		}
		if s := m.SiteAt(a.At); s != nil && s.Kind == Town {
			a.Home = s.Name
		}
	}
}

// Clone copies the map so that the rules can change the copy and leave m as it was. Slices the
// rules only ever replace, never change in place (names, colours, controllers, routes, plans,
// the terrain), are shared; troops, wounds, captures, shipments, sites and battles are copied.
// Code that changes a map must keep to that: assign a new slice rather than edit a shared one.
func (m *Map) Clone() *Map {
	c := m.Fork()
	for i := range c.Armies {
		c.Armies[i].ownTroops()
	}
	return c
}

// Fork is Clone for a lock, which changes the troops of few armies: each army shares its troop
// list with m until one of the Army methods that change troops (troops.go) copies it; everything
// else is as Clone has it.
func (m *Map) Fork() *Map {
	c := *m
	c.Sites = slices.Clone(m.Sites)
	c.Battles = slices.Clone(m.Battles)
	c.Leaders = slices.Clone(m.Leaders)
	c.Armies = slices.Clone(m.Armies)
	for i := range c.Armies {
		a := &c.Armies[i]
		a.shared = a.Troops != nil
		if a.Capture != nil {
			cp := *a.Capture
			a.Capture = &cp
		}
		if a.Incoming != nil {
			a.Incoming = slices.Clone(a.Incoming)
		}
	}
	return &c
}

// Validate checks that the map is one the rules can work on: squares on the grid, unique
// names, at most one site per square, known sides and ranks, troops in slots 1–4. It names
// the first problem it finds.
func (m *Map) Validate() error {
	if m.Grid.Cols < 1 || m.Grid.Rows < 1 || m.Grid.Cols > 255 || m.Grid.Rows > MaxRows {
		return Errorf(ErrInvalid, "the grid must have 1–255 columns and 1–%d rows", MaxRows)
	}
	if err := m.Terrain.validate(m.Grid); err != nil {
		return err
	}
	siteAt := map[Square]string{}
	siteNames := map[string]bool{}
	for _, s := range m.Sites {
		if strings.TrimSpace(s.Name) == "" {
			return Errorf(ErrInvalid, "a site has no name")
		}
		if siteNames[NameKey(s.Name)] {
			return Errorf(ErrInvalid, "two sites are named %q", s.Name)
		}
		siteNames[NameKey(s.Name)] = true
		if !m.Grid.Contains(s.At) {
			return Errorf(ErrInvalid, "site %s is not on the map (%q)", s.Name, s.At)
		}
		if other, ok := siteAt[s.At]; ok {
			return Errorf(ErrInvalid, "sites %s and %s are both on %s: at most one site per square (G4)", other, s.Name, s.At)
		}
		siteAt[s.At] = s.Name
		switch s.Kind {
		case Base, Portal, Town:
		default:
			return Errorf(ErrInvalid, "site %s has kind %q: use base, portal or town", s.Name, s.Kind)
		}
		switch s.Side {
		case Coalition, Phyrexia, Neutral:
		default:
			return Errorf(ErrInvalid, "site %s has side %q: use coalition, phyrexia or neutral", s.Name, s.Side)
		}
	}
	names := map[string]bool{}
	for i := range m.Armies {
		a := &m.Armies[i]
		if strings.TrimSpace(a.Name) == "" {
			return Errorf(ErrInvalid, "an army has no name")
		}
		if strings.ContainsAny(a.Name, ":\n\r") {
			return Errorf(ErrInvalid, "army name %q may not contain a colon or a line break", a.Name)
		}
		if strings.ContainsFunc(a.Name, unicode.IsControl) {
			return Errorf(ErrInvalid, "army name %q may not contain control characters", a.Name)
		}
		if n := utf8.RuneCountInString(a.Name); n > MaxNameLength {
			return Errorf(ErrInvalid, "army name %q… is too long: at most %d characters, not %d", trim(a.Name, 20), MaxNameLength, n)
		}
		if names[NameKey(a.Name)] {
			return Errorf(ErrInvalid, "two armies are named %q", a.Name)
		}
		names[NameKey(a.Name)] = true
		if !m.Grid.Contains(a.At) {
			return Errorf(ErrInvalid, "army %s is not on the map (%q)", a.Name, a.At)
		}
		switch a.Side {
		case Coalition, Phyrexia, Mercenary:
		default:
			return Errorf(ErrInvalid, "army %s has side %q: use coalition, phyrexia or mercenary", a.Name, a.Side)
		}
		if a.Rank < General || a.Rank > Lieutenant {
			return Errorf(ErrInvalid, "army %s has no army rank", a.Name)
		}
		if a.Days < 0 {
			return Errorf(ErrInvalid, "army %s has a negative day count", a.Name)
		}
		if a.Home != "" {
			if s := m.Site(a.Home); s == nil || s.Kind != Town {
				return Errorf(ErrInvalid, "army %s has home town %q, which is not a town on the map (6.1)", a.Name, a.Home)
			}
		}
		creatures := map[string]bool{}
		for _, t := range a.Troops {
			if t.Slot < 1 || t.Slot > Slots {
				return Errorf(ErrInvalid, "army %s: %s is in slot %d; slots are 1–4", a.Name, t.Creature, t.Slot)
			}
			if t.Alive < 0 || t.Full < 0 {
				return Errorf(ErrInvalid, "army %s: %s has a negative troop count", a.Name, t.Creature)
			}
			if n := max(t.Alive, t.Full); n > maxTroops {
				return Errorf(ErrInvalid, "army %s: %s has %d troops; a slot holds at most %d (2.1)", a.Name, t.Creature, n, maxTroops)
			}
			if t.Alive > t.Full {
				return Errorf(ErrInvalid, "army %s: %s has %d alive but heals back only to %d", a.Name, t.Creature, t.Alive, t.Full)
			}
			if creatures[NameKey(t.Creature)] {
				return Errorf(ErrInvalid, "army %s lists %s twice", a.Name, t.Creature)
			}
			creatures[NameKey(t.Creature)] = true
		}
	}
	for _, b := range m.Battles {
		for _, n := range b.Armies {
			if m.Army(n) == nil {
				return Errorf(ErrInvalid, "battle at %s names unknown army %q", b.Square, n)
			}
		}
	}
	return nil
}

// maxTroops is the most troops one creature of an army can number: the largest slot's
// capacity, slot 1's (2.1).
var maxTroops = SlotCapacity(1)

// validate checks that every terrain is one the rules know and every square given one is on
// the grid.
func (t TerrainMap) validate(g Grid) error {
	if t.Default != "" && !knownTerrain(t.Default) {
		return Errorf(ErrInvalid, "the map's default terrain %q is not a terrain: use ocean, islands, plains, mountain, forest or swamp", t.Default)
	}
	for _, sq := range slices.SortedFunc(maps.Keys(t.Squares), compareSquares) {
		if !g.Contains(sq) {
			return Errorf(ErrInvalid, "%s has a terrain but is not on the map", sq)
		}
		if v := t.Squares[sq]; !knownTerrain(v) {
			return Errorf(ErrInvalid, "the terrain of %s, %q, is not a terrain: use ocean, islands, plains, mountain, forest or swamp", sq, v)
		}
	}
	return nil
}

// knownTerrain reports whether t is one of the terrains of the map, as ParseTerrain writes it.
func knownTerrain(t Terrain) bool {
	switch t {
	case Ocean, Islands, Plains, Mountain, Forest, Swamp:
		return true
	}
	return false
}

// compareSquares orders squares as Less does.
func compareSquares(a, b Square) int {
	switch {
	case Less(a, b):
		return -1
	case Less(b, a):
		return 1
	}
	return 0
}

// trim is the first n characters of s.
func trim(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
