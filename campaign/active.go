// Active players (5.1): a player who controls an army, has posted within the last week and has
// not said he will be inactive; his own switch with an optional return date, his leaders'
// declaration with a reason, and the battle judge's rejection of it.

package campaign

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/domain"
)

// ActiveWeek is how recently a player must have posted to be active (5.1: "within the last
// week").
const ActiveWeek = 7 * 24 * time.Hour

// team is what chapters 1 and 5 need to know of a campaign at one moment: its members, the
// map with the controllers of now, who posted lately, the statements of inactivity, the
// change power, the emergencies and the names accounts held before.
type team struct {
	c           *Campaign
	t           *Turn
	now         time.Time
	members     []Member
	m           *domain.Map
	entries     []ControlEntry
	posted      map[int64]time.Time
	inactive    []Inactivity
	grants      []PowerGrant
	emergencies []Emergency
	requests    []ControlRequest
	notices     []Notice
	// former maps the key of a name an account held before a name change (1.6) to the account.
	former map[string]int64
}

// loadTeam reads campaign id as it stands at now.
func loadTeam(r Reader, id int64, now time.Time) (*team, error) {
	c, err := r.Campaign(id)
	if err != nil {
		return nil, err
	}
	tm := &team{c: c, now: now, former: map[string]int64{}}
	if tm.t, err = r.LatestTurn(id); err != nil {
		return nil, err
	}
	if tm.m, tm.entries, err = controlledMapAt(r, tm.t, now, 0); err != nil {
		return nil, err
	}
	if tm.members, err = r.Members(id); err != nil {
		return nil, err
	}
	if tm.posted, err = r.PostedSince(id, now.Add(-ActiveWeek)); err != nil {
		return nil, err
	}
	if tm.inactive, err = r.Inactivities(id); err != nil {
		return nil, err
	}
	if tm.grants, err = r.PowerGrants(id); err != nil {
		return nil, err
	}
	if tm.emergencies, err = r.Emergencies(id); err != nil {
		return nil, err
	}
	if tm.requests, err = r.ControlRequests(id); err != nil {
		return nil, err
	}
	if tm.notices, err = r.Notices(id); err != nil {
		return nil, err
	}
	renames, err := r.NameChanges(0)
	if err != nil {
		return nil, err
	}
	for _, n := range renames {
		if n.Status == Approved {
			tm.former[domain.NameKey(n.Old)] = n.AccountID
		}
	}
	return tm, nil
}

// member is the member of that name (his current screen name), or nil.
func (tm *team) member(name string) *Member {
	for i := range tm.members {
		if domain.SameName(tm.members[i].Name, name) {
			return &tm.members[i]
		}
	}
	return nil
}

// memberByID is the member with that account, or nil.
func (tm *team) memberByID(id int64) *Member {
	for i := range tm.members {
		if tm.members[i].AccountID == id {
			return &tm.members[i]
		}
	}
	return nil
}

// players lists the members who play for side, by name.
func (tm *team) players(side domain.Side) []*Member {
	var out []*Member
	for i := range tm.members {
		if m := &tm.members[i]; m.Plays() && m.Side == side {
			out = append(out, m)
		}
	}
	return out
}

// armiesOf lists the armies name controls now.
func (tm *team) armiesOf(name string) []string {
	var out []string
	for _, a := range tm.m.Armies {
		if a.ControlledBy(name) {
			out = append(out, a.Name)
		}
	}
	return out
}

// joined is when m joined: his admission, or the campaign's creation.
func (tm *team) joined(m *Member) time.Time {
	if m.JoinedAt != nil {
		return *m.JoinedAt
	}
	return tm.c.CreatedAt
}

// postedLately says whether m posted within the last week, counting a member who joined less
// than a week ago as having done so (docs/READINGS.md R80).
func (tm *team) postedLately(m *Member) bool {
	cut := tm.now.Add(-ActiveWeek)
	at, ok := tm.posted[m.AccountID]
	return (ok && !at.Before(cut)) || tm.joined(m).After(cut)
}

// statement is m's own statement that he is inactive, in force now: not withdrawn and its
// return date not passed.
func (tm *team) statement(m *Member) *Inactivity {
	for i := len(tm.inactive) - 1; i >= 0; i-- {
		in := &tm.inactive[i]
		if in.AccountID == m.AccountID && in.Self && in.EndedAt == nil && (in.Until == nil || tm.now.Before(*in.Until)) {
			return in
		}
	}
	return nil
}

// declaration is the leaders' declaration that m is inactive, in force now: not rejected by
// the battle judge, not ended, and m has not posted since it was made (R81).
func (tm *team) declaration(m *Member) *Inactivity {
	for i := len(tm.inactive) - 1; i >= 0; i-- {
		in := &tm.inactive[i]
		if in.AccountID != m.AccountID || in.Self || in.EndedAt != nil || in.RejectedAt != nil {
			continue
		}
		if at, ok := tm.posted[m.AccountID]; ok && at.After(in.At) {
			continue
		}
		return in
	}
	return nil
}

// otherwiseActive says whether m is active in every respect but controlling an army: he
// posted lately and nobody holds him inactive (5.1).
func (tm *team) otherwiseActive(m *Member) bool {
	return m.Plays() && tm.postedLately(m) && tm.statement(m) == nil && tm.declaration(m) == nil
}

// active says whether m is an active player (5.1).
func (tm *team) active(m *Member) bool {
	return tm.otherwiseActive(m) && len(tm.armiesOf(m.Name)) > 0
}

// Activity is one player's standing under 5.1: active or not, and why not.
type Activity struct {
	Player string      `json:"player"`
	Side   domain.Side `json:"side"`
	Rank   domain.Rank `json:"rank"`
	Active bool        `json:"active"`
	Armies []string    `json:"armies"`
	// Why says, when he is not active, each reason (5.1).
	Why []string `json:"why,omitempty"`
	// LastPosted is his latest post or message of the last week; shown to his side and the
	// judges only.
	LastPosted *time.Time `json:"last_posted,omitempty"`
	// Statement is his own statement in force; Declaration his leaders'.
	Statement   *Inactivity `json:"statement,omitempty"`
	Declaration *Inactivity `json:"declaration,omitempty"`
}

func (tm *team) activity(m *Member, private bool) Activity {
	v := Activity{Player: m.Name, Side: m.Side, Rank: m.Rank, Armies: nonNil(tm.armiesOf(m.Name)), Statement: tm.statement(m), Declaration: tm.declaration(m)}
	v.Active = tm.active(m)
	if len(v.Armies) == 0 {
		v.Why = append(v.Why, "controls no army (5.1)")
	}
	if !tm.postedLately(m) {
		v.Why = append(v.Why, "has not posted within the last week (5.1)")
	}
	if s := v.Statement; s != nil {
		w := "said he will be inactive"
		if s.Until != nil {
			w += " until " + s.Until.Format("Mon 2 Jan 2006 15:04 UTC")
		}
		v.Why = append(v.Why, w+" (5.1)")
	}
	if d := v.Declaration; d != nil {
		v.Why = append(v.Why, fmt.Sprintf("declared inactive by %s: %s (5.1)", d.By, d.Reason))
	}
	if private {
		if at, ok := tm.posted[m.AccountID]; ok {
			v.LastPosted = &at
		}
	}
	for _, in := range []*Inactivity{v.Statement, v.Declaration} {
		if in != nil {
			in.Player = m.Name
		}
	}
	return v
}

// ActivityView is who is active in a campaign, and every statement of inactivity its reader
// may see.
type ActivityView struct {
	Players    []Activity   `json:"players"`
	Statements []Inactivity `json:"statements"`
}

// Activity shows every player's standing under 5.1: whether he is active is public; when he
// last posted and the statements of inactivity are his side's and the judges'.
func (s *Service) Activity(ctx context.Context, a Actor, id int64) (*ActivityView, error) {
	out := &ActivityView{Players: []Activity{}, Statements: []Inactivity{}}
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		tm, err := loadTeam(r, id, s.now())
		if err != nil {
			return err
		}
		for i := range tm.members {
			m := &tm.members[i]
			if !m.Plays() {
				continue
			}
			v := tm.activity(m, maySeeActivityDetail(x, m.Side))
			if !maySeeActivityDetail(x, m.Side) {
				v.Statement, v.Declaration = nil, nil
			}
			out.Players = append(out.Players, v)
		}
		for _, in := range tm.inactive {
			m := tm.memberByID(in.AccountID)
			if m == nil || !maySeeActivityDetail(x, m.Side) {
				continue
			}
			in.Player = m.Name
			out.Statements = append(out.Statements, in)
		}
		return nil
	})
	return out, err
}

// InactiveRequest is a player's own switch (5.1): inactive from now, until a return date if he
// gives one, or active again.
type InactiveRequest struct {
	Inactive bool       `json:"inactive"`
	Until    *time.Time `json:"until,omitempty"`
	Reason   string     `json:"reason,omitempty"`
}

// SetInactive is a player's own statement that he will be inactive, or that he is back (5.1).
// Coming back also ends his leaders' declaration.
func (s *Service) SetInactive(ctx context.Context, a Actor, id int64, req InactiveRequest) (*Activity, error) {
	var out Activity
	err := s.store.Write(ctx, func(tx Tx) error {
		_, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.need("say he is inactive (players only, for themselves)", maySetOwnActivity(x)); err != nil {
			return err
		}
		now := s.now()
		tm, err := loadTeam(tx, id, now)
		if err != nil {
			return err
		}
		me := tm.memberByID(x.member.AccountID)
		if req.Inactive {
			if req.Until != nil && !req.Until.After(now) {
				return domain.Errorf(domain.ErrInvalid, "the return date %s has passed: give a later one, or none", req.Until.UTC().Format(time.RFC3339))
			}
			if err := checkText("reason", req.Reason, 500, false); err != nil {
				return err
			}
			if old := tm.statement(me); old != nil {
				old.EndedAt, old.EndedBy = &now, a.Name()
				if err := tx.UpdateInactivity(old); err != nil {
					return err
				}
			}
			in := &Inactivity{CampaignID: id, AccountID: me.AccountID, Self: true, By: a.Name(), At: now, Until: utcTime(req.Until), Reason: strings.TrimSpace(req.Reason)}
			if err := tx.AddInactivity(in); err != nil {
				return err
			}
		} else {
			if req.Until != nil {
				return domain.Errorf(domain.ErrInvalid, "a return date goes only with \"inactive\": true")
			}
			for _, in := range []*Inactivity{tm.statement(me), tm.declaration(me)} {
				if in != nil {
					in.EndedAt, in.EndedBy = &now, a.Name()
					if err := tx.UpdateInactivity(in); err != nil {
						return err
					}
				}
			}
		}
		if tm, err = loadTeam(tx, id, now); err != nil {
			return err
		}
		out = tm.activity(tm.memberByID(me.AccountID), true)
		return s.audit(tx, id, a, "activity.self", "%s says he is %s (5.1)", a.Name(), map[bool]string{true: "inactive", false: "active"}[req.Inactive])
	})
	return &out, err
}

// DeclareRequest is the leaders' declaration that a player is inactive, with their reason (5.1).
type DeclareRequest struct {
	Player string `json:"player"`
	Reason string `json:"reason"`
}

// DeclareInactive records a team leader's declaration that a player of his side is inactive
// (5.1); the battle judge may reject it.
func (s *Service) DeclareInactive(ctx context.Context, a Actor, id int64, req DeclareRequest) (*Inactivity, error) {
	var out *Inactivity
	err := s.store.Write(ctx, func(tx Tx) error {
		_, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		now := s.now()
		tm, err := loadTeam(tx, id, now)
		if err != nil {
			return err
		}
		p := tm.member(req.Player)
		if p == nil || !p.Plays() {
			return domain.Errorf(domain.ErrNotFound, "%q is not a player of this campaign", req.Player)
		}
		if err := x.need("declare "+p.Name+" inactive (his side's team leaders only, 5.1)", mayDeclareInactive(x, p)); err != nil {
			return err
		}
		if err := checkText("reason", req.Reason, 500, true); err != nil {
			return domain.Errorf(domain.ErrInvalid, "say why %s is believed inactive: the battle judge reads the reason (5.1)", p.Name)
		}
		if tm.declaration(p) != nil {
			return domain.Errorf(domain.ErrConflict, "%s is already declared inactive", p.Name)
		}
		out = &Inactivity{CampaignID: id, AccountID: p.AccountID, By: a.Name(), At: now, Reason: strings.TrimSpace(req.Reason), Player: p.Name}
		if err := tx.AddInactivity(out); err != nil {
			return err
		}
		return s.audit(tx, id, a, "activity.declare", "declared %s inactive (5.1): %s", p.Name, out.Reason)
	})
	return out, err
}

// RejectDeclaration is the battle judge's rejection of a leaders' declaration of inactivity,
// when he feels they only want to get around the active player protections (5.1).
func (s *Service) RejectDeclaration(ctx context.Context, a Actor, id, did int64, reason string) (*Inactivity, error) {
	var out *Inactivity
	err := s.store.Write(ctx, func(tx Tx) error {
		_, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.need("reject a declaration of inactivity (the battle judge only, 5.1)", mayRejectDeclaration(x)); err != nil {
			return err
		}
		if err := checkText("reason", reason, 500, true); err != nil {
			return domain.Errorf(domain.ErrInvalid, "say why the declaration is rejected: a reason is recorded with every judge's action")
		}
		list, err := tx.Inactivities(id)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(list, func(in Inactivity) bool { return in.ID == did })
		if i < 0 || list[i].Self {
			return domain.Errorf(domain.ErrNotFound, "there is no leaders' declaration %d", did)
		}
		out = &list[i]
		if out.RejectedAt != nil {
			return domain.Errorf(domain.ErrConflict, "the declaration was already rejected by %s", out.RejectedBy)
		}
		now := s.now()
		out.RejectedAt, out.RejectedBy, out.Rejection = &now, a.Name(), strings.TrimSpace(reason)
		if err := tx.UpdateInactivity(out); err != nil {
			return err
		}
		if acc, err := tx.Account(out.AccountID); err == nil {
			out.Player = acc.Name
		}
		return s.audit(tx, id, a, "activity.reject", "rejected the declaration that %s is inactive (5.1): %s", out.Player, out.Rejection)
	})
	return out, err
}

// checkText checks a free text of a request: at most max characters, and present if needed.
func checkText(what, text string, max int, needed bool) error {
	text = strings.TrimSpace(text)
	switch {
	case needed && text == "":
		return domain.Errorf(domain.ErrInvalid, "the %s is missing", what)
	case len([]rune(text)) > max:
		return domain.Errorf(domain.ErrInvalid, "the %s is %d characters long: at most %d", what, len([]rune(text)), max)
	}
	return nil
}

func utcTime(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC().Truncate(time.Microsecond)
	return &u
}
