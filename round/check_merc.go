package round

// This file holds the checks of the round's mercenaries (2.5.3, chapter 6): 3 town defenders of
// rank 2/2–5/5 in the towns (6.1), 4 theme armies of rank 3/3–6/6 away from the bases and
// portals, one of them in the ocean (6.2), and 2 raiders of rank 1/1 and 1 of rank 2/2 away from
// the bases (6.3); their troop lists through the troop checker.

import (
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/roster"
)

// The ranks of the mercenaries the round starts with (6.1–6.3): a "2/2–5/5 rank" army is of
// the Lt Commander class (2.1.5), a "3/3–6/6" one of the Commander class (2.1.4), a "1/1 rank"
// raider of the Lieutenant class (2.1.6) and a "2/2 rank" one of the Lt Commander class.
const (
	TownDefenderRank = domain.LtCommander
	ThemeRank        = domain.Commander
)

// RaiderRanks are the raiders a round starts with (6.3): two of rank 1/1 and one of rank 2/2.
var RaiderRanks = []domain.Rank{domain.Lieutenant, domain.Lieutenant, domain.LtCommander}

// CheckMercenaries checks the round's mercenaries (2.5.3, 6.1–6.3).
func CheckMercenaries(r *Round, cat roster.Cards) Problems {
	var ps Problems
	taken := map[domain.Square]string{}
	for _, a := range r.Armies {
		if !a.At.IsZero() {
			taken[a.At] = a.Name
		}
	}
	var tdf, theme, raiders []*domain.Army
	for i := range r.Mercenaries {
		a := &r.Mercenaries[i]
		switch {
		case !r.Grid.Contains(a.At):
			ps.add("2.5.3", CodeMercenaryPlace, a.Name, "%s is not on the map (%s) (2.5.3)", a.Name, a.At)
		case taken[a.At] != "":
			ps.add("3.3.1", CodeMercenaryPlace, a.Name, "%s and %s both stand on %s: two armies never share a square (3.3.1)", taken[a.At], a.Name, a.At)
		}
		taken[a.At] = a.Name
		if a.Side != domain.Mercenary {
			ps.add("6", CodeMercenaryFaction, a.Name, "%s is among the mercenaries but plays for %s (6)", a.Name, a.Side.Title())
		}
		switch a.Faction {
		case domain.TownDefender:
			tdf = append(tdf, a)
		case domain.Theme:
			theme = append(theme, a)
		case domain.Raider:
			raiders = append(raiders, a)
		default:
			ps.add("6", CodeMercenaryFaction, a.Name, "%s belongs to no mercenary faction: town defender, theme or raider (6)", a.Name)
		}
		rep := roster.Check(cat, ListOf(a.Troops), roster.Army{Name: a.Name, Side: domain.Mercenary, Rank: a.Rank})
		if len(a.Troops) == 0 {
			ps.add("6", CodeMercenaryTroops, a.Name, "%s has no troops (6)", a.Name)
		}
		for _, p := range rep.Problems {
			ps.add("6", CodeMercenaryTroops, a.Name, "the troop list of %s breaks %s: %s (6)", a.Name, p.Rule, p.Message)
		}
	}
	ps = append(ps, checkDefenders(r, tdf)...)
	ps = append(ps, checkThemes(r, theme)...)
	ps = append(ps, checkRaiders(r, raiders)...)
	return ps
}

// checkDefenders checks 6.1: 3 town defenders of rank 2/2–5/5, each in its own town, that town
// its home.
func checkDefenders(r *Round, tdf []*domain.Army) Problems {
	var ps Problems
	if len(tdf) != TownDefenders {
		ps.add("6.1", CodeTownDefenders, "", "the round has %d town defenders: there are %d (6.1)", len(tdf), TownDefenders)
	}
	towns := map[string]string{}
	for _, a := range tdf {
		if a.Rank != TownDefenderRank {
			ps.add("6.1", CodeTownDefenders, a.Name, "%s is of rank %s: a town defender is a 2/2–5/5 rank army (6.1)", a.Name, classOf(a.Rank))
		}
		var town *Site
		for i := range r.Sites {
			if r.Sites[i].Kind == domain.Town && r.Sites[i].At == a.At {
				town = &r.Sites[i]
			}
		}
		switch {
		case town == nil:
			ps.add("6.1", CodeTownDefenders, a.Name, "%s stands on %s, which is no town: each town defender starts in one of the neutral towns (6.1)", a.Name, a.At)
		case towns[town.Name] != "":
			ps.add("6.1", CodeTownDefenders, a.Name, "%s and %s both defend %s: one town defender a town (6.1)", towns[town.Name], a.Name, town.Name)
		case a.Home != "" && !domain.SameName(a.Home, town.Name):
			ps.add("6.1", CodeTownDefenders, a.Name, "%s stands in %s but its home town is %s (6.1)", a.Name, town.Name, a.Home)
		}
		if town != nil {
			towns[town.Name] = a.Name
		}
	}
	return ps
}

// checkThemes checks 6.2: 4 theme armies of rank 3/3–6/6, none on or next to a base or portal,
// exactly one of them the ocean army, standing on an ocean square.
func checkThemes(r *Round, theme []*domain.Army) Problems {
	var ps Problems
	if len(theme) != ThemeArmies {
		ps.add("6.2", CodeThemeArmies, "", "the round has %d theme armies: there are %d (6.2)", len(theme), ThemeArmies)
	}
	ocean := 0
	for _, a := range theme {
		if a.Rank != ThemeRank {
			ps.add("6.2", CodeThemeArmies, a.Name, "%s is of rank %s: a theme army is a 3/3–6/6 rank army (6.2)", a.Name, classOf(a.Rank))
		}
		if s := nearSite(r, a.At, domain.Base, domain.Portal); s != nil {
			ps.add("6.2", CodeThemeArmies, a.Name, "%s starts on %s, next to %s (%s): a theme army starts away from bases and portals (6.2, R73)", a.Name, a.At, s.Name, s.At)
		}
		if a.Ocean {
			ocean++
			if r.Terrain.At(a.At) != domain.Ocean {
				ps.add("6.2", CodeOceanArmy, a.Name, "%s is the ocean army but starts on %s, which is %s: it is an underwater army (6.2)", a.Name, a.At, r.Terrain.At(a.At))
			}
		}
	}
	if ocean != 1 {
		ps.add("6.2", CodeOceanArmy, "", "%d theme armies are ocean armies: exactly one is an underwater army whose territory is the ocean (6.2)", ocean)
	}
	return ps
}

// checkRaiders checks 6.3: two raiders of rank 1/1 and one of rank 2/2, none on or next to a
// base, portal or town (R73).
func checkRaiders(r *Round, raiders []*domain.Army) Problems {
	var ps Problems
	count := map[domain.Rank]int{}
	for _, a := range raiders {
		count[a.Rank]++
		if s := nearSite(r, a.At, domain.Base, domain.Portal, domain.Town); s != nil {
			ps.add("6.3", CodeRaiders, a.Name, "%s starts on %s, next to %s (%s): raiders start away from bases (6.3, 6.3.1, R73)", a.Name, a.At, s.Name, s.At)
		}
	}
	if len(raiders) != len(RaiderRanks) || count[domain.Lieutenant] != 2 || count[domain.LtCommander] != 1 {
		ps.add("6.3", CodeRaiders, "", "the round starts with %d raiders of rank 1/1 and %d of rank 2/2 (%d in all): 2 of rank 1/1 and 1 of rank 2/2 begin on the map (6.3)",
			count[domain.Lieutenant], count[domain.LtCommander], len(raiders))
	}
	return ps
}

// nearSite is a site of the kinds given on s or next to it, or nil.
func nearSite(r *Round, s domain.Square, kinds ...domain.SiteKind) *Site {
	for i := range r.Sites {
		st := &r.Sites[i]
		for _, k := range kinds {
			if st.Kind == k && domain.Ring(st.At, s) <= 1 {
				return st
			}
		}
	}
	return nil
}

// classOf names a rank by its slot sizes: "2/2–5/5" for a Lt Commander.
func classOf(r domain.Rank) string {
	if r < domain.General || r > domain.Lieutenant {
		return "none"
	}
	return domain.Size{Power: r.SlotSize(1), Toughness: r.SlotSize(1)}.String() + "–" + domain.Size{Power: r.SlotSize(domain.Slots), Toughness: r.SlotSize(domain.Slots)}.String()
}

// ListOf writes map troops as a troop list, for the troop checker: each creature at its size,
// slot and full count, the dead ones counted.
func ListOf(troops []domain.Troop) roster.List {
	out := make(roster.List, len(troops))
	for i, t := range troops {
		out[i] = roster.Entry{Creature: t.Creature, Size: t.Size.String(), Slot: t.Slot, Count: t.Full, Dead: t.Full - t.Alive}
	}
	return out
}
