// Emergency configurations (5.2.2.2): a judge authorizes two other people to change a side's
// control list, or accepts a control change that breaks 5.3, with a reason; the side must be in
// a legal configuration again within one turn. The lock of the turn it was allowed in says so;
// the next lock closes it and lists what is still illegal.

package campaign

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/domain"
)

// authorized are the people the open authorizations of side let change its control list.
func (tm *team) authorized(side domain.Side) []*Member {
	var out []*Member
	for _, e := range tm.emergencies {
		if e.Side != side || e.Kind != Authorize || e.ClosedTurn != 0 {
			continue
		}
		for _, n := range e.People {
			if m := tm.find(n); m != nil && !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	return out
}

// find is the member of that name now, or who held it before a name change (1.6).
func (tm *team) find(name string) *Member {
	if m := tm.member(name); m != nil {
		return m
	}
	if id, ok := tm.former[domain.NameKey(name)]; ok {
		return tm.memberByID(id)
	}
	return nil
}

// stillIllegal lists the breaches of an accepted emergency change that the side has not put
// right (5.2.2.2): a controller still above his rank (5.3.1), a namesake army still not back with
// its active player nor given up by him since (5.3.2), an active player still without an army
// (5.3.4).
func (tm *team) stillIllegal(e *Emergency) []Breach {
	var out []Breach
	for _, b := range e.Breaches {
		p, army := tm.find(b.Player), tm.m.Army(b.Army)
		if p == nil || !p.Plays() || p.Side != e.Side {
			continue
		}
		switch b.Rule {
		case "5.3.1":
			if army != nil && army.ControlledBy(p.Name) && mayControl(p, army) != nil {
				out = append(out, Breach{Rule: b.Rule, Player: p.Name, Army: army.Name, Message: fmt.Sprintf("%s still controls %s, above his rank (5.3.1)", p.Name, army.Name)})
			}
		case "5.3.2":
			if army != nil && !army.ControlledBy(p.Name) && tm.otherwiseActive(p) && !tm.consentedSince(p, army.Name, e.At) {
				out = append(out, Breach{Rule: b.Rule, Player: p.Name, Army: army.Name, Message: fmt.Sprintf("%s, the namesake army of %s, is still not his and he has not consented (5.3.2)", army.Name, p.Name)})
			}
		case "5.3.4":
			if len(tm.armiesOf(p.Name)) == 0 && tm.otherwiseActive(p) {
				out = append(out, Breach{Rule: b.Rule, Player: p.Name, Message: fmt.Sprintf("%s, an active player, still controls no army (5.3.4)", p.Name)})
			}
		}
	}
	return out
}

// consentedSince says whether p accepted, after at, a request to take army from him (5.3.2).
func (tm *team) consentedSince(p *Member, army string, at time.Time) bool {
	for _, r := range tm.requests {
		if r.ConsentOf == p.AccountID && r.Status == Accepted && domain.SameName(r.Army, army) && r.DecidedAt != nil && r.DecidedAt.After(at) {
			return true
		}
	}
	return false
}

// EmergencyRequest is a judge's emergency configuration (5.2.2.2): two people authorized to
// change a side's control list, or a control change accepted although it breaks 5.3.
type EmergencyRequest struct {
	Side        domain.Side `json:"side"`
	Kind        string      `json:"kind"`
	People      []string    `json:"people"`
	Army        string      `json:"army"`
	Controllers []string    `json:"controllers"`
	Reason      string      `json:"reason"`
}

// DeclareEmergency records a judge's emergency configuration (5.2.2.2): it tells the side that
// it must return to a legal configuration within one turn.
func (s *Service) DeclareEmergency(ctx context.Context, a Actor, id int64, req EmergencyRequest) (*Emergency, error) {
	var out *Emergency
	err := s.store.Write(ctx, func(tx Tx) error {
		c, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.need("allow an emergency configuration (the movement and battle judges only, 5.2.2.2)", mayDeclareEmergency(x)); err != nil {
			return err
		}
		if c.Status == Finished {
			return domain.Errorf(domain.ErrConflict, "the campaign is finished")
		}
		reason := strings.TrimSpace(req.Reason)
		if err := checkText("reason", reason, 500, true); err != nil {
			return domain.Errorf(domain.ErrInvalid, "say why: the judge allows an emergency configuration only in unusual or emergency situations, with a reason (5.2.2.2)")
		}
		now := s.now()
		tm, err := loadTeam(tx, id, now)
		if err != nil {
			return err
		}
		out = &Emergency{CampaignID: id, Kind: req.Kind, Reason: reason, By: a.Name(), At: now, Turn: tm.t.Number}
		var text string
		switch req.Kind {
		case Authorize:
			if text, err = authorize(tm, out, req); err != nil {
				return err
			}
		case Accept:
			if text, err = s.accept(tx, a, tm, out, req); err != nil {
				return err
			}
		default:
			return domain.Errorf(domain.ErrInvalid, "%q is not a kind of emergency configuration: authorize (two other people change the list) or accept (a change that breaks 5.3)", req.Kind)
		}
		if err := tx.AddEmergency(out); err != nil {
			return err
		}
		text += fmt.Sprintf(" %s must return to a legal configuration within one turn: by the lock of turn %d (5.2.2.2).", capital(out.Side.Title()), out.Turn+1)
		if err := s.tell(tx, a, id, tm.t.Number, out.Side, NoticeEmergency, "", text); err != nil {
			return err
		}
		return s.audit(tx, id, a, "control.emergency", "%s", text)
	})
	return out, err
}

// authorize checks an authorization of two other people of a side (5.2.2.2) and describes it.
func authorize(tm *team, e *Emergency, req EmergencyRequest) (string, error) {
	if !req.Side.IsTeam() {
		return "", domain.Errorf(domain.ErrInvalid, "%q is not a side: coalition or phyrexia", req.Side)
	}
	if req.Army != "" || len(req.Controllers) > 0 {
		return "", domain.Errorf(domain.ErrInvalid, "an authorization names people, not a control change")
	}
	if len(req.People) != PowerHolders {
		return "", domain.Errorf(domain.ErrInvalid, "the judge authorizes two people, not %d (5.2.2.2)", len(req.People))
	}
	var ps []*Member
	for _, n := range req.People {
		p := tm.member(n)
		if p == nil || !p.Plays() || p.Side != req.Side {
			return "", domain.Errorf(domain.ErrInvalid, "%q is not a player of %s", n, req.Side.Title())
		}
		if slices.Contains(ps, p) {
			return "", domain.Errorf(domain.ErrInvalid, "%s is named twice", p.Name)
		}
		ps = append(ps, p)
	}
	if hs := tm.holders(req.Side); slices.Contains(hs, ps[0]) && slices.Contains(hs, ps[1]) {
		return "", domain.Errorf(domain.ErrInvalid, "%s and %s already hold the change power: an emergency authorizes a different two people (5.2.2.2)", ps[0].Name, ps[1].Name)
	}
	e.Side, e.People = req.Side, names(ps)
	return fmt.Sprintf("Emergency configuration (5.2.2.2), by %s: %s may change the control list of %s until the lock of turn %d (%s).",
		e.By, strings.Join(e.People, " and "), e.Side.Title(), e.Turn+1, e.Reason), nil
}

// accept makes a control change that breaks 5.3, which the judge accepts (5.2.2.2), and
// describes it.
func (s *Service) accept(tx Tx, a Actor, tm *team, e *Emergency, req EmergencyRequest) (string, error) {
	if len(req.People) > 0 {
		return "", domain.Errorf(domain.ErrInvalid, "an accepted change names an army and its controllers, not people to authorize")
	}
	army := tm.m.Army(req.Army)
	if army == nil || !army.Side.IsTeam() {
		return "", domain.Errorf(domain.ErrNotFound, "there is no army of a side named %q on the map", req.Army)
	}
	if req.Side != "" && req.Side != army.Side {
		return "", domain.Errorf(domain.ErrInvalid, "%s is an army of %s", army.Name, army.Side.Title())
	}
	ns, err := members(tx, tm.c.ID, army, req.Controllers)
	if err != nil {
		return "", err
	}
	bs := tm.breaches(army, ns, nil)
	if len(bs) == 0 {
		return "", domain.Errorf(domain.ErrInvalid, "this change of %s keeps every limitation of 5.3: a holder of change power makes it, no emergency is needed", army.Name)
	}
	ch := &change{tm: tm, army: army, names: ns}
	if _, err := s.applyControl(tx, a, ch, e.Reason, fmt.Sprintf("(accepted in an emergency although it breaks %s, 5.2.2.2)", strings.Join(rules(bs), ", "))); err != nil {
		return "", err
	}
	e.Side, e.Army, e.Controllers, e.Breaches = army.Side, army.Name, ns, bs
	parts := make([]string, len(bs))
	for i, b := range bs {
		parts[i] = breachShort(b)
	}
	return fmt.Sprintf("Emergency configuration (5.2.2.2), by %s: %s is controlled by %s although %s (%s).",
		e.By, army.Name, orNobody(ns), strings.Join(parts, ", and "), e.Reason), nil
}

// breachShort says in a few words what a breach of 5.3 is, after "although".
func breachShort(b Breach) string {
	switch b.Rule {
	case "5.3.1":
		return fmt.Sprintf("the rank of %s does not allow it (5.3.1)", b.Player)
	case "5.3.2":
		return fmt.Sprintf("it is the namesake army of %s, taken without his consent (5.3.2)", b.Player)
	case "5.3.4":
		return fmt.Sprintf("it is the last army of %s, an active player (5.3.4)", b.Player)
	}
	return b.Message
}

func orNobody(ns []string) string {
	if len(ns) == 0 {
		return "no player"
	}
	return strings.Join(ns, " and ")
}

// members checks that each name is a member playing for army's side and spells it as its
// account, as controllers does without the rank rule.
func members(tx Tx, id int64, army *domain.Army, names []string) ([]string, error) {
	out := make([]string, 0, len(names))
	for _, n := range names {
		acc, err := tx.AccountByName(n)
		if err != nil {
			return nil, domain.Errorf(domain.ErrInvalid, "there is no account named %q", n)
		}
		mem, err := tx.Member(id, acc.ID)
		if err != nil || !mem.Plays() || mem.Side != army.Side {
			return nil, domain.Errorf(domain.ErrInvalid, "%s does not play for %s, so cannot control %s", acc.Name, army.Side.Title(), army.Name)
		}
		if slices.Contains(out, acc.Name) {
			return nil, domain.Errorf(domain.ErrInvalid, "%s is listed twice", acc.Name)
		}
		out = append(out, acc.Name)
	}
	return out, nil
}

// EmergencyView is an emergency configuration with what it still leaves illegal now.
type EmergencyView struct {
	Emergency
	// Due is the turn by whose lock the side must be legal again.
	Due int `json:"due"`
	// Illegal is what the side has not put right yet (an open accepted change).
	Illegal []Breach `json:"illegal"`
}

// EmergenciesView is a campaign's emergencies, and for each side the players a new army must
// still be found for (5.3.4), as the reader may see them.
type EmergenciesView struct {
	Emergencies []EmergencyView          `json:"emergencies"`
	Owed        map[domain.Side][]Breach `json:"owed"`
	Notices     []Notice                 `json:"notices"`
}

// Emergencies shows a campaign's emergency configurations, what each still leaves illegal, the
// armies owed to players and the notices sent to sides: each side's to its players, all to the
// judges and admins.
func (s *Service) Emergencies(ctx context.Context, a Actor, id int64) (*EmergenciesView, error) {
	out := &EmergenciesView{Emergencies: []EmergencyView{}, Owed: map[domain.Side][]Breach{}, Notices: []Notice{}}
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		tm, err := loadTeam(r, id, s.now())
		if err != nil {
			return err
		}
		for i := range tm.emergencies {
			e := &tm.emergencies[i]
			if !maySeeEmergencies(x, e.Side) {
				continue
			}
			v := EmergencyView{Emergency: *e, Due: e.Turn + 1, Illegal: []Breach{}}
			if e.ClosedTurn == 0 {
				v.Illegal = nonNil(tm.stillIllegal(e))
			}
			out.Emergencies = append(out.Emergencies, v)
		}
		for _, side := range []domain.Side{domain.Coalition, domain.Phyrexia} {
			if maySeeEmergencies(x, side) {
				out.Owed[side] = nonNil(tm.owedArmies(side))
			}
		}
		for _, n := range tm.notices {
			if n.Kind == NoticeLock || maySeeEmergencies(x, n.Side) {
				out.Notices = append(out.Notices, n)
			}
		}
		return nil
	})
	return out, err
}

// lockNotes is what the lock of turn t says of the control lists (5.2.2.2, 5.3.4), as the list
// stood at the lock: each emergency allowed during the turn and its deadline; each emergency
// whose turn of grace ends, closed, with what is still illegal; each army still owed. It stores
// them as notices of the turn.
func (s *Service) lockNotes(tx Tx, c *Campaign, t *Turn) ([]Notice, error) {
	if quiet, err := nothingToNote(tx, c.ID); quiet || err != nil {
		return nil, err
	}
	tm, err := loadTeam(tx, c.ID, *t.ControlAt)
	if err != nil {
		return nil, err
	}
	var out []Notice
	note := func(side domain.Side, text string) {
		out = append(out, Notice{CampaignID: c.ID, Side: side, Turn: t.Number, At: s.now(), Kind: NoticeLock, Text: text})
	}
	for i := range tm.emergencies {
		e := &tm.emergencies[i]
		if e.ClosedTurn != 0 {
			continue
		}
		what := fmt.Sprintf("the emergency configuration of turn %d (%s)", e.Turn, describe(e))
		if e.Turn >= t.Number {
			note(e.Side, fmt.Sprintf("%s is in force: %s must return to a legal configuration within one turn, by the lock of turn %d (5.2.2.2).", capital(what), e.Side.Title(), t.Number+1))
			continue
		}
		e.ClosedTurn = t.Number
		if bad := tm.stillIllegal(e); len(bad) > 0 {
			parts := make([]string, len(bad))
			for k, b := range bad {
				parts[k] = b.Message
			}
			e.Outcome = "still illegal: " + strings.Join(parts, "; ")
			note(e.Side, fmt.Sprintf("%s ends at this lock, and %s is still not in a legal configuration: %s. The judge decides what follows (5.2.2.2).", capital(what), e.Side.Title(), strings.Join(parts, "; ")))
		} else {
			e.Outcome = "legal again"
			note(e.Side, fmt.Sprintf("%s ends at this lock: %s is in a legal configuration again (5.2.2.2).", capital(what), e.Side.Title()))
		}
		if err := tx.UpdateEmergency(e); err != nil {
			return nil, err
		}
	}
	for _, side := range []domain.Side{domain.Coalition, domain.Phyrexia} {
		for _, b := range tm.owedArmies(side) {
			note(side, capital(b.Message)+".")
		}
	}
	for i := range out {
		if err := tx.AddNotice(&out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// describe says in a few words what an emergency allowed.
func describe(e *Emergency) string {
	if e.Kind == Authorize {
		return strings.Join(e.People, " and ") + " authorized to change the control list of " + e.Side.Title()
	}
	return fmt.Sprintf("%s given to %s although it breaks %s", e.Army, orNobody(e.Controllers), strings.Join(rules(e.Breaches), ", "))
}

// noticesText renders a lock's notices as the report's last section.
func noticesText(ns []Notice) string {
	if len(ns) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nControl lists (5.2.2.2, 5.3)\n")
	for _, n := range ns {
		b.WriteString("  " + n.Text + "\n")
	}
	return b.String()
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// turnNotices are the notices the lock of turn n gave of the control lists.
func turnNotices(r Reader, id int64, n int) ([]Notice, error) {
	all, err := r.Notices(id)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(x Notice) bool { return x.Kind != NoticeLock || x.Turn != n }), nil
}

// nothingToNote says whether a lock has nothing to say of the control lists: no emergency open
// and no army ever owed — most locks, which then read nothing more.
func nothingToNote(r Reader, id int64) (bool, error) {
	es, err := r.Emergencies(id)
	if err != nil || slices.ContainsFunc(es, func(e Emergency) bool { return e.ClosedTurn == 0 }) {
		return false, err
	}
	ns, err := r.Notices(id)
	return !slices.ContainsFunc(ns, func(n Notice) bool { return n.Kind == NoticeOwed }), err
}
