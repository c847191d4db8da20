// Coalition's scorekeeping (coalition-format.md, "Win condition" and "Other rules
// modifications"; the draft's 903.11b): victory points from creatures' combat damage and the
// hero's other player damage, 21 wins the game with its bonus, three games with totals,
// concessions and draws.

package match

import (
	"slices"
	"strconv"
	"strings"
)

// coalition keeps a Coalition match.
type coalition struct {
	// bonus is the victory points for winning a game (-1: none).
	bonus int
}

func (c *coalition) event(t *table, e Event) Outcome {
	switch e.Kind {
	case "damage":
		return c.damage(t, e)
	case "concede":
		return c.concede(t, e)
	}
	return t.common(e)
}

// damage scores victory points: all combat damage the player's creatures deal other players,
// and any other player damage the hero deals (903.11b). 21 points win the game.
func (c *coalition) damage(t *table, e Event) Outcome {
	p, target, out := t.hit(e)
	if !out.OK {
		return out
	}
	vp := 0
	if e.Source == "hero" || e.Source == "creature" && e.Combat {
		vp = e.Amount
	}
	p.Points += vp
	p.Total += vp
	says := ok("%s's %s dealt %d damage to %s (%d life): %s has %d victory points this game", p.Name, sourceWord(e), e.Amount, target.Name, target.Life, p.Name, p.Points)
	if p.Points >= 21 {
		t.endGame(p.Name, "21 victory points")
		says.Message += ", and wins game " + strconv.Itoa(len(t.s.Finished))
	}
	return says
}

// won gives the winner of a game the bonus for winning, however the game was won.
func (c *coalition) won(p *Player) {
	if c.bonus > 0 {
		p.Points += c.bonus
		p.Total += c.bonus
	}
}

// concede: a concession voids the conceder's victory points of the game and bars him from
// later games; when every opponent of a player concedes at once, that player wins with the
// full 21 points and no one is penalised.
func (c *coalition) concede(t *table, e Event) Outcome {
	names, ps, out := t.conceders(e)
	if !out.OK {
		return out
	}
	var rest []*Player
	for i := range t.s.Players {
		if p := &t.s.Players[i]; p.In && !slices.Contains(ps, p) {
			rest = append(rest, p)
		}
	}
	game := t.s.Game
	if len(rest) == 1 {
		w := rest[0]
		for _, p := range ps {
			p.In = false
		}
		if w.Points < 21 {
			w.Total += 21 - w.Points
			w.Points = 21
		}
		t.endGame(w.Name, "every opponent conceded")
		return ok("%s %s at once: %s wins game %d with the full 21 victory points; no penalty", strings.Join(names, " and "), plural(len(names), "concedes", "concede"), w.Name, game)
	}
	for _, p := range ps {
		p.Total -= p.Points
		p.Points = 0
		p.In, p.Barred = false, true
	}
	return ok("%s %s game %d: %s victory points of the game are void, and %s no later game", strings.Join(names, " and "), plural(len(names), "concedes", "concede"), game,
		plural(len(names), "his", "their"), plural(len(names), "he plays", "they play"))
}

// decide: the match is three games, or fewer when fewer than two players may still play; the
// most victory points over the games win it, a tie at the top is a draw.
func (c *coalition) decide(t *table) bool {
	eligible := 0
	for _, p := range t.s.Players {
		if !p.Barred {
			eligible++
		}
	}
	if len(t.s.Finished) < 3 && eligible >= 2 {
		return false
	}
	best, top := 0, []string(nil)
	for i, p := range t.s.Players {
		switch {
		case i == 0 || p.Total > best:
			best, top = p.Total, []string{p.Name}
		case p.Total == best:
			top = append(top, p.Name)
		}
	}
	t.settle(top)
	return true
}
