package domain

import (
	"strconv"
)

// Grid is the size of a campaign map: columns are numbered 1..Cols, rows lettered A.. (G1).
type Grid struct {
	Cols int `json:"cols"`
	Rows int `json:"rows"`
}

// DefaultGrid is the rulebook's 38 × 14 map (1.2): numbers 1–38, letters A–N.
var DefaultGrid = Grid{Cols: 38, Rows: 14}

// MaxRows is the largest number of rows a grid may have (one letter per row).
const MaxRows = 26

// Square is one square of the grid: Col is the number (1-based), Row the letter (1 = A).
// The zero Square is "no square".
type Square struct {
	Col, Row uint8
}

// IsZero reports whether s is the zero ("no square") value.
func (s Square) IsZero() bool { return s.Col == 0 && s.Row == 0 }

// String prints a square number-first in upper case, as G1 requires: "3D".
func (s Square) String() string {
	if s.IsZero() {
		return ""
	}
	var b [4]byte
	out := strconv.AppendUint(b[:0], uint64(s.Col), 10)
	if s.Row >= 1 && s.Row <= MaxRows {
		out = append(out, 'A'+s.Row-1)
	} else {
		out = append(out, '?')
	}
	return string(out)
}

// MarshalText prints the square as text, so squares are JSON strings.
func (s Square) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a square of any grid up to 255 columns and 26 rows; whether it lies on
// a given map is for Map.Validate to say.
func (s *Square) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*s = Square{}
		return nil
	}
	sq, ok := ScanSquare(string(b))
	if !ok || sq.Col == 0 || sq.Row > MaxRows {
		return &SquareError{Text: string(b), OffMap: ok, Grid: Grid{Cols: 255, Rows: MaxRows}}
	}
	*s = sq
	return nil
}

// SquareError explains why a text is not a square on the map (G1).
type SquareError struct {
	Text   string
	OffMap bool
	Grid   Grid
}

// Code is the rejection code for the error: off_map or parse_error.
func (e *SquareError) Code() Code {
	if e.OffMap {
		return CodeOffMap
	}
	return CodeParseError
}

func (e *SquareError) Error() string {
	if e.OffMap {
		return strconv.Quote(e.Text) + " is off the map: squares run from 1A to " +
			Square{Col: uint8(e.Grid.Cols), Row: uint8(e.Grid.Rows)}.String()
	}
	return strconv.Quote(e.Text) + " is not a square: write a number and a letter, like 3D"
}

// ParseSquare reads a square on the default 38 × 14 grid (G1).
func ParseSquare(text string) (Square, error) { return DefaultGrid.Parse(text) }

// Parse reads a square of this grid: number then letter ("3D") or letter then number ("d3"),
// in either case. A well-formed square outside the grid is an off-map error; anything else is
// a parse error.
func (g Grid) Parse(text string) (Square, error) {
	sq, ok := ScanSquare(text)
	if !ok {
		return Square{}, &SquareError{Text: text, Grid: g}
	}
	if !g.Contains(sq) {
		return Square{}, &SquareError{Text: text, OffMap: true, Grid: g}
	}
	return sq, nil
}

// ScanSquare reads the form of a square without checking it against a grid: one letter and a
// number, in either order. A number no grid has yields Col 0 (off every map), and ok is still
// true, so that the caller can say "off the map" rather than "not a square".
func ScanSquare(text string) (sq Square, ok bool) {
	n := len(text)
	if n < 2 {
		return Square{}, false
	}
	letterAt := -1
	switch {
	case isLetter(text[n-1]):
		letterAt = n - 1
	case isLetter(text[0]):
		letterAt = 0
	default:
		return Square{}, false
	}
	digits := text[:n-1]
	if letterAt == 0 {
		digits = text[1:]
	}
	num := 0
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			return Square{}, false
		}
		if num < 1000 {
			num = num*10 + int(c-'0')
		}
	}
	l := text[letterAt] | 0x20
	if num > 255 {
		num = 0
	}
	return Square{Col: uint8(num), Row: l - 'a' + 1}, true
}

func isLetter(c byte) bool { c |= 0x20; return c >= 'a' && c <= 'z' }

// Contains reports whether s lies on the grid.
func (g Grid) Contains(s Square) bool {
	return s.Col >= 1 && int(s.Col) <= g.Cols && s.Row >= 1 && int(s.Row) <= g.Rows
}

// Size is the number of squares on the grid.
func (g Grid) Size() int { return g.Cols * g.Rows }

// Index numbers the squares of the grid from 0, row by row; s must be on the grid.
func (g Grid) Index(s Square) int { return (int(s.Row)-1)*g.Cols + int(s.Col) - 1 }

// At is the square with the given index (the inverse of Index).
func (g Grid) At(i int) Square { return Square{Col: uint8(i%g.Cols + 1), Row: uint8(i/g.Cols + 1)} }

// Steps is the number of single steps between two squares (G2): the Manhattan distance.
func Steps(a, b Square) int { return abs(int(a.Col)-int(b.Col)) + abs(int(a.Row)-int(b.Row)) }

// Ring is the king's-move distance between two squares (G3, B8): 1 for the 8 neighbours.
func Ring(a, b Square) int {
	return max(abs(int(a.Col)-int(b.Col)), abs(int(a.Row)-int(b.Row)))
}

// Adjacent reports whether two different squares touch at an edge or a corner (G3).
func Adjacent(a, b Square) bool { return Ring(a, b) == 1 }

// Neighbours appends to dst the squares of the grid around s, in reading order (row by row,
// then by number): 8 inside the map, 5 on an edge, 3 in a corner (G3).
func (g Grid) Neighbours(dst []Square, s Square) []Square {
	for dr := -1; dr <= 1; dr++ {
		for dc := -1; dc <= 1; dc++ {
			if dr == 0 && dc == 0 {
				continue
			}
			n := Square{Col: uint8(int(s.Col) + dc), Row: uint8(int(s.Row) + dr)}
			if int(s.Col)+dc >= 1 && int(s.Row)+dr >= 1 && g.Contains(n) {
				dst = append(dst, n)
			}
		}
	}
	return dst
}

// RingSquares appends to dst the squares of the grid at king's-move distance r from s, in
// reading order.
func (g Grid) RingSquares(dst []Square, s Square, r int) []Square {
	for row := int(s.Row) - r; row <= int(s.Row)+r; row++ {
		for col := int(s.Col) - r; col <= int(s.Col)+r; col++ {
			if row < 1 || col < 1 || row > g.Rows || col > g.Cols {
				continue
			}
			n := Square{Col: uint8(col), Row: uint8(row)}
			if Ring(n, s) == r {
				dst = append(dst, n)
			}
		}
	}
	return dst
}

// Less orders squares by number, then letter.
func Less(a, b Square) bool {
	if a.Col != b.Col {
		return a.Col < b.Col
	}
	return a.Row < b.Row
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
