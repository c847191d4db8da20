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

// SetControl changes who controls an army from now on (5.2.1). A team leader changes his
// own side's armies; the movement judge any army. Every controller must play for the army's
// side and hold a rank that may control it (5.3.1).
func (s *Service) SetControl(ctx context.Context, a Actor, id int64, army string, names []string, reason string) (*ControlEntry, error) {
	var out *ControlEntry
	err := s.store.Write(ctx, func(tx Tx) error {
		c, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.need("change the control list", mayEditControlList(x)); err != nil {
			return err
		}
		if c.Status == Finished {
			return domain.Errorf(domain.ErrConflict, "the campaign is finished")
		}
		t, err := tx.LatestTurn(id)
		if err != nil {
			return err
		}
		m, err := s.controlledMap(tx, id, t)
		if err != nil {
			return err
		}
		ar := m.Army(army)
		if ar == nil {
			return domain.Errorf(domain.ErrNotFound, "there is no army named %q on the map", army)
		}
		if !mayChangeControlOf(x, ar) {
			return domain.Errorf(domain.ErrForbidden, "%s is an army of %s: a team leader changes only his own side's armies", ar.Name, ar.Side.Title())
		}
		names, err = controllers(tx, id, ar, names)
		if err != nil {
			return err
		}
		if strings.TrimSpace(reason) == "" {
			reason = "control change requested by " + a.Name()
		}
		out = &ControlEntry{CampaignID: id, Army: ar.Name, Controllers: names, EffectiveAt: s.now(), By: a.Name(), Reason: reason}
		if err := tx.AddControl(out); err != nil {
			return err
		}
		// the map shows controllers: its version changes only if they do
		if !sameNames(slices.Sorted(slices.Values(names)), slices.Sorted(slices.Values(ar.Controllers))) {
			if err := bumpMap(tx, id); err != nil {
				return err
			}
		}
		return s.audit(tx, id, a, "control.set", "%s is controlled by %v from %s: %s", ar.Name, names, turn.Stamp(out.EffectiveAt), reason)
	})
	return out, err
}
