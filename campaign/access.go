// What an actor is in one campaign: his membership, side and the class of what he may see.

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

// judge reports whether the actor may see everything of the campaign: its judges and the
// server's admins.
func (x access) judge() bool { return x.member.Judge() || x.admin() }

func (x access) has(r Role) bool { return x.member.Has(r) }

// side is the team whose private details the actor may see ("" for none).
func (x access) side() domain.Side {
	switch {
	case x.member.Plays():
		return x.member.Side
	case x.member.Has(MercenaryJudge):
		return domain.Mercenary
	}
	return ""
}

// class names what part of the campaign the actor may see: "judge", a side, or "public".
func (x access) class() string {
	if x.judge() {
		return "judge"
	}
	if s := x.side(); s != "" {
		return string(s)
	}
	return "public"
}

// battleJudge reports whether the actor runs the battle desk: the campaign's battle judges
// and the server's admins.
func (x access) battleJudge() bool { return x.has(BattleJudge) || x.admin() }

// sees reports whether the actor may read the strategies of side: its own side's players,
// the mercenary judge for the mercenaries, and the battle judges (B1).
func (x access) sees(side domain.Side) bool {
	return x.battleJudge() || (side != "" && x.side() == side)
}

func (x access) needLogin() error {
	if x.actor.Account == nil {
		return domain.Errorf(domain.ErrUnauthorized, "log in first: this needs an account")
	}
	return nil
}

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
		class = x.class()
		return err
	})
	return class, err
}
