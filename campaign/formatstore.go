// The records of the card formats the server keeps (issue 19) — banned lists version by
// version, the judges' corrections of the every-card data, leagues, matches and their events —
// and the store port that keeps them.

package campaign

import (
	"time"

	"github.com/coalition-wargame/coalition/format"
	"github.com/coalition-wargame/coalition/match"
)

// BanlistVersion is one version of one of the formats' banned lists: every edit by an admin is
// a new version, with who made it and when, as the battle formulas are kept. The list shipped
// in the program is version 1 and is not stored.
type BanlistVersion struct {
	ID int64 `json:"id"`
	// List is the banned list's id ("coalition-2026-03-09").
	List    string         `json:"list"`
	Version int            `json:"version"`
	Banlist format.Banlist `json:"banlist"`
	By      string         `json:"by"`
	At      time.Time      `json:"at"`
	// Reason is what the admin said of the change.
	Reason string `json:"reason,omitempty"`
}

// League is a named event of one card format and one of its revisions: its matches are kept by
// that format's rules and its decks checked against that revision (docs/FORMATS.md E1).
type League struct {
	ID       int64     `json:"id"`
	Name     string    `json:"name"`
	Format   string    `json:"format"`
	Revision string    `json:"revision"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
}

// MatchRecord is a match as the store keeps it, its events aside.
type MatchRecord struct {
	ID int64 `json:"id"`
	// LeagueID is the league the match belongs to; 0 for none.
	LeagueID int64  `json:"league,omitempty"`
	Format   string `json:"format"`
	Revision string `json:"revision"`
	// Players are the accounts at the table, in seat order, by their names.
	Players []string      `json:"players"`
	Options match.Options `json:"options"`
	// Version counts the match's changes: every event and every undo adds one.
	Version int64 `json:"version"`
	// Over and Result say how the match stands, for lists: "Ann won", "a draw between Ann and
	// Bob", "" while it is played.
	Over      bool      `json:"over"`
	Result    string    `json:"result,omitempty"`
	By        string    `json:"by"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// MatchEvent is one event of a match's log as the store keeps it: an undone event stays in
// the log with who took it back and when.
type MatchEvent struct {
	MatchID int64 `json:"-"`
	// Seq numbers the match's events from 1, undone ones included.
	Seq   int         `json:"seq"`
	Game  int         `json:"game"`
	Event match.Event `json:"event"`
	// Says is what the event did when it was accepted.
	Says     string     `json:"says"`
	By       string     `json:"by"`
	At       time.Time  `json:"at"`
	UndoneBy string     `json:"undone_by,omitempty"`
	UndoneAt *time.Time `json:"undone_at,omitempty"`
}

// FormatsReader is what the card formats read from a store (package store implements it with
// the rest of Reader).
type FormatsReader interface {
	// BanlistVersions lists every stored version of every banned list by id.
	BanlistVersions() ([]BanlistVersion, error)
	// DeckCardCorrections lists the judges' corrections of the every-card data in the order
	// first made.
	DeckCardCorrections() ([]CardCorrection, error)
	// Leagues lists the leagues by id.
	Leagues() ([]League, error)
	// League returns a league by id.
	League(id int64) (*League, error)
	// Matches lists the matches of a league (0: every match), newest first, at most limit.
	Matches(league int64, limit int) ([]MatchRecord, error)
	// Match returns a match by id.
	Match(id int64) (*MatchRecord, error)
	// MatchEvents lists a match's events by Seq, undone ones included.
	MatchEvents(match int64) ([]MatchEvent, error)
}

// FormatsWriter is what the card formats write.
type FormatsWriter interface {
	// AddBanlistVersion stores a new version of a banned list and sets its id; a version
	// given twice is a conflict.
	AddBanlistVersion(v *BanlistVersion) error
	// PutDeckCardCorrection stores a judge's card of the every-card data, replacing one of the
	// same name.
	PutDeckCardCorrection(c *CardCorrection) error
	// CreateLeague stores a new league and sets its id; a second league of the same name is a
	// conflict.
	CreateLeague(l *League) error
	// CreateMatch stores a new match and sets its id.
	CreateMatch(m *MatchRecord) error
	// UpdateMatch stores a match's version, standing and time where its stored version is
	// still prev, in one conditional update; it reports false when another change came first.
	UpdateMatch(m *MatchRecord, prev int64) (bool, error)
	// AddMatchEvent appends an event to a match's log; a Seq given twice is a conflict.
	AddMatchEvent(e *MatchEvent) error
	// UndoMatchEvent marks event seq of a match undone by someone at a time.
	UndoMatchEvent(match int64, seq int, by string, at time.Time) error
}
