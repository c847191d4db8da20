// The armies desk: judges create and edit armies on the open turn's map (2.5.2), and the checks
// every change to an army shares.

package campaign

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/roster"
)

// ArmyInput is a new army as a judge makes it at round setup (2.5.2): its troop list is
// checked against the army-building rules.
type ArmyInput struct {
	Name        string         `json:"name"`
	Side        domain.Side    `json:"side"`
	Rank        domain.Rank    `json:"rank"`
	At          domain.Square  `json:"at"`
	Controllers []string       `json:"controllers,omitempty"`
	Colors      []domain.Color `json:"colors,omitempty"`
	Troops      roster.List    `json:"troops"`
	Faction     domain.Faction `json:"faction,omitempty"`
}

// ArmyEdit is a judge's change to an army; fields left out stay as they are. A new troop list,
// rank or colours are checked against the army-building rules.
type ArmyEdit struct {
	Name   string         `json:"name,omitempty"`
	Rank   domain.Rank    `json:"rank,omitempty"`
	At     domain.Square  `json:"at,omitzero"`
	Colors []domain.Color `json:"colors,omitempty"`
	Troops roster.List    `json:"troops,omitempty"`
	// Legend sets the army's legend without changing its troops; "" clears it.
	Legend *string `json:"legend,omitempty"`
}

// ArmyChange is an amendment just made: the army as it now stands on the map and the check's
// report (its warnings, for the judge to confirm).
type ArmyChange struct {
	Army     domain.Army      `json:"army"`
	Warnings []roster.Problem `json:"warnings"`
}

// armyDesk loads the open turn's map for a change to an army.
type armyDesk struct {
	c   *Campaign
	t   *Turn
	x   access
	m   *domain.Map
	cat *cards.Catalogue
}

func (s *Service) armyDesk(ctx context.Context, tx Tx, a Actor, id int64) (*armyDesk, error) {
	cat, err := s.Catalogue(ctx)
	if err != nil {
		return nil, err
	}
	c, x, err := campaignAccess(tx, a, id)
	if err != nil {
		return nil, err
	}
	if err := x.needLogin(); err != nil {
		return nil, err
	}
	if c.Status == Finished {
		return nil, domain.Errorf(domain.ErrConflict, "%s is finished", c.Name)
	}
	t, err := tx.LatestTurn(id)
	if err != nil {
		return nil, err
	}
	if t.Status != Open {
		return nil, domain.Errorf(domain.ErrConflict, "no turn of %s is open", c.Name)
	}
	m, err := amended(tx, t)
	if err != nil {
		return nil, err
	}
	return &armyDesk{c: c, t: t, x: x, m: m, cat: cat}, nil
}

// inBattle reports whether the army fights a battle this turn.
func (d *armyDesk) inBattle(name string) bool {
	for _, b := range battle.Fought(d.m) {
		if slices.Contains(b.Armies, name) {
			return true
		}
	}
	return false
}

// checkName checks a new army name and returns its normal form (NormalName): a name players
// can write in an order, not taken, not looking like another army's (self is the army's
// name before a rename).
func (d *armyDesk) checkName(name, self string) (string, error) {
	name, err := NormalName(ArmyName, name)
	if err != nil {
		return "", err
	}
	if strings.ContainsAny(name, nameBreakers) {
		return "", domain.Errorf(domain.ErrInvalid, "the army name %q may not contain any of %s: they carry meaning in an order line (3.2.2.5)", name, strings.TrimSpace(nameBreakers))
	}
	if o := d.m.Army(name); o != nil && !domain.SameName(o.Name, self) {
		return "", domain.Errorf(domain.ErrConflict, "there is already an army named %s", o.Name)
	}
	others := make([]string, 0, len(d.m.Armies))
	for _, a := range d.m.Armies {
		if !domain.SameName(a.Name, self) {
			others = append(others, a.Name)
		}
	}
	if err := distinct(ArmyName, name, others); err != nil {
		return "", err
	}
	return name, nil
}

// amend stores an amendment after checking that the map it makes is one the rules can work
// on, and bumps the map's version; an amendment that changes nothing is not stored.
func (s *Service) amend(tx Tx, d *armyDesk, am *Amendment) (*domain.Army, error) {
	m := d.m.Clone()
	if err := applyAmendment(m, am); err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	// an edit that changes nothing is not recorded, and the map keeps its version
	if !reflect.DeepEqual(d.m.Armies, m.Armies) {
		if err := tx.AddAmendment(am); err != nil {
			return nil, err
		}
		if err := bumpMap(tx, d.c.ID); err != nil {
			return nil, err
		}
	}
	name := am.Army
	if am.Patch.Name != "" {
		name = am.Patch.Name
	}
	a := m.Army(name)
	if a == nil {
		return nil, fmt.Errorf("amendment %d lost army %s", am.ID, name)
	}
	out := a.Clone()
	return &out, nil
}

// controllers checks that each name may control army (5.3.1) and spells it as its account.
func controllers(tx Tx, id int64, army *domain.Army, names []string) ([]string, error) {
	out := make([]string, 0, len(names))
	for _, n := range names {
		acc, err := tx.AccountByName(n)
		if errors.Is(err, domain.ErrNotFound) {
			return nil, domain.Errorf(domain.ErrInvalid, "there is no account named %q", n)
		} else if err != nil {
			return nil, err
		}
		mem, err := tx.Member(id, acc.ID)
		if errors.Is(err, domain.ErrNotFound) {
			return nil, domain.Errorf(domain.ErrInvalid, "%s is not a member of this campaign", acc.Name)
		} else if err != nil {
			return nil, err
		}
		if err := mayControl(mem, army); err != nil {
			return nil, err
		}
		if slices.Contains(out, acc.Name) {
			return nil, domain.Errorf(domain.ErrInvalid, "%s is listed twice", acc.Name)
		}
		out = append(out, acc.Name)
	}
	return out, nil
}

// CreateArmy puts a new army on the open turn's map (judges only), with a troop list checked
// against the army-building rules (2.1–2.2, 2.5.2.2) and its controllers on the control list.
func (s *Service) CreateArmy(ctx context.Context, a Actor, id int64, in ArmyInput) (*ArmyChange, error) {
	var out *ArmyChange
	err := s.store.Write(ctx, func(tx Tx) error {
		d, err := s.armyDesk(ctx, tx, a, id)
		if err != nil {
			return err
		}
		if err := d.x.need("create "+string(in.Side)+" armies (judges only; the mercenary judge mercenary armies)", mayCreateArmy(d.x, in.Side)); err != nil {
			return err
		}
		name, err := d.checkName(in.Name, "")
		if err != nil {
			return err
		}
		if !d.m.Grid.Contains(in.At) {
			return domain.Errorf(domain.ErrInvalid, "%s is not on the map", in.At)
		}
		army := &domain.Army{Name: name, Side: in.Side, Rank: in.Rank, At: in.At, Colors: in.Colors, Faction: in.Faction}
		if in.Side == domain.Mercenary {
			army.Territory = in.At
		}
		rep := roster.Check(d.cat, in.Troops, roster.Army{Name: name, Side: in.Side, Rank: in.Rank, Colors: in.Colors, Legends: legends(d.m, name)})
		if err := listProblem(name, rep); err != nil {
			return err
		}
		army.Troops, army.Legend = rep.Troops, rep.Legend
		if army.Controllers, err = controllers(tx, id, army, in.Controllers); err != nil {
			return err
		}
		got, err := s.amend(tx, d, &Amendment{TurnID: d.t.ID, Kind: ArmyCreated, Army: name, Patch: ArmyPatch{Army: army}, By: a.Name(), At: s.now()})
		if err != nil {
			return err
		}
		e := &ControlEntry{CampaignID: id, Army: name, Controllers: nonNil(slices.Clone(army.Controllers)), EffectiveAt: s.now(), By: a.Name(), Reason: "army created"}
		if err := tx.AddControl(e); err != nil {
			return err
		}
		out = &ArmyChange{Army: *got, Warnings: rep.Warnings}
		return s.audit(tx, id, a, "army.create", "created %s (%s %s) at %s with %d creatures", name, in.Side, in.Rank.Word(in.Side), in.At, len(army.Troops))
	})
	return out, err
}

// EditArmy changes an army of the open turn's map (judges only): its name, rank, square,
// colours, legend or troop list. A new list, rank or colours are checked against the
// army-building rules; an army fighting a battle this turn keeps its name, rank and square.
func (s *Service) EditArmy(ctx context.Context, a Actor, id int64, name string, in ArmyEdit) (*ArmyChange, error) {
	var out *ArmyChange
	err := s.store.Write(ctx, func(tx Tx) error {
		d, army, err := s.judgedArmy(ctx, tx, a, id, name, "edit", mayEditArmy)
		if err != nil {
			return err
		}
		p := ArmyPatch{Rank: in.Rank, At: in.At, Colors: in.Colors, Legend: in.Legend}
		if in.Name != "" && !domain.SameName(in.Name, army.Name) {
			if p.Name, err = d.checkName(in.Name, army.Name); err != nil {
				return err
			}
		}
		if (p.Name != "" || (p.Rank != 0 && p.Rank != army.Rank) || (!p.At.IsZero() && p.At != army.At)) && d.inBattle(army.Name) {
			return domain.Errorf(domain.ErrConflict, "%s fights a battle this turn: its name, rank and square stay until the battle is settled", army.Name)
		}
		if !p.At.IsZero() && !d.m.Grid.Contains(p.At) {
			return domain.Errorf(domain.ErrInvalid, "%s is not on the map", p.At)
		}
		var warnings []roster.Problem
		if in.Troops != nil || p.Rank != 0 || p.Colors != nil {
			ra := roster.ArmyOf(army)
			ra.Name = army.Name
			if p.Rank != 0 {
				ra.Rank = p.Rank
			}
			if p.Colors != nil {
				ra.Colors = p.Colors
			}
			ra.Legends = legends(d.m, army.Name)
			list := in.Troops
			if list == nil {
				list = asList(army)
			}
			rep := roster.Check(d.cat, list, ra)
			if err := listProblem(army.Name, rep); err != nil {
				return err
			}
			warnings = rep.Warnings
			if in.Troops != nil {
				p.Troops = rep.Troops
				if p.Legend == nil {
					legend := rep.Legend
					p.Legend = &legend
				}
			}
		}
		got, err := s.amend(tx, d, &Amendment{TurnID: d.t.ID, Kind: ArmyEdited, Army: army.Name, Patch: p, By: a.Name(), At: s.now()})
		if err != nil {
			return err
		}
		if p.Name != "" {
			if err := renameControl(tx, d, a, army, p.Name, s.now()); err != nil {
				return err
			}
		}
		out = &ArmyChange{Army: *got, Warnings: nonNil(warnings)}
		return s.audit(tx, id, a, "army.edit", "edited %s", army.Name)
	})
	return out, err
}

// renameControl carries an army's controllers over to its new name on the control list.
func renameControl(tx Tx, d *armyDesk, a Actor, army *domain.Army, name string, now time.Time) error {
	m := d.m.Clone()
	if _, err := readControl(tx, d.c.ID, m, now, 0); err != nil {
		return err
	}
	ctl := m.Army(army.Name).Controllers
	return tx.AddControl(&ControlEntry{CampaignID: d.c.ID, Army: name, Controllers: nonNil(slices.Clone(ctl)), EffectiveAt: now, By: a.Name(), Reason: army.Name + " renamed " + name})
}

// judgedArmy is the named army on the open turn's map, which the actor may change as a judge
// (may: mayEditArmy, mayRemoveArmy; what he does, for the refusal).
func (s *Service) judgedArmy(ctx context.Context, tx Tx, a Actor, id int64, name, what string, may func(access, *domain.Army) bool) (*armyDesk, *domain.Army, error) {
	d, err := s.armyDesk(ctx, tx, a, id)
	if err != nil {
		return nil, nil, err
	}
	army, err := d.find(name)
	if err != nil {
		return nil, nil, err
	}
	if err := d.x.need(what+" "+army.Name+" (judges only; the mercenary judge mercenary armies)", may(d.x, army)); err != nil {
		return nil, nil, err
	}
	return d, army, nil
}

// find is the named army on the open turn's map.
func (d *armyDesk) find(name string) (*domain.Army, error) {
	army := d.m.Army(name)
	if army == nil {
		return nil, domain.Errorf(domain.ErrNotFound, "there is no army named %q on the map", name)
	}
	return army, nil
}

// controlled is the named army on the open turn's map, which the actor must control now
// (5.2.1).
func (d *armyDesk) controlled(tx Tx, name string, now time.Time) (*domain.Army, error) {
	army, err := d.find(name)
	if err != nil {
		return nil, err
	}
	if err := controlling(tx, d, army, now); err != nil {
		return nil, err
	}
	return army, nil
}

// controlling checks that the actor controls the army now (5.2.1).
func controlling(tx Tx, d *armyDesk, army *domain.Army, now time.Time) error {
	m := d.m.Clone()
	if _, err := readControl(tx, d.c.ID, m, now, 0); err != nil {
		return err
	}
	if !mayChangeTroops(d.x, m.Army(army.Name)) {
		return domain.Errorf(domain.ErrForbidden, "%s does not control %s", d.x.actor.Account.Name, army.Name)
	}
	return nil
}
