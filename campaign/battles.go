// The battle desk's view of a turn: the battles fought, each side's strategy deadline, and what
// each caller may see of them (B1, 5.4.1).

package campaign

import (
	"context"
	"slices"
	"time"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/domain"
)

// ServerJudge is the name the server enters results under when it settles a battle itself.
const ServerJudge = "server"

// BattlesView is a turn's battles as the caller may see them.
type BattlesView struct {
	Turn     int          `json:"turn"`
	Status   TurnStatus   `json:"status"`
	Deadline time.Time    `json:"deadline"`
	Battles  []BattleView `json:"battles"`
}

// BattleView is one battle of a turn: who fights, each side's strategy deadline, and what the
// caller may see of its strategies, proposal and result.
type BattleView struct {
	Square   domain.Square     `json:"square"`
	Armies   []string          `json:"armies"`
	Kind     domain.BattleKind `json:"kind"`
	Attacker string            `json:"attacker,omitempty"`
	Sides    []BattleSide      `json:"sides"`
	// Strategies are those the caller may read: its own side's, or every one for a battle judge.
	Strategies []Strategy `json:"strategies"`
	// Proposal is the server's proposal with its bonuses and formula values: battle judges only.
	Proposal *ProposalRecord `json:"proposal,omitempty"`
	// Result is the confirmed result: judges before the lock, everyone after.
	Result *domain.BattleResult `json:"result,omitempty"`
	// Text is the result text the judge published: everyone after the lock.
	Text string `json:"text,omitempty"`
	// Setting is where the battle is fought: the square's terrain, its weather and the
	// description of the base or portal on it (4.1.2.4, 4.1.2.5; weather.go).
	Setting *Setting `json:"setting,omitempty"`
}

// BattleSide is one side of a battle.
type BattleSide struct {
	Side   domain.Side `json:"side"`
	Armies []string    `json:"armies"`
	// StrategyDeadline is when the side's strategies are due: the battle deadline, 24 hours
	// later when one of its armies was sanctioned in the last 24 hours before it (5.4.1).
	StrategyDeadline time.Time `json:"strategy_deadline"`
	// Sent names the side's armies whose strategy is in; shown to the side and the battle
	// judges only.
	Sent []string `json:"sent,omitempty"`
}

// deskTurn is what the battle desk reads of one turn.
type deskTurn struct {
	c          *Campaign
	t          *Turn
	x          access
	m          *domain.Map
	fought     []domain.Battle
	strategies []Strategy
	proposals  []ProposalRecord
	sanctions  []Sanction
	results    []Result
	// weather is the seed the battles' weather is drawn from (weather.go)
	weather domain.Seed
}

// loadDesk reads turn n's battle desk for an actor who may see its battles.
func loadDesk(r Reader, a Actor, id int64, n int) (*deskTurn, error) {
	c, x, t, err := turnAccess(r, a, id, n)
	if err != nil {
		return nil, err
	}
	if !maySeeBattles(x) {
		return nil, x.refuse("see the battles")
	}
	d := &deskTurn{c: c, t: t, x: x}
	if d.m, err = amended(r, t); err != nil {
		return nil, err
	}
	d.fought = battle.Fought(d.m)
	if d.strategies, err = r.Strategies(t.ID); err != nil {
		return nil, err
	}
	if d.proposals, err = r.Proposals(t.ID); err != nil {
		return nil, err
	}
	if d.sanctions, err = r.Sanctions(t.ID); err != nil {
		return nil, err
	}
	if d.results, err = r.Results(t.ID); err != nil {
		return nil, err
	}
	if d.weather, err = weatherSeed(r, t); err != nil {
		return nil, err
	}
	return d, nil
}

// battle returns the battle fought on square sq this turn.
func (d *deskTurn) battle(sq domain.Square) (*domain.Battle, error) {
	for i := range d.fought {
		if d.fought[i].Square == sq {
			return &d.fought[i], nil
		}
	}
	return nil, domain.Errorf(domain.ErrNotFound, "no battle is fought at %s in turn %d", sq, d.t.Number)
}

// open checks that the turn still takes the desk's work: the latest turn, open, in a campaign
// that is not finished.
func (d *deskTurn) open() error {
	if d.c.Status == Finished {
		return domain.Errorf(domain.ErrConflict, "%s is finished", d.c.Name)
	}
	if d.t.Status != Open {
		return domain.Errorf(domain.ErrConflict, "turn %d is locked: its battles are settled", d.t.Number)
	}
	return nil
}

// sides splits a battle's armies into its two sides, in the order they are first named.
func (d *deskTurn) sides(b *domain.Battle) []BattleSide {
	var out []BattleSide
	for _, n := range b.Armies {
		a := d.m.Army(n)
		if a == nil {
			continue
		}
		k := slices.IndexFunc(out, func(s BattleSide) bool { return s.Side == a.Side })
		if k < 0 {
			out = append(out, BattleSide{Side: a.Side})
			k = len(out) - 1
		}
		out[k].Armies = append(out[k].Armies, a.Name)
	}
	for i := range out {
		out[i].StrategyDeadline = d.strategyDeadline(b, out[i].Side)
	}
	return out
}

// strategyDeadline is when side's strategies for battle b are due (B1, 5.4.1).
func (d *deskTurn) strategyDeadline(b *domain.Battle, side domain.Side) time.Time {
	due := d.t.Deadline
	for _, s := range d.sanctions {
		a := d.m.Army(s.Army)
		if a == nil || a.Side != side || !slices.ContainsFunc(b.Armies, func(n string) bool { return domain.SameName(n, a.Name) }) {
			continue
		}
		if !s.At.Before(d.t.Deadline.Add(-SanctionExtension)) {
			return d.t.Deadline.Add(SanctionExtension)
		}
	}
	return due
}

// chosen is the strategy that counts for each army of battle b: the controller's over the
// contingency's (5.2.3).
func (d *deskTurn) chosen(b *domain.Battle) map[string]*Strategy {
	out := map[string]*Strategy{}
	for i := range d.strategies {
		s := &d.strategies[i]
		if s.Square != b.Square || !slices.Contains(b.Armies, s.Army) {
			continue
		}
		if prev, ok := out[s.Army]; !ok || (prev.Contingency && !s.Contingency) {
			out[s.Army] = s
		}
	}
	return out
}

func (d *deskTurn) proposal(sq domain.Square) *ProposalRecord {
	for i := range d.proposals {
		if d.proposals[i].Square == sq {
			return &d.proposals[i]
		}
	}
	return nil
}

func (d *deskTurn) result(sq domain.Square) *domain.BattleResult {
	for i := range d.results {
		if d.results[i].Result.Square == sq {
			return &d.results[i].Result
		}
	}
	return nil
}

func (d *deskTurn) view(b *domain.Battle) BattleView {
	v := BattleView{Square: b.Square, Armies: b.Armies, Kind: b.Kind, Attacker: b.Attacker, Sides: d.sides(b), Strategies: []Strategy{}}
	for i := range v.Sides {
		if !maySeeStrategies(d.x, v.Sides[i].Side) {
			continue
		}
		for _, s := range d.strategies {
			if s.Square == b.Square && slices.Contains(v.Sides[i].Armies, s.Army) {
				v.Strategies = append(v.Strategies, s)
				if !slices.Contains(v.Sides[i].Sent, s.Army) {
					v.Sides[i].Sent = append(v.Sides[i].Sent, s.Army)
				}
			}
		}
	}
	p := d.proposal(b.Square)
	if maySeeProposal(d.x) {
		v.Proposal = p
	}
	if maySeeBattleResult(d.x, d.t) {
		v.Result = d.result(b.Square)
		if p != nil {
			v.Text = p.Text
		}
	}
	v.Setting = d.setting(b)
	return v
}

// Battles lists the battles fought in turn n with what the actor may see of each: anyone sees
// who fights and the deadlines; a side sees its own strategies; battle judges see every
// strategy and the proposals; everyone sees the results once the turn is locked.
func (s *Service) Battles(ctx context.Context, a Actor, id int64, n int) (*BattlesView, error) {
	var out *BattlesView
	err := s.store.Read(ctx, func(r Reader) error {
		d, err := loadDesk(r, a, id, n)
		if err != nil {
			return err
		}
		out = &BattlesView{Turn: n, Status: d.t.Status, Deadline: d.t.Deadline, Battles: []BattleView{}}
		for i := range d.fought {
			out.Battles = append(out.Battles, d.view(&d.fought[i]))
		}
		return nil
	})
	return out, err
}

// Battle shows one battle of turn n as Battles does.
func (s *Service) Battle(ctx context.Context, a Actor, id int64, n int, sq domain.Square) (*BattleView, error) {
	var out *BattleView
	err := s.store.Read(ctx, func(r Reader) error {
		d, err := loadDesk(r, a, id, n)
		if err != nil {
			return err
		}
		b, err := d.battle(sq)
		if err != nil {
			return err
		}
		v := d.view(b)
		out = &v
		return nil
	})
	return out, err
}
