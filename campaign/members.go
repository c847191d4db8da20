// Members: who plays, leads or judges in a campaign, with what side, rank and factions (1.1, 1.3,
// 5.2.3), and what a demotion takes away (5.3.1).

package campaign

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// Members lists a campaign's members: the roster is public, as the Proxy List thread is.
func (s *Service) Members(ctx context.Context, id int64) ([]Member, error) {
	var out []Member
	err := s.store.Read(ctx, func(r Reader) error {
		if _, err := r.Campaign(id); err != nil {
			return err
		}
		ms, err := r.Members(id)
		out = ms
		return err
	})
	return nonNil(out), err
}

// SetMember adds an account to a campaign or changes its roles, side, rank, factions or
// contingency. Admins and judges may set anything; a team leader may add players to his own
// side and set their rank (below Admiral/Praetor), factions and contingency (1.1, 5.2.3).
// A demotion takes away the armies the player may no longer control (5.3.1).
func (s *Service) SetMember(ctx context.Context, a Actor, id int64, m Member) (*Member, error) {
	name, err := NormalName(AccountName, m.Name)
	if err != nil {
		return nil, err
	}
	m.Name = name
	var out *Member
	err = s.store.Write(ctx, func(tx Tx) error {
		_, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.need("change the members of this campaign", mayManageMembers(x)); err != nil {
			return err
		}
		acc, err := tx.AccountByName(m.Name)
		if errors.Is(err, domain.ErrNotFound) {
			return domain.Errorf(domain.ErrNotFound, "there is no account named %q: an admin creates accounts first", m.Name)
		}
		if err != nil {
			return err
		}
		old, err := tx.Member(id, acc.ID)
		if err != nil && !errors.Is(err, domain.ErrNotFound) {
			return err
		}
		if old != nil {
			// Fields left out keep their values.
			if len(m.Roles) == 0 {
				m.Roles = old.Roles
			}
			if m.Side == "" {
				m.Side = old.Side
			}
			if m.Rank == 0 {
				m.Rank = old.Rank
			}
			if m.Factions == nil {
				m.Factions = old.Factions
			}
			if m.RankFaction == "" && slices.Contains(m.Factions, old.RankFaction) {
				m.RankFaction = old.RankFaction
			}
			if m.Contingency == "" {
				m.Contingency = old.Contingency
			}
			if m.Assists == "" {
				m.Assists = old.Assists
			}
			m.JoinedAt = old.JoinedAt
		} else {
			now := s.now()
			m.JoinedAt = &now
		}
		if !maySetAnyMember(x) {
			if err := leaderMay(x.member, old, &m); err != nil {
				return err
			}
			if m.Assists != "" && (old == nil || m.Assists != old.Assists) {
				return domain.Errorf(domain.ErrForbidden, "only judges name the judge an assistant judge assists (1.3)")
			}
		}
		if m.Assists == "-" {
			m.Assists = ""
		}
		if err := checkMember(&m); err != nil {
			return err
		}
		if err := checkAssists(tx, id, &m); err != nil {
			return err
		}
		before, err := loadTeam(tx, id, s.now())
		if err != nil {
			return err
		}
		if c := m.Contingency; c != "" {
			cacc, err := tx.AccountByName(c)
			if err != nil {
				return domain.Errorf(domain.ErrInvalid, "the contingency %q is not an account", c)
			}
			cm, err := tx.Member(id, cacc.ID)
			if err != nil || !cm.Plays() || cm.Side != m.Side || cacc.ID == acc.ID {
				return domain.Errorf(domain.ErrInvalid, "the contingency of %s must be another player of the same side (5.2.3)", m.Name)
			}
			m.Contingency = cacc.Name
		}
		m.CampaignID, m.AccountID, m.Name = id, acc.ID, acc.Name
		if err := tx.PutMember(&m); err != nil {
			return err
		}
		if err := s.demote(tx, a, id, &m, before); err != nil {
			return err
		}
		out = &m
		return s.audit(tx, id, a, "member.set", "set %s: roles %v, side %q, rank %q, factions %v, contingency %q", m.Name, m.Roles, m.Side, m.Rank.Word(m.Side), m.Factions, m.Contingency)
	})
	return out, err
}

// checkMember checks a member's roles, side, rank and factions (1.1.2, 1.3, chapter 6).
func checkMember(m *Member) error {
	if len(m.Roles) == 0 {
		return domain.Errorf(domain.ErrInvalid, "%s needs at least one role: %s", m.Name, roleList())
	}
	for _, r := range m.Roles {
		if !slices.Contains(Roles, r) {
			return domain.Errorf(domain.ErrInvalid, "%q is not a role: use %s", r, roleList())
		}
	}
	slices.Sort(m.Roles)
	m.Roles = slices.Compact(m.Roles)
	plays := m.Has(Player) || m.Has(Leader)
	switch {
	case plays && !m.Side.IsTeam():
		return domain.Errorf(domain.ErrInvalid, "%s plays, so needs a side: coalition or phyrexia", m.Name)
	case !plays && m.Side != "":
		return domain.Errorf(domain.ErrInvalid, "%s has a side but is neither a player nor a team leader", m.Name)
	case plays && m.Has(BattleJudge):
		return domain.Errorf(domain.ErrInvalid, "%s: the battle judge cannot be a player (1.3)", m.Name)
	case plays && m.Has(MercenaryJudge):
		return domain.Errorf(domain.ErrInvalid, "%s: the mercenary judge cannot be a player on either team (6)", m.Name)
	}
	if !m.MovementOrBattleJudge() && !m.Has(MercenaryJudge) {
		m.Assists = ""
	}
	if !plays {
		m.Rank, m.Factions, m.RankFaction = 0, nil, ""
		return nil
	}
	if m.Rank == 0 {
		m.Rank = domain.Lieutenant
	}
	if !m.Rank.Valid() {
		return domain.Errorf(domain.ErrInvalid, "%s has no valid rank", m.Name)
	}
	if m.Side != domain.Coalition && (len(m.Factions) > 0 || m.RankFaction != "") {
		return domain.Errorf(domain.ErrInvalid, "%s: only Coalition players belong to factions (1.1.2)", m.Name)
	}
	if len(m.Factions) > 3 {
		return domain.Errorf(domain.ErrInvalid, "%s claims %d factions: at most 3 (1.1.2)", m.Name, len(m.Factions))
	}
	for i, f := range m.Factions {
		if !f.IsMagic() && f != domain.FiveColor && f != domain.Colorless {
			return domain.Errorf(domain.ErrInvalid, "%s: %q is not a faction: use white, blue, black, red, green, five-color or colorless (1.1.2)", m.Name, f)
		}
		if slices.Contains(m.Factions[:i], f) {
			return domain.Errorf(domain.ErrInvalid, "%s lists the %s faction twice", m.Name, f)
		}
	}
	if m.RankFaction == "" && len(m.Factions) > 0 {
		m.RankFaction = m.Factions[0]
	}
	if m.RankFaction != "" && !slices.Contains(m.Factions, m.RankFaction) {
		return domain.Errorf(domain.ErrInvalid, "%s holds his rank in the %s faction, which is not one of his factions (1.1.2)", m.Name, m.RankFaction)
	}
	return nil
}

func roleList() string {
	parts := make([]string, len(Roles))
	for i, r := range Roles {
		parts[i] = string(r)
	}
	return strings.Join(parts, ", ")
}

// checkAssists checks the judge an assistant judge assists (1.3): another member of the
// campaign, holding every judge's role the assistant holds, and no assistant himself. It spells
// his name as his account does.
func checkAssists(r Reader, id int64, m *Member) error {
	if m.Assists == "" {
		return nil
	}
	acc, err := r.AccountByName(m.Assists)
	if errors.Is(err, domain.ErrNotFound) || (err == nil && acc.Name == m.Name) {
		return domain.Errorf(domain.ErrInvalid, "%s assists %q, who is no other account (1.3)", m.Name, m.Assists)
	}
	if err != nil {
		return err
	}
	head, err := r.Member(id, acc.ID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Errorf(domain.ErrInvalid, "%s assists %s, who is not a member of this campaign (1.3)", m.Name, acc.Name)
	}
	if err != nil {
		return err
	}
	return assistsHead(m, head)
}

// assistsHead checks that m may assist head (1.3).
func assistsHead(m, head *Member) error {
	if head.Assists != "" {
		return domain.Errorf(domain.ErrInvalid, "%s assists %s, who is himself an assistant judge: an assistant assists the judge holding the position (1.3)", m.Name, head.Name)
	}
	for _, r := range []Role{MovementJudge, BattleJudge, MercenaryJudge} {
		if m.Has(r) && !head.Has(r) {
			return domain.Errorf(domain.ErrInvalid, "%s is an assistant %s but %s, whom he assists, is no %s (1.3)", m.Name, r, head.Name, r)
		}
	}
	m.Assists = head.Name
	return nil
}
