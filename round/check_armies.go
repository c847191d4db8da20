package round

// This file holds the checks of the sides' armies: their number by rank (2.5.2.1), their troop
// lists and colours (2.5.2.2) and where they start (2.5.2.3).

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/roster"
)

// CheckArmies checks the sides' armies (2.5.2.1, 2.5.2.2): as many of each rank as the count
// says, one named for each player holding a rank, at his rank, names usable and each taken
// once, a Coalition army's colours (its creator's factions, or any 3 for a proxy), and every
// troop list through the troop checker (roster.Check, 2.1–2.2).
func CheckArmies(r *Round, players []Player, cat roster.Cards) Problems {
	var ps Problems
	for _, side := range []domain.Side{domain.Coalition, domain.Phyrexia} {
		for _, rk := range ArmyRanks {
			n := 0
			for _, a := range r.Armies {
				if a.Side == side && a.Rank == rk {
					n++
				}
			}
			if want := r.Counts.Of(rk); n != want {
				ps.add("2.5.2.1", CodeArmyCount, string(side), "%s has %d %s armies; the round's count is %d (2.5.2.1)", side.Title(), n, rk.Name(side), want)
			}
		}
	}
	ps = append(ps, checkNames(r)...)
	for _, p := range players {
		if !p.HoldsArmy() || !p.Side.IsTeam() {
			continue
		}
		var mine []*Army
		for i := range r.Armies {
			if domain.SameName(r.Armies[i].Player, p.Name) {
				mine = append(mine, &r.Armies[i])
			}
		}
		switch {
		case len(mine) == 0:
			ps.add("2.5.2.2", CodePlayerArmy, p.Name, "%s, %s of %s, has no army: each player creates his own, or the judge makes it up (2.5.2.1, 2.5.2.2)", p.Name, p.Rank.Name(p.Side), p.Side.Title())
		case len(mine) > 1:
			ps.add("2.5.2.2", CodePlayerArmy, p.Name, "%s has %d armies named for him: one each (2.5.2.2)", p.Name, len(mine))
		}
		for _, a := range mine {
			if !domain.SameName(a.Name, p.Name) {
				ps.add("2.5.2.2", CodePlayerArmy, a.Name, "%s is %s's army: it is created with that player's name (2.5.2.2)", a.Name, p.Name)
			}
			if a.Rank != p.Rank || a.Side != p.Side {
				ps.add("2.5.2.2", CodePlayerArmy, a.Name, "%s is %s of %s, but his army is %s of %s (2.5.2.1)", p.Name, p.Rank.Name(p.Side), p.Side.Title(), a.Rank.Name(a.Side), a.Side.Title())
			}
			if a.Side == domain.Coalition && len(p.Factions) > 0 && !sameColors(a.Colors, p.Factions) {
				ps.add("2.2.1.1", CodeArmyColors, a.Name, "%s's colours are %s, but its creator's factions are %s: an army's colours are its creator's (2.2.1.1)", a.Name, colorList(a.Colors), colorList(p.Factions))
			}
		}
	}
	for _, a := range r.Armies {
		if a.Player == "" {
			continue
		}
		if !slices.ContainsFunc(players, func(p Player) bool { return domain.SameName(p.Name, a.Player) && p.Side == a.Side && p.HoldsArmy() }) {
			ps.add("2.5.2.2", CodePlayerArmy, a.Name, "%s is named for %s, who holds no army rank of %s: make it a proxy army (2.5.2.2)", a.Name, a.Player, a.Side.Title())
		}
	}
	for i := range r.Armies {
		ps = append(ps, CheckColors(&r.Armies[i])...)
	}
	ps = append(ps, CheckTroops(r, cat)...)
	return ps
}

// checkNames checks that every army and mercenary has a usable name, taken once.
func checkNames(r *Round) Problems {
	var ps Problems
	seen := map[string]bool{}
	check := func(name string) {
		switch {
		case strings.TrimSpace(name) == "":
			ps.add("2.5.2.2", CodeArmyName, "", "an army has no name (2.5.2.2)")
			return
		case strings.ContainsAny(name, ":\n\r"):
			ps.add("2.5.2.2", CodeArmyName, name, "%q may not contain a colon or a line break: orders put the army's name before a colon (2.5.2.2, 3.2.2.5)", name)
		case utf8.RuneCountInString(name) > domain.MaxNameLength:
			ps.add("2.5.2.2", CodeArmyName, name, "%q is longer than %d characters (2.5.2.2)", name, domain.MaxNameLength)
		case seen[domain.NameKey(name)]:
			ps.add("2.5.2.2", CodeArmyName, name, "two armies are named %s (2.5.2.2)", name)
		}
		seen[domain.NameKey(name)] = true
	}
	for _, a := range r.Armies {
		check(a.Name)
		if !a.Side.IsTeam() {
			ps.add("2.5.2", CodeArmyName, a.Name, "%s has side %q: a side's army is the Coalition's or Phyrexia's", a.Name, a.Side)
		}
		if !slices.Contains(ArmyRanks, a.Rank) {
			ps.add("2.5.2.1", CodeArmyCount, a.Name, "%s has no army rank (2.5.2.1)", a.Name)
		}
	}
	for _, a := range r.Mercenaries {
		check(a.Name)
	}
	return ps
}

// CheckColors checks a Coalition army's colours (2.2.1.1, 2.5.2.2): 1–3 faction colours, each
// once; a Phyrexian army has none.
func CheckColors(a *Army) Problems {
	var ps Problems
	if a.Side != domain.Coalition {
		if len(a.Colors) > 0 {
			ps.add("2.2.1", CodeArmyColors, a.Name, "%s is Phyrexian: its creatures' colours are Phyrexia's (2.2.1), it is member of no faction", a.Name)
		}
		return ps
	}
	switch {
	case len(a.Colors) == 0:
		ps.add("2.5.2.2", CodeArmyColors, a.Name, "%s has no colours: a Coalition army sends the colours it is a member of (2.5.2.2)", a.Name)
	case len(a.Colors) > 3:
		ps.add("2.2.1.1", CodeArmyColors, a.Name, "%s has %d colours: at most 3 (1.1.2, 2.2.1.1)", a.Name, len(a.Colors))
	}
	seen := map[domain.Color]bool{}
	for _, c := range a.Colors {
		c = faction(c)
		if !slices.Contains(Factions, c) {
			ps.add("2.2.1.1", CodeArmyColors, a.Name, "%s's colour %q is no faction (1.1.2)", a.Name, c)
		}
		if seen[c] {
			ps.add("2.2.1.1", CodeArmyColors, a.Name, "%s names %s twice", a.Name, c)
		}
		seen[c] = true
	}
	return ps
}

// faction reads "artifact" as the Colorless faction.
func faction(c domain.Color) domain.Color {
	if c == domain.Artifact {
		return domain.Colorless
	}
	return c
}

func sameColors(a, b []domain.Color) bool {
	norm := func(cs []domain.Color) []domain.Color {
		out := make([]domain.Color, len(cs))
		for i, c := range cs {
			out[i] = faction(c)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	return slices.Equal(norm(a), norm(b))
}

func colorList(cs []domain.Color) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = string(c)
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// CheckTroops checks every side's troop list through the troop checker (roster.Check, 2.1–2.2,
// 2.5.2.2) and that no legend is in two armies (2.1).
func CheckTroops(r *Round, cat roster.Cards) Problems {
	var ps Problems
	legend := map[string]string{}
	for i := range r.Armies {
		a := &r.Armies[i]
		rep := CheckList(cat, a)
		if len(a.Troops) == 0 {
			ps.add("2.5.2.2", CodeTroops, a.Name, "%s has no troop list: its player (or its side's leaders for a proxy) sends one, or the judge makes it up (2.5.2.2)", a.Name)
		}
		for _, p := range rep.Problems {
			ps.add("2.5.2.2", CodeTroops, a.Name, "the troop list of %s breaks %s: %s (2.5.2.2)", a.Name, p.Rule, p.Message)
		}
		if rep.Legend != "" {
			if other, ok := legend[rep.Legend]; ok {
				ps.add("2.1", CodeTroops, a.Name, "%s's legend %s is also %s's: no legend may be in two armies (2.1)", a.Name, rep.Legend, other)
			}
			legend[rep.Legend] = a.Name
		}
	}
	return ps
}

// CheckList checks one army's troop list as the troop checker does for a new army (2.5.2.2).
func CheckList(cat roster.Cards, a *Army) roster.Report {
	return roster.Check(cat, a.Troops, roster.Army{Name: a.Name, Side: a.Side, Rank: a.Rank, Colors: a.Colors})
}

// CheckPlacement checks where the armies start (2.5.2.3, R71): every army has a base of its side
// to start by — a Coalition army one of its colours' — and stands within 3 squares (king's
// moves) of it, on a square no site or other army holds.
func CheckPlacement(r *Round) Problems {
	var ps Problems
	sites := map[domain.Square]string{}
	for _, s := range r.Sites {
		sites[s.At] = s.Name
	}
	taken := map[domain.Square]string{}
	for i := range r.Armies {
		a := &r.Armies[i]
		base := r.Site(a.Base)
		switch {
		case a.Base == "":
			ps.add("2.5.2.3", CodeNoBase, a.Name, "%s has no base to start by: %s requests one, or the judge chooses (2.5.2.3)", a.Name, a.Side.Title())
		case base == nil:
			ps.add("2.5.2.3", CodeNoBase, a.Name, "%s is to start by %s, which is no site of the round (2.5.2.3)", a.Name, a.Base)
		default:
			ps = append(ps, baseProblems(a, base)...)
		}
		if a.At.IsZero() {
			ps.add("2.5.2.3", CodeUnplaced, a.Name, "%s is not on the map yet: the judge drops it by its base (2.5.2.3)", a.Name)
			continue
		}
		switch {
		case !r.Grid.Contains(a.At):
			ps.add("2.5.2.3", CodeUnplaced, a.Name, "%s is not on the map (%s)", a.Name, a.At)
		case sites[a.At] != "":
			ps.add("2.5.2.3", CodeSquareTaken, a.Name, "%s stands on %s (%s): armies start next to the bases, not on them (2.5.2.3, R71)", a.Name, sites[a.At], a.At)
		case taken[a.At] != "":
			ps.add("3.3.1", CodeSquareTaken, a.Name, "%s and %s both stand on %s: two armies never share a square (3.3.1)", taken[a.At], a.Name, a.At)
		}
		taken[a.At] = a.Name
		if base != nil && base.Side == a.Side && domain.Ring(a.At, base.At) > PlacementDistance {
			ps.add("2.5.2.3", CodeFarFromBase, a.Name, "%s stands on %s, %d squares from %s (%s): armies start within %d squares of their base (2.5.2.3, R71)",
				a.Name, a.At, domain.Ring(a.At, base.At), base.Name, base.At, PlacementDistance)
		}
	}
	return ps
}

// baseProblems says why army a may not start by site s, if it may not (2.5.2.3).
func baseProblems(a *Army, s *Site) Problems {
	var ps Problems
	switch {
	case a.Side == domain.Coalition && (s.Kind != domain.Base || s.Side != domain.Coalition):
		ps.add("2.5.2.3", CodeBaseNotMember, a.Name, "%s is to start by %s, which is no Coalition base (2.5.2.3)", a.Name, s.Name)
	case a.Side == domain.Phyrexia && (s.Kind != domain.Portal || s.Side != domain.Phyrexia):
		ps.add("2.5.2.3", CodeBaseNotMember, a.Name, "%s is to start by %s, which is no Phyrexian portal (2.5.2.3)", a.Name, s.Name)
	case a.Side == domain.Coalition && !slices.ContainsFunc(a.Colors, func(c domain.Color) bool { return faction(c) == s.Color }):
		ps.add("2.5.2.3", CodeBaseNotMember, a.Name, "%s is to start by %s (%s), but it is a member of %s: a Coalition army starts by one of the bases it is a member of (2.5.2.3)",
			a.Name, s.Name, s.Color, colorList(a.Colors))
	}
	return ps
}
