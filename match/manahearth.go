// Manahearth's scorekeeping (manahearth.md rules 7, 12 and 13): 20 life, the planeswalker in
// the Hero Zone, its abilities paid with life, one ultimate a game.

package match

// manahearth keeps a Manahearth match.
type manahearth struct{ byWins }

func (m *manahearth) event(t *table, e Event) Outcome {
	switch e.Kind {
	case "hero":
		p, out := t.playing(e.Player)
		if !out.OK {
			return out
		}
		if e.Card == "" {
			return refuse("no_card", "name the planeswalker put in the Hero Zone")
		}
		says := ""
		if p.Hero != "" {
			says = "; " + p.Hero + " goes to the graveyard (rule 12)"
		}
		p.Hero = e.Card
		return ok("%s's Hero Zone holds %s%s", p.Name, e.Card, says)
	case "ability", "ultimate":
		return m.ability(t, e)
	}
	return t.common(e)
}

// ability: the Hero Ability costs life equal to the loyalty cost, positive or not (rule
// 13.4); the Ultimate too, once a game whatever planeswalker is in the Hero Zone (13.5).
func (m *manahearth) ability(t *table, e Event) Outcome {
	p, out := t.playing(e.Player)
	if !out.OK {
		return out
	}
	if p.Hero == "" {
		return refuse("no_hero", "%s has no planeswalker in the Hero Zone", p.Name)
	}
	what := "Hero Ability"
	if e.Kind == "ultimate" {
		if p.Ultimate {
			return refuse("ultimate_used", "%s has used an Ultimate Ability this game (rule 13.5.2)", p.Name)
		}
		p.Ultimate = true
		what = "Ultimate Ability"
	}
	p.Life -= abs(e.Amount)
	return ok("%s activates %s's %s and loses %d life: %d", p.Name, p.Hero, what, abs(e.Amount), p.Life)
}
