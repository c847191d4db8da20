package turn

// This file holds the mercenary judge's after-lock edit (6.3.2) in the lock pipeline: once a
// turn, one raider's order changed, after the lock's moves, to an engagement that passes
// through no army's square.

import (
	"fmt"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/mercenary"
	"github.com/coalition-wargame/coalition/movement"
)

// AfterLockEdit is what became of the mercenary judge's after-lock edit (6.3.2).
type AfterLockEdit struct {
	Post int64  `json:"post"`
	Army string `json:"army,omitempty"`
	// Text is the edit as posted.
	Text string `json:"text"`
	// CarriedOut is set when the turn was adjudicated with the edit.
	CarriedOut bool `json:"carried_out"`
	// Replaces is the order the edit replaced, as a line, empty when the raider had none.
	Replaces string `json:"replaces,omitempty"`
	// Problems are the restrictions of 6.3.2 the edit breaks, checked on the map as the lock's
	// moves left it (mercenary.CheckEdit): an edit with any is not carried out.
	Problems []mercenary.Warning `json:"problems,omitempty"`
	// Rejection is why the movement checker refused the edit's line, when it did.
	Rejection *domain.Rejection `json:"rejection,omitempty"`
	// Note says what happened, in words.
	Note string `json:"note"`
}

// editRun is an after-lock edit checked against a first run of the lock's moves.
type editRun struct {
	// post is the edit as the second run checks it: at the AI's time (the lock), so that it
	// comes after every order of the turn (M2) and inside the posting window (C2).
	post domain.Post
	// ai are the AI's orders of the first run, kept in the second.
	ai  []mercenary.Suggestion
	rep AfterLockEdit
	// army is the edited raider's index on the opening map, or -1.
	army int
}

func (ed *editRun) ok() bool { return ed.rep.Problems == nil && ed.army >= 0 }

// fix has the AI carry out the given orders instead of planning anew (an after-lock edit's
// second run).
func (ai *lockAI) fix(plan []mercenary.Suggestion) {
	if ai != nil {
		ai.fixed = plan
		if ai.fixed == nil {
			ai.fixed = []mercenary.Suggestion{}
		}
	}
}

// checkEdit resolves the lock's moves as posted (with the AI's orders) and checks the edit on
// the map they leave (6.3.2): one raider, an attempt to engage an army, through no army's
// square. It says which order the edit would replace.
func checkEdit(m *domain.Map, in Input) *editRun {
	e := in.Edit
	ed := &editRun{army: -1, rep: AfterLockEdit{Post: e.ID, Text: strings.TrimSpace(e.Text)}}
	ed.post = domain.Post{ID: e.ID, Author: e.Author, At: aiTime(in), Text: e.Text}
	after := m.Fork()
	after.NoteLeaders()
	ai := newLockAI(after, in)
	orders := ai.orders(after, in)
	if ai != nil {
		ed.ai = ai.rep.Orders
	}
	var edits []domain.Order
	for _, raw := range strings.Split(e.Text, "\n") {
		if strings.TrimSpace(raw) == "" {
			continue
		}
		o, perr := movement.ParseLine(raw)
		if perr != nil {
			ed.rep.Problems = append(ed.rep.Problems, mercenary.Warning{Army: perr.Army, Line: len(edits) + 1, Rule: "6.3.2", Code: mercenary.Code(perr.Code), Message: perr.Message})
			continue
		}
		edits = append(edits, o)
	}
	if len(edits) > 0 {
		ed.rep.Army = edits[0].Army
		if a := m.Army(edits[0].Army); a != nil {
			ed.rep.Army = a.Name
			ed.army = armyIndex(m, a.Name)
			if li := orders.Effective[ed.army]; li >= 0 {
				ed.rep.Replaces = orders.Lines[li].Text
			}
		}
	} else if ed.rep.Problems == nil {
		ed.rep.Problems = []mercenary.Warning{{Line: 1, Rule: "6.3.2", Code: mercenary.EditNoEngage, Message: "the edit gives no order"}}
	}
	movement.Resolve(after, orders, in.Seed)
	orders.Release()
	// the edited raiders move from where the turn opened: their own moves are the ones replaced
	for _, o := range edits {
		if i, a := armyIndex(after, armyName(m, o.Army)), m.Army(o.Army); i >= 0 && a != nil {
			after.Armies[i].At = a.At
		}
	}
	ed.rep.Problems = append(ed.rep.Problems, mercenary.CheckEdit(after, edits...)...)
	if len(ed.rep.Problems) == 0 {
		ed.rep.Problems = nil
	}
	return ed
}

// outcome reports what became of the edit once the lock ran; orders are the lock's orders.
func (ed *editRun) outcome(orders *movement.Orders) *AfterLockEdit {
	r := ed.rep
	switch {
	case r.Problems != nil:
		msgs := make([]string, len(r.Problems))
		for i, p := range r.Problems {
			msgs[i] = p.Message
		}
		r.Note = fmt.Sprintf("The mercenary judge's after-lock edit is not carried out: %s. The turn stands as locked.", strings.Join(msgs, "; "))
		return &r
	case ed.army < 0:
		r.Note = fmt.Sprintf("The mercenary judge's after-lock edit names no army on the map (%q): the turn stands as locked.", r.Army)
		return &r
	}
	for i := range orders.Lines {
		l := &orders.Lines[i]
		if l.Post != ed.post.ID || l.Index != ed.army {
			continue
		}
		if l.Rejection != nil && l.Rejection.Code != domain.CodeSuperseded {
			rej := *l.Rejection
			r.Rejection = &rej
			r.Note = fmt.Sprintf("The mercenary judge's after-lock edit for %s is refused (%s): %s. The turn stands as locked.", r.Army, rej.Code, rej.Message)
			return &r
		}
	}
	r.CarriedOut = true
	was := "it had no order"
	if r.Replaces != "" {
		was = fmt.Sprintf("in place of %q", r.Replaces)
	}
	r.Note = fmt.Sprintf("After the lock, the mercenary judge changed %s's order to %q (%s); the turn was adjudicated with it (6.3.2).", r.Army, r.Text, was)
	return &r
}

// armyName is the name of the army the map spells name as, or name.
func armyName(m *domain.Map, name string) string {
	if a := m.Army(name); a != nil {
		return a.Name
	}
	return name
}
