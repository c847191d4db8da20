// Package cards is the catalogue of Magic: the Gathering creatures troop lists are checked
// against (rules 2.1–2.2): the shipped card data embedded in the program, newer MTGJSON files a
// judge imports, and cards a judge adds or corrects by hand. Names are looked up the way
// players type them (case, punctuation and accents do not matter) and close names are
// suggested when nothing matches. It imports only the domain and the standard library (and
// golang.org/x/text for accent folding).
package cards

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/coalition-wargame/coalition/domain"
)

//go:embed data/mtg-creatures.json.gz
var shipped []byte

// ref points at a card of a list, or one of its faces.
type ref struct {
	card int32
	face int16 // -1: the whole card
}

// entries is a list of cards with its name index.
type entries struct {
	cards []Card
	keys  []string // Key of each card's name
	index map[string]ref
	// words holds Words of each card's name, made on the first search.
	words     []string
	wordsOnce sync.Once
}

// newEntries indexes cards by name; when two share a name, the later one counts.
func newEntries(cs []Card) *entries {
	e := &entries{cards: make([]Card, 0, len(cs)), keys: make([]string, 0, len(cs)), index: make(map[string]ref, len(cs)+len(cs)/16)}
	for _, c := range cs {
		k := Key(c.Name)
		if k == "" {
			continue
		}
		if r, ok := e.index[k]; ok {
			e.cards[r.card] = c
			continue
		}
		e.index[k] = ref{card: int32(len(e.cards)), face: -1}
		e.cards = append(e.cards, c)
		e.keys = append(e.keys, k)
	}
	// A face's name never hides a whole card's name.
	for i := range e.cards {
		for f := range e.cards[i].Faces {
			k := Key(e.cards[i].Faces[f].Name)
			if _, taken := e.index[k]; !taken && k != "" {
				e.index[k] = ref{card: int32(i), face: int16(f)}
			}
		}
	}
	return e
}

// spaced returns Words of every card's name.
func (e *entries) spaced() []string {
	e.wordsOnce.Do(func() {
		e.words = make([]string, len(e.cards))
		for i := range e.cards {
			e.words[i] = Words(e.cards[i].Name)
		}
	})
	return e.words
}

// Catalogue is the set of creature cards troop lists are checked against: a base (the shipped
// or imported data) under the cards judges put by hand. It is safe for concurrent use.
type Catalogue struct {
	mu   sync.RWMutex
	base *entries
	over *entries
}

// New builds a catalogue on the given cards; when two share a name, the later one counts.
func New(cs []Card) *Catalogue {
	return &Catalogue{base: newEntries(cs), over: newEntries(nil)}
}

// Load reads the card data shipped inside the program (cards/data): every creature card with
// the old-Legend flags of the shipped legend list.
func Load() (*Catalogue, error) {
	cs, err := ReadCards(bytes.NewReader(shipped))
	if err != nil {
		return nil, fmt.Errorf("shipped card data: %w", err)
	}
	MarkOldLegends(cs)
	return New(cs), nil
}

// ReadCards reads a catalogue file: a JSON array of cards in the shipped format, gzipped or
// not.
func ReadCards(r io.Reader) ([]Card, error) {
	br, err := decompress(r)
	if err != nil {
		return nil, err
	}
	var cs []Card
	if err := json.NewDecoder(br).Decode(&cs); err != nil {
		return nil, fmt.Errorf("reading cards: %w", err)
	}
	return cs, nil
}

// WriteCards writes cards as a gzipped JSON array, one card a line, in the shipped format.
func WriteCards(w io.Writer, cs []Card) error {
	zw := gzip.NewWriter(w)
	bw := bufio.NewWriter(zw)
	if _, err := bw.WriteString("["); err != nil {
		return err
	}
	for i := range cs {
		b, err := json.Marshal(&cs[i])
		if err != nil {
			return err
		}
		if i > 0 {
			bw.WriteString(",\n")
		}
		bw.Write(b)
	}
	bw.WriteString("]\n")
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// decompress returns r's content, gunzipped when it starts with the gzip magic bytes.
func decompress(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	head, _ := br.Peek(2)
	if len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("reading gzip: %w", err)
		}
		return zr, nil
	}
	return br, nil
}

// Len is the number of cards a lookup can find.
func (c *Catalogue) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	n := len(c.over.cards)
	for i := range c.base.cards {
		if !c.shadowed(i) {
			n++
		}
	}
	return n
}

// shadowed reports whether base card i is replaced by a judge's card of the same name.
func (c *Catalogue) shadowed(i int) bool {
	if len(c.over.cards) == 0 {
		return false
	}
	r, ok := c.over.index[c.base.keys[i]]
	return ok && r.face < 0
}

// Lookup finds a card by name, whatever its case, punctuation and accents; a face of a
// multi-faced card is found by its own name and comes back as that face. The card's Reach
// comes from the built-in table when the data gives none; it must not be modified.
func (c *Catalogue) Lookup(name string) (Card, bool) {
	return c.lookupKey(Key(name))
}

func (c *Catalogue) lookupKey(k string) (Card, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	e, r, ok := c.locate(k)
	if !ok {
		return Card{}, false
	}
	return e.resolve(r), true
}

// locate finds the entries and the reference a key names: a judge's card first, then a
// shipped one no judge's card replaces. The read lock is held.
func (c *Catalogue) locate(k string) (*entries, ref, bool) {
	if k == "" {
		return nil, ref{}, false
	}
	if r, ok := c.over.index[k]; ok {
		return c.over, r, true
	}
	if r, ok := c.base.index[k]; ok && !c.shadowed(int(r.card)) {
		return c.base, r, true
	}
	return nil, ref{}, false
}

func (e *entries) resolve(r ref) Card {
	card := &e.cards[r.card]
	out := *card
	key := e.keys[r.card]
	if r.face >= 0 && slices.Contains(card.Faces[r.face].Types, "Creature") {
		out = card.face(int(r.face))
		key = Key(out.Name)
	}
	if out.Reach == nil {
		out.Reach = knownByKey[key]
	}
	return out
}

// Put adds a card, or replaces the card of the same name, over the shipped data: a judge's
// correction. The card must be a creature with a name, W/U/B/R/G colour letters and a
// readable power and toughness.
func (c *Catalogue) Put(card Card) error { return c.put(card, Validate) }

// put lays a card over the base once validate finds nothing wrong with it.
func (c *Catalogue) put(card Card, validate func(*Card) error) error {
	if err := validate(&card); err != nil {
		return err
	}
	k := Key(card.Name)
	c.mu.Lock()
	defer c.mu.Unlock()
	cs := slices.Clone(c.over.cards)
	if r, ok := c.over.index[k]; ok && r.face < 0 {
		cs[r.card] = card
	} else {
		cs = append(cs, card)
	}
	c.over = newEntries(cs)
	return nil
}

// Drop removes a judge's card, bringing back the shipped card of that name if there is one.
// It reports whether there was such a card.
func (c *Catalogue) Drop(name string) bool {
	k := Key(name)
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.over.index[k]
	if !ok || r.face >= 0 {
		return false
	}
	cs := slices.Delete(slices.Clone(c.over.cards), int(r.card), int(r.card)+1)
	c.over = newEntries(cs)
	return true
}

// Overlays are the cards judges put, in the order first put: what a server persists and puts
// again at start.
func (c *Catalogue) Overlays() []Card {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return slices.Clone(c.over.cards)
}

// Cards lists every card a lookup can find, judges' cards included, sorted by name.
func (c *Catalogue) Cards() []Card {
	c.mu.RLock()
	out := make([]Card, 0, len(c.base.cards)+len(c.over.cards))
	for i := range c.base.cards {
		if !c.shadowed(i) {
			out = append(out, c.base.cards[i])
		}
	}
	out = append(out, c.over.cards...)
	c.mu.RUnlock()
	slices.SortFunc(out, func(a, b Card) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Validate reports what is wrong with a card a judge wants to put, in plain words.
func Validate(card *Card) error {
	if Key(card.Name) == "" {
		return domain.Errorf(domain.ErrInvalid, "a card needs a name with letters or digits")
	}
	if !card.IsCreature() {
		return domain.Errorf(domain.ErrInvalid, "%s is not a creature: its types must include Creature", card.Name)
	}
	for _, l := range card.Colors {
		if !validLetter(l) {
			return domain.Errorf(domain.ErrInvalid, "%s: %q is not a colour; write W, U, B, R or G", card.Name, l)
		}
	}
	for _, f := range []struct{ what, text string }{{"power", card.Power}, {"toughness", card.Toughness}} {
		if _, err := ParseStat(f.text); err != nil {
			return domain.Errorf(domain.ErrInvalid, "%s: the %s %q is not a printed value; write a number, *, 1+*, 7-*, 3.5, ∞ or ?", card.Name, f.what, f.text)
		}
	}
	if card.Reach != nil {
		if err := card.Reach.Validate(); err != nil {
			return domain.Errorf(domain.ErrInvalid, "%s: %s", card.Name, err)
		}
	}
	return nil
}
