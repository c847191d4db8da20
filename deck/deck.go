// Package deck reads deck lists and judges their cards for the card formats (Coalition,
// Heroic, Manahearth; ../shared/formats): the list parsed in its usual text forms with line
// numbers (F8), each line found in the every-card catalogue with the nearest names for an
// unknown one, and each card's typal identity (906.4, F7). The formats' rules live in package
// format. The package is pure: the catalogue in, data out; it imports the card catalogue and
// the standard library.
package deck

// Problem is one thing that makes a deck illegal or unreadable, named by its rule id (F9):
// "size.main", "typal", "banned.reserved", "unknown-card", "syntax"…
type Problem struct {
	Rule string `json:"rule"`
	// Line is the number of the list's line the problem is about, from 1; 0 for the deck as a
	// whole.
	Line int `json:"line"`
	// Card is the card's name as the catalogue has it (as the list wrote it when unknown), or
	// "" for the deck as a whole.
	Card    string `json:"card"`
	Message string `json:"message"`
}
