// Reminders: before the lock, each player whose armies have no accepted order is told which;
// before the battle deadline, each controller of an army in a battle with no strategy is told
// of it (B1). A reminder names only its reader's own armies and public battles, and is made
// once per turn and reader.

package campaign

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/movement"
	"github.com/coalition-wargame/coalition/turn"
)

// Remind makes the reminders that are due in every running campaign's open turn. What this
// process has done is noted, so that a tick that finds nothing due writes nothing.
func (s *Service) Remind(ctx context.Context) error {
	var open []OpenTurn
	if err := s.store.Read(ctx, func(r Reader) (err error) {
		open, err = r.OpenTurns()
		return err
	}); err != nil {
		return err
	}
	now, lead := s.now(), s.opt.RemindBefore
	for _, o := range open {
		if o.Paused || !now.Before(o.LockAt) {
			continue
		}
		var deadline time.Time
		if err := s.store.Read(ctx, func(r Reader) error {
			t, err := r.Turn(o.CampaignID, o.Number)
			if err == nil {
				deadline = t.Deadline
			}
			return err
		}); err != nil {
			return err
		}
		phases := []struct {
			key  string
			from time.Time
			run  func(tx Tx, c *Campaign, t *Turn, m *domain.Map, members []Member) (bool, error)
		}{
			{fmt.Sprintf("strategies:%d:%d", o.CampaignID, o.Number), deadline.Add(-lead), func(tx Tx, c *Campaign, t *Turn, m *domain.Map, members []Member) (bool, error) {
				return s.remindStrategies(tx, c, t, m, members, now, lead)
			}},
			{fmt.Sprintf("orders:%d:%d", o.CampaignID, o.Number), o.LockAt.Add(-lead), func(tx Tx, c *Campaign, t *Turn, m *domain.Map, members []Member) (bool, error) {
				return true, s.remindOrders(tx, c, t, m, members, now)
			}},
		}
		for _, p := range phases {
			if now.Before(p.from) || s.noteDone(p.key) {
				continue
			}
			done, err := s.remindTurn(ctx, o, now, p.run)
			if err != nil || !done {
				s.forget(p.key)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// remindTurn runs one phase of turn o's reminders in a write transaction, on the turn's map
// with its controllers of now; it reports whether the phase is over (nothing left to fall due).
func (s *Service) remindTurn(ctx context.Context, o OpenTurn, now time.Time, run func(tx Tx, c *Campaign, t *Turn, m *domain.Map, members []Member) (bool, error)) (bool, error) {
	done := true
	err := s.store.Write(ctx, func(tx Tx) error {
		c, err := tx.Campaign(o.CampaignID)
		if err != nil || c.Status != Running {
			return err
		}
		t, err := tx.Turn(o.CampaignID, o.Number)
		if err != nil || t.Status != Open {
			return err
		}
		m, err := amended(tx, t)
		if err != nil {
			return err
		}
		if _, err := readControl(tx, c.ID, m, now, 0); err != nil {
			return err
		}
		members, err := tx.Members(c.ID)
		if err != nil {
			return err
		}
		done, err = run(tx, c, t, m, members)
		return err
	})
	if err == nil {
		s.wake()
	}
	return done, err
}

// remindOrders tells each player of his armies that have no accepted order this turn (an army
// in a battle fights, M1, and needs none).
func (s *Service) remindOrders(tx Tx, c *Campaign, t *Turn, m *domain.Map, members []Member, now time.Time) error {
	posts, err := tx.Posts(c.ID, t.Number)
	if err != nil {
		return err
	}
	var in []domain.Post
	var transfers []domain.TransferDetail
	for i := range posts {
		if posts[i].WithdrawnAt == nil {
			in = append(in, posts[i].Domain())
			transfers = append(transfers, details(&posts[i])...)
		}
	}
	orders := movement.Check(m, in, movement.Options{Lock: lockTime(t), Transfers: transfers})
	fighting := fightingArmies(m)
	for _, mem := range members {
		if !mem.Plays() {
			continue
		}
		var missing []string
		for i := range m.Armies {
			a := &m.Armies[i]
			if mayOrder(mem.Name, a) && orders.Effective[i] < 0 && !fighting[a.Name] {
				missing = append(missing, fmt.Sprintf("  %s at %s", a.Name, a.At))
			}
		}
		if len(missing) == 0 {
			continue
		}
		e := &Event{CampaignID: c.ID, Turn: t.Number, Kind: EventOrdersDue, AccountID: mem.AccountID,
			Title: fmt.Sprintf("%s: %d of your armies have no order for turn %d", c.Name, len(missing), t.Number),
			Body: fmt.Sprintf("Turn %d locks at %s. These armies of yours have no accepted order and will hold:\n%s\n",
				t.Number, turn.Stamp(t.LockAt), strings.Join(missing, "\n")),
			Dedup: fmt.Sprintf("%s:%d:%d:%d", EventOrdersDue, c.ID, t.Number, mem.AccountID)}
		if err := s.publish(tx, e); err != nil {
			return err
		}
	}
	orders.Release()
	return nil
}

// fightingArmies are the armies in a battle this turn, by name.
func fightingArmies(m *domain.Map) map[string]bool {
	out := map[string]bool{}
	for _, b := range battle.Fought(m) {
		for _, n := range b.Armies {
			out[n] = true
		}
	}
	return out
}

// remindStrategies tells each controller of an army in a battle with no strategy, once its side's
// strategy deadline is near; it reports whether every battle's reminder time has come.
func (s *Service) remindStrategies(tx Tx, c *Campaign, t *Turn, m *domain.Map, members []Member, now time.Time, lead time.Duration) (bool, error) {
	d := &deskTurn{c: c, t: t, m: m, fought: battle.Fought(m)}
	var err error
	if d.strategies, err = tx.Strategies(t.ID); err != nil {
		return false, err
	}
	if d.sanctions, err = tx.Sanctions(t.ID); err != nil {
		return false, err
	}
	account := map[string]int64{}
	for _, mem := range members {
		account[domain.NameKey(mem.Name)] = mem.AccountID
	}
	all := true
	for i := range d.fought {
		b := &d.fought[i]
		chosen := d.chosen(b)
		for _, n := range b.Armies {
			army := m.Army(n)
			if army == nil {
				continue
			}
			due := d.strategyDeadline(b, army.Side)
			if now.Before(due.Add(-lead)) {
				all = false
				continue
			}
			if _, ok := chosen[army.Name]; ok || !now.Before(due) {
				continue
			}
			others := slices.DeleteFunc(slices.Clone(b.Armies), func(x string) bool { return x == army.Name })
			for _, ctl := range army.Controllers {
				acc := account[domain.NameKey(ctl)]
				if acc == 0 {
					continue
				}
				e := &Event{CampaignID: c.ID, Turn: t.Number, Kind: EventStrategyDue, AccountID: acc,
					Title: fmt.Sprintf("%s: %s has no strategy for its battle at %s", c.Name, army.Name, b.Square),
					Body: fmt.Sprintf("Your army %s fights at %s against %s in turn %d, and no strategy has been sent for it. Strategies are due by %s (B1); without one the other side gets the full +10 (B2).\n",
						army.Name, b.Square, strings.Join(others, ", "), t.Number, turn.Stamp(due)),
					Dedup: fmt.Sprintf("%s:%d:%d:%d:%s", EventStrategyDue, c.ID, t.Number, acc, domain.NameKey(army.Name))}
				if err := s.publish(tx, e); err != nil {
					return false, err
				}
			}
		}
	}
	return all, nil
}
