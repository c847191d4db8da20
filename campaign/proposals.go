// Proposals: the server's proposed result of a battle, the battle judge's confirmation, and the
// stratless battles a lock settles itself (B2–B7, 4.2).

package campaign

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/domain"
)

// ProposalRecord is the server's proposal for one battle as stored: the judge's judgement,
// what battle.Propose made of it, and whether the judge confirmed it.
type ProposalRecord struct {
	ID          int64            `json:"id"`
	TurnID      int64            `json:"-"`
	Square      domain.Square    `json:"square"`
	Judgement   battle.Judgement `json:"judgement"`
	Proposal    battle.Proposal  `json:"proposal"`
	MadeBy      string           `json:"made_by"`
	MadeAt      time.Time        `json:"made_at"`
	ConfirmedBy string           `json:"confirmed_by,omitempty"`
	ConfirmedAt *time.Time       `json:"confirmed_at,omitempty"`
	// Text is the result text the judge publishes with the result; it is public after the
	// lock, and it is the only way a strategy's content becomes public.
	Text string `json:"text,omitempty"`
}

// JudgementRequest is the battle judge's reading of a battle: the strategy bonus (B2) and, for
// a two-army side, how much each army fought (B10).
type JudgementRequest struct {
	BonusTo string             `json:"bonus_to,omitempty"`
	Bonus   int                `json:"bonus"`
	Fought  map[string]float64 `json:"fought,omitempty"`
}

// judgement builds battle.Propose's judgement of battle b from the strategies that count and
// the judge's reading.
func (d *deskTurn) judgement(b *domain.Battle, req JudgementRequest) battle.Judgement {
	j := battle.Judgement{BonusTo: req.BonusTo, Bonus: req.Bonus, Strategies: []battle.Strategy{}}
	chosen := d.chosen(b)
	for _, n := range b.Armies {
		st, ok := chosen[n]
		if !ok {
			continue
		}
		bs := battle.Strategy{Army: n, Kill: st.Choices.Kill, Capture: st.Choices.Capture, RunAway: st.Choices.RunAway}
		for k, v := range req.Fought {
			if domain.SameName(k, n) {
				bs.Fought = v
			}
		}
		j.Strategies = append(j.Strategies, bs)
	}
	return j
}

// propose runs battle.Propose on battle b and names the leaver of a winning pair from its
// strategies (4.4, B10).
func (d *deskTurn) propose(r Reader, b *domain.Battle, j battle.Judgement) (*battle.Proposal, error) {
	fs, err := campaignFormulas(r, d.c.ID)
	if err != nil {
		return nil, err
	}
	p, err := battle.Propose(d.m, *b, j, battle.Config{Formulas: fs}, d.t.Seed.Draws())
	if err != nil {
		return nil, err
	}
	if w := p.Result.Winner; w != "" {
		side := d.m.Army(w).Side
		pair := 0
		for _, n := range b.Armies {
			if d.m.Army(n).Side == side {
				pair++
			}
		}
		chosen := d.chosen(b)
		for _, n := range b.Armies {
			if st, ok := chosen[n]; ok && pair == 2 && st.Side == side && st.Choices.Leaves != nil && p.Result.Leaves == nil {
				l := *st.Choices.Leaves
				p.Result.Leaves = &l
			}
		}
	}
	return p, nil
}

// ProposeBattle has the server propose the result of the battle at sq in the open turn
// (battle judges only): the judge's strategy bonus, the size and colour bonuses, the dice
// rolled from the turn's seed, the winner, the casualties and the kill and capture attempts
// of the strategies (B2–B7, 4.2–4.5). The proposal replaces an earlier one and must be
// confirmed before the lock uses it.
func (s *Service) ProposeBattle(ctx context.Context, a Actor, id int64, n int, sq domain.Square, req JudgementRequest) (*ProposalRecord, error) {
	var out *ProposalRecord
	err := s.store.Write(ctx, func(tx Tx) error {
		d, err := loadDesk(tx, a, id, n)
		if err != nil {
			return err
		}
		if err := d.x.need("propose battle results (battle judges only)", mayProposeBattle(d.x)); err != nil {
			return err
		}
		if err := d.open(); err != nil {
			return err
		}
		b, err := d.battle(sq)
		if err != nil {
			return err
		}
		if req.Bonus < 0 || req.Bonus > 10 {
			return domain.Errorf(domain.ErrInvalid, "the strategy bonus must be 0–10 (4.2.1), not %d", req.Bonus)
		}
		for k, v := range req.Fought {
			if !slices.ContainsFunc(b.Armies, func(n string) bool { return domain.SameName(n, k) }) {
				return domain.Errorf(domain.ErrInvalid, "%q does not fight in the battle at %s", k, sq)
			}
			if v < 0 {
				return domain.Errorf(domain.ErrInvalid, "how much %s fought must be 0 or more", k)
			}
		}
		j := d.judgement(b, req)
		p, err := d.propose(tx, b, j)
		if err != nil {
			return err
		}
		rec := &ProposalRecord{TurnID: d.t.ID, Square: sq, Judgement: j, Proposal: *p, MadeBy: a.Name(), MadeAt: s.now()}
		if err := tx.PutProposal(rec); err != nil {
			return err
		}
		out = rec
		return s.audit(tx, id, a, "battle.propose", "proposal for the battle at %s in turn %d", sq, n)
	})
	return out, err
}

// ConfirmRequest confirms a battle's proposal: as proposed, or adjusted by the judge, with an
// optional result text published after the lock.
type ConfirmRequest struct {
	Result *domain.BattleResult `json:"result,omitempty"`
	Text   string               `json:"text,omitempty"`
}

// ConfirmBattle makes the battle's proposal, or the judge's adjustment of it, the result the
// lock uses (battle judges only). The result must fit its battle and settle on the map as it
// stands.
func (s *Service) ConfirmBattle(ctx context.Context, a Actor, id int64, n int, sq domain.Square, req ConfirmRequest) (*BattleView, error) {
	err := s.store.Write(ctx, func(tx Tx) error {
		d, err := loadDesk(tx, a, id, n)
		if err != nil {
			return err
		}
		if err := d.x.need("confirm battle results (battle judges only)", mayConfirmBattle(d.x)); err != nil {
			return err
		}
		if err := d.open(); err != nil {
			return err
		}
		if _, err := d.battle(sq); err != nil {
			return err
		}
		p := d.proposal(sq)
		if p == nil {
			return domain.Errorf(domain.ErrConflict, "the battle at %s has no proposal yet: propose it first, or enter its result directly", sq)
		}
		res := p.Proposal.Result
		adjusted := req.Result != nil
		if adjusted {
			res = *req.Result
			if !res.Square.IsZero() && res.Square != sq {
				return domain.Errorf(domain.ErrInvalid, "the result is for %s, but this is the battle at %s", res.Square, sq)
			}
			res.Square = sq
		}
		if err := fitResult(d.m, &res); err != nil {
			return err
		}
		// the desk confirms only what the rules allow; a result entered directly is recorded
		// with warnings instead, and the lock applies the rules to it (R33)
		notes, err := settleTrial(d.m, d.t.Seed, res)
		if err != nil {
			return err
		}
		if len(notes) > 0 {
			return domain.Errorf(domain.ErrInvalid, "%s", strings.Join(notes, "; "))
		}
		if len(req.Text) > MaxStrategyText || !utf8.ValidString(req.Text) {
			return domain.Errorf(domain.ErrInvalid, "the result text must be valid UTF-8 of at most %d bytes", MaxStrategyText)
		}
		if err := mayReplaceResult(tx, d.x, d.t, sq); err != nil {
			return err
		}
		now := s.now()
		if err := tx.PutResult(&Result{TurnID: d.t.ID, Result: res, EnteredBy: a.Name(), EnteredAt: now}); err != nil {
			return err
		}
		p.ConfirmedBy, p.ConfirmedAt, p.Text = a.Name(), &now, strings.TrimSpace(req.Text)
		if err := tx.PutProposal(p); err != nil {
			return err
		}
		how := "as proposed"
		if adjusted {
			how = "adjusted by the judge"
		}
		return s.audit(tx, id, a, "battle.confirm", "confirmed the result of the battle at %s in turn %d, %s", sq, n, how)
	})
	if err != nil {
		return nil, err
	}
	return s.Battle(ctx, a, id, n, sq)
}

// settleStratless settles, at the lock, every battle with no result in which a side sent no
// strategy (B2, 4.2.1): the side with a strategy wins with the full strategy bonus, by the
// server's proposal; when neither side sent one, nobody wins and nobody loses. The results are
// stored with the turn, so that a replay uses them. A battle where both sides sent strategies
// still needs the judge. Imported scenario campaigns are left as `coalition adjudicate` runs
// them: every battle needs a result.
func (s *Service) settleStratless(tx Tx, c *Campaign, t *Turn, now time.Time) error {
	if c.ScenarioSeed != nil {
		return nil
	}
	d := &deskTurn{c: c, t: t}
	var err error
	if d.m, err = amended(tx, t); err != nil {
		return err
	}
	d.fought = battle.Fought(d.m)
	if len(d.fought) == 0 {
		return nil
	}
	if d.strategies, err = tx.Strategies(t.ID); err != nil {
		return err
	}
	if d.results, err = tx.Results(t.ID); err != nil {
		return err
	}
	for i := range d.fought {
		b := &d.fought[i]
		if d.result(b.Square) != nil {
			continue
		}
		chosen := d.chosen(b)
		sent := map[domain.Side]bool{}
		sides := map[domain.Side]bool{}
		for _, n := range b.Armies {
			side := d.m.Army(n).Side
			sides[side] = true
			if _, ok := chosen[n]; ok {
				sent[side] = true
			}
		}
		if len(sent) == len(sides) {
			continue
		}
		res := domain.BattleResult{Square: b.Square}
		if len(sent) > 0 {
			j := d.judgement(b, JudgementRequest{})
			p, err := d.propose(tx, b, j)
			if err != nil {
				return domain.Errorf(domain.ErrInvalid, "the battle at %s has a side with no strategy, but the server cannot settle it: %v", b.Square, err)
			}
			res = p.Result
			if err := tx.PutProposal(&ProposalRecord{TurnID: t.ID, Square: b.Square, Judgement: j, Proposal: *p, MadeBy: ServerJudge, MadeAt: now, ConfirmedBy: ServerJudge, ConfirmedAt: &now}); err != nil {
				return err
			}
		}
		if err := tx.PutResult(&Result{TurnID: t.ID, Result: res, EnteredBy: ServerJudge, EnteredAt: now}); err != nil {
			return err
		}
	}
	return nil
}
