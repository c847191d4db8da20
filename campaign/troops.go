// Troop lists: checks against the army-building rules (2.1–2.2), a controller's change after two
// days (2.3.2) and a new player's customisation (2.6).

package campaign

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/roster"
)

// TroopCheck asks whether a troop list is legal for an army: an army on the map (its rank,
// side, colours and troops) or one described by rank, side and colours. Kind is "new" (the
// army-building rules, 2.1–2.2, 2.5.2.2), "change" (a change after two days, 2.3.2) or
// "customise" (a new player's customisation, 2.6).
type TroopCheck struct {
	Army   string         `json:"army,omitempty"`
	Side   domain.Side    `json:"side,omitempty"`
	Rank   domain.Rank    `json:"rank,omitempty"`
	Colors []domain.Color `json:"colors,omitempty"`
	Kind   string         `json:"kind,omitempty"`
	Troops roster.List    `json:"troops"`
}

// CheckTroops checks a troop list and returns every problem at once, each naming the creature
// and the rule; anyone may check a list.
func (s *Service) CheckTroops(ctx context.Context, a Actor, id int64, req TroopCheck) (*roster.Report, error) {
	cat, err := s.Catalogue(ctx)
	if err != nil {
		return nil, err
	}
	var out roster.Report
	err = s.store.Read(ctx, func(r Reader) error {
		_, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		if !mayCheckTroops(x) {
			return x.refuse("check troop lists")
		}
		t, err := r.LatestTurn(id)
		if err != nil {
			return err
		}
		m, err := amended(r, t)
		if err != nil {
			return err
		}
		ra := roster.Army{Name: strings.TrimSpace(req.Army), Side: req.Side, Rank: req.Rank, Colors: req.Colors}
		var current []domain.Troop
		if req.Army != "" {
			army := m.Army(req.Army)
			if army == nil {
				return domain.Errorf(domain.ErrNotFound, "there is no army named %q on the map", req.Army)
			}
			ra = roster.ArmyOf(army)
			if req.Colors != nil && req.Kind == "" {
				ra.Colors = req.Colors
			}
			current = army.Troops
		}
		if ra.Side == "" || ra.Rank == 0 {
			return domain.Errorf(domain.ErrInvalid, "name an army on the map, or give the side and rank of the army the list is for")
		}
		ra.Legends = legends(m, ra.Name)
		switch req.Kind {
		case "", "new":
			out = roster.Check(cat, req.Troops, ra)
		case "change":
			out = roster.CheckChange(cat, req.Troops, ra, current, destroyedColors(m))
		case "customise":
			out = roster.CheckCustomisation(cat, req.Troops, ra, current)
		default:
			return domain.Errorf(domain.ErrInvalid, "%q is not a kind of check: use new, change or customise", req.Kind)
		}
		return nil
	})
	return &out, err
}

// legends lists the legends the armies of m hold, but army's own (2.1).
func legends(m *domain.Map, army string) map[string]string {
	out := map[string]string{}
	for _, a := range m.Armies {
		if a.Legend != "" && !domain.SameName(a.Name, army) {
			out[a.Legend] = a.Name
		}
	}
	return out
}

// destroyedColors are the colours of the Coalition's destroyed bases (2.3.2).
func destroyedColors(m *domain.Map) []domain.Color {
	var out []domain.Color
	for _, s := range m.Sites {
		if s.Destroyed && s.Side == domain.Coalition && s.Kind == domain.Base && s.Color != "" {
			out = append(out, s.Color)
		}
	}
	return out
}

// ListProblem is a troop list that breaks the army-building rules: every problem, each naming
// the creature and the rule. It wraps domain.ErrInvalid.
type ListProblem struct {
	Army     string
	Problems []roster.Problem
}

func (e *ListProblem) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.Message
	}
	return fmt.Sprintf("the troop list of %s breaks %d rule(s): %s", e.Army, len(e.Problems), strings.Join(parts, "; "))
}

// Unwrap lets errors.Is find domain.ErrInvalid.
func (e *ListProblem) Unwrap() error { return domain.ErrInvalid }

func listProblem(army string, rep roster.Report) error {
	if rep.OK() {
		return nil
	}
	return &ListProblem{Army: army, Problems: rep.Problems}
}

// asList is an army's troops written as a troop list, for a check with new colours or rank.
func asList(a *domain.Army) roster.List {
	out := make(roster.List, 0, len(a.Troops)+1)
	for _, t := range a.Troops {
		out = append(out, roster.Entry{Creature: t.Creature, Size: t.Size.String(), Slot: t.Slot, Count: t.Full, Dead: t.Full - t.Alive})
	}
	if a.Legend != "" {
		out = append(out, roster.Entry{Creature: a.Legend, Legend: true})
	}
	return out
}

// healsToChange reports whether the army stands on a base or portal where it heals: the
// places where two counted days let it change troops (2.3.2, D6). A town heals but never lets
// an army change troops (2.3.1.3).
func healsToChange(m *domain.Map, a *domain.Army) bool {
	s := m.SiteAt(a.At)
	if s == nil || s.Destroyed {
		return false
	}
	switch {
	case s.Kind == domain.Portal && s.Side == domain.Phyrexia && a.Side == domain.Phyrexia:
		return true
	case s.Kind == domain.Base && s.Side == domain.Coalition && a.Side == domain.Coalition && a.HasColor(s.Color):
		return true
	}
	return false
}

// TroopChange is a controller's new troop list for his army.
type TroopChange struct {
	Troops roster.List `json:"troops"`
}

// ChangeTroops gives an army a new troop list (2.3.2, D6): its controller may send one once
// the army has counted 2 days on a base or portal where it heals (not a town), and it is not
// fighting a battle this turn. The list must pass the army-building rules, and a Coalition army
// may not gain creatures of a destroyed base's colour that it did not have. The change applies
// at once to the open turn's map: the army has its new troops from now on.
func (s *Service) ChangeTroops(ctx context.Context, a Actor, id int64, name string, req TroopChange) (*ArmyChange, error) {
	var out *ArmyChange
	err := s.store.Write(ctx, func(tx Tx) error {
		d, err := s.armyDesk(ctx, tx, a, id)
		if err != nil {
			return err
		}
		now := s.now()
		army, err := d.controlled(tx, name, now)
		if err != nil {
			return err
		}
		switch {
		case !healsToChange(d.m, army):
			return domain.Errorf(domain.ErrConflict, "%s is not on a base or portal where it heals: an army changes troops only there, after counting 2 days (2.3.2; a town never lets it, 2.3.1.3)", army.Name)
		case army.Days < 2:
			return domain.Errorf(domain.ErrConflict, "%s has counted %d day(s) at %s: it may change troops after counting 2 (2.3.2)", army.Name, army.Days, d.m.SiteAt(army.At).Name)
		case d.inBattle(army.Name):
			return domain.Errorf(domain.ErrConflict, "%s fights a battle this turn: it changes troops once the battle is settled", army.Name)
		}
		ra := roster.ArmyOf(army)
		ra.Legends = legends(d.m, army.Name)
		rep := roster.CheckChange(d.cat, req.Troops, ra, army.Troops, destroyedColors(d.m))
		if err := listProblem(army.Name, rep); err != nil {
			return err
		}
		p := ArmyPatch{Troops: rep.Troops}
		if rep.Legend != "" {
			legend := rep.Legend
			p.Legend = &legend
		}
		got, err := s.amend(tx, d, &Amendment{TurnID: d.t.ID, Kind: TroopsChanged, Army: army.Name, Patch: p, By: a.Name(), At: now})
		if err != nil {
			return err
		}
		out = &ArmyChange{Army: *got, Warnings: rep.Warnings}
		return s.audit(tx, id, a, "army.troops", "%s changed its troops at %s after counting %d days (2.3.2)", army.Name, d.m.SiteAt(army.At).Name, army.Days)
	})
	return out, err
}

// Customisation is a new player's one customisation of an army (2.6): a new name (optional),
// legend and units; the colours stay.
type Customisation struct {
	Name   string      `json:"name,omitempty"`
	Troops roster.List `json:"troops"`
}

// CustomiseWindow is how many turns a new player has to customise the army his team leaders
// gave him (2.6).
const CustomiseWindow = 2

// Customise makes a new player's one customisation of an army (2.6): he controls it, it is of
// rank Lt Commander/CPL or lower, his team leaders gave it to him (the control list) no more
// than 2 turns ago, and he has not customised an army before in this campaign. The new list
// keeps the colours and the number of troops alive (the army is not healed). It applies at
// once; a new name is the army's name on the map and the control list from now on.
func (s *Service) Customise(ctx context.Context, a Actor, id int64, name string, req Customisation) (*ArmyChange, error) {
	var out *ArmyChange
	err := s.store.Write(ctx, func(tx Tx) error {
		d, err := s.armyDesk(ctx, tx, a, id)
		if err != nil {
			return err
		}
		now := s.now()
		army, err := d.controlled(tx, name, now)
		if err != nil {
			return err
		}
		me := a.Account.Name
		if err := s.mayCustomise(tx, d, army, me); err != nil {
			return err
		}
		if d.inBattle(army.Name) {
			return domain.Errorf(domain.ErrConflict, "%s fights a battle this turn: customise it once the battle is settled", army.Name)
		}
		p := ArmyPatch{}
		if n := strings.TrimSpace(req.Name); n != "" && !domain.SameName(n, army.Name) {
			if p.Name, err = d.checkName(n, army.Name); err != nil {
				return err
			}
		}
		ra := roster.ArmyOf(army)
		ra.Legends = legends(d.m, army.Name)
		rep := roster.CheckCustomisation(d.cat, req.Troops, ra, army.Troops)
		if err := listProblem(army.Name, rep); err != nil {
			return err
		}
		legend := rep.Legend
		p.Troops, p.Legend = rep.Troops, &legend
		got, err := s.amend(tx, d, &Amendment{TurnID: d.t.ID, Kind: ArmyCustomised, Army: army.Name, Patch: p, By: a.Name(), At: now, Player: me})
		if err != nil {
			return err
		}
		if p.Name != "" {
			if err := renameControl(tx, d, a, army, p.Name, now); err != nil {
				return err
			}
		}
		out = &ArmyChange{Army: *got, Warnings: rep.Warnings}
		return s.audit(tx, id, a, "army.customise", "%s customised %s (2.6)", me, army.Name)
	})
	return out, err
}

// mayCustomise checks the 2.6 conditions that the troop list does not: one customisation a
// player, of an army given to him no more than CustomiseWindow turns ago.
func (s *Service) mayCustomise(tx Tx, d *armyDesk, army *domain.Army, me string) error {
	turns, err := tx.Turns(d.c.ID)
	if err != nil {
		return err
	}
	for _, t := range turns {
		ams, err := tx.Amendments(t.ID)
		if err != nil {
			return err
		}
		for _, am := range ams {
			if am.Kind == ArmyCustomised && domain.SameName(am.Player, me) {
				return domain.Errorf(domain.ErrConflict, "%s has already customised %s: a new player customises one army, once (2.6)", me, am.Army)
			}
		}
	}
	entries, err := tx.Control(d.c.ID)
	if err != nil {
		return err
	}
	// since: when the player last became a controller of the army
	var since *ControlEntry
	for i := range entries {
		e := &entries[i]
		if !domain.SameName(e.Army, army.Name) || e.EffectiveAt.After(s.now()) {
			continue
		}
		has := slices.ContainsFunc(e.Controllers, func(n string) bool { return domain.SameName(n, me) })
		switch {
		case has && since == nil:
			since = e
		case !has:
			since = nil
		}
	}
	first := d.t.Number - (CustomiseWindow - 1)
	opened, setup := d.t.OpenedAt, d.t.OpenedAt
	for _, t := range turns {
		if t.Number == max(first, 1) {
			opened = t.OpenedAt
		}
		if t.Number == 1 {
			setup = t.OpenedAt
		}
	}
	// the armies players hold when the round starts are theirs, not a new player's (2.6)
	if since == nil || since.EffectiveAt.Before(opened) || !since.EffectiveAt.After(setup) {
		return domain.Errorf(domain.ErrConflict, "%s was not given to %s in the last %d turns: a new player customises the army his team leaders give him within %d turns (2.6)", army.Name, me, CustomiseWindow, CustomiseWindow)
	}
	return mayCustomiseYet(tx, d.c.ID, me)
}
