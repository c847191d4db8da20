package store

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

type secretRow struct {
	Name  string `gorm:"primaryKey"`
	Value []byte
}

func (secretRow) TableName() string { return "secrets" }

type accountRow struct {
	ID           int64 `gorm:"primaryKey"`
	Name         string
	NameKey      string
	PasswordHash string
	Admin        bool
	TokenVersion int
	CreatedAt    time.Time
	MustChange   bool
}

func (accountRow) TableName() string { return "accounts" }

func (r *accountRow) model() *campaign.Account {
	return &campaign.Account{ID: r.ID, Name: r.Name, PasswordHash: r.PasswordHash, Admin: r.Admin, TokenVersion: r.TokenVersion, CreatedAt: r.CreatedAt.UTC(), MustChange: r.MustChange}
}

type campaignRow struct {
	ID             int64 `gorm:"primaryKey"`
	Name           string
	Status         string
	PausedAt       *time.Time
	PauseReason    string
	LockDelayUs    int64 `gorm:"column:lock_delay_us"`
	TurnLengthUs   int64 `gorm:"column:turn_length_us"`
	ExtensionCapUs int64 `gorm:"column:extension_cap_us"`
	ScenarioSeed   *int64
	Plan           string
	MapVersion     int64
	CreatedAt      time.Time
	Winner         string
}

func (campaignRow) TableName() string { return "campaigns" }

func campaignToRow(c *campaign.Campaign) (*campaignRow, error) {
	plan, err := json.Marshal(nonNilSlice(c.Plan))
	if err != nil {
		return nil, err
	}
	return &campaignRow{ID: c.ID, Name: c.Name, Status: string(c.Status), PausedAt: c.PausedAt, PauseReason: c.PauseReason,
		LockDelayUs: c.Settings.LockDelay.Microseconds(), TurnLengthUs: c.Settings.TurnLength.Microseconds(), ExtensionCapUs: c.Settings.ExtensionCap.Microseconds(),
		ScenarioSeed: c.ScenarioSeed, Plan: string(plan), MapVersion: c.MapVersion, CreatedAt: c.CreatedAt, Winner: string(c.Winner)}, nil
}

func (r *campaignRow) model() (*campaign.Campaign, error) {
	c := &campaign.Campaign{ID: r.ID, Name: r.Name, Status: campaign.CampaignStatus(r.Status), PausedAt: utcPtr(r.PausedAt), PauseReason: r.PauseReason,
		Settings:     campaign.Settings{LockDelay: time.Duration(r.LockDelayUs) * time.Microsecond, TurnLength: time.Duration(r.TurnLengthUs) * time.Microsecond, ExtensionCap: time.Duration(r.ExtensionCapUs) * time.Microsecond},
		ScenarioSeed: r.ScenarioSeed, MapVersion: r.MapVersion, CreatedAt: r.CreatedAt.UTC(), Winner: domain.Side(r.Winner)}
	if err := json.Unmarshal([]byte(r.Plan), &c.Plan); err != nil {
		return nil, fmt.Errorf("campaign %d's plan: %w", r.ID, err)
	}
	return c, nil
}

type memberRow struct {
	CampaignID  int64 `gorm:"primaryKey;autoIncrement:false"`
	AccountID   int64 `gorm:"primaryKey;autoIncrement:false"`
	Roles       string
	Side        string
	Rank        int
	Factions    string
	RankFaction string
	Contingency string
	Assists     string
	JoinedAt    *time.Time
	// Name is the account's name, joined in.
	Name string `gorm:"->;-:migration"`
}

func (memberRow) TableName() string { return "members" }

func memberToRow(m *campaign.Member) *memberRow {
	roles := make([]string, len(m.Roles))
	for i, r := range m.Roles {
		roles[i] = string(r)
	}
	factions := make([]string, len(m.Factions))
	for i, f := range m.Factions {
		factions[i] = string(f)
	}
	return &memberRow{CampaignID: m.CampaignID, AccountID: m.AccountID, Roles: strings.Join(roles, ","), Side: string(m.Side), Rank: int(m.Rank),
		Factions: strings.Join(factions, ","), RankFaction: string(m.RankFaction), Contingency: m.Contingency, Assists: m.Assists, JoinedAt: m.JoinedAt}
}

func (r *memberRow) model() *campaign.Member {
	m := &campaign.Member{CampaignID: r.CampaignID, AccountID: r.AccountID, Name: r.Name, Side: domain.Side(r.Side), Rank: domain.Rank(r.Rank), RankFaction: domain.Color(r.RankFaction), Contingency: r.Contingency, Assists: r.Assists, JoinedAt: utcPtr(r.JoinedAt), Roles: []campaign.Role{}}
	for _, s := range splitList(r.Roles) {
		m.Roles = append(m.Roles, campaign.Role(s))
	}
	for _, s := range splitList(r.Factions) {
		m.Factions = append(m.Factions, domain.Color(s))
	}
	return m
}

type turnRow struct {
	ID               int64 `gorm:"primaryKey"`
	CampaignID       int64
	Number           int
	Status           string
	OpenedAt         time.Time
	Deadline         time.Time
	LockAt           time.Time
	ExtensionSeconds int64
	CheckWindow      bool
	Seed             []byte
	Commitment       string
	Snapshot         string
	LockedAt         *time.Time
	LockedBy         string
	LockReason       string
	ControlSeq       int64
	ControlAt        *time.Time
	Report           string
	ReportText       string
	LockError        string
	EditUntil        *time.Time
	Edit             string
}

func (turnRow) TableName() string { return "turns" }

// turnColumns are the columns of a turn without its snapshot and report.
var turnColumns = []string{"id", "campaign_id", "number", "status", "opened_at", "deadline", "lock_at", "extension_seconds", "check_window", "seed", "commitment", "locked_at", "locked_by", "lock_reason", "control_seq", "control_at", "lock_error", "edit_until", "edit"}

func turnToRow(t *campaign.Turn) (*turnRow, error) {
	snap, err := t.Snapshot.Encode()
	if err != nil {
		return nil, err
	}
	return &turnRow{ID: t.ID, CampaignID: t.CampaignID, Number: t.Number, Status: string(t.Status), OpenedAt: t.OpenedAt, Deadline: t.Deadline, LockAt: t.LockAt,
		ExtensionSeconds: seconds(t.Extension), CheckWindow: t.CheckWindow, Seed: t.Seed[:], Commitment: t.Commitment, Snapshot: string(snap),
		LockedAt: t.LockedAt, LockedBy: t.LockedBy, LockReason: t.LockReason, ControlSeq: t.ControlSeq, ControlAt: t.ControlAt,
		Report: string(t.Report), ReportText: t.ReportText, LockError: t.LockError, EditUntil: t.EditUntil, Edit: editText(t.Edit)}, nil
}

func (r *turnRow) model() (*campaign.Turn, error) {
	t := &campaign.Turn{ID: r.ID, CampaignID: r.CampaignID, Number: r.Number, Status: campaign.TurnStatus(r.Status), OpenedAt: r.OpenedAt.UTC(), Deadline: r.Deadline.UTC(), LockAt: r.LockAt.UTC(),
		Extension: time.Duration(r.ExtensionSeconds) * time.Second, CheckWindow: r.CheckWindow, Commitment: r.Commitment,
		LockedAt: utcPtr(r.LockedAt), LockedBy: r.LockedBy, LockReason: r.LockReason, ControlSeq: r.ControlSeq, ControlAt: utcPtr(r.ControlAt),
		ReportText: r.ReportText, LockError: r.LockError}
	if len(r.Seed) != len(t.Seed) {
		return nil, fmt.Errorf("turn %d of campaign %d has a seed of %d bytes", r.Number, r.CampaignID, len(r.Seed))
	}
	copy(t.Seed[:], r.Seed)
	if r.Report != "" {
		t.Report = []byte(r.Report)
	}
	t.EditUntil = utcPtr(r.EditUntil)
	if r.Edit != "" {
		t.Edit = &campaign.EditClose{}
		if err := json.Unmarshal([]byte(r.Edit), t.Edit); err != nil {
			return nil, fmt.Errorf("turn %d of campaign %d: its after-lock edit: %w", r.Number, r.CampaignID, err)
		}
		t.Edit.At = t.Edit.At.UTC()
	}
	if r.Snapshot != "" {
		snap, err := campaign.DecodeSnapshot([]byte(r.Snapshot))
		if err != nil {
			return nil, fmt.Errorf("turn %d of campaign %d: its map: %w", r.Number, r.CampaignID, err)
		}
		t.Snapshot = snap
	}
	return t, nil
}

type postRow struct {
	ID          int64 `gorm:"primaryKey"`
	CampaignID  int64
	Turn        int
	AccountID   int64
	Author      string
	At          time.Time
	Private     bool
	Text        string
	Source      string
	Transfers   string
	WithdrawnAt *time.Time
	Replaces    int64
}

func (postRow) TableName() string { return "posts" }

func postToRow(p *campaign.Post) (*postRow, error) {
	tr, err := json.Marshal(nonNilSlice(p.Transfers))
	if err != nil {
		return nil, err
	}
	return &postRow{ID: p.ID, CampaignID: p.CampaignID, Turn: p.Turn, AccountID: p.AccountID, Author: p.Author, At: p.At, Private: p.Private, Text: p.Text,
		Source: p.Source, Transfers: string(tr), WithdrawnAt: p.WithdrawnAt, Replaces: p.Replaces}, nil
}

func (r *postRow) model() (*campaign.Post, error) {
	p := &campaign.Post{ID: r.ID, CampaignID: r.CampaignID, Turn: r.Turn, AccountID: r.AccountID, Author: r.Author, At: r.At.UTC(), Private: r.Private, Text: r.Text,
		Source: r.Source, WithdrawnAt: utcPtr(r.WithdrawnAt), Replaces: r.Replaces}
	if err := json.Unmarshal([]byte(r.Transfers), &p.Transfers); err != nil {
		return nil, fmt.Errorf("post %d's transfers: %w", r.ID, err)
	}
	if len(p.Transfers) == 0 {
		p.Transfers = nil
	}
	return p, nil
}

type resultRow struct {
	ID        int64 `gorm:"primaryKey"`
	TurnID    int64
	Square    string
	Result    string
	EnteredBy string
	EnteredAt time.Time
}

func (resultRow) TableName() string { return "results" }

type controlRow struct {
	ID          int64 `gorm:"primaryKey"`
	CampaignID  int64
	Army        string
	Controllers string
	EffectiveAt time.Time
	ByName      string
	Reason      string
}

func (controlRow) TableName() string { return "control" }

type auditRow struct {
	ID         int64 `gorm:"primaryKey"`
	CampaignID int64
	At         time.Time
	Actor      string
	Action     string
	Detail     string
	IP         string `gorm:"column:ip"`
}

func (auditRow) TableName() string { return "audit" }

func seconds(d time.Duration) int64 { return int64(d / time.Second) }

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func nonNilSlice[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
