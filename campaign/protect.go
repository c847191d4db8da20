// The limitations on control changes (5.3): the rank rule (5.3.1), namesake armies (5.3.2) and
// an active player's last army (5.3.4, with its demotion exception); inactive players have no
// protection (5.1). 5.3.3 is obsolete and not enforced, as the rulebook says.

package campaign

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/domain"
)

// namesake is the player whose namesake army army is (5.3.2): the player of its side whose
// screen name, now or before a name change (1.6), is the army's name; nil for a proxy army.
func (tm *team) namesake(army *domain.Army) *Member {
	for _, p := range tm.players(army.Side) {
		if domain.SameName(p.Name, army.Name) {
			return p
		}
	}
	if id, ok := tm.former[domain.NameKey(army.Name)]; ok {
		if p := tm.memberByID(id); p != nil && p.Plays() && p.Side == army.Side {
			return p
		}
	}
	return nil
}

// breaches lists what changing army's controllers to names would break of 5.3, each naming its
// rule: a controller whose rank may not control it (5.3.1), a namesake army taken from its
// active player without his consent (5.3.2; consent names who consented), an active player's
// last army taken (5.3.4). names are members of the campaign playing for the army's side.
func (tm *team) breaches(army *domain.Army, names []string, consent *Member) []Breach {
	var out []Breach
	for _, n := range names {
		if m := tm.member(n); m != nil {
			if err := mayControl(m, army); err != nil {
				out = append(out, Breach{Rule: "5.3.1", Player: m.Name, Army: army.Name, Message: domainMessage(err)})
			}
		}
	}
	for _, old := range army.Controllers {
		if slices.ContainsFunc(names, func(n string) bool { return domain.SameName(n, old) }) {
			continue
		}
		p := tm.member(old)
		if p == nil || !tm.active(p) {
			// an inactive player has no protection (5.1)
			continue
		}
		if ns := tm.namesake(army); ns != nil && ns.AccountID == p.AccountID && mayControl(p, army) == nil && (consent == nil || consent.AccountID != p.AccountID) {
			out = append(out, Breach{Rule: "5.3.2", Player: p.Name, Army: army.Name,
				Message: fmt.Sprintf("%s is the namesake army of %s, an active player, and is not taken from him without his consent (5.3.2): ask it with a consent request", army.Name, p.Name)})
		}
		if len(tm.armiesOf(p.Name)) == 1 {
			out = append(out, Breach{Rule: "5.3.4", Player: p.Name, Army: army.Name,
				Message: fmt.Sprintf("%s is the last army of %s, an active player, and may never be taken away from him (5.3.4)", army.Name, p.Name)})
		}
	}
	return out
}

// domainMessage is an error's words.
func domainMessage(err error) string { return err.Error() }

// refusal is the error that refuses a change for its breaches, naming every rule.
func refusal(army string, bs []Breach) error {
	parts := make([]string, len(bs))
	for i, b := range bs {
		parts[i] = b.Message
	}
	return domain.Errorf(domain.ErrInvalid, "the control of %s cannot change so: %s", army, strings.Join(parts, "; "))
}

// rules lists the rule numbers of breaches, once each, in order.
func rules(bs []Breach) []string {
	var out []string
	for _, b := range bs {
		if !slices.Contains(out, b.Rule) {
			out = append(out, b.Rule)
		}
	}
	return out
}

// mayChangeSide says whether the actor may change the control of side's armies: the movement
// judges and admins any side's, its two holders of change power (5.2.2.1) and the people a
// judge authorized in an emergency (5.2.2.2) their side's.
func (tm *team) mayChangeSide(x access, side domain.Side) bool {
	me := (*Member)(nil)
	if x.member != nil {
		me = tm.memberByID(x.member.AccountID)
	}
	authorized := me != nil && slices.ContainsFunc(tm.authorized(side), func(m *Member) bool { return m.AccountID == me.AccountID })
	return mayChangeControl(x, tm.holds(me, side), authorized)
}

// demotionExcuses says whether 5.3.4's exception lets a demotion to rank take a player's last
// army: the players of the side at that rank or below (Cadets only when it is Cadet) outnumber
// the armies those players may control (5.3.4).
func (tm *team) demotionExcuses(demoted *Member) (bool, int, int) {
	side, rank := demoted.Side, demoted.Rank
	players := 0
	for _, p := range tm.players(side) {
		if p.AccountID == demoted.AccountID {
			p = demoted
		}
		if p.Rank >= rank && (p.Rank != domain.Cadet || rank == domain.Cadet) {
			players++
		}
	}
	armies := 0
	if rank != domain.Cadet {
		for _, a := range tm.m.Armies {
			if a.Side == side && (rank <= domain.Captain || a.Rank >= rank) {
				armies++
			}
		}
	}
	return players > armies, players, armies
}

// demote takes from a player the armies his new rank no longer allows: they are controlled by
// no player at once, and the side is told (5.3.1). When that takes an active player's last
// army, 5.3.4's exception either allows it or a new army must be found for him, which the side
// is told too and which stays on its list of what is owed until he controls an army again.
func (s *Service) demote(tx Tx, a Actor, id int64, m *Member, before *team) error {
	now := s.now()
	var freed []string
	for i := range before.m.Armies {
		army := &before.m.Armies[i]
		if !army.ControlledBy(m.Name) || mayControl(m, army) == nil {
			continue
		}
		keep := slices.DeleteFunc(slices.Clone(army.Controllers), func(n string) bool { return domain.SameName(n, m.Name) })
		if err := tx.AddControl(&ControlEntry{CampaignID: id, Army: army.Name, Controllers: nonNil(keep), EffectiveAt: now, By: a.Name(), Reason: m.Name + " may no longer control it (5.3.1)"}); err != nil {
			return err
		}
		freed = append(freed, army.Name)
	}
	if len(freed) == 0 {
		return nil
	}
	old := before.memberByID(m.AccountID)
	text := fmt.Sprintf("%s is now a %s and may no longer control %s: %s controlled by no player from now on, and %s must make a control change to give %s a new controller (5.3.1).",
		m.Name, m.Rank.Name(m.Side), strings.Join(freed, ", "), pick(len(freed) == 1, "it is", "they are"), m.Side.Title(), pick(len(freed) == 1, "it", "them"))
	owed := false
	if old != nil && before.active(old) && len(before.armiesOf(old.Name)) == len(freed) {
		ok, players, armies := before.demotionExcuses(m)
		if ok {
			text += fmt.Sprintf(" It was his last army: 5.3.4's exception applies, as %d players are at his rank or below for %d armies they may control.", players, armies)
		} else {
			owed = true
			text += fmt.Sprintf(" It was the last army of an active player: a new army must be found for him (5.3.4; %d players at his rank or below, %d armies they may control).", players, armies)
		}
	}
	if err := s.tell(tx, a, id, before.t.Number, m.Side, NoticeDemotion, m.Name, text); err != nil {
		return err
	}
	if owed {
		if err := tx.AddNotice(&Notice{CampaignID: id, Side: m.Side, Turn: before.t.Number, At: now, Kind: NoticeOwed, Player: m.Name, Text: "A new army must be found for " + m.Name + " (5.3.4)."}); err != nil {
			return err
		}
	}
	return bumpMap(tx, id)
}

// owedArmies lists the players of side for whom a new army must still be found (5.3.4): an
// owed-army notice, no army controlled since, and still active in every other respect.
func (tm *team) owedArmies(side domain.Side) []Breach {
	var out []Breach
	seen := map[string]bool{}
	for i := len(tm.notices) - 1; i >= 0; i-- {
		n := tm.notices[i]
		p := tm.member(n.Player)
		if n.Kind != NoticeOwed || n.Side != side || p == nil || seen[p.Name] || !p.Plays() || p.Side != side {
			continue
		}
		seen[p.Name] = true
		if !tm.otherwiseActive(p) || tm.controlledSince(p.Name, n.At) {
			continue
		}
		out = append(out, Breach{Rule: "5.3.4", Player: p.Name, Message: fmt.Sprintf("a new army must still be found for %s, an active player, since %s (5.3.4)", p.Name, n.At.Format("Mon 2 Jan 2006 15:04 UTC"))})
	}
	slices.Reverse(out)
	return out
}

// controlledSince says whether name was given the control of an army after at.
func (tm *team) controlledSince(name string, at time.Time) bool {
	for _, e := range tm.entries {
		if at.Before(e.EffectiveAt) && slices.ContainsFunc(e.Controllers, func(n string) bool { return domain.SameName(n, name) }) {
			return true
		}
	}
	return len(tm.armiesOf(name)) > 0
}

// tell records a notice to a side and writes it in the side's channel, as the actor when he has
// an account.
func (s *Service) tell(tx Tx, a Actor, id int64, turn int, side domain.Side, kind, player, text string) error {
	if err := tx.AddNotice(&Notice{CampaignID: id, Side: side, Turn: turn, At: s.now(), Kind: kind, Player: player, Text: text}); err != nil {
		return err
	}
	if a.Account == nil || a.Account.ID == 0 {
		return nil
	}
	return tx.AddMessage(&Message{CampaignID: id, Turn: turn, Channel: string(side), AccountID: a.Account.ID, Author: a.Account.Name, At: s.now(), Text: text})
}

func pick(c bool, yes, no string) string {
	if c {
		return yes
	}
	return no
}
