package scenario

// This file holds the scenario format's extension for the mercenary AI (chapter 6,
// docs/SCENARIOS.md): its mode, creature pool and history as input, and the expectations of its
// orders, warnings, strategies, a spawn's placement, disbands and an after-lock edit.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/mercenary"
)

// Engagement is a mercenary's engagement of an earlier turn as written (6.2.1).
type Engagement struct {
	Turn    int      `json:"turn"`
	Army    string   `json:"army"`
	Square  string   `json:"square"`
	Targets []string `json:"targets"`
}

// Mercenary is the mercenary AI's input of a scenario.
type Mercenary struct {
	Mode mercenary.Mode
	// Creatures is the pool a raider the server places draws from; nil means the shipped card
	// data, loaded when first needed.
	Creatures []domain.Troop
	History   []mercenary.Engagement
}

// shipped is the creature pool of the shipped card data.
var shipped = sync.OnceValue(func() []domain.Troop {
	cat, err := cards.Load()
	if err != nil {
		panic(err) // the shipped data is tested to load
	}
	return cat.CreaturePool()
})

func (mc *Mercenary) creatures() []domain.Troop {
	if mc.Creatures != nil {
		return mc.Creatures
	}
	return shipped()
}

// buildMercenary reads the mercenary AI's part of the file.
func (s *Scenario) buildMercenary() error {
	f := s.File
	mode, err := mercenary.ParseMode(f.MercenaryAI)
	if err != nil {
		return err
	}
	s.Mercenary.Mode = mode
	for _, t := range f.Creatures {
		size, err := domain.ParseSize(t.Size)
		if err != nil {
			return domain.Errorf(domain.ErrInvalid, "creature %s: %v", t.Creature, err)
		}
		tr := domain.Troop{Creature: t.Creature, Size: size}
		for _, c := range t.Colors {
			col, err := domain.ParseColor(c)
			if err != nil {
				return domain.Errorf(domain.ErrInvalid, "creature %s: %v", t.Creature, err)
			}
			tr.Colors = append(tr.Colors, col)
		}
		s.Mercenary.Creatures = append(s.Mercenary.Creatures, tr)
	}
	if f.Creatures != nil && len(f.Creatures) == 0 {
		s.Mercenary.Creatures = []domain.Troop{}
	}
	for _, e := range f.MercenaryHistory {
		at, err := s.Map.Grid.Parse(strings.TrimSpace(e.Square))
		if err != nil {
			return domain.Errorf(domain.ErrInvalid, "mercenary_history: %v", err)
		}
		s.Mercenary.History = append(s.Mercenary.History, mercenary.Engagement{Turn: e.Turn, Army: e.Army, Square: at, Targets: e.Targets})
	}
	return nil
}

// compareMercenary checks the expectations of the mercenary AI's part of a turn:
//   - mercenary_orders: army → the AI's order carried out for it, a line or a list of allowed
//     lines, or {"line": …, "guideline": …} (without "line": any order that follows the
//     guideline); null means the AI gave it no order;
//   - mercenary_warnings: the set of (army, code) of the guideline warnings, exactly;
//   - mercenary_strategies: army → the army its AI strategy goes for a kill on ("" for none);
//   - spawn: the fields given of the mercenary report's spawn (spawned, rank, army; at, a
//     square or a list of allowed squares), when the server placed a raider or the block
//     asks for "spawned": whether one spawns is a draw (B6);
//   - disbanded: the set of raiders that disbanded, exactly;
//   - after_lock_edit: the fields given of the report's after-lock edit (carried_out, army).
func compareMercenary(exp map[string]json.RawMessage, have map[string]any, add func(string, ...any)) error {
	ai, _ := have["mercenary_ai"].(map[string]any)
	merc, _ := have["mercenary"].(map[string]any)
	if v, ok := exp["mercenary_orders"]; ok {
		var want map[string]any
		if err := json.Unmarshal(v, &want); err != nil {
			return fmt.Errorf("mercenary_orders: %w", err)
		}
		got := map[string]map[string]any{}
		for _, o := range asList(ai["orders"]) {
			got[fmt.Sprint(o["army"])] = o
		}
		for _, army := range sortedKeys(want) {
			w, h := want[army], got[army]
			if obj, ok := w.(map[string]any); ok {
				if g, ok := obj["guideline"]; ok && (h == nil || h["guideline"] != g) {
					add("the AI's order for %s should follow %v, follows %v", army, g, field(h, "guideline"))
				}
				line, ok := obj["line"]
				if !ok {
					continue // any line
				}
				w = line
			}
			switch wv := w.(type) {
			case nil:
				if h != nil {
					add("the AI should give %s no order, gives %v", army, h["line"])
				}
			case []any:
				if h == nil || !slices.Contains(wv, h["line"]) {
					add("the AI's order for %s should be one of %v, is %v", army, wv, field(h, "line"))
				}
			default:
				if h == nil || h["line"] != wv {
					add("the AI's order for %s should be %v, is %v", army, wv, field(h, "line"))
				}
			}
		}
	}
	if v, ok := exp["mercenary_warnings"]; ok {
		if err := compareSet(v, asList(ai["warnings"]), "the guideline warning", add); err != nil {
			return fmt.Errorf("mercenary_warnings: %w", err)
		}
	}
	if v, ok := exp["mercenary_strategies"]; ok {
		var want map[string]string
		if err := json.Unmarshal(v, &want); err != nil {
			return fmt.Errorf("mercenary_strategies: %w", err)
		}
		got := map[string]map[string]any{}
		for _, st := range asList(ai["strategies"]) {
			got[fmt.Sprint(st["army"])] = st
		}
		for _, army := range sortedKeys(want) {
			h, ok := got[army]
			switch {
			case !ok:
				add("the AI wrote no strategy for %s", army)
			case fmt.Sprint(field(h, "kill")) != want[army] && !(want[army] == "" && h["kill"] == nil):
				add("%s's AI strategy should go for a kill on %q, goes for %v", army, want[army], field(h, "kill"))
			}
		}
	}
	if v, ok := exp["spawn"]; ok {
		var want map[string]any
		if err := json.Unmarshal(v, &want); err != nil {
			return fmt.Errorf("spawn: %w", err)
		}
		spawn := asMap(merc["spawn"])
		if _, asked := want["spawned"]; asked || field(spawn, "army") != nil {
			compareFields("spawn", want, spawn, add)
		}
	}
	if v, ok := exp["disbanded"]; ok {
		var want []string
		if err := json.Unmarshal(v, &want); err != nil {
			return fmt.Errorf("disbanded: %w", err)
		}
		if h, same := sameSet(want, merc["disbanded"]); !same {
			add("disbanded raiders should be %v, are %v", want, h)
		}
	}
	if v, ok := exp["after_lock_edit"]; ok {
		var want map[string]any
		if err := json.Unmarshal(v, &want); err != nil {
			return fmt.Errorf("after_lock_edit: %w", err)
		}
		compareFields("after_lock_edit", want, asMap(have["after_lock_edit"]), add)
	}
	return nil
}

// compareSet checks that the (army, code) pairs of have are exactly those of the list want.
func compareSet(want json.RawMessage, have []map[string]any, what string, add func(string, ...any)) error {
	var w []map[string]any
	if err := json.Unmarshal(want, &w); err != nil {
		return err
	}
	ws, hs := map[string]bool{}, map[string]bool{}
	for _, x := range w {
		ws[fmt.Sprint(x["army"], "/", x["code"])] = true
	}
	for _, x := range have {
		hs[fmt.Sprint(x["army"], "/", x["code"])] = true
	}
	for _, k := range sortedKeys(ws) {
		if !hs[k] {
			add("%s %s is missing", what, k)
		}
	}
	for _, k := range sortedKeys(hs) {
		if !ws[k] {
			add("%s %s was not expected", what, k)
		}
	}
	return nil
}

// compareFields checks the fields of want against have; a list in want lists allowed values.
func compareFields(what string, want, have map[string]any, add func(string, ...any)) {
	for _, k := range sortedKeys(want) {
		h := field(have, k)
		switch wv := want[k].(type) {
		case []any:
			if !slices.ContainsFunc(wv, func(x any) bool { return equalJSON(x, h) }) {
				add("%s: %s should be one of %v, is %v", what, k, wv, h)
			}
		default:
			if !equalJSON(wv, h) && !(wv == false && h == nil) {
				add("%s: %s should be %v, is %v", what, k, wv, h)
			}
		}
	}
}

func field(m map[string]any, k string) any {
	if m == nil {
		return nil
	}
	return m[k]
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}
