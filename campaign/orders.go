// Post requests: a post's classic text, or structured orders rendered to classic lines (3.2.2.5),
// with transfers' private detail (T2).

package campaign

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/movement"
)

// MaxPostText is the longest post text accepted, in bytes.
const MaxPostText = 20000

// PostRequest is a post as a player sends it: classic text, or structured orders that the
// server renders to the classic format; either may carry transfers' private detail (T2).
type PostRequest struct {
	Text      string           `json:"text,omitempty"`
	Orders    []OrderInput     `json:"orders,omitempty"`
	Private   bool             `json:"private"`
	Transfers []TransferDetail `json:"transfers,omitempty"`
}

// OrderInput is one structured order. Army may be left empty for the author's namesake
// army (3.2.2.5); Target is the army named after engage/replace, the army to intercept, or
// the receiver of a transfer; Creatures is a transfer's private detail.
type OrderInput struct {
	Army      string           `json:"army,omitempty"`
	Kind      domain.OrderKind `json:"kind"`
	From      domain.Square    `json:"from,omitzero"`
	Legs      []domain.Leg     `json:"legs,omitempty"`
	Keyword   string           `json:"keyword,omitempty"`
	Target    string           `json:"target,omitempty"`
	At        domain.Square    `json:"at,omitzero"`
	Note      string           `json:"note,omitempty"`
	Creatures map[string]int   `json:"creatures,omitempty"`
}

// nameBreakers are the characters an army name in a structured order may not hold: the
// classic line would read them as its own punctuation.
const nameBreakers = ":;>()\n\r"

// line renders a structured order as the classic line, or says what is missing or off the
// map (a structured order is bad input, not a rejected order, when a square is off the grid).
func (o OrderInput) line(i int, grid domain.Grid) (string, error) {
	bad := func(format string, args ...any) (string, error) {
		return "", domain.Errorf(domain.ErrInvalid, "order %d: %s", i+1, fmt.Sprintf(format, args...))
	}
	squares := []domain.Square{o.From, o.At}
	for _, l := range o.Legs {
		squares = append(squares, l.To)
		squares = append(squares, l.Route...)
	}
	for _, sq := range squares {
		if !sq.IsZero() && !grid.Contains(sq) {
			return bad("%s is off the map: squares run from 1A to %s (1.2)", sq, domain.Square{Col: uint8(grid.Cols), Row: uint8(grid.Rows)})
		}
	}
	d := domain.Order{Army: strings.TrimSpace(o.Army), Kind: o.Kind}
	target := strings.TrimSpace(o.Target)
	for _, n := range []string{d.Army, target} {
		if strings.ContainsAny(n, nameBreakers) {
			return bad("the name %q may not contain any of %s or a line break: they carry meaning in an order line (3.2.2.5)", n, strings.TrimSpace(nameBreakers))
		}
	}
	if strings.ContainsAny(o.Note, "\n\r") {
		return bad("a note may not contain a line break")
	}
	switch o.Kind {
	case domain.MoveKind:
		if o.From.IsZero() || len(o.Legs) == 0 {
			return bad("a move needs \"from\" and at least one leg with \"to\"")
		}
		for _, l := range o.Legs {
			if l.To.IsZero() {
				return bad("every leg needs \"to\"")
			}
		}
		d.From, d.Legs = o.From, o.Legs
		kw, ok := movement.ParseKeyword(o.Keyword)
		if !ok {
			return bad("%q is not a keyword: use engage, replace or joint engage", o.Keyword)
		}
		d.Keyword = kw
		if d.Keyword == domain.NoKeyword && target != "" {
			return bad("a target army goes with a keyword (engage or replace)")
		}
		d.Named = target
	case domain.InterceptKind:
		if target == "" {
			return bad("an intercept needs the target army")
		}
		d.Target = target
	case domain.Transfer:
		if target == "" || o.At.IsZero() {
			return bad("a transfer needs the receiving army (\"target\") and its square (\"at\")")
		}
		d.Target, d.At = target, o.At
	case domain.Hold:
		d.Note = strings.TrimSpace(o.Note)
		if d.Note == "" {
			d.Note = "no move"
		}
		if _, err := movement.ParseLine(d.Note); err != nil {
			return bad("%q is not a hold line: write \"no move\" or \"fighting\"", d.Note)
		}
	default:
		return bad("%q is not a kind of order: use move, intercept, transfer or hold", o.Kind)
	}
	if o.Kind != domain.Transfer && len(o.Creatures) > 0 {
		return bad("creatures go only with a transfer")
	}
	if o.Kind != domain.Hold && strings.TrimSpace(o.Note) != "" {
		return bad("a note goes only with a hold (\"no move\" or \"fighting\"); a %s order's line has no place for one (3.2.2.5)", o.Kind)
	}
	return movement.Format(d), nil
}

// normalize turns a request into the post's text and transfer details.
func (req *PostRequest) normalize(author string, grid domain.Grid) (string, []TransferDetail, error) {
	text := strings.TrimSpace(req.Text)
	transfers := append([]TransferDetail(nil), req.Transfers...)
	switch {
	case text != "" && len(req.Orders) > 0:
		return "", nil, domain.Errorf(domain.ErrInvalid, "send either \"text\" or \"orders\", not both")
	case text == "" && len(req.Orders) == 0:
		return "", nil, domain.Errorf(domain.ErrInvalid, "the post is empty: send \"text\" with one order a line, or \"orders\"")
	case len(req.Orders) > 0:
		lines := make([]string, len(req.Orders))
		for i, o := range req.Orders {
			l, err := o.line(i, grid)
			if err != nil {
				return "", nil, err
			}
			lines[i] = l
			if o.Kind == domain.Transfer && len(o.Creatures) > 0 {
				army := strings.TrimSpace(o.Army)
				if army == "" {
					army = author
				}
				transfers = append(transfers, TransferDetail{Army: army, Creatures: o.Creatures})
			}
		}
		text = strings.Join(lines, "\n")
	}
	if len(text) > MaxPostText {
		return "", nil, domain.Errorf(domain.ErrInvalid, "the post is %d bytes long: at most %d", len(text), MaxPostText)
	}
	if !utf8.ValidString(text) {
		return "", nil, domain.Errorf(domain.ErrInvalid, "the post is not valid UTF-8 text")
	}
	for _, t := range transfers {
		if strings.TrimSpace(t.Army) == "" {
			return "", nil, domain.Errorf(domain.ErrInvalid, "a transfer detail needs the sending army")
		}
		if len(t.Creatures) == 0 {
			return "", nil, domain.Errorf(domain.ErrInvalid, "the transfer detail of %s names no creatures", t.Army)
		}
		for c, n := range t.Creatures {
			if strings.TrimSpace(c) == "" || n <= 0 {
				return "", nil, domain.Errorf(domain.ErrInvalid, "the transfer detail of %s must name each creature with a positive count (%q: %d)", t.Army, c, n)
			}
		}
	}
	return text, transfers, nil
}
