package turn

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// Keyed is a value per name (an army's or a creature's), sorted by name byte by byte; in JSON
// it is an object, exactly as a map would be written.
type Keyed[V any] []Entry[V]

// Entry is one name and its value.
type Entry[V any] struct {
	Name  string
	Value V
}

// KeyedOf makes a Keyed from a map.
func KeyedOf[V any](m map[string]V) Keyed[V] {
	k := make(Keyed[V], 0, len(m))
	for n, v := range m {
		k = append(k, Entry[V]{n, v})
	}
	k.sort()
	return k
}

func (k Keyed[V]) sort() {
	if len(k) <= 12 {
		// most lists are an army's few creatures: an insertion sort, as slices.SortFunc's
		for i := 1; i < len(k); i++ {
			for j := i; j > 0 && nameLess(k[j].Name, k[j-1].Name); j-- {
				k[j], k[j-1] = k[j-1], k[j]
			}
		}
		return
	}
	slices.SortFunc(k, func(a, b Entry[V]) int { return strings.Compare(a.Name, b.Name) })
}

// nameLess is a < b, deciding by the first bytes without a call when they differ.
func nameLess(a, b string) bool {
	if a != "" && b != "" && a[0] != b[0] {
		return a[0] < b[0]
	}
	return a < b
}

// Get returns the named value, and whether there is one.
func (k Keyed[V]) Get(name string) (V, bool) {
	i, ok := slices.BinarySearchFunc(k, name, func(e Entry[V], n string) int { return strings.Compare(e.Name, n) })
	if !ok {
		var zero V
		return zero, false
	}
	return k[i].Value, true
}

// Names lists the names in order.
func (k Keyed[V]) Names() []string {
	out := make([]string, len(k))
	for i, e := range k {
		out[i] = e.Name
	}
	return out
}

// MarshalJSON writes the entries as one JSON object, names in order.
func (k Keyed[V]) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range k {
		if i > 0 {
			b.WriteByte(',')
		}
		name, err := json.Marshal(e.Name)
		if err != nil {
			return nil, err
		}
		val, err := json.Marshal(e.Value)
		if err != nil {
			return nil, err
		}
		b.Write(name)
		b.WriteByte(':')
		b.Write(val)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads a JSON object.
func (k *Keyed[V]) UnmarshalJSON(data []byte) error {
	var m map[string]V
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	*k = KeyedOf(m)
	return nil
}

// Map is the entries as a map, for callers that look names up often.
func (k Keyed[V]) Map() map[string]V {
	m := make(map[string]V, len(k))
	for _, e := range k {
		m[e.Name] = e.Value
	}
	return m
}

// Set gives name the value v, adding it in order if it is new.
func (k *Keyed[V]) Set(name string, v V) {
	i, ok := slices.BinarySearchFunc(*k, name, func(e Entry[V], n string) int { return strings.Compare(e.Name, n) })
	if ok {
		(*k)[i].Value = v
		return
	}
	*k = slices.Insert(*k, i, Entry[V]{name, v})
}
