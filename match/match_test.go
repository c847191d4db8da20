package match

import (
	"encoding/json"
	"slices"
	"testing"
)

// play applies events that must be accepted.
func play(t *testing.T, m *Match, events ...Event) {
	t.Helper()
	for _, e := range events {
		if out := m.Apply(e); !out.OK {
			t.Fatalf("event %+v refused: %s (%s)", e, out.Message, out.Code)
		}
	}
}

// refused applies an event that must be refused with the code.
func refused(t *testing.T, m *Match, code string, e Event) {
	t.Helper()
	n := len(m.Log)
	if out := m.Apply(e); out.OK || out.Code != code || out.Message == "" {
		t.Fatalf("event %+v: %+v, want refused with %s", e, out, code)
	}
	if len(m.Log) != n {
		t.Fatal("a refused event was logged")
	}
}

func player(s State, name string) Player {
	i := slices.IndexFunc(s.Players, func(p Player) bool { return p.Name == name })
	return s.Players[i]
}

func hit(from, to string, n int, source string, combat bool) Event {
	return Event{Kind: "damage", Player: from, Target: to, Amount: n, Source: source, Combat: combat}
}

// TestCoalitionMatch plays a Coalition match of three games to its winner: victory points
// from creatures' combat damage and the hero's other damage, 21 and the bonus, a concession
// that voids and bars, a draw, and every opponent conceding at once.
func TestCoalitionMatch(t *testing.T) {
	m, err := New("coalition", []string{"Ann", "Bob", "Cat"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Game 1: a creature's combat damage scores, the hero's other damage scores, a
	// creature's non-combat damage does not.
	play(t, m, hit("Ann", "Bob", 10, "creature", true), hit("Bob", "Cat", 4, "hero", false), hit("Cat", "Ann", 3, "creature", false))
	s := m.State()
	if player(s, "Ann").Points != 10 || player(s, "Bob").Points != 4 || player(s, "Cat").Points != 0 || player(s, "Ann").Life != 22 {
		t.Fatalf("game 1 so far: %+v", s.Players)
	}
	play(t, m, hit("Ann", "Cat", 11, "hero", true))
	s = m.State()
	if s.Game != 2 || len(s.Finished) != 1 || s.Finished[0].Winner != "Ann" || s.Finished[0].How != "21 victory points" || s.Finished[0].Points["Ann"] != 26 {
		t.Fatalf("after game 1: %+v", s)
	}
	// Game 2: Cat concedes: her points of the game are void and she plays no later game; the
	// game goes on, and ends in a draw: no bonus, the points stand.
	play(t, m, hit("Cat", "Bob", 5, "creature", true), hit("Bob", "Ann", 8, "creature", true), Event{Kind: "concede", Player: "Cat"})
	s = m.State()
	if c := player(s, "Cat"); c.In || !c.Barred || c.Points != 0 || c.Total != 0 || s.Game != 2 {
		t.Fatalf("Cat conceded: %+v", c)
	}
	refused(t, m, "not_playing", hit("Cat", "Ann", 2, "creature", true))
	play(t, m, Event{Kind: "draw"})
	s = m.State()
	if s.Finished[1].Draw != true || player(s, "Bob").Total != 12 || s.Game != 3 || player(s, "Cat").In {
		t.Fatalf("after game 2: %+v", s)
	}
	// Game 3: Ann, Bob's only opponent, concedes: Bob takes the full 21 and the bonus, and Ann
	// keeps her points; three games are played, the most points win.
	play(t, m, hit("Bob", "Ann", 6, "hero", false), hit("Ann", "Bob", 2, "creature", true), Event{Kind: "concede", Player: "Ann"})
	s = m.State()
	if !s.Over || s.Winner != "Bob" || s.Finished[2].How != "every opponent conceded" || player(s, "Bob").Total != 12+26 || player(s, "Ann").Total != 28 || player(s, "Ann").Barred {
		t.Fatalf("the match: %+v", s)
	}
	refused(t, m, "over", Event{Kind: "draw"})
	// Undo takes back the concession; the log keeps every other event.
	last, ok := m.Undo()
	if !ok || last.Event.Kind != "concede" || last.Game != 3 || len(m.Log) != 10 {
		t.Fatalf("undo: %+v %v, log of %d", last, ok, len(m.Log))
	}
	if s = m.State(); s.Over || player(s, "Bob").Points != 6 || s.Game != 3 {
		t.Fatalf("after the undo: %+v", s)
	}
	// Two conceding at once, every opponent of Ann: she wins game 3 with 21, no penalty.
	m2, _ := New("coalition", []string{"Ann", "Bob", "Cat"}, Options{WinBonus: -1})
	play(t, m2, hit("Ann", "Bob", 3, "creature", true), Event{Kind: "concede", Players: []string{"Bob", "Cat"}})
	s = m2.State()
	if a := player(s, "Ann"); a.Total != 21 || player(s, "Bob").Barred || player(s, "Cat").Barred || s.Finished[0].Winner != "Ann" {
		t.Errorf("concession at once: %+v", s.Players)
	}
}

// TestCoalitionEnds: concessions one after the other, a tie at the top, a player out of life.
func TestCoalitionEnds(t *testing.T) {
	// Bob concedes with two players left: penalised. Cat then concedes as Ann's only
	// opponent: every opponent at once, no penalty. Game 2 is Ann's and Cat's.
	m, _ := New("coalition", []string{"Ann", "Bob", "Cat"}, Options{})
	play(t, m, Event{Kind: "concede", Player: "Bob"}, Event{Kind: "concede", Player: "Cat"})
	if s := m.State(); s.Over || s.Game != 2 || s.Finished[0].Winner != "Ann" || player(s, "Cat").Barred || !player(s, "Bob").Barred || player(s, "Bob").In || !player(s, "Cat").In {
		t.Errorf("two concessions one after the other: %+v", s)
	}
	m, _ = New("coalition", []string{"Ann", "Bob", "Cat"}, Options{})
	for range 3 {
		play(t, m, hit("Ann", "Cat", 5, "creature", true), hit("Bob", "Cat", 5, "creature", true), Event{Kind: "draw"})
	}
	if s := m.State(); !s.Over || !s.Draw || !slices.Equal(s.Tied, []string{"Ann", "Bob"}) || s.Winner != "" {
		t.Errorf("three draws: %+v", s)
	}
	m, _ = New("coalition", []string{"Ann", "Bob", "Cat"}, Options{})
	play(t, m, hit("Ann", "Bob", 20, "creature", true), hit("Cat", "Bob", 5, "creature", true))
	if s := m.State(); player(s, "Bob").In || s.Game != 1 {
		t.Errorf("Bob at 0 life is out, the game goes on: %+v", s)
	}
	play(t, m, Event{Kind: "lose", Player: "Cat"})
	if s := m.State(); s.Finished[0].Winner != "Ann" || s.Finished[0].How != "last player standing" || player(s, "Ann").Total != 25 {
		t.Errorf("last player standing: %+v", s)
	}
	if _, err := New("coalition", []string{"Ann", "Bob"}, Options{}); err == nil {
		t.Error("a Coalition match of two players was made (the page: 3–5)")
	}
}

// TestHeroicMatch plays a Heroic match of five games to its winner: levels 0–5, 17 hero
// damage, a fourth hero cast losing at the end of the turn, a draw, a concession.
func TestHeroicMatch(t *testing.T) {
	m, err := New("heroic", []string{"Ann", "Bob"}, Options{Games: 5})
	if err != nil {
		t.Fatal(err)
	}
	// Game 1: the first hero damage or kill each turn levels the hero up; 17 hero damage wins.
	play(t, m, Event{Kind: "turn", Player: "Ann"}, Event{Kind: "cast", Player: "Ann"}, hit("Ann", "Bob", 5, "hero", true), Event{Kind: "kill", Player: "Ann"})
	if a := player(m.State(), "Ann"); a.HeroLevel != 1 || a.HeroDamage != 5 || a.HeroCasts != 1 {
		t.Fatalf("one turn: %+v", a)
	}
	play(t, m, Event{Kind: "turn", Player: "Bob"}, hit("Bob", "Ann", 3, "creature", true), Event{Kind: "turn", Player: "Ann"}, Event{Kind: "kill", Player: "Ann"},
		hit("Ann", "Bob", 6, "hero", false), Event{Kind: "turn", Player: "Bob"}, Event{Kind: "turn", Player: "Ann"})
	if a := player(m.State(), "Ann"); a.HeroLevel != 2 || a.HeroDamage != 11 {
		t.Fatalf("two turns: %+v", a)
	}
	play(t, m, hit("Ann", "Bob", 6, "hero", true))
	s := m.State()
	if s.Game != 2 || s.Finished[0].Winner != "Ann" || s.Finished[0].How != "17 hero damage" {
		t.Fatalf("game 1: %+v", s)
	}
	// Game 2: a draw.
	play(t, m, Event{Kind: "draw"})
	// Game 3: Ann casts her hero a fourth time and loses at the end of that turn.
	play(t, m, Event{Kind: "turn", Player: "Ann"})
	for range 4 {
		play(t, m, Event{Kind: "cast", Player: "Ann"})
	}
	if a := player(m.State(), "Ann"); !a.LosesAtEndOfTurn || !a.In {
		t.Fatalf("the fourth cast: %+v", a)
	}
	play(t, m, Event{Kind: "turn", Player: "Bob"})
	s = m.State()
	if s.Game != 4 || s.Finished[2].Winner != "Bob" || s.Finished[2].How != "last player standing" {
		t.Fatalf("game 3: %+v", s.Finished)
	}
	// Game 4: Bob concedes. Game 5: Ann wins on life, her third game.
	play(t, m, Event{Kind: "concede", Player: "Bob"}, hit("Ann", "Bob", 25, "creature", true))
	s = m.State()
	if !s.Over || s.Winner != "Ann" || player(s, "Ann").Wins != 3 || player(s, "Bob").Wins != 1 || len(s.Finished) != 5 || !s.Finished[1].Draw {
		t.Fatalf("the match: %+v", s)
	}
}

// TestHeroLevels: levels stop at 5; a hero's damage on another's turn levels it once more.
func TestHeroLevels(t *testing.T) {
	m, _ := New("heroic", []string{"Ann", "Bob", "Cat"}, Options{})
	for i := range 7 {
		play(t, m, Event{Kind: "turn", Player: []string{"Ann", "Bob"}[i%2]}, hit("Ann", "Cat", 1, "hero", false))
	}
	if a := player(m.State(), "Ann"); a.HeroLevel != 5 || a.HeroDamage != 7 {
		t.Errorf("seven turns of hero damage: %+v", a)
	}
	refused(t, m, "unknown_event", Event{Kind: "ultimate", Player: "Ann"})
	refused(t, m, "self", hit("Ann", "Ann", 1, "hero", false))
	refused(t, m, "unknown_player", hit("Ann", "Dee", 1, "hero", false))
}

// TestManahearthMatch plays a Manahearth match of five games to its winner: 20 life, the
// Hero Zone's planeswalker, its abilities paid with life, one ultimate a game, a draw, a
// concession, a loss by rule 14.1.
func TestManahearthMatch(t *testing.T) {
	m, err := New("manahearth", []string{"Ann", "Bob"}, Options{Games: 5})
	if err != nil {
		t.Fatal(err)
	}
	refused(t, m, "no_hero", Event{Kind: "ability", Player: "Ann", Amount: 1})
	play(t, m, Event{Kind: "hero", Player: "Ann", Card: "Liliana of the Veil"}, Event{Kind: "ability", Player: "Ann", Amount: 1},
		Event{Kind: "ability", Player: "Ann", Amount: -2}, Event{Kind: "ultimate", Player: "Ann", Amount: -6})
	if a := player(m.State(), "Ann"); a.Life != 11 || !a.Ultimate || a.Hero != "Liliana of the Veil" {
		t.Fatalf("abilities: %+v", a)
	}
	// A new planeswalker in the Hero Zone brings no second ultimate this game (13.5.2).
	play(t, m, Event{Kind: "hero", Player: "Ann", Card: "Jace Beleren"})
	refused(t, m, "ultimate_used", Event{Kind: "ultimate", Player: "Ann", Amount: -10})
	play(t, m, hit("Bob", "Ann", 11, "creature", true))
	s := m.State()
	if s.Finished[0].Winner != "Bob" || player(s, "Ann").Life != 20 || player(s, "Ann").Ultimate || player(s, "Ann").Hero != "" {
		t.Fatalf("game 1 and the start of game 2: %+v", s)
	}
	play(t, m, Event{Kind: "draw"},
		Event{Kind: "concede", Player: "Bob"},
		Event{Kind: "lose", Player: "Ann"},
		Event{Kind: "hero", Player: "Ann", Card: "Chandra, Torch of Defiance"}, Event{Kind: "life", Player: "Ann", Amount: -13}, Event{Kind: "ultimate", Player: "Ann", Amount: -7})
	s = m.State()
	if !s.Over || s.Winner != "Bob" || player(s, "Bob").Wins != 3 || player(s, "Ann").Wins != 1 || !s.Finished[1].Draw {
		t.Fatalf("the match: %+v", s)
	}
}

// TestReplay: a match's stored form (format, players, options, log) gives the same state,
// and a log with an event the rules refuse is refused.
func TestReplay(t *testing.T) {
	m, _ := New("manahearth", []string{"Ann", "Bob"}, Options{Games: 3})
	play(t, m, Event{Kind: "hero", Player: "Ann", Card: "Liliana of the Veil"}, hit("Bob", "Ann", 20, "other", false), Event{Kind: "draw"})
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var stored Match
	json.Unmarshal(b, &stored)
	again, err := Replay(stored.Format, stored.Players, stored.Options, stored.Log)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := m.State(), again.State(); a.Game != b.Game || len(a.Finished) != len(b.Finished) || a.Players[0] != b.Players[0] {
		t.Errorf("replayed %+v, kept %+v", b, a)
	}
	bad := append(slices.Clone(stored.Log), Entry{Event: Event{Kind: "ultimate", Player: "Ann"}})
	if _, err := Replay(stored.Format, stored.Players, stored.Options, bad); err == nil {
		t.Error("a log with a refused event was replayed")
	}
	if _, err := New("commander", []string{"Ann", "Bob"}, Options{}); err == nil {
		t.Error("an unknown format made a match")
	}
	if _, err := New("heroic", []string{"Ann", "ann"}, Options{}); err == nil {
		t.Error("two players of one name made a match")
	}
}
