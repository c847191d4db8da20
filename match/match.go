// Package match keeps score of a card-format match (Coalition, Heroic, Manahearth;
// ../shared/formats): events in — damage, life, concessions, draws, the formats' own —, the
// state out, every accepted event in a log, and the last one undone by replaying the rest. A
// refused event is an outcome with a code and a message, never logged. The package is pure:
// it imports the standard library only.
package match

import (
	"fmt"
	"slices"
	"strings"
)

// Event is one thing that happened at the table.
type Event struct {
	// Kind is what happened: "damage", "life", "lose", "concede" and "draw" in every format;
	// "turn", "kill" and "cast" in Heroic; "hero", "ability" and "ultimate" in Manahearth.
	Kind string `json:"kind"`
	// Player is who acts: whose creature or hero dealt the damage, who concedes, loses, casts.
	Player string `json:"player,omitempty"`
	// Players are several players conceding at once (Coalition's exception).
	Players []string `json:"players,omitempty"`
	// Target is the player dealt damage.
	Target string `json:"target,omitempty"`
	// Amount is the damage, the life gained (or lost, negative), the loyalty cost.
	Amount int `json:"amount,omitempty"`
	// Source is what dealt the damage: "creature", "hero" or "other".
	Source string `json:"source,omitempty"`
	// Combat marks combat damage.
	Combat bool `json:"combat,omitempty"`
	// Card is a planeswalker put in the Hero Zone (Manahearth).
	Card string `json:"card,omitempty"`
}

// Entry is an accepted event in the log, with the game it belongs to and what it did.
type Entry struct {
	N     int    `json:"n"`
	Game  int    `json:"game"`
	Event Event  `json:"event"`
	Says  string `json:"says"`
}

// Outcome is what became of an event: accepted (and logged), or refused with a code and a
// message.
type Outcome struct {
	OK      bool   `json:"ok"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message"`
}

// Player is one player's standing.
type Player struct {
	Name string `json:"name"`
	// In is whether the player is in the game being played (not lost, conceded or barred).
	In   bool `json:"in"`
	Life int  `json:"life"`
	// Wins counts the games the player won.
	Wins int `json:"wins"`
	// Points are Coalition's victory points this game, Total over the match.
	Points int `json:"points,omitempty"`
	Total  int `json:"total,omitempty"`
	// Barred is a Coalition player who conceded: no later game.
	Barred bool `json:"barred,omitempty"`
	// HeroLevel (0–5), HeroDamage and HeroCasts are Heroic's; LosesAtEndOfTurn is set by the
	// fourth cast.
	HeroLevel        int  `json:"heroLevel,omitempty"`
	HeroDamage       int  `json:"heroDamage,omitempty"`
	HeroCasts        int  `json:"heroCasts,omitempty"`
	LosesAtEndOfTurn bool `json:"losesAtEndOfTurn,omitempty"`
	// Hero is the planeswalker in the Hero Zone and Ultimate whether its ultimate was used
	// this game (Manahearth).
	Hero     string `json:"hero,omitempty"`
	Ultimate bool   `json:"ultimate,omitempty"`
}

// Game is a finished game.
type Game struct {
	Number int    `json:"number"`
	Winner string `json:"winner,omitempty"`
	Draw   bool   `json:"draw,omitempty"`
	// How says how it ended: "21 victory points", "every opponent conceded", "17 hero
	// damage", "last player standing", "draw".
	How string `json:"how"`
	// Points are each player's victory points of the game (Coalition), a conceder's voided.
	Points map[string]int `json:"points,omitempty"`
}

// State is the match as its log adds up.
type State struct {
	Format string `json:"format"`
	// Games is how many games the match is played over (Coalition: three).
	Games int `json:"games"`
	// Game is the number of the game being played, from 1 (the last one once the match is
	// over).
	Game     int      `json:"game"`
	Players  []Player `json:"players"`
	Finished []Game   `json:"finished"`
	// Turn is whose turn it is, where the format counts turns (Heroic).
	Turn   string `json:"turn,omitempty"`
	Over   bool   `json:"over"`
	Winner string `json:"winner,omitempty"`
	// Draw is a match that ended level; Tied are the players level at the top.
	Draw bool     `json:"draw,omitempty"`
	Tied []string `json:"tied,omitempty"`
}

// Options set up a match.
type Options struct {
	// Games is how many games a Heroic or Manahearth match is played over, the winner the
	// first to win most of them: 1 by default (a single game), or 3, 5. Coalition is always
	// played over three.
	Games int `json:"games,omitempty"`
	// WinBonus is Coalition's victory points for winning a game: 5 by default (the page: "as
	// of writing… subject to further playtesting"); -1 for none.
	WinBonus int `json:"winBonus,omitempty"`
}

// rules is what a format adds to the common events.
type rules interface {
	// event applies the format's handling of an event to the state, or refuses it.
	event(t *table, e Event) Outcome
	// won gives the winner of a game what the format gives (Coalition's bonus).
	won(p *Player)
	// decide ends the match after a game, or not.
	decide(t *table) bool
}

// setup is a format's table: its rules, the players' starting life, how many may play.
type setup struct {
	rules    func(Options) rules
	life     int
	min, max int
}

var formats = map[string]setup{
	// Coalition: 25 life, 3–5 players a game (the page).
	"coalition": {func(o Options) rules { return &coalition{bonus: o.WinBonus} }, 25, 3, 5},
	// Heroic: 25 life (906.7), a two-player or multiplayer game (906.2).
	"heroic": {func(Options) rules { return &heroic{} }, 25, 2, 8},
	// Manahearth: 20 life (rule 7), a two-player or multiplayer game (rule 2).
	"manahearth": {func(Options) rules { return &manahearth{} }, 20, 2, 8},
}

// Formats lists the formats a match can keep.
func Formats() []string {
	out := make([]string, 0, len(formats))
	for f := range formats {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// Match is a match being kept: its format, players and options, and the log of the events
// accepted; its state is the log replayed. Its JSON form (format, players, options, log) is
// what a store keeps.
type Match struct {
	Format  string   `json:"format"`
	Players []string `json:"players"`
	Options Options  `json:"options"`
	Log     []Entry  `json:"log"`
	t       *table
}

// table is the state being built and the format's rules.
type table struct {
	s     State
	r     rules
	life  int // the players' starting life
	opt   Options
	turns map[string]bool // Heroic: players whose hero levelled this turn
}

// New starts a match of the format between the players (names, in seat order).
func New(format string, players []string, opt Options) (*Match, error) {
	f, ok := formats[strings.ToLower(format)]
	if !ok {
		return nil, fmt.Errorf("no format %q: the formats are %s", format, strings.Join(Formats(), ", "))
	}
	if opt.WinBonus == 0 {
		opt.WinBonus = 5
	}
	if opt.Games == 0 {
		opt.Games = 1
	}
	if len(players) < f.min || len(players) > f.max {
		return nil, fmt.Errorf("a %s match is for %d to %d players, not %d", format, f.min, f.max, len(players))
	}
	seen := map[string]bool{}
	for _, p := range players {
		if strings.TrimSpace(p) == "" || seen[strings.ToLower(p)] {
			return nil, fmt.Errorf("players need names, each a different one: %q", players)
		}
		seen[strings.ToLower(p)] = true
	}
	if format == "coalition" {
		opt.Games = 3
	} else if opt.Games != 1 && opt.Games != 3 && opt.Games != 5 {
		return nil, fmt.Errorf("a match is played over 1, 3 or 5 games, not %d", opt.Games)
	}
	m := &Match{Format: strings.ToLower(format), Players: slices.Clone(players), Options: opt, Log: []Entry{}}
	m.t = m.fresh()
	return m, nil
}

// fresh is the table before any event.
func (m *Match) fresh() *table {
	f := formats[m.Format]
	t := &table{r: f.rules(m.Options), life: f.life, opt: m.Options, turns: map[string]bool{}}
	t.s = State{Format: m.Format, Games: m.Options.Games, Game: 1, Finished: []Game{}}
	for _, p := range m.Players {
		t.s.Players = append(t.s.Players, Player{Name: p, In: true})
	}
	t.startGame()
	return t
}

// State is the match as its log adds up; the caller may keep it.
func (m *Match) State() State {
	s := m.t.s
	s.Players = slices.Clone(s.Players)
	s.Finished = slices.Clone(s.Finished)
	return s
}

// Apply records an event if the rules allow it, and says what it did or why not.
func (m *Match) Apply(e Event) Outcome {
	if m.t.s.Over {
		return refuse("over", "the match is over")
	}
	game := m.t.s.Game
	out := m.t.apply(e)
	if out.OK {
		m.Log = append(m.Log, Entry{N: len(m.Log) + 1, Game: game, Event: e, Says: out.Message})
	}
	return out
}

// Undo takes back the last event: the log loses it and the rest is replayed. It reports
// whether there was one.
func (m *Match) Undo() (Entry, bool) {
	if len(m.Log) == 0 {
		return Entry{}, false
	}
	last := m.Log[len(m.Log)-1]
	m.Log = m.Log[:len(m.Log)-1]
	if err := m.replay(); err != nil {
		panic("match: an event the log accepted is refused on replay: " + err.Error())
	}
	return last, true
}

// Replay rebuilds a match from its stored form (format, players, options, log): every
// event is applied again and must be accepted again.
func Replay(format string, players []string, opt Options, log []Entry) (*Match, error) {
	m, err := New(format, players, opt)
	if err != nil {
		return nil, err
	}
	m.Log = slices.Clone(log)
	return m, m.replay()
}

func (m *Match) replay() error {
	m.t = m.fresh()
	for i, e := range m.Log {
		if m.t.s.Over {
			return fmt.Errorf("event %d comes after the match ended", i+1)
		}
		game := m.t.s.Game
		out := m.t.apply(e.Event)
		if !out.OK {
			return fmt.Errorf("event %d (%s): %s", i+1, e.Event.Kind, out.Message)
		}
		m.Log[i].N, m.Log[i].Game, m.Log[i].Says = i+1, game, out.Message
	}
	return nil
}

func refuse(code, format string, args ...any) Outcome {
	return Outcome{Code: code, Message: fmt.Sprintf(format, args...)}
}

func ok(format string, args ...any) Outcome {
	return Outcome{OK: true, Message: fmt.Sprintf(format, args...)}
}
