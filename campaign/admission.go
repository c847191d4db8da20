// Admission (1.1): a newcomer asks a side to admit him; its team leaders accept him with a rank
// (and, on the Coalition side, at most three factions, 1.1.2) or decline. The battle judge and
// the mercenary judge cannot ask (1.3, 6).

package campaign

import (
	"context"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// AdmissionRequest is a newcomer's request to join a side, with a word for its leaders and the
// Coalition factions he would claim (1.1.2).
type AdmissionRequest struct {
	Side     domain.Side    `json:"side"`
	Message  string         `json:"message"`
	Factions []domain.Color `json:"factions"`
}

// AskAdmission records a newcomer's request to join a side of the campaign (1.1).
func (s *Service) AskAdmission(ctx context.Context, a Actor, id int64, in AdmissionRequest) (*Admission, error) {
	var out *Admission
	err := s.store.Write(ctx, func(tx Tx) error {
		c, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.need("ask for admission (a newcomer who plays for no side, and no battle or mercenary judge, 1.1, 1.3, 6)", mayAskAdmission(x)); err != nil {
			return err
		}
		if c.Status == Finished {
			return domain.Errorf(domain.ErrConflict, "the campaign is finished")
		}
		if !in.Side.IsTeam() {
			return domain.Errorf(domain.ErrInvalid, "%q is not a side: ask the coalition or phyrexia", in.Side)
		}
		if err := checkText("message", in.Message, 1000, false); err != nil {
			return err
		}
		probe := Member{Name: x.actor.Account.Name, Roles: []Role{Player}, Side: in.Side, Rank: domain.Lieutenant, Factions: in.Factions}
		if err := checkMember(&probe); err != nil {
			return err
		}
		list, err := tx.Admissions(id)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(list, func(ad Admission) bool { return ad.AccountID == x.actor.Account.ID && ad.Status == Pending }) {
			return domain.Errorf(domain.ErrConflict, "your request for admission already waits for an answer")
		}
		out = &Admission{CampaignID: id, AccountID: x.actor.Account.ID, Name: x.actor.Account.Name, Side: in.Side, Message: strings.TrimSpace(in.Message),
			Factions: probe.Factions, Status: Pending, At: s.now()}
		if err := tx.AddAdmission(out); err != nil {
			return err
		}
		return s.audit(tx, id, a, "admission.ask", "%s asks to join %s (1.1)", out.Name, in.Side.Title())
	})
	return out, err
}

// AdmissionDecision is a side's answer to a newcomer: accepted with a rank (and factions, which
// replace the ones he asked for when given), or declined with a reason.
type AdmissionDecision struct {
	Rank        domain.Rank    `json:"rank"`
	Factions    []domain.Color `json:"factions"`
	RankFaction domain.Color   `json:"rank_faction"`
	Reason      string         `json:"reason"`
}

// DecideAdmission is the answer of a side's team leader (or a judge) to a request for
// admission (1.1): accepted, the newcomer becomes a player of the side with the rank given,
// which a team leader gives below Praetor/Admiral (1.1.1, 1.1.2).
func (s *Service) DecideAdmission(ctx context.Context, a Actor, id, aid int64, accept bool, in AdmissionDecision) (*Admission, error) {
	var out *Admission
	err := s.store.Write(ctx, func(tx Tx) error {
		_, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.needLogin(); err != nil {
			return err
		}
		list, err := tx.Admissions(id)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(list, func(ad Admission) bool { return ad.ID == aid })
		if i < 0 {
			return domain.Errorf(domain.ErrNotFound, "there is no request for admission %d", aid)
		}
		out = &list[i]
		if err := x.need("answer a request to join "+out.Side.Title()+" (its team leaders and the judges, 1.1)", mayDecideAdmission(x, out.Side)); err != nil {
			return err
		}
		if out.Status != Pending {
			return domain.Errorf(domain.ErrConflict, "the request was already %s by %s", out.Status, out.DecidedBy)
		}
		if err := checkText("reason", in.Reason, 500, false); err != nil {
			return err
		}
		acc, err := tx.Account(out.AccountID)
		if err != nil {
			return err
		}
		out.Name = acc.Name
		now := s.now()
		out.Status, out.DecidedBy, out.DecidedAt, out.Reason = Declined, a.Name(), &now, strings.TrimSpace(in.Reason)
		if accept {
			if err := s.admit(tx, x, out, in); err != nil {
				return err
			}
		}
		if err := tx.UpdateAdmission(out); err != nil {
			return err
		}
		return s.audit(tx, id, a, "admission."+out.Status, "%s %s to %s as %s (1.1)", out.Status, out.Name, out.Side.Title(), out.Rank.Name(out.Side))
	})
	return out, err
}

// admit makes the newcomer of ad a player of its side with the rank and factions given.
func (s *Service) admit(tx Tx, x access, ad *Admission, in AdmissionDecision) error {
	if !in.Rank.Valid() {
		return domain.Errorf(domain.ErrInvalid, "give the newcomer a rank (1.1)")
	}
	m := Member{Name: ad.Name, Roles: []Role{Player}, Side: ad.Side, Rank: in.Rank, Factions: ad.Factions, RankFaction: in.RankFaction}
	if in.Factions != nil {
		m.Factions = in.Factions
	}
	old, err := tx.Member(ad.CampaignID, ad.AccountID)
	if err == nil {
		if old.Plays() || old.Has(BattleJudge) || old.Has(MercenaryJudge) {
			return domain.Errorf(domain.ErrConflict, "%s may no longer be admitted: he is %v here now (1.3)", ad.Name, old.Roles)
		}
		m.Roles = append(slices.Clone(old.Roles), Player)
		m.JoinedAt, m.Assists = nil, old.Assists
	} else {
		old = nil
	}
	if !maySetAnyMember(x) {
		probe := m
		probe.Roles = []Role{Player}
		if err := leaderMay(x.member, nil, &probe); err != nil {
			return err
		}
	}
	if err := checkMember(&m); err != nil {
		return err
	}
	now := s.now()
	m.CampaignID, m.AccountID, m.JoinedAt = ad.CampaignID, ad.AccountID, &now
	ad.Status, ad.Rank = Accepted, m.Rank
	return tx.PutMember(&m)
}

// Admissions lists the requests for admission the actor may see: his own; a side's to its
// players; all to the judges and admins.
func (s *Service) Admissions(ctx context.Context, a Actor, id int64) ([]Admission, error) {
	out := []Admission{}
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		list, err := r.Admissions(id)
		if err != nil {
			return err
		}
		for i := range list {
			ad := &list[i]
			if !maySeeAdmission(x, ad) {
				continue
			}
			acc, err := r.Account(ad.AccountID)
			if err != nil {
				return err
			}
			ad.Name = acc.Name
			out = append(out, *ad)
		}
		return nil
	})
	return out, err
}
