package domain

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Size is the power and toughness a creature has in an army ("3/3").
type Size struct {
	Power, Toughness int
}

// String prints the size as "P/T".
func (s Size) String() string { return strconv.Itoa(s.Power) + "/" + strconv.Itoa(s.Toughness) }

// MarshalText prints the size as "P/T".
func (s Size) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads "P/T".
func (s *Size) UnmarshalText(b []byte) error {
	v, err := ParseSize(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// ParseSize reads a size written "P/T" with whole numbers.
func ParseSize(text string) (Size, error) {
	p, t, ok := strings.Cut(strings.TrimSpace(text), "/")
	if !ok {
		return Size{}, Errorf(ErrInvalid, "%q is not a size: write power/toughness, like 3/3", text)
	}
	pw, err1 := strconv.Atoi(strings.TrimSpace(p))
	tg, err2 := strconv.Atoi(strings.TrimSpace(t))
	if err1 != nil || err2 != nil || pw < 0 || tg < 0 || pw > 99 || tg > 99 {
		return Size{}, Errorf(ErrInvalid, "%q is not a size: write power/toughness, like 3/3", text)
	}
	return Size{Power: pw, Toughness: tg}, nil
}

// Fits reports whether a creature of this size fits a slot of maximum size max: both power and
// toughness at most max (2.1: a 2/3 fits a 3/3 slot, a 2/4 does not).
func (s Size) Fits(max int) bool { return s.Power <= max && s.Toughness <= max }

// Wound is a number of troops lost during one counted day and not yet healed (D3, D4).
type Wound struct {
	Day   int `json:"day"`
	Count int `json:"count"`
}

// Troop is one creature of an army: how many are alive and how many it heals back to.
type Troop struct {
	Creature string  `json:"creature"`
	Size     Size    `json:"size"`
	Colors   []Color `json:"colors,omitempty"`
	Slot     int     `json:"slot"`
	Alive    int     `json:"alive"`
	Full     int     `json:"full"`
	// Wounds are the unhealed losses suffered on a counted day; the rest of Full-Alive was
	// lost before the army's current count began (day 0).
	Wounds []Wound `json:"wounds,omitempty"`
}

// Multicolor reports whether the creature has two or more colours of Magic.
func (t *Troop) Multicolor() bool {
	n := 0
	for _, c := range t.Colors {
		if c.IsMagic() {
			n++
		}
	}
	return n >= 2
}

// Colorless reports whether the creature has no colour of Magic (an artifact creature).
func (t *Troop) Colorless() bool {
	for _, c := range t.Colors {
		if c.IsMagic() {
			return false
		}
	}
	return true
}

// HasColor reports whether the creature has colour c; FiveColor matches a multicoloured
// creature and Colorless or Artifact a colourless one.
func (t *Troop) HasColor(c Color) bool {
	switch c {
	case FiveColor:
		return t.Multicolor()
	case Colorless, Artifact:
		return t.Colorless()
	}
	for _, x := range t.Colors {
		if x == c {
			return true
		}
	}
	return false
}

// Leg is one leg of a move: the destination and, if the order gave one, the route from the
// leg's start to it, both ends included (M4).
type Leg struct {
	To    Square   `json:"to"`
	Route []Square `json:"route,omitempty"`
}

// Plan is the rest of a long move (M14), carried out one leg a turn.
type Plan struct {
	Legs    []Leg   `json:"legs"`
	Keyword Keyword `json:"keyword,omitempty"`
	Named   string  `json:"named,omitempty"`
	// Post, At and Line identify the order, for M7's tie-breaks in later turns.
	Post int64     `json:"post"`
	At   time.Time `json:"at"`
	Line int       `json:"line"`
}

// Capture is what a captured army was before its capture, and how far its conversion has
// come (4.5).
type Capture struct {
	Side        Side     `json:"side"`
	Colors      []Color  `json:"colors,omitempty"`
	Controllers []string `json:"controllers,omitempty"`
	// Converted is set once the army has counted its 2 days and fights for its new side.
	Converted bool `json:"converted,omitempty"`
}

// Shipment is troops on their way to an army that will get them when its battle is settled
// (T3, 3.2.4.3.2–3).
type Shipment struct {
	From      string         `json:"from"`
	Creatures map[string]int `json:"creatures"`
	// WinOnly is set when the receiver was already in battle: it gets the troops only if it
	// wins; otherwise it gets them whatever the outcome.
	WinOnly bool `json:"win_only,omitempty"`
	// Troops describe creatures new to the receiver (size, colours).
	Troops []Troop `json:"troops,omitempty"`
}

// Army is one army on the map and everything the rules remember about it between turns.
type Army struct {
	Name        string   `json:"name"`
	Side        Side     `json:"side"`
	Rank        Rank     `json:"rank"`
	At          Square   `json:"at"`
	Controllers []string `json:"controllers,omitempty"`
	Colors      []Color  `json:"colors,omitempty"`
	// Legend is the army's one legend of any size, there for flavour (2.1).
	Legend string `json:"legend,omitempty"`
	// Troops is nil when the army's troop list is not known to the adjudicator.
	Troops []Troop `json:"troops"`
	Days   int     `json:"days"`
	// WinDays counts the days counted on the army's own win condition since every enemy win
	// condition was destroyed (1.7.2, D8).
	WinDays int     `json:"win_days,omitempty"`
	Faction Faction `json:"faction,omitempty"`
	// Home is a town defender's home town (6.1).
	Home string `json:"home,omitempty"`
	// Territory is the starting square of a theme army, the centre of the area it patrols;
	// Ocean marks the underwater theme army whose territory is every ocean (6.2.1).
	Territory Square `json:"territory,omitzero"`
	Ocean     bool   `json:"ocean,omitempty"`
	// shared marks troops (and their wounds) shared with the army of another map (Map.Fork):
	// ownTroops copies them before the methods of troops.go change them.
	shared bool
	// AtWar is the team a theme army is at war with, if any (6.2.2).
	AtWar    Side       `json:"at_war,omitempty"`
	Plan     *Plan      `json:"plan,omitempty"`
	Capture  *Capture   `json:"capture,omitempty"`
	Incoming []Shipment `json:"incoming,omitempty"`
}

// Troop returns the troop of the named creature, or nil.
func (a *Army) Troop(creature string) *Troop {
	for i := range a.Troops {
		if strings.EqualFold(a.Troops[i].Creature, creature) {
			return &a.Troops[i]
		}
	}
	return nil
}

// Alive is the number of troops alive in the army.
func (a *Army) Alive() int {
	n := 0
	for _, t := range a.Troops {
		n += t.Alive
	}
	return n
}

// TopSlot is the army's top slot — the slot of its largest creatures, as its troop list has
// it, whether any are alive or not — and the troops alive in it: a kill risks 500 of them and
// needs 500 alive there (4.3.2, 4.5 "lacks 500 top rank", B9). It is 0, 0 for an army with no
// troops listed.
func (a *Army) TopSlot() (slot, alive int) {
	for _, t := range a.Troops {
		slot = max(slot, t.Slot)
	}
	for _, t := range a.Troops {
		if t.Slot == slot {
			alive += t.Alive
		}
	}
	return slot, alive
}

// Wounded reports whether any troop of the army has losses to heal: fewer alive than its full
// count, or unhealed wounds on record.
func (a *Army) Wounded() bool {
	for i := range a.Troops {
		if t := &a.Troops[i]; t.Alive < t.Full || t.Wounds != nil {
			return true
		}
	}
	return false
}

// Empty reports whether the army has a known troop list with 0 troops alive in every slot
// (4.3.1, B9). An army whose troops are unknown is not empty.
func (a *Army) Empty() bool { return a.Troops != nil && a.Alive() == 0 }

// HasColor reports whether the army is a member of colour c (2.2.1.1).
func (a *Army) HasColor(c Color) bool {
	for _, x := range a.Colors {
		if x == c || (c == Artifact && x == Colorless) || (c == Colorless && x == Artifact) {
			return true
		}
	}
	return false
}

// MayUse reports whether the army may field a creature by its colours (2.2.1): a Coalition
// army needs the creature's one colour among its factions, the 5-Color faction for a
// multicoloured creature and the Colorless faction for an artifact; Phyrexia uses anything
// that is not white or green; mercenaries anything.
func (a *Army) MayUse(t *Troop) bool {
	switch a.Side {
	case Coalition:
		switch {
		case t.Multicolor():
			return a.HasColor(FiveColor)
		case t.Colorless():
			return a.HasColor(Colorless)
		}
		for _, c := range t.Colors {
			if c.IsMagic() {
				return a.HasColor(c)
			}
		}
		return false
	case Phyrexia:
		return !t.HasColor(Green) && !t.HasColor(White)
	}
	return true
}

// SlotFor is the smallest slot of the army that fits a creature of size s and has room for n
// more troops, given each slot's troops alive (load), or 0 (2.1, T2).
func (a *Army) SlotFor(s Size, n int, load [Slots + 1]int) int {
	for slot := 1; slot <= Slots; slot++ {
		if s.Fits(a.Rank.SlotSize(slot)) && load[slot]+n <= SlotCapacity(slot) {
			return slot
		}
	}
	return 0
}

// Load is how many troops are alive in each slot of the army (index 1–4).
func (a *Army) Load() [Slots + 1]int {
	var load [Slots + 1]int
	for _, t := range a.Troops {
		if t.Slot >= 1 && t.Slot <= Slots {
			load[t.Slot] += t.Alive
		}
	}
	return load
}

// TransferRoom checks that sender has the creatures and receiver has room for them (2.3.3,
// T2): at most 6 creatures counting dead ones, slot sizes and counts of its rank, and the
// colours of a Coalition army. A creature new to the receiver joins its smallest slot that
// fits its size and has room. It returns an empty code when the transfer fits.
func TransferRoom(sender, receiver *Army, creatures map[string]int) (Code, string) {
	if sender.Troops == nil {
		return "", ""
	}
	names := make([]string, 0, len(creatures))
	for c := range creatures {
		names = append(names, c)
	}
	slices.Sort(names)
	types := len(receiver.Troops)
	load := receiver.Load()
	for _, c := range names {
		n := creatures[c]
		st := sender.Troop(c)
		if n <= 0 {
			return CodeTransferNoRoom, fmt.Sprintf("send a positive number of %s, not %d", c, n)
		}
		if st == nil {
			return CodeTransferNoRoom, fmt.Sprintf("%s has no %s to send", sender.Name, c)
		}
		if st.Alive < n {
			return CodeTransferNoRoom, fmt.Sprintf("%s has only %d %s alive, not %d", sender.Name, st.Alive, c, n)
		}
		if receiver.Troops == nil {
			continue
		}
		if rt := receiver.Troop(c); rt != nil {
			if load[rt.Slot]+n > SlotCapacity(rt.Slot) {
				return CodeTransferNoRoom, fmt.Sprintf("%s's slot %d would hold %d troops; it holds at most %d (2.1, 2.3.3)", receiver.Name, rt.Slot, load[rt.Slot]+n, SlotCapacity(rt.Slot))
			}
			load[rt.Slot] += n
			continue
		}
		types++
		if types > 6 {
			return CodeTransferNoRoom, fmt.Sprintf("%s would have %d different creatures counting dead ones; at most 6 (2.1, 2.3.3)", receiver.Name, types)
		}
		if receiver.Side == Coalition && !receiver.MayUse(st) {
			return CodeTransferNoRoom, fmt.Sprintf("%s is %s; %s may not use %s creatures (2.2.1, 2.3.3)", receiver.Name, ColorList(receiver.Colors), receiver.Name, ColorList(st.Colors))
		}
		slot := receiver.SlotFor(st.Size, n, load)
		if slot == 0 {
			return CodeTransferNoRoom, fmt.Sprintf("%s has no slot with room for %d %s %s creatures (2.1, 2.3.3)", receiver.Name, n, st.Size, c)
		}
		load[slot] += n
	}
	return "", ""
}

// ColorList writes colours as players read them: "red/black", or "colourless" for none.
func ColorList(cs []Color) string {
	if len(cs) == 0 {
		return "colourless"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = string(c)
	}
	return strings.Join(parts, "/")
}

// ControlledBy reports whether player is one of the army's controllers (names compare
// without regard to case).
func (a *Army) ControlledBy(player string) bool {
	for _, c := range a.Controllers {
		if SameName(c, player) {
			return true
		}
	}
	return false
}

// Clone is a deep copy of the army.
func (a Army) Clone() Army {
	b := a
	b.shared = false
	b.Controllers = append([]string(nil), a.Controllers...)
	b.Colors = append([]Color(nil), a.Colors...)
	if a.Troops != nil {
		b.Troops = make([]Troop, len(a.Troops))
		for i, t := range a.Troops {
			t.Colors = append([]Color(nil), t.Colors...)
			t.Wounds = append([]Wound(nil), t.Wounds...)
			b.Troops[i] = t
		}
	}
	if a.Plan != nil {
		p := *a.Plan
		p.Legs = append([]Leg(nil), a.Plan.Legs...)
		b.Plan = &p
	}
	if a.Capture != nil {
		c := *a.Capture
		c.Colors = append([]Color(nil), a.Capture.Colors...)
		c.Controllers = append([]string(nil), a.Capture.Controllers...)
		b.Capture = &c
	}
	if a.Incoming != nil {
		b.Incoming = make([]Shipment, len(a.Incoming))
		for i, s := range a.Incoming {
			m := make(map[string]int, len(s.Creatures))
			for k, v := range s.Creatures {
				m[k] = v
			}
			s.Creatures = m
			s.Troops = append([]Troop(nil), s.Troops...)
			b.Incoming[i] = s
		}
	}
	return b
}

// SameName compares two army or player names as players type them: case and runs of spaces
// do not matter. It does not allocate.
func SameName(a, b string) bool {
	if a == b {
		return true
	}
	i, j := 0, 0
	for {
		ra, na := nextNameRune(a, &i)
		rb, nb := nextNameRune(b, &j)
		if !na || !nb {
			return na == nb
		}
		if ra != rb {
			return false
		}
	}
}

// nextNameRune returns the next rune of a name in its compared form (lower case, a run of
// spaces as one space, none at either end), advancing *i; ok is false at the end.
func nextNameRune(s string, i *int) (r rune, ok bool) {
	space := false
	for *i < len(s) {
		c, size := rune(s[*i]), 1
		if c >= utf8.RuneSelf {
			c, size = utf8.DecodeRuneInString(s[*i:])
		}
		if unicode.IsSpace(c) {
			space = true
			*i += size
			continue
		}
		if space && *i > size && !allSpace(s[:*i]) {
			return ' ', true
		}
		*i += size
		return unicode.ToLower(c), true
	}
	return 0, false
}

func allSpace(s string) bool {
	for _, c := range s {
		if !unicode.IsSpace(c) {
			return false
		}
	}
	return true
}

// NameKey is the form of a name used to compare it: lower case, single spaces, trimmed. A name
// already in that form is returned as it is, without allocating.
func NameKey(s string) string {
	if isKey(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; ; {
		r, ok := nextNameRune(s, &i)
		if !ok {
			return b.String()
		}
		b.WriteRune(r)
	}
}

// isKey reports whether s is already lower-case ASCII with single inner spaces.
func isKey(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf, c >= 'A' && c <= 'Z', c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			return false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i-1] == ' '):
			return false
		}
	}
	return true
}

// SiteKind is what a site is: a Coalition base, a Phyrexian portal or a neutral town.
type SiteKind string

// The kinds of site (1.1, 2.5.1).
const (
	Base   SiteKind = "base"
	Portal SiteKind = "portal"
	Town   SiteKind = "town"
)

// Site is a base, portal or town on one square (G4).
type Site struct {
	Name         string   `json:"name"`
	Kind         SiteKind `json:"kind"`
	Side         Side     `json:"side"`
	Color        Color    `json:"color,omitempty"`
	At           Square   `json:"at"`
	WinCondition bool     `json:"win_condition,omitempty"`
	Destroyed    bool     `json:"destroyed,omitempty"`
	// Description is the side's accepted description of its base or portal and its defences,
	// published with the map and read for a battle fought there (2.5.1.2, 4.1.2.4).
	Description string `json:"description,omitempty"`
}

// BattleKind says how a battle came about (M9, M11, M13, B8).
type BattleKind string

// The kinds of battle.
const (
	Attack    BattleKind = "attack"
	Meeting   BattleKind = "meeting"
	Intercept BattleKind = "intercept"
	Joint     BattleKind = "joint"
	Push      BattleKind = "push"
)

// Battle is an engagement made at a lock, to be fought the next turn (B1).
type Battle struct {
	Square   Square     `json:"square"`
	Armies   []string   `json:"armies"`
	Kind     BattleKind `json:"kind"`
	Attacker string     `json:"attacker,omitempty"`
}

func (b Battle) String() string {
	if b.Attacker != "" {
		return fmt.Sprintf("%s at %s (%s, %s attacking)", strings.Join(b.Armies, " vs "), b.Square, b.Kind, b.Attacker)
	}
	return fmt.Sprintf("%s at %s (%s)", strings.Join(b.Armies, " vs "), b.Square, b.Kind)
}
