// Rules M3–M5, M13 (rank, site) and M14: checking a move against the map as posted.

package movement

import (
	"fmt"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

func (b *board) checkMove(l *Line, a *domain.Army) {
	o := &l.Order
	g := b.m.Grid
	if o.From != a.At {
		l.reject(domain.CodeWrongOrigin, "%s is on %s, not %s: a move starts from the army's own square (3.2.2.5)", a.Name, a.At, o.From)
		return
	}
	if !legsValid(g, o) {
		b.legProblem(l, o)
		return
	}
	dest := o.Legs[len(o.Legs)-1].To
	if o.Keyword == domain.JointEngage {
		if a.Rank.Leader() {
			l.reject(domain.CodeJointEngageRank, "%s is a %s army: armies of rank Captain/Evincar or above cannot joint engage (3.2.5.4)", a.Name, a.Rank.Name(a.Side))
			return
		}
		if s := b.m.SiteAt(dest); s != nil {
			l.reject(domain.CodeJointEngageSite, "%s is %s: a joint engagement may not target a base, portal or town (3.2.5.4)", dest, s.Name)
			return
		}
	}
	for i, leg := range o.Legs {
		kw, named := domain.NoKeyword, ""
		if i == len(o.Legs)-1 {
			kw, named = o.Keyword, o.Named
		}
		if !b.checkKeyword(l, a, leg.To, kw, named, i) {
			return
		}
	}
	if len(o.Legs) == 1 && o.Legs[0].To == o.From && o.Keyword != domain.JointEngage {
		l.warn("%s > %s does not move: %s holds", o.From, o.From, a.Name)
	}
}

// legsValid reports, in one pass, whether every leg of a move is on the map, in range and
// follows a good route: what legProblem finds wrong otherwise.
func legsValid(g domain.Grid, o *domain.Order) bool {
	prev := o.From
	for _, leg := range o.Legs {
		if !g.Contains(leg.To) || domain.Steps(prev, leg.To) > 3 || len(leg.Route) > 4 {
			return false
		}
		if r := leg.Route; len(r) > 0 {
			if r[0] != prev || r[len(r)-1] != leg.To {
				return false
			}
			for i := range r {
				if !g.Contains(r[i]) || i > 0 && domain.Steps(r[i-1], r[i]) != 1 {
					return false
				}
				for j := 0; j < i; j++ {
					if r[j] == r[i] {
						return false
					}
				}
			}
		}
		prev = leg.To
	}
	return true
}

// legProblem rejects a move whose legs legsValid finds wrong, with the first problem in the
// order the rules check them: squares off the map, legs out of range, bad routes.
func (b *board) legProblem(l *Line, o *domain.Order) {
	g := b.m.Grid
	for _, leg := range o.Legs {
		if !g.Contains(leg.To) {
			l.reject(domain.CodeOffMap, "%s is off the map: squares run from 1A to %s (1.2)", leg.To, domain.Square{Col: uint8(g.Cols), Row: uint8(g.Rows)})
			return
		}
		for _, r := range leg.Route {
			if !g.Contains(r) {
				l.reject(domain.CodeOffMap, "the route passes %s, which is off the map (1.2)", r)
				return
			}
		}
	}
	prev := o.From
	for i, leg := range o.Legs {
		if n := domain.Steps(prev, leg.To); n > 3 {
			l.reject(domain.CodeOutOfRange, "%s > %s is %d steps; an army moves at most 3 a turn, and never diagonally (3.2.2.1)%s", prev, leg.To, n, legNote(o, i))
			return
		}
		if len(leg.Route) > 4 {
			l.reject(domain.CodeOutOfRange, "the route %s is %d steps; an army moves at most 3 a turn (3.2.2.1)", routeText(leg.Route), len(leg.Route)-1)
			return
		}
		prev = leg.To
	}
	prev = o.From
	for _, leg := range o.Legs {
		if msg := routeProblem(prev, leg); msg != "" {
			l.reject(domain.CodeBadRoute, "%s", msg)
			return
		}
		prev = leg.To
	}
}

func legNote(o *domain.Order, i int) string {
	if len(o.Legs) < 2 {
		return ""
	}
	return fmt.Sprintf(" — leg %d of the long move", i+1)
}

func routeText(r []domain.Square) string {
	parts := make([]string, len(r))
	for i, s := range r {
		parts[i] = s.String()
	}
	return "(" + strings.Join(parts, " - ") + ")"
}

// routeProblem checks a written route (M4): from the leg's start to its destination, both
// included, in single steps, never visiting a square twice.
func routeProblem(from domain.Square, leg domain.Leg) string {
	r := leg.Route
	if len(r) == 0 {
		return ""
	}
	if r[0] != from {
		return fmt.Sprintf("the route %s must start at the army's square %s (3.2.2.4)", routeText(r), from)
	}
	if r[len(r)-1] != leg.To {
		return fmt.Sprintf("the route %s must end at the destination %s (3.2.2.4)", routeText(r), leg.To)
	}
	for i := 1; i < len(r); i++ {
		if domain.Steps(r[i-1], r[i]) != 1 {
			return fmt.Sprintf("the route %s jumps from %s to %s: each step moves one square, never diagonally (3.2.2.1)", routeText(r), r[i-1], r[i])
		}
		for j := 0; j < i; j++ {
			if r[j] == r[i] {
				return fmt.Sprintf("the route %s visits %s twice", routeText(r), r[i])
			}
		}
	}
	return ""
}

// checkKeyword applies M5 to the destination of the move's leg-th leg, judged against the map
// as posted.
func (b *board) checkKeyword(l *Line, a *domain.Army, dest domain.Square, kw domain.Keyword, named string, leg int) bool {
	var enemy, friend *domain.Army
	for id := b.first(dest); id >= 0; id = b.next[id] - 1 {
		o := &b.m.Armies[id]
		if o == a {
			continue
		}
		if domain.Enemy(a.Side, o.Side) {
			if enemy == nil {
				enemy = o
			}
		} else if friend == nil {
			friend = o
		}
	}
	switch {
	case enemy != nil:
		switch kw {
		case domain.NoKeyword:
			l.reject(domain.CodeMissingEngage, "%s holds the enemy army %s: add \"engage %s\" to move there (3.2.2.2)%s", dest, enemy.Name, enemy.Name, legNote(&l.Order, leg))
			return false
		case domain.Replace:
			l.reject(domain.CodeWrongKeyword, "%s holds the enemy army %s: write \"engage %s\", not replace (3.2.2.2)", dest, enemy.Name, enemy.Name)
			return false
		}
		b.checkNamed(l, kw, named, dest, enemy, friend)
	case friend != nil:
		switch kw {
		case domain.NoKeyword:
			l.reject(domain.CodeMissingReplace, "%s holds your side's army %s: add \"replace %s\" if you expect it to leave (3.2.2.2)%s", dest, friend.Name, friend.Name, legNote(&l.Order, leg))
			return false
		case domain.Engage:
			l.reject(domain.CodeWrongKeyword, "%s holds %s, an army of your own side: write \"replace %s\", not engage (3.2.2.2)", dest, friend.Name, friend.Name)
			return false
		}
		b.checkNamed(l, kw, named, dest, enemy, friend)
	default:
		switch kw {
		case domain.Engage:
			l.warn("%s is empty as posted: \"engage\" is not needed (3.2.2.2)", dest)
		case domain.Replace:
			l.warn("%s is empty as posted: \"replace\" is not needed (3.2.2.2)", dest)
		}
	}
	return true
}

func (b *board) checkNamed(l *Line, kw domain.Keyword, named string, dest domain.Square, enemy, friend *domain.Army) {
	if named == "" || kw == domain.NoKeyword {
		return
	}
	for id := b.first(dest); id >= 0; id = b.next[id] - 1 {
		if domain.SameName(b.m.Armies[id].Name, named) {
			return
		}
	}
	occupant := enemy
	if occupant == nil {
		occupant = friend
	}
	l.warn("%s is held by %s, not %s: the move goes ahead whoever is there (3.2.2.5)", dest, occupant.Name, named)
}
