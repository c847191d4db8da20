package store

// This file holds the store's part for the mercenary AI and the after-lock edit (chapter 6,
// 6.3.2): campaign.MercenaryReader and campaign.MercenaryWriter.

import (
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm/clause"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

type mercenarySettingsRow struct {
	CampaignID        int64 `gorm:"primaryKey;autoIncrement:false"`
	Mode              string
	EditWindowSeconds int64
	Creatures         *string
}

func (mercenarySettingsRow) TableName() string { return "mercenary_settings" }

type mercenaryHistoryRow struct {
	CampaignID  int64 `gorm:"primaryKey;autoIncrement:false"`
	Turn        int   `gorm:"primaryKey;autoIncrement:false"`
	Engagements string
}

func (mercenaryHistoryRow) TableName() string { return "mercenary_history" }

type planPostRow struct {
	PostID int64 `gorm:"primaryKey;autoIncrement:false"`
	Lines  string
}

func (planPostRow) TableName() string { return "plan_posts" }

func (t *txn) MercenarySettings(cid int64) (*campaign.MercenarySettings, error) {
	var r mercenarySettingsRow
	if err := t.db.Where("campaign_id = ?", cid).Take(&r).Error; err != nil {
		return nil, translate(err, fmt.Sprintf("the mercenary settings of campaign %d", cid))
	}
	st := &campaign.MercenarySettings{CampaignID: r.CampaignID, Mode: campaign.MercenaryMode(r.Mode), EditWindow: time.Duration(r.EditWindowSeconds) * time.Second}
	if r.Creatures != nil {
		st.Creatures = []domain.Troop{}
		if err := json.Unmarshal([]byte(*r.Creatures), &st.Creatures); err != nil {
			return nil, fmt.Errorf("campaign %d's creature pool: %w", cid, err)
		}
	}
	return st, nil
}

func (t *txn) PutMercenarySettings(st *campaign.MercenarySettings) error {
	r := &mercenarySettingsRow{CampaignID: st.CampaignID, Mode: string(st.Mode), EditWindowSeconds: seconds(st.EditWindow)}
	if st.Creatures != nil {
		b, err := json.Marshal(st.Creatures)
		if err != nil {
			return err
		}
		c := string(b)
		r.Creatures = &c
	}
	return t.db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "campaign_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"mode", "edit_window_seconds", "creatures"}),
	}).Create(r).Error
}

func (t *txn) MercenaryHistory(cid int64, n int) ([]campaign.Engagement, error) {
	var rows []mercenaryHistoryRow
	if err := t.db.Where("campaign_id = ? AND turn < ?", cid, n).Order("turn").Find(&rows).Error; err != nil {
		return nil, err
	}
	var out []campaign.Engagement
	for _, r := range rows {
		var es []campaign.Engagement
		if err := json.Unmarshal([]byte(r.Engagements), &es); err != nil {
			return nil, fmt.Errorf("campaign %d's mercenary engagements of turn %d: %w", cid, r.Turn, err)
		}
		out = append(out, es...)
	}
	return out, nil
}

func (t *txn) AddMercenaryHistory(cid int64, n int, es []campaign.Engagement) error {
	b, err := json.Marshal(es)
	if err != nil {
		return err
	}
	return translate(t.db.Create(&mercenaryHistoryRow{CampaignID: cid, Turn: n, Engagements: string(b)}).Error,
		fmt.Sprintf("the mercenary engagements of turn %d of campaign %d", n, cid))
}

func (t *txn) PlanLines(cid int64, n int) (map[int64][]campaign.PlanLine, error) {
	var rows []planPostRow
	err := t.db.Table("plan_posts").Select("plan_posts.post_id, plan_posts.lines").
		Joins("JOIN posts ON posts.id = plan_posts.post_id").
		Where("posts.campaign_id = ? AND posts.turn = ?", cid, n).Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	out := make(map[int64][]campaign.PlanLine, len(rows))
	for _, r := range rows {
		var ls []campaign.PlanLine
		if err := json.Unmarshal([]byte(r.Lines), &ls); err != nil {
			return nil, fmt.Errorf("the plan lines of post %d: %w", r.PostID, err)
		}
		out[r.PostID] = ls
	}
	return out, nil
}

func (t *txn) PutPlanLines(post int64, lines []campaign.PlanLine) error {
	b, err := json.Marshal(nonNilSlice(lines))
	if err != nil {
		return err
	}
	return translate(t.db.Create(&planPostRow{PostID: post, Lines: string(b)}).Error, fmt.Sprintf("the plan lines of post %d", post))
}

func (t *txn) EditWindows() ([]campaign.OpenTurn, error) {
	return t.turnsDue("edit_until", "turns.status = ? AND turns.edit_until IS NOT NULL AND turns.edit = ''", string(campaign.Locked))
}

func (t *txn) PublishTurn(tt *campaign.Turn) (bool, error) {
	res := t.db.Model(&turnRow{}).Where("id = ? AND status = ? AND edit_until IS NOT NULL AND edit = ''", tt.ID, string(campaign.Locked)).Updates(map[string]any{
		"report": string(tt.Report), "report_text": tt.ReportText, "edit": editText(tt.Edit),
	})
	return res.RowsAffected == 1, res.Error
}

// editText is how a turn's after-lock edit window closed, as stored: JSON, or "" while open.
func editText(e *campaign.EditClose) string {
	if e == nil {
		return ""
	}
	b, _ := json.Marshal(e) // a struct of plain fields always encodes
	return string(b)
}
