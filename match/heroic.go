// Heroic's scorekeeping (heroic-rules-wip.txt 906.10, 903.11): hero levels 0–5 gained the
// first time each turn the hero deals player damage or kills a creature, 17 hero damage wins,
// a fourth hero cast loses at the end of that turn.

package match

import "strconv"

// heroic keeps a Heroic match.
type heroic struct{ byWins }

func (h *heroic) event(t *table, e Event) Outcome {
	switch e.Kind {
	case "turn":
		return h.turn(t, e)
	case "damage":
		return h.damage(t, e)
	case "kill":
		p, out := t.playing(e.Player)
		if !out.OK {
			return out
		}
		return ok("%s's hero kills a creature%s", p.Name, h.levelUp(t, p))
	case "cast":
		p, out := t.playing(e.Player)
		if !out.OK {
			return out
		}
		p.HeroCasts++
		if p.HeroCasts == 4 {
			p.LosesAtEndOfTurn = true
			return ok("%s casts the hero a fourth time, and loses at the end of the turn (903.11a)", p.Name)
		}
		return ok("%s casts the hero (%d of 3 without loss)", p.Name, p.HeroCasts)
	}
	return t.common(e)
}

// turn starts a player's turn: the turn before ends, and a player who cast the hero a fourth
// time in it loses (903.11a, in the cleanup step).
func (h *heroic) turn(t *table, e Event) Outcome {
	p, out := t.playing(e.Player)
	if !out.OK {
		return out
	}
	says := ""
	if prev := t.player(t.s.Turn); prev != nil && prev.In && prev.LosesAtEndOfTurn {
		prev.In = false
		says = prev.Name + " loses at the end of the turn: the fourth hero cast (903.11a); "
	}
	t.s.Turn = p.Name
	clear(t.turns)
	return ok("%s%s's turn", says, p.Name)
}

// damage: hero damage to players counts toward 17 (903.11b) and levels the hero up.
func (h *heroic) damage(t *table, e Event) Outcome {
	p, target, out := t.hit(e)
	if !out.OK {
		return out
	}
	if e.Source != "hero" {
		return ok("%s's %s dealt %d damage to %s: %d life", p.Name, sourceWord(e), e.Amount, target.Name, target.Life)
	}
	p.HeroDamage += e.Amount
	says := ok("%s's hero dealt %d damage to %s (%d life): %d hero damage%s", p.Name, e.Amount, target.Name, target.Life, p.HeroDamage, h.levelUp(t, p))
	if p.HeroDamage >= 17 {
		game := t.s.Game
		t.endGame(p.Name, "17 hero damage")
		says.Message += ", and wins game " + strconv.Itoa(game) + " (903.11b)"
	}
	return says
}

// levelUp gains the hero its next level the first time each turn (906.10), up to 5; at 5 the
// level-up's card or mana still comes.
func (h *heroic) levelUp(t *table, p *Player) string {
	if t.turns[p.Name] {
		return ""
	}
	t.turns[p.Name] = true
	if p.HeroLevel == 5 {
		return "; the hero is at level 5 already (its level-up still exiles the top card)"
	}
	p.HeroLevel++
	return "; the hero reaches level " + strconv.Itoa(p.HeroLevel)
}
