// The events every format shares — damage, life, a player losing, concessions, draws — and
// how a game and a match end.

package match

import (
	"strings"
)

// player finds a player by name, whatever the case.
func (t *table) player(name string) *Player {
	for i := range t.s.Players {
		if strings.EqualFold(t.s.Players[i].Name, name) {
			return &t.s.Players[i]
		}
	}
	return nil
}

// playing finds a player who is in the game, or says why not.
func (t *table) playing(name string) (*Player, Outcome) {
	p := t.player(name)
	switch {
	case name == "":
		return nil, refuse("no_player", "the event names no player")
	case p == nil:
		return nil, refuse("unknown_player", "%q does not play in this match", name)
	case !p.In:
		return nil, refuse("not_playing", "%s is out of game %d", p.Name, t.s.Game)
	}
	return p, Outcome{OK: true}
}

// apply checks what every event needs, then lets the format apply it, then ends the game if
// one player is left.
func (t *table) apply(e Event) Outcome {
	out := t.r.event(t, e)
	if !out.OK {
		return out
	}
	if game := t.s.Game; !t.gameEnded(game) {
		t.lastStanding()
	}
	return out
}

// gameEnded reports whether game n is over.
func (t *table) gameEnded(n int) bool { return t.s.Over || t.s.Game != n }

// eventKinds are the events each format knows, for a refusal's message.
var eventKinds = map[string]string{
	"coalition":  "damage, life, lose, concede or draw",
	"heroic":     "turn, damage, kill, cast, life, lose, concede or draw",
	"manahearth": "hero, ability, ultimate, damage, life, lose, concede or draw",
}

// common applies an event the format has nothing of its own for, and refuses one no format
// knows.
func (t *table) common(e Event) Outcome {
	switch e.Kind {
	case "damage":
		p, target, out := t.hit(e)
		if !out.OK {
			return out
		}
		return ok("%s's %s dealt %d damage to %s: %d life", p.Name, sourceWord(e), e.Amount, target.Name, target.Life)
	case "life":
		p, out := t.playing(e.Player)
		if !out.OK {
			return out
		}
		if e.Amount == 0 {
			return refuse("no_amount", "a life change needs an amount: positive gained, negative lost")
		}
		p.Life += e.Amount
		return ok("%s %s %d life: %d", p.Name, map[bool]string{true: "gains", false: "loses"}[e.Amount > 0], abs(e.Amount), p.Life)
	case "lose":
		p, out := t.playing(e.Player)
		if !out.OK {
			return out
		}
		p.In = false
		return ok("%s loses game %d", p.Name, t.s.Game)
	case "concede":
		names, ps, out := t.conceders(e)
		if !out.OK {
			return out
		}
		for _, p := range ps {
			p.In = false
		}
		return ok("%s %s game %d", strings.Join(names, " and "), plural(len(names), "concedes", "concede"), t.s.Game)
	case "draw":
		n := t.s.Game
		t.endGame("", "draw")
		return ok("game %d ends in a draw", n)
	}
	return refuse("unknown_event", "a %s match has no event %q: use %s", t.s.Format, e.Kind, eventKinds[t.s.Format])
}

// hit deals a damage event's damage: its player and its target must be in the game and
// differ, the amount positive, the source a creature, a hero or another source.
func (t *table) hit(e Event) (p, target *Player, out Outcome) {
	if p, out = t.playing(e.Player); !out.OK {
		return nil, nil, out
	}
	target, out = t.playing(e.Target)
	switch {
	case !out.OK:
		return nil, nil, out
	case target == p:
		return nil, nil, refuse("self", "damage is scored when dealt to another player; record a player's own loss as life")
	case e.Amount <= 0:
		return nil, nil, refuse("no_amount", "damage needs a positive amount")
	case e.Source != "creature" && e.Source != "hero" && e.Source != "other":
		return nil, nil, refuse("no_source", "say what dealt the damage: a creature, the hero or another source")
	}
	target.Life -= e.Amount
	return p, target, out
}

// conceders are the players of a concession — Player, and Players at once —, each in the
// game.
func (t *table) conceders(e Event) ([]string, []*Player, Outcome) {
	var names []string
	if e.Player != "" {
		names = append(names, e.Player)
	}
	for _, n := range e.Players {
		if n != e.Player {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, nil, refuse("no_player", "a concession names the player who concedes")
	}
	ps := make([]*Player, 0, len(names))
	for _, n := range names {
		p, out := t.playing(n)
		if !out.OK {
			return nil, nil, out
		}
		ps = append(ps, p)
	}
	return names, ps, Outcome{OK: true}
}

// lastStanding puts out the players at 0 life or less and ends the game when one player or
// none is left.
func (t *table) lastStanding() {
	var in []*Player
	for i := range t.s.Players {
		p := &t.s.Players[i]
		if p.In && p.Life <= 0 {
			p.In = false
		}
		if p.In {
			in = append(in, p)
		}
	}
	switch len(in) {
	case 0:
		t.endGame("", "draw")
	case 1:
		t.endGame(in[0].Name, "last player standing")
	}
}

// startGame sets every player up for a new game.
func (t *table) startGame() {
	for i := range t.s.Players {
		p := &t.s.Players[i]
		p.In, p.Life, p.Points = !p.Barred, t.life, 0
		p.HeroLevel, p.HeroDamage, p.HeroCasts, p.LosesAtEndOfTurn = 0, 0, 0, false
		p.Hero, p.Ultimate = "", false
	}
	t.s.Turn = ""
	clear(t.turns)
}

// endGame records the game being played as won (winner "" for a draw), and starts the next
// one unless the format decides the match.
func (t *table) endGame(winner, how string) {
	g := Game{Number: t.s.Game, Winner: winner, Draw: winner == "", How: how}
	if w := t.player(winner); w != nil {
		w.Wins++
		t.r.won(w)
	}
	if t.s.Format == "coalition" {
		g.Points = map[string]int{}
		for _, p := range t.s.Players {
			g.Points[p.Name] = p.Points
		}
	}
	t.s.Finished = append(t.s.Finished, g)
	if t.r.decide(t) {
		t.s.Over = true
		return
	}
	t.s.Game++
	t.startGame()
}

// byWins is the rules of a format that scores games won: no bonus for winning, the match to
// the first to win most of its games.
type byWins struct{}

func (byWins) won(*Player) {}

func (byWins) decide(t *table) bool { return t.decideByWins() }

// decideByWins ends a match of n games once a player has won most of them, or all n are
// played: the most wins take it, a tie at the top is a draw.
func (t *table) decideByWins() bool {
	need := t.s.Games/2 + 1
	best, top := 0, []string(nil)
	for _, p := range t.s.Players {
		switch {
		case p.Wins > best:
			best, top = p.Wins, []string{p.Name}
		case p.Wins == best:
			top = append(top, p.Name)
		}
	}
	if best < need && len(t.s.Finished) < t.s.Games {
		return false
	}
	t.settle(top)
	return true
}

// settle names the match's winner, or a draw between the players tied at the top.
func (t *table) settle(top []string) {
	if len(top) == 1 {
		t.s.Winner = top[0]
		return
	}
	t.s.Draw, t.s.Tied = true, top
}

func sourceWord(e Event) string {
	w := e.Source
	if w == "other" {
		w = "source"
	}
	if e.Combat {
		return w + " (combat)"
	}
	return w
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
