package movement

// This file holds the battle judge's corrections of lines' outcomes (3.3.3 "only the battle judge
// can overrule a call made by the movement judge", R75): a line accepted though the checker
// refused it for its controller or its timing, or a line refused though the checker accepted it.

import (
	"github.com/coalition-wargame/coalition/domain"
)

// CodeOverruled is the code of a line the battle judge's correction refused (3.3.3).
const CodeOverruled domain.Code = "overruled"

// Ruling is the battle judge's word on one line of a post (3.3.3): accept it, or refuse it with
// a reason.
type Ruling struct {
	Post   int64  `json:"post"`
	Line   int    `json:"line"`
	Accept bool   `json:"accept"`
	Reason string `json:"reason"`
}

// Overrulable are the refusals a ruling may turn into an acceptance: the movement judge's calls
// on who controls the army and when the line was posted (5.4.2, 3.3.6, C2). A line refused for
// what it asks — a move out of range, off the map, through a wrong route, without its keyword —
// cannot be carried out as written, and stays refused (R75).
var Overrulable = []domain.Code{domain.CodeNotController, domain.CodeConflictingControllers, domain.CodeTooLate, domain.CodePrivateTooEarly}

// ruling is the ruling on a line, or nil.
func ruling(opt Options, post int64, line int) *Ruling {
	for i := len(opt.Rulings) - 1; i >= 0; i-- {
		if r := &opt.Rulings[i]; r.Post == post && r.Line == line {
			return r
		}
	}
	return nil
}

// checkRuled checks a line as checkLine does, then as the battle judge ruled: an accepted line
// is checked without its controller's and its timing's questions; a refused one is refused with
// the judge's reason whatever the checker said.
func (b *board) checkRuled(l *Line, opt Options, late, early bool) {
	r := ruling(opt, l.Post, l.Number)
	switch {
	case r == nil:
		b.checkLine(l, opt, late, early)
	case r.Accept:
		b.overrule = true
		b.checkLine(l, opt, false, false)
		b.overrule = false
	default:
		b.checkLine(l, opt, late, early)
		l.Warnings = nil
		l.reject(CodeOverruled, "refused by the battle judge's correction: %s (3.3.3)", r.Reason)
	}
}
