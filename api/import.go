package api

import (
	"strings"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/scenario"
)

// MercenaryJudge is the author name of the mercenary judge's posts (M15).
const MercenaryJudge = "mercenary-judge"

// SetupFromScenario makes a campaign setup from a scenario: its map; every controller a
// player of his armies' side, holding the highest rank among them (so that 5.3.1 allows
// them); every other post author a player who controls nothing (Cadet), and
// mercenary-judge the mercenary judge; turn seeds derived from the scenario's seed; each
// turn locking at the scenario's lock time, or with no posting window when it gives none; the
// mercenary AI's mode, creature pool and history as the scenario gives them.
func SetupFromScenario(sc *scenario.Scenario, name string) campaign.Setup {
	if name = strings.TrimSpace(name); name == "" {
		name = sc.File.Name
	}
	if name == "" {
		name = "scenario"
	}
	seed := sc.File.Seed
	su := campaign.Setup{Name: name, Map: sc.Map, ScenarioSeed: &seed}
	for _, t := range sc.Turns {
		p := campaign.PlannedTurn{}
		if !t.Lock.IsZero() {
			lock := t.Lock.UTC()
			p.Lock = &lock
		}
		su.Plan = append(su.Plan, p)
	}
	members := map[string]*campaign.Member{}
	var order []string
	add := func(n string) *campaign.Member {
		key := domain.NameKey(n)
		if m, ok := members[key]; ok {
			return m
		}
		m := &campaign.Member{Name: strings.TrimSpace(n)}
		members[key] = m
		order = append(order, key)
		return m
	}
	for _, a := range sc.Map.Armies {
		for _, c := range a.Controllers {
			if domain.SameName(c, MercenaryJudge) {
				add(c).Roles = []campaign.Role{campaign.MercenaryJudge}
				continue
			}
			m := add(c)
			side := a.Side
			if !side.IsTeam() {
				side = domain.Coalition
			}
			if m.Side == "" {
				m.Side, m.Roles, m.Rank = side, []campaign.Role{campaign.Player}, a.Rank
			}
			if m.Side == a.Side && a.Rank < m.Rank {
				m.Rank = a.Rank
			}
		}
	}
	for _, t := range sc.Turns {
		posts := t.Posts
		if t.Edit != nil {
			posts = append(posts[:len(posts):len(posts)], *t.Edit)
		}
		for _, p := range posts {
			m := add(p.Author)
			if m.Roles != nil {
				continue
			}
			if domain.SameName(p.Author, MercenaryJudge) {
				m.Roles = []campaign.Role{campaign.MercenaryJudge}
				continue
			}
			m.Side, m.Roles, m.Rank = domain.Coalition, []campaign.Role{campaign.Player}, domain.Cadet
		}
	}
	for _, k := range order {
		su.Members = append(su.Members, *members[k])
	}
	// the mercenary AI plays as `coalition adjudicate` plays it: off unless the scenario asks;
	// the after-lock edit window as a new campaign's (docs/SCENARIOS.md)
	st := campaign.DefaultMercenarySettings(su.Members)
	st.Mode, st.Creatures = sc.Mercenary.Mode, sc.Mercenary.Creatures
	su.Mercenary, su.MercenaryHistory = &st, sc.Mercenary.History
	return su
}
