// Package scenario reads the adjudicator's scenario files (docs/ and the shared
// scenario-format spec): a map, turns of posts and judge's inputs, and each turn's
// expectations.
package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/domain"
)

// File is a scenario file as written.
type File struct {
	Name    string       `json:"name"`
	Rules   []string     `json:"rules"`
	Note    string       `json:"note,omitempty"`
	Seed    int64        `json:"seed"`
	Grid    *domain.Grid `json:"grid,omitempty"`
	Sites   []Site       `json:"sites"`
	Terrain *Terrain     `json:"terrain,omitempty"`
	Armies  []Army       `json:"armies"`
	Turns   []Turn       `json:"turns"`
	// MercenaryAI, Creatures and MercenaryHistory extend the format for the mercenary AI
	// (chapter 6, docs/SCENARIOS.md): its mode (off, suggest, auto; off when absent), the creature
	// pool a raider the server places draws its troops from (absent: the shipped card data),
	// and the mercenaries' engagements of turns before the scenario opens (6.2.1).
	MercenaryAI      string       `json:"mercenary_ai,omitempty"`
	Creatures        []Troop      `json:"creatures,omitempty"`
	MercenaryHistory []Engagement `json:"mercenary_history,omitempty"`
}

// Site is a site as written.
type Site struct {
	Name         string `json:"name"`
	Kind         string `json:"kind"`
	Side         string `json:"side"`
	Color        string `json:"color,omitempty"`
	At           string `json:"at"`
	WinCondition bool   `json:"win_condition,omitempty"`
	Destroyed    bool   `json:"destroyed,omitempty"`
}

// Terrain is the terrain block as written.
type Terrain struct {
	Default string            `json:"default,omitempty"`
	Squares map[string]string `json:"squares,omitempty"`
}

// Army is an army as written.
type Army struct {
	Name        string   `json:"name"`
	Side        string   `json:"side"`
	Rank        string   `json:"rank"`
	At          string   `json:"at"`
	Controllers []string `json:"controllers,omitempty"`
	Colors      []string `json:"colors,omitempty"`
	Troops      []Troop  `json:"troops,omitempty"`
	Days        int      `json:"days,omitempty"`
	// WinDays extends the format: days already counted toward a win (D8); by default the
	// army's days when the map opens with every enemy win condition destroyed.
	WinDays int    `json:"win_days,omitempty"`
	Faction string `json:"faction,omitempty"`
	Home    string `json:"home,omitempty"`
	// Territory, Ocean and AtWar describe theme armies (6.2); they extend the format.
	Territory string `json:"territory,omitempty"`
	Ocean     bool   `json:"ocean,omitempty"`
	AtWar     string `json:"at_war,omitempty"`
}

// Troop is a troop as written.
type Troop struct {
	Creature string   `json:"creature"`
	Size     string   `json:"size"`
	Colors   []string `json:"colors,omitempty"`
	Slot     int      `json:"slot"`
	Alive    int      `json:"alive"`
	Full     *int     `json:"full,omitempty"`
}

// Turn is one turn as written.
type Turn struct {
	Posts     []Post                  `json:"posts"`
	Lock      *time.Time              `json:"lock,omitempty"`
	Transfers []domain.TransferDetail `json:"transfers,omitempty"`
	Results   []BattleResult          `json:"results,omitempty"`
	// AfterLockEdit extends the format: the mercenary judge's after-lock edit (6.3.2).
	AfterLockEdit *Post           `json:"after_lock_edit,omitempty"`
	Expect        json.RawMessage `json:"expect,omitempty"`
}

// Post is a post as written.
type Post struct {
	ID      int64     `json:"id"`
	Author  string    `json:"author"`
	At      time.Time `json:"at"`
	Private bool      `json:"private"`
	Text    string    `json:"text"`
}

// BattleResult is a battle result as written; winner null means nobody won.
type BattleResult struct {
	Square  string                    `json:"square"`
	Winner  *string                   `json:"winner"`
	Losses  map[string]map[string]int `json:"losses,omitempty"`
	LoserTo string                    `json:"loser_to,omitempty"`
	Kill    *domain.Attempt           `json:"kill,omitempty"`
	Capture *domain.Attempt           `json:"capture,omitempty"`
	Leaves  *Leave                    `json:"leaves,omitempty"`
}

// Leave is a winner leaving as written.
type Leave struct {
	Army string `json:"army"`
	To   string `json:"to,omitempty"`
}

// Scenario is a scenario read and checked: the opening map and each turn's input.
type Scenario struct {
	File  *File
	Map   *domain.Map
	Turns []TurnInput
	// Mercenary is the mercenary AI's part: its mode, creature pool and history.
	Mercenary Mercenary
}

// TurnInput is one turn's input to the lock pipeline, and what the file expects of it.
type TurnInput struct {
	Posts     []domain.Post
	Lock      time.Time
	Transfers []domain.TransferDetail
	Results   []domain.BattleResult
	// Edit is the mercenary judge's after-lock edit (6.3.2), or nil.
	Edit   *domain.Post
	Expect json.RawMessage
}

// Parse reads a scenario and checks it; the error names the first problem.
func Parse(data []byte) (*Scenario, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		return nil, decodeError(err)
	}
	return Build(&f)
}

// FormatError is a scenario that is valid JSON but does not fit the scenario format
// (scenario-format.md): a number where a name goes, a list where an object goes. It is
// domain.ErrInvalid.
type FormatError struct {
	// Problem says what does not fit, and where.
	Problem string
}

func (e *FormatError) Error() string {
	return "the scenario does not fit the scenario format: " + e.Problem
}

// Unwrap makes a FormatError domain.ErrInvalid.
func (e *FormatError) Unwrap() error { return domain.ErrInvalid }

// decodeError words a decoding failure: text that is not JSON, or JSON of the wrong shape.
func decodeError(err error) error {
	var syn *json.SyntaxError
	var te *json.UnmarshalTypeError
	var pe *time.ParseError
	switch {
	case errors.Is(err, io.EOF):
		return domain.Errorf(domain.ErrInvalid, "the scenario is empty")
	case errors.As(err, &syn), errors.Is(err, io.ErrUnexpectedEOF):
		return domain.Errorf(domain.ErrInvalid, "the scenario is not valid JSON: %v", err)
	case errors.As(err, &te):
		what := "it"
		if te.Field != "" {
			what = strconv.Quote(te.Field)
		}
		return &FormatError{Problem: fmt.Sprintf("%s must be %s, not %s", what, kindOf(te.Type), article(te.Value))}
	case errors.As(err, &pe):
		return &FormatError{Problem: fmt.Sprintf("%q is not a time: write times as RFC 3339, like 2026-03-01T12:00:00Z", pe.Value)}
	}
	return &FormatError{Problem: strings.TrimPrefix(err.Error(), "json: ")}
}

// kindOf names a Go type as the JSON it is read from.
func kindOf(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Pointer:
		return kindOf(t.Elem())
	}
	return "an object"
}

// article puts "a" or "an" before a JSON value's kind as encoding/json names it ("number",
// "array", "number 1.5").
func article(v string) string {
	if v == "" {
		return "that"
	}
	if strings.ContainsRune("aeiou", rune(v[0])) {
		return "an " + v
	}
	return "a " + v
}

// Build checks a scenario file and turns it into a map and turn inputs.
func Build(f *File) (*Scenario, error) {
	bad := func(format string, args ...any) (*Scenario, error) {
		return nil, domain.Errorf(domain.ErrInvalid, format, args...)
	}
	m := &domain.Map{Grid: domain.DefaultGrid}
	if f.Grid != nil {
		m.Grid = *f.Grid
	}
	sq := func(what, text string) (domain.Square, error) {
		s, err := m.Grid.Parse(strings.TrimSpace(text))
		if err != nil {
			return s, domain.Errorf(domain.ErrInvalid, "%s: %v", what, err)
		}
		return s, nil
	}
	for _, s := range f.Sites {
		at, err := sq("site "+s.Name, s.At)
		if err != nil {
			return nil, err
		}
		side, err := domain.ParseSide(s.Side)
		if err != nil {
			return bad("site %s: %v", s.Name, err)
		}
		site := domain.Site{Name: s.Name, Kind: domain.SiteKind(strings.ToLower(s.Kind)), Side: side, At: at, WinCondition: s.WinCondition, Destroyed: s.Destroyed}
		if s.Color != "" {
			c, err := domain.ParseColor(s.Color)
			if err != nil {
				return bad("site %s: %v", s.Name, err)
			}
			site.Color = c
		}
		m.Sites = append(m.Sites, site)
	}
	if f.Terrain != nil {
		if f.Terrain.Default != "" {
			t, err := domain.ParseTerrain(f.Terrain.Default)
			if err != nil {
				return bad("terrain: %v", err)
			}
			m.Terrain.Default = t
		}
		for k, v := range f.Terrain.Squares {
			at, err := sq("terrain", k)
			if err != nil {
				return nil, err
			}
			t, err := domain.ParseTerrain(v)
			if err != nil {
				return bad("terrain of %s: %v", k, err)
			}
			if m.Terrain.Squares == nil {
				m.Terrain.Squares = map[domain.Square]domain.Terrain{}
			}
			m.Terrain.Squares[at] = t
		}
	}
	for _, a := range f.Armies {
		army, err := buildArmy(m, a)
		if err != nil {
			return nil, err
		}
		m.Armies = append(m.Armies, army)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	m.NoteLeaders()
	m.NoteHomes()
	// armies of different sides on one square fight this turn (B1): the map lists them as the
	// battles made at the lock before the scenario opens, so that viewers see them
	m.Battles = battle.Fought(m)
	// days an army already counted on its own win condition, when the map opens with every
	// enemy win condition destroyed, count toward the win (1.7.2, D8)
	for i := range m.Armies {
		a := &m.Armies[i]
		s := m.SiteAt(a.At)
		if a.WinDays == 0 && a.Side.IsTeam() && s != nil && s.Side == a.Side && s.WinCondition && !s.Destroyed && battle.AllWinConditionsDestroyed(m, a.Side.Opponent()) {
			a.WinDays = a.Days
		}
	}
	sc := &Scenario{File: f, Map: m}
	ids := map[int64]bool{}
	for ti, t := range f.Turns {
		in := TurnInput{Transfers: t.Transfers, Expect: t.Expect}
		if t.Lock != nil {
			in.Lock = *t.Lock
		}
		for _, p := range t.Posts {
			if ids[p.ID] {
				return bad("turn %d: post id %d is used twice", ti+1, p.ID)
			}
			ids[p.ID] = true
			if p.At.IsZero() {
				return bad("turn %d: post %d has no time (\"at\")", ti+1, p.ID)
			}
			in.Posts = append(in.Posts, domain.Post{ID: p.ID, Author: p.Author, At: p.At, Private: p.Private, Text: p.Text})
		}
		for _, d := range t.Transfers {
			if !slices.ContainsFunc(t.Posts, func(p Post) bool { return p.ID == d.Post }) {
				return bad("turn %d: a transfer detail names post %d, which is not in that turn", ti+1, d.Post)
			}
			if m.Army(d.Army) == nil {
				return bad("turn %d: a transfer detail names unknown army %q", ti+1, d.Army)
			}
		}
		for ri, r := range t.Results {
			br, err := buildResult(m, r)
			if err != nil {
				return bad("turn %d, result %d: %v", ti+1, ri+1, err)
			}
			in.Results = append(in.Results, br)
		}
		if p := t.AfterLockEdit; p != nil {
			if ids[p.ID] || p.ID <= 0 {
				return bad("turn %d: the after-lock edit needs a post id above 0 used by no other post, not %d", ti+1, p.ID)
			}
			ids[p.ID] = true
			in.Edit = &domain.Post{ID: p.ID, Author: p.Author, At: p.At, Private: p.Private, Text: p.Text}
		}
		sc.Turns = append(sc.Turns, in)
	}
	if err := sc.buildMercenary(); err != nil {
		return nil, err
	}
	return sc, nil
}

func buildArmy(m *domain.Map, a Army) (domain.Army, error) {
	bad := func(format string, args ...any) (domain.Army, error) {
		return domain.Army{}, domain.Errorf(domain.ErrInvalid, "army %s: %s", a.Name, fmt.Sprintf(format, args...))
	}
	side, err := domain.ParseSide(a.Side)
	if err != nil {
		return bad("%v", err)
	}
	rank, err := domain.ParseRank(a.Rank)
	if err != nil {
		return bad("%v", err)
	}
	at, err := m.Grid.Parse(strings.TrimSpace(a.At))
	if err != nil {
		return bad("%v", err)
	}
	army := domain.Army{Name: strings.TrimSpace(a.Name), Side: side, Rank: rank, At: at, Controllers: a.Controllers, Days: a.Days, WinDays: a.WinDays, Faction: domain.Faction(a.Faction), Home: a.Home}
	army.Ocean = a.Ocean
	if a.Territory != "" {
		if army.Territory, err = m.Grid.Parse(strings.TrimSpace(a.Territory)); err != nil {
			return bad("territory: %v", err)
		}
	}
	if a.AtWar != "" {
		if army.AtWar, err = domain.ParseSide(a.AtWar); err != nil || !army.AtWar.IsTeam() {
			return bad("at_war must be coalition or phyrexia, not %q", a.AtWar)
		}
	}
	for _, c := range a.Colors {
		col, err := domain.ParseColor(c)
		if err != nil {
			return bad("%v", err)
		}
		army.Colors = append(army.Colors, col)
	}
	if a.Troops != nil {
		army.Troops = []domain.Troop{}
	}
	for _, t := range a.Troops {
		size, err := domain.ParseSize(t.Size)
		if err != nil {
			return bad("%s: %v", t.Creature, err)
		}
		tr := domain.Troop{Creature: t.Creature, Size: size, Slot: t.Slot, Alive: t.Alive, Full: t.Alive}
		if t.Full != nil {
			tr.Full = *t.Full
		}
		for _, c := range t.Colors {
			col, err := domain.ParseColor(c)
			if err != nil {
				return bad("%s: %v", t.Creature, err)
			}
			tr.Colors = append(tr.Colors, col)
		}
		army.Troops = append(army.Troops, tr)
	}
	return army, nil
}

func buildResult(m *domain.Map, r BattleResult) (domain.BattleResult, error) {
	at, err := m.Grid.Parse(strings.TrimSpace(r.Square))
	if err != nil {
		return domain.BattleResult{}, err
	}
	br := domain.BattleResult{Square: at, Losses: r.Losses, Kill: r.Kill, Capture: r.Capture}
	if r.Winner != nil {
		if m.Army(*r.Winner) == nil {
			return br, domain.Errorf(domain.ErrInvalid, "the winner %q is not an army", *r.Winner)
		}
		br.Winner = *r.Winner
	}
	for name := range r.Losses {
		if m.Army(name) == nil {
			return br, domain.Errorf(domain.ErrInvalid, "losses are given for unknown army %q", name)
		}
	}
	if r.LoserTo != "" {
		if br.LoserTo, err = m.Grid.Parse(strings.TrimSpace(r.LoserTo)); err != nil {
			return br, err
		}
	}
	if r.Leaves != nil {
		br.Leaves = &domain.Leave{Army: r.Leaves.Army}
		if r.Leaves.To != "" {
			if br.Leaves.To, err = m.Grid.Parse(strings.TrimSpace(r.Leaves.To)); err != nil {
				return br, err
			}
		}
	}
	return br, nil
}
