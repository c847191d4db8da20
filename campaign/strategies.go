// Strategies: what an army's controller, or his contingency, sends for its battle, and the choices
// checked at once (4.1, 4.3–4.5, 5.2.3).

package campaign

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/turn"
)

// MaxStrategyText is the longest strategy text accepted, in bytes.
const MaxStrategyText = 20000

// ContingencyWindow is how long before the battle deadline a contingency may send a
// strategy for the player he stands in for (5.2.3).
const ContingencyWindow = 24 * time.Hour

// Strategy is a battle strategy as sent for one army (4.1, B1): the free text the battle
// judge reads and the structured choices the server acts on. Only the army's side and the
// battle judges ever see it.
type Strategy struct {
	ID     int64         `json:"id"`
	TurnID int64         `json:"-"`
	Square domain.Square `json:"square"`
	Army   string        `json:"army"`
	Side   domain.Side   `json:"side"`
	// Contingency is set when the army's controller's contingency sent it (5.2.3).
	Contingency bool            `json:"contingency"`
	Author      string          `json:"author"`
	Text        string          `json:"text"`
	Choices     StrategyChoices `json:"choices"`
	SubmittedAt time.Time       `json:"submitted_at"`
}

// StrategyChoices are a strategy's structured orders: a kill (4.3.2) or capture (4.5)
// attempt, running away (4.2.6), and which army of a winning pair leaves and where (4.4, B10).
type StrategyChoices struct {
	Kill    string        `json:"kill,omitempty"`
	Capture string        `json:"capture,omitempty"`
	RunAway bool          `json:"run_away,omitempty"`
	Leaves  *domain.Leave `json:"leaves,omitempty"`
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

// strategist checks that the actor may send army's strategy now, with its controllers as the
// control list stands now (maySendStrategy). It reports whether the actor sends as a
// contingency.
func (s *Service) strategist(r Reader, d *deskTurn, army *domain.Army) (bool, error) {
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
	if ok, contingency := maySendStrategy(d.x, ar, members); ok {
		return contingency, nil
	}
	return false, domain.Errorf(domain.ErrForbidden, "%s does not control %s and is not the contingency of its controller, so may not send its strategy (5.2.3, 5.4.1)", d.x.actor.Account.Name, ar.Name)
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
