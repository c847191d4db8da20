package cards

import (
	_ "embed"
	"strings"
	"sync"
)

//go:embed data/old-legend-creatures.tsv
var oldLegendsTSV string

// LegendPrinting is where a creature was printed with the old "Legend" creature type (2.2.1).
type LegendPrinting struct {
	Name string `json:"name"`
	// Set is the set code of the printing ("LEG").
	Set string `json:"set"`
	// Released is the set's release date, YYYY-MM-DD.
	Released string `json:"released"`
	// TypeLine is the type line as printed ("Summon - Legend").
	TypeLine string `json:"type_line"`
}

// oldLegends maps both the exact name and its Key to each printing.
var oldLegends = sync.OnceValue(func() map[string]LegendPrinting {
	m := make(map[string]LegendPrinting, 512)
	for _, line := range strings.Split(oldLegendsTSV, "\n") {
		f := strings.Split(strings.TrimRight(line, "\r"), "\t")
		if len(f) < 4 || f[0] == "" {
			continue
		}
		p := LegendPrinting{Name: f[0], Set: f[1], Released: f[2], TypeLine: f[3]}
		m[f[0]] = p
		m[Key(f[0])] = p
	}
	return m
})

// OldLegend finds a creature in the shipped list of creatures printed with the old "Legend"
// creature type.
func OldLegend(name string) (LegendPrinting, bool) {
	m := oldLegends()
	if p, ok := m[name]; ok {
		return p, true
	}
	p, ok := m[Key(name)]
	return p, ok
}

// MarkOldLegends sets OldLegend on every card of the shipped old-Legend list, so a card read
// from a source that lost the old type line (an MTGJSON AtomicCards file) is still banned as a
// troop (2.2.1).
func MarkOldLegends(cs []Card) {
	m := oldLegends()
	for i := range cs {
		if cs[i].OldLegend {
			continue
		}
		_, ok := m[cs[i].Name]
		if !ok && !ascii(cs[i].Name) {
			_, ok = m[Key(cs[i].Name)]
		}
		cs[i].OldLegend = ok
	}
}
