// The after-lock edit (6.3.2) in the workflow, as docs/READINGS.md R41 reads it with C2 and the
// lock transaction: a lock that finds a raider the mercenary judge orders keeps its update as a
// draft for the edit window; the judge's edit (or waiver, or the window's end) publishes it, the
// turn adjudicated once more with the edit, which is recorded with the turn for replays (C3).

package campaign

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/mercenary"
	"github.com/coalition-wargame/coalition/movement"
	"github.com/coalition-wargame/coalition/turn"
)

// Editing is the status views give a locked turn whose update waits for the mercenary judge's
// after-lock edit (it is stored as locked).
const Editing TurnStatus = "editing"

// EditClose is how a turn's after-lock edit window closed.
type EditClose struct {
	// Post is the edit's post (Source EditSource); 0 when the window closed without one.
	Post int64 `json:"post,omitempty"`
	// Waived is set when the mercenary judge waived the edit; with no post and no waiver the
	// window's time ran out.
	Waived bool      `json:"waived,omitempty"`
	At     time.Time `json:"at"`
	By     string    `json:"by"`
}

// Editing reports whether the turn is locked and waits for the after-lock edit: its update is
// not published yet (no seed, no report but to the judges, no next turn).
func (t *Turn) Editing() bool { return t.Status == Locked && t.EditUntil != nil && t.Edit == nil }

// Published reports whether the turn is locked and its update published.
func (t *Turn) Published() bool { return t.Status == Locked && !t.Editing() }

// editWindow is when the after-lock edit window of a turn locked now on map m closes, or nil
// when the lock opens none: the campaign's window (st) is zero, it has no mercenary judge, or m
// has no raider the mercenary judge orders.
func editWindow(r Reader, c *Campaign, st *MercenarySettings, m *domain.Map, now time.Time) (*time.Time, error) {
	if st.EditWindow <= 0 || !slices.ContainsFunc(m.Armies, judgesRaider) {
		return nil, nil
	}
	members, err := r.Members(c.ID)
	if err != nil || !slices.ContainsFunc(members, func(m Member) bool { return m.Has(MercenaryJudge) }) {
		return nil, err
	}
	until := now.Add(st.EditWindow)
	return &until, nil
}

// judgesRaider: a raider the mercenary judge orders (nobody else controls it, M15).
func judgesRaider(a domain.Army) bool {
	return a.Side == domain.Mercenary && a.Faction == domain.Raider &&
		(len(a.Controllers) == 0 || (len(a.Controllers) == 1 && domain.SameName(a.Controllers[0], movement.MercenaryJudge)))
}

// aiSetup is what a lock runs the mercenary AI with: the campaign's settings, the mode — the
// campaign's for a lock to come, the one its report records for a turn already locked (its
// replay, its edit's publishing) — and the creature pool of spawned raiders.
type aiSetup struct {
	st        *MercenarySettings
	mode      mercenary.Mode
	creatures []domain.Troop
}

// aiSetupFor reads turn n of campaign id and what a lock of it runs the AI with.
func (s *Service) aiSetupFor(ctx context.Context, id int64, n int) (*aiSetup, *Turn, error) {
	ai := &aiSetup{}
	var t *Turn
	if err := s.store.Read(ctx, func(r Reader) (err error) {
		if t, err = r.Turn(id, n); err != nil {
			return err
		}
		ai.st, err = mercenarySettings(r, id)
		return err
	}); err != nil {
		return nil, nil, err
	}
	ai.mode = ai.st.Mode
	if t.Status == Locked {
		var rep struct {
			AI *struct {
				Mode mercenary.Mode `json:"mode"`
			} `json:"mercenary_ai"`
		}
		if err := json.Unmarshal(t.Report, &rep); err != nil {
			return nil, nil, fmt.Errorf("turn %d's report: %w", n, err)
		}
		ai.mode = mercenary.ModeOff
		if rep.AI != nil {
			ai.mode = rep.AI.Mode
		}
	}
	return ai, t, s.creaturesFor(ctx, ai)
}

// aiSetupForOpen is what the lock of campaign id's open turn runs the AI with: the campaign's
// settings. It does not read the turn: the lock's transaction does, and checks it is open.
func (s *Service) aiSetupForOpen(ctx context.Context, id int64) (*aiSetup, error) {
	ai := &aiSetup{}
	if err := s.store.Read(ctx, func(r Reader) (err error) {
		ai.st, err = mercenarySettings(r, id)
		return err
	}); err != nil {
		return nil, err
	}
	ai.mode = ai.st.Mode
	return ai, s.creaturesFor(ctx, ai)
}

// creaturesFor sets the creature pool of spawned raiders when the AI plays.
func (s *Service) creaturesFor(ctx context.Context, ai *aiSetup) error {
	switch {
	case !ai.mode.On():
	case ai.st.Creatures != nil:
		ai.creatures = ai.st.Creatures
	default:
		pool, err := s.creaturePool(ctx)
		if err != nil {
			return err
		}
		ai.creatures = pool
	}
	return nil
}

// EditRequest is the mercenary judge's after-lock edit: one raider's new order in the classic
// format, or a waiver.
type EditRequest struct {
	Text  string `json:"text,omitempty"`
	Waive bool   `json:"waive,omitempty"`
}

// EditView is a turn's after-lock edit window and what became of the edit.
type EditView struct {
	Turn   int        `json:"turn"`
	Status TurnStatus `json:"status"`
	// Until is when the window closes at the latest; nil when the lock opened none.
	Until   *time.Time `json:"until,omitempty"`
	Closed  *EditClose `json:"closed,omitempty"`
	Raiders []string   `json:"raiders"`
	// Outcome is what became of the edit: after a check, or in the published report.
	Outcome *turn.AfterLockEdit `json:"outcome,omitempty"`
}

// editDesk is a turn's edit window as the mercenary judge works on it.
type editDesk struct {
	c *Campaign
	t *Turn
	x access
}

func loadEdit(r Reader, a Actor, id int64, n int, what string, may func(access) bool) (*editDesk, error) {
	c, x, t, err := turnAccess(r, a, id, n)
	if err != nil {
		return nil, err
	}
	if err := x.need(what, may(x)); err != nil {
		return nil, err
	}
	return &editDesk{c: c, t: t, x: x}, nil
}

func (d *editDesk) view(r Reader) (*EditView, error) {
	v := &EditView{Turn: d.t.Number, Status: viewStatus(d.t), Until: d.t.EditUntil, Closed: d.t.Edit, Raiders: []string{}}
	m, err := amended(r, d.t)
	if err != nil {
		return nil, err
	}
	for _, a := range m.Armies {
		if judgesRaider(a) {
			v.Raiders = append(v.Raiders, a.Name)
		}
	}
	if d.t.Published() && d.t.Edit != nil {
		var rep struct {
			Edit *turn.AfterLockEdit `json:"after_lock_edit"`
		}
		if err := json.Unmarshal(d.t.Report, &rep); err != nil {
			return nil, err
		}
		v.Outcome = rep.Edit
	}
	return v, nil
}

// openEdit is turn n's edit window for the mercenary judge to post in, open now.
func (s *Service) openEdit(r Reader, a Actor, id int64, n int) (*editDesk, time.Time, error) {
	d, err := loadEdit(r, a, id, n, "post the after-lock edit (the mercenary judge only)", mayEditAfterLock)
	if err != nil {
		return nil, time.Time{}, err
	}
	now := s.now()
	return d, now, d.open(now)
}

// open checks that the window is open now.
func (d *editDesk) open(now time.Time) error {
	if d.c.Status == Paused {
		return domain.Errorf(domain.ErrConflict, "%s is paused (%s): the after-lock edit waits until a judge resumes it", d.c.Name, d.c.PauseReason)
	}
	if !d.t.Editing() {
		if d.t.Status == Open {
			return domain.Errorf(domain.ErrConflict, "turn %d is not locked yet: the after-lock edit comes after the lock (6.3.2)", d.t.Number)
		}
		return domain.Errorf(domain.ErrConflict, "turn %d has no after-lock edit window open: its update is published", d.t.Number)
	}
	if now.After(*d.t.EditUntil) {
		return domain.Errorf(domain.ErrConflict, "the after-lock edit window of turn %d closed at %s", d.t.Number, turn.Stamp(*d.t.EditUntil))
	}
	return nil
}

// editPost is the post an edit request makes, not yet stored.
func editPost(d *editDesk, req EditRequest, now time.Time) (*Post, error) {
	text := strings.TrimSpace(req.Text)
	switch {
	case text == "":
		return nil, domain.Errorf(domain.ErrInvalid, "the edit is empty: write the raider's new order, or waive the edit")
	case len(text) > MaxPostText || !utf8.ValidString(text):
		return nil, domain.Errorf(domain.ErrInvalid, "the edit must be valid UTF-8 text of at most %d bytes", MaxPostText)
	}
	return &Post{CampaignID: d.c.ID, Turn: d.t.Number, AccountID: d.x.actor.Account.ID, Author: movement.MercenaryJudge, At: now, Text: text, Source: EditSource}, nil
}

// AfterLockEdit shows turn n's after-lock edit window (judges, the mercenary judge, admins).
func (s *Service) AfterLockEdit(ctx context.Context, a Actor, id int64, n int) (*EditView, error) {
	var out *EditView
	err := s.store.Read(ctx, func(r Reader) error {
		d, err := loadEdit(r, a, id, n, "see the after-lock edit (judges only)", maySeeDraft)
		if err != nil {
			return err
		}
		out, err = d.view(r)
		return err
	})
	return out, err
}

// CheckAfterLockEdit answers what the edit would do, as the lock would carry it out, without
// saving anything (the mercenary judge).
func (s *Service) CheckAfterLockEdit(ctx context.Context, a Actor, id int64, n int, req EditRequest) (*EditView, error) {
	ai, _, err := s.aiSetupFor(ctx, id, n)
	if err != nil {
		return nil, err
	}
	var out *EditView
	err = s.store.Read(ctx, func(r Reader) error {
		d, now, err := s.openEdit(r, a, id, n)
		if err != nil {
			return err
		}
		p, err := editPost(d, req, now)
		if err != nil {
			return err
		}
		m, in, err := lockInput(r, d.t, *d.t.ControlAt, d.t.ControlSeq, ai)
		if err != nil {
			return err
		}
		e := p.Domain()
		in.Edit = &e
		_, rep, err := turn.Run(m, in)
		if err != nil {
			return err
		}
		if out, err = d.view(r); err == nil {
			out.Outcome = rep.AfterLockEdit
		}
		return err
	})
	return out, err
}

// PostAfterLockEdit closes turn n's after-lock edit window with the mercenary judge's edit or
// waiver, and publishes the update: the turn is adjudicated again with the edit (R41), in one
// transaction that opens the next turn. The edit is final: one that fails a restriction of
// 6.3.2 is not carried out, and the report says why (check it first).
func (s *Service) PostAfterLockEdit(ctx context.Context, a Actor, id int64, n int, req EditRequest) (*EditView, error) {
	var out *EditView
	err := s.guarded(ctx, id, fmt.Sprintf("the publishing of turn %d", n), func(b *budget) error {
		ai, _, err := s.aiSetupFor(b.ctx, id, n)
		if err != nil {
			return err
		}
		return b.write(s.store, func(tx Tx) error {
			d, now, err := s.openEdit(tx, a, id, n)
			if err != nil {
				return err
			}
			cl := &EditClose{Waived: req.Waive, At: now, By: a.Name()}
			if !req.Waive {
				p, err := editPost(d, req, now)
				if err != nil {
					return err
				}
				if err := tx.CreatePost(p); err != nil {
					return err
				}
				cl.Post = p.ID
			} else if strings.TrimSpace(req.Text) != "" {
				return domain.Errorf(domain.ErrInvalid, "an edit is waived or posted, not both")
			}
			if err := s.publishEdit(tx, d.c, d.t, cl, ai, a); err != nil {
				return err
			}
			out, err = d.view(tx)
			return err
		})
	})
	if err == nil {
		s.wake()
	}
	return out, err
}

// publishEdit closes turn t's edit window as cl says and publishes its update: the turn run again
// from what is stored, with the edit if there is one, its report stored, the next turn opened.
func (s *Service) publishEdit(tx Tx, c *Campaign, t *Turn, cl *EditClose, ai *aiSetup, a Actor) error {
	t.Edit = cl
	m, in, err := lockInput(tx, t, *t.ControlAt, t.ControlSeq, ai)
	if err != nil {
		return err
	}
	next, rep, err := adjudicate(c, t, m, in)
	if err != nil {
		return err
	}
	ok, err := tx.PublishTurn(t)
	if err != nil {
		return err
	}
	if !ok {
		return domain.Errorf(domain.ErrConflict, "turn %d's after-lock edit window is already closed", t.Number)
	}
	how := "the window's time ran out"
	switch {
	case cl.Post != 0:
		how = "with the mercenary judge's edit (post " + strconv.FormatInt(cl.Post, 10) + ")"
	case cl.Waived:
		how = "the mercenary judge waived the edit"
	}
	if err := s.audit(tx, c.ID, a, "turn.edit", "closed the after-lock edit window of turn %d: %s", t.Number, how); err != nil {
		return err
	}
	return s.openNext(tx, c, t, m, next, rep, ai.st, a, t.LockReason)
}

// closeEdits publishes every turn whose after-lock edit window has run out (the scheduler).
func (s *Service) closeEdits(ctx context.Context, now time.Time) []LockOutcome {
	var due []OpenTurn
	if err := s.store.Read(ctx, func(r Reader) (err error) {
		due, err = r.EditWindows()
		return err
	}); err != nil {
		s.opt.Log.Error("listing the after-lock edit windows failed", "err", err)
		return nil
	}
	var out []LockOutcome
	for _, o := range due {
		if o.Paused || now.Before(o.LockAt) {
			continue
		}
		err := s.closeEdit(ctx, o.CampaignID, o.Number)
		if err != nil {
			s.opt.Log.Error("closing an after-lock edit window failed", "campaign", o.CampaignID, "turn", o.Number, "err", err)
			out = append(out, LockOutcome{Campaign: o.CampaignID, Turn: o.Number, Error: err.Error()})
			continue
		}
		s.opt.Log.Info("after-lock edit window closed on schedule", "campaign", o.CampaignID, "turn", o.Number)
		out = append(out, LockOutcome{Campaign: o.CampaignID, Turn: o.Number})
	}
	return out
}

func (s *Service) closeEdit(ctx context.Context, id int64, n int) error {
	err := s.guarded(ctx, id, fmt.Sprintf("the publishing of turn %d", n), func(b *budget) error {
		ai, _, err := s.aiSetupFor(b.ctx, id, n)
		if err != nil {
			return err
		}
		return b.write(s.store, func(tx Tx) error {
			c, err := tx.Campaign(id)
			if err != nil {
				return err
			}
			t, err := tx.Turn(id, n)
			if err != nil || !t.Editing() {
				return err
			}
			return s.publishEdit(tx, c, t, &EditClose{At: s.now(), By: Scheduler}, ai, Actor{As: Scheduler})
		})
	})
	if err == nil {
		s.wake()
	}
	return err
}

// viewStatus is a turn's status as views show it: Editing while its update waits for the
// after-lock edit.
func viewStatus(t *Turn) TurnStatus {
	if t.Editing() {
		return Editing
	}
	return t.Status
}
