// A correction's re-adjudication (3.3.3, R77): the corrected turn and every later one run again
// through turn.Run from their stored inputs, in one transaction, each turn's next map becoming
// the opening map of the turn after it.

package campaign

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/turn"
)

// correct runs a correction of turn n of campaign id in one write transaction and hands finish
// the preview and the record; finish keeps it (nil) or drops it (an error). A confirmation
// (confirm) names the preview it confirms.
func (s *Service) correct(ctx context.Context, a Actor, id int64, n int, req CorrectionRequest, confirm bool, finish func(Tx, *CorrectionPreview, *Correction) error) error {
	// alone among the campaign's locks and within their budget (R96), as a lock is
	return s.guarded(ctx, id, fmt.Sprintf("the correction of turn %d", n), func(b *budget) error {
		return s.correctBody(b, a, id, n, req, confirm, finish)
	})
}

// correctBody is correct's work, within its budget b.
func (s *Service) correctBody(b *budget, a Actor, id int64, n int, req CorrectionRequest, confirm bool, finish func(Tx, *CorrectionPreview, *Correction) error) error {
	ctx := b.ctx
	// the turns from n on, and the mercenary AI each lock ran with (R61)
	var numbers []int
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		if err := x.need("correct a locked turn (the battle judges only, 3.3.3)", mayCorrectTurn(x)); err != nil {
			return err
		}
		if err := checkRequest(&req); err != nil {
			return err
		}
		if confirm && req.Preview == "" {
			return domain.Errorf(domain.ErrInvalid, "preview the correction first, and confirm it with the preview's digest (3.3.3)")
		}
		ts, err := r.Turns(id)
		if err != nil {
			return err
		}
		for _, t := range ts {
			if t.Number >= n {
				numbers = append(numbers, t.Number)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	ais := map[int]*aiSetup{}
	for _, k := range numbers {
		if ais[k], _, err = s.aiSetupFor(ctx, id, k); err != nil {
			return err
		}
	}
	return b.write(s.store, func(tx Tx) error {
		c, err := tx.Campaign(id)
		if err != nil {
			return err
		}
		run := &rerun{s: s, tx: tx, c: c, n: n, req: req, ais: ais, by: a.Name()}
		if err := run.load(); err != nil {
			return err
		}
		if err := run.all(); err != nil {
			return err
		}
		p := &CorrectionPreview{Turn: n, Digest: digest(req, run.outcomes), Changes: run.changes}
		rec := &Correction{CampaignID: id, Turn: n, Request: req, Changes: run.changes, Original: run.original, By: a.Name(), At: s.now()}
		rec.Request.Preview = p.Digest
		return finish(tx, p, rec)
	})
}

// rerun is one correction's re-adjudication.
type rerun struct {
	s   *Service
	tx  Tx
	c   *Campaign
	n   int
	req CorrectionRequest
	ais map[int]*aiSetup
	by  string
	// turns are the campaign's turns from n on; the last is open (or the final map).
	turns    []*Turn
	original []OriginalTurn
	changes  []TurnChange
	outcomes [][]byte
}

// load reads the turns from n on and keeps their records as they are.
func (r *rerun) load() error {
	for k := r.n; ; k++ {
		t, err := r.tx.Turn(r.c.ID, k)
		if errors.Is(err, domain.ErrNotFound) {
			break
		}
		if err != nil {
			return err
		}
		r.turns = append(r.turns, t)
	}
	if len(r.turns) < 2 || r.turns[0].Status != Locked {
		return domain.Errorf(domain.ErrConflict, "turn %d is not locked: only a locked turn is corrected (3.3.3)", r.n)
	}
	for _, t := range r.turns {
		if t.Editing() {
			return domain.Errorf(domain.ErrConflict, "turn %d waits for the mercenary judge's after-lock edit: correct once its update is published (6.3.2)", t.Number)
		}
	}
	for i, t := range r.turns[:len(r.turns)-1] {
		next, err := r.turns[i+1].Snapshot.Encode()
		if err != nil {
			return err
		}
		rs, err := r.tx.Results(t.ID)
		if err != nil {
			return err
		}
		upTo, err := r.tx.MercenaryHistory(r.c.ID, t.Number+1)
		if err != nil {
			return err
		}
		earlier, err := r.tx.MercenaryHistory(r.c.ID, t.Number)
		if err != nil {
			return err
		}
		own := upTo[len(earlier):]
		r.original = append(r.original, OriginalTurn{Turn: t.Number, Report: json.RawMessage(t.Report), ReportText: t.ReportText, NextMap: next, Results: nonNil(rs), History: own})
	}
	return nil
}

// all adjudicates every locked turn from n on again, in order.
func (r *rerun) all() error {
	for i := range r.turns[:len(r.turns)-1] {
		if err := r.one(i); err != nil {
			return err
		}
	}
	if err := bumpMap(r.tx, r.c.ID); err != nil {
		return err
	}
	open := r.turns[len(r.turns)-1]
	if r.c.Status != Finished && open.Status == Open {
		if st := r.ais[open.Number]; st != nil {
			return r.s.fileStrategies(r.tx, open, open.Snapshot.Map(), st.st, r.s.now())
		}
	}
	return nil
}

// one adjudicates turn i of r.turns again and makes its next map the next turn's opening map.
func (r *rerun) one(i int) error {
	t, nt := r.turns[i], r.turns[i+1]
	k := t.Number
	if err := r.results(t); err != nil {
		return err
	}
	m, in, err := lockInput(r.tx, t, *t.ControlAt, t.ControlSeq, r.ais[k])
	if err != nil {
		return domain.Errorf(domain.ErrInvalid, "turn %d cannot be adjudicated again: %v (3.3.3)", k, err)
	}
	var changes []string
	if k == r.n {
		if err := r.linesExist(t); err != nil {
			return err
		}
		in.Rulings = append(in.Rulings, r.req.Orders...)
		in.Days = append(in.Days, r.req.Days...)
	} else if changes, err = r.fitResults(t, m, &in); err != nil {
		return err
	}
	before := r.original[i]
	next, rep, err := adjudicate(r.c, t, m, in)
	if err != nil {
		return domain.Errorf(domain.ErrInvalid, "turn %d cannot be adjudicated again with the correction: %v; give its result in the correction (later)", k, err)
	}
	if k == r.n {
		if err := acceptedAsRuled(rep, r.req); err != nil {
			return err
		}
	}
	if err := r.sameEnd(k, next, i == len(r.turns)-2); err != nil {
		return err
	}
	if err := r.sameControl(t, m, next); err != nil {
		return err
	}
	var old turn.Report
	if err := json.Unmarshal(before.Report, &old); err != nil {
		return fmt.Errorf("turn %d's report: %w", k, err)
	}
	oldNext, err := decodeMap(before.NextMap)
	if err != nil {
		return err
	}
	tc := diffTurn(k, oldNext, next, &old, rep)
	tc.Results = changes
	r.changes = append(r.changes, tc)
	if err := r.tx.SetTurnOutcome(t); err != nil {
		return err
	}
	nt.Snapshot = NewSnapshot(next)
	if err := r.tx.SetTurnOutcome(nt); err != nil {
		return err
	}
	var es []Engagement
	if rep.MercenaryAI != nil {
		es = rep.MercenaryAI.Engagements
	}
	if len(es) > 0 || len(before.History) > 0 {
		if err := r.tx.SetMercenaryHistory(r.c.ID, k, es); err != nil {
			return err
		}
	}
	snap, err := nt.Snapshot.Encode()
	if err != nil {
		return err
	}
	r.outcomes = append(r.outcomes, t.Report, snap)
	return nil
}

// results stores the correction's results for turn t: the corrected turn's replacements, and a
// later turn's results given in the correction (R77).
func (r *rerun) results(t *Turn) error {
	put := func(res domain.BattleResult) error {
		return r.tx.PutResult(&Result{TurnID: t.ID, Result: res, EnteredBy: r.by, EnteredAt: r.s.now()})
	}
	if t.Number == r.n {
		for _, res := range r.req.Results {
			if err := put(res); err != nil {
				return err
			}
		}
	}
	for _, l := range r.req.Later {
		if l.Turn != t.Number {
			continue
		}
		if l.Turn <= r.n {
			return domain.Errorf(domain.ErrInvalid, "later results are for turns after %d; turn %d's go in results", r.n, l.Turn)
		}
		for _, res := range l.Results {
			if err := put(res); err != nil {
				return err
			}
		}
	}
	return nil
}

// fitResults fits a later turn's results to the battles its corrected opening map fights
// (R77): a result for a square where no battle is fought any more is set aside (deleted, kept in
// the record), a battle the correction made with no result settles as one with no strategy on
// either side — nobody wins (B2) — unless the correction gives its result. It says what it did.
func (r *rerun) fitResults(t *Turn, m *domain.Map, in *turn.Input) ([]string, error) {
	fought := battle.Fought(m)
	var out []string
	var kept []domain.BattleResult
	for _, res := range in.Results {
		if slices.ContainsFunc(fought, func(b domain.Battle) bool { return b.Square == res.Square }) {
			kept = append(kept, res)
			continue
		}
		if err := r.tx.DeleteResult(t.ID, res.Square); err != nil {
			return nil, err
		}
		out = append(out, fmt.Sprintf("turn %d: the result at %s is set aside: no battle is fought there any more", t.Number, res.Square))
	}
	for _, b := range fought {
		if slices.ContainsFunc(kept, func(res domain.BattleResult) bool { return res.Square == b.Square }) {
			continue
		}
		res := domain.BattleResult{Square: b.Square}
		if err := r.tx.PutResult(&Result{TurnID: t.ID, Result: res, EnteredBy: ServerJudge, EnteredAt: r.s.now()}); err != nil {
			return nil, err
		}
		kept = append(kept, res)
		out = append(out, fmt.Sprintf("turn %d: the battle at %s (%s) is new and had no strategy: nobody wins (B2, R77)", t.Number, b.Square, joinArmies(b.Armies)))
	}
	in.Results = kept
	return out, nil
}

func joinArmies(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += " v "
		}
		out += n
	}
	return out
}

// linesExist refuses a ruling on a line turn t's posts do not have.
func (r *rerun) linesExist(t *Turn) error {
	posts, err := r.tx.Posts(r.c.ID, t.Number)
	if err != nil {
		return err
	}
	for _, o := range r.req.Orders {
		i := slices.IndexFunc(posts, func(p Post) bool { return p.ID == o.Post })
		if i < 0 || o.Line < 1 || o.Line > strings.Count(posts[i].Text, "\n")+1 {
			return domain.Errorf(domain.ErrInvalid, "turn %d has no line %d of post %d to overrule (3.3.3)", t.Number, o.Line, o.Post)
		}
	}
	return nil
}

// acceptedAsRuled refuses a correction that accepts a line the checker still refuses for what
// it asks (R75): only the movement judge's calls on control and timing are overruled.
func acceptedAsRuled(rep *turn.Report, req CorrectionRequest) error {
	for _, o := range req.Orders {
		if !o.Accept {
			continue
		}
		for _, rj := range rep.Rejected {
			if rj.Post == o.Post && rj.Line == o.Line && rj.Code != domain.CodeSuperseded {
				return domain.Errorf(domain.ErrInvalid, "line %d of post %d stays refused (%s: %s): a correction accepts a line refused for its controller or its timing, not one that cannot be carried out as written (3.3.3, R75)",
					o.Line, o.Post, rj.Code, rj.Message)
			}
		}
	}
	return nil
}

// sameEnd refuses a correction that changes whether or when the round was decided (R77).
func (r *rerun) sameEnd(k int, next *domain.Map, last bool) error {
	switch {
	case next.Winner != "" && !last:
		return domain.Errorf(domain.ErrConflict, "with the correction, %s wins the round at the lock of turn %d, and the later turns were never played: a correction cannot end the round early (R77)", next.Winner.Title(), k)
	case last && next.Winner != r.c.Winner:
		return domain.Errorf(domain.ErrConflict, "the correction changes who won the round (%q, not %q): a correction cannot decide the round anew (R77)", next.Winner, r.c.Winner)
	}
	return nil
}

// sameControl refuses a correction that changes who controls an army after the lock of turn t —
// a capture made or undone (4.5) — for the control list keeps those changes as written (R77).
func (r *rerun) sameControl(t *Turn, m, next *domain.Map) error {
	entries, err := r.tx.Control(r.c.ID)
	if err != nil {
		return err
	}
	reason := "changed at the lock of turn " + strconv.Itoa(t.Number)
	had := map[string][]string{}
	for _, e := range entries {
		if e.By == Scheduler && e.Reason == reason {
			had[e.Army] = e.Controllers
		}
	}
	got := map[string][]string{}
	for i := range next.Armies {
		na := &next.Armies[i]
		if before := m.Army(na.Name); before == nil || !sameNames(before.Controllers, na.Controllers) {
			got[na.Name] = nonNil(slices.Clone(na.Controllers))
		}
	}
	for army, cs := range got {
		if old, ok := had[army]; !ok || !sameNames(old, cs) {
			return domain.Errorf(domain.ErrConflict, "with the correction, %s changes controllers at the lock of turn %d: a correction cannot rewrite the control list (R77)", army, t.Number)
		}
	}
	for army := range had {
		if _, ok := got[army]; !ok {
			return domain.Errorf(domain.ErrConflict, "with the correction, %s no longer changes controllers at the lock of turn %d: a correction cannot rewrite the control list (R77)", army, t.Number)
		}
	}
	return nil
}
