package campaign

import (
	"time"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/domain"
)

// DeskReader is what the battle desk, the army edits and the card corrections read from a
// store (package store implements it with the rest of Reader).
type DeskReader interface {
	// Strategies lists a turn's battle strategies by id.
	Strategies(turnID int64) ([]Strategy, error)
	// Proposals lists a turn's battle proposals by square.
	Proposals(turnID int64) ([]ProposalRecord, error)
	// Formulas lists every version of a campaign's battle formulas by id.
	Formulas(campaign int64) ([]FormulaVersion, error)
	// Sanctions lists a turn's sanctions by id.
	Sanctions(turnID int64) ([]Sanction, error)
	// Amendments lists a turn's army amendments by id.
	Amendments(turnID int64) ([]Amendment, error)
	// CardCorrections lists the judges' card corrections in the order first made.
	CardCorrections() ([]CardCorrection, error)
}

// DeskWriter is what the battle desk, the army edits and the card corrections write.
type DeskWriter interface {
	// PutStrategy stores a strategy, replacing the one of the same turn, army and
	// contingency flag; it sets the id.
	PutStrategy(s *Strategy) error
	// PutProposal stores a proposal, replacing the one of the same turn and square; it sets
	// the id.
	PutProposal(p *ProposalRecord) error
	// AddFormula stores a new version of a formula; a version given twice is a conflict.
	AddFormula(f *FormulaVersion) error
	// AddSanction stores a sanction and sets its id; the same k twice for an army is a conflict.
	AddSanction(s *Sanction) error
	// AddAmendment stores an army amendment and sets its id.
	AddAmendment(a *Amendment) error
	// PutCardCorrection stores a judge's card, replacing one of the same name.
	PutCardCorrection(c *CardCorrection) error
}

// Strategy is a battle strategy as sent for one army (4.1, B1): the free text the battle
// judge reads and the structured choices the server acts on. Only the army's side and the
// battle judges ever see it.
type Strategy struct {
	ID     int64         `json:"id"`
	TurnID int64         `json:"-"`
	Square domain.Square `json:"square"`
	Army   string        `json:"army"`
	Side   domain.Side   `json:"side"`
	// Contingency is set when the army's controller's contingency sent it (5.2.3).
	Contingency bool            `json:"contingency"`
	Author      string          `json:"author"`
	Text        string          `json:"text"`
	Choices     StrategyChoices `json:"choices"`
	SubmittedAt time.Time       `json:"submitted_at"`
}

// StrategyChoices are a strategy's structured orders: a kill (4.3.2) or capture (4.5)
// attempt, running away (4.2.6), and which army of a winning pair leaves and where (4.4, B10).
type StrategyChoices struct {
	Kill    string        `json:"kill,omitempty"`
	Capture string        `json:"capture,omitempty"`
	RunAway bool          `json:"run_away,omitempty"`
	Leaves  *domain.Leave `json:"leaves,omitempty"`
}

// ProposalRecord is the server's proposal for one battle as stored: the judge's judgement,
// what battle.Propose made of it, and whether the judge confirmed it.
type ProposalRecord struct {
	ID          int64            `json:"id"`
	TurnID      int64            `json:"-"`
	Square      domain.Square    `json:"square"`
	Judgement   battle.Judgement `json:"judgement"`
	Proposal    battle.Proposal  `json:"proposal"`
	MadeBy      string           `json:"made_by"`
	MadeAt      time.Time        `json:"made_at"`
	ConfirmedBy string           `json:"confirmed_by,omitempty"`
	ConfirmedAt *time.Time       `json:"confirmed_at,omitempty"`
	// Text is the result text the judge publishes with the result; it is public after the
	// lock, and it is the only way a strategy's content becomes public.
	Text string `json:"text,omitempty"`
}

// FormulaVersion is one version of one of a campaign's battle formulas: every edit is a new
// version, with who made it and when.
type FormulaVersion struct {
	ID         int64     `json:"id"`
	CampaignID int64     `json:"-"`
	Name       string    `json:"name"`
	Version    int       `json:"version"`
	Text       string    `json:"text"`
	By         string    `json:"by"`
	At         time.Time `json:"at"`
}

// Formula is the version as the battle engine takes it.
func (f *FormulaVersion) Formula() battle.Formula {
	return battle.Formula{Name: f.Name, Version: f.Version, Text: f.Text}
}

// Sanction is a troop loss a battle judge laid on an army for an order or strategy sent by
// someone who does not control it (5.4.1): its draw and the troops it cost.
type Sanction struct {
	ID     int64  `json:"id"`
	TurnID int64  `json:"-"`
	Army   string `json:"army"`
	// K numbers the army's sanctions of the turn from 1 (the draw's label).
	K        int            `json:"k"`
	Severity int            `json:"severity"`
	Roll     battle.Roll    `json:"roll"`
	Losses   map[string]int `json:"losses"`
	Reason   string         `json:"reason"`
	By       string         `json:"by"`
	At       time.Time      `json:"at"`
}

// AmendmentKind says what an amendment of the open turn's map is.
type AmendmentKind string

// The kinds of amendment.
const (
	// ArmyCreated is a judge's new army (2.5.2).
	ArmyCreated AmendmentKind = "create"
	// ArmyEdited is a judge's edit of an army (2.5.2).
	ArmyEdited AmendmentKind = "edit"
	// TroopsChanged is a controller's new troop list after counting 2 days (2.3.2, D6).
	TroopsChanged AmendmentKind = "troops"
	// ArmyCustomised is a new player's one customisation (2.6).
	ArmyCustomised AmendmentKind = "customise"
)

// Amendment is a change to the open turn's map made between locks: it applies at once to
// the map everyone sees and to the lock's input, and is kept with the turn so that a replay
// applies it again.
type Amendment struct {
	ID     int64         `json:"id"`
	TurnID int64         `json:"-"`
	Kind   AmendmentKind `json:"kind"`
	// Army is the army's name as the amendment found it (the new army's for ArmyCreated).
	Army  string    `json:"army"`
	Patch ArmyPatch `json:"patch"`
	By    string    `json:"by"`
	At    time.Time `json:"at"`
	// Player is the player a customisation belongs to (2.6: one per player).
	Player string `json:"player,omitempty"`
}

// ArmyPatch is what an amendment changes in an army; nil fields are left as they are. For
// ArmyCreated, Army is the whole new army.
type ArmyPatch struct {
	Army   *domain.Army   `json:"army,omitempty"`
	Name   string         `json:"name,omitempty"`
	Rank   domain.Rank    `json:"rank,omitempty"`
	At     domain.Square  `json:"at,omitzero"`
	Colors []domain.Color `json:"colors,omitempty"`
	Legend *string        `json:"legend,omitempty"`
	Troops []domain.Troop `json:"troops,omitempty"`
}

// CardCorrection is a card a judge added or corrected, put over the card data at start.
type CardCorrection struct {
	// Key is cards.Key of the card's name: one correction a name.
	Key  string     `json:"-"`
	Card cards.Card `json:"card"`
	By   string     `json:"by"`
	At   time.Time  `json:"at"`
}
