package domain

import (
	"fmt"
	"strings"
)

// Side is a team or a neutral party.
type Side string

// The sides of the game (1.1, 6) and the neutral owner of towns.
const (
	Coalition Side = "coalition"
	Phyrexia  Side = "phyrexia"
	Mercenary Side = "mercenary"
	Neutral   Side = "neutral"
)

// ParseSide reads a side word.
func ParseSide(s string) (Side, error) {
	switch Side(strings.ToLower(strings.TrimSpace(s))) {
	case Coalition:
		return Coalition, nil
	case Phyrexia:
		return Phyrexia, nil
	case Mercenary:
		return Mercenary, nil
	case Neutral:
		return Neutral, nil
	}
	return "", Errorf(ErrInvalid, "%q is not a side: use coalition, phyrexia, mercenary or neutral", s)
}

// Enemy reports whether armies of sides a and b fight when they meet. Mercenaries are enemies
// of both teams but never of each other (6, M15).
func Enemy(a, b Side) bool { return a != b }

// Opponent is the other team of a player side; mercenaries and neutral have none.
func (s Side) Opponent() Side {
	switch s {
	case Coalition:
		return Phyrexia
	case Phyrexia:
		return Coalition
	}
	return ""
}

// IsTeam reports whether s is one of the two player teams.
func (s Side) IsTeam() bool { return s == Coalition || s == Phyrexia }

// Title is the side's name for people.
func (s Side) Title() string {
	switch s {
	case Coalition:
		return "the Coalition"
	case Phyrexia:
		return "Phyrexia"
	case Mercenary:
		return "the mercenaries"
	}
	return string(s)
}

// Rank is the size class of an army or the standing of a player: 1 is Chief Praetor/General,
// 6 is Centurion/Lieutenant, 7 is Drudge/Cadet, who controls no army (1.1, 2.1).
type Rank int8

// The ranks by their Coalition names; the Phyrexian name of each is in Rank.Name.
const (
	General Rank = iota + 1
	Admiral
	Captain
	Commander
	LtCommander
	Lieutenant
	Cadet
)

var rankWords = [...][2]string{
	General:     {"general", "chief-praetor"},
	Admiral:     {"admiral", "praetor"},
	Captain:     {"captain", "evincar"},
	Commander:   {"commander", "plaguelord"},
	LtCommander: {"lt-commander", "cpl"},
	Lieutenant:  {"lieutenant", "centurion"},
	Cadet:       {"cadet", "drudge"},
}

var rankNames = [...][2]string{
	General:     {"General", "Chief Praetor"},
	Admiral:     {"Admiral", "Praetor"},
	Captain:     {"Captain", "Evincar"},
	Commander:   {"Commander", "Plaguelord"},
	LtCommander: {"Lt. Commander", "CPL"},
	Lieutenant:  {"Lieutenant", "Centurion"},
	Cadet:       {"Cadet", "Drudge"},
}

// ParseRank reads a rank word of either side ("evincar" and "captain" are the same rank).
// Spaces, dots and case are ignored: "Lt. Commander", "lt-commander" and "LtCommander" agree.
func ParseRank(s string) (Rank, error) {
	key := rankKey(s)
	for r := General; r <= Cadet; r++ {
		for i := 0; i < 2; i++ {
			if rankKey(rankWords[r][i]) == key || rankKey(rankNames[r][i]) == key {
				return r, nil
			}
		}
	}
	switch key {
	case "chiefpraetor", "cp":
		return General, nil
	case "lt", "ltcmdr", "ltcommander":
		if key == "lt" {
			return Lieutenant, nil
		}
		return LtCommander, nil
	}
	return 0, Errorf(ErrInvalid, "%q is not a rank: use one of general/chief-praetor, admiral/praetor, captain/evincar, commander/plaguelord, lt-commander/cpl, lieutenant/centurion", s)
}

func rankKey(s string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(s) {
		if c >= 'a' && c <= 'z' {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// Valid reports whether r is a rank of the game.
func (r Rank) Valid() bool { return r >= General && r <= Cadet }

// Word is the scenario word for the rank on the given side ("evincar" for Phyrexia).
func (r Rank) Word(s Side) string {
	if !r.Valid() {
		return fmt.Sprintf("rank(%d)", int(r))
	}
	if s == Phyrexia {
		return rankWords[r][1]
	}
	return rankWords[r][0]
}

// Name is the rank's title on the given side ("Evincar" for Phyrexia, "Captain" otherwise).
func (r Rank) Name(s Side) string {
	if !r.Valid() {
		return fmt.Sprintf("rank %d", int(r))
	}
	if s == Phyrexia {
		return rankNames[r][1]
	}
	return rankNames[r][0]
}

// MarshalText prints the rank's Coalition word, which either side's parser accepts.
func (r Rank) MarshalText() ([]byte, error) { return []byte(r.Word(Coalition)), nil }

// UnmarshalText reads a rank word of either side.
func (r *Rank) UnmarshalText(b []byte) error {
	v, err := ParseRank(string(b))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// Leader reports whether the rank is Captain/Evincar or above: such armies may not joint
// engage (3.2.5.4) and losing all of them loses the game (1.7.3).
func (r Rank) Leader() bool { return r >= General && r <= Captain }

// Lowest reports whether the rank is one of the two lowest army ranks (Lt/Lt Cmdr,
// Centurion/CPL): they heal in neutral towns (2.3.1.3) and may be captured (4.5).
func (r Rank) Lowest() bool { return r == LtCommander || r == Lieutenant }

// Slots is the number of troop slots of every army (2.1).
const Slots = 4

// SlotCapacity is how many troops slot 1–4 holds: 5000, 2500, 1500, 1000 (2.1).
func SlotCapacity(slot int) int {
	switch slot {
	case 1:
		return 5000
	case 2:
		return 2500
	case 3:
		return 1500
	case 4:
		return 1000
	}
	return 0
}

// SlotSize is the largest power and toughness a creature in slot 1–4 of an army of rank r may
// have (2.1.1–2.1.6): a General's slot 1 holds 6/6 creatures, a Lieutenant's slot 4 4/4.
func (r Rank) SlotSize(slot int) int {
	if slot < 1 || slot > Slots || r < General || r > Lieutenant {
		return 0
	}
	return 6 - int(r) + slot
}

// Color is one of the colours of Magic, the Coalition's faction colours (1.1.2), or
// "artifact" for a colourless artifact creature.
type Color string

// The colour words of scenarios and troop lists.
const (
	White     Color = "white"
	Blue      Color = "blue"
	Black     Color = "black"
	Red       Color = "red"
	Green     Color = "green"
	FiveColor Color = "five-color"
	Colorless Color = "colorless"
	Artifact  Color = "artifact"
)

// MagicColors are the five colours of Magic in the order W U B R G.
var MagicColors = []Color{White, Blue, Black, Red, Green}

// ParseColor reads a colour word or a W/U/B/R/G letter; "5-color", "5c", "multicolor" are
// five-color and "artifact" or "colourless" name the colourless faction or creature.
func ParseColor(s string) (Color, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "white", "w":
		return White, nil
	case "blue", "u":
		return Blue, nil
	case "black", "b":
		return Black, nil
	case "red", "r":
		return Red, nil
	case "green", "g":
		return Green, nil
	case "five-color", "five-colour", "5-color", "5-colour", "5c", "5-c", "multicolor", "multicolour", "gold":
		return FiveColor, nil
	case "colorless", "colourless", "c":
		return Colorless, nil
	case "artifact":
		return Artifact, nil
	}
	return "", Errorf(ErrInvalid, "%q is not a colour: use white, blue, black, red, green, five-color, colorless or artifact", s)
}

// IsMagic reports whether c is one of the five colours of Magic.
func (c Color) IsMagic() bool {
	return c == White || c == Blue || c == Black || c == Red || c == Green
}

// Faction is a mercenary army's faction (6).
type Faction string

// The mercenary factions.
const (
	TownDefender Faction = "town-defender"
	Theme        Faction = "theme"
	Raider       Faction = "raider"
)

// Terrain is the ground of a square (G4, 4.1.2.4).
type Terrain string

// The terrains of the map.
const (
	Ocean    Terrain = "ocean"
	Islands  Terrain = "islands"
	Plains   Terrain = "plains"
	Mountain Terrain = "mountain"
	Forest   Terrain = "forest"
	Swamp    Terrain = "swamp"
)

// ParseTerrain reads a terrain word.
func ParseTerrain(s string) (Terrain, error) {
	switch t := Terrain(strings.ToLower(strings.TrimSpace(s))); t {
	case Ocean, Islands, Plains, Mountain, Forest, Swamp:
		return t, nil
	case "island":
		return Islands, nil
	case "mountains":
		return Mountain, nil
	}
	return "", Errorf(ErrInvalid, "%q is not a terrain: use ocean, islands, plains, mountain, forest or swamp", s)
}
