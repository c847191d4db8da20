package api_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// POST /api/campaigns/{cid}/troops/check refuses, naming what is missing: a side that holds
// no armies, and a change or customisation check without the army whose troops the list
// replaces; the sides that hold armies, and new lists, are checked.
func TestPostTroopsCheck422(t *testing.T) {
	elves := []map[string]any{{"creature": "Llanowar Elves", "count": 1000}}
	goblins := []map[string]any{{"creature": "Raging Goblin", "count": 1000}}
	cases := []struct {
		name   string
		body   map[string]any
		status int
		detail string
	}{
		{"neutral", map[string]any{"side": "neutral", "rank": "lieutenant", "troops": elves}, 422,
			`"neutral" holds no armies: a troop list is for an army of the coalition, phyrexia or the mercenaries`},
		{"coalition", map[string]any{"side": "coalition", "rank": "lieutenant", "colors": []string{"green"}, "troops": elves}, 200, ""},
		{"phyrexia", map[string]any{"side": "phyrexia", "rank": "lieutenant", "troops": elves}, 200, ""},
		{"mercenary", map[string]any{"side": "mercenary", "rank": "lieutenant", "troops": elves}, 200, ""},
		{"customise without an army", map[string]any{"kind": "customise", "side": "coalition", "rank": "lt-commander", "colors": []string{"red"}, "troops": goblins}, 422,
			`a customise check compares the list with the troops an army has now: name the army in "army"`},
		{"change without an army", map[string]any{"kind": "change", "side": "coalition", "rank": "captain", "colors": []string{"red"}, "troops": goblins}, 422,
			`a change check compares the list with the troops an army has now: name the army in "army"`},
		{"new", map[string]any{"kind": "new", "side": "coalition", "rank": "captain", "colors": []string{"red"}, "troops": goblins}, 200, ""},
		{"customise an army on the map", map[string]any{"kind": "customise", "army": "Karn", "troops": goblins}, 200, ""},
	}
	e := newEnv(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := e.as(anon, "POST", c1+"/troops/check", c.body)
			var p struct{ Detail string }
			json.Unmarshal(res.Body.Bytes(), &p)
			if res.Code != c.status || !strings.Contains(p.Detail, c.detail) {
				t.Fatalf("%d %s, want %d saying %s", res.Code, truncate(res.Body.String()), c.status, c.detail)
			}
		})
	}
}
