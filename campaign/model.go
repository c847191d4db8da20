// The workflow's records as a store keeps them: accounts, roles and members, campaigns, turns,
// posts, results, control-list and audit entries.

package campaign

import (
	"slices"
	"time"

	"github.com/coalition-wargame/coalition/domain"
)

// Account is a person who logs in: a screen name (the name armies' controllers and posts'
// authors use), a password hash and whether the person runs the server.
type Account struct {
	ID           int64     `json:"id"`
	Name         string    `json:"name"`
	PasswordHash string    `json:"-"`
	Admin        bool      `json:"admin"`
	TokenVersion int       `json:"-"`
	CreatedAt    time.Time `json:"created_at"`
	// MustChange is set when an admin reset the password: the account must choose a new one
	// before it does anything else.
	MustChange bool `json:"must_change,omitempty"`
}

// Role is what a member of a campaign may do there.
type Role string

// The roles of a campaign; a server admin is an Account flag, not a campaign role.
const (
	Player         Role = "player"
	Leader         Role = "leader"
	MovementJudge  Role = "movement-judge"
	BattleJudge    Role = "battle-judge"
	MercenaryJudge Role = "mercenary-judge"
)

// Roles lists every campaign role, for validation and documentation.
var Roles = []Role{Player, Leader, MovementJudge, BattleJudge, MercenaryJudge}

// Member is an account's place in one campaign: its roles and, for players and team
// leaders, side, rank and Coalition factions (1.1.2).
type Member struct {
	CampaignID int64  `json:"-"`
	AccountID  int64  `json:"-"`
	Name       string `json:"name"`
	Roles      []Role `json:"roles"`
	// Side, Rank, Factions and RankFaction describe a player or team leader.
	Side     domain.Side    `json:"side,omitempty"`
	Rank     domain.Rank    `json:"rank,omitempty"`
	Factions []domain.Color `json:"factions,omitempty"`
	// RankFaction is the Coalition faction the player holds his rank in; he is a Lieutenant in
	// the others (1.1.2).
	RankFaction domain.Color `json:"rank_faction,omitempty"`
	// Contingency is the player who may send this player's strategies in the last 24 hours
	// (5.2.3).
	Contingency string `json:"contingency,omitempty"`
	// Assists names the judge an assistant judge assists: he acts as that judge, who may
	// overrule him (1.3).
	Assists string `json:"assists,omitempty"`
	// JoinedAt is when the member was added; nil for the campaign's first members, who joined
	// when it was created.
	JoinedAt *time.Time `json:"joined_at,omitempty"`
}

// Has reports whether the member holds role r.
func (m *Member) Has(r Role) bool { return m != nil && slices.Contains(m.Roles, r) }

// MovementOrBattleJudge reports whether the member is a movement or battle judge of the
// campaign (a server admin is no judge of it: see policy.go).
func (m *Member) MovementOrBattleJudge() bool { return m.Has(MovementJudge) || m.Has(BattleJudge) }

// Plays reports whether the member is a player or team leader of a side.
func (m *Member) Plays() bool { return (m.Has(Player) || m.Has(Leader)) && m.Side.IsTeam() }

// CampaignStatus says whether a campaign's turns lock on schedule.
type CampaignStatus string

// The campaign statuses.
const (
	Running CampaignStatus = "running"
	Paused  CampaignStatus = "paused"
	// Finished campaigns have a winner (1.7, D8): the lock that decided it opened a last turn
	// that holds the final map and takes no orders.
	Finished CampaignStatus = "finished"
)

// Settings are a campaign's time rules (C1) and the judge's limits.
type Settings struct {
	// LockDelay is the time from the battle deadline to the lock: 24 h by default (C1).
	LockDelay time.Duration
	// TurnLength is the time from one battle deadline to the next.
	TurnLength time.Duration
	// ExtensionCap is the most a judge may extend one turn in total.
	ExtensionCap time.Duration
}

// DefaultSettings are the rulings' defaults: lock 24 h after the deadline, weekly turns,
// extensions of at most 72 h a turn.
var DefaultSettings = Settings{LockDelay: 24 * time.Hour, TurnLength: 7 * 24 * time.Hour, ExtensionCap: 72 * time.Hour}

// PlannedTurn is a turn whose timing was fixed in advance by an imported scenario: a lock
// time, or none, in which case the posting window is not checked (scenario-format.md).
type PlannedTurn struct {
	Lock *time.Time `json:"lock,omitempty"`
}

// Campaign is one game hosted on the server.
type Campaign struct {
	ID          int64          `json:"id"`
	Name        string         `json:"name"`
	Status      CampaignStatus `json:"status"`
	PausedAt    *time.Time     `json:"paused_at,omitempty"`
	PauseReason string         `json:"pause_reason,omitempty"`
	Settings    Settings       `json:"-"`
	// ScenarioSeed is set for an imported scenario: the seeds of its own turns are then
	// domain.ScenarioSeed(seed, turn index), as `coalition adjudicate` draws them; later turns
	// get fresh random seeds (B6).
	ScenarioSeed *int64        `json:"scenario_seed,omitempty"`
	Plan         []PlannedTurn `json:"-"`
	// Winner is the side that won the round, set when a lock decides it (1.7, D8).
	Winner domain.Side `json:"winner,omitempty"`
	// MapVersion changes whenever the current map or its timing does.
	MapVersion int64     `json:"map_version"`
	CreatedAt  time.Time `json:"created_at"`
}

// TurnStatus says whether a turn still takes orders.
type TurnStatus string

// The turn statuses.
const (
	Open   TurnStatus = "open"
	Locked TurnStatus = "locked"
)

// Turn is one turn of a campaign: the map as it opened, its timing, its secret seed and,
// once locked, the lock report.
type Turn struct {
	ID         int64
	CampaignID int64
	Number     int
	Status     TurnStatus
	OpenedAt   time.Time
	// Deadline is the battle deadline; LockAt the lock, LockDelay after it plus extensions.
	Deadline  time.Time
	LockAt    time.Time
	Extension time.Duration
	// CheckWindow is false only for imported scenario turns that give no lock time: the
	// posting window (C2) is then not checked, as in `coalition adjudicate`.
	CheckWindow bool
	Seed        domain.Seed
	Commitment  string
	// Snapshot is the map as the turn opened (the previous lock's result), shared by its
	// readers; Snapshot.Map gives a copy to change.
	Snapshot Snapshot
	// LockedAt, LockedBy and LockReason say when, by whom and why the turn was locked.
	LockedAt   *time.Time
	LockedBy   string
	LockReason string
	// ControlSeq is the last control-list entry counted at the lock (C4), for replays.
	ControlSeq int64
	// ControlAt is the moment the control list was read at the lock (C4, 5.4.2).
	ControlAt *time.Time
	// Report is the lock report as JSON, exactly as turn.Run produced it; ReportText the
	// readable rendering.
	Report     []byte
	ReportText string
	// LockError is why the last attempt to lock failed, for the judges.
	LockError string
	// EditUntil is set when the lock kept its update for the mercenary judge's after-lock edit
	// (6.3.2, docs/READINGS.md R41): the window closes then at the latest. Edit says how it
	// closed; until then the turn is locked but its update is not published (Editing).
	EditUntil *time.Time
	Edit      *EditClose
}

// Post is a message of the movement thread (or one sent privately to the movement judge),
// as stored.
type Post struct {
	ID         int64
	CampaignID int64
	Turn       int
	AccountID  int64
	Author     string
	At         time.Time
	Private    bool
	Text       string
	// Source is "text" or "json" (structured orders rendered to the classic format).
	Source    string
	Transfers []TransferDetail
	// WithdrawnAt is set when the author withdrew the post or replaced it by an edit; a
	// withdrawn post counts for nothing at the lock.
	WithdrawnAt *time.Time
	// Replaces is the post this one edits.
	Replaces int64
}

// TransferDetail is the private detail of a transfer order of a post (T2).
type TransferDetail struct {
	Army      string         `json:"army"`
	Creatures map[string]int `json:"creatures"`
}

// Domain is the post as the rule engine sees it.
func (p *Post) Domain() domain.Post {
	return domain.Post{ID: p.ID, Author: p.Author, At: p.At, Private: p.Private, Text: p.Text}
}

// Result is a battle judge's result for one battle of a turn (B1).
type Result struct {
	ID        int64
	TurnID    int64
	Result    domain.BattleResult
	EnteredBy string
	EnteredAt time.Time
}

// ControlEntry is one line of the control list (5.2.1): from EffectiveAt on, the army is
// controlled by Controllers (none when empty).
type ControlEntry struct {
	ID          int64     `json:"id"`
	CampaignID  int64     `json:"-"`
	Army        string    `json:"army"`
	Controllers []string  `json:"controllers"`
	EffectiveAt time.Time `json:"effective_at"`
	By          string    `json:"by"`
	Reason      string    `json:"reason,omitempty"`
}

// AuditEntry records one state-changing action: who, when, what, from which address.
type AuditEntry struct {
	ID         int64     `json:"id"`
	CampaignID int64     `json:"campaign_id,omitempty"`
	At         time.Time `json:"at"`
	Actor      string    `json:"actor"`
	Action     string    `json:"action"`
	Detail     string    `json:"detail"`
	IP         string    `json:"ip,omitempty"`
}

// OpenTurn is a turn still open, for the scheduler.
type OpenTurn struct {
	CampaignID int64
	Number     int
	LockAt     time.Time
	Paused     bool
}
