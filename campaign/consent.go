// Consent to taking a namesake army (5.3.2): whoever may change a side's control list asks the
// namesake player, and the change is made when he accepts it — checked again then against 5.3.1
// and 5.3.4, which consent does not lift (docs/READINGS.md R83).

package campaign

import (
	"context"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// ControlRequestInput asks the namesake player's consent to a control change (5.3.2).
type ControlRequestInput struct {
	Army        string   `json:"army"`
	Controllers []string `json:"controllers"`
	Reason      string   `json:"reason"`
}

// RequestConsent asks a namesake player's consent to take his namesake army (5.3.2). Only a
// change that needs it is asked: any other breach of 5.3 is refused as SetControl refuses it.
func (s *Service) RequestConsent(ctx context.Context, a Actor, id int64, in ControlRequestInput) (*ControlRequest, error) {
	var out *ControlRequest
	err := s.store.Write(ctx, func(tx Tx) error {
		ch, err := s.controlChange(tx, a, id, in.Army, in.Controllers, "ask a consent to change the control")
		if err != nil {
			return err
		}
		if err := checkText("reason", in.Reason, 500, false); err != nil {
			return err
		}
		bs := ch.tm.breaches(ch.army, ch.names, nil)
		var need *Member
		var other []Breach
		for _, b := range bs {
			if b.Rule == "5.3.2" {
				need = ch.tm.member(b.Player)
			} else {
				other = append(other, b)
			}
		}
		if len(other) > 0 {
			return refusal(ch.army.Name, other)
		}
		if need == nil {
			return domain.Errorf(domain.ErrInvalid, "this change of %s needs nobody's consent (5.3.2): make it directly", ch.army.Name)
		}
		for _, r := range ch.tm.requests {
			if r.Status == Pending && domain.SameName(r.Army, ch.army.Name) {
				return domain.Errorf(domain.ErrConflict, "a request about %s already waits for %s's answer (request %d)", ch.army.Name, need.Name, r.ID)
			}
		}
		out = &ControlRequest{CampaignID: id, Army: ch.army.Name, Controllers: nonNil(ch.names), Reason: strings.TrimSpace(in.Reason), By: a.Name(), At: s.now(),
			ConsentOf: need.AccountID, Namesake: need.Name, Status: Pending}
		if err := tx.AddControlRequest(out); err != nil {
			return err
		}
		return s.audit(tx, id, a, "control.request", "asked %s's consent to give %s to %s (5.3.2)", need.Name, ch.army.Name, orNobody(ch.names))
	})
	return out, err
}

// AnswerConsent is the namesake player's answer to a consent request (5.3.2): accepted, the
// change is made now, as its asker asked it, if 5.3.1 and 5.3.4 still allow it.
func (s *Service) AnswerConsent(ctx context.Context, a Actor, id, rid int64, accept bool, reason string) (*ControlRequest, error) {
	var out *ControlRequest
	err := s.store.Write(ctx, func(tx Tx) error {
		_, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.needLogin(); err != nil {
			return err
		}
		list, err := tx.ControlRequests(id)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(list, func(r ControlRequest) bool { return r.ID == rid })
		if i < 0 {
			return domain.Errorf(domain.ErrNotFound, "there is no control request %d", rid)
		}
		out = &list[i]
		if err := x.need("answer a request that asks another player's consent (5.3.2)", mayAnswerConsent(x, out)); err != nil {
			return err
		}
		if out.Status != Pending {
			return domain.Errorf(domain.ErrConflict, "the request was already %s", out.Status)
		}
		if err := checkText("reason", reason, 500, false); err != nil {
			return err
		}
		now := s.now()
		out.Status, out.DecidedAt, out.Decision, out.Namesake = Declined, &now, strings.TrimSpace(reason), a.Name()
		if accept {
			out.Status = Accepted
			tm, err := loadTeam(tx, id, now)
			if err != nil {
				return err
			}
			army := tm.m.Army(out.Army)
			if army == nil {
				return domain.Errorf(domain.ErrConflict, "%s is no longer on the map", out.Army)
			}
			names, err := members(tx, id, army, out.Controllers)
			if err != nil {
				return err
			}
			if bs := tm.breaches(army, names, x.member); len(bs) > 0 {
				return refusal(army.Name, bs)
			}
			ch := &change{tm: tm, army: army, names: names}
			asker := Actor{Account: &Account{Name: out.By}, IP: a.IP}
			if _, err := s.applyControl(tx, asker, ch, out.Reason, "(with "+a.Name()+"'s consent, 5.3.2)"); err != nil {
				return err
			}
		}
		if err := tx.UpdateControlRequest(out); err != nil {
			return err
		}
		return s.audit(tx, id, a, "control.consent", "%s request %d to give %s to %s (5.3.2)", out.Status, rid, out.Army, orNobody(out.Controllers))
	})
	return out, err
}

// ControlRequests lists the consent requests the actor may see: his side's, or every one for the
// judges and admins.
func (s *Service) ControlRequests(ctx context.Context, a Actor, id int64) ([]ControlRequest, error) {
	out := []ControlRequest{}
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		tm, err := loadTeam(r, id, s.now())
		if err != nil {
			return err
		}
		for _, req := range tm.requests {
			m := tm.memberByID(req.ConsentOf)
			if m == nil || !(maySeeControlRequests(x, m.Side) || mayAnswerConsent(x, &req)) {
				continue
			}
			req.Namesake = m.Name
			out = append(out, req)
		}
		return nil
	})
	return out, err
}
