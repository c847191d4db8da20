// What an actor is in one campaign: his account, his membership and the side whose private
// details he shares; policy.go decides what that lets him do.

package campaign

import (
	"context"
	"errors"

	"github.com/coalition-wargame/coalition/domain"
)

// access is what an actor is in one campaign.
type access struct {
	actor  Actor
	member *Member
}

func (x access) admin() bool { return x.actor.Account != nil && x.actor.Account.Admin }

func (x access) has(r Role) bool { return x.member.Has(r) }

// side is the team whose private details the actor may see ("" for none).
func (x access) side() domain.Side { return sideOf(x.member) }

// sideOf is the team whose private details a member shares: his own as a player, the
// mercenaries' as their judge, none otherwise ("").
func sideOf(m *Member) domain.Side {
	switch {
	case m.Plays():
		return m.Side
	case m.Has(MercenaryJudge):
		return domain.Mercenary
	}
	return ""
}

func (x access) needLogin() error {
	if x.actor.Account == nil {
		return domain.Errorf(domain.ErrUnauthorized, "log in first: this needs an account")
	}
	return nil
}

// refuse is the answer to an actor who may not do what: log in first, or forbidden.
func (x access) refuse(what string) error { return x.need(what, false) }

// need is nil for a logged-in actor who may (ok) do what, else what refuse says.
func (x access) need(what string, ok bool) error {
	if err := x.needLogin(); err != nil {
		return err
	}
	if !ok {
		return domain.Errorf(domain.ErrForbidden, "%s may not %s", x.actor.Name(), what)
	}
	return nil
}

// campaignAccess loads a campaign and the actor's membership in it.
func campaignAccess(r Reader, a Actor, id int64) (*Campaign, access, error) {
	c, err := r.Campaign(id)
	if err != nil {
		return nil, access{}, err
	}
	x := access{actor: a}
	if a.Account != nil {
		m, err := r.Member(id, a.Account.ID)
		switch {
		case err == nil:
			x.member = m
		case !errors.Is(err, domain.ErrNotFound):
			return nil, x, err
		}
	}
	return c, x, nil
}

// turnAccess is campaignAccess for turn n of the campaign, with the turn.
func turnAccess(r Reader, a Actor, id int64, n int) (*Campaign, access, *Turn, error) {
	c, x, err := campaignAccess(r, a, id)
	if err != nil {
		return nil, x, nil, err
	}
	t, err := r.Turn(id, n)
	if err != nil {
		return nil, x, nil, err
	}
	return c, x, t, nil
}

// Class says what part of a campaign the actor may see: "judge", "coalition", "phyrexia",
// "mercenary" or "public". Views of the map differ only by class.
func (s *Service) Class(ctx context.Context, a Actor, campaign int64) (string, error) {
	var class string
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, err := campaignAccess(r, a, campaign)
		class = viewClass(x)
		return err
	})
	return class, err
}
