// The mercenary AI's settings and memory for a campaign (chapter 6): mercenary_ai (off,
// suggest, auto), the after-lock edit window, the creature pool of spawned raiders, the
// engagements the AI remembers (6.2.1), and the AI's battle strategies filed for a turn (B2).

package campaign

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/mercenary"
	"github.com/coalition-wargame/coalition/turn"
)

// MercenaryMode is the campaign setting mercenary_ai (mercenary.Mode): off, suggest or auto.
type MercenaryMode = mercenary.Mode

// Engagement is a mercenary's battle as a lock report records it: the AI's memory (6.2.1).
type Engagement = mercenary.Engagement

// MercenarySettings are a campaign's settings for the mercenary AI (chapter 6).
type MercenarySettings struct {
	CampaignID int64
	// Mode is the campaign setting mercenary_ai: off, suggest or auto (mercenary.Mode).
	Mode mercenary.Mode
	// EditWindow is how long after a lock the mercenary judge has to post his after-lock edit
	// (6.3.2, docs/READINGS.md R41); zero opens no window, and the update is published at once.
	EditWindow time.Duration
	// Creatures is the pool a raider the server places draws its troops from (6.3.2); nil
	// means the campaign's card catalogue (cards.Catalogue.CreaturePool).
	Creatures []domain.Troop
}

// DefaultEditWindow is the after-lock edit window of a campaign with a mercenary judge.
const DefaultEditWindow = 12 * time.Hour

// AISource is the Source of a post made from the mercenary AI's plan (PostPlan).
const AISource = "ai"

// EditSource is the Source of the mercenary judge's after-lock edit (6.3.2): a post of the
// locked turn that is never one of its orders, but the lock's Input.Edit.
const EditSource = "edit"

// AIAuthor is the author of the battle strategies the mercenary AI files (B2).
const AIAuthor = "mercenary-ai"

// DefaultMercenarySettings are a new campaign's: mercenary_ai auto when no member is its
// mercenary judge (nobody else orders the mercenaries), suggest when one is; an after-lock
// edit window only when there is a mercenary judge to use it.
func DefaultMercenarySettings(members []Member) MercenarySettings {
	for i := range members {
		if members[i].Has(MercenaryJudge) {
			return MercenarySettings{Mode: mercenary.ModeSuggest, EditWindow: DefaultEditWindow}
		}
	}
	return MercenarySettings{Mode: mercenary.ModeAuto}
}

// mercenarySettings are campaign id's settings; a campaign with none stored has the AI off.
func mercenarySettings(r Reader, id int64) (*MercenarySettings, error) {
	st, err := r.MercenarySettings(id)
	if errors.Is(err, domain.ErrNotFound) {
		return &MercenarySettings{CampaignID: id, Mode: mercenary.ModeOff}, nil
	}
	return st, err
}

// MercenaryView is a campaign's mercenary settings as the API shows them.
type MercenaryView struct {
	Mode               mercenary.Mode `json:"mercenary_ai"`
	AfterLockEditHours float64        `json:"after_lock_edit_hours"`
	// Creatures is the number of creatures of the campaign's own pool, or -1 when spawned
	// raiders draw from the card catalogue.
	Creatures int `json:"creatures"`
}

func viewMercenary(st *MercenarySettings) *MercenaryView {
	v := &MercenaryView{Mode: st.Mode, AfterLockEditHours: st.EditWindow.Hours(), Creatures: -1}
	if st.Creatures != nil {
		v.Creatures = len(st.Creatures)
	}
	return v
}

// MercenarySettingsRequest changes a campaign's mercenary settings; fields left out stay.
type MercenarySettingsRequest struct {
	Mode               *string  `json:"mercenary_ai,omitempty"`
	AfterLockEditHours *float64 `json:"after_lock_edit_hours,omitempty"`
}

// MercenarySettings shows a campaign's mercenary settings; anyone may see them.
func (s *Service) MercenarySettings(ctx context.Context, a Actor, id int64) (*MercenaryView, error) {
	var out *MercenaryView
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		if !maySeeCampaign(x) {
			return x.refuse("see this campaign")
		}
		st, err := mercenarySettings(r, id)
		out = viewMercenary(st)
		return err
	})
	return out, err
}

// SetMercenarySettings changes a campaign's mercenary_ai setting or its after-lock edit
// window (the mercenary judge, the movement judges and the admins). Switched to auto while a
// turn is open, the AI files its battle strategies for the turn's battles at once.
func (s *Service) SetMercenarySettings(ctx context.Context, a Actor, id int64, req MercenarySettingsRequest) (*MercenaryView, error) {
	var out *MercenaryView
	err := s.store.Write(ctx, func(tx Tx) error {
		c, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.need("change the mercenary AI's settings (the mercenary judge, movement judges and admins)", maySetMercenaryAI(x)); err != nil {
			return err
		}
		st, err := mercenarySettings(tx, id)
		if err != nil {
			return err
		}
		var what []string
		if req.Mode != nil {
			mode, err := mercenary.ParseMode(*req.Mode)
			if err != nil {
				return err
			}
			st.Mode = mode
			what = append(what, "mercenary_ai "+string(mode))
		}
		if h := req.AfterLockEditHours; h != nil {
			if *h < 0 || *h > 168 {
				return &RangeError{Field: "after_lock_edit_hours", Min: "0", Max: "168", Unit: "hours", Got: strconv.FormatFloat(*h, 'g', -1, 64), Why: "6.3.2: the after-lock edit window"}
			}
			st.EditWindow = time.Duration(*h * float64(time.Hour)).Truncate(time.Second)
			what = append(what, "after-lock edit window "+st.EditWindow.String())
		}
		if len(what) == 0 {
			return domain.Errorf(domain.ErrInvalid, "say what to change: mercenary_ai or after_lock_edit_hours")
		}
		st.CampaignID = id
		if err := tx.PutMercenarySettings(st); err != nil {
			return err
		}
		if st.Mode == mercenary.ModeAuto && c.Status != Finished {
			t, err := tx.LatestTurn(id)
			if err != nil {
				return err
			}
			if t.Status == Open {
				m, _, err := controlledMapAt(tx, t, s.now(), 0)
				if err != nil {
					return err
				}
				if err := s.fileStrategies(tx, t, m, st, s.now()); err != nil {
					return err
				}
			}
		}
		out = viewMercenary(st)
		return s.audit(tx, id, a, "mercenary.settings", "set %s", strings.Join(what, ", "))
	})
	return out, err
}

// setUpMercenaries stores a new campaign's mercenary settings (su's, or the defaults) and the
// history it comes with, and files the AI's strategies for turn t's battles.
func (s *Service) setUpMercenaries(tx Tx, c *Campaign, t *Turn, m *domain.Map, su Setup, now time.Time) error {
	st := DefaultMercenarySettings(su.Members)
	if su.Mercenary != nil {
		st = *su.Mercenary
		mode, err := mercenary.ParseMode(string(st.Mode))
		if err != nil {
			return err
		}
		st.Mode = mode
	}
	st.CampaignID = c.ID
	if err := tx.PutMercenarySettings(&st); err != nil {
		return err
	}
	if len(su.MercenaryHistory) > 0 {
		if err := tx.AddMercenaryHistory(c.ID, 0, su.MercenaryHistory); err != nil {
			return err
		}
	}
	return s.fileStrategies(tx, t, m, &st, now)
}

// history is the mercenaries' engagements before turn n of campaign id, as their lock
// reports recorded them (and as an imported scenario gave them): the AI's memory (6.2.1).
func history(r Reader, id int64, n int) ([]Engagement, error) {
	return r.MercenaryHistory(id, n)
}

// noteHistory records the engagements of turn t's lock report for the AI's memory.
func noteHistory(tx Tx, t *Turn, rep *turn.Report) error {
	if rep.MercenaryAI == nil || len(rep.MercenaryAI.Engagements) == 0 {
		return nil
	}
	return tx.AddMercenaryHistory(t.CampaignID, t.Number, rep.MercenaryAI.Engagements)
}

// aiInput fills the mercenary AI's part of a lock's input when ai's mode is on: the mode, the
// creature pool and the engagements of the turns before t.
func aiInput(r Reader, t *Turn, ai *aiSetup, in *turn.Input) error {
	if !ai.mode.On() {
		return nil
	}
	in.MercenaryAI, in.Creatures = ai.mode, ai.creatures
	var err error
	in.MercenaryHistory, err = history(r, t.CampaignID, t.Number)
	return err
}

// fileStrategies files the mercenary AI's battle strategy for every mercenary the mercenary
// judge orders in open turn t's battles on map m (turn.MercenaryStrategies), under AIAuthor,
// when the campaign plays auto (st) and the strategy deadline is still to come: the stratless
// settlement then sees them, and no mercenary battle goes stratless by neglect (B2, R43, R57).
// A strategy the mercenary judge sent himself is kept.
func (s *Service) fileStrategies(tx Tx, t *Turn, m *domain.Map, st *MercenarySettings, now time.Time) error {
	if st.Mode != mercenary.ModeAuto || !now.Before(t.Deadline) || !slices.ContainsFunc(battle.Fought(m), func(b domain.Battle) bool {
		return slices.ContainsFunc(b.Armies, func(n string) bool { a := m.Army(n); return a != nil && a.Side == domain.Mercenary })
	}) {
		return nil
	}
	hist, err := history(tx, t.CampaignID, t.Number)
	if err != nil {
		return err
	}
	have, err := tx.Strategies(t.ID)
	if err != nil {
		return err
	}
	for _, ms := range turn.MercenaryStrategies(m, hist) {
		if slices.ContainsFunc(have, func(h Strategy) bool { return h.Army == ms.Army && !h.Contingency && h.Author != AIAuthor }) {
			continue
		}
		rec := &Strategy{TurnID: t.ID, Square: ms.Square, Army: ms.Army, Side: domain.Mercenary, Author: AIAuthor,
			Text: ms.Text, Choices: StrategyChoices{Kill: ms.Kill}, SubmittedAt: now}
		if err := tx.PutStrategy(rec); err != nil {
			return err
		}
	}
	return nil
}

// creaturePool is the card catalogue's creature pool, kept until a card correction changes
// the catalogue.
func (s *Service) creaturePool(ctx context.Context) ([]domain.Troop, error) {
	cat, err := s.Catalogue(ctx)
	if err != nil {
		return nil, err
	}
	s.cat.mu.Lock()
	defer s.cat.mu.Unlock()
	if s.cat.pool == nil {
		// sorted by name, as a spawned raider's draw sorts the creatures of each slot's size
		// (mercenary.SpawnTroops): the draw is the same, and the sort at the lock costs little
		pool := cat.CreaturePool()
		slices.SortStableFunc(pool, func(a, b domain.Troop) int { return strings.Compare(a.Creature, b.Creature) })
		s.cat.pool = pool
	}
	return s.cat.pool, nil
}
