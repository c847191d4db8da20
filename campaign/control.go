// The control list: who controls which army from when (5.2.1, 5.3.1), and the map with the
// controllers of a given moment (C4, 5.4.2).

package campaign

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/turn"
)

// controlAt is the control list at time at (5.2.1): army name key → the controllers of
// the latest entry in effect then, counting only entries up to id upTo (0 for all).
func controlAt(entries []ControlEntry, at time.Time, upTo int64) map[string][]string {
	latest := map[string]*ControlEntry{}
	for i := range entries {
		e := &entries[i]
		if (upTo > 0 && e.ID > upTo) || e.EffectiveAt.After(at) {
			continue
		}
		k := domain.NameKey(e.Army)
		if f := latest[k]; f == nil || e.EffectiveAt.After(f.EffectiveAt) || (e.EffectiveAt.Equal(f.EffectiveAt) && e.ID > f.ID) {
			latest[k] = e
		}
	}
	out := make(map[string][]string, len(latest))
	for k, e := range latest {
		out[k] = e.Controllers
	}
	return out
}

// applyControl writes into m the controllers of every army at time at (C4, 5.4.2). An army
// that was never on the list keeps the controllers the map gives it, or else is controlled
// by the player of the same name (5.2.1).
func applyControl(m *domain.Map, entries []ControlEntry, members []Member, at time.Time, upTo int64) {
	list := controlAt(entries, at, upTo)
	for i := range m.Armies {
		a := &m.Armies[i]
		if ctl, ok := list[domain.NameKey(a.Name)]; ok {
			a.Controllers = slices.Clone(ctl)
			continue
		}
		if len(a.Controllers) > 0 {
			continue
		}
		for _, mem := range members {
			if mem.Plays() && mem.Side == a.Side && domain.SameName(mem.Name, a.Name) {
				a.Controllers = []string{mem.Name}
			}
		}
	}
}

// ControlList is the control list as it stands now and every change made to it.
type ControlList struct {
	Current map[string][]string `json:"current"`
	History []ControlEntry      `json:"history"`
}

// controlledMap is turn t's map as amended during the turn, with every army's controllers as
// the control list stands now (5.2.1).
func (s *Service) controlledMap(r Reader, id int64, t *Turn) (*domain.Map, error) {
	m, _, err := controlledMapAt(r, t, s.now(), 0)
	return m, err
}

// controlledMapAt is turn t's map as amended during the turn, with every army's controllers as
// the control list stood at time at (entries up to upTo, 0 for all; C4, 5.2.1), and the
// list's entries.
func controlledMapAt(r Reader, t *Turn, at time.Time, upTo int64) (*domain.Map, []ControlEntry, error) {
	m, err := amended(r, t)
	if err != nil {
		return nil, nil, err
	}
	entries, err := readControl(r, t.CampaignID, m, at, upTo)
	if err != nil {
		return nil, nil, err
	}
	return m, entries, nil
}

// readControl reads campaign id's control list and members and writes into m the controllers
// of every army at time at (entries up to upTo, 0 for all), returning the list's entries.
func readControl(r Reader, id int64, m *domain.Map, at time.Time, upTo int64) ([]ControlEntry, error) {
	entries, err := r.Control(id)
	if err != nil {
		return nil, err
	}
	members, err := r.Members(id)
	if err != nil {
		return nil, err
	}
	applyControl(m, entries, members, at, upTo)
	return entries, nil
}

// Control shows a campaign's control list; it is public (the Proxy List thread, 5.2.1).
func (s *Service) Control(ctx context.Context, id int64) (*ControlList, error) {
	out := &ControlList{Current: map[string][]string{}}
	err := s.store.Read(ctx, func(r Reader) error {
		t, err := r.LatestTurn(id)
		if err != nil {
			return err
		}
		m, entries, err := controlledMapAt(r, t, s.now(), 0)
		if err != nil {
			return err
		}
		for _, a := range m.Armies {
			out.Current[a.Name] = nonNil(a.Controllers)
		}
		out.History = nonNil(entries)
		return nil
	})
	return out, err
}

// SetControl changes who controls an army from now on (5.2.1). A side's holders of change
// power (5.2.2.1) and the people a judge authorized in an emergency (5.2.2.2) change its armies;
// the movement judges and the admins any army. Every controller must play for the army's side,
// and the change must keep the limitations of 5.3 (5.3.1, 5.3.2, 5.3.4): else it is refused,
// naming each rule it would break.
func (s *Service) SetControl(ctx context.Context, a Actor, id int64, army string, names []string, reason string) (*ControlEntry, error) {
	var out *ControlEntry
	err := s.store.Write(ctx, func(tx Tx) error {
		ch, err := s.controlChange(tx, a, id, army, names, "change the control list")
		if err != nil {
			return err
		}
		if bs := ch.tm.breaches(ch.army, ch.names, nil); len(bs) > 0 {
			return refusal(ch.army.Name, bs)
		}
		out, err = s.applyControl(tx, a, ch, reason, "")
		return err
	})
	return out, err
}

// change is a control change checked for who asks and for its names, not yet for 5.3.
type change struct {
	tm    *team
	x     access
	army  *domain.Army
	names []string
}

// controlChange reads what a control change of army to names needs and checks that the actor
// may make it and that every name plays for the army's side.
func (s *Service) controlChange(tx Tx, a Actor, id int64, army string, want []string, what string) (*change, error) {
	c, x, err := campaignAccess(tx, a, id)
	if err != nil {
		return nil, err
	}
	if err := x.needLogin(); err != nil {
		return nil, err
	}
	if c.Status == Finished {
		return nil, domain.Errorf(domain.ErrConflict, "the campaign is finished")
	}
	tm, err := loadTeam(tx, id, s.now())
	if err != nil {
		return nil, err
	}
	ar := tm.m.Army(army)
	if ar == nil {
		return nil, domain.Errorf(domain.ErrNotFound, "there is no army named %q on the map", army)
	}
	if !ar.Side.IsTeam() {
		if err := x.need(what+" of "+ar.Name+" (the movement judges only: it is a mercenary army)", mayChangeControl(x, false, false)); err != nil {
			return nil, err
		}
	} else if !tm.mayChangeSide(x, ar.Side) {
		return nil, domain.Errorf(domain.ErrForbidden, "%s may not %s of %s: the control list of %s is changed by its two holders of change power, %s (5.2.2.1), or by the movement judge",
			a.Name(), what, ar.Name, ar.Side.Title(), strings.Join(names(tm.holders(ar.Side)), " and "))
	}
	out, err := members(tx, id, ar, want)
	if err != nil {
		return nil, err
	}
	return &change{tm: tm, x: x, army: ar, names: out}, nil
}

// applyControl writes a checked change to the control list, effective now (5.2.1).
func (s *Service) applyControl(tx Tx, a Actor, ch *change, reason, note string) (*ControlEntry, error) {
	id := ch.tm.c.ID
	if strings.TrimSpace(reason) == "" {
		reason = "control change requested by " + a.Name()
	}
	if note != "" {
		reason += " " + note
	}
	out := &ControlEntry{CampaignID: id, Army: ch.army.Name, Controllers: nonNil(ch.names), EffectiveAt: s.now(), By: a.Name(), Reason: reason}
	if err := tx.AddControl(out); err != nil {
		return nil, err
	}
	// the map shows controllers: its version changes only if they do
	if !sameNames(slices.Sorted(slices.Values(ch.names)), slices.Sorted(slices.Values(ch.army.Controllers))) {
		if err := bumpMap(tx, id); err != nil {
			return nil, err
		}
	}
	return out, s.audit(tx, id, a, "control.set", "%s is controlled by %v from %s: %s", ch.army.Name, ch.names, turn.Stamp(out.EffectiveAt), reason)
}
