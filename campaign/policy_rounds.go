// The permissions of a new round's setup and of corrections (2.5, 3.3.3): one predicate per action.

package campaign

import (
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/round"
)

// A new round's setup (2.5), run by the judges with the sides' leaders and players.

// mayCreateRound: admins create a round to set up.
func mayCreateRound(x access) bool { return x.admin() }

// mayStartNextRound: the judges of a finished campaign (and admins) start its next round (1.7).
func mayStartNextRound(x access) bool { return x.judgeOrAdmin() }

// maySeeRound: anyone sees a round; viewRound keeps back what only its side or the judges see.
func maySeeRound(access) bool { return true }

// maySeeRoundSecrets: the judges (and admins) see all of a round before it starts — every site,
// description, army and mercenary, its seed and its problems.
func maySeeRoundSecrets(x access) bool { return x.judgeOrAdmin() }

// mayRunRound: the movement and battle judges (and admins) place the sites, set the counts,
// review descriptions, publish, drop and move the armies, fill in what is missing and start.
func mayRunRound(x access) bool { return x.judgeOrAdmin() }

// mayRequestRound: a team leader sends the judges requests for his side (2.5.1.1).
func mayRequestRound(x access) bool { return x.has(Leader) && x.side().IsTeam() }

// mayDescribeBase: a side's team leaders describe its bases (2.5.1.2); the judges too.
func mayDescribeBase(x access, side domain.Side) bool {
	return mayRunRound(x) || (x.has(Leader) && x.side() == side && side.IsTeam())
}

// mayChooseWinConditions: the Coalition's leadership chooses its win conditions (2.5.1.3); the
// judges fill in a missing choice.
func mayChooseWinConditions(x access) bool {
	return mayRunRound(x) || (x.has(Leader) && x.side() == domain.Coalition)
}

// maySendRoundArmy: a player sends his own army's request, a team leader any army's of his side
// (proxies too, 2.5.2.2), the judges any.
func maySendRoundArmy(x access, army string, side domain.Side) bool {
	switch {
	case mayRunRound(x):
		return true
	case x.member.Plays() && domain.SameName(army, x.member.Name):
		return true
	}
	return x.has(Leader) && x.side().IsTeam() && (side == "" || side == x.side())
}

// mayRemoveRoundArmy: the judges remove any army of a round, a team leader his side's proxies.
func mayRemoveRoundArmy(x access, a *round.Army) bool {
	return mayRunRound(x) || (x.has(Leader) && x.side() == a.Side && a.Player == "")
}

// mayEditRoundMercenaries: the judges and the mercenary judge write a round's mercenaries.
func mayEditRoundMercenaries(x access) bool { return mayRunRound(x) || x.has(MercenaryJudge) }

// mayCorrectTurn: a battle judge corrects a locked turn — only he overrules the movement judge's
// calls (3.3.3).
func mayCorrectTurn(x access) bool { return x.has(BattleJudge) }

// maySeeOriginals: the judges (and admins) read the records a correction replaced.
func maySeeOriginals(x access) bool { return x.judgeOrAdmin() }
