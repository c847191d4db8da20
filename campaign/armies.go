package campaign

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/roster"
)

// catalogue is the service's card catalogue, loaded on first use with the judges'
// corrections put over it.
type catalogue struct {
	mu  sync.Mutex
	cat *cards.Catalogue
}

// Catalogue is the card catalogue troop lists are checked against: Options.Cards or the
// shipped data, with every correction judges stored put over it again. The first call loads
// it; a load that fails is tried again by the next call.
func (s *Service) Catalogue(ctx context.Context) (*cards.Catalogue, error) {
	s.cat.mu.Lock()
	defer s.cat.mu.Unlock()
	if s.cat.cat != nil {
		return s.cat.cat, nil
	}
	var fixes []CardCorrection
	if err := s.store.Read(ctx, func(r Reader) (err error) {
		fixes, err = r.CardCorrections()
		return err
	}); err != nil {
		return nil, err
	}
	cat := s.opt.Cards
	if cat == nil {
		var err error
		if cat, err = cards.Load(); err != nil {
			return nil, err
		}
	}
	for _, f := range fixes {
		if err := cat.Put(f.Card); err != nil {
			s.opt.Log.Error("a stored card correction no longer applies", "card", f.Card.Name, "err", err)
		}
	}
	s.cat.cat = cat
	return cat, nil
}

// MaxSearch is the most cards a search returns.
const MaxSearch = 100

// SearchCards finds creature cards whose names contain the query, for a troop picker; anyone
// may search.
func (s *Service) SearchCards(ctx context.Context, query string, limit int) ([]cards.Card, error) {
	cat, err := s.Catalogue(ctx)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(query) == "" {
		return nil, domain.Errorf(domain.ErrInvalid, "say what to search for: a part of the creature's name")
	}
	if limit <= 0 || limit > MaxSearch {
		limit = 20
	}
	return nonNil(cat.Search(query, limit)), nil
}

// LookupCard finds one card by name as players type it; when none matches, the error names
// the closest names.
func (s *Service) LookupCard(ctx context.Context, name string) (*cards.Card, error) {
	cat, err := s.Catalogue(ctx)
	if err != nil {
		return nil, err
	}
	c, ok := cat.Lookup(name)
	if !ok {
		if near := cat.Suggest(name, 5); len(near) > 0 {
			return nil, domain.Errorf(domain.ErrNotFound, "there is no creature card named %q; did you mean %s?", name, strings.Join(near, ", "))
		}
		return nil, domain.Errorf(domain.ErrNotFound, "there is no creature card named %q", name)
	}
	return &c, nil
}

// judgeAnywhere reports whether the actor is an admin or a movement, battle or mercenary judge of some
// campaign: the card catalogue is the server's, and its judges correct it.
func judgeAnywhere(r Reader, a Actor) (bool, error) {
	if a.Account == nil {
		return false, nil
	}
	if a.Account.Admin {
		return true, nil
	}
	cs, err := r.Campaigns()
	if err != nil {
		return false, err
	}
	for _, c := range cs {
		m, err := r.Member(c.ID, a.Account.ID)
		switch {
		case errors.Is(err, domain.ErrNotFound):
		case err != nil:
			return false, err
		case m.Judge() || m.Has(MercenaryJudge):
			return true, nil
		}
	}
	return false, nil
}

// Card is a creature card of the catalogue (cards.Card), as the API reads and writes it.
type Card = cards.Card

// PutCard adds a creature card to the catalogue or corrects one (judges and admins): it is
// stored, and put over the card data again at every start. name is the card's name as the
// request gives it; the card may leave its own name out.
func (s *Service) PutCard(ctx context.Context, a Actor, name string, card Card) (*Card, error) {
	cat, err := s.Catalogue(ctx)
	if err != nil {
		return nil, err
	}
	if card.Name == "" {
		card.Name = strings.TrimSpace(name)
	}
	if cards.Key(card.Name) != cards.Key(name) {
		return nil, domain.Errorf(domain.ErrInvalid, "the card is %q, but the request names %q", card.Name, name)
	}
	if err := cards.Validate(&card); err != nil {
		return nil, err
	}
	err = s.store.Write(ctx, func(tx Tx) error {
		ok, err := judgeAnywhere(tx, a)
		if err != nil {
			return err
		}
		x := access{actor: a}
		if err := x.need("correct the card catalogue (judges and admins only)", ok); err != nil {
			return err
		}
		if err := tx.PutCardCorrection(&CardCorrection{Key: cards.Key(card.Name), Card: card, By: a.Name(), At: s.now()}); err != nil {
			return err
		}
		return s.audit(tx, 0, a, "card.put", "put the card %s over the card data", card.Name)
	})
	if err != nil {
		return nil, err
	}
	if err := cat.Put(card); err != nil {
		return nil, err
	}
	c, _ := cat.Lookup(card.Name)
	return &c, nil
}

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
		if _, _, err := campaignAccess(r, a, id); err != nil {
			return err
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

// checkName checks a new army name: a name players can write in an order, not taken.
func (d *armyDesk) checkName(name, self string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	if strings.ContainsAny(name, nameBreakers) {
		return domain.Errorf(domain.ErrInvalid, "the army name %q may not contain any of %s: they carry meaning in an order line (3.2.2.5)", name, strings.TrimSpace(nameBreakers))
	}
	if o := d.m.Army(name); o != nil && !domain.SameName(o.Name, self) {
		return domain.Errorf(domain.ErrConflict, "there is already an army named %s", o.Name)
	}
	return nil
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
		if err := d.x.need("create armies (judges only)", d.x.judge()); err != nil {
			return err
		}
		name := strings.TrimSpace(in.Name)
		if err := d.checkName(name, ""); err != nil {
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
		d, err := s.armyDesk(ctx, tx, a, id)
		if err != nil {
			return err
		}
		if err := d.x.need("edit armies (judges only)", d.x.judge()); err != nil {
			return err
		}
		army, err := d.find(name)
		if err != nil {
			return err
		}
		p := ArmyPatch{Rank: in.Rank, At: in.At, Colors: in.Colors, Legend: in.Legend}
		if in.Name != "" && !domain.SameName(in.Name, army.Name) {
			p.Name = strings.TrimSpace(in.Name)
			if err := d.checkName(p.Name, army.Name); err != nil {
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
	if !m.Army(army.Name).ControlledBy(d.x.actor.Account.Name) {
		return domain.Errorf(domain.ErrForbidden, "%s does not control %s", d.x.actor.Account.Name, army.Name)
	}
	return nil
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
			if err := d.checkName(n, army.Name); err != nil {
				return err
			}
			p.Name = n
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
	return nil
}
