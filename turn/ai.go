package turn

// This file holds the mercenary AI's part in the lock pipeline (chapter 6): its orders for the
// mercenaries nobody ordered, its battle strategies, the guideline warnings on the mercenary
// judge's own lines, and the pure functions the workflow calls between locks.

import (
	"slices"
	"strconv"
	"time"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/mercenary"
	"github.com/coalition-wargame/coalition/movement"
)

// MercenaryAI is what the mercenary AI did at a lock (chapter 6); the report has it when the
// campaign's mercenary_ai setting is suggest or auto.
type MercenaryAI struct {
	Mode mercenary.Mode `json:"mode"`
	// Orders are the AI's orders carried out at this lock (auto): one for every mercenary army
	// the mercenary judge orders that had no accepted order, no long move under way and no
	// battle. They count as the lines of post 0 (AIPost), by the mercenary judge, at the lock.
	Orders []mercenary.Suggestion `json:"orders,omitempty"`
	// Strategies are the AI's battle strategies for the mercenaries in the battles fought this
	// turn (auto), so that none is stratless by neglect (B2).
	Strategies []mercenary.Strategy `json:"strategies,omitempty"`
	// Warnings are the mercenary judge's own lines that break a guideline: carried out, with
	// the warning.
	Warnings []GuidelineWarning `json:"warnings,omitempty"`
	// Engagements are the battles mercenaries made at this lock: the AI's memory of them in
	// later turns (6.2.1, History).
	Engagements []mercenary.Engagement `json:"engagements,omitempty"`
	// Territories names the theme armies whose territory (or ocean) this lock put on record
	// (mercenary.NoteTerritories).
	Territories []string `json:"territories,omitempty"`
}

// GuidelineWarning is a mercenary judge's line that breaks one of chapter 6's guidelines: the
// line is accepted and carried out (the judge may deviate, knowingly), with the warning.
type GuidelineWarning struct {
	Army    string         `json:"army"`
	Post    int64          `json:"post"`
	Line    int            `json:"line"`
	Rule    string         `json:"rule"`
	Code    mercenary.Code `json:"code"`
	Message string         `json:"message"`
}

// AIPost is the id under which the AI's orders are checked at the lock.
const AIPost = 0

// Memory is what the mercenary AI knows when it plans a turn on map m: the theme armies' wars,
// territories and ocean army as the map records them, and the mercenaries' engagements of
// earlier turns (History).
func Memory(m *domain.Map, history []mercenary.Engagement) *mercenary.Memory {
	mem := mercenary.FromMap(m)
	if mem == nil {
		mem = &mercenary.Memory{}
	}
	mem.Engagements = history
	return mem
}

// History gathers the mercenaries' engagements from earlier turns' lock reports, for
// Input.MercenaryHistory, MercenaryPlan and MercenaryWarnings (6.2.1). Reports of locks run
// with the AI off record none.
func History(reports ...*Report) []mercenary.Engagement {
	var out []mercenary.Engagement
	for _, r := range reports {
		if r != nil && r.MercenaryAI != nil {
			out = append(out, r.MercenaryAI.Engagements...)
		}
	}
	return out
}

// MercenaryPlan is the AI's plan for a turn that opens on map m with seed seed: an order for
// every mercenary army the mercenary judge orders, the guideline it follows, its reason, and
// the other choices where the seed's draw picked among ties. It is the same on every call for
// the same turn; with mercenary_ai auto, the lock carries out the orders of the armies the
// judge leaves unordered.
func MercenaryPlan(m *domain.Map, seed domain.Seed, history []mercenary.Engagement) []mercenary.Suggestion {
	mem := Memory(m, history)
	mem.NoteTerritories(m)
	return mem.Plan(m, seed, mercenary.PlanOptions{})
}

// MercenaryWarnings checks the lines of a post for mercenary armies against chapter 6's
// guidelines on map m as the turn opened: the workflow calls it when the mercenary judge posts,
// and shows the warnings with the accepted lines. Lines the movement checker rejects are
// skipped.
func MercenaryWarnings(m *domain.Map, post domain.Post, history []mercenary.Engagement) []GuidelineWarning {
	lines := movement.CheckPost(m, post, movement.Options{})
	var orders []domain.Order
	var from []*movement.Line
	for i := range lines {
		l := &lines[i]
		if l.Accepted() && l.Index >= 0 && m.Armies[l.Index].Side == domain.Mercenary {
			orders = append(orders, l.Order)
			from = append(from, l)
		}
	}
	if len(orders) == 0 {
		return nil
	}
	mem := Memory(m, history)
	mem.NoteTerritories(m)
	return guidelineWarnings(mem.Check(m, orders...), from)
}

func guidelineWarnings(ws []mercenary.Warning, from []*movement.Line) []GuidelineWarning {
	out := make([]GuidelineWarning, 0, len(ws))
	for _, w := range ws {
		l := from[w.Line-1]
		out = append(out, GuidelineWarning{Army: w.Army, Post: l.Post, Line: l.Number, Rule: w.Rule, Code: w.Code, Message: w.Message})
	}
	return out
}

// MercenaryStrategies is the AI's battle strategy for every mercenary army the mercenary judge
// orders in the battles fought this turn on map m (B1): the workflow files them as the
// mercenaries' strategies before the strategy deadline when mercenary_ai is auto, so that no
// mercenary battle goes stratless by neglect (B2).
func MercenaryStrategies(m *domain.Map, history []mercenary.Engagement) []mercenary.Strategy {
	return Memory(m, history).Strategies(m, battle.Fought(m))
}

// CheckAI checks the AI's orders of a lock report against their guidelines on m, the map the
// turn opened on, with the engagements of the earlier turns (mercenary.Check): what the soak
// tests hold every lock to. An order with no reason or guideline is a problem too.
func CheckAI(m *domain.Map, rep *Report, history []mercenary.Engagement) []string {
	var out []string
	if rep.MercenaryAI == nil {
		return nil
	}
	f := m.Clone()
	mercenary.NoteTerritories(f)
	var orders []domain.Order
	for _, sg := range rep.MercenaryAI.Orders {
		orders = append(orders, sg.Order)
		if sg.Reason == "" || sg.Guideline == "" {
			out = append(out, "the AI's order "+strconv.Quote(sg.Line)+" has no reason or guideline")
		}
	}
	for _, w := range Memory(f, history).Check(f, orders...) {
		out = append(out, "an AI order breaks a guideline: "+w.String())
	}
	return out
}

// lockAI is the AI's part in one run of the lock.
type lockAI struct {
	mode mercenary.Mode
	mem  *mercenary.Memory
	rep  *MercenaryAI
	// fixed are the AI's orders of an earlier run of the same lock (an after-lock edit's
	// re-run): they are carried out again as they were, not planned anew
	fixed []mercenary.Suggestion
}

// newLockAI is the AI of a lock on map next (the opening map, forked), or nil when it is off.
func newLockAI(next *domain.Map, in Input) *lockAI {
	if !in.MercenaryAI.On() {
		return nil
	}
	rep := &MercenaryAI{Mode: in.MercenaryAI, Territories: mercenary.NoteTerritories(next)}
	return &lockAI{mode: in.MercenaryAI, mem: Memory(next, in.MercenaryHistory), rep: rep}
}

// aiTime is when the AI's orders (and an after-lock edit) count as posted: at the lock, or, for
// a lock with no time, with the latest post.
func aiTime(in Input) time.Time {
	if !in.Lock.IsZero() {
		return in.Lock
	}
	var t time.Time
	for i := range in.Posts {
		if in.Posts[i].At.After(t) {
			t = in.Posts[i].At
		}
	}
	return t
}

// orders checks the turn's posts (with extra ones: an after-lock edit) and, with the AI on,
// warns of the mercenary judge's lines that break a guideline and, with auto, adds the AI's
// order for every mercenary army nobody ordered.
func (ai *lockAI) orders(next *domain.Map, in Input, extra ...domain.Post) *movement.Orders {
	posts := in.Posts
	if len(extra) > 0 {
		posts = append(slices.Clone(posts), extra...)
	}
	orders := movement.Check(next, posts, movement.Options{Lock: in.Lock, Transfers: in.Transfers, Rulings: in.Rulings})
	if ai == nil {
		return orders
	}
	var ordered []domain.Order
	var from []*movement.Line
	for i, li := range orders.Effective {
		a := &next.Armies[i]
		if a.Side != domain.Mercenary {
			continue
		}
		switch {
		case li >= 0:
			ordered = append(ordered, orders.Lines[li].Order)
			from = append(from, &orders.Lines[li])
		case a.Plan != nil && len(a.Plan.Legs) > 0:
			ordered = append(ordered, domain.Order{Army: a.Name, Kind: domain.MoveKind, From: a.At, Legs: a.Plan.Legs[:1]})
		}
	}
	if len(from) > 0 {
		var own []domain.Order
		for _, l := range from {
			own = append(own, l.Order)
		}
		ai.rep.Warnings = append(ai.rep.Warnings, guidelineWarnings(ai.mem.Check(next, own...), from)...)
	}
	if ai.mode != mercenary.ModeAuto {
		return orders
	}
	plan := ai.fixed
	if plan == nil {
		plan = ai.mem.Plan(next, in.Seed, mercenary.PlanOptions{Ordered: ordered})
	}
	at := aiTime(in)
	for _, s := range plan {
		i := armyIndex(next, s.Army)
		if s.Guideline == mercenary.GuideFighting || i < 0 || orders.Effective[i] >= 0 || slices.ContainsFunc(ordered, func(o domain.Order) bool { return o.Army == s.Army }) {
			continue
		}
		ai.rep.Orders = append(ai.rep.Orders, s)
		// the AI's orders are lines of post 0 by the mercenary judge, at the lock; they are
		// legal by construction (mercenary.Plan; its tests run each through the movement
		// checker), so they are not parsed and checked again here
		orders.Lines = append(orders.Lines, movement.Line{Post: AIPost, Author: mercenary.Judge, At: at, Number: len(ai.rep.Orders),
			Text: s.Line, Order: s.Order, Army: next.Armies[i].Name, Index: i})
		orders.Effective[i] = len(orders.Lines) - 1
	}
	return orders
}

func armyIndex(m *domain.Map, name string) int {
	for i := range m.Armies {
		if m.Armies[i].Name == name {
			return i
		}
	}
	return -1
}

// disbanding names the armies whose order that counts is to disband (6.3.2).
func disbanding(m *domain.Map, orders *movement.Orders) []string {
	var out []string
	for i, li := range orders.Effective {
		if li >= 0 && orders.Lines[li].Order.Kind == domain.Hold && orders.Lines[li].Order.Note == mercenary.DisbandNote {
			out = append(out, m.Armies[i].Name)
		}
	}
	return out
}
