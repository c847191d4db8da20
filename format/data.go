// The shipped formats document (data/formats.json) and the checks any document passes
// before it is used: an admin's edited banned list goes through Read too.

package format

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"
)

//go:embed data/formats.json
var shippedJSON []byte

// Shipped is the formats document shipped in the program: Coalition (page, draft,
// site-2026), Heroic (2023-12-03) and Manahearth (rules) with their banned lists.
var Shipped = sync.OnceValue(func() *Formats {
	fs, err := Read(bytes.NewReader(shippedJSON))
	if err != nil {
		panic("format: the shipped data/formats.json: " + err.Error())
	}
	return fs
})

// Read reads a formats document and checks it: every format has a known system, a default
// revision it holds, exact sizes, and banned lists the document has with known categories.
func Read(r io.Reader) (*Formats, error) {
	var fs Formats
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fs); err != nil {
		return nil, fmt.Errorf("reading formats: %w", err)
	}
	for _, b := range fs.Banlists {
		for _, cat := range b.Categories {
			if !slices.Contains(Categories, cat) {
				return nil, fmt.Errorf("banned list %s: unknown category %q; the categories are %v", b.ID, cat, Categories)
			}
		}
	}
	for _, f := range fs.Formats {
		if _, ok := systems[f.System]; !ok {
			return nil, fmt.Errorf("format %s: unknown system %q", f.Name, f.System)
		}
		if _, _, err := fs.Find(f.Name, ""); err != nil {
			return nil, fmt.Errorf("format %s: its default: %w", f.Name, err)
		}
		for _, r := range f.Revisions {
			if r.Main <= 0 || r.Side < 0 {
				return nil, fmt.Errorf("format %s %s: sizes %d + %d", f.Name, r.Name, r.Main, r.Side)
			}
			if _, ok := fs.Banlist(r.Banned); !ok && r.Banned != "" {
				return nil, fmt.Errorf("format %s %s: no banned list %q", f.Name, r.Name, r.Banned)
			}
		}
	}
	return &fs, nil
}
