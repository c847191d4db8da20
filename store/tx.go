package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

// txn is one transaction; it implements campaign.Tx (and so campaign.Reader).
type txn struct {
	db *gorm.DB
	// bumped is the state version this transaction set (BumpState), 0 for none.
	bumped int64
}

var _ campaign.Tx = (*txn)(nil)

func (t *txn) Secret(name string) ([]byte, error) {
	var r secretRow
	if err := t.db.Where("name = ?", name).Take(&r).Error; err != nil {
		return nil, translate(err, "the secret "+name)
	}
	return r.Value, nil
}

func (t *txn) PutSecret(name string, value []byte) error {
	return translate(t.db.Create(&secretRow{Name: name, Value: value}).Error, "the secret "+name)
}

func (t *txn) CountAccounts() (int, error) {
	var n int64
	err := t.db.Model(&accountRow{}).Count(&n).Error
	return int(n), err
}

func (t *txn) Account(id int64) (*campaign.Account, error) {
	var r accountRow
	if err := t.db.Where("id = ?", id).Take(&r).Error; err != nil {
		return nil, translate(err, fmt.Sprintf("account %d", id))
	}
	return r.model(), nil
}

func (t *txn) AccountByName(name string) (*campaign.Account, error) {
	var r accountRow
	if err := t.db.Where("name_key = ?", domain.NameKey(name)).Take(&r).Error; err != nil {
		return nil, translate(err, fmt.Sprintf("an account named %q", name))
	}
	return r.model(), nil
}

func (t *txn) Accounts() ([]campaign.Account, error) {
	var rows []accountRow
	if err := t.db.Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.Account, len(rows))
	for i := range rows {
		out[i] = *rows[i].model()
	}
	return out, nil
}

func (t *txn) CreateAccount(a *campaign.Account) error {
	r := &accountRow{Name: a.Name, NameKey: domain.NameKey(a.Name), PasswordHash: a.PasswordHash, Admin: a.Admin, TokenVersion: a.TokenVersion, CreatedAt: a.CreatedAt, MustChange: a.MustChange}
	if err := t.db.Create(r).Error; err != nil {
		return translate(err, fmt.Sprintf("an account named %q", a.Name))
	}
	a.ID = r.ID
	return nil
}

func (t *txn) UpdateAccount(a *campaign.Account) error {
	return t.db.Model(&accountRow{}).Where("id = ?", a.ID).Updates(map[string]any{
		"password_hash": a.PasswordHash, "admin": a.Admin, "token_version": a.TokenVersion, "must_change": a.MustChange,
	}).Error
}

func (t *txn) Campaign(id int64) (*campaign.Campaign, error) {
	var r campaignRow
	if err := t.db.Where("id = ?", id).Take(&r).Error; err != nil {
		return nil, translate(err, fmt.Sprintf("campaign %d", id))
	}
	return r.model()
}

func (t *txn) CampaignVersion(id int64) (int64, error) {
	var v int64
	err := t.db.Raw("SELECT map_version FROM campaigns WHERE id = ?", id).Row().Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, domain.Errorf(domain.ErrNotFound, "campaign %d does not exist", id)
	}
	return v, err
}

func (t *txn) Campaigns() ([]campaign.Campaign, error) {
	var rows []campaignRow
	if err := t.db.Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.Campaign, 0, len(rows))
	for i := range rows {
		c, err := rows[i].model()
		if err != nil {
			return nil, err
		}
		out = append(out, *c)
	}
	return out, nil
}

func (t *txn) CreateCampaign(c *campaign.Campaign) error {
	r, err := campaignToRow(c)
	if err != nil {
		return err
	}
	if err := t.db.Create(r).Error; err != nil {
		return translate(err, "the campaign")
	}
	c.ID = r.ID
	return nil
}

func (t *txn) UpdateCampaign(c *campaign.Campaign) error {
	r, err := campaignToRow(c)
	if err != nil {
		return err
	}
	return t.db.Model(&campaignRow{}).Where("id = ?", c.ID).Updates(map[string]any{
		"name": r.Name, "status": r.Status, "paused_at": r.PausedAt, "pause_reason": r.PauseReason, "map_version": r.MapVersion,
		"lock_delay_us": r.LockDelayUs, "turn_length_us": r.TurnLengthUs, "extension_cap_us": r.ExtensionCapUs,
		"winner": r.Winner,
	}).Error
}

func (t *txn) members() *gorm.DB {
	return t.db.Table("members").Select("members.*, accounts.name AS name").Joins("JOIN accounts ON accounts.id = members.account_id")
}

func (t *txn) Members(cid int64) ([]campaign.Member, error) {
	var rows []memberRow
	if err := t.members().Where("members.campaign_id = ?", cid).Order("accounts.name_key").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.Member, len(rows))
	for i := range rows {
		out[i] = *rows[i].model()
	}
	return out, nil
}

func (t *txn) Member(cid, account int64) (*campaign.Member, error) {
	var r memberRow
	if err := t.members().Where("members.campaign_id = ? AND members.account_id = ?", cid, account).Take(&r).Error; err != nil {
		return nil, translate(err, "the membership")
	}
	return r.model(), nil
}

func (t *txn) PutMember(m *campaign.Member) error {
	r := memberToRow(m)
	return t.db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "campaign_id"}, {Name: "account_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"roles", "side", "rank", "factions", "rank_faction", "contingency", "assists"}),
	}).Omit("name").Create(r).Error
}

func (t *txn) Turn(cid int64, n int) (*campaign.Turn, error) {
	var r turnRow
	if err := t.db.Where("campaign_id = ? AND number = ?", cid, n).Take(&r).Error; err != nil {
		return nil, translate(err, fmt.Sprintf("turn %d of campaign %d", n, cid))
	}
	return r.model()
}

func (t *txn) LatestTurn(cid int64) (*campaign.Turn, error) {
	var r turnRow
	if err := t.db.Where("campaign_id = ?", cid).Order("number DESC").Take(&r).Error; err != nil {
		return nil, translate(err, fmt.Sprintf("a turn of campaign %d", cid))
	}
	return r.model()
}

func (t *txn) Turns(cid int64) ([]campaign.Turn, error) {
	var rows []turnRow
	if err := t.db.Select(turnColumns).Where("campaign_id = ?", cid).Order("number").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.Turn, 0, len(rows))
	for i := range rows {
		tt, err := rows[i].model()
		if err != nil {
			return nil, err
		}
		out = append(out, *tt)
	}
	return out, nil
}

func (t *txn) OpenTurns() ([]campaign.OpenTurn, error) {
	return t.turnsDue("lock_at", "turns.status = ? AND campaigns.status <> ?", string(campaign.Open), string(campaign.Finished))
}

// turnsDue lists the turns the condition picks, each with the time in column at, for the
// scheduler (OpenTurns, EditWindows).
func (t *txn) turnsDue(at, where string, args ...any) ([]campaign.OpenTurn, error) {
	var rows []struct {
		CampaignID int64
		Number     int
		At         time.Time
		Status     string
	}
	err := t.db.Table("turns").Select("turns.campaign_id, turns.number, turns."+at+" AS at, campaigns.status").
		Joins("JOIN campaigns ON campaigns.id = turns.campaign_id").
		Where(where, args...).
		Order("turns.campaign_id, turns.number").Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	out := make([]campaign.OpenTurn, len(rows))
	for i, r := range rows {
		out[i] = campaign.OpenTurn{CampaignID: r.CampaignID, Number: r.Number, LockAt: r.At.UTC(), Paused: r.Status == string(campaign.Paused)}
	}
	return out, nil
}

func (t *txn) CreateTurn(tt *campaign.Turn) error {
	r, err := turnToRow(tt)
	if err != nil {
		return err
	}
	if err := t.db.Create(r).Error; err != nil {
		return translate(err, fmt.Sprintf("turn %d of campaign %d", tt.Number, tt.CampaignID))
	}
	tt.ID = r.ID
	return nil
}

func (t *txn) UpdateTurnTiming(tt *campaign.Turn) error {
	return t.db.Model(&turnRow{}).Where("id = ?", tt.ID).Updates(map[string]any{
		"deadline": tt.Deadline, "lock_at": tt.LockAt, "extension_seconds": seconds(tt.Extension), "lock_error": tt.LockError,
		"edit_until": tt.EditUntil,
	}).Error
}

func (t *txn) LockTurn(tt *campaign.Turn) (bool, error) {
	res := t.db.Model(&turnRow{}).Where("id = ? AND status = ?", tt.ID, string(campaign.Open)).Updates(map[string]any{
		"status": string(campaign.Locked), "locked_at": tt.LockedAt, "locked_by": tt.LockedBy, "lock_reason": tt.LockReason,
		"control_seq": tt.ControlSeq, "control_at": tt.ControlAt, "report": string(tt.Report), "report_text": tt.ReportText, "lock_error": "",
		"edit_until": tt.EditUntil,
	})
	return res.RowsAffected == 1, res.Error
}

func (t *txn) Posts(cid int64, n int) ([]campaign.Post, error) {
	var rows []postRow
	if err := t.db.Where("campaign_id = ? AND turn = ?", cid, n).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.Post, 0, len(rows))
	for i := range rows {
		p, err := rows[i].model()
		if err != nil {
			return nil, err
		}
		out = append(out, *p)
	}
	return out, nil
}

func (t *txn) Post(id int64) (*campaign.Post, error) {
	var r postRow
	if err := t.db.Where("id = ?", id).Take(&r).Error; err != nil {
		return nil, translate(err, fmt.Sprintf("post %d", id))
	}
	return r.model()
}

func (t *txn) CreatePost(p *campaign.Post) error {
	r, err := postToRow(p)
	if err != nil {
		return err
	}
	if err := t.db.Create(r).Error; err != nil {
		return err
	}
	p.ID = r.ID
	return nil
}

func (t *txn) WithdrawPost(id int64, at time.Time) error {
	res := t.db.Model(&postRow{}).Where("id = ? AND withdrawn_at IS NULL", id).Update("withdrawn_at", at)
	if res.Error == nil && res.RowsAffected != 1 {
		return domain.Errorf(domain.ErrConflict, "post %d was already withdrawn", id)
	}
	return res.Error
}

func (t *txn) Results(turnID int64) ([]campaign.Result, error) {
	var rows []resultRow
	if err := t.db.Where("turn_id = ?", turnID).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.Result, 0, len(rows))
	for _, r := range rows {
		res := campaign.Result{ID: r.ID, TurnID: r.TurnID, EnteredBy: r.EnteredBy, EnteredAt: r.EnteredAt.UTC()}
		if err := json.Unmarshal([]byte(r.Result), &res.Result); err != nil {
			return nil, fmt.Errorf("result %d: %w", r.ID, err)
		}
		out = append(out, res)
	}
	return out, nil
}

func (t *txn) PutResult(r *campaign.Result) error {
	body, err := json.Marshal(r.Result)
	if err != nil {
		return err
	}
	row := &resultRow{TurnID: r.TurnID, Square: r.Result.Square.String(), Result: string(body), EnteredBy: r.EnteredBy, EnteredAt: r.EnteredAt}
	err = t.db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "turn_id"}, {Name: "square"}},
		DoUpdates: clause.AssignmentColumns([]string{"result", "entered_by", "entered_at"}),
	}).Create(row).Error
	r.ID = row.ID
	return err
}

func (t *txn) Control(cid int64) ([]campaign.ControlEntry, error) {
	var rows []controlRow
	if err := t.db.Where("campaign_id = ?", cid).Order("effective_at, id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.ControlEntry, len(rows))
	for i, r := range rows {
		e := campaign.ControlEntry{ID: r.ID, CampaignID: r.CampaignID, Army: r.Army, EffectiveAt: r.EffectiveAt.UTC(), By: r.ByName, Reason: r.Reason}
		if err := json.Unmarshal([]byte(r.Controllers), &e.Controllers); err != nil {
			return nil, fmt.Errorf("control entry %d: %w", r.ID, err)
		}
		out[i] = e
	}
	return out, nil
}

func (t *txn) AddControl(e *campaign.ControlEntry) error {
	ctl, err := json.Marshal(nonNilSlice(e.Controllers))
	if err != nil {
		return err
	}
	r := &controlRow{CampaignID: e.CampaignID, Army: e.Army, Controllers: string(ctl), EffectiveAt: e.EffectiveAt, ByName: e.By, Reason: e.Reason}
	if err := t.db.Create(r).Error; err != nil {
		return err
	}
	e.ID = r.ID
	return nil
}

func (t *txn) Audit(cid int64, limit int) ([]campaign.AuditEntry, error) {
	var rows []auditRow
	q := t.db.Order("id DESC").Limit(limit)
	if cid != 0 {
		q = q.Where("campaign_id = ?", cid)
	}
	if err := q.Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.AuditEntry, len(rows))
	for i, r := range rows {
		out[i] = campaign.AuditEntry{ID: r.ID, CampaignID: r.CampaignID, At: r.At.UTC(), Actor: r.Actor, Action: r.Action, Detail: r.Detail, IP: r.IP}
	}
	return out, nil
}

func (t *txn) AddAudit(e *campaign.AuditEntry) error {
	r := &auditRow{CampaignID: e.CampaignID, At: e.At, Actor: e.Actor, Action: e.Action, Detail: e.Detail, IP: e.IP}
	if err := t.db.Create(r).Error; err != nil {
		return err
	}
	e.ID = r.ID
	return nil
}
