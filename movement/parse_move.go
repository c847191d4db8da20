// Rules 3.2.2.3–3.2.2.5 and M4: reading a move — its squares, its legs and their written routes.

package movement

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/coalition-wargame/coalition/domain"
)

// parseMove reads "3D > 5E (3D - 4D - 4E - 5E) > 8E; engage Name" (3.2.2.5, 3.2.2.3, 3.2.2.4).
func parseMove(o *domain.Order, text string, fail failFunc, a *arena) *ParseError {
	s := scanner{text: text}
	var local arena
	if a == nil {
		a = &local
	}
	legs := &a.legs
	first := len(*legs)
	from, tok := s.square()
	if tok == "" {
		return fail("I could not read this as an order: write a move like \"3D > 5E\", \"Intercept X\", \"Transfer to X at 5E\" or \"no move\"")
	}
	if from.IsZero() {
		return fail("%q is not a square: a move starts with the army's square, like \"3D > 5E\"", tok)
	}
	o.Kind = domain.MoveKind
	o.From = from
	prev := tok
	end, quick := quickLegs(text, s.pos, a)
	if quick {
		s.pos = end
	}
	for !quick {
		s.space()
		if !s.arrow() {
			break
		}
		s.space()
		to, tok := s.square()
		if to.IsZero() {
			if tok == "" {
				return fail("after \"%s >\" I expected a square, like 5E", prev)
			}
			return fail("%q is not a square: write a number and a letter, like 5E", tok)
		}
		leg := domain.Leg{To: to}
		s.space()
		if s.peek() == '(' {
			route, err := s.route(&a.squares)
			if err != "" {
				return fail("%s", err)
			}
			leg.Route = route
		}
		*legs = append(*legs, leg)
		prev = tok
	}
	if n := len(*legs); n > first {
		o.Legs = (*legs)[first:n:n]
	}
	if len(o.Legs) == 0 {
		rest := trimSpace(s.rest())
		if rest == "" {
			return fail("a move needs a destination: \"%s > 5E\"", prev)
		}
		return fail("after %s I expected \">\" and a destination square, found %q", prev, rest)
	}
	s.space()
	if c := s.peek(); c == ';' || c == ',' {
		s.pos++
	}
	tail := s.rest()
	if tail != "" {
		tail = trimSpace(tail)
	}
	if tail == "" {
		return nil
	}
	tail, perr := trailingRoute(o, tail, fail, a)
	if perr != nil || tail == "" {
		return perr
	}
	kw, named, ok := parseKeyword(tail)
	if !ok {
		return fail("after the move I expected \"engage NAME\", \"replace NAME\" or \"Joint Engage\", found %q", tail)
	}
	o.Keyword = kw
	o.Named = named
	return nil
}

// trailingRoute takes a route written at the end of the line, after the keyword ("5E > 6F;
// engage Grim (5E - 5F - 6F)"), as the last leg's (3.2.2.4, R104): a route is the player's
// wherever it stands. It returns the text before it. A leg with a route of its own already, or
// parentheses that open with a square but hold no route, are refused; other parentheses are
// left to the keyword's name.
func trailingRoute(o *domain.Order, tail string, fail failFunc, a *arena) (string, *ParseError) {
	open := strings.LastIndexByte(tail, '(')
	if open < 0 || tail[len(tail)-1] != ')' {
		return tail, nil
	}
	inner := trimSpace(tail[open+1 : len(tail)-1])
	if j := indexRouteWord(inner, false); j >= 0 {
		inner = inner[:j]
	}
	if _, ok := domain.ScanSquare(inner); !ok {
		return tail, nil
	}
	sc := scanner{text: tail, pos: open}
	route, err := sc.route(&a.squares)
	if err != "" {
		return "", fail("%s", err)
	}
	last := &o.Legs[len(o.Legs)-1]
	if last.Route != nil {
		return "", fail("the route is written twice, after %s and at the end of the line: write it once, after the destination", last.To)
	}
	last.Route = route
	return trimSpace(tail[:open]), nil
}

// quickLegs reads the legs of a move from t[i:] when they are written the usual way: ASCII,
// squares of one or two digits and a letter, routes of such squares. It appends them to the
// arena and gives where the legs end, as parseMove's loop would; ok is false, with the arena
// as it was, when the legs need that loop (other forms, errors, or no leg at all).
func quickLegs(t string, i int, a *arena) (end int, ok bool) {
	legs, squares := len(a.legs), len(a.squares)
	for {
		j := skipSpace(t, i)
		if j >= len(t) || t[j] != '>' {
			if j < len(t) && (t[j] == '-' || t[j] == '=') || len(a.legs) == legs {
				break
			}
			return j, true
		}
		to, k, ok := quickSquare(t, skipSpace(t, j+1))
		if !ok {
			break
		}
		leg := domain.Leg{To: to}
		j = skipSpace(t, k)
		if j < len(t) && t[j] == '(' {
			if leg.Route, j, ok = quickRoute(t, j+1, a); !ok {
				break
			}
		}
		a.legs = append(a.legs, leg)
		i = j
	}
	a.legs, a.squares = a.legs[:legs], a.squares[:squares]
	return 0, false
}

// quickRoute reads the squares of a route from t[i:], just after its parenthesis, to the
// closing one, when they are quickSquare's, and appends them to the arena; ok is false for
// anything else, with some squares perhaps appended.
func quickRoute(t string, i int, a *arena) (route []domain.Square, end int, ok bool) {
	first := len(a.squares)
	for {
		for i < len(t) && t[i] < utf8.RuneSelf && routeSep[t[i]] {
			i++
		}
		if i >= len(t) {
			return nil, 0, false
		}
		if t[i] == ')' {
			break
		}
		sq, k, ok := quickSquare(t, i)
		if !ok || k < len(t) && t[k] != ')' && !(t[k] < utf8.RuneSelf && routeSep[t[k]]) {
			return nil, 0, false
		}
		a.squares = append(a.squares, sq)
		i = k
	}
	n := len(a.squares)
	if n == first {
		return nil, 0, false
	}
	return a.squares[first:n:n], i + 1, true
}

// quickSquare reads a square of one or two digits and a letter at t[i:], which no other letter
// or digit follows; ok is false for anything else.
func quickSquare(t string, i int) (sq domain.Square, end int, ok bool) {
	if i+1 >= len(t) {
		return sq, 0, false
	}
	c := t[i] - '0'
	if c > 9 {
		return sq, 0, false
	}
	i++
	if d := t[i] - '0'; d <= 9 {
		c = c*10 + d
		i++
		if i >= len(t) {
			return sq, 0, false
		}
	}
	l := t[i] | 0x20
	if l-'a' >= 26 || i+1 < len(t) && alnum[t[i+1]] {
		return sq, 0, false
	}
	return domain.Square{Col: c, Row: l - 'a' + 1}, i + 1, true
}

// skipSpace gives the index of the first byte of t from i on that is not a space or a tab.
func skipSpace(t string, i int) int {
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	return i
}

type scanner struct {
	text string
	pos  int
}

func (s *scanner) peek() byte {
	if s.pos < len(s.text) {
		return s.text[s.pos]
	}
	return 0
}

func (s *scanner) rest() string { return s.text[s.pos:] }

func (s *scanner) space() {
	t, i := s.text, s.pos
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	s.pos = i
}

// arrow consumes ">", "->" or "=>".
func (s *scanner) arrow() bool {
	t, i := s.text, s.pos
	switch {
	case i >= len(t):
		return false
	case t[i] == '>':
		s.pos++
	case (t[i] == '-' || t[i] == '=') && i+1 < len(t) && t[i+1] == '>':
		s.pos += 2
	default:
		return false
	}
	return true
}

// square reads a run of letters and digits; sq is zero when the run is not a square's form.
func (s *scanner) square() (sq domain.Square, tok string) {
	t, start := s.text, s.pos
	if sq, end, ok := quickSquare(t, start); ok {
		s.pos = end
		return sq, t[start:end]
	}
	i := start
	for i < len(t) && alnum[t[i]] {
		i++
	}
	s.pos = i
	tok = t[start:i]
	if v, ok := scanSquare(tok); ok {
		return v, tok
	}
	return domain.Square{}, tok
}

// scanSquare is domain.ScanSquare, quick for the usual number of one or two digits and a
// letter.
func scanSquare(tok string) (domain.Square, bool) {
	switch len(tok) {
	case 2:
		if c, l := tok[0]-'0', tok[1]|0x20; c <= 9 && l-'a' < 26 {
			return domain.Square{Col: c, Row: l - 'a' + 1}, true
		}
	case 3:
		if c, d, l := tok[0]-'0', tok[1]-'0', tok[2]|0x20; c <= 9 && d <= 9 && l-'a' < 26 {
			return domain.Square{Col: c*10 + d, Row: l - 'a' + 1}, true
		}
	}
	return domain.ScanSquare(tok)
}

// alnum marks the ASCII letters and digits.
var alnum = [256]bool{
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true,
	'A': true, 'B': true, 'C': true, 'D': true, 'E': true, 'F': true, 'G': true, 'H': true, 'I': true,
	'J': true, 'K': true, 'L': true, 'M': true, 'N': true, 'O': true, 'P': true, 'Q': true, 'R': true,
	'S': true, 'T': true, 'U': true, 'V': true, 'W': true, 'X': true, 'Y': true, 'Z': true,
	'a': true, 'b': true, 'c': true, 'd': true, 'e': true, 'f': true, 'g': true, 'h': true, 'i': true,
	'j': true, 'k': true, 'l': true, 'm': true, 'n': true, 'o': true, 'p': true, 'q': true, 'r': true,
	's': true, 't': true, 'u': true, 'v': true, 'w': true, 'x': true, 'y': true, 'z': true,
}

// route reads "(3D - 4D - 4E)": squares separated by dashes, commas, arrows or spaces. The
// squares are appended to squares, and the route is that part of it.
func (s *scanner) route(squares *[]domain.Square) ([]domain.Square, string) {
	end := strings.IndexByte(s.text[s.pos:], ')')
	if end < 0 {
		return nil, "the route's parenthesis is not closed: write it like (5E - 5F - 5G - 4G)"
	}
	inner := s.text[s.pos+1 : s.pos+end]
	s.pos += end + 1
	first := len(*squares)
	for len(inner) > 0 {
		// squares are separated by dashes, commas, arrows or spaces
		i := indexRouteWord(inner, true)
		if i < 0 {
			break
		}
		inner = inner[i:]
		j := indexRouteWord(inner, false)
		if j < 0 {
			j = len(inner)
		}
		f := inner[:j]
		inner = inner[j:]
		sq, ok := domain.ScanSquare(f)
		if !ok {
			*squares = (*squares)[:first]
			return nil, fmt.Sprintf("%q in the route is not a square: list squares like (5E - 5F - 5G - 4G)", f)
		}
		*squares = append(*squares, sq)
	}
	n := len(*squares)
	if n == first {
		return nil, "the route in parentheses is empty: list the squares, like (5E - 5F - 5G - 4G)"
	}
	return (*squares)[first:n:n], ""
}

// indexRouteWord is strings.IndexFunc(s, isRouteWord) when word is set, and the index of the
// first separator otherwise, decoding only non-ASCII runes.
func indexRouteWord(s string, word bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if routeSep[c] != word {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if isRouteWord(r) == word {
			return i
		}
		i += size
	}
	return -1
}

// routeSep marks the ASCII separators of a route's squares (isRouteWord).
var routeSep = [utf8.RuneSelf]bool{'-': true, ',': true, '>': true, ' ': true, '\t': true}

func isRouteWord(r rune) bool {
	return !(r == '-' || r == ',' || r == '>' || r == ' ' || r == '\t' || r == '–' || r == '—')
}
