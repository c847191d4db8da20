package store

// This file holds the store's part for a new round's setup (2.5) and the corrections of locked
// turns (3.3.3): campaign.RoundReader, RoundWriter, CorrectionReader and CorrectionWriter.

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

type roundRow struct {
	ID         int64 `gorm:"primaryKey"`
	Name       string
	Body       string
	Members    string
	CampaignID *int64
	PreviousID *int64
	Version    int64
	CreatedAt  time.Time
	StartedAt  *time.Time
}

func (roundRow) TableName() string { return "rounds" }

// roundMember is a member of a round as its row keeps it: the member and his account.
type roundMember struct {
	campaign.Member
	AccountID int64 `json:"account_id"`
}

func roundToRow(r *campaign.RoundRecord) (*roundRow, error) {
	body, err := json.Marshal(r.Round)
	if err != nil {
		return nil, err
	}
	ms := make([]roundMember, len(r.Members))
	for i, m := range r.Members {
		ms[i] = roundMember{Member: m, AccountID: m.AccountID}
	}
	members, err := json.Marshal(ms)
	if err != nil {
		return nil, err
	}
	row := &roundRow{ID: r.ID, Name: r.Name, Body: string(body), Members: string(members), Version: r.Version, CreatedAt: r.CreatedAt, StartedAt: r.StartedAt}
	if r.Campaign != 0 {
		row.CampaignID = &r.Campaign
	}
	if r.Previous != 0 {
		row.PreviousID = &r.Previous
	}
	return row, nil
}

func (row *roundRow) model() (*campaign.RoundRecord, error) {
	r := &campaign.RoundRecord{ID: row.ID, Name: row.Name, Version: row.Version, CreatedAt: row.CreatedAt.UTC(), StartedAt: utc(row.StartedAt)}
	if err := json.Unmarshal([]byte(row.Body), &r.Round); err != nil {
		return nil, fmt.Errorf("round %d: %w", row.ID, err)
	}
	var ms []roundMember
	if err := json.Unmarshal([]byte(row.Members), &ms); err != nil {
		return nil, fmt.Errorf("round %d's members: %w", row.ID, err)
	}
	for _, m := range ms {
		m.Member.AccountID = m.AccountID
		r.Members = append(r.Members, m.Member)
	}
	if row.CampaignID != nil {
		r.Campaign = *row.CampaignID
	}
	if row.PreviousID != nil {
		r.Previous = *row.PreviousID
	}
	return r, nil
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func (t *txn) Round(id int64) (*campaign.RoundRecord, error) {
	var r roundRow
	if err := t.db.Where("id = ?", id).Take(&r).Error; err != nil {
		return nil, translate(err, fmt.Sprintf("round %d", id))
	}
	return r.model()
}

func (t *txn) Rounds() ([]campaign.RoundRecord, error) {
	var rows []roundRow
	if err := t.db.Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.RoundRecord, 0, len(rows))
	for i := range rows {
		r, err := rows[i].model()
		if err != nil {
			return nil, err
		}
		out = append(out, *r)
	}
	return out, nil
}

func (t *txn) CreateRound(r *campaign.RoundRecord) error {
	row, err := roundToRow(r)
	if err != nil {
		return err
	}
	if err := t.db.Create(row).Error; err != nil {
		return translate(err, "the round "+r.Name)
	}
	r.ID = row.ID
	return nil
}

func (t *txn) UpdateRound(r *campaign.RoundRecord) error {
	row, err := roundToRow(r)
	if err != nil {
		return err
	}
	res := t.db.Model(&roundRow{}).Where("id = ?", r.ID).Updates(map[string]any{
		"name": row.Name, "body": row.Body, "members": row.Members, "campaign_id": row.CampaignID, "version": row.Version, "started_at": row.StartedAt,
	})
	if res.Error != nil {
		return translate(res.Error, "the round "+r.Name)
	}
	if res.RowsAffected == 0 {
		return domain.Errorf(domain.ErrNotFound, "round %d does not exist", r.ID)
	}
	return nil
}

type correctionRow struct {
	ID         int64 `gorm:"primaryKey"`
	CampaignID int64
	Turn       int
	Body       string
	Original   string
	Changes    string
	MadeBy     string
	MadeAt     time.Time
	Reason     string
}

func (correctionRow) TableName() string { return "corrections" }

func (t *txn) Corrections(cid int64, n int) ([]campaign.Correction, error) {
	var rows []correctionRow
	q := t.db.Where("campaign_id = ?", cid).Order("id")
	if n != 0 {
		q = q.Where("turn = ?", n)
	}
	if err := q.Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.Correction, len(rows))
	for i, r := range rows {
		c := campaign.Correction{ID: r.ID, CampaignID: r.CampaignID, Turn: r.Turn, By: r.MadeBy, At: r.MadeAt.UTC()}
		for _, part := range []struct {
			text string
			into any
		}{{r.Body, &c.Request}, {r.Original, &c.Original}, {r.Changes, &c.Changes}} {
			if err := json.Unmarshal([]byte(part.text), part.into); err != nil {
				return nil, fmt.Errorf("correction %d: %w", r.ID, err)
			}
		}
		out[i] = c
	}
	return out, nil
}

func (t *txn) AddCorrection(c *campaign.Correction) error {
	body, err := json.Marshal(c.Request)
	if err != nil {
		return err
	}
	orig, err := json.Marshal(c.Original)
	if err != nil {
		return err
	}
	changes, err := json.Marshal(c.Changes)
	if err != nil {
		return err
	}
	row := &correctionRow{CampaignID: c.CampaignID, Turn: c.Turn, Body: string(body), Original: string(orig), Changes: string(changes), MadeBy: c.By, MadeAt: c.At, Reason: c.Request.Reason}
	if err := t.db.Create(row).Error; err != nil {
		return err
	}
	c.ID = row.ID
	return nil
}

func (t *txn) SetTurnOutcome(tt *campaign.Turn) error {
	snap, err := tt.Snapshot.Encode()
	if err != nil {
		return err
	}
	return t.db.Model(&turnRow{}).Where("id = ?", tt.ID).Updates(map[string]any{
		"report": string(tt.Report), "report_text": tt.ReportText, "snapshot": string(snap),
	}).Error
}

func (t *txn) DeleteResult(turnID int64, square domain.Square) error {
	return t.db.Where("turn_id = ? AND square = ?", turnID, square.String()).Delete(&resultRow{}).Error
}

func (t *txn) SetMercenaryHistory(cid int64, n int, es []campaign.Engagement) error {
	if err := t.db.Where("campaign_id = ? AND turn = ?", cid, n).Delete(&mercenaryHistoryRow{}).Error; err != nil {
		return err
	}
	if len(es) == 0 {
		return nil
	}
	return t.AddMercenaryHistory(cid, n, es)
}
