// The judge's view of a turn's posts: every post, public and private, with each line's outcome as
// the lock would judge it now (superseded orders included, M2), before the lock (5.4.1).

package campaign

import (
	"context"

	"github.com/coalition-wargame/coalition/movement"
)

// PostLines is a post with the outcome of each of its lines as the lock would judge it; a
// withdrawn post has none (it counts for nothing).
type PostLines struct {
	PostView
	Lines []LineOutcome `json:"lines"`
}

// TurnLines lists every post of turn n with each line's outcome, for the judges: an open turn's
// with the control list as it stands now, a locked turn's as it stood at the lock.
func (s *Service) TurnLines(ctx context.Context, a Actor, id int64, n int) ([]PostLines, error) {
	var out []PostLines
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, t, err := turnAccess(r, a, id, n)
		if err != nil {
			return err
		}
		if err := x.need("read every line of the turn (judges only)", maySeeEveryLine(x)); err != nil {
			return err
		}
		at, upTo := s.now(), int64(0)
		if t.Status == Locked {
			at, upTo = *t.ControlAt, t.ControlSeq
		}
		m, in, err := lockInput(r, t, at, upTo, &aiSetup{})
		if err != nil {
			return err
		}
		orders := movement.Check(m, in.Posts, movement.Options{Lock: in.Lock, Transfers: in.Transfers})
		defer orders.Release()
		byPost := map[int64][]LineOutcome{}
		for i := range orders.Lines {
			l := &orders.Lines[i]
			byPost[l.Post] = append(byPost[l.Post], outcome(l))
		}
		posts, err := r.Posts(id, n)
		if err != nil {
			return err
		}
		for i := range posts {
			p := &posts[i]
			out = append(out, PostLines{PostView: *viewPost(p, true), Lines: nonNil(byPost[p.ID])})
		}
		return nil
	})
	return nonNil(out), err
}

// outcome is a checked line as the desks show it: accepted, accepted with warnings, or rejected
// with its code.
func outcome(l *movement.Line) LineOutcome {
	o := LineOutcome{Line: l.Number, Text: l.Text, Army: l.Army, Status: "accepted"}
	if l.Rejection != nil {
		o.Status, o.Code, o.Message = "rejected", l.Rejection.Code, l.Rejection.Message
	}
	for _, w := range l.Warnings {
		o.Warnings = append(o.Warnings, w.Message)
	}
	if o.Status == "accepted" && len(o.Warnings) > 0 {
		o.Status = "warning"
	}
	return o
}
