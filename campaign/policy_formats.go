// The permissions of the card formats (issue 19): one predicate per action.

package campaign

import (
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// The card formats (issue 19): anyone checks a deck, reads the formats, the banned lists, the
// leagues and the matches; these decide the rest.

// mayEditBanlists: admins edit the formats' banned lists (BANLISTS.md, F6).
func mayEditBanlists(x access) bool { return x.admin() }

// mayCorrectDeckCards: the judges of any campaign and the admins correct the every-card data,
// as they correct the creature data (mayCorrectCards).
func mayCorrectDeckCards(a Actor, memberships []*Member) bool { return mayCorrectCards(a, memberships) }

// mayCreateLeague: admins create leagues (docs/FORMATS.md E1).
func mayCreateLeague(x access) bool { return x.admin() }

// atTable reports whether the actor's account is one of the match's players.
func atTable(a Actor, m *MatchRecord) bool {
	return a.Account != nil && slices.ContainsFunc(m.Players, func(p string) bool { return domain.SameName(p, a.Account.Name) })
}

// mayCreateMatch: an account starts a match it plays in; an admin any match (E3).
func mayCreateMatch(a Actor, m *MatchRecord) bool {
	return atTable(a, m) || a.Account != nil && a.Account.Admin
}

// mayKeepScore: the match's players enter its events and undo them — the table keeps its own
// score —, and an admin may, to put a table's mistake right (E4).
func mayKeepScore(a Actor, m *MatchRecord) bool {
	return atTable(a, m) || a.Account != nil && a.Account.Admin
}
