package round_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/roster"
	"github.com/coalition-wargame/coalition/round"
)

// firstOf is the first army of a side and rank in the round.
func firstOf(r *round.Round, side domain.Side, rk domain.Rank) *round.Army {
	for i := range r.Armies {
		if a := &r.Armies[i]; a.Side == side && a.Rank == rk {
			return a
		}
	}
	panic("no such army")
}

func mercOf(r *round.Round, f domain.Faction) *domain.Army {
	for i := range r.Mercenaries {
		if a := &r.Mercenaries[i]; a.Faction == f {
			return a
		}
	}
	panic("no such mercenary")
}

func siteOf(r *round.Round, kind domain.SiteKind) *round.Site { return r.SitesOf(kind, "")[0] }

// Each check broken on purpose is refused with its rule's number (issue 14): a generated round
// that passes every check is broken one way, and Check names that rule and code.
func TestEveryCheckBrokenIsRefused(t *testing.T) {
	cat, _ := catalogue(t)
	cases := []struct {
		name   string
		rule   string
		code   round.Code
		break_ func(r *round.Round, ps *[]round.Player)
	}{
		{"a portal next to a base", "2.5.1.1", round.CodeBaseSpacing, func(r *round.Round, _ *[]round.Player) {
			b := siteOf(r, domain.Base)
			p := r.SitesOf(domain.Portal, "")[0]
			p.At = domain.Square{Col: b.At.Col + 1, Row: b.At.Row + 1}
		}},
		{"six bases", "2.5.1.1", round.CodeBaseCount, func(r *round.Round, _ *[]round.Player) { r.Sites = r.Sites[1:] }},
		{"two white bases", "1.1.2", round.CodeBaseColor, func(r *round.Round, _ *[]round.Player) { r.SitesOf(domain.Base, "")[1].Color = domain.White }},
		{"four portals", "2.5.1.1", round.CodeBaseCount, func(r *round.Round, _ *[]round.Player) {
			p := r.SitesOf(domain.Portal, "")[0]
			for i := range r.Sites {
				if r.Sites[i].Name == p.Name {
					r.Sites = append(r.Sites[:i], r.Sites[i+1:]...)
					return
				}
			}
		}},
		{"two sites on a square", "2.5.1", round.CodeSiteOffMap, func(r *round.Round, _ *[]round.Player) { r.Sites[1].At = r.Sites[0].At }},
		{"a description missing", "2.5.1.2", round.CodeDescription, func(r *round.Round, _ *[]round.Player) { siteOf(r, domain.Base).Description = "" }},
		{"a description rejected", "2.5.1.2", round.CodeDescription, func(r *round.Round, _ *[]round.Player) {
			s := siteOf(r, domain.Portal)
			s.Review, s.Reason = round.Rejected, "too strong"
		}},
		{"a description pending", "2.5.1.2", round.CodeDescription, func(r *round.Round, _ *[]round.Player) { siteOf(r, domain.Base).Review = round.Pending }},
		{"four win conditions", "2.5.1.3", round.CodeWinConditions, func(r *round.Round, _ *[]round.Player) {
			for _, b := range r.SitesOf(domain.Base, domain.Coalition) {
				if b.WinCondition {
					b.WinCondition = false
					return
				}
			}
		}},
		{"six win conditions", "2.5.1.3", round.CodeWinConditions, func(r *round.Round, _ *[]round.Player) {
			for _, b := range r.SitesOf(domain.Base, domain.Coalition) {
				if !b.WinCondition {
					b.WinCondition = true
					return
				}
			}
		}},
		{"a portal no win condition", "2.5.1.3", round.CodePortalWin, func(r *round.Round, _ *[]round.Player) { siteOf(r, domain.Portal).WinCondition = false }},
		{"two towns", "2.5.1.4", round.CodeTownCount, func(r *round.Round, _ *[]round.Player) {
			t := siteOf(r, domain.Town)
			for i := range r.Sites {
				if r.Sites[i].Name == t.Name {
					r.Sites = append(r.Sites[:i], r.Sites[i+1:]...)
					break
				}
			}
			for i := range r.Mercenaries {
				if r.Mercenaries[i].Home == t.Name {
					r.Mercenaries[i].Home = ""
				}
			}
		}},
		{"positions not public", "2.5.2.3", round.CodeNotPublished, func(r *round.Round, _ *[]round.Player) { r.Published = false }},
		{"eight captains", "2.5.2.1", round.CodeCountTooHigh, func(r *round.Round, _ *[]round.Player) { r.Counts.Captain = 8 }},
		{"more players of a rank than armies", "2.5.2.1", round.CodeCountTooLow, func(r *round.Round, ps *[]round.Player) {
			for k := 0; k <= r.Counts.Commander; k++ {
				*ps = append(*ps, round.Player{Name: "Plaguelord " + string(rune('A'+k)), Side: domain.Phyrexia, Rank: domain.Commander})
			}
		}},
		{"an army too many", "2.5.2.1", round.CodeArmyCount, func(r *round.Round, _ *[]round.Player) {
			a := *firstOf(r, domain.Phyrexia, domain.Lieutenant)
			a.Name, a.At = "One More", domain.Square{}
			r.Armies = append(r.Armies, a)
		}},
		{"a player with no army", "2.5.2.2", round.CodePlayerArmy, func(r *round.Round, ps *[]round.Player) {
			*ps = append(*ps, round.Player{Name: "Newcomer", Side: domain.Phyrexia, Rank: domain.Lieutenant})
		}},
		{"an army with its creator's colours changed", "2.2.1.1", round.CodeArmyColors, func(r *round.Round, ps *[]round.Player) {
			*ps = append(*ps, round.Player{Name: "Coalition Captain 1", Side: domain.Coalition, Rank: domain.Captain, Factions: []domain.Color{domain.Red}})
			a := r.Army("Coalition Captain 1")
			a.Player = a.Name
			a.Colors = []domain.Color{domain.Blue}
		}},
		{"a Coalition army without colours", "2.5.2.2", round.CodeArmyColors, func(r *round.Round, _ *[]round.Player) {
			firstOf(r, domain.Coalition, domain.Lieutenant).Colors = nil
		}},
		{"four colours", "2.2.1.1", round.CodeArmyColors, func(r *round.Round, _ *[]round.Player) {
			firstOf(r, domain.Coalition, domain.Lieutenant).Colors = []domain.Color{domain.White, domain.Blue, domain.Black, domain.Red}
		}},
		{"a creature too big for its slot", "2.5.2.2", round.CodeTroops, func(r *round.Round, _ *[]round.Player) {
			a := firstOf(r, domain.Phyrexia, domain.Lieutenant)
			a.Troops = append(roster.List{{Creature: "Lord of the Pit", Slot: 1, Count: 100}}, a.Troops[1:]...)
		}},
		{"no troop list", "2.5.2.2", round.CodeTroops, func(r *round.Round, _ *[]round.Player) { firstOf(r, domain.Phyrexia, domain.Commander).Troops = nil }},
		{"two armies of one name", "2.5.2.2", round.CodeArmyName, func(r *round.Round, _ *[]round.Player) { r.Armies[1].Name = r.Armies[0].Name }},
		{"no base to start by", "2.5.2.3", round.CodeNoBase, func(r *round.Round, _ *[]round.Player) { r.Armies[0].Base = "" }},
		{"a Coalition army by a base not its colour's", "2.5.2.3", round.CodeBaseNotMember, func(r *round.Round, _ *[]round.Player) {
			a := firstOf(r, domain.Coalition, domain.Lieutenant)
			for _, b := range r.SitesOf(domain.Base, domain.Coalition) {
				if !strings.Contains(strings.Join(colorWords(a.Colors), ","), string(b.Color)) {
					a.Base = b.Name
					return
				}
			}
		}},
		{"a Phyrexian army by a base", "2.5.2.3", round.CodeBaseNotMember, func(r *round.Round, _ *[]round.Player) {
			firstOf(r, domain.Phyrexia, domain.Lieutenant).Base = siteOf(r, domain.Base).Name
		}},
		{"an army not placed", "2.5.2.3", round.CodeUnplaced, func(r *round.Round, _ *[]round.Player) { r.Armies[3].At = domain.Square{} }},
		{"an army far from its base", "2.5.2.3", round.CodeFarFromBase, func(r *round.Round, _ *[]round.Player) {
			a := firstOf(r, domain.Coalition, domain.Lieutenant)
			b := r.Site(a.Base)
			a.At = domain.Square{Col: b.At.Col + 4, Row: b.At.Row}
			if b.At.Col > 20 {
				a.At.Col = b.At.Col - 4
			}
		}},
		{"an army on its base", "2.5.2.3", round.CodeSquareTaken, func(r *round.Round, _ *[]round.Player) {
			a := firstOf(r, domain.Phyrexia, domain.Lieutenant)
			a.At = r.Site(a.Base).At
		}},
		{"two armies on a square", "3.3.1", round.CodeSquareTaken, func(r *round.Round, _ *[]round.Player) { r.Armies[1].At = r.Armies[0].At }},
		{"a town defender of rank 3/3–6/6", "6.1", round.CodeTownDefenders, func(r *round.Round, _ *[]round.Player) {
			mercOf(r, domain.TownDefender).Rank = domain.Commander
		}},
		{"a town defender out of town", "6.1", round.CodeTownDefenders, func(r *round.Round, _ *[]round.Player) {
			a := mercOf(r, domain.TownDefender)
			a.At.Row = a.At.Row%14 + 1
		}},
		{"two town defenders", "6.1", round.CodeTownDefenders, func(r *round.Round, _ *[]round.Player) { mercOf(r, domain.TownDefender).Faction = domain.Raider }},
		{"a theme army of rank 4/4–7/7", "6.2", round.CodeThemeArmies, func(r *round.Round, _ *[]round.Player) { mercOf(r, domain.Theme).Rank = domain.Captain }},
		{"a theme army next to a portal", "6.2", round.CodeThemeArmies, func(r *round.Round, _ *[]round.Player) {
			p := siteOf(r, domain.Portal)
			for i := range r.Mercenaries {
				if a := &r.Mercenaries[i]; a.Faction == domain.Theme && !a.Ocean {
					a.At = domain.Square{Col: p.At.Col, Row: p.At.Row%14 + 1}
					return
				}
			}
		}},
		{"no ocean army", "6.2", round.CodeOceanArmy, func(r *round.Round, _ *[]round.Player) {
			for i := range r.Mercenaries {
				r.Mercenaries[i].Ocean = false
			}
		}},
		{"the ocean army on land", "6.2", round.CodeOceanArmy, func(r *round.Round, _ *[]round.Player) {
			for i := range r.Mercenaries {
				if a := &r.Mercenaries[i]; a.Ocean {
					a.At = domain.Square{Col: 19, Row: 7}
					r.Terrain.Squares[a.At] = domain.Forest
				}
			}
		}},
		{"three raiders of rank 1/1", "6.3", round.CodeRaiders, func(r *round.Round, _ *[]round.Player) {
			for i := range r.Mercenaries {
				if a := &r.Mercenaries[i]; a.Faction == domain.Raider {
					a.Rank = domain.Lieutenant
				}
			}
		}},
		{"a raider next to a town", "6.3", round.CodeRaiders, func(r *round.Round, _ *[]round.Player) {
			t := siteOf(r, domain.Town)
			for i := range r.Mercenaries {
				if a := &r.Mercenaries[i]; a.Faction == domain.Raider {
					a.At = domain.Square{Col: t.At.Col + 1, Row: t.At.Row}
					return
				}
			}
		}},
		{"a mercenary with a creature too big", "6", round.CodeMercenaryTroops, func(r *round.Round, _ *[]round.Player) {
			a := mercOf(r, domain.Raider)
			a.Troops[0].Size = domain.Size{Power: 7, Toughness: 7}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, players := generated(t, 7)
			if ps := round.Check(r, players, cat); len(ps) > 0 {
				t.Fatalf("the round before breaking it: %+v", ps)
			}
			c.break_(r, &players)
			ps := round.Check(r, players, cat)
			for _, p := range ps {
				if p.Code == c.code && p.Rule == c.rule {
					if !strings.Contains(p.Message, "("+c.rule) && !strings.Contains(p.Message, c.rule+")") && !strings.Contains(p.Message, c.rule+",") {
						t.Errorf("the message does not name rule %s: %s", c.rule, p.Message)
					}
					return
				}
			}
			t.Errorf("broken, the round gives no %s problem of rule %s: %+v", c.code, c.rule, ps)
		})
	}
}

func colorWords(cs []domain.Color) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c)
	}
	return out
}

// The Coalition's leaders choose exactly 5 bases (2.5.1.3): 4 or 6, a portal, a base twice, or
// a choice after the positions are public is refused naming the rule.
func TestChooseWinConditions(t *testing.T) {
	r, _ := generated(t, 3)
	r.Published = false
	var bases []string
	for _, b := range r.SitesOf(domain.Base, domain.Coalition) {
		bases = append(bases, b.Name)
	}
	portal := siteOf(r, domain.Portal).Name
	for _, c := range []struct {
		name  string
		names []string
		kind  error
	}{
		{"four", bases[:4], domain.ErrInvalid},
		{"six", bases[:6], domain.ErrInvalid},
		{"a portal", append(bases[:4:4], portal), domain.ErrInvalid},
		{"a base twice", append(bases[:4:4], bases[0]), domain.ErrInvalid},
	} {
		err := round.ChooseWinConditions(r, c.names)
		if !errors.Is(err, c.kind) || !strings.Contains(err.Error(), "2.5.1.3") {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if err := round.ChooseWinConditions(r, bases[2:]); err != nil {
		t.Fatal(err)
	}
	if ps := round.CheckWinConditions(r); len(ps) > 0 {
		t.Errorf("after choosing 5: %+v", ps)
	}
	r.Published = true
	if err := round.ChooseWinConditions(r, bases[:5]); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("after publishing: %v", err)
	}
}
