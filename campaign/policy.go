// Every permission of the workflow, one predicate per action named for it: the service's methods
// ask these and decide nothing about who may do what themselves.

package campaign

import (
	"slices"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/movement"
)

// The kinds of people the predicates below are made of. A server admin is no judge of a
// campaign: he may do what the predicates that name admins say, and no more.

// judgeOrAdmin: a movement or battle judge of the campaign, or a server admin.
func (x access) judgeOrAdmin() bool { return x.member.MovementOrBattleJudge() || x.admin() }

// battleJudgeOrAdmin: a battle judge of the campaign, or a server admin.
func (x access) battleJudgeOrAdmin() bool { return x.has(BattleJudge) || x.admin() }

// Accounts and the server.

// mayCreateAccount: admins create accounts.
func mayCreateAccount(x access) bool { return x.admin() }

// mayListAccounts: admins list the accounts.
func mayListAccounts(x access) bool { return x.admin() }

// mayCreateCampaign: admins create campaigns (and import scenarios).
func mayCreateCampaign(x access) bool { return x.admin() }

// mayReadServerAudit: admins read the server's audit log.
func mayReadServerAudit(x access) bool { return x.admin() }

// mayCorrectCards: the card catalogue is the server's, and the judges of any campaign (movement,
// battle or mercenary) and the admins correct it; memberships are the actor's in every campaign.
func mayCorrectCards(a Actor, memberships []*Member) bool {
	if a.Account != nil && a.Account.Admin {
		return true
	}
	for _, m := range memberships {
		if m.MovementOrBattleJudge() || m.Has(MercenaryJudge) {
			return true
		}
	}
	return false
}

// mayChangePassword: an account changes its own password (knowing the old one).
func mayChangePassword(a Actor) bool { return a.Account != nil }

// maySeeMemberships: an account sees its own memberships.
func maySeeMemberships(a Actor) bool { return a.Account != nil }

// What anyone may see: the campaigns and their turns, the members, the control list, the map, a
// locked turn's report, the battles and their deadlines, the dice, the sanctions, the card
// catalogue, and a troop list's check. Each view then keeps back what only some may see (below).

// maySeeCampaign: anyone sees a campaign, its turns, members and control list (the Proxy List
// thread is public, 5.2.1).
func maySeeCampaign(access) bool { return true }

// maySeeMap: anyone sees the map (1.2); see viewClass for its private parts.
func maySeeMap(access) bool { return true }

// maySeePosts: anyone reads the movement thread; see maySeePost and maySeeTransfers.
func maySeePosts(access) bool { return true }

// maySeeReport: anyone reads a locked turn's report; see maySeeEveryTransfer.
func maySeeReport(access) bool { return true }

// maySeeBattles: anyone sees who fights where and the strategy deadlines; see maySeeStrategies,
// maySeeProposal and maySeeBattleResult.
func maySeeBattles(access) bool { return true }

// maySeeDice: anyone reads a turn's dice, and after its lock its seed and rolls (B6).
func maySeeDice(access) bool { return true }

// maySeeSanctions: anyone sees the sanctions, whose losses show on the map (5.4.1).
func maySeeSanctions(access) bool { return true }

// mayCheckTroops: anyone checks a troop list.
func mayCheckTroops(access) bool { return true }

// What only some may see.

// viewClass names what part of the campaign the actor sees: "judge" for the movement and battle
// judges and the admins, who see everything; a side for its players and (the mercenaries) its
// judge; "public" for everyone else. Views of the map differ only by class.
func viewClass(x access) string {
	if x.judgeOrAdmin() {
		return "judge"
	}
	if s := x.side(); s != "" {
		return string(s)
	}
	return "public"
}

// maySeePlans: the rest of a long move and the shipments on their way are seen by the army's
// side and the judges (M14, T2).
func maySeePlans(class string, side domain.Side) bool {
	return class == "judge" || class == string(side)
}

// maySeeLockError: why a scheduled lock failed is for the judges and admins.
func maySeeLockError(x access) bool { return x.judgeOrAdmin() }

// maySeePost: a private post is seen by its author and the judges until the turn is locked (C2);
// every other post by anyone.
func maySeePost(x access, p *Post, t *Turn) bool {
	return !p.Private || t.Status != Open || isAuthor(x, p) || x.judgeOrAdmin()
}

// maySeeTransfers: the private detail of a post's transfers is seen by its author, his side and
// the judges (T2); authorSide is the side the post's author plays for ("" for none).
func maySeeTransfers(x access, p *Post, authorSide domain.Side) bool {
	return isAuthor(x, p) || x.judgeOrAdmin() || (x.side() != "" && authorSide == x.side())
}

// maySeeEveryTransfer: a locked turn's report shows every transfer to the judges and admins; the
// others see their own side's (T2).
func maySeeEveryTransfer(x access) bool { return x.judgeOrAdmin() }

// maySeeResults: a turn's battle results are seen by the judges and admins before its lock, by
// everyone after.
func maySeeResults(x access, t *Turn) bool { return t.Status != Open || x.judgeOrAdmin() }

// maySeeStrategies: a side's strategies are read by that side's players, the mercenary judge for
// the mercenaries, the battle judges and the admins (B1).
func maySeeStrategies(x access, side domain.Side) bool {
	return x.battleJudgeOrAdmin() || (side != "" && x.side() == side)
}

// maySeeProposal: the server's proposal, with its bonuses and formula values, is for the battle
// judges and admins.
func maySeeProposal(x access) bool { return x.battleJudgeOrAdmin() }

// maySeeBattleResult: a battle's confirmed result and its text are seen by the judges and admins
// before the lock, by everyone after.
func maySeeBattleResult(x access, t *Turn) bool { return t.Status == Locked || x.judgeOrAdmin() }

// mayReplay: the judges and admins replay a locked turn.
func mayReplay(x access) bool { return x.judgeOrAdmin() }

// mayReadAudit: a campaign's audit log is read by its judges (the mercenary judge too) and the
// admins.
func mayReadAudit(x access) bool { return x.judgeOrAdmin() || x.has(MercenaryJudge) }

// Members and the control list.

// mayManageMembers: the judges, the admins and the team leaders add members and change them;
// a leader only as leaderMay allows.
func mayManageMembers(x access) bool { return x.judgeOrAdmin() || x.has(Leader) }

// maySetAnyMember: the judges and admins set anything of any member.
func maySetAnyMember(x access) bool { return x.judgeOrAdmin() }

// leaderMay checks what a team leader asks for a member (5.2, 1.1): players of his own side, no
// roles granted or taken, no General or Admiral made or unmade. It fills in the side and the
// player role of a member he adds.
func leaderMay(leader, old *Member, m *Member) error {
	if old != nil && (!old.Plays() || old.Side != leader.Side) {
		return domain.Errorf(domain.ErrForbidden, "%s is not a player of your side: only judges may change him", m.Name)
	}
	if old == nil && m.Side == "" {
		m.Side = leader.Side
	}
	if m.Side != leader.Side {
		return domain.Errorf(domain.ErrForbidden, "a team leader manages only players of his own side (%s)", leader.Side)
	}
	if old == nil && len(m.Roles) == 0 {
		m.Roles = []Role{Player}
	}
	want := slices.Sorted(slices.Values(m.Roles))
	switch {
	case old == nil && slices.Equal(want, []Role{Player}):
	case old != nil && slices.Equal(want, old.Roles):
	default:
		return domain.Errorf(domain.ErrForbidden, "only judges may grant or take away roles; a team leader may add players")
	}
	if m.Rank != 0 && m.Rank < domain.Captain && (old == nil || old.Rank != m.Rank) {
		return domain.Errorf(domain.ErrForbidden, "only judges may make someone %s or %s", domain.General.Name(leader.Side), domain.Admiral.Name(leader.Side))
	}
	if old != nil && old.Rank != 0 && old.Rank < domain.Captain && m.Rank != old.Rank {
		return domain.Errorf(domain.ErrForbidden, "%s is %s: only judges may change the rank of the %s or an %s (1.1)", m.Name, old.Rank.Name(leader.Side), domain.General.Name(leader.Side), domain.Admiral.Name(leader.Side))
	}
	return nil
}

// mayChangeControl: the movement judges (who keep the list, 5.2.1) and the admins change any
// side's control list; a side's two holders of change power (5.2.2.1) and the people a judge
// authorized in an emergency (5.2.2.2) change their side's.
func mayChangeControl(x access, holder, authorized bool) bool {
	return x.has(MovementJudge) || x.admin() || holder || authorized
}

// mayControl checks the rank rule for one member controlling one army (5.3.1): a player of the
// army's side, not a Cadet, and of a rank no higher than the army's unless a Captain or above.
func mayControl(m *Member, army *domain.Army) error {
	switch {
	case !m.Plays() || m.Side != army.Side:
		return domain.Errorf(domain.ErrInvalid, "%s does not play for %s, so cannot control %s", m.Name, army.Side.Title(), army.Name)
	case m.Rank == domain.Cadet:
		return domain.Errorf(domain.ErrInvalid, "%s is a %s, who controls no army (1.1, 5.3.1)", m.Name, m.Rank.Name(m.Side))
	case !m.Rank.Leader() && army.Rank < m.Rank:
		return domain.Errorf(domain.ErrInvalid, "%s is a %s and cannot control %s, a %s army: only %s and above may control armies of higher rank than their own (5.3.1)",
			m.Name, m.Rank.Name(m.Side), army.Name, army.Rank.Name(army.Side), domain.Captain.Name(m.Side))
	}
	return nil
}

// A turn's clock: the movement and battle judges lock, extend, pause and resume; an admin, who
// is no judge of the campaign, does not.

// mayLock: the movement and battle judges lock a turn early (3.1).
func mayLock(x access) bool { return x.member.MovementOrBattleJudge() }

// mayExtend: the movement and battle judges extend a turn.
func mayExtend(x access) bool { return x.member.MovementOrBattleJudge() }

// mayPause: the movement and battle judges pause a campaign.
func mayPause(x access) bool { return x.member.MovementOrBattleJudge() }

// mayResume: the movement and battle judges resume a campaign.
func mayResume(x access) bool { return x.member.MovementOrBattleJudge() }

// Posts and orders.

// mayPost: a campaign's players, team leaders and mercenary judge post orders.
func mayPost(x access) bool { return x.member.Plays() || x.has(MercenaryJudge) }

// postsAs is the author name the actor's posts carry: his own as a player, the mercenary judge's
// (M15) for a mercenary judge who does not play, "" for one who may not post.
func postsAs(x access) string {
	switch {
	case !mayPost(x) || x.actor.Account == nil:
		return ""
	case x.member.Plays():
		return x.actor.Account.Name
	}
	return movement.MercenaryJudge
}

// mayOrder says whether an author's orders count for an army: its controller's, or the
// mercenary judge's for a mercenary army nobody else controls (3.3.6, 5.4.1, M15). The rule
// engine gives a text line for any other army not_controller (movement.Check); the order desk
// refuses structured orders for it; the map marks the armies a reader may order (orderable).
// TestMayOrderIsTheEngines holds it to the engine's answer.
func mayOrder(author string, army *domain.Army) bool {
	if author == "" {
		return false
	}
	if army.ControlledBy(author) {
		return true
	}
	return army.Side == domain.Mercenary && len(army.Controllers) == 0 && domain.SameName(author, movement.MercenaryJudge)
}

// mayChangePost: only a post's author edits or withdraws it.
func mayChangePost(x access, p *Post) bool { return isAuthor(x, p) }

// isAuthor: the actor wrote the post.
func isAuthor(x access, p *Post) bool {
	return x.actor.Account != nil && p.AccountID == x.actor.Account.ID
}

// The battle desk.

// maySendStrategy says whether the actor may send the strategy of army, whose controllers are as
// the control list stands now: its controller, the mercenary judge for a mercenary army nobody
// controls, or the contingency of one of its controllers (5.2.3), in which case contingency is
// true.
func maySendStrategy(x access, army *domain.Army, members []Member) (ok, contingency bool) {
	if x.actor.Account == nil {
		return false, false
	}
	me := x.actor.Account.Name
	switch {
	case army.ControlledBy(me):
		return true, false
	case army.Side == domain.Mercenary && len(army.Controllers) == 0 && x.has(MercenaryJudge):
		return true, false
	}
	for _, c := range army.Controllers {
		for _, mem := range members {
			if domain.SameName(mem.Name, c) && mem.Contingency != "" && domain.SameName(mem.Contingency, me) {
				return true, true
			}
		}
	}
	return false, false
}

// mayProposeBattle: the battle judges and admins have the server propose a result.
func mayProposeBattle(x access) bool { return x.battleJudgeOrAdmin() }

// mayConfirmBattle: the battle judges and admins confirm a proposal.
func mayConfirmBattle(x access) bool { return x.battleJudgeOrAdmin() }

// mayEnterResult: the battle judges enter a result directly; an admin confirms proposals instead.
func mayEnterResult(x access) bool { return x.has(BattleJudge) }

// mayReadFormulas: the battle judges and admins read the battle formulas, never the players.
func mayReadFormulas(x access) bool { return x.battleJudgeOrAdmin() }

// mayEditFormulas: the battle judges and admins edit the battle formulas.
func mayEditFormulas(x access) bool { return x.battleJudgeOrAdmin() }

// maySanction: the battle judges and admins sanction an army (5.4.1).
func maySanction(x access) bool { return x.battleJudgeOrAdmin() }

// The armies desk.

// mayCreateArmy: the judges and admins put new armies on the map (2.5.2); the mercenary judge
// mercenary armies (chapter 6, 6.3.2).
func mayCreateArmy(x access, side domain.Side) bool {
	return x.judgeOrAdmin() || (side == domain.Mercenary && x.has(MercenaryJudge))
}

// mayEditArmy: the judges and admins edit armies; the mercenary judge mercenary armies.
func mayEditArmy(x access, army *domain.Army) bool {
	return x.judgeOrAdmin() || (army.Side == domain.Mercenary && x.has(MercenaryJudge))
}

// mayRemoveArmy: the judges and admins take an army off the map; the mercenary judge a
// mercenary army (6.3.2).
func mayRemoveArmy(x access, army *domain.Army) bool { return mayEditArmy(x, army) }

// mayChangeTroops: an army's controller, as the control list stands now, changes its troops
// (2.3.2) or customises it (2.6); army carries its controllers of now.
func mayChangeTroops(x access, army *domain.Army) bool {
	return x.actor.Account != nil && army.ControlledBy(x.actor.Account.Name)
}

// The mercenary desk (chapter 6).

// maySetMercenaryAI: the mercenary judge, the movement judges and the admins set mercenary_ai
// and the after-lock edit window.
func maySetMercenaryAI(x access) bool {
	return x.has(MercenaryJudge) || x.has(MovementJudge) || x.admin()
}

// maySeeMercenaryPlan: the mercenary judge and the admins read the AI's plan for the open turn.
func maySeeMercenaryPlan(x access) bool { return x.has(MercenaryJudge) || x.admin() }

// mayPostMercenaryPlan: the mercenary judge posts the plan as his orders (M15).
func mayPostMercenaryPlan(x access) bool { return x.has(MercenaryJudge) }

// mayEditAfterLock: the mercenary judge alone posts or waives the after-lock edit (6.3.2).
func mayEditAfterLock(x access) bool { return x.has(MercenaryJudge) }

// maySeeDraft: a locked turn's update, kept for the after-lock edit, is read by the judges, the
// mercenary judge and the admins before it is published.
func maySeeDraft(x access) bool { return x.judgeOrAdmin() || x.has(MercenaryJudge) }

// maySeeMercenaryStrategies: the mercenary AI's battle strategies in a lock report are read by
// the judges (the mercenary judge too) and the admins, as every transfer is (B1, T2).
func maySeeMercenaryStrategies(x access) bool { return x.judgeOrAdmin() || x.has(MercenaryJudge) }

// Notifications, messages and the guides of the desks (issue 18).

// maySeeFeed: anyone reads a campaign's feed of public events.
func maySeeFeed(access) bool { return true }

// maySubscribe: any logged-in account chooses what it receives of a campaign: its public events,
// and the reminders meant for it.
func maySubscribe(x access) bool { return x.actor.Account != nil }

// channelOf is the channel a message to "side" goes to for the actor: his side's ("" for none).
func channelOf(x access, channel string) string {
	if channel == "side" {
		return string(x.side())
	}
	return channel
}

// mayPostMessage: a campaign's members write in its public thread and to its judges; a side's
// players (and the mercenaries' judge) in their side's channel; the judges and admins answer in
// the judges' channel.
func mayPostMessage(x access, channel string) bool {
	switch channel {
	case "public":
		return x.member != nil || x.admin()
	case "judges":
		return x.member != nil || x.admin()
	case "":
		return false
	}
	return string(x.side()) == channel
}

// maySeeMessage: the public thread is everyone's; a side's channel is its side's and the judges'
// (who moderate it); a conversation with the judges is its player's and the judges'.
func maySeeMessage(x access, m *Message) bool {
	switch {
	case m.Channel == "public", x.judgeOrAdmin():
		return true
	case m.Channel == "judges":
		return x.actor.Account != nil && x.actor.Account.ID == m.With
	}
	return x.side() != "" && string(x.side()) == m.Channel
}

// maySeeHiddenText: a hidden message's text stays readable for the judges and its author.
func maySeeHiddenText(x access, m *Message) bool {
	return x.judgeOrAdmin() || (x.actor.Account != nil && x.actor.Account.ID == m.AccountID)
}

// mayHideMessage: the movement and battle judges and the admins hide a message, with a reason.
func mayHideMessage(x access) bool { return x.judgeOrAdmin() }

// maySeeReach: the squares an army can reach, and why an order would be refused, are for whoever
// may order it (mayOrder) and the judges.
func maySeeReach(x access, army *domain.Army) bool {
	return x.judgeOrAdmin() || mayOrder(postsAs(x), army)
}

// maySeeOrderDesk: the order desk's list of armies is for whoever posts orders.
func maySeeOrderDesk(x access) bool { return mayPost(x) }

// maySeeEveryLine: every post of a turn with each line's outcome, private ones too, before the
// lock, is for the judges and admins.
func maySeeEveryLine(x access) bool { return x.judgeOrAdmin() }

// mayResetPassword: an admin resets an account's password (the account must change it).
func mayResetPassword(x access) bool { return x.admin() }
