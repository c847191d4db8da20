package campaign

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/turn"
)

// MaxStrategyText is the longest strategy text accepted, in bytes.
const MaxStrategyText = 20000

// ContingencyWindow is how long before the battle deadline a contingency may send a
// strategy for the player he stands in for (5.2.3).
const ContingencyWindow = 24 * time.Hour

// SanctionExtension is the strategy extension a side gets when one of its armies in a battle
// is sanctioned in the last 24 hours before the battle deadline (5.4.1).
const SanctionExtension = 24 * time.Hour

// ServerJudge is the name the server enters results under when it settles a battle itself.
const ServerJudge = "server"

// battleJudge reports whether the actor runs the battle desk: the campaign's battle judges
// and the server's admins.
func (x access) battleJudge() bool { return x.has(BattleJudge) || x.admin() }

// sees reports whether the actor may read the strategies of side: its own side's players,
// the mercenary judge for the mercenaries, and the battle judges (B1).
func (x access) sees(side domain.Side) bool {
	return x.battleJudge() || (side != "" && x.side() == side)
}

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
}

func loadDesk(r Reader, a Actor, id int64, n int) (*deskTurn, error) {
	c, x, t, err := turnAccess(r, a, id, n)
	if err != nil {
		return nil, err
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
		if !d.x.sees(v.Sides[i].Side) {
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
	if d.x.battleJudge() {
		v.Proposal = p
	}
	if d.t.Status == Locked || d.x.judge() {
		v.Result = d.result(b.Square)
		if p != nil {
			v.Text = p.Text
		}
	}
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

// StrategyRequest is a strategy as a controller sends it.
type StrategyRequest struct {
	Army string `json:"army"`
	Text string `json:"text"`
	StrategyChoices
}

// SubmitStrategy records an army's battle strategy for the battle it fights in the open turn
// (4.1, B1), replacing the sender's earlier one. The army's controller sends it before his
// side's strategy deadline; his contingency may in the last 24 hours before it (5.2.3), and
// the controller's strategy counts over the contingency's. The choices are checked now: a kill
// needs 500 alive in the army's top slot (4.3.2), a capture targets only a Lieutenant/Centurion
// or Lt Commander/CPL army (4.5), and only an army of a two-army side names the leaver (4.4).
func (s *Service) SubmitStrategy(ctx context.Context, a Actor, id int64, n int, sq domain.Square, req StrategyRequest) (*Strategy, error) {
	var out *Strategy
	err := s.store.Write(ctx, func(tx Tx) error {
		d, err := loadDesk(tx, a, id, n)
		if err != nil {
			return err
		}
		if err := d.x.needLogin(); err != nil {
			return err
		}
		if err := d.open(); err != nil {
			return err
		}
		if d.c.Status == Paused {
			return domain.Errorf(domain.ErrConflict, "%s is paused (%s): no strategies are taken until a judge resumes it", d.c.Name, d.c.PauseReason)
		}
		b, err := d.battle(sq)
		if err != nil {
			return err
		}
		army := d.m.Army(strings.TrimSpace(req.Army))
		if army == nil || !slices.Contains(b.Armies, army.Name) {
			return domain.Errorf(domain.ErrInvalid, "%q does not fight in the battle at %s (%s)", req.Army, sq, strings.Join(b.Armies, ", "))
		}
		contingency, err := s.strategist(tx, d, army)
		if err != nil {
			return err
		}
		now := s.now()
		due := d.strategyDeadline(b, army.Side)
		if now.After(due) {
			return domain.Errorf(domain.ErrConflict, "the strategies for the battle at %s were due at %s (B1)", sq, turn.Stamp(due))
		}
		if contingency && now.Before(due.Add(-ContingencyWindow)) {
			return domain.Errorf(domain.ErrForbidden, "a contingency may send strategies only in the last 24 hours before the deadline, from %s (5.2.3)", turn.Stamp(due.Add(-ContingencyWindow)))
		}
		text := strings.TrimSpace(req.Text)
		switch {
		case text == "":
			return domain.Errorf(domain.ErrInvalid, "the strategy is empty: write the orders for the battle (4.1.2)")
		case len(text) > MaxStrategyText:
			return domain.Errorf(domain.ErrInvalid, "the strategy is %d bytes long: at most %d", len(text), MaxStrategyText)
		case !utf8.ValidString(text):
			return domain.Errorf(domain.ErrInvalid, "the strategy is not valid UTF-8 text")
		}
		ch, err := checkChoices(d.m, b, army, req.StrategyChoices)
		if err != nil {
			return err
		}
		st := &Strategy{TurnID: d.t.ID, Square: sq, Army: army.Name, Side: army.Side, Contingency: contingency, Author: a.Name(), Text: text, Choices: ch, SubmittedAt: now}
		if err := tx.PutStrategy(st); err != nil {
			return err
		}
		out = st
		by := "its controller"
		if contingency {
			by = "a contingency"
		}
		return s.audit(tx, id, a, "strategy.submit", "strategy for %s in the battle at %s, turn %d, sent by %s", army.Name, sq, n, by)
	})
	return out, err
}

// strategist checks that the actor may send army's strategy now: its controller (the
// mercenary judge for an uncontrolled mercenary), or the contingency of one of its
// controllers (5.2.3). It reports whether the actor sends as a contingency.
func (s *Service) strategist(r Reader, d *deskTurn, army *domain.Army) (bool, error) {
	x := d.x
	entries, err := r.Control(d.c.ID)
	if err != nil {
		return false, err
	}
	members, err := r.Members(d.c.ID)
	if err != nil {
		return false, err
	}
	m := d.m.Clone()
	applyControl(m, entries, members, s.now(), 0)
	ar := m.Army(army.Name)
	me := x.actor.Account.Name
	switch {
	case ar.ControlledBy(me):
		return false, nil
	case ar.Side == domain.Mercenary && len(ar.Controllers) == 0 && x.has(MercenaryJudge):
		return false, nil
	}
	for _, c := range ar.Controllers {
		for _, mem := range members {
			if domain.SameName(mem.Name, c) && mem.Contingency != "" && domain.SameName(mem.Contingency, me) {
				return true, nil
			}
		}
	}
	return false, domain.Errorf(domain.ErrForbidden, "%s does not control %s and is not the contingency of its controller, so may not send its strategy (5.2.3, 5.4.1)", me, ar.Name)
}

// checkChoices checks a strategy's structured choices against the battle and spells army
// names as the map does.
func checkChoices(m *domain.Map, b *domain.Battle, army *domain.Army, ch StrategyChoices) (StrategyChoices, error) {
	in := func(name string) *domain.Army {
		a := m.Army(strings.TrimSpace(name))
		if a == nil || !slices.Contains(b.Armies, a.Name) {
			return nil
		}
		return a
	}
	enemy := func(what, name string) (*domain.Army, error) {
		t := in(name)
		if t == nil || !domain.Enemy(t.Side, army.Side) {
			return nil, domain.Errorf(domain.ErrInvalid, "the %s names %q, which is not an enemy army in the battle at %s", what, name, b.Square)
		}
		return t, nil
	}
	out := StrategyChoices{RunAway: ch.RunAway}
	if ch.Kill != "" && ch.Capture != "" {
		return out, domain.Errorf(domain.ErrInvalid, "a strategy goes for a kill or a capture, not both (4.5)")
	}
	if ch.Kill != "" {
		t, err := enemy("kill", ch.Kill)
		if err != nil {
			return out, err
		}
		if _, top := army.TopSlot(); top < 500 {
			return out, domain.Errorf(domain.ErrInvalid, "%s cannot go for a kill: it has %d troops alive in its top slot (its largest creatures) and needs 500 to risk (4.3.2, 4.5)", army.Name, top)
		}
		out.Kill = t.Name
	}
	if ch.Capture != "" {
		t, err := enemy("capture", ch.Capture)
		if err != nil {
			return out, err
		}
		if !t.Rank.Lowest() {
			return out, domain.Errorf(domain.ErrInvalid, "%s is %s army: only Lieutenant/Centurion and Lt Commander/CPL armies can be captured (4.5)", t.Name, t.Rank.Name(t.Side))
		}
		out.Capture = t.Name
	}
	if l := ch.Leaves; l != nil {
		la := in(l.Army)
		if la == nil || la.Side != army.Side {
			return out, domain.Errorf(domain.ErrInvalid, "the army to leave, %q, is not an army of your side in the battle at %s (4.4)", l.Army, b.Square)
		}
		pair := 0
		for _, n := range b.Armies {
			if m.Army(n).Side == army.Side {
				pair++
			}
		}
		if pair != 2 {
			return out, domain.Errorf(domain.ErrInvalid, "only a side of two armies names the army that leaves if it wins (4.4)")
		}
		if !l.To.IsZero() && (!m.Grid.Contains(l.To) || !domain.Adjacent(l.To, b.Square)) {
			return out, domain.Errorf(domain.ErrInvalid, "%s is not next to the battle at %s: the leaver retreats to a neighbouring square (4.4)", l.To, b.Square)
		}
		out.Leaves = &domain.Leave{Army: la.Name, To: l.To}
	}
	return out, nil
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
		if err := d.x.need("propose battle results (battle judges only)", d.x.battleJudge()); err != nil {
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
		if err := d.x.need("confirm battle results (battle judges only)", d.x.battleJudge()); err != nil {
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

// campaignFormulas compiles the latest version of each of a campaign's formulas, the shipped
// default where a battle judge has not edited it.
func campaignFormulas(r Reader, id int64) (*battle.Formulas, error) {
	fvs, err := r.Formulas(id)
	if err != nil {
		return nil, err
	}
	if len(fvs) == 0 {
		return battle.Defaults(), nil
	}
	latest := map[string]battle.Formula{}
	for _, fv := range fvs {
		if f, ok := latest[fv.Name]; !ok || fv.Version > f.Version {
			latest[fv.Name] = fv.Formula()
		}
	}
	fs := make([]battle.Formula, 0, len(latest))
	for _, f := range latest {
		fs = append(fs, f)
	}
	slices.SortFunc(fs, func(a, b battle.Formula) int { return cmp.Compare(a.Name, b.Name) })
	return battle.CompileFormulas(fs)
}

// FormulaView is one of a campaign's battle formulas as the battle judges edit it.
type FormulaView struct {
	Name    string `json:"name"`
	Version int    `json:"version"`
	Text    string `json:"text"`
	// By and At say who saved this version and when; empty for a shipped default.
	By string     `json:"by,omitempty"`
	At *time.Time `json:"at,omitempty"`
	// Variables are the names the formula may use.
	Variables []string `json:"variables"`
}

// FormulasView is a campaign's formulas as they stand and every version saved.
type FormulasView struct {
	Formulas []FormulaView    `json:"formulas"`
	History  []FormulaVersion `json:"history"`
}

func formulasView(fvs []FormulaVersion) *FormulasView {
	out := &FormulasView{Formulas: []FormulaView{}, History: nonNil(fvs)}
	for _, f := range battle.DefaultFormulas() {
		v := FormulaView{Name: f.Name, Version: f.Version, Text: f.Text, Variables: battle.FormulaVariables(f.Name)}
		for _, fv := range fvs {
			if fv.Name == f.Name && fv.Version >= v.Version {
				at := fv.At
				v.Version, v.Text, v.By, v.At = fv.Version, fv.Text, fv.By, &at
			}
		}
		out.Formulas = append(out.Formulas, v)
	}
	return out
}

// Formulas shows a campaign's battle formulas (B3, B7, 4.3.3, 4.5): battle judges only, never
// players.
func (s *Service) Formulas(ctx context.Context, a Actor, id int64) (*FormulasView, error) {
	var out *FormulasView
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		if err := x.need("read the battle formulas (battle judges only)", x.battleJudge()); err != nil {
			return err
		}
		fvs, err := r.Formulas(id)
		out = formulasView(fvs)
		return err
	})
	return out, err
}

// SetFormula saves a new version of one of a campaign's battle formulas (battle judges only).
// The formula is compiled first: one that does not compile is refused with the reason and the
// variables it may use.
func (s *Service) SetFormula(ctx context.Context, a Actor, id int64, name, text string) (*FormulasView, error) {
	var out *FormulasView
	err := s.store.Write(ctx, func(tx Tx) error {
		c, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.need("edit the battle formulas (battle judges only)", x.battleJudge()); err != nil {
			return err
		}
		if c.Status == Finished {
			return domain.Errorf(domain.ErrConflict, "%s is finished", c.Name)
		}
		fvs, err := tx.Formulas(id)
		if err != nil {
			return err
		}
		version := 1
		for _, fv := range fvs {
			if fv.Name == name {
				version = max(version, fv.Version)
			}
		}
		f := &FormulaVersion{CampaignID: id, Name: name, Version: version + 1, Text: strings.TrimSpace(text), By: a.Name(), At: s.now()}
		if err := battle.CheckFormula(f.Formula()); err != nil {
			return err
		}
		if err := tx.AddFormula(f); err != nil {
			return err
		}
		out = formulasView(append(fvs, *f))
		return s.audit(tx, id, a, "formula.set", "saved version %d of the %s formula", f.Version, name)
	})
	return out, err
}

// DiceView is what a turn publishes about its randomness (B6), in the form
// `coalition verify-dice` reads: the commitment when the turn opens; the seed and every roll
// made for its battles and sanctions once it is locked.
type DiceView struct {
	Turn       int           `json:"turn"`
	Commitment string        `json:"commitment"`
	Seed       string        `json:"seed,omitempty"`
	Rolls      []battle.Roll `json:"rolls"`
}

// rolls lists the rolls of a turn's battles (by square) and sanctions (in order).
func (d *deskTurn) rolls() []battle.Roll {
	ps := slices.Clone(d.proposals)
	slices.SortFunc(ps, func(a, b ProposalRecord) int {
		return cmp.Or(cmp.Compare(a.Square.Col, b.Square.Col), cmp.Compare(a.Square.Row, b.Square.Row))
	})
	out := []battle.Roll{}
	for _, p := range ps {
		out = append(out, p.Proposal.Rolls...)
	}
	for _, s := range d.sanctions {
		out = append(out, s.Roll)
	}
	return out
}

// Dice publishes turn n's randomness: anyone may read it. The seed and the rolls come with the
// lock; before it only the commitment is shown.
func (s *Service) Dice(ctx context.Context, a Actor, id int64, n int) (*DiceView, error) {
	var out *DiceView
	err := s.store.Read(ctx, func(r Reader) error {
		d, err := loadDesk(r, a, id, n)
		if err != nil {
			return err
		}
		out = &DiceView{Turn: n, Commitment: d.t.Commitment, Rolls: []battle.Roll{}}
		if d.t.Status == Locked {
			out.Seed, out.Rolls = d.t.Seed.String(), d.rolls()
		}
		return nil
	})
	return out, err
}

// DiceCheck is the server's own check of a locked turn's publication: the seed against the
// commitment, every roll re-derived from the seed (B6).
type DiceCheck struct {
	Turn       int               `json:"turn"`
	Commitment string            `json:"commitment"`
	Seed       string            `json:"seed"`
	Rolls      int               `json:"rolls"`
	OK         bool              `json:"ok"`
	Mismatches []battle.Mismatch `json:"mismatches"`
	Detail     string            `json:"detail"`
}

// VerifyDice re-rolls every published die of locked turn n from its revealed seed and checks
// the seed against the commitment published when the turn opened; anyone may ask.
func (s *Service) VerifyDice(ctx context.Context, a Actor, id int64, n int) (*DiceCheck, error) {
	v, err := s.Dice(ctx, a, id, n)
	if err != nil {
		return nil, err
	}
	if v.Seed == "" {
		return nil, domain.Errorf(domain.ErrNotFound, "turn %d is not locked yet: its seed is revealed at the lock", n)
	}
	pub := battle.Publication{Commitment: v.Commitment, Seed: v.Seed, Rolls: v.Rolls}
	ms, err := pub.Check()
	if err != nil {
		return nil, err
	}
	out := &DiceCheck{Turn: n, Commitment: v.Commitment, Seed: v.Seed, Rolls: len(v.Rolls), OK: len(ms) == 0, Mismatches: nonNil(ms)}
	if out.OK {
		out.Detail = fmt.Sprintf("the seed's SHA-256 is the commitment, and the seed gives every one of the %d rolls", len(v.Rolls))
	} else {
		out.Detail = fmt.Sprintf("%d of the publication's checks fail: %s", len(ms), ms[0])
	}
	return out, nil
}

// SanctionRequest lays a sanction on an army (5.4.1).
type SanctionRequest struct {
	Army     string `json:"army"`
	Severity int    `json:"severity"`
	Reason   string `json:"reason"`
}

// MaxSeverity is the highest severity factor a sanction may have.
const MaxSeverity = 10

// Sanction lays a sanction on an army for an order or strategy sent by someone who does not
// control it (5.4.1; battle judges only): severity × d20 × (100, 50, 25, 10) troops from slots
// 1–4, the d20 drawn from the turn's seed and published with its dice. It applies at once to
// the open turn's map, so the army fights its battle with the reduced numbers; when the army
// is in a battle and the sanction falls in the last 24 hours before the deadline, its side's
// strategies are due 24 hours later.
func (s *Service) Sanction(ctx context.Context, a Actor, id int64, n int, req SanctionRequest) (*Sanction, error) {
	var out *Sanction
	err := s.store.Write(ctx, func(tx Tx) error {
		d, err := loadDesk(tx, a, id, n)
		if err != nil {
			return err
		}
		if err := d.x.need("sanction an army (battle judges only)", d.x.battleJudge()); err != nil {
			return err
		}
		if err := d.open(); err != nil {
			return err
		}
		if strings.TrimSpace(req.Reason) == "" {
			return domain.Errorf(domain.ErrInvalid, "say why: a reason is recorded with every sanction")
		}
		if req.Severity < 1 || req.Severity > MaxSeverity {
			return domain.Errorf(domain.ErrInvalid, "the severity must be 1–%d, not %d", MaxSeverity, req.Severity)
		}
		army := d.m.Army(strings.TrimSpace(req.Army))
		if army == nil {
			return domain.Errorf(domain.ErrNotFound, "there is no army named %q on the map", req.Army)
		}
		if army.Troops == nil {
			return domain.Errorf(domain.ErrInvalid, "%s has no troop list, so it cannot lose troops", army.Name)
		}
		k := 1
		for _, sn := range d.sanctions {
			if domain.SameName(sn.Army, army.Name) {
				k++
			}
		}
		loss, err := battle.Sanction(army.Name, k, req.Severity, d.t.Seed.Draws())
		if err != nil {
			return err
		}
		sn := &Sanction{TurnID: d.t.ID, Army: army.Name, K: k, Severity: req.Severity, Roll: loss.Roll, Losses: loss.Losses(army),
			Reason: strings.TrimSpace(req.Reason), By: a.Name(), At: s.now()}
		if err := tx.AddSanction(sn); err != nil {
			return err
		}
		if err := bumpMap(tx, id); err != nil {
			return err
		}
		out = sn
		lost := 0
		for _, v := range sn.Losses {
			lost += v
		}
		return s.audit(tx, id, a, "army.sanction", "sanction %d on %s in turn %d, severity %d: %d troops lost (%s)", k, army.Name, n, req.Severity, lost, sn.Reason)
	})
	return out, err
}

// Sanctions lists the sanctions laid in turn n: their losses show on the map, so anyone may
// read them.
func (s *Service) Sanctions(ctx context.Context, a Actor, id int64, n int) ([]Sanction, error) {
	var out []Sanction
	err := s.store.Read(ctx, func(r Reader) error {
		_, _, t, err := turnAccess(r, a, id, n)
		if err != nil {
			return err
		}
		out, err = r.Sanctions(t.ID)
		return err
	})
	return nonNil(out), err
}
