package cards

import (
	"cmp"
	"slices"
	"strings"
)

// hit is a card matching a query and how well.
type hit struct {
	e    *entries
	i    int
	rank int
}

// Search finds up to limit cards whose names contain the query, for a troop picker: the exact
// name first, then names starting with it, then names holding every word of it as the start
// of a word, then names containing it anywhere; shorter names first within each group.
func (c *Catalogue) Search(query string, limit int) []Card {
	hits := c.search(query, limit)
	out := make([]Card, len(hits))
	for n, h := range hits {
		out[n] = h.e.resolve(ref{card: int32(h.i), face: -1})
	}
	c.mu.RUnlock()
	return out
}

// search returns the best hits with the read lock held; the caller unlocks.
func (c *Catalogue) search(query string, limit int) []hit {
	q := Key(query)
	words := strings.Fields(Words(query))
	for i, w := range words {
		words[i] = " " + w
	}
	c.mu.RLock()
	if q == "" || limit <= 0 {
		return nil
	}
	var hits []hit
	scan := func(e *entries, base bool) {
		spaced := e.spaced()
		for i := range e.cards {
			if base && c.shadowed(i) {
				continue
			}
			if r := match(e.keys[i], spaced[i], q, words); r >= 0 {
				hits = append(hits, hit{e: e, i: i, rank: r})
			}
		}
	}
	scan(c.over, false)
	scan(c.base, true)
	slices.SortFunc(hits, func(a, b hit) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank),
			cmp.Compare(len(a.e.keys[a.i]), len(b.e.keys[b.i])),
			strings.Compare(a.e.cards[a.i].Name, b.e.cards[b.i].Name))
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits
}

// match ranks a name against a query: 0 the same, 1 starts with it, 2 every query word starts
// a word of the name, 3 contains it; -1 no match. words are the query's words, each with a
// leading space.
func match(key, spaced, q string, words []string) int {
	switch {
	case key == q:
		return 0
	case strings.HasPrefix(key, q):
		return 1
	}
	all := len(words) > 0
	for _, w := range words {
		if !strings.HasPrefix(spaced, w[1:]) && !strings.Contains(spaced, w) {
			all = false
			break
		}
	}
	if all {
		return 2
	}
	if strings.Contains(key, q) {
		return 3
	}
	return -1
}

// Suggest lists up to n names close to one that matched nothing: names containing it first
// (as Search finds them), then names a few typing mistakes away ("Grizly Bears" → "Grizzly
// Bears").
func (c *Catalogue) Suggest(name string, n int) []string {
	if n <= 0 {
		return nil
	}
	hits := c.search(name, n)
	out := make([]string, 0, n)
	seen := make(map[string]bool, n)
	for _, h := range hits {
		out = append(out, h.e.cards[h.i].Name)
		seen[h.e.keys[h.i]] = true
	}
	if len(out) < n {
		q := Key(name)
		if q != "" {
			out = c.nearest(q, n, out, seen)
		}
	}
	c.mu.RUnlock()
	return out
}

// nearest appends the names nearest to key by edit distance, within a few typing mistakes;
// the read lock is held.
func (c *Catalogue) nearest(q string, n int, out []string, seen map[string]bool) []string {
	limit := min(1+len(q)/4, 4)
	type near struct {
		name string
		d    int
	}
	var found []near
	scan := func(e *entries, base bool) {
		for i, k := range e.keys {
			if seen[k] || (base && c.shadowed(i)) {
				continue
			}
			if d := distance(q, k, limit); d <= limit {
				found = append(found, near{e.cards[i].Name, d})
			}
		}
	}
	scan(c.over, false)
	scan(c.base, true)
	slices.SortFunc(found, func(a, b near) int {
		return cmp.Or(cmp.Compare(a.d, b.d), strings.Compare(a.name, b.name))
	})
	for _, f := range found {
		if len(out) == n {
			break
		}
		out = append(out, f.name)
	}
	return out
}
