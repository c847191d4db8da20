// Reading a newer MTGJSON file into the every-card catalogue: every card, not only the
// creatures, with each face's rules text.

package cards

import (
	"io"
	"slices"
	"strings"
)

// ReadMTGJSONAll reads an MTGJSON v5 file as ReadMTGJSON does (AtomicCards.json,
// AllPrintings.json or a set file, gzipped or not) but keeps every card, in the form of the
// shipped every-card data: the front face's fields on the card, each face with its own text,
// keywords, the Reserved List flag and the printings' set codes. Tokens, emblems, art cards,
// planes, schemes and vanguards are left out.
func ReadMTGJSONAll(r io.Reader) ([]Card, error) {
	rd, err := readMTGJSON(r)
	if err != nil {
		return nil, err
	}
	out := make([]Card, 0, len(rd.order))
	for _, name := range rd.order {
		out = append(out, rd.groups[name].full())
	}
	slices.SortFunc(out, func(a, b Card) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// full is the group as a card of any kind.
func (g *group) full() Card {
	faces := slices.Clone(g.faces)
	slices.SortStableFunc(faces, func(a, b mtgCard) int { return strings.Compare(a.Side, b.Side) })
	f := &faces[0]
	text := f.Text
	c := Card{
		Name: g.name, Colors: nonNil(f.Colors), ColorIdentity: f.ColorIdentity, ManaCost: f.ManaCost,
		Type: f.Type, Supertypes: f.Supertypes, Types: nonNil(f.Types), Subtypes: f.Subtypes,
		Power: f.Power, Toughness: f.Toughness, Loyalty: f.Loyalty, Layout: f.Layout, Text: &text,
		OldLegend: g.oldLegend, Funny: g.isFunny(), DigitalOnly: g.digitalOnly(),
		Printings: g.sets, FirstSet: f.FirstPrinting,
	}
	if len(c.Printings) == 0 {
		c.Printings = f.Printings
	}
	if c.FirstSet == "" && len(c.Printings) > 0 {
		c.FirstSet = c.Printings[0]
	}
	for _, x := range faces {
		c.Reserved = c.Reserved || x.IsReserved
		for _, k := range x.Keywords {
			if !slices.Contains(c.Keywords, k) {
				c.Keywords = append(c.Keywords, k)
			}
		}
	}
	if len(faces) > 1 || f.FaceName != "" && f.FaceName != g.name {
		for _, x := range faces {
			name := x.FaceName
			if name == "" {
				name = x.Name
			}
			c.Faces = append(c.Faces, Face{Name: name, ManaCost: x.ManaCost, Colors: x.Colors, Type: x.Type,
				Supertypes: x.Supertypes, Types: x.Types, Subtypes: x.Subtypes, Power: x.Power,
				Toughness: x.Toughness, Loyalty: x.Loyalty, Text: x.Text})
		}
	}
	return c
}
