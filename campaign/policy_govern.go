// The permissions of the teams' self-government (chapters 1 and 5): one predicate per action.

package campaign

import (
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// The teams' self-government (chapters 1 and 5, issue 15).

// judge: a movement or battle judge of the campaign, an assistant judge included (1.3: he acts
// as the judge he assists).
func (x access) judge() bool { return x.member.MovementOrBattleJudge() }

// maySeeActivityDetail: when a player last posted and the statements of his inactivity are for
// his side, the judges and the admins (whether he is active is public, 5.1).
func maySeeActivityDetail(x access, side domain.Side) bool {
	return x.judgeOrAdmin() || (side != "" && x.side() == side)
}

// maySetOwnActivity: a player says for himself that he is inactive, or back (5.1).
func maySetOwnActivity(x access) bool { return x.member.Plays() }

// mayDeclareInactive: a team leader declares a player of his own side inactive (5.1).
func mayDeclareInactive(x access, p *Member) bool {
	return x.has(Leader) && x.member.Plays() && x.member.Side == p.Side
}

// mayRejectDeclaration: the battle judge (or an assistant battle judge, 1.3) rejects a leaders'
// declaration of inactivity (5.1).
func mayRejectDeclaration(x access) bool { return x.has(BattleJudge) }

// mayHandPower: the change power of a side goes on from giver at the word of the side's
// CP/General, of giver himself, or of the battle judge (5.2.2.1).
func mayHandPower(x access, general, giver *Member) bool {
	if x.has(BattleJudge) {
		return true
	}
	return x.member != nil && ((general != nil && general.AccountID == x.member.AccountID) || giver.AccountID == x.member.AccountID)
}

// mayRequestConsent: whoever may change a side's control list asks a namesake's consent
// (5.3.2); the same as mayChangeControl.
func mayRequestConsent(x access, holder, authorized bool) bool {
	return mayChangeControl(x, holder, authorized)
}

// mayAnswerConsent: only the namesake player himself accepts or declines taking his army
// (5.3.2).
func mayAnswerConsent(x access, r *ControlRequest) bool {
	return x.actor.Account != nil && x.actor.Account.ID == r.ConsentOf
}

// maySeeControlRequests: a side's consent requests are seen by its players, the judges and the
// admins.
func maySeeControlRequests(x access, side domain.Side) bool { return maySeeActivityDetail(x, side) }

// mayDeclareEmergency: the movement and battle judges authorize an emergency configuration
// (5.2.2.2); an admin is no judge.
func mayDeclareEmergency(x access) bool { return x.judge() }

// maySeeEmergencies: a side's emergencies and what it must still put right are for its players,
// the judges and the admins (the lock report tells everyone).
func maySeeEmergencies(x access, side domain.Side) bool { return maySeeActivityDetail(x, side) }

// mayCallVote: a team leader calls a vote of his side, and the movement and battle judges one of
// either side or of both (1.4).
func mayCallVote(x access, side domain.Side) bool {
	return x.judge() || (side != "" && x.has(Leader) && x.member.Plays() && x.member.Side == side)
}

// maySeeVote: a vote of one side is seen by its players, its voters, the judges and the admins;
// a vote of both sides by anyone.
func maySeeVote(x access, v *Vote) bool {
	if v.Side == "" || x.judgeOrAdmin() || x.side() == v.Side {
		return true
	}
	return x.actor.Account != nil && slices.ContainsFunc(v.Voters, func(w Voter) bool { return w.AccountID == x.actor.Account.ID })
}

// maySeeBallots: who voted what is seen by anyone who sees an open vote; in a secret one by
// nobody, each voter seeing only his own (1.4).
func maySeeBallots(v *Vote) bool { return !v.Secret }

// mayAskName: a member of the campaign asks for a new screen name (1.6).
func mayAskName(x access) bool { return x.member != nil }

// mayDecideName: the battle judge (or an assistant battle judge) approves or declines a new
// screen name (1.6).
func mayDecideName(x access) bool { return x.has(BattleJudge) }

// maySeeNameRequest: a name change waiting or declined is seen by its asker, the judges and the
// admins; an approved one by anyone (the old posts link to it).
func maySeeNameRequest(x access, n *NameChange) bool {
	return n.Status == Approved || x.judgeOrAdmin() || (x.actor.Account != nil && x.actor.Account.ID == n.AccountID)
}

// mayAskAdmission: an account that plays for no side of the campaign, and is not its battle
// judge (1.3) or mercenary judge (6), asks a side for admission (1.1).
func mayAskAdmission(x access) bool {
	return x.actor.Account != nil && !x.member.Plays() && !x.has(BattleJudge) && !x.has(MercenaryJudge)
}

// mayDecideAdmission: a side's team leaders, the judges and the admins accept or decline a
// request to join it (1.1).
func mayDecideAdmission(x access, side domain.Side) bool {
	return x.judgeOrAdmin() || (x.has(Leader) && x.member.Plays() && x.member.Side == side)
}

// maySeeAdmission: a request for admission is seen by its asker, the side's players, the judges
// and the admins.
func maySeeAdmission(x access, ad *Admission) bool {
	return maySeeActivityDetail(x, ad.Side) || (x.actor.Account != nil && x.actor.Account.ID == ad.AccountID)
}

// mayOverrule says whether the actor may undo what by decided: anyone may but an assistant judge
// may not undo the judge he assists (1.3).
func mayOverrule(x access, by string) bool {
	return x.member == nil || x.member.Assists == "" || !domain.SameName(x.member.Assists, by)
}
