// The rows of the teams' self-government (campaign.GovernReader and GovernWriter): statements
// of inactivity, change power, consent requests, emergencies, notices, votes and ballots, name
// changes and requests for admission.

package store

import (
	"fmt"
	"time"

	"gorm.io/gorm/clause"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

type inactivityRow struct {
	ID         int64 `gorm:"primaryKey"`
	CampaignID int64
	AccountID  int64
	BySelf     bool
	DeclaredBy string
	DeclaredAt time.Time
	UntilAt    *time.Time
	Reason     string
	EndedAt    *time.Time
	EndedBy    string
	RejectedAt *time.Time
	RejectedBy string
	Rejection  string
}

func (inactivityRow) TableName() string { return "inactivity" }

func inactivityToRow(i *campaign.Inactivity) *inactivityRow {
	return &inactivityRow{ID: i.ID, CampaignID: i.CampaignID, AccountID: i.AccountID, BySelf: i.Self, DeclaredBy: i.By, DeclaredAt: i.At, UntilAt: i.Until,
		Reason: i.Reason, EndedAt: i.EndedAt, EndedBy: i.EndedBy, RejectedAt: i.RejectedAt, RejectedBy: i.RejectedBy, Rejection: i.Rejection}
}

func (t *txn) Inactivities(cid int64) ([]campaign.Inactivity, error) {
	var rows []inactivityRow
	if err := t.db.Where("campaign_id = ?", cid).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.Inactivity, len(rows))
	for k, r := range rows {
		out[k] = campaign.Inactivity{ID: r.ID, CampaignID: r.CampaignID, AccountID: r.AccountID, Self: r.BySelf, By: r.DeclaredBy, At: r.DeclaredAt.UTC(),
			Until: utcPtr(r.UntilAt), Reason: r.Reason, EndedAt: utcPtr(r.EndedAt), EndedBy: r.EndedBy, RejectedAt: utcPtr(r.RejectedAt), RejectedBy: r.RejectedBy, Rejection: r.Rejection}
	}
	return out, nil
}

func (t *txn) AddInactivity(i *campaign.Inactivity) error {
	r := inactivityToRow(i)
	r.ID = 0
	if err := t.db.Create(r).Error; err != nil {
		return err
	}
	i.ID = r.ID
	return nil
}

func (t *txn) UpdateInactivity(i *campaign.Inactivity) error {
	return t.db.Model(&inactivityRow{}).Where("id = ?", i.ID).Updates(map[string]any{
		"ended_at": i.EndedAt, "ended_by": i.EndedBy, "rejected_at": i.RejectedAt, "rejected_by": i.RejectedBy, "rejection": i.Rejection,
	}).Error
}

type powerRow struct {
	ID         int64 `gorm:"primaryKey"`
	CampaignID int64
	Side       string
	Holders    []int64 `gorm:"serializer:json"`
	At         time.Time
	ByName     string
	Reason     string
}

func (powerRow) TableName() string { return "change_power" }

func (t *txn) PowerGrants(cid int64) ([]campaign.PowerGrant, error) {
	var rows []powerRow
	if err := t.db.Where("campaign_id = ?", cid).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.PowerGrant, len(rows))
	for k, r := range rows {
		out[k] = campaign.PowerGrant{ID: r.ID, CampaignID: r.CampaignID, Side: domain.Side(r.Side), Holders: r.Holders, At: r.At.UTC(), By: r.ByName, Reason: r.Reason}
	}
	return out, nil
}

func (t *txn) AddPowerGrant(g *campaign.PowerGrant) error {
	r := &powerRow{CampaignID: g.CampaignID, Side: string(g.Side), Holders: nonNilSlice(g.Holders), At: g.At, ByName: g.By, Reason: g.Reason}
	if err := t.db.Create(r).Error; err != nil {
		return err
	}
	g.ID = r.ID
	return nil
}

type controlRequestRow struct {
	ID          int64 `gorm:"primaryKey"`
	CampaignID  int64
	Army        string
	Controllers []string `gorm:"serializer:json"`
	Reason      string
	RequestedBy string
	RequestedAt time.Time
	ConsentOf   int64
	Status      string
	DecidedAt   *time.Time
	Decision    string
}

func (controlRequestRow) TableName() string { return "control_requests" }

func (t *txn) ControlRequests(cid int64) ([]campaign.ControlRequest, error) {
	var rows []controlRequestRow
	if err := t.db.Where("campaign_id = ?", cid).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.ControlRequest, len(rows))
	for k, r := range rows {
		out[k] = campaign.ControlRequest{ID: r.ID, CampaignID: r.CampaignID, Army: r.Army, Controllers: nonNilSlice(r.Controllers), Reason: r.Reason, By: r.RequestedBy,
			At: r.RequestedAt.UTC(), ConsentOf: r.ConsentOf, Status: r.Status, DecidedAt: utcPtr(r.DecidedAt), Decision: r.Decision}
	}
	return out, nil
}

func (t *txn) AddControlRequest(c *campaign.ControlRequest) error {
	r := &controlRequestRow{CampaignID: c.CampaignID, Army: c.Army, Controllers: nonNilSlice(c.Controllers), Reason: c.Reason, RequestedBy: c.By, RequestedAt: c.At,
		ConsentOf: c.ConsentOf, Status: c.Status}
	if err := t.db.Create(r).Error; err != nil {
		return err
	}
	c.ID = r.ID
	return nil
}

func (t *txn) UpdateControlRequest(c *campaign.ControlRequest) error {
	return t.db.Model(&controlRequestRow{}).Where("id = ?", c.ID).Updates(map[string]any{
		"status": c.Status, "decided_at": c.DecidedAt, "decision": c.Decision,
	}).Error
}

type emergencyRow struct {
	ID          int64 `gorm:"primaryKey"`
	CampaignID  int64
	Side        string
	Kind        string
	People      []string `gorm:"serializer:json"`
	Army        string
	Controllers []string          `gorm:"serializer:json"`
	Breaches    []campaign.Breach `gorm:"serializer:json"`
	Reason      string
	ByName      string
	At          time.Time
	Turn        int
	ClosedTurn  int
	Outcome     string
}

func (emergencyRow) TableName() string { return "emergencies" }

func (t *txn) Emergencies(cid int64) ([]campaign.Emergency, error) {
	var rows []emergencyRow
	if err := t.db.Where("campaign_id = ?", cid).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.Emergency, len(rows))
	for k, r := range rows {
		out[k] = campaign.Emergency{ID: r.ID, CampaignID: r.CampaignID, Side: domain.Side(r.Side), Kind: r.Kind, People: r.People, Army: r.Army,
			Controllers: r.Controllers, Breaches: r.Breaches, Reason: r.Reason, By: r.ByName, At: r.At.UTC(), Turn: r.Turn, ClosedTurn: r.ClosedTurn, Outcome: r.Outcome}
	}
	return out, nil
}

func (t *txn) AddEmergency(e *campaign.Emergency) error {
	r := &emergencyRow{CampaignID: e.CampaignID, Side: string(e.Side), Kind: e.Kind, People: nonNilSlice(e.People), Army: e.Army, Controllers: nonNilSlice(e.Controllers),
		Breaches: nonNilSlice(e.Breaches), Reason: e.Reason, ByName: e.By, At: e.At, Turn: e.Turn}
	if err := t.db.Create(r).Error; err != nil {
		return err
	}
	e.ID = r.ID
	return nil
}

func (t *txn) UpdateEmergency(e *campaign.Emergency) error {
	return t.db.Model(&emergencyRow{}).Where("id = ?", e.ID).Updates(map[string]any{"closed_turn": e.ClosedTurn, "outcome": e.Outcome}).Error
}

type noticeRow struct {
	ID         int64 `gorm:"primaryKey"`
	CampaignID int64
	Side       string
	Turn       int
	At         time.Time
	Kind       string
	Player     string
	Text       string
}

func (noticeRow) TableName() string { return "notices" }

func (t *txn) Notices(cid int64) ([]campaign.Notice, error) {
	var rows []noticeRow
	if err := t.db.Where("campaign_id = ?", cid).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.Notice, len(rows))
	for k, r := range rows {
		out[k] = campaign.Notice{ID: r.ID, CampaignID: r.CampaignID, Side: domain.Side(r.Side), Turn: r.Turn, At: r.At.UTC(), Kind: r.Kind, Player: r.Player, Text: r.Text}
	}
	return out, nil
}

func (t *txn) AddNotice(n *campaign.Notice) error {
	r := &noticeRow{CampaignID: n.CampaignID, Side: string(n.Side), Turn: n.Turn, At: n.At, Kind: n.Kind, Player: n.Player, Text: n.Text}
	if err := t.db.Create(r).Error; err != nil {
		return err
	}
	n.ID = r.ID
	return nil
}

// voterRow is a special vote's voter as stored: by account, so that a name change keeps him.
type voterRow struct {
	AccountID int64 `json:"account"`
	Points    int   `json:"points"`
}

type voteRow struct {
	ID         int64 `gorm:"primaryKey"`
	CampaignID int64
	Kind       string
	Side       string
	Question   string
	Options    []string   `gorm:"serializer:json"`
	Voters     []voterRow `gorm:"serializer:json"`
	Secret     bool
	ClosesAt   time.Time
	CalledBy   string
	CalledAt   time.Time
}

func (voteRow) TableName() string { return "votes" }

func (t *txn) Votes(cid int64) ([]campaign.Vote, error) {
	var rows []voteRow
	if err := t.db.Where("campaign_id = ?", cid).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.Vote, len(rows))
	for k, r := range rows {
		v := campaign.Vote{ID: r.ID, CampaignID: r.CampaignID, Kind: campaign.VoteKind(r.Kind), Side: domain.Side(r.Side), Question: r.Question, Options: r.Options,
			Secret: r.Secret, ClosesAt: r.ClosesAt.UTC(), By: r.CalledBy, At: r.CalledAt.UTC()}
		for _, w := range r.Voters {
			v.Voters = append(v.Voters, campaign.Voter{AccountID: w.AccountID, Points: w.Points})
		}
		out[k] = v
	}
	return out, nil
}

func (t *txn) AddVote(v *campaign.Vote) error {
	r := &voteRow{CampaignID: v.CampaignID, Kind: string(v.Kind), Side: string(v.Side), Question: v.Question, Options: nonNilSlice(v.Options), Voters: []voterRow{},
		Secret: v.Secret, ClosesAt: v.ClosesAt, CalledBy: v.By, CalledAt: v.At}
	for _, w := range v.Voters {
		r.Voters = append(r.Voters, voterRow{AccountID: w.AccountID, Points: w.Points})
	}
	if err := t.db.Create(r).Error; err != nil {
		return err
	}
	v.ID = r.ID
	return nil
}

type ballotRow struct {
	VoteID    int64 `gorm:"primaryKey;autoIncrement:false"`
	AccountID int64 `gorm:"primaryKey;autoIncrement:false"`
	Choice    string
	Points    int
	CastAt    time.Time
}

func (ballotRow) TableName() string { return "ballots" }

func (t *txn) Ballots(vote int64) ([]campaign.Ballot, error) {
	var rows []ballotRow
	if err := t.db.Where("vote_id = ?", vote).Order("account_id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.Ballot, len(rows))
	for k, r := range rows {
		out[k] = campaign.Ballot{VoteID: r.VoteID, AccountID: r.AccountID, Choice: r.Choice, Points: r.Points, At: r.CastAt.UTC()}
	}
	return out, nil
}

func (t *txn) PutBallot(b *campaign.Ballot) error {
	return t.db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "vote_id"}, {Name: "account_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"choice", "points", "cast_at"}),
	}).Create(&ballotRow{VoteID: b.VoteID, AccountID: b.AccountID, Choice: b.Choice, Points: b.Points, CastAt: b.At}).Error
}

type nameChangeRow struct {
	ID         int64 `gorm:"primaryKey"`
	CampaignID int64
	AccountID  int64
	OldName    string
	NewName    string
	Army       string
	ArmyName   string
	ArmyDone   bool
	Status     string
	AskedAt    time.Time
	DecidedBy  string
	DecidedAt  *time.Time
	Reason     string
}

func (nameChangeRow) TableName() string { return "name_changes" }

func (t *txn) NameChanges(cid int64) ([]campaign.NameChange, error) {
	var rows []nameChangeRow
	q := t.db.Order("id")
	if cid != 0 {
		q = q.Where("campaign_id = ?", cid)
	}
	if err := q.Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.NameChange, len(rows))
	for k, r := range rows {
		out[k] = campaign.NameChange{ID: r.ID, CampaignID: r.CampaignID, AccountID: r.AccountID, Old: r.OldName, New: r.NewName, Army: r.Army, ArmyName: r.ArmyName,
			ArmyDone: r.ArmyDone, Status: r.Status, At: r.AskedAt.UTC(), DecidedBy: r.DecidedBy, DecidedAt: utcPtr(r.DecidedAt), Reason: r.Reason}
	}
	return out, nil
}

func (t *txn) AddNameChange(n *campaign.NameChange) error {
	r := &nameChangeRow{CampaignID: n.CampaignID, AccountID: n.AccountID, OldName: n.Old, NewName: n.New, Army: n.Army, ArmyName: n.ArmyName, Status: n.Status, AskedAt: n.At}
	if err := t.db.Create(r).Error; err != nil {
		return err
	}
	n.ID = r.ID
	return nil
}

func (t *txn) UpdateNameChange(n *campaign.NameChange) error {
	return t.db.Model(&nameChangeRow{}).Where("id = ?", n.ID).Updates(map[string]any{
		"status": n.Status, "decided_by": n.DecidedBy, "decided_at": n.DecidedAt, "reason": n.Reason, "army_done": n.ArmyDone,
	}).Error
}

func (t *txn) RenameAccount(id int64, name string) error {
	err := t.db.Model(&accountRow{}).Where("id = ?", id).Updates(map[string]any{"name": name, "name_key": domain.NameKey(name)}).Error
	return translate(err, fmt.Sprintf("an account named %q", name))
}

type admissionRow struct {
	ID         int64 `gorm:"primaryKey"`
	CampaignID int64
	AccountID  int64
	Side       string
	Message    string
	Factions   string
	Status     string
	AskedAt    time.Time
	DecidedBy  string
	DecidedAt  *time.Time
	Rank       int
	Reason     string
}

func (admissionRow) TableName() string { return "admissions" }

func (t *txn) Admissions(cid int64) ([]campaign.Admission, error) {
	var rows []admissionRow
	if err := t.db.Where("campaign_id = ?", cid).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.Admission, len(rows))
	for k, r := range rows {
		a := campaign.Admission{ID: r.ID, CampaignID: r.CampaignID, AccountID: r.AccountID, Side: domain.Side(r.Side), Message: r.Message, Status: r.Status,
			At: r.AskedAt.UTC(), DecidedBy: r.DecidedBy, DecidedAt: utcPtr(r.DecidedAt), Rank: domain.Rank(r.Rank), Reason: r.Reason}
		for _, f := range splitList(r.Factions) {
			a.Factions = append(a.Factions, domain.Color(f))
		}
		out[k] = a
	}
	return out, nil
}

func (t *txn) AddAdmission(a *campaign.Admission) error {
	r := &admissionRow{CampaignID: a.CampaignID, AccountID: a.AccountID, Side: string(a.Side), Message: a.Message, Factions: joinColors(a.Factions), Status: a.Status, AskedAt: a.At}
	if err := t.db.Create(r).Error; err != nil {
		return err
	}
	a.ID = r.ID
	return nil
}

func (t *txn) UpdateAdmission(a *campaign.Admission) error {
	return t.db.Model(&admissionRow{}).Where("id = ?", a.ID).Updates(map[string]any{
		"status": a.Status, "decided_by": a.DecidedBy, "decided_at": a.DecidedAt, "rank": int(a.Rank), "reason": a.Reason,
	}).Error
}

func joinColors(cs []domain.Color) string {
	s := ""
	for k, c := range cs {
		if k > 0 {
			s += ","
		}
		s += string(c)
	}
	return s
}

func (t *txn) PostedSince(cid int64, since time.Time) (map[int64]time.Time, error) {
	out := map[int64]time.Time{}
	for _, table := range []string{"posts", "messages"} {
		var rows []struct {
			AccountID int64
			At        time.Time
		}
		if err := t.db.Table(table).Select("account_id, at").Where("campaign_id = ? AND at >= ?", cid, since).Scan(&rows).Error; err != nil {
			return nil, err
		}
		for _, r := range rows {
			if at := r.At.UTC(); at.After(out[r.AccountID]) {
				out[r.AccountID] = at
			}
		}
	}
	return out, nil
}
