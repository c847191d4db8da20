// The mercenary desk's plan (chapter 6): the AI's order for every mercenary army the mercenary
// judge orders, posted as his post with the lines he edited marked, and the guideline warnings
// on his own lines (6.1.1, 6.2.1, 6.2.3, 6.3.1, R46).

package campaign

import (
	"context"
	"strings"
	"sync"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/mercenary"
	"github.com/coalition-wargame/coalition/movement"
	"github.com/coalition-wargame/coalition/turn"
)

// PlanView is the mercenary AI's plan for the open turn: for every mercenary army the mercenary
// judge orders, the AI's order in the classic format, the guideline it follows, its reason and,
// where the seed's draw picked among ties, the draw and the choices passed over. It is the same
// on every call for the same turn and map.
type PlanView struct {
	Turn   int                    `json:"turn"`
	Mode   mercenary.Mode         `json:"mercenary_ai"`
	Orders []mercenary.Suggestion `json:"orders"`
}

// PlanOrder names an army of the plan to post, with its line as the judge edited it (empty:
// the AI's line).
type PlanOrder struct {
	Army string `json:"army"`
	Line string `json:"line,omitempty"`
}

// PlanRequest posts the plan: every order of it, or the armies named, each line as the AI wrote
// it or as edited.
type PlanRequest struct {
	Orders  []PlanOrder `json:"orders,omitempty"`
	Private bool        `json:"private,omitempty"`
}

// PlanLine is one line of a post made from the plan: the AI's order, or the judge's edit of it.
type PlanLine struct {
	Line      int    `json:"line"`
	Army      string `json:"army"`
	AI        string `json:"ai"`
	Guideline string `json:"guideline"`
	Edited    bool   `json:"edited"`
}

// PlanOutcome is the post made from the plan, each line's outcome, and which lines are the AI's
// and which the judge edited.
type PlanOutcome struct {
	PostOutcome
	Plan []PlanLine `json:"plan"`
}

// planDesk is the open turn as the plan reads it: the map with the control list of now, and
// the AI's memory.
type planDesk struct {
	c    *Campaign
	t    *Turn
	x    access
	st   *MercenarySettings
	m    *domain.Map
	hist []Engagement
}

func (s *Service) loadPlan(r Reader, a Actor, id int64, n int, what string, may func(access) bool) (*planDesk, error) {
	c, x, t, err := turnAccess(r, a, id, n)
	if err != nil {
		return nil, err
	}
	if err := x.need(what, may(x)); err != nil {
		return nil, err
	}
	if t.Status != Open {
		return nil, domain.Errorf(domain.ErrConflict, "turn %d is locked: the plan is made for the open turn", n)
	}
	d := &planDesk{c: c, t: t, x: x}
	if d.st, err = mercenarySettings(r, id); err != nil {
		return nil, err
	}
	if d.m, _, err = controlledMapAt(r, t, s.now(), 0); err != nil {
		return nil, err
	}
	d.hist, err = history(r, id, n)
	return d, err
}

func (d *planDesk) plan() []mercenary.Suggestion {
	return turn.MercenaryPlan(d.m, d.t.Seed, d.hist)
}

// planCache keeps each campaign's latest plan with the map version and turn it was made for:
// the plan depends on nothing else that a new version would not follow (the map, its
// amendments and control list, the seed, the engagements of the earlier locks).
type planCache struct {
	mu    sync.Mutex
	plans map[int64]cachedPlan
}

type cachedPlan struct {
	version int64
	turn    int
	orders  []mercenary.Suggestion
}

func (pc *planCache) get(id, version int64, n int) ([]mercenary.Suggestion, bool) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	p, ok := pc.plans[id]
	return p.orders, ok && p.version == version && p.turn == n
}

func (pc *planCache) put(id, version int64, n int, orders []mercenary.Suggestion) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.plans == nil {
		pc.plans = map[int64]cachedPlan{}
	}
	pc.plans[id] = cachedPlan{version: version, turn: n, orders: orders}
}

// MercenaryPlan is the AI's plan for open turn n (the mercenary judge and the admins),
// deterministic from the turn's seed (docs/RANDOMNESS.md, mercenary-suggest); it is made once a
// map version, and the same plan is given until the map changes.
func (s *Service) MercenaryPlan(ctx context.Context, a Actor, id int64, n int) (*PlanView, error) {
	var out *PlanView
	err := s.store.Read(ctx, func(r Reader) error {
		c, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		if err := x.need("read the mercenary AI's plan (the mercenary judge and admins)", maySeeMercenaryPlan(x)); err != nil {
			return err
		}
		// a plan kept for this map version was made for the open turn: a lock changes the version
		if orders, ok := s.plans.get(id, c.MapVersion, n); ok {
			st, err := mercenarySettings(r, id)
			out = &PlanView{Turn: n, Mode: st.Mode, Orders: orders}
			return err
		}
		d, err := s.loadPlan(r, a, id, n, "read the mercenary AI's plan (the mercenary judge and admins)", maySeeMercenaryPlan)
		if err != nil {
			return err
		}
		out = &PlanView{Turn: n, Mode: d.st.Mode, Orders: nonNil(d.plan())}
		s.plans.put(id, c.MapVersion, n, out.Orders)
		return nil
	})
	return out, err
}

// PostPlan posts the AI's plan for open turn n as the mercenary judge's post (M15): all of it,
// or the armies named, each line as the AI wrote it or as the judge edited it. The post is
// marked as the AI's (Source AISource) and its lines record the AI's order and whether the
// judge changed it, so that the turn's record shows which orders the AI made and which the
// judge changed. Each line's outcome comes back at once, with the guideline warnings.
func (s *Service) PostPlan(ctx context.Context, a Actor, id int64, n int, req PlanRequest) (*PlanOutcome, error) {
	var out *PlanOutcome
	err := s.store.Write(ctx, func(tx Tx) error {
		d, err := s.loadPlan(tx, a, id, n, "post the mercenary AI's plan (the mercenary judge only)", mayPostMercenaryPlan)
		if err != nil {
			return err
		}
		marks, err := planLines(d.plan(), req.Orders)
		if err != nil {
			return err
		}
		text := make([]string, len(marks))
		for i := range marks {
			text[i] = marks[i].line
		}
		t, p, err := s.newPost(tx, a, id, PostRequest{Text: strings.Join(text, "\n"), Private: req.Private})
		if err != nil {
			return err
		}
		if t.Number != n {
			return domain.Errorf(domain.ErrConflict, "turn %d is no longer the open turn", n)
		}
		p.Source = AISource
		if err := tx.CreatePost(p); err != nil {
			return err
		}
		lines, err := check(tx, t, p)
		if err != nil {
			return err
		}
		out = &PlanOutcome{PostOutcome: PostOutcome{Post: viewPost(p, true), Lines: lines}, Plan: make([]PlanLine, len(marks))}
		edited := 0
		for i := range marks {
			out.Plan[i] = marks[i].PlanLine
			out.Plan[i].Line = i + 1
			if marks[i].Edited {
				edited++
			}
		}
		if err := tx.PutPlanLines(p.ID, out.Plan); err != nil {
			return err
		}
		out.Post.Plan = out.Plan
		return s.audit(tx, id, a, "post.plan", "post %d in turn %d: the mercenary AI's plan, %d lines, %d edited by the judge", p.ID, n, len(marks), edited)
	})
	return out, err
}

// planMark is a line to post and what the plan says of it.
type planMark struct {
	PlanLine
	line string
}

// planLines picks the lines to post from the plan: every order, or the armies asked for, each
// as the AI wrote it or as edited (an edit must be a line for the same army).
func planLines(plan []mercenary.Suggestion, orders []PlanOrder) ([]planMark, error) {
	mark := func(sg *mercenary.Suggestion, line string) (planMark, error) {
		pm := planMark{PlanLine: PlanLine{Army: sg.Army, AI: sg.Line, Guideline: sg.Guideline}, line: sg.Line}
		line = strings.TrimSpace(line)
		if line == "" || line == sg.Line {
			return pm, nil
		}
		if strings.ContainsAny(line, "\r\n") {
			return pm, domain.Errorf(domain.ErrInvalid, "the line for %s is one line, not several", sg.Army)
		}
		if o, perr := movement.ParseLine(line); perr == nil && !domain.SameName(o.Army, sg.Army) {
			return pm, domain.Errorf(domain.ErrInvalid, "the line %q orders %s, not %s: an edit changes the army's own line", line, o.Army, sg.Army)
		} else if perr != nil && !domain.SameName(perr.Army, sg.Army) {
			return pm, domain.Errorf(domain.ErrInvalid, "the line %q is not a line for %s: %s", line, sg.Army, perr.Message)
		}
		pm.line, pm.Edited = line, true
		return pm, nil
	}
	var out []planMark
	if len(orders) == 0 {
		for i := range plan {
			pm, _ := mark(&plan[i], "")
			out = append(out, pm)
		}
		if len(out) == 0 {
			return nil, domain.Errorf(domain.ErrConflict, "the plan has no order: no mercenary army is the mercenary judge's to order")
		}
		return out, nil
	}
	seen := map[string]bool{}
	for _, o := range orders {
		k := -1
		for i := range plan {
			if domain.SameName(plan[i].Army, o.Army) {
				k = i
			}
		}
		if k < 0 {
			return nil, domain.Errorf(domain.ErrInvalid, "%q has no order in the plan: the plan orders the mercenary armies the mercenary judge orders", o.Army)
		}
		if seen[plan[k].Army] {
			return nil, domain.Errorf(domain.ErrInvalid, "%s is named twice", plan[k].Army)
		}
		seen[plan[k].Army] = true
		pm, err := mark(&plan[k], o.Line)
		if err != nil {
			return nil, err
		}
		out = append(out, pm)
	}
	return out, nil
}

// guidelineWarnings adds to the outcomes of a mercenary judge's post the lines that break a
// guideline of chapter 6 (turn.MercenaryWarnings, R46): accepted, with a warning naming it.
func guidelineWarnings(r Reader, t *Turn, m *domain.Map, p *Post, out []LineOutcome) error {
	hist, err := history(r, t.CampaignID, t.Number)
	if err != nil {
		return err
	}
	for _, w := range turn.MercenaryWarnings(m, p.Domain(), hist) {
		for i := range out {
			if o := &out[i]; o.Line == w.Line && o.Status != "rejected" {
				o.Warnings = append(o.Warnings, w.Message)
				o.Guidelines = append(o.Guidelines, w)
				o.Status = "warning"
			}
		}
	}
	return nil
}
