// The records of the teams' self-government as a store keeps them (chapters 1 and 5): statements
// of inactivity (5.1), the holders of change power (5.2.2.1), consent requests (5.3.2),
// emergency configurations (5.2.2.2), notices to a side, votes and ballots (1.4), screen-name
// changes (1.6) and requests for admission (1.1).

package campaign

import (
	"time"

	"github.com/coalition-wargame/coalition/domain"
)

// Inactivity is a statement that a player is inactive (5.1): his own, with an optional return
// date, or his leaders' declaration, with a reason, which the battle judge may reject.
type Inactivity struct {
	ID         int64      `json:"id"`
	CampaignID int64      `json:"-"`
	AccountID  int64      `json:"-"`
	Player     string     `json:"player"`
	Self       bool       `json:"self"`
	By         string     `json:"by"`
	At         time.Time  `json:"at"`
	Until      *time.Time `json:"until,omitempty"`
	Reason     string     `json:"reason,omitempty"`
	EndedAt    *time.Time `json:"ended_at,omitempty"`
	EndedBy    string     `json:"ended_by,omitempty"`
	RejectedAt *time.Time `json:"rejected_at,omitempty"`
	RejectedBy string     `json:"rejected_by,omitempty"`
	Rejection  string     `json:"rejection,omitempty"`
}

// PowerGrant is one change of who holds a side's power to change the control list
// (5.2.2.1): from At on, the accounts Holders hold it.
type PowerGrant struct {
	ID         int64       `json:"id"`
	CampaignID int64       `json:"-"`
	Side       domain.Side `json:"side"`
	Holders    []int64     `json:"-"`
	Names      []string    `json:"holders"`
	At         time.Time   `json:"at"`
	By         string      `json:"by"`
	Reason     string      `json:"reason,omitempty"`
}

// The statuses of a request that someone decides (consent, a name change, an admission); a
// request waiting for its decision is Pending.
const (
	Accepted = "accepted"
	Declined = "declined"
	Approved = "approved"
)

// ControlRequest is a control change that takes a namesake army from its player, waiting for
// his consent (5.3.2).
type ControlRequest struct {
	ID          int64      `json:"id"`
	CampaignID  int64      `json:"-"`
	Army        string     `json:"army"`
	Controllers []string   `json:"controllers"`
	Reason      string     `json:"reason,omitempty"`
	By          string     `json:"by"`
	At          time.Time  `json:"at"`
	ConsentOf   int64      `json:"-"`
	Namesake    string     `json:"namesake"`
	Status      string     `json:"status"`
	DecidedAt   *time.Time `json:"decided_at,omitempty"`
	Decision    string     `json:"decision,omitempty"`
}

// The kinds of emergency configuration (5.2.2.2).
const (
	// Authorize lets two other people change a side's control list.
	Authorize = "authorize"
	// Accept is a control change accepted although it breaks 5.3.
	Accept = "accept"
)

// Emergency is an emergency configuration a judge allowed (5.2.2.2) in turn Turn: the side
// must be legal again by the lock of the turn after, which closes it (ClosedTurn, Outcome).
type Emergency struct {
	ID          int64       `json:"id"`
	CampaignID  int64       `json:"-"`
	Side        domain.Side `json:"side"`
	Kind        string      `json:"kind"`
	People      []string    `json:"people,omitempty"`
	Army        string      `json:"army,omitempty"`
	Controllers []string    `json:"controllers,omitempty"`
	Breaches    []Breach    `json:"breaches,omitempty"`
	Reason      string      `json:"reason"`
	By          string      `json:"by"`
	At          time.Time   `json:"at"`
	Turn        int         `json:"turn"`
	ClosedTurn  int         `json:"closed_turn,omitempty"`
	Outcome     string      `json:"outcome,omitempty"`
}

// Breach is one limitation of 5.3 that a control change or configuration breaks.
type Breach struct {
	Rule    string `json:"rule"`
	Player  string `json:"player,omitempty"`
	Army    string `json:"army,omitempty"`
	Message string `json:"message"`
}

// Notice is something a side is told about its control list: a demotion's freed armies
// (5.3.1), an army owed to a player (5.3.4), an emergency at a lock (5.2.2.2).
type Notice struct {
	ID         int64       `json:"id"`
	CampaignID int64       `json:"-"`
	Side       domain.Side `json:"side"`
	Turn       int         `json:"turn"`
	At         time.Time   `json:"at"`
	Kind       string      `json:"kind"`
	Player     string      `json:"player,omitempty"`
	Text       string      `json:"text"`
}

// The kinds of notice.
const (
	NoticeDemotion  = "demotion"
	NoticeOwed      = "owed-army"
	NoticeEmergency = "emergency"
	NoticeLock      = "lock"
)

// VoteKind is one of the voting systems of 1.4.
type VoteKind string

// The voting systems (1.4.1–1.4.3).
const (
	NormalVote  VoteKind = "normal"
	LeaderVote  VoteKind = "leader"
	SpecialVote VoteKind = "special"
)

// Voter is one voter of a special vote and his voting points (1.4.3).
type Voter struct {
	AccountID int64  `json:"-"`
	Name      string `json:"name"`
	Points    int    `json:"points"`
}

// Vote is a question put to a side, or to both, under one of the systems of 1.4.
type Vote struct {
	ID         int64       `json:"id"`
	CampaignID int64       `json:"-"`
	Kind       VoteKind    `json:"kind"`
	Side       domain.Side `json:"side,omitempty"`
	Question   string      `json:"question"`
	Options    []string    `json:"options"`
	Voters     []Voter     `json:"voters,omitempty"`
	Secret     bool        `json:"secret"`
	ClosesAt   time.Time   `json:"closes_at"`
	By         string      `json:"called_by"`
	At         time.Time   `json:"called_at"`
}

// Ballot is one voter's choice in a vote, with the points it carries; a voter changes it
// until the vote closes.
type Ballot struct {
	VoteID    int64     `json:"-"`
	AccountID int64     `json:"-"`
	Choice    string    `json:"choice"`
	Points    int       `json:"points"`
	At        time.Time `json:"at"`
}

// NameChange is a player's request for a new screen name (1.6), which a battle judge decides.
// Army names his namesake army when he asks for it to be renamed with him, to ArmyName; the
// army is renamed when the next turn opens (ArmyDone).
type NameChange struct {
	ID         int64      `json:"id"`
	CampaignID int64      `json:"-"`
	AccountID  int64      `json:"-"`
	Old        string     `json:"old_name"`
	New        string     `json:"new_name"`
	Army       string     `json:"army,omitempty"`
	ArmyName   string     `json:"army_name,omitempty"`
	ArmyDone   bool       `json:"army_renamed,omitempty"`
	Status     string     `json:"status"`
	At         time.Time  `json:"asked_at"`
	DecidedBy  string     `json:"decided_by,omitempty"`
	DecidedAt  *time.Time `json:"decided_at,omitempty"`
	Reason     string     `json:"reason,omitempty"`
}

// Admission is a newcomer's request to join a side (1.1), which its leaders accept with a rank
// or decline.
type Admission struct {
	ID         int64          `json:"id"`
	CampaignID int64          `json:"-"`
	AccountID  int64          `json:"-"`
	Name       string         `json:"name"`
	Side       domain.Side    `json:"side"`
	Message    string         `json:"message,omitempty"`
	Factions   []domain.Color `json:"factions,omitempty"`
	Status     string         `json:"status"`
	At         time.Time      `json:"asked_at"`
	DecidedBy  string         `json:"decided_by,omitempty"`
	DecidedAt  *time.Time     `json:"decided_at,omitempty"`
	Rank       domain.Rank    `json:"rank,omitempty"`
	Reason     string         `json:"reason,omitempty"`
}

// GovernReader is what the teams' self-government reads from a store.
type GovernReader interface {
	// PostedSince is, for every account that posted or wrote a message in the campaign at or
	// after since, the time of its latest one.
	PostedSince(campaign int64, since time.Time) (map[int64]time.Time, error)
	// Inactivities lists a campaign's statements of inactivity by id.
	Inactivities(campaign int64) ([]Inactivity, error)
	// PowerGrants lists a campaign's changes of change power by id.
	PowerGrants(campaign int64) ([]PowerGrant, error)
	// ControlRequests lists a campaign's consent requests by id.
	ControlRequests(campaign int64) ([]ControlRequest, error)
	// Emergencies lists a campaign's emergency configurations by id.
	Emergencies(campaign int64) ([]Emergency, error)
	// Notices lists a campaign's notices by id.
	Notices(campaign int64) ([]Notice, error)
	// Votes lists a campaign's votes by id.
	Votes(campaign int64) ([]Vote, error)
	// Ballots lists a vote's ballots by account.
	Ballots(vote int64) ([]Ballot, error)
	// NameChanges lists every name change of the server by id (campaign 0), or those asked in
	// one campaign.
	NameChanges(campaign int64) ([]NameChange, error)
	// Admissions lists a campaign's requests for admission by id.
	Admissions(campaign int64) ([]Admission, error)
}

// GovernWriter is what the teams' self-government writes.
type GovernWriter interface {
	// AddInactivity stores a statement of inactivity and sets its id.
	AddInactivity(i *Inactivity) error
	// UpdateInactivity stores a statement's end or rejection.
	UpdateInactivity(i *Inactivity) error
	// AddPowerGrant stores a change of change power and sets its id.
	AddPowerGrant(g *PowerGrant) error
	// AddControlRequest stores a consent request and sets its id.
	AddControlRequest(r *ControlRequest) error
	// UpdateControlRequest stores a consent request's decision.
	UpdateControlRequest(r *ControlRequest) error
	// AddEmergency stores an emergency configuration and sets its id.
	AddEmergency(e *Emergency) error
	// UpdateEmergency stores an emergency's closing.
	UpdateEmergency(e *Emergency) error
	// AddNotice stores a notice and sets its id.
	AddNotice(n *Notice) error
	// AddVote stores a vote and sets its id.
	AddVote(v *Vote) error
	// PutBallot stores a voter's ballot, replacing his earlier one.
	PutBallot(b *Ballot) error
	// AddNameChange stores a name change request and sets its id.
	AddNameChange(n *NameChange) error
	// UpdateNameChange stores a name change's decision and its army's renaming.
	UpdateNameChange(n *NameChange) error
	// RenameAccount gives an account a new screen name; a name taken is a conflict.
	RenameAccount(id int64, name string) error
	// AddAdmission stores a request for admission and sets its id.
	AddAdmission(a *Admission) error
	// UpdateAdmission stores a request's decision.
	UpdateAdmission(a *Admission) error
}
