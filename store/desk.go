package store

import (
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm/clause"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

type strategyRow struct {
	ID          int64 `gorm:"primaryKey"`
	TurnID      int64
	Square      string
	Army        string
	Side        string
	Contingency bool
	Author      string
	Text        string
	Choices     string
	SubmittedAt time.Time
}

func (strategyRow) TableName() string { return "strategies" }

type proposalRow struct {
	ID          int64 `gorm:"primaryKey"`
	TurnID      int64
	Square      string
	Judgement   string
	Proposal    string
	MadeBy      string
	MadeAt      time.Time
	ConfirmedBy string
	ConfirmedAt *time.Time
	Text        string
}

func (proposalRow) TableName() string { return "proposals" }

type formulaRow struct {
	ID         int64 `gorm:"primaryKey"`
	CampaignID int64
	Name       string
	Version    int
	Text       string
	ByName     string
	At         time.Time
}

func (formulaRow) TableName() string { return "formulas" }

type sanctionRow struct {
	ID       int64 `gorm:"primaryKey"`
	TurnID   int64
	Army     string
	K        int
	Severity int
	Roll     string
	Losses   string
	Reason   string
	ByName   string
	At       time.Time
}

func (sanctionRow) TableName() string { return "sanctions" }

type amendmentRow struct {
	ID     int64 `gorm:"primaryKey"`
	TurnID int64
	Kind   string
	Army   string
	Patch  string
	ByName string
	At     time.Time
}

func (amendmentRow) TableName() string { return "amendments" }

type cardRow struct {
	NameKey string `gorm:"primaryKey"`
	Card    string
	ByName  string
	At      time.Time
}

func (cardRow) TableName() string { return "cards" }

func square(s string) (domain.Square, error) {
	q, err := domain.ParseSquare(s)
	if err != nil {
		return domain.Square{}, fmt.Errorf("stored square %q: %w", s, err)
	}
	return q, nil
}

func (t *txn) Strategies(turnID int64) ([]campaign.Strategy, error) {
	var rows []strategyRow
	if err := t.db.Where("turn_id = ?", turnID).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.Strategy, 0, len(rows))
	for _, r := range rows {
		sq, err := square(r.Square)
		if err != nil {
			return nil, err
		}
		s := campaign.Strategy{ID: r.ID, TurnID: r.TurnID, Square: sq, Army: r.Army, Side: domain.Side(r.Side), Contingency: r.Contingency,
			Author: r.Author, Text: r.Text, SubmittedAt: r.SubmittedAt.UTC()}
		if err := json.Unmarshal([]byte(r.Choices), &s.Choices); err != nil {
			return nil, fmt.Errorf("strategy %d: %w", r.ID, err)
		}
		out = append(out, s)
	}
	return out, nil
}

func (t *txn) PutStrategy(s *campaign.Strategy) error {
	choices, err := json.Marshal(s.Choices)
	if err != nil {
		return err
	}
	r := &strategyRow{TurnID: s.TurnID, Square: s.Square.String(), Army: s.Army, Side: string(s.Side), Contingency: s.Contingency,
		Author: s.Author, Text: s.Text, Choices: string(choices), SubmittedAt: s.SubmittedAt}
	err = t.db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "turn_id"}, {Name: "army"}, {Name: "contingency"}},
		DoUpdates: clause.AssignmentColumns([]string{"square", "side", "author", "text", "choices", "submitted_at"}),
	}).Create(r).Error
	if err != nil {
		return err
	}
	var id int64
	if err := t.db.Raw("SELECT id FROM strategies WHERE turn_id = ? AND army = ? AND contingency = ?", s.TurnID, s.Army, s.Contingency).Row().Scan(&id); err != nil {
		return err
	}
	s.ID = id
	return nil
}

func (t *txn) Proposals(turnID int64) ([]campaign.ProposalRecord, error) {
	var rows []proposalRow
	if err := t.db.Where("turn_id = ?", turnID).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.ProposalRecord, 0, len(rows))
	for _, r := range rows {
		sq, err := square(r.Square)
		if err != nil {
			return nil, err
		}
		p := campaign.ProposalRecord{ID: r.ID, TurnID: r.TurnID, Square: sq, MadeBy: r.MadeBy, MadeAt: r.MadeAt.UTC(),
			ConfirmedBy: r.ConfirmedBy, ConfirmedAt: utcPtr(r.ConfirmedAt), Text: r.Text}
		if err := json.Unmarshal([]byte(r.Judgement), &p.Judgement); err != nil {
			return nil, fmt.Errorf("proposal %d's judgement: %w", r.ID, err)
		}
		if err := json.Unmarshal([]byte(r.Proposal), &p.Proposal); err != nil {
			return nil, fmt.Errorf("proposal %d: %w", r.ID, err)
		}
		out = append(out, p)
	}
	return out, nil
}

func (t *txn) PutProposal(p *campaign.ProposalRecord) error {
	j, err := json.Marshal(p.Judgement)
	if err != nil {
		return err
	}
	body, err := json.Marshal(p.Proposal)
	if err != nil {
		return err
	}
	r := &proposalRow{TurnID: p.TurnID, Square: p.Square.String(), Judgement: string(j), Proposal: string(body), MadeBy: p.MadeBy, MadeAt: p.MadeAt,
		ConfirmedBy: p.ConfirmedBy, ConfirmedAt: p.ConfirmedAt, Text: p.Text}
	err = t.db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "turn_id"}, {Name: "square"}},
		DoUpdates: clause.AssignmentColumns([]string{"judgement", "proposal", "made_by", "made_at", "confirmed_by", "confirmed_at", "text"}),
	}).Create(r).Error
	if err != nil {
		return err
	}
	var id int64
	if err := t.db.Raw("SELECT id FROM proposals WHERE turn_id = ? AND square = ?", p.TurnID, r.Square).Row().Scan(&id); err != nil {
		return err
	}
	p.ID = id
	return nil
}

func (t *txn) Formulas(cid int64) ([]campaign.FormulaVersion, error) {
	var rows []formulaRow
	if err := t.db.Where("campaign_id = ?", cid).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.FormulaVersion, len(rows))
	for i, r := range rows {
		out[i] = campaign.FormulaVersion{ID: r.ID, CampaignID: r.CampaignID, Name: r.Name, Version: r.Version, Text: r.Text, By: r.ByName, At: r.At.UTC()}
	}
	return out, nil
}

func (t *txn) AddFormula(f *campaign.FormulaVersion) error {
	r := &formulaRow{CampaignID: f.CampaignID, Name: f.Name, Version: f.Version, Text: f.Text, ByName: f.By, At: f.At}
	if err := t.db.Create(r).Error; err != nil {
		return translate(err, fmt.Sprintf("version %d of the %s formula", f.Version, f.Name))
	}
	f.ID = r.ID
	return nil
}

func (t *txn) Sanctions(turnID int64) ([]campaign.Sanction, error) {
	var rows []sanctionRow
	if err := t.db.Where("turn_id = ?", turnID).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.Sanction, len(rows))
	for i, r := range rows {
		s := campaign.Sanction{ID: r.ID, TurnID: r.TurnID, Army: r.Army, K: r.K, Severity: r.Severity, Reason: r.Reason, By: r.ByName, At: r.At.UTC()}
		if err := json.Unmarshal([]byte(r.Roll), &s.Roll); err != nil {
			return nil, fmt.Errorf("sanction %d's roll: %w", r.ID, err)
		}
		if err := json.Unmarshal([]byte(r.Losses), &s.Losses); err != nil {
			return nil, fmt.Errorf("sanction %d's losses: %w", r.ID, err)
		}
		out[i] = s
	}
	return out, nil
}

func (t *txn) AddSanction(s *campaign.Sanction) error {
	roll, err := json.Marshal(s.Roll)
	if err != nil {
		return err
	}
	losses, err := json.Marshal(s.Losses)
	if err != nil {
		return err
	}
	r := &sanctionRow{TurnID: s.TurnID, Army: s.Army, K: s.K, Severity: s.Severity, Roll: string(roll), Losses: string(losses), Reason: s.Reason, ByName: s.By, At: s.At}
	if err := t.db.Create(r).Error; err != nil {
		return translate(err, fmt.Sprintf("sanction %d on %s", s.K, s.Army))
	}
	s.ID = r.ID
	return nil
}

func (t *txn) Amendments(turnID int64) ([]campaign.Amendment, error) {
	var rows []amendmentRow
	if err := t.db.Where("turn_id = ?", turnID).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.Amendment, len(rows))
	for i, r := range rows {
		a := campaign.Amendment{ID: r.ID, TurnID: r.TurnID, Kind: campaign.AmendmentKind(r.Kind), Army: r.Army, By: r.ByName, At: r.At.UTC()}
		var body amendmentBody
		if err := json.Unmarshal([]byte(r.Patch), &body); err != nil {
			return nil, fmt.Errorf("amendment %d: %w", r.ID, err)
		}
		a.Patch, a.Player = body.Patch, body.Player
		out[i] = a
	}
	return out, nil
}

// amendmentBody is how an amendment's patch is stored, with the player a customisation
// belongs to.
type amendmentBody struct {
	Patch  campaign.ArmyPatch `json:"patch"`
	Player string             `json:"player,omitempty"`
}

func (t *txn) AddAmendment(a *campaign.Amendment) error {
	patch, err := json.Marshal(amendmentBody{Patch: a.Patch, Player: a.Player})
	if err != nil {
		return err
	}
	r := &amendmentRow{TurnID: a.TurnID, Kind: string(a.Kind), Army: a.Army, Patch: string(patch), ByName: a.By, At: a.At}
	if err := t.db.Create(r).Error; err != nil {
		return err
	}
	a.ID = r.ID
	return nil
}

func (t *txn) CardCorrections() ([]campaign.CardCorrection, error) {
	return t.cardCorrections("cards", "card correction")
}

func (t *txn) PutCardCorrection(c *campaign.CardCorrection) error {
	return t.putCardCorrection("cards", c)
}

// cardCorrections reads the judges' corrections kept in table (the creature data's, cards, or
// the every-card data's, deck_cards: the same columns), oldest first; what names one in an error.
func (t *txn) cardCorrections(table, what string) ([]campaign.CardCorrection, error) {
	var rows []cardRow
	if err := t.db.Table(table).Order("at, name_key").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.CardCorrection, len(rows))
	for i, r := range rows {
		c := campaign.CardCorrection{Key: r.NameKey, By: r.ByName, At: r.At.UTC()}
		if err := json.Unmarshal([]byte(r.Card), &c.Card); err != nil {
			return nil, fmt.Errorf("%s %q: %w", what, r.NameKey, err)
		}
		out[i] = c
	}
	return out, nil
}

// putCardCorrection writes a correction in table, replacing the card's earlier one.
func (t *txn) putCardCorrection(table string, c *campaign.CardCorrection) error {
	if c.Key == "" {
		return domain.Errorf(domain.ErrInvalid, "a card correction needs its name key")
	}
	body, err := json.Marshal(c.Card)
	if err != nil {
		return err
	}
	r := &cardRow{NameKey: c.Key, Card: string(body), ByName: c.By, At: c.At}
	return t.db.Table(table).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "name_key"}},
		DoUpdates: clause.AssignmentColumns([]string{"card", "by_name", "at"}),
	}).Create(r).Error
}
