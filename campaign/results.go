// Battle results the battle judge enters directly, checked against the battle and tried on the map
// (B1, R33).

package campaign

import (
	"context"
	"strings"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/domain"
)

// ResultsView is a turn's battles and the judge's results for them.
type ResultsView struct {
	Turn    int                   `json:"turn"`
	Battles []domain.Battle       `json:"battles"`
	Results []domain.BattleResult `json:"results"`
	// Warnings say where a result asks for a kill or capture the rules do not allow, and what
	// the lock will do instead (R33).
	Warnings []string `json:"warnings"`
}

// Results shows the battles fought in a turn and their results: to the judges at any time,
// to everyone once the turn is locked.
func (s *Service) Results(ctx context.Context, a Actor, id int64, n int) (*ResultsView, error) {
	var out *ResultsView
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, t, err := turnAccess(r, a, id, n)
		if err != nil {
			return err
		}
		if !maySeeResults(x, t) {
			return x.refuse("see the results of a turn before its lock (judges only)")
		}
		rs, err := r.Results(t.ID)
		if err != nil {
			return err
		}
		m, err := amended(r, t)
		if err != nil {
			return err
		}
		out = &ResultsView{Turn: n, Battles: nonNil(battle.Fought(m)), Results: []domain.BattleResult{}, Warnings: []string{}}
		for _, res := range rs {
			out.Results = append(out.Results, res.Result)
			if t.Status != Open {
				continue // the lock report has the notes
			}
			notes, err := settleTrial(m, t.Seed, res.Result)
			if err != nil {
				notes = []string{err.Error()}
			}
			for _, n := range notes {
				out.Warnings = append(out.Warnings, "At "+res.Result.Square.String()+": "+n)
			}
		}
		return nil
	})
	return out, err
}

// EnterResult records the battle judge's result for one battle fought in the open turn,
// replacing an earlier one for the same square. It must fit its battle: the square holds a
// battle this turn and every army it names fights there (B1).
func (s *Service) EnterResult(ctx context.Context, a Actor, id int64, n int, res domain.BattleResult) (*ResultsView, error) {
	err := s.store.Write(ctx, func(tx Tx) error {
		c, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.need("enter battle results (battle judges only)", mayEnterResult(x)); err != nil {
			return err
		}
		if c.Status == Finished {
			return domain.Errorf(domain.ErrConflict, "the campaign is finished")
		}
		t, err := tx.Turn(id, n)
		if err != nil {
			return err
		}
		if t.Status != Open {
			return domain.Errorf(domain.ErrConflict, "turn %d is locked: its results can no longer change", n)
		}
		m, err := amended(tx, t)
		if err != nil {
			return err
		}
		if err := fitResult(m, &res); err != nil {
			return err
		}
		if _, err := settleTrial(m, t.Seed, res); err != nil {
			return err
		}
		if err := mayReplaceResult(tx, x, t, res.Square); err != nil {
			return err
		}
		if err := tx.PutResult(&Result{TurnID: t.ID, Result: res, EnteredBy: a.Name(), EnteredAt: s.now()}); err != nil {
			return err
		}
		winner := res.Winner
		if winner == "" {
			winner = "nobody"
		}
		return s.audit(tx, id, a, "result.enter", "result for the battle at %s in turn %d: %s won", res.Square, n, winner)
	})
	if err != nil {
		return nil, err
	}
	return s.Results(ctx, a, id, n)
}

// settleTrial settles one result on a copy of the map as the lock will: an error is a result
// the lock could not apply; the notes say where the rules change what the judge wrote (R33).
func settleTrial(m *domain.Map, seed domain.Seed, res domain.BattleResult) ([]string, error) {
	for _, b := range battle.Fought(m) {
		if b.Square != res.Square {
			continue
		}
		lg, err := battle.Settle(m.Clone(), []domain.Battle{b}, []domain.BattleResult{res}, seed.Draws())
		if err != nil || len(lg.Settled) == 0 {
			return nil, err
		}
		return lg.Settled[0].Notes, nil
	}
	return nil, domain.Errorf(domain.ErrInvalid, "no battle is fought at %s this turn", res.Square)
}

// fitResult checks a result against the battles fought on the map (B1), and spells army
// names as the map does.
func fitResult(m *domain.Map, res *domain.BattleResult) error {
	var b *domain.Battle
	fought := battle.Fought(m)
	for i := range fought {
		if fought[i].Square == res.Square {
			b = &fought[i]
		}
	}
	if b == nil {
		return domain.Errorf(domain.ErrInvalid, "no battle is fought at %s this turn", res.Square)
	}
	in := func(what, name string) (string, error) {
		for _, n := range b.Armies {
			if domain.SameName(n, name) {
				return n, nil
			}
		}
		return "", domain.Errorf(domain.ErrInvalid, "%s %q does not fight in the battle at %s (%s)", what, name, b.Square, strings.Join(b.Armies, ", "))
	}
	var err error
	if res.Winner != "" {
		if res.Winner, err = in("the winner", res.Winner); err != nil {
			return err
		}
	}
	losses := map[string]map[string]int{}
	for army, cs := range res.Losses {
		name, err := in("the army with losses", army)
		if err != nil {
			return err
		}
		ar := m.Army(name)
		for creature, k := range cs {
			if k < 0 {
				return domain.Errorf(domain.ErrInvalid, "%s cannot lose %d %s: losses are not negative", name, k, creature)
			}
			if ar.Troops != nil && ar.Troop(creature) == nil {
				return domain.Errorf(domain.ErrInvalid, "%s has no %s", name, creature)
			}
		}
		losses[name] = cs
	}
	if res.Losses != nil {
		res.Losses = losses
	}
	for _, at := range []*domain.Attempt{res.Kill, res.Capture} {
		if at == nil {
			continue
		}
		if at.By, err = in("the attacker", at.By); err != nil {
			return err
		}
		if at.Target, err = in("the target", at.Target); err != nil {
			return err
		}
	}
	if res.Leaves != nil {
		if res.Leaves.Army, err = in("the army leaving", res.Leaves.Army); err != nil {
			return err
		}
	}
	for _, sq := range []domain.Square{res.LoserTo} {
		if !sq.IsZero() && !m.Grid.Contains(sq) {
			return domain.Errorf(domain.ErrInvalid, "%s is off the map", sq)
		}
	}
	return nil
}

// mayReplaceResult refuses an assistant battle judge the replacing of a result the battle judge
// he assists entered: the head battle judge may overrule his assistant, not the other way round
// (1.3).
func mayReplaceResult(r Reader, x access, t *Turn, sq domain.Square) error {
	rs, err := r.Results(t.ID)
	if err != nil {
		return err
	}
	for _, old := range rs {
		if old.Result.Square == sq && !mayOverrule(x, old.EnteredBy) {
			return domain.Errorf(domain.ErrForbidden, "%s, whom you assist, entered the result at %s: an assistant battle judge cannot overrule him (1.3)", old.EnteredBy, sq)
		}
	}
	return nil
}
