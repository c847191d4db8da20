package round

// This file holds the checks of a round's sites (2.5.1.1–2.5.1.4) and the entry point that runs
// every check of a round before it starts.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/roster"
)

// Code names the kind of a round's problem.
type Code string

// The problem codes, each with its rule.
const (
	CodeGrid             Code = "grid"                   // the map itself is not one the rules can use
	CodeSiteOffMap       Code = "site_off_map"           // a site off the grid, two on a square (G4)
	CodeSiteName         Code = "site_name"              // a site with no name, or two of one name
	CodeBaseCount        Code = "base_count"             // not 7 bases, 5 portals (1.1.1, 1.1.2, 2.5.1.1)
	CodeBaseColor        Code = "base_color"             // not one base per faction colour (1.1.2)
	CodeBaseSpacing      Code = "base_spacing"           // a base less than 3 squares from an enemy base (2.5.1.1)
	CodeDescription      Code = "description"            // a base with no accepted description (2.5.1.2)
	CodeWinConditions    Code = "win_conditions"         // not exactly 5 Coalition win conditions (2.5.1.3)
	CodePortalWin        Code = "portal_win_condition"   // a portal that is no win condition (2.5.1.3)
	CodeNotPublished     Code = "not_published"          // the base positions are not public yet (2.5.2.3)
	CodeTownCount        Code = "town_count"             // not 3 neutral towns (2.5.1.4)
	CodeCountTooHigh     Code = "count_too_high"         // more armies of a rank than 2.5.2.1 allows
	CodeCountTooLow      Code = "count_too_low"          // fewer armies of a rank than players holding it (2.5.2.1)
	CodeArmyCount        Code = "army_count"             // a side's armies of a rank differ from the count (2.5.2.1)
	CodeArmyName         Code = "army_name"              // an army's name is missing, taken or unusable
	CodePlayerArmy       Code = "player_army"            // a player with no army, or an army for no player (2.5.2.2)
	CodeArmyColors       Code = "army_colors"            // a Coalition army's colours (2.2.1.1, 2.5.2.2)
	CodeTroops           Code = "troops"                 // a troop list that breaks 2.1–2.2 (2.5.2.2)
	CodeNoBase           Code = "no_base"                // an army with no base to start by (2.5.2.3)
	CodeBaseNotMember    Code = "base_not_member"        // a Coalition army by a base not of its colours (2.5.2.3)
	CodeUnplaced         Code = "unplaced"               // an army not on the map yet (2.5.2.3)
	CodeFarFromBase      Code = "far_from_base"          // an army dropped away from its base (2.5.2.3, R71)
	CodeSquareTaken      Code = "square_taken"           // two armies on one square, or an army on a site (3.3.1, R71)
	CodeTownDefenders    Code = "town_defenders"         // not 3 town defenders of rank 2/2–5/5 in the towns (6.1)
	CodeThemeArmies      Code = "theme_armies"           // not 4 theme armies of rank 3/3–6/6 away from bases (6.2)
	CodeOceanArmy        Code = "ocean_army"             // not exactly one theme army in the ocean (6.2)
	CodeRaiders          Code = "raiders"                // not 2 raiders of rank 1/1 and 1 of 2/2 away from bases (6.3)
	CodeMercenaryFaction Code = "mercenary_faction"      // a mercenary of no faction (6)
	CodeMercenaryTroops  Code = "mercenary_troops"       // a mercenary's troop list breaks 2.1 (6)
	CodeMercenaryPlace   Code = "mercenary_square_taken" // a mercenary off the map or on a taken square (2.5.3)
)

// Problem is one thing that keeps a round from starting: the rule, a code, what it concerns and
// a message in plain words.
type Problem struct {
	Rule    string `json:"rule"`
	Code    Code   `json:"code"`
	Subject string `json:"subject,omitempty"`
	Message string `json:"message"`
}

// Error is a problem as an error, for a refusal (domain.ErrInvalid).
func (p Problem) Error() string { return p.Message }

// Problems is a list of problems.
type Problems []Problem

func (ps *Problems) add(rule string, code Code, subject, format string, args ...any) {
	*ps = append(*ps, Problem{Rule: rule, Code: code, Subject: subject, Message: fmt.Sprintf(format, args...)})
}

// Rules lists the rules the problems name, each once, in order.
func (ps Problems) Rules() []string {
	var out []string
	for _, p := range ps {
		if !slices.Contains(out, p.Rule) {
			out = append(out, p.Rule)
		}
	}
	return out
}

// Has reports whether a problem has the code.
func (ps Problems) Has(code Code) bool {
	return slices.ContainsFunc(ps, func(p Problem) bool { return p.Code == code })
}

// Check runs every check of 2.5 and chapter 6 on the round and lists every problem: the round
// may start only when there is none. cat is the card catalogue the troop lists are checked
// against (roster.Check); players are the campaign's players and team leaders.
func Check(r *Round, players []Player, cat roster.Cards) Problems {
	var ps Problems
	ps = append(ps, CheckSites(r)...)
	ps = append(ps, CheckDescriptions(r)...)
	if !r.Published {
		ps.add("2.5.2.3", CodeNotPublished, "", "the base positions are not public yet: publish them once the Coalition has chosen its win conditions (2.5.1.3, 2.5.2.3)")
	}
	ps = append(ps, CheckCounts(r.Counts, players)...)
	ps = append(ps, CheckArmies(r, players, cat)...)
	ps = append(ps, CheckPlacement(r)...)
	ps = append(ps, CheckMercenaries(r, cat)...)
	return ps
}

// CheckSites checks the bases, portals and towns (2.5.1.1, 2.5.1.3, 2.5.1.4): 7 Coalition bases,
// one of each faction's colour, 5 Phyrexian portals, none less than 3 squares from an enemy
// base, exactly 5 Coalition win conditions and every portal one, 3 neutral towns; sites on the
// map, one a square, each named once.
func CheckSites(r *Round) Problems {
	var ps Problems
	ps = append(ps, checkGrid(r)...)
	ps = append(ps, CheckPositions(r)...)
	ps = append(ps, CheckWinConditions(r)...)
	if n := len(r.SitesOf(domain.Town, "")); n != Towns {
		ps.add("2.5.1.4", CodeTownCount, "", "the round has %d towns: the judge places %d neutral towns (2.5.1.4)", n, Towns)
	}
	for _, t := range r.SitesOf(domain.Town, "") {
		if t.Side != domain.Neutral {
			ps.add("2.5.1.4", CodeTownCount, t.Name, "the town %s is %s's: towns are neutral (2.5.1.4)", t.Name, t.Side.Title())
		}
	}
	return ps
}

func checkGrid(r *Round) Problems {
	var ps Problems
	m := domain.Map{Grid: r.Grid, Terrain: r.Terrain}
	if err := m.Validate(); err != nil {
		ps.add("1.2", CodeGrid, "", "%v", err)
	}
	return ps
}

// CheckPositions checks where the bases and portals stand (2.5.1.1): 7 Coalition bases of the
// 7 faction colours, 5 portals, each on the map, one site a square, and no base less than 3
// squares (steps, 3.2.2.1) from an enemy base; every problem names the bases.
func CheckPositions(r *Round) Problems {
	var ps Problems
	names := map[string]string{}
	squares := map[domain.Square]string{}
	for _, s := range r.Sites {
		switch {
		case strings.TrimSpace(s.Name) == "":
			ps.add("2.5.1", CodeSiteName, "", "a %s has no name (2.5.1)", s.Kind)
		case names[domain.NameKey(s.Name)] != "":
			ps.add("2.5.1", CodeSiteName, s.Name, "two sites are named %s (2.5.1)", s.Name)
		}
		names[domain.NameKey(s.Name)] = s.Name
		if !r.Grid.Contains(s.At) {
			ps.add("2.5.1", CodeSiteOffMap, s.Name, "%s is not on the map (%s) (2.5.1)", s.Name, s.At)
			continue
		}
		if other, ok := squares[s.At]; ok {
			ps.add("2.5.1", CodeSiteOffMap, s.Name, "%s and %s are both on %s: one site a square (2.5.1, G4)", other, s.Name, s.At)
		}
		squares[s.At] = s.Name
		switch {
		case s.Kind == domain.Base && s.Side != domain.Coalition, s.Kind == domain.Portal && s.Side != domain.Phyrexia:
			ps.add("2.5.1.1", CodeBaseCount, s.Name, "%s is a %s of %s: bases are the Coalition's, portals Phyrexia's (1.1.1, 1.1.2)", s.Name, s.Kind, s.Side.Title())
		}
	}
	bases := r.SitesOf(domain.Base, domain.Coalition)
	if len(bases) != Bases {
		ps.add("2.5.1.1", CodeBaseCount, "", "the Coalition has %d bases: the judge places its %d bases, one of each faction's colour (1.1.2, 2.5.1.1)", len(bases), Bases)
	}
	for _, c := range Factions {
		n := 0
		for _, b := range bases {
			if b.Color == c {
				n++
			}
		}
		if n != 1 {
			ps.add("1.1.2", CodeBaseColor, string(c), "the Coalition has %d %s bases: each of its 7 bases has the colour of one faction (1.1.2)", n, c)
		}
	}
	if n := len(r.SitesOf(domain.Portal, domain.Phyrexia)); n != Portals {
		ps.add("2.5.1.1", CodeBaseCount, "", "Phyrexia has %d portals: the judge places its %d portals (1.1.1, 2.5.1.1)", n, Portals)
	}
	ps = append(ps, Spacing(r.Sites)...)
	return ps
}

// Spacing lists every pair of enemy bases less than 3 squares apart (2.5.1.1), counted in
// steps as armies move (3.2.2.1, R70).
func Spacing(sites []Site) Problems {
	var ps Problems
	for i := range sites {
		a := &sites[i]
		if a.Kind != domain.Base && a.Kind != domain.Portal {
			continue
		}
		for j := i + 1; j < len(sites); j++ {
			b := &sites[j]
			if (b.Kind != domain.Base && b.Kind != domain.Portal) || !domain.Enemy(a.Side, b.Side) {
				continue
			}
			if d := domain.Steps(a.At, b.At); d < BaseSpacing {
				ps.add("2.5.1.1", CodeBaseSpacing, a.Name, "%s (%s) is %d %s from the enemy %s (%s): no base may be less than %d squares from an enemy base (2.5.1.1)",
					a.Name, a.At, d, plural(d, "square", "squares"), b.Name, b.At, BaseSpacing)
			}
		}
	}
	return ps
}

// CheckWinConditions checks 2.5.1.3: exactly 5 Coalition bases are win conditions, and every
// portal is one.
func CheckWinConditions(r *Round) Problems {
	var ps Problems
	n := 0
	for _, b := range r.SitesOf(domain.Base, domain.Coalition) {
		if b.WinCondition {
			n++
		}
	}
	if n != WinConditions {
		ps.add("2.5.1.3", CodeWinConditions, "", "the Coalition has chosen %d win conditions: its leaders choose exactly %d of its bases (2.5.1.3)", n, WinConditions)
	}
	for _, p := range r.SitesOf(domain.Portal, domain.Phyrexia) {
		if !p.WinCondition {
			ps.add("2.5.1.3", CodePortalWin, p.Name, "%s is no win condition: all Phyrexian portals are (2.5.1.3)", p.Name)
		}
	}
	return ps
}

// ChooseWinConditions is the Coalition leaders' choice (2.5.1.3): exactly 5 of its bases,
// named; the others are no win condition. It is refused, naming the rule, unless the names are
// 5 different Coalition bases, or once the positions are public.
func ChooseWinConditions(r *Round, names []string) error {
	if r.Published {
		return domain.Errorf(domain.ErrConflict, "the base positions are public: the win conditions were chosen before (2.5.1.3)")
	}
	chosen := map[string]bool{}
	for _, n := range names {
		s := r.Site(n)
		if s == nil || s.Kind != domain.Base || s.Side != domain.Coalition {
			return domain.Errorf(domain.ErrInvalid, "%q is not a Coalition base: the win conditions are chosen among the Coalition's bases (2.5.1.3)", n)
		}
		if chosen[s.Name] {
			return domain.Errorf(domain.ErrInvalid, "%s is named twice: choose exactly %d different bases (2.5.1.3)", s.Name, WinConditions)
		}
		chosen[s.Name] = true
	}
	if len(chosen) != WinConditions {
		return domain.Errorf(domain.ErrInvalid, "%d bases are chosen: the Coalition's leaders choose exactly %d bases as win conditions (2.5.1.3)", len(chosen), WinConditions)
	}
	for _, b := range r.SitesOf(domain.Base, domain.Coalition) {
		b.WinCondition = chosen[b.Name]
	}
	return nil
}

// CheckDescriptions checks 2.5.1.2: every base and portal has a description the judge accepted.
func CheckDescriptions(r *Round) Problems {
	var ps Problems
	for _, s := range r.Sites {
		if s.Kind == domain.Town {
			continue
		}
		switch {
		case strings.TrimSpace(s.Description) == "":
			ps.add("2.5.1.2", CodeDescription, s.Name, "%s has no description: %s writes one for each of its bases (2.5.1.2)", s.Name, s.Side.Title())
		case s.Review == Rejected:
			ps.add("2.5.1.2", CodeDescription, s.Name, "the description of %s was rejected (%s): %s writes another (2.5.1.2)", s.Name, s.Reason, s.Side.Title())
		case s.Review != Accepted:
			ps.add("2.5.1.2", CodeDescription, s.Name, "the description of %s waits for the judge (2.5.1.2)", s.Name)
		}
	}
	return ps
}

// CheckCounts checks the number of armies of each rank (2.5.2.1): the same for both sides by
// construction, at most 1/2/7/7/14 (no limit on Lieutenants), at least the players of a side
// holding the rank.
func CheckCounts(c Counts, players []Player) Problems {
	var ps Problems
	for _, rk := range ArmyRanks {
		n, most := c.Of(rk), Maximum.Of(rk)
		if n < 0 {
			ps.add("2.5.2.1", CodeCountTooLow, rk.Word(domain.Coalition), "%d %s armies: a count is never negative (2.5.2.1)", n, rk.Name(domain.Coalition))
		}
		if most > 0 && n > most {
			ps.add("2.5.2.1", CodeCountTooHigh, rk.Word(domain.Coalition), "%d %s/%s armies a side: at most %d, as many as players can hold the rank (2.5.2.1)",
				n, rk.Name(domain.Coalition), rk.Name(domain.Phyrexia), most)
		}
		for _, side := range []domain.Side{domain.Coalition, domain.Phyrexia} {
			holding := 0
			for _, p := range players {
				if p.Side == side && p.Rank == rk {
					holding++
				}
			}
			if n < holding {
				ps.add("2.5.2.1", CodeCountTooLow, rk.Word(domain.Coalition), "%d %s armies a side, but %d players of %s hold the rank: each must be able to create his army (2.5.2.1)",
					n, rk.Name(side), holding, side.Title())
			}
		}
	}
	return ps
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// CheckSitesSoFar is CheckSites for a round whose sites are still being placed: the problems no
// further site can fix — a base less than 3 squares from an enemy base (2.5.1.1), a site off the
// map, on another's square or named twice, a base of no faction or of a faction that has one,
// more bases, portals or towns than the round has.
func CheckSitesSoFar(r *Round) Problems {
	var ps Problems
	for _, p := range CheckPositions(r) {
		switch p.Code {
		case CodeBaseSpacing, CodeSiteOffMap, CodeSiteName:
			ps = append(ps, p)
		case CodeBaseCount:
			if p.Subject != "" {
				ps = append(ps, p)
			}
		}
	}
	for _, b := range r.SitesOf(domain.Base, domain.Coalition) {
		n := 0
		for _, o := range r.SitesOf(domain.Base, domain.Coalition) {
			if o.Color == b.Color {
				n++
			}
		}
		switch {
		case !slices.Contains(Factions, b.Color):
			ps.add("1.1.2", CodeBaseColor, b.Name, "%s has colour %q: each base has the colour of one of the 7 factions (1.1.2)", b.Name, b.Color)
		case n > 1:
			ps.add("1.1.2", CodeBaseColor, b.Name, "%s is one of %d %s bases: each faction has one base (1.1.2)", b.Name, n, b.Color)
		}
	}
	for _, k := range []struct {
		kind domain.SiteKind
		most int
		rule string
	}{{domain.Base, Bases, "2.5.1.1"}, {domain.Portal, Portals, "2.5.1.1"}, {domain.Town, Towns, "2.5.1.4"}} {
		if n := len(r.SitesOf(k.kind, "")); n > k.most {
			ps.add(k.rule, CodeBaseCount, "", "%d %ss: the round has %d (%s)", n, k.kind, k.most, k.rule)
		}
	}
	return ps
}
