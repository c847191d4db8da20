// The views of the map and of a locked turn's report, as each class of viewer may see them (1.2,
// T2).

package campaign

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/turn"
)

// GridView is the size of the map.
type GridView struct {
	Cols int `json:"cols"`
	Rows int `json:"rows"`
}

// MapView is the map as the viewer shows it: the grid with the terrain of every square
// (row by row, A first, then by number), the sites, the armies with side, rank, square,
// controllers, days and troops (public, 1.2), and the battles fought this turn. Pending
// shipments and the rest of long moves are shown only to the army's side and the judges.
// A past turn's map also carries what its lock did.
type MapView struct {
	Campaign int64              `json:"campaign"`
	Turn     int                `json:"turn"`
	Status   TurnStatus         `json:"status"`
	Version  int64              `json:"version"`
	Class    string             `json:"class"`
	Deadline time.Time          `json:"deadline"`
	LockAt   time.Time          `json:"lock_at"`
	Grid     GridView           `json:"grid"`
	Terrain  [][]domain.Terrain `json:"terrain"`
	Sites    []domain.Site      `json:"sites"`
	Armies   []MapArmy          `json:"armies"`
	Battles  []domain.Battle    `json:"battles"`
	Winner   domain.Side        `json:"winner,omitempty"`
	// Moves, Announced, Settled and Pushes come from a locked turn's report: the moves made,
	// the battles announced for the next turn, the battles settled and the armies pushed.
	Moves     json.RawMessage `json:"moves,omitempty"`
	Announced json.RawMessage `json:"announced,omitempty"`
	Settled   json.RawMessage `json:"settled,omitempty"`
	Pushes    json.RawMessage `json:"pushes,omitempty"`
}

// MapArmy is an army as a viewer of the map sees it. Orderable marks the armies whose orders
// from the viewer count in the open turn (mayOrder): the ones the order desk offers him.
type MapArmy struct {
	domain.Army
	Orderable bool `json:"orderable,omitempty"`
}

// Viewer is who looks at a map, as far as the map's view depends on him: the part of it he may
// see (viewClass) and the author name his orders go under (postsAs, "" for none).
type Viewer struct {
	Class  string
	Author string
}

func viewerOf(x access) Viewer { return Viewer{Class: viewClass(x), Author: postsAs(x)} }

func viewMap(c *Campaign, t *Turn, m *domain.Map, w Viewer) *MapView {
	class := w.Class
	v := &MapView{Campaign: c.ID, Turn: t.Number, Status: viewStatus(t), Version: c.MapVersion, Class: class, Deadline: t.Deadline, LockAt: t.LockAt,
		Grid: GridView{Cols: m.Grid.Cols, Rows: m.Grid.Rows}, Sites: nonNil(m.Sites), Battles: nonNil(m.Battles), Winner: m.Winner}
	v.Terrain = make([][]domain.Terrain, m.Grid.Rows)
	for r := range v.Terrain {
		row := make([]domain.Terrain, m.Grid.Cols)
		for col := range row {
			row[col] = m.Terrain.At(domain.Square{Col: uint8(col + 1), Row: uint8(r + 1)})
		}
		v.Terrain[r] = row
	}
	takesOrders := t.Status == Open && c.Status != Finished
	v.Armies = make([]MapArmy, len(m.Armies))
	for i, a := range m.Armies {
		if !maySeePlans(class, a.Side) {
			a.Incoming, a.Plan = nil, nil
		}
		a.Controllers = nonNil(a.Controllers)
		v.Armies[i] = MapArmy{Army: a, Orderable: takesOrders && mayOrder(w.Author, &a)}
	}
	return v
}

// MapVersion is the current map's version and who the actor is as its viewer: the map endpoint
// answers If-None-Match from these alone, which the hot state holds (no query while it is
// current).
func (s *Service) MapVersion(ctx context.Context, a Actor, id int64) (int64, Viewer, error) {
	h, err := s.hotCampaign(ctx, id)
	if err != nil {
		return 0, Viewer{}, err
	}
	x := access{actor: a}
	if a.Account != nil {
		x.member = h.member(a.Account.ID)
	}
	return h.c.MapVersion, viewerOf(x), nil
}

// CurrentMap is the map as it stands now: the open turn's opening map with the control list
// as it stands now.
func (s *Service) CurrentMap(ctx context.Context, a Actor, id int64) (*MapView, error) {
	var v *MapView
	err := s.store.Read(ctx, func(r Reader) error {
		c, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		if !maySeeMap(x) {
			return x.refuse("see the map")
		}
		t, err := r.LatestTurn(id)
		if err != nil {
			return err
		}
		m, err := s.controlledMap(r, id, t)
		if err != nil {
			return err
		}
		v = viewMap(c, t, m, viewerOf(x))
		return nil
	})
	return v, err
}

// TurnMap is turn n's map as it opened, with the controllers judged at its lock and, once it
// is locked, the moves and battles of its lock.
func (s *Service) TurnMap(ctx context.Context, a Actor, id int64, n int) (*MapView, error) {
	var v *MapView
	err := s.store.Read(ctx, func(r Reader) error {
		c, x, t, err := turnAccess(r, a, id, n)
		if err != nil {
			return err
		}
		if !maySeeMap(x) {
			return x.refuse("see the map")
		}
		at, upTo := s.now(), int64(0)
		if t.Status == Locked {
			at, upTo = *t.ControlAt, t.ControlSeq
		}
		m, _, err := controlledMapAt(r, t, at, upTo)
		if err != nil {
			return err
		}
		v = viewMap(c, t, m, viewerOf(x))
		if t.Published() || (t.Editing() && maySeeDraft(x)) {
			var rep struct {
				Moves   json.RawMessage `json:"moves"`
				Battles json.RawMessage `json:"battles"`
				Settled json.RawMessage `json:"settled"`
				Pushes  json.RawMessage `json:"pushes"`
			}
			if err := json.Unmarshal(t.Report, &rep); err != nil {
				return fmt.Errorf("turn %d's report: %w", n, err)
			}
			v.Moves, v.Announced, v.Settled, v.Pushes = rep.Moves, rep.Battles, rep.Settled, rep.Pushes
		}
		return nil
	})
	return v, err
}

// ReportView is a locked turn's lock report: the JSON turn.Run produced and its readable
// rendering, with the seed revealed (B6).
type ReportView struct {
	Turn       int             `json:"turn"`
	LockedAt   time.Time       `json:"locked_at"`
	LockedBy   string          `json:"locked_by"`
	Seed       string          `json:"seed,omitempty"`
	Commitment string          `json:"commitment"`
	Report     json.RawMessage `json:"report"`
	Text       string          `json:"text"`
	// Draft is set while the update waits for the mercenary judge's after-lock edit (6.3.2):
	// the report is the lock's as it stands, shown only to the judges until it is published.
	Draft bool `json:"draft,omitempty"`
	// ControlNotes is what the lock said of the sides' control lists: emergency configurations
	// and what is still illegal (5.2.2.2), armies owed (5.3.4); Text ends with them.
	ControlNotes []Notice `json:"control_notes,omitempty"`
}

// Report shows a locked turn's report to anyone. Transfer details (T2) are shown only to
// the sending side and the judges.
func (s *Service) Report(ctx context.Context, a Actor, id int64, n int) (*ReportView, error) {
	var v *ReportView
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, t, err := turnAccess(r, a, id, n)
		if err != nil {
			return err
		}
		if !maySeeReport(x) {
			return x.refuse("read the report")
		}
		if t.Status != Locked {
			return domain.Errorf(domain.ErrNotFound, "turn %d is not locked yet: its report comes with the lock", n)
		}
		if t.Editing() && !maySeeDraft(x) {
			return domain.Errorf(domain.ErrNotFound, "turn %d is locked, but its update waits for the mercenary judge's after-lock edit until %s (6.3.2)", n, turn.Stamp(*t.EditUntil))
		}
		body := t.Report
		if !maySeeEveryTransfer(x) {
			if body, err = redactPrivate(body, t.Snapshot, x.side()); err != nil {
				return err
			}
		}
		if !maySeeMercenaryStrategies(x) {
			if body, err = redactStrategies(body); err != nil {
				return err
			}
		}
		v = &ReportView{Turn: n, LockedAt: *t.LockedAt, LockedBy: t.LockedBy, Seed: t.Seed.String(), Commitment: t.Commitment, Report: body, Text: t.ReportText, Draft: t.Editing()}
		if t.Editing() {
			v.Seed = ""
		}
		v.ControlNotes, err = turnNotices(r, id, n)
		v.Text += noticesText(v.ControlNotes)
		return err
	})
	return v, err
}

// redactPrivate keeps in a report only the transfers sent by armies of side (T2) and the
// private warnings of its armies (T3: whether a transfer's private detail was sent).
func redactPrivate(body []byte, m Snapshot, side domain.Side) ([]byte, error) {
	var rep map[string]json.RawMessage
	if err := json.Unmarshal(body, &rep); err != nil {
		return nil, err
	}
	ours := func(army string) bool {
		s, ok := m.Side(army)
		return ok && side != "" && s == side
	}
	changed := false
	var err error
	if changed, err = keepIn(rep, "transfers", func(t domain.TransferOrder) bool { return ours(t.From) }); err != nil {
		return nil, err
	}
	// a transfer refused for its troops says which troops: that reason too is the side's (T2)
	redacted, err := rewriteIn(rep, "rejected", func(r *domain.Rejection) bool {
		if r.Code != domain.CodeTransferNoRoom || ours(r.Army) {
			return false
		}
		r.Message = turn.PublicMessage(*r)
		return true
	})
	if err != nil {
		return nil, err
	}
	warned, err := keepIn(rep, "warnings", func(w domain.Warning) bool { return !w.Private || ours(w.Army) })
	if err != nil {
		return nil, err
	}
	if !changed && !warned && !redacted {
		return body, nil
	}
	return json.Marshal(rep)
}

// redactStrategies leaves the mercenary AI's battle strategies out of a report: a strategy is
// private to the battle judges and its side (B1); the report says only that the AI wrote one.
func redactStrategies(body []byte) ([]byte, error) {
	var rep map[string]json.RawMessage
	if err := json.Unmarshal(body, &rep); err != nil {
		return nil, err
	}
	raw, ok := rep["mercenary_ai"]
	if !ok {
		return body, nil
	}
	var ai map[string]json.RawMessage
	if err := json.Unmarshal(raw, &ai); err != nil {
		return nil, err
	}
	if _, ok := ai["strategies"]; !ok {
		return body, nil
	}
	delete(ai, "strategies")
	b, err := json.Marshal(ai)
	if err != nil {
		return nil, err
	}
	rep["mercenary_ai"] = b
	return json.Marshal(rep)
}

// keepIn keeps in the list rep[key] the entries keep says yes to, and reports whether it
// dropped any.
func keepIn[T any](rep map[string]json.RawMessage, key string, keep func(T) bool) (bool, error) {
	raw, ok := rep[key]
	if !ok {
		return false, nil
	}
	var all []T
	if err := json.Unmarshal(raw, &all); err != nil {
		return false, err
	}
	kept := make([]T, 0, len(all))
	for _, e := range all {
		if keep(e) {
			kept = append(kept, e)
		}
	}
	if len(kept) == len(all) {
		return false, nil
	}
	out, err := json.Marshal(kept)
	if err != nil {
		return false, err
	}
	rep[key] = out
	return true, nil
}

// rewriteIn lets change rewrite the entries of the list rep[key] in place, and reports whether
// it changed any.
func rewriteIn[T any](rep map[string]json.RawMessage, key string, change func(*T) bool) (bool, error) {
	raw, ok := rep[key]
	if !ok {
		return false, nil
	}
	var all []T
	if err := json.Unmarshal(raw, &all); err != nil {
		return false, err
	}
	changed := false
	for i := range all {
		changed = change(&all[i]) || changed
	}
	if !changed {
		return false, nil
	}
	out, err := json.Marshal(all)
	if err != nil {
		return false, err
	}
	rep[key] = out
	return true, nil
}
