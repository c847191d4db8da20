package domain

import "time"

// Post is one message of the movement thread, or one sent privately to the movement judge
// (3.1, C2): its text holds one order a line.
type Post struct {
	ID      int64     `json:"id"`
	Author  string    `json:"author"`
	At      time.Time `json:"at"`
	Private bool      `json:"private"`
	Text    string    `json:"text"`
}

// Before orders posts by time, then id (M2, M7).
func (p *Post) Before(q *Post) bool {
	if !p.At.Equal(q.At) {
		return p.At.Before(q.At)
	}
	return p.ID < q.ID
}

// OrderKind is the action an order gives an army (3.2.1, M1).
type OrderKind string

// The kinds of order.
const (
	Hold          OrderKind = "hold"
	MoveKind      OrderKind = "move"
	InterceptKind OrderKind = "intercept"
	Transfer      OrderKind = "transfer"
)

// Keyword is the word at the end of a move (3.2.2.2, 3.2.5.1).
type Keyword string

// The move keywords.
const (
	NoKeyword   Keyword = ""
	Engage      Keyword = "engage"
	Replace     Keyword = "replace"
	JointEngage Keyword = "joint"
)

// Order is one line of a post, as parsed. Squares are as written: the parser checks their
// form, the validator checks that they are on the map.
type Order struct {
	// Army is the army's name as written, empty when the author left it off (3.2.2.5).
	Army string    `json:"army,omitempty"`
	Kind OrderKind `json:"kind"`
	// From is the square the move starts from (M3).
	From Square `json:"from,omitzero"`
	// Legs are the move's legs; more than one makes a long move (M14).
	Legs    []Leg   `json:"legs,omitempty"`
	Keyword Keyword `json:"keyword,omitempty"`
	// Named is the army named after engage or replace (informational, M5).
	Named string `json:"named,omitempty"`
	// Target is the army to intercept, or the army receiving a transfer.
	Target string `json:"target,omitempty"`
	// At is the receiver's square in a transfer.
	At Square `json:"at,omitzero"`
	// Note is the wording of a hold line ("no move", "fighting").
	Note string `json:"note,omitempty"`
}

// Code is the reason an order was not carried out.
type Code string

// The rejection codes of the scenario format.
const (
	CodeParseError             Code = "parse_error"
	CodeUnknownArmy            Code = "unknown_army"
	CodeNotController          Code = "not_controller"
	CodeConflictingControllers Code = "conflicting_controllers"
	CodeWrongOrigin            Code = "wrong_origin"
	CodeOffMap                 Code = "off_map"
	CodeOutOfRange             Code = "out_of_range"
	CodeBadRoute               Code = "bad_route"
	CodeMissingEngage          Code = "missing_engage"
	CodeMissingReplace         Code = "missing_replace"
	CodeWrongKeyword           Code = "wrong_keyword"
	CodeInBattle               Code = "in_battle"
	CodeSuperseded             Code = "superseded"
	CodeJointEngageRank        Code = "joint_engage_rank"
	CodeJointEngageSite        Code = "joint_engage_site"
	CodeJointEngageFailed      Code = "joint_engage_failed"
	CodeJointEngageLimit       Code = "joint_engage_limit"
	CodeTransferNotAdjacent    Code = "transfer_not_adjacent"
	CodeTransferFromSite       Code = "transfer_from_site"
	CodeTransferNoRoom         Code = "transfer_no_room"
	CodeTransferCancelled      Code = "transfer_cancelled"
	CodeTransferNotFriendly    Code = "transfer_not_friendly"
	CodeTransferWrongSquare    Code = "transfer_wrong_square"
	CodeTransferTooMany        Code = "transfer_too_many"
	CodePrivateTooEarly        Code = "private_too_early"
	CodeTooLate                Code = "too_late"
	CodeInterceptNotEnemy      Code = "intercept_not_enemy"
	CodeNotMoving              Code = "not_moving"
)

// Rejection is an order that was not carried out, with the reason in a player's words.
type Rejection struct {
	Army    string `json:"army"`
	Post    int64  `json:"post"`
	Line    int    `json:"line"`
	Code    Code   `json:"code"`
	Message string `json:"message"`
	// Text is the line as posted.
	Text string `json:"text,omitempty"`
}

// Warning is an accepted order with something the player should know.
type Warning struct {
	Army    string `json:"army"`
	Post    int64  `json:"post"`
	Line    int    `json:"line"`
	Message string `json:"message"`
	// Private marks a warning only the army's side and the judges may read: one that tells
	// whether a transfer's private detail was sent (T2, T3).
	Private bool `json:"private,omitempty"`
}

// TransferDetail is the private part of a transfer order: which creatures and how many
// (3.2.4.2, T2). It belongs to the post that gave the order.
type TransferDetail struct {
	Post      int64          `json:"post"`
	Army      string         `json:"army"`
	Creatures map[string]int `json:"creatures"`
}

// Move is what one army's move did at the lock.
type Move struct {
	Army string `json:"army"`
	From Square `json:"from"`
	To   Square `json:"to"`
	// Route is the route the army meant to take, the squares it would pass, start excluded,
	// destination included (M4), when it is known: written in the order, the only shortest
	// route, or drawn because it decided something (the army was an intercept target or its
	// move was cut short). Empty when a random route did not matter.
	Route []Square `json:"route,omitempty"`
	// Partial is set when the move was cut short (M8).
	Partial bool `json:"partial,omitempty"`
	// Intercepted is set when an interceptor stopped the army on its way (M9).
	Intercepted bool `json:"intercepted,omitempty"`
}

// TransferOrder is an accepted transfer with its private detail, carried out at the update
// (3.2.4.3, T3).
type TransferOrder struct {
	From      string         `json:"from"`
	To        string         `json:"to"`
	Creatures map[string]int `json:"creatures"`
	Post      int64          `json:"post"`
	At        time.Time      `json:"at"`
	Line      int            `json:"line"`
}
