package mercenary

import (
	"fmt"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// Code names the guideline a mercenary judge's order breaks.
type Code string

// The guideline codes.
const (
	// LeavesTown: a town defender ends a move beyond its town and the 8 squares around it (6.1.1).
	LeavesTown Code = "tdf_leaves_town"
	// NearStronghold: an At War theme army ends a move on or next to a base or portal (6.2.3).
	NearStronghold Code = "at_war_near_stronghold"
	// NearSite: a raider ends a move on or next to a base, portal or town (6.3.1).
	NearSite Code = "raider_near_site"
	// LeavesTerritory: a theme army at peace, not the ocean army, ends a move more than one
	// turn's move (3 steps) from the centre of its territory, and no nearer to it (6.2.1).
	LeavesTerritory Code = "theme_leaves_territory"
	// DisbandNotRaider: an army that is not a raider is ordered to disband (6.3.2).
	DisbandNotRaider Code = "disband_not_raider"
	// EditNotRaider: an after-lock edit is for an army that is not a raider (6.3.2).
	EditNotRaider Code = "edit_not_raider"
	// EditTooMany: after-lock edits for more than one raider in a turn (6.3.2).
	EditTooMany Code = "edit_too_many"
	// EditNoEngage: an after-lock edit that does not attack or intercept an army (6.3.2).
	EditNoEngage Code = "edit_no_engage"
	// EditPassesArmy: an after-lock edit whose route passes, or may pass, an army (6.3.2).
	EditPassesArmy Code = "edit_passes_army"
)

// RetreatBelow is the number of soldiers under which a town defender may retreat to another
// town (6.1.1).
const RetreatBelow = 3500

// Warning is a mercenary judge's order that breaks one of chapter 6's AI guidelines. It is
// advice for the judge: the order is still legal and is carried out.
type Warning struct {
	Army string `json:"army"`
	// Line is the order's place among those checked, from 1.
	Line    int    `json:"line"`
	Rule    string `json:"rule"`
	Code    Code   `json:"code"`
	Message string `json:"message"`
}

func (w Warning) String() string { return fmt.Sprintf("%s (line %d): %s", w.Army, w.Line, w.Message) }

// Check checks the mercenary judge's orders, as parsed, against the factions' AI guidelines
// (6.1.1, 6.2.1, 6.2.3, 6.3.1, 6.3.2) on the map as it stands, with the wars the map remembers.
func Check(m *domain.Map, orders ...domain.Order) []Warning {
	return FromMap(m).Check(m, orders...)
}

// Check checks the mercenary judge's orders against the AI guidelines, with the armies at war
// that mem remembers. Only moves of mercenary armies are checked; every leg's destination
// counts, since each leg ends a turn (M14). Orders the movement checker rejects (unknown army,
// wrong origin) are skipped.
func (mem *Memory) Check(m *domain.Map, orders ...domain.Order) []Warning {
	b := newBoard(m)
	defer b.release()
	var out []Warning
	for i, o := range orders {
		a := m.Army(o.Army)
		if a == nil || a.Side != domain.Mercenary {
			continue
		}
		warn := func(rule string, code Code, format string, args ...any) {
			out = append(out, Warning{Army: a.Name, Line: i + 1, Rule: rule, Code: code, Message: fmt.Sprintf(format, args...)})
		}
		if o.Kind == domain.Hold && o.Note == DisbandNote && a.Faction != domain.Raider {
			warn("6.3.2", DisbandNotRaider, "only a raider may disband; %s is a %s army, so it holds (6.3.2)", a.Name, factionName(a.Faction))
		}
		if o.Kind != domain.MoveKind || len(o.Legs) == 0 {
			continue
		}
		switch a.Faction {
		case domain.TownDefender:
			b.checkDefender(a, o, warn)
		case domain.Theme:
			if mem.AtWarWith(a.Name) == "" && !mem.IsOcean(m, a) {
				checkTerritory(a, o, mem.TerritoryOf(a), warn)
			}
			if side := mem.AtWarWith(a.Name); side != "" {
				for _, l := range o.Legs {
					if s := b.stronghold(l.To); s != nil {
						warn("6.2.3", NearStronghold, "%s is At War with %s and never moves onto or next to a base or portal; %s is %s (6.2.3)",
							a.Name, side.Title(), l.To, nextTo(l.To, s))
						break
					}
				}
			}
		case domain.Raider:
			for _, l := range o.Legs {
				if s := b.siteNear(l.To); s != nil {
					warn("6.3.1", NearSite, "a raider never moves to a square next to a base, portal or town; %s is %s (6.3.1)", l.To, nextTo(l.To, s))
					break
				}
			}
		}
	}
	return out
}

// checkTerritory applies 6.2.1 to a theme army at peace: every leg ends within one turn's
// move (3 steps) of the centre of its territory, or nearer to it than the leg started (a theme
// army going back to its territory).
func checkTerritory(a *domain.Army, o domain.Order, home domain.Square, warn func(string, Code, string, ...any)) {
	prev := a.At
	for _, l := range o.Legs {
		if d := domain.Steps(l.To, home); d > 3 && d >= domain.Steps(prev, home) {
			warn("6.2.1", LeavesTerritory, "%s patrols its territory around %s and attacks only armies within one turn's move of it; %s is %d steps from it (6.2.1)", a.Name, home, l.To, d)
			return
		}
		prev = l.To
	}
}

func factionName(f domain.Faction) string {
	if f == "" {
		return "faction-less"
	}
	return string(f)
}

func nextTo(sq domain.Square, s *domain.Site) string {
	if sq == s.At {
		return s.Name
	}
	return "next to " + s.Name + " (" + s.At.String() + ")"
}

// siteNear is a site on or next to square s, or nil.
func (b *board) siteNear(s domain.Square) *domain.Site {
	if !b.g.Contains(s) || !b.nearSite[b.g.Index(s)] {
		return nil
	}
	for i := range b.m.Sites {
		if domain.Ring(b.m.Sites[i].At, s) <= 1 {
			return &b.m.Sites[i]
		}
	}
	return nil
}

// stronghold is a base or portal on or next to square s, or nil.
func (b *board) stronghold(s domain.Square) *domain.Site {
	if !b.g.Contains(s) || !b.nearStronghold[b.g.Index(s)] {
		return nil
	}
	for i := range b.m.Sites {
		if st := &b.m.Sites[i]; st.Kind != domain.Town && domain.Ring(st.At, s) <= 1 {
			return st
		}
	}
	return nil
}

// checkDefender applies 6.1.1: every leg ends in the town or next to it, or nearer to it than
// the leg started (a defender pushed away coming back). A defender under 3500 soldiers whose
// move ends nearer to another town than it starts is retreating, which the guideline allows.
func (b *board) checkDefender(a *domain.Army, o domain.Order, warn func(string, Code, string, ...any)) {
	home := b.home(a)
	if home == nil {
		return
	}
	dest := o.Legs[len(o.Legs)-1].To
	if a.Troops != nil && a.Alive() < RetreatBelow {
		for _, t := range b.towns {
			if t != home && domain.Ring(dest, t.At) < domain.Ring(a.At, t.At) {
				return
			}
		}
	}
	prev := a.At
	for _, l := range o.Legs {
		d := domain.Ring(l.To, home.At)
		if d > 1 && d >= domain.Ring(prev, home.At) {
			retreat := ""
			if a.Troops != nil && a.Alive() < RetreatBelow {
				retreat = fmt.Sprintf("; with %d soldiers it may retreat, but only towards another town", a.Alive())
			}
			warn("6.1.1", LeavesTown, "%s defends %s (%s) and stays in it or within 1 square of it; %s is %d squares away%s (6.1.1)",
				a.Name, home.Name, home.At, l.To, d, retreat)
			return
		}
		prev = l.To
	}
}

// CheckEdit checks the mercenary judge's after-lock edits of one turn (6.3.2) on the map as the
// lock left it: only a raider may be edited, only one raider a turn, the new order must engage
// an army (a move onto an enemy army's square, or an intercept), and its route must not pass
// through the square of any army. A move without a written route is drawn at random among the
// shortest (M4), so it must avoid armies on every one of them. Check applies to edits too.
func CheckEdit(m *domain.Map, edits ...domain.Order) []Warning {
	b := newBoard(m)
	defer b.release()
	var out []Warning
	edited := ""
	for i, o := range edits {
		a := m.Army(o.Army)
		if a == nil {
			continue
		}
		warn := func(code Code, format string, args ...any) {
			out = append(out, Warning{Army: a.Name, Line: i + 1, Rule: "6.3.2", Code: code, Message: fmt.Sprintf(format, args...)})
		}
		if a.Side != domain.Mercenary || a.Faction != domain.Raider {
			warn(EditNotRaider, "only a raider's order may be changed after the lock; %s is not a raider (6.3.2)", a.Name)
			continue
		}
		switch {
		case edited == "":
			edited = a.Name
		case edited != a.Name:
			warn(EditTooMany, "only one raider's order may be changed after the lock each turn, and %s's already was (6.3.2)", edited)
			continue
		}
		if msg := b.engages(a, o); msg != "" {
			warn(EditNoEngage, "an after-lock edit must be an attempt to engage an army, not to avoid one: %s (6.3.2)", msg)
		}
		if o.Kind == domain.MoveKind {
			if msg := b.passes(a, o); msg != "" {
				warn(EditPassesArmy, "an after-lock edit may not pass through the square of any army: %s (6.3.2)", msg)
			}
		}
	}
	return out
}

// engages explains why order o of army a does not engage an army, or returns "".
func (b *board) engages(a *domain.Army, o domain.Order) string {
	switch o.Kind {
	case domain.MoveKind:
		if len(o.Legs) == 0 {
			return "the move has no destination"
		}
		dest := o.Legs[len(o.Legs)-1].To
		if len(b.enemies(dest, a.Side)) == 0 {
			return fmt.Sprintf("no army of either team stands on %s", dest)
		}
		return ""
	case domain.InterceptKind:
		t := b.m.Army(o.Target)
		if t == nil || !domain.Enemy(t.Side, a.Side) {
			return fmt.Sprintf("%s is not an army of either team", o.Target)
		}
		return ""
	}
	return "the order does not move"
}

// passes explains which army's square the move passes through (start and final destination
// excluded), or returns "".
func (b *board) passes(a *domain.Army, o domain.Order) string {
	occupied := func(s domain.Square) *domain.Army {
		for i := b.on(s); i >= 0; i = b.after(i) {
			if o := &b.m.Armies[i]; o != a {
				return o
			}
		}
		return nil
	}
	dest := o.Legs[len(o.Legs)-1].To
	prev := a.At
	for li, l := range o.Legs {
		routes := [][]domain.Square{l.Route}
		if len(l.Route) == 0 {
			routes = shortestRoutes(prev, l.To)
		}
		var clean []domain.Square
		var hit *domain.Army
		for _, r := range routes {
			var h *domain.Army
			for j, s := range r {
				if (j == 0 && li == 0) || (s == dest && li == len(o.Legs)-1 && j == len(r)-1) {
					continue
				}
				if h = occupied(s); h != nil {
					break
				}
			}
			if h == nil && clean == nil {
				clean = r
			}
			if h != nil && hit == nil {
				hit = h
			}
		}
		switch {
		case hit != nil && clean == nil:
			return fmt.Sprintf("%s > %s passes %s on %s", prev, l.To, hit.Name, hit.At)
		case hit != nil && len(l.Route) == 0:
			return fmt.Sprintf("%s > %s has no written route, and the route drawn at random may pass %s on %s; write one that avoids it, like %s", prev, l.To, hit.Name, hit.At, routeText(clean))
		}
		prev = l.To
	}
	return ""
}

func routeText(r []domain.Square) string {
	parts := make([]string, len(r))
	for i, s := range r {
		parts[i] = s.String()
	}
	return "(" + strings.Join(parts, " - ") + ")"
}
