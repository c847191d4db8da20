package scenario

import (
	"context"
	"fmt"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/mercenary"
	"github.com/coalition-wargame/coalition/turn"
)

// Outcome is what `coalition adjudicate` prints: one lock report per turn.
type Outcome struct {
	Turns []*turn.Report `json:"turns"`
}

// Run adjudicates every turn of the scenario through the lock pipeline, each turn with the
// seed derived from the scenario's seed and the turn's index.
func (s *Scenario) Run() (*Outcome, error) { return s.RunContext(context.Background()) }

// RunContext runs the scenario as Run does, stopping between turns when ctx is done.
func (s *Scenario) RunContext(ctx context.Context) (*Outcome, error) {
	m := s.Map
	res := &Outcome{Turns: []*turn.Report{}}
	history := s.Mercenary.History
	for i := range s.Turns {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		next, rep, err := turn.Run(m, s.Input(i, history))
		if err != nil {
			return nil, fmt.Errorf("turn %d: %w", i+1, err)
		}
		res.Turns = append(res.Turns, rep)
		history = append(history, turn.History(rep)...)
		m = next
	}
	return res, nil
}

// Input is the lock's input of turn i (from 0): its seed, posts, lock time, transfer details,
// results and after-lock edit, and with the mercenary AI on its mode, creature pool and
// history (the scenario's own, then that of the turns before i, as given).
func (s *Scenario) Input(i int, history []mercenary.Engagement) turn.Input {
	t := s.Turns[i]
	in := turn.Input{Seed: domain.ScenarioSeed(s.File.Seed, i), Posts: t.Posts, Lock: t.Lock, Transfers: t.Transfers, Results: t.Results, Edit: t.Edit}
	if s.Mercenary.Mode.On() {
		in.MercenaryAI, in.Creatures, in.MercenaryHistory = s.Mercenary.Mode, s.Mercenary.creatures(), history
	}
	return in
}
