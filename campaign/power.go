// Change power (5.2.2.1): exactly two players of each side may change its control list, by
// default the CP/General and one Praetor/Admiral; the CP/General, a holder and the battle judge
// hand it on. The list of holders is public.

package campaign

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// PowerHolders is how many players of a side hold the change power (5.2.2.1).
const PowerHolders = 2

// defaultHolders are a side's holders when nobody handed the power on: the CP/General and the
// first Praetor/Admiral by name, or failing them the highest ranked players, by rank then name
// (docs/READINGS.md R82). have are holders already chosen.
func (tm *team) defaultHolders(side domain.Side, have []*Member) []*Member {
	ps := slices.Clone(tm.players(side))
	slices.SortStableFunc(ps, func(a, b *Member) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), strings.Compare(domain.NameKey(a.Name), domain.NameKey(b.Name)))
	})
	out := have
	for _, p := range ps {
		if len(out) >= PowerHolders {
			break
		}
		if p.Rank != domain.Cadet && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// holders are the players of side who hold its change power now: those of the latest grant
// who still play for it, completed from the defaults.
func (tm *team) holders(side domain.Side) []*Member {
	var have []*Member
	for i := len(tm.grants) - 1; i >= 0; i-- {
		g := tm.grants[i]
		if g.Side != side {
			continue
		}
		for _, id := range g.Holders {
			if m := tm.memberByID(id); m != nil && m.Plays() && m.Side == side && !slices.Contains(have, m) {
				have = append(have, m)
			}
		}
		break
	}
	return tm.defaultHolders(side, have)
}

// holds says whether m holds side's change power.
func (tm *team) holds(m *Member, side domain.Side) bool {
	return m != nil && slices.ContainsFunc(tm.holders(side), func(h *Member) bool { return h.AccountID == m.AccountID })
}

// general is the CP/General of side, or nil.
func (tm *team) general(side domain.Side) *Member {
	for _, p := range tm.players(side) {
		if p.Rank == domain.General {
			return p
		}
	}
	return nil
}

func names(ms []*Member) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Name
	}
	return out
}

// PowerView is who may change each side's control list now, and how the power went from hand
// to hand.
type PowerView struct {
	Holders map[domain.Side][]string `json:"holders"`
	// Authorized are the people a judge authorized in an emergency (5.2.2.2), by side.
	Authorized map[domain.Side][]string `json:"authorized"`
	History    []PowerGrant             `json:"history"`
}

func (tm *team) powerView() *PowerView {
	v := &PowerView{Holders: map[domain.Side][]string{}, Authorized: map[domain.Side][]string{}, History: []PowerGrant{}}
	for _, side := range []domain.Side{domain.Coalition, domain.Phyrexia} {
		v.Holders[side] = nonNil(names(tm.holders(side)))
		v.Authorized[side] = nonNil(names(tm.authorized(side)))
	}
	for _, g := range tm.grants {
		g.Names = []string{}
		for _, id := range g.Holders {
			if m := tm.memberByID(id); m != nil {
				g.Names = append(g.Names, m.Name)
			}
		}
		v.History = append(v.History, g)
	}
	return v
}

// Power shows who holds each side's change power; the list is public (5.2.2.1).
func (s *Service) Power(ctx context.Context, id int64) (*PowerView, error) {
	var out *PowerView
	err := s.store.Read(ctx, func(r Reader) error {
		tm, err := loadTeam(r, id, s.now())
		if err != nil {
			return err
		}
		out = tm.powerView()
		return nil
	})
	return out, err
}

// PowerRequest hands a side's change power from one holder to another player (5.2.2.1); a
// holder who hands on his own may leave From out.
type PowerRequest struct {
	Side   domain.Side `json:"side"`
	From   string      `json:"from"`
	To     string      `json:"to"`
	Reason string      `json:"reason"`
}

// HandPower moves a side's change power from one holder to another of its players (5.2.2.1):
// the side's CP/General may take it from either holder (and so get it back), a holder hands on
// his own, and the battle judge may do either.
func (s *Service) HandPower(ctx context.Context, a Actor, id int64, req PowerRequest) (*PowerView, error) {
	var out *PowerView
	err := s.store.Write(ctx, func(tx Tx) error {
		_, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.needLogin(); err != nil {
			return err
		}
		if !req.Side.IsTeam() {
			return domain.Errorf(domain.ErrInvalid, "%q is not a side: coalition or phyrexia", req.Side)
		}
		now := s.now()
		tm, err := loadTeam(tx, id, now)
		if err != nil {
			return err
		}
		me := tm.memberByID(x.actor.Account.ID)
		from := strings.TrimSpace(req.From)
		if from == "" && tm.holds(me, req.Side) {
			from = me.Name
		}
		giver := tm.member(from)
		if giver == nil || !tm.holds(giver, req.Side) {
			return domain.Errorf(domain.ErrInvalid, "%q does not hold the change power of %s: its holders are %s (5.2.2.1)", from, req.Side.Title(), strings.Join(names(tm.holders(req.Side)), " and "))
		}
		if err := x.need("hand on the change power of "+req.Side.Title()+" (its CP/General, a holder for his own, or the battle judge, 5.2.2.1)",
			mayHandPower(x, tm.general(req.Side), giver)); err != nil {
			return err
		}
		to := tm.member(req.To)
		switch {
		case to == nil || !to.Plays() || to.Side != req.Side:
			return domain.Errorf(domain.ErrInvalid, "%q is not a player of %s: the change power goes to one of its players (5.2.2.1)", req.To, req.Side.Title())
		case tm.holds(to, req.Side):
			return domain.Errorf(domain.ErrConflict, "%s already holds the change power of %s: exactly two players hold it (5.2.2.1)", to.Name, req.Side.Title())
		}
		var ids []int64
		for _, h := range tm.holders(req.Side) {
			if h.AccountID == giver.AccountID {
				h = to
			}
			ids = append(ids, h.AccountID)
		}
		reason := strings.TrimSpace(req.Reason)
		if err := checkText("reason", reason, 500, false); err != nil {
			return err
		}
		if err := tx.AddPowerGrant(&PowerGrant{CampaignID: id, Side: req.Side, Holders: ids, At: now, By: a.Name(), Reason: reason}); err != nil {
			return err
		}
		if tm, err = loadTeam(tx, id, now); err != nil {
			return err
		}
		out = tm.powerView()
		return s.audit(tx, id, a, "power.hand", "the change power of %s goes from %s to %s (5.2.2.1): %s", req.Side.Title(), giver.Name, to.Name, reason)
	})
	return out, err
}
