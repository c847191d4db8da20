package cards

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// mtgCard is the part of an MTGJSON card (atomic or printing) the catalogue keeps.
type mtgCard struct {
	Name          string   `json:"name"`
	FaceName      string   `json:"faceName"`
	Side          string   `json:"side"`
	Layout        string   `json:"layout"`
	ManaCost      string   `json:"manaCost"`
	Type          string   `json:"type"`
	OriginalType  string   `json:"originalType"`
	Colors        []string `json:"colors"`
	ColorIdentity []string `json:"colorIdentity"`
	Supertypes    []string `json:"supertypes"`
	Types         []string `json:"types"`
	Subtypes      []string `json:"subtypes"`
	Power         string   `json:"power"`
	Toughness     string   `json:"toughness"`
	Text          string   `json:"text"`
	IsFunny       bool     `json:"isFunny"`
	IsOnlineOnly  bool     `json:"isOnlineOnly"`
	Availability  []string `json:"availability"`
	// Read for the every-card catalogue (ReadMTGJSONAll).
	Loyalty       string   `json:"loyalty"`
	Keywords      []string `json:"keywords"`
	IsReserved    bool     `json:"isReserved"`
	Printings     []string `json:"printings"`
	FirstPrinting string   `json:"firstPrinting"`
	SetCode       string   `json:"setCode"`
}

// group gathers what the printings of one card name say.
type group struct {
	name  string
	faces []mtgCard // one per side, in order of first appearance
	// printings counts printings read; paper and funny count those on paper and funny.
	printings, paper, funny int
	oldLegend               bool
	// sets are the set codes of the printings read (AllPrintings and set files).
	sets []string
}

// reader collects MTGJSON cards by name.
type reader struct {
	groups map[string]*group
	order  []string
}

// ReadMTGJSON reads an MTGJSON v5 file — AtomicCards.json (data: {name: [faces]}),
// AllPrintings.json (data: {SET: {cards: [...]}}) or a single set file (data: {cards: [...]}),
// gzipped or not — and returns its creature cards in the catalogue's form. From printings it
// also learns which cards had the old "Legend" creature type (originalType), which exist only
// digitally and which are funny.
func ReadMTGJSON(r io.Reader) ([]Card, error) {
	rd, err := readMTGJSON(r)
	if err != nil {
		return nil, err
	}
	return rd.cards(), nil
}

// readMTGJSON reads an MTGJSON file into groups of faces by card name.
func readMTGJSON(r io.Reader) (*reader, error) {
	in, err := decompress(r)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(in)
	rd := &reader{groups: map[string]*group{}}
	if err := rd.file(dec); err != nil {
		return nil, fmt.Errorf("reading MTGJSON: %w", err)
	}
	return rd, nil
}

func delim(dec *json.Decoder, want json.Delim) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != want {
		return fmt.Errorf("expected %q, found %v", want, t)
	}
	return nil
}

func key(dec *json.Decoder) (string, error) {
	t, err := dec.Token()
	if err != nil {
		return "", err
	}
	s, ok := t.(string)
	if !ok {
		return "", fmt.Errorf("expected a key, found %v", t)
	}
	return s, nil
}

// skip reads and drops one value.
func skip(dec *json.Decoder) error {
	var raw json.RawMessage
	return dec.Decode(&raw)
}

func (rd *reader) file(dec *json.Decoder) error {
	if err := delim(dec, '{'); err != nil {
		return err
	}
	found := false
	for dec.More() {
		k, err := key(dec)
		if err != nil {
			return err
		}
		if k != "data" {
			if err := skip(dec); err != nil {
				return err
			}
			continue
		}
		found = true
		if err := rd.data(dec); err != nil {
			return err
		}
	}
	if !found {
		return errors.New(`no "data" object: not an MTGJSON AtomicCards, AllPrintings or set file`)
	}
	return delim(dec, '}')
}

// data reads the data object, telling the three files apart by its first value: an array
// (AtomicCards), an object (AllPrintings) or anything else (a set file's own fields).
func (rd *reader) data(dec *json.Decoder) error {
	if err := delim(dec, '{'); err != nil {
		return err
	}
	kind := ""
	for dec.More() {
		k, err := key(dec)
		if err != nil {
			return err
		}
		t, err := dec.Token()
		if err != nil {
			return err
		}
		this := "set"
		if d, ok := t.(json.Delim); ok {
			this = map[json.Delim]string{'[': "atomic", '{': "all"}[d]
		}
		if kind == "" {
			kind = this
		}
		switch {
		case kind == "atomic" && this == "atomic":
			if err := rd.cardArray(dec); err != nil {
				return fmt.Errorf("card %q: %w", k, err)
			}
		case kind == "all" && this == "all":
			if err := rd.set(dec); err != nil {
				return fmt.Errorf("set %s: %w", k, err)
			}
		case kind == "set":
			if err := rd.setField(dec, k, t, nil); err != nil {
				return err
			}
		default:
			return fmt.Errorf("data mixes cards and sets at %q", k)
		}
	}
	return delim(dec, '}')
}

// set reads one set object of AllPrintings, after its opening brace.
func (rd *reader) set(dec *json.Decoder) error {
	online := false
	var names []string
	for dec.More() {
		k, err := key(dec)
		if err != nil {
			return err
		}
		t, err := dec.Token()
		if err != nil {
			return err
		}
		if k == "isOnlineOnly" {
			b, _ := t.(bool)
			online = b
			continue
		}
		if err := rd.setField(dec, k, t, &names); err != nil {
			return err
		}
	}
	if online {
		// The set's cards were counted as paper printings: take them back.
		for _, n := range names {
			rd.groups[n].paper--
		}
	}
	return delim(dec, '}')
}

// setField reads the value of a set's field k whose first token t is already read; the names
// of the cards read are added to names.
func (rd *reader) setField(dec *json.Decoder, k string, t json.Token, names *[]string) error {
	d, isDelim := t.(json.Delim)
	switch {
	case k == "cards" && isDelim && d == '[':
		return rd.printings(dec, names)
	case isDelim:
		return rest(dec, d)
	}
	return nil
}

// rest skips the remainder of an array or object whose opening delimiter was read.
func rest(dec *json.Decoder, open json.Delim) error {
	for dec.More() {
		if open == '{' {
			if _, err := key(dec); err != nil {
				return err
			}
		}
		if err := skip(dec); err != nil {
			return err
		}
	}
	_, err := dec.Token()
	return err
}

// printings reads a set's card array, after its opening bracket.
func (rd *reader) printings(dec *json.Decoder, names *[]string) error {
	for dec.More() {
		var c mtgCard
		if err := dec.Decode(&c); err != nil {
			return err
		}
		if skipLayout(c.Layout) || c.Name == "" {
			continue
		}
		g := rd.add(c)
		if c.Side == "" || c.Side == "a" {
			g.printings++
			if !c.IsOnlineOnly && (len(c.Availability) == 0 || slices.Contains(c.Availability, "paper")) {
				g.paper++
				if names != nil {
					*names = append(*names, c.Name)
				}
			}
			if c.IsFunny {
				g.funny++
			}
			if c.SetCode != "" && !slices.Contains(g.sets, c.SetCode) {
				g.sets = append(g.sets, c.SetCode)
			}
		}
		if legendType(c.OriginalType) {
			g.oldLegend = true
		}
	}
	_, err := dec.Token()
	return err
}

// cardArray reads an AtomicCards entry: the faces of one card, after the opening bracket.
func (rd *reader) cardArray(dec *json.Decoder) error {
	first := true
	for dec.More() {
		var c mtgCard
		if err := dec.Decode(&c); err != nil {
			return err
		}
		if skipLayout(c.Layout) || c.Name == "" {
			continue
		}
		g := rd.add(c)
		if first {
			g.printings++
			g.paper++
			if c.IsFunny {
				g.funny++
			}
			first = false
		}
	}
	_, err := dec.Token()
	return err
}

func skipLayout(l string) bool {
	switch l {
	case "token", "double_faced_token", "emblem", "art_series", "vanguard", "planar", "scheme":
		return true
	}
	return false
}

// legendType reports whether a printed type line had the old "Legend" creature type
// ("Summon Legend", "Creature - Dragon Legend"); the later "Legendary" supertype does not count.
func legendType(line string) bool {
	if line == "" {
		return false
	}
	fields := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '-' || r == '—' })
	creature := false
	for _, f := range fields {
		switch f {
		case "Summon", "Creature":
			creature = true
		case "Legend":
			return creature
		}
	}
	return false
}

// add files one face of a card under its name, keeping the first face seen for each side.
func (rd *reader) add(c mtgCard) *group {
	g, ok := rd.groups[c.Name]
	if !ok {
		g = &group{name: c.Name}
		rd.groups[c.Name] = g
		rd.order = append(rd.order, c.Name)
	}
	for _, f := range g.faces {
		if f.Side == c.Side && f.FaceName == c.FaceName {
			return g
		}
	}
	g.faces = append(g.faces, c)
	return g
}

// cards turns the groups into catalogue cards, keeping creatures only.
func (rd *reader) cards() []Card {
	out := make([]Card, 0, len(rd.order)/2)
	for _, name := range rd.order {
		g := rd.groups[name]
		c, ok := g.card()
		if ok {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b Card) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func (g *group) card() (Card, bool) {
	faces := slices.Clone(g.faces)
	slices.SortStableFunc(faces, func(a, b mtgCard) int { return strings.Compare(a.Side, b.Side) })
	main := -1
	for i := range faces {
		if slices.Contains(faces[i].Types, "Creature") {
			main = i
			break
		}
	}
	if main < 0 {
		return Card{}, false
	}
	m := &faces[main]
	c := Card{
		Name:          g.name,
		Colors:        nonNil(m.Colors),
		ColorIdentity: m.ColorIdentity,
		ManaCost:      faces[0].ManaCost,
		Supertypes:    m.Supertypes,
		Types:         nonNil(m.Types),
		Subtypes:      m.Subtypes,
		Power:         m.Power,
		Toughness:     m.Toughness,
		Layout:        faces[0].Layout,
		OldLegend:     g.oldLegend,
		Funny:         g.isFunny(),
		DigitalOnly:   g.digitalOnly(),
	}
	// MTGJSON leaves the text out of a card without abilities: every face's text is known
	var texts []string
	for _, f := range faces {
		if f.Text != "" {
			texts = append(texts, f.Text)
		}
	}
	text := strings.Join(texts, "\n")
	c.Text = &text
	if len(faces) > 1 || faces[0].FaceName != "" && faces[0].FaceName != g.name {
		for _, f := range faces {
			name := f.FaceName
			if name == "" {
				name = f.Name
			}
			c.Faces = append(c.Faces, Face{Name: name, ManaCost: f.ManaCost, Colors: f.Colors, Type: f.Type,
				Supertypes: f.Supertypes, Types: f.Types, Subtypes: f.Subtypes, Power: f.Power, Toughness: f.Toughness})
		}
	}
	return c, true
}

// isFunny reports whether every printing read is funny (an Un-card).
func (g *group) isFunny() bool { return g.printings > 0 && g.funny == g.printings }

// digitalOnly reports whether no printing read is on paper; Alchemy rebalanced cards ("A-")
// exist only on MTG Arena.
func (g *group) digitalOnly() bool {
	return g.printings > 0 && g.paper <= 0 || strings.HasPrefix(g.name, "A-")
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Merge lays newer cards over base ones by name and returns the result sorted by name, with
// how many cards were added and how many changed. The old-Legend and digital-only flags and a
// judge's Reach of a base card carry over when the newer card lacks them.
func Merge(base, newer []Card) (merged []Card, added, changed int) {
	idx := make(map[string]int, len(base))
	merged = make([]Card, 0, len(base)+len(newer)/8)
	for _, c := range base {
		k := Key(c.Name)
		if k == "" {
			continue
		}
		if i, ok := idx[k]; ok {
			merged[i] = c
			continue
		}
		idx[k] = len(merged)
		merged = append(merged, c)
	}
	for _, c := range newer {
		k := Key(c.Name)
		if k == "" {
			continue
		}
		i, ok := idx[k]
		if !ok {
			idx[k] = len(merged)
			merged = append(merged, c)
			added++
			continue
		}
		old := merged[i]
		c.OldLegend = c.OldLegend || old.OldLegend
		c.DigitalOnly = c.DigitalOnly || old.DigitalOnly
		if c.Reach == nil {
			c.Reach = old.Reach
		}
		if c.Text == nil {
			c.Text = old.Text
		}
		if c.FirstPrinted == "" {
			// MTGJSON gives no dates by card: the shipped first printing stays.
			c.FirstPrinted, c.FirstSet = old.FirstPrinted, cmp.Or(old.FirstSet, c.FirstSet)
		}
		if c.Aliases == nil {
			c.Aliases = old.Aliases
		}
		if !same(&old, &c) {
			changed++
		}
		merged[i] = c
	}
	slices.SortFunc(merged, func(a, b Card) int { return strings.Compare(a.Name, b.Name) })
	return merged, added, changed
}

// same reports whether two cards say the same about the things the rules use.
func same(a, b *Card) bool {
	return a.Name == b.Name && slices.Equal(a.Colors, b.Colors) && slices.Equal(a.Types, b.Types) &&
		slices.Equal(a.Supertypes, b.Supertypes) && slices.Equal(a.Subtypes, b.Subtypes) &&
		a.Power == b.Power && a.Toughness == b.Toughness && a.OldLegend == b.OldLegend &&
		a.Funny == b.Funny && a.DigitalOnly == b.DigitalOnly && len(a.Faces) == len(b.Faces)
}
