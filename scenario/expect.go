package scenario

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/coalition-wargame/coalition/turn"
)

// Compare checks one turn's report against the turn's expect block exactly as the shared
// check-scenarios tool does: only the keys present are checked. It returns the differences.
func Compare(turnIndex int, expect json.RawMessage, got *turn.Report) ([]string, error) {
	if len(expect) == 0 {
		return nil, nil
	}
	var exp map[string]json.RawMessage
	if err := json.Unmarshal(expect, &exp); err != nil {
		return nil, fmt.Errorf("expect block of turn %d: %w", turnIndex+1, err)
	}
	// compare through the report's JSON form, as an outside tool would
	raw, err := json.Marshal(got)
	if err != nil {
		return nil, err
	}
	var have map[string]any
	if err := json.Unmarshal(raw, &have); err != nil {
		return nil, err
	}
	where := fmt.Sprintf("turn %d", turnIndex+1)
	var diffs []string
	add := func(format string, args ...any) { diffs = append(diffs, where+": "+fmt.Sprintf(format, args...)) }
	if v, ok := exp["positions"]; ok {
		var want map[string]any
		if err := json.Unmarshal(v, &want); err != nil {
			return nil, fmt.Errorf("%s: positions: %w", where, err)
		}
		pos, _ := have["positions"].(map[string]any)
		for _, army := range sortedKeys(want) {
			w := want[army]
			h, present := pos[army]
			switch wv := w.(type) {
			case nil:
				if present {
					add("%s should be off the map, is on %v", army, h)
				}
			case []any:
				if !slices.ContainsFunc(wv, func(x any) bool { return x == h }) {
					add("%s should be on one of %v, is on %v", army, wv, h)
				}
			default:
				if h != w {
					add("%s should be on %v, is on %v", army, w, h)
				}
			}
		}
	}
	if v, ok := exp["battles"]; ok {
		var want []map[string]any
		if err := json.Unmarshal(v, &want); err != nil {
			return nil, fmt.Errorf("%s: battles: %w", where, err)
		}
		hb := map[string]map[string]any{}
		for _, b := range asList(have["battles"]) {
			hb[battleKey(b)] = b
		}
		wb := map[string]map[string]any{}
		for _, b := range want {
			wb[battleKey(b)] = b
		}
		for _, k := range sortedKeys(wb) {
			h, ok := hb[k]
			if !ok {
				add("missing battle between %s", k)
				continue
			}
			for _, f := range []string{"kind", "attacker", "square"} {
				if wv, ok := wb[k][f]; ok && wv != h[f] {
					add("battle %s: %s should be %v, is %v", k, f, wv, h[f])
				}
			}
		}
		for _, k := range sortedKeys(hb) {
			if _, ok := wb[k]; !ok {
				add("unexpected battle between %s", k)
			}
		}
	}
	if v, ok := exp["rejected"]; ok {
		var want []map[string]any
		if err := json.Unmarshal(v, &want); err != nil {
			return nil, fmt.Errorf("%s: rejected: %w", where, err)
		}
		ws := map[string]bool{}
		keepSuperseded := false
		for _, r := range want {
			ws[fmt.Sprint(r["army"], "/", r["code"])] = true
			if r["code"] == "superseded" {
				keepSuperseded = true
			}
		}
		hs := map[string]bool{}
		for _, r := range asList(have["rejected"]) {
			if r["code"] == "superseded" && !keepSuperseded {
				continue
			}
			hs[fmt.Sprint(r["army"], "/", r["code"])] = true
		}
		for _, k := range sortedKeys(ws) {
			if !hs[k] {
				add("%s should be rejected", k)
			}
		}
		for _, k := range sortedKeys(hs) {
			if !ws[k] {
				add("%s rejected, which was not expected", k)
			}
		}
	}
	if v, ok := exp["partial"]; ok {
		var want []string
		if err := json.Unmarshal(v, &want); err != nil {
			return nil, fmt.Errorf("%s: partial: %w", where, err)
		}
		if h, same := sameSet(want, have["partial"]); !same {
			add("partial moves should be %v, are %v", want, h)
		}
	}
	for _, key := range []string{"days", "alive"} {
		v, ok := exp[key]
		if !ok {
			continue
		}
		var want map[string]any
		if err := json.Unmarshal(v, &want); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", where, key, err)
		}
		hm, _ := have[key].(map[string]any)
		for _, army := range sortedKeys(want) {
			if !equalJSON(want[army], hm[army]) {
				add("%s of %s should be %v, is %v", key, army, want[army], hm[army])
			}
		}
	}
	if v, ok := exp["destroyed_sites"]; ok {
		var want []string
		if err := json.Unmarshal(v, &want); err != nil {
			return nil, fmt.Errorf("%s: destroyed_sites: %w", where, err)
		}
		if h, same := sameSet(want, have["destroyed_sites"]); !same {
			add("destroyed sites should be %v, are %v", want, h)
		}
	}
	if err := compareMercenary(exp, have, add); err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	if v, ok := exp["winner"]; ok {
		var want any
		if err := json.Unmarshal(v, &want); err != nil {
			return nil, fmt.Errorf("%s: winner: %w", where, err)
		}
		if want != have["winner"] {
			add("winner should be %v, is %v", want, have["winner"])
		}
	}
	return diffs, nil
}

// sameSet reports whether the JSON list have holds exactly the names of want, in any order; it
// sorts want and returns have's names sorted.
func sameSet(want []string, have any) ([]string, bool) {
	var h []string
	for _, x := range asAnyList(have) {
		h = append(h, fmt.Sprint(x))
	}
	sort.Strings(want)
	sort.Strings(h)
	return h, strings.Join(want, "|") == strings.Join(h, "|")
}

func battleKey(b map[string]any) string {
	var names []string
	for _, x := range asAnyList(b["armies"]) {
		names = append(names, fmt.Sprint(x))
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func asAnyList(v any) []any {
	l, _ := v.([]any)
	return l
}

func asList(v any) []map[string]any {
	var out []map[string]any
	for _, x := range asAnyList(v) {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
