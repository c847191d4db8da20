// Package movement is the movement judge's rule engine: it reads posts in the rulebook's
// format (3.2.2.5, 3.2.3.1, 3.2.4.2, 3.2.5.1), checks each order against the map as posted
// (M1–M5, M13, M14, T1, T2, C2) and resolves every move of a turn at once (M6–M15).
// It imports only domain and the standard library.
package movement

import (
	"fmt"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// ParseError says why a line could not be read as an order, in a player's words.
type ParseError struct {
	// Army is the army name written before the colon, if any.
	Army string
	// Code is parse_error, or off_map never: squares are checked against the map later.
	Code    domain.Code
	Message string
}

func (e *ParseError) Error() string { return e.Message }

// holdWords are the hold lines players write (3.2.1): they order nothing but are accepted.
var holdWords = map[string]string{
	"no move": "no move", "no movement": "no move", "no moves": "no move", "hold": "hold",
	"holds": "hold", "stay": "stay", "stays": "stay", "stand": "stay", "stands": "stay",
	"does not move": "no move", "doesn't move": "no move", "not moving": "no move",
	"fighting": "fighting", "is fighting": "fighting", "in battle": "fighting",
	"fights": "fighting", "cannot move, fighting": "fighting", "none": "no move",
}

// ParseLine reads one line of a post (3.2.2.5). The army name may be left off; squares are
// checked for form only.
func ParseLine(line string) (domain.Order, *ParseError) { return parseLine(line, nil) }

// parseLine is ParseLine taking the orders' legs from the arena legs when it is given, so
// that the lines of a turn share one allocation.
func parseLine(line string, legs *[]domain.Leg) (domain.Order, *ParseError) {
	text := strings.TrimSpace(line)
	var o domain.Order
	if name, rest, ok := strings.Cut(text, ":"); ok {
		o.Army = strings.TrimSpace(name)
		text = strings.TrimSpace(rest)
	}
	fail := func(format string, args ...any) (domain.Order, *ParseError) {
		return domain.Order{}, &ParseError{Army: o.Army, Code: domain.CodeParseError, Message: fmt.Sprintf(format, args...)}
	}
	if text == "" {
		if o.Army != "" {
			return fail("nothing follows %q: write a move like \"%s: 3D > 5E\", \"Intercept X\", \"Transfer to X at 5E\" or \"no move\"", o.Army+":", o.Army)
		}
		return fail("the line is empty")
	}
	word, rest := firstWord(text)
	switch {
	case strings.EqualFold(word, "intercept"):
		target := trimName(rest)
		if strings.Contains(target, ":") {
			return fail("%q is not an army name: names contain no colon", target)
		}
		if target == "" {
			return fail("Intercept needs the name of the enemy army to catch: \"Intercept Darkhand5\"")
		}
		o.Kind = domain.InterceptKind
		o.Target = target
		return o, nil
	case strings.EqualFold(word, "transfer"):
		return parseTransfer(o, rest, fail)
	}
	if note, ok := holdNote(text); ok {
		o.Kind = domain.Hold
		o.Note = note
		return o, nil
	}
	o, err := parseMove(o, text, fail, legs)
	if err == nil && strings.Contains(o.Named, ":") {
		return fail("%q is not an army name: names contain no colon", o.Named)
	}
	return o, err
}

type failFunc func(format string, args ...any) (domain.Order, *ParseError)

// holdNote recognises a hold line (3.2.1) without allocating: the hold phrases are short
// ASCII, lowered into a buffer on the stack.
func holdNote(text string) (string, bool) {
	t := trimEnd(text, ".! ")
	var buf [24]byte
	if len(t) > len(buf) || len(t) == 0 || t[0] >= '0' && t[0] <= '9' {
		return "", false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	note, ok := holdWords[string(buf[:len(t)])]
	return note, ok
}

func firstWord(s string) (word, rest string) {
	s = skipBlanks(s)
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' || s[i] == '\t' {
			return s[:i], skipBlanks(s[i:])
		}
	}
	return s, ""
}

func skipBlanks(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return s[i:]
}

// trimEnd drops trailing bytes that are in cut (ASCII only).
func trimEnd(s, cut string) string {
	for len(s) > 0 && strings.IndexByte(cut, s[len(s)-1]) >= 0 {
		s = s[:len(s)-1]
	}
	return s
}

func trimName(s string) string {
	return strings.TrimSpace(trimEnd(strings.TrimSpace(s), "."))
}

// parseTransfer reads "to X at 5E" (3.2.4.2).
func parseTransfer(o domain.Order, rest string, fail failFunc) (domain.Order, *ParseError) {
	r := strings.TrimSpace(rest)
	if w, after := firstWord(r); strings.EqualFold(w, "to") {
		r = after
	}
	i := lastIndexAt(r)
	if i < 0 {
		return fail("a transfer is written \"Transfer to Birch at 11D\": the receiving army and its square are missing")
	}
	name := strings.TrimSpace(r[:i])
	if strings.Contains(name, ":") {
		return fail("%q is not an army name: names contain no colon", name)
	}
	sqText := strings.TrimSpace(trimEnd(strings.TrimSpace(r[i+4:]), "."))
	if name == "" {
		return fail("a transfer needs the name of the receiving army: \"Transfer to Birch at 11D\"")
	}
	sq, ok := domain.ScanSquare(sqText)
	if !ok {
		return fail("%q is not a square: a transfer ends with the receiver's square, like \"at 11D\"", sqText)
	}
	o.Kind = domain.Transfer
	o.Target = name
	o.At = sq
	return o, nil
}

// lastIndexAt finds the last " at " in s, in any case, or -1.
func lastIndexAt(s string) int {
	for i := len(s) - 4; i >= 0; i-- {
		if s[i] == ' ' && s[i+1]|0x20 == 'a' && s[i+2]|0x20 == 't' && s[i+3] == ' ' {
			return i
		}
	}
	return -1
}

// parseMove reads "3D > 5E (3D - 4D - 4E - 5E) > 8E; engage Name" (3.2.2.5, 3.2.2.3, 3.2.2.4).
func parseMove(o domain.Order, text string, fail failFunc, arena *[]domain.Leg) (domain.Order, *ParseError) {
	s := scanner{text: text}
	var local []domain.Leg
	legs := &local
	if arena != nil {
		legs = arena
	}
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
	for {
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
			route, err := s.route()
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
		rest := strings.TrimSpace(s.rest())
		if rest == "" {
			return fail("a move needs a destination: \"%s > 5E\"", prev)
		}
		return fail("after %s I expected \">\" and a destination square, found %q", prev, rest)
	}
	s.space()
	if c := s.peek(); c == ';' || c == ',' {
		s.pos++
	}
	tail := strings.TrimSpace(s.rest())
	if tail == "" {
		return o, nil
	}
	kw, named, ok := parseKeyword(tail)
	if !ok {
		return fail("after the move I expected \"engage NAME\", \"replace NAME\" or \"Joint Engage\", found %q", tail)
	}
	o.Keyword = kw
	o.Named = named
	return o, nil
}

// parseKeyword reads "engage X", "replace X" or "Joint Engage [X]" (3.2.2.2, 3.2.5.1).
func parseKeyword(tail string) (domain.Keyword, string, bool) {
	w, rest := firstWord(tail)
	is := func(words ...string) bool {
		for _, x := range words {
			if strings.EqualFold(w, x) {
				return true
			}
		}
		return false
	}
	switch {
	case is("engage", "engages", "attack", "attacks"):
		return domain.Engage, trimName(rest), true
	case is("replace", "replaces"):
		return domain.Replace, trimName(rest), true
	case is("joint-engage", "jointengage", "je"):
		return domain.JointEngage, trimName(rest), true
	case is("joint"):
		w2, rest2 := firstWord(rest)
		if strings.EqualFold(w2, "engage") || strings.EqualFold(w2, "engagement") {
			return domain.JointEngage, trimName(rest2), true
		}
	}
	return "", "", false
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
	for s.pos < len(s.text) && (s.text[s.pos] == ' ' || s.text[s.pos] == '\t') {
		s.pos++
	}
}

// arrow consumes ">", "->" or "=>".
func (s *scanner) arrow() bool {
	switch {
	case strings.HasPrefix(s.text[s.pos:], ">"):
		s.pos++
	case strings.HasPrefix(s.text[s.pos:], "->"), strings.HasPrefix(s.text[s.pos:], "=>"):
		s.pos += 2
	default:
		return false
	}
	return true
}

// square reads a run of letters and digits; sq is zero when the run is not a square's form.
func (s *scanner) square() (sq domain.Square, tok string) {
	start := s.pos
	for s.pos < len(s.text) && isAlnum(s.text[s.pos]) {
		s.pos++
	}
	tok = s.text[start:s.pos]
	if v, ok := domain.ScanSquare(tok); ok {
		return v, tok
	}
	if tok == "" {
		return domain.Square{}, ""
	}
	return domain.Square{}, tok
}

// route reads "(3D - 4D - 4E)": squares separated by dashes, commas, arrows or spaces.
func (s *scanner) route() ([]domain.Square, string) {
	end := strings.IndexByte(s.text[s.pos:], ')')
	if end < 0 {
		return nil, "the route's parenthesis is not closed: write it like (5E - 5F - 5G - 4G)"
	}
	inner := s.text[s.pos+1 : s.pos+end]
	s.pos += end + 1
	var route []domain.Square
	for len(inner) > 0 {
		// squares are separated by dashes, commas, arrows or spaces
		i := strings.IndexFunc(inner, isRouteWord)
		if i < 0 {
			break
		}
		inner = inner[i:]
		j := strings.IndexFunc(inner, func(r rune) bool { return !isRouteWord(r) })
		if j < 0 {
			j = len(inner)
		}
		f := inner[:j]
		inner = inner[j:]
		sq, ok := domain.ScanSquare(f)
		if !ok {
			return nil, fmt.Sprintf("%q in the route is not a square: list squares like (5E - 5F - 5G - 4G)", f)
		}
		if route == nil {
			route = make([]domain.Square, 0, 4)
		}
		route = append(route, sq)
	}
	if len(route) == 0 {
		return nil, "the route in parentheses is empty: list the squares, like (5E - 5F - 5G - 4G)"
	}
	return route, ""
}

func isRouteWord(r rune) bool {
	return !(r == '-' || r == ',' || r == '>' || r == ' ' || r == '\t' || r == '–' || r == '—')
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// Format prints an order in the rulebook's canonical form; ParseLine reads it back to the
// same order.
func Format(o domain.Order) string {
	var b strings.Builder
	if o.Army != "" {
		b.WriteString(o.Army)
		b.WriteString(": ")
	}
	switch o.Kind {
	case domain.Hold:
		b.WriteString(o.Note)
	case domain.InterceptKind:
		b.WriteString("Intercept ")
		b.WriteString(o.Target)
	case domain.Transfer:
		b.WriteString("Transfer to ")
		b.WriteString(o.Target)
		b.WriteString(" at ")
		b.WriteString(o.At.String())
	case domain.MoveKind:
		b.WriteString(o.From.String())
		for _, l := range o.Legs {
			b.WriteString(" > ")
			b.WriteString(l.To.String())
			if len(l.Route) > 0 {
				b.WriteString(" (")
				for i, r := range l.Route {
					if i > 0 {
						b.WriteString(" - ")
					}
					b.WriteString(r.String())
				}
				b.WriteString(")")
			}
		}
		switch o.Keyword {
		case domain.Engage:
			b.WriteString("; engage")
		case domain.Replace:
			b.WriteString("; replace")
		case domain.JointEngage:
			b.WriteString("; Joint Engage")
		}
		if o.Keyword != domain.NoKeyword && o.Named != "" {
			b.WriteString(" ")
			b.WriteString(o.Named)
		}
	}
	return b.String()
}
