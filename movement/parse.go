// Package movement is the movement judge's rule engine: it reads posts in the rulebook's
// format (3.2.2.5, 3.2.3.1, 3.2.4.2, 3.2.5.1), checks each order against the map as posted
// (M1–M5, M13, M14, T1, T2, C2) and resolves every move of a turn at once (M6–M15).
// It imports only domain and the standard library.
package movement

import (
	"fmt"
	"strings"
	"unicode/utf8"

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

// holdWord gives the note of a hold line as players write it, in lower case (3.2.1): they
// order nothing but are accepted. It gives "" for any other line.
func holdWord(s string) string {
	switch s {
	case "no move", "no movement", "no moves", "does not move", "doesn't move", "not moving", "none":
		return "no move"
	case "hold", "holds":
		return "hold"
	case "stay", "stays", "stand", "stands":
		return "stay"
	case "fighting", "is fighting", "in battle", "fights", "cannot move, fighting":
		return "fighting"
	case "disband", "disbands":
		return "disband" // a raider's movement turn spent disbanding (6.3.2)
	}
	return ""
}

// ParseLine reads one line of a post (3.2.2.5). The army name may be left off; squares are
// checked for form only.
func ParseLine(line string) (domain.Order, *ParseError) {
	var o domain.Order
	if err := parseLine(&o, trimSpace(line), nil); err != nil {
		return domain.Order{}, err
	}
	return o, nil
}

// arena holds the legs and route squares of a turn's orders, so that the lines of a turn
// share a few allocations.
type arena struct {
	legs    []domain.Leg
	squares []domain.Square
}

// parseLine is ParseLine reading the trimmed line text into the zero order o, taking the
// order's legs and routes from the arena a when it is given. On an error o holds no order.
func parseLine(o *domain.Order, text string, a *arena) *ParseError {
	if i := strings.IndexByte(text, ':'); i >= 0 {
		o.Army = text[:i]
		if !trimmed(o.Army) {
			o.Army = trimSpace(o.Army)
		}
		// usually one space follows the colon
		if text = text[i+1:]; len(text) > 1 && text[0] == ' ' && visible(text[1]) {
			text = text[1:]
		} else {
			text = trimSpace(text)
		}
	}
	fail := func(format string, args ...any) *ParseError {
		return &ParseError{Army: o.Army, Code: domain.CodeParseError, Message: fmt.Sprintf(format, args...)}
	}
	if text == "" {
		if o.Army != "" {
			return fail("nothing follows %q: write a move like \"%s: 3D > 5E\", \"Intercept X\", \"Transfer to X at 5E\" or \"no move\"", o.Army+":", o.Army)
		}
		return fail("the line is empty")
	}
	if c := text[0]; c >= '0' && c <= '9' {
		// no keyword or hold line starts with a digit: most lines are moves
		return parseMoveLine(o, text, fail, a)
	}
	word, rest := firstWord(text)
	switch {
	case foldIs(word, "intercept"):
		target := trimName(rest)
		if strings.Contains(target, ":") {
			return fail("%q is not an army name: names contain no colon", target)
		}
		if target == "" {
			return fail("Intercept needs the name of the enemy army to catch: \"Intercept Darkhand5\"")
		}
		o.Kind = domain.InterceptKind
		o.Target = target
		return nil
	case foldIs(word, "transfer"):
		return parseTransfer(o, rest, fail)
	}
	if note, ok := holdNote(text); ok {
		o.Kind = domain.Hold
		o.Note = note
		return nil
	}
	return parseMoveLine(o, text, fail, a)
}

// parseMoveLine reads a move and checks the army it names (3.2.2.5).
func parseMoveLine(o *domain.Order, text string, fail failFunc, a *arena) *ParseError {
	err := parseMove(o, text, fail, a)
	if err == nil && strings.Contains(o.Named, ":") {
		return fail("%q is not an army name: names contain no colon", o.Named)
	}
	return err
}

// foldIs is strings.EqualFold(s, word) for a lower-case ASCII word, without Unicode folding
// unless s needs it.
func foldIs(s, word string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return strings.EqualFold(s, word)
		}
		if i >= len(word) {
			continue
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != word[i] {
			return false
		}
	}
	return len(s) == len(word)
}

type failFunc func(format string, args ...any) *ParseError

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
	note := holdWord(string(buf[:len(t)]))
	return note, note != ""
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

// trimSpace is strings.TrimSpace, quick for the usual text that neither starts nor ends with
// a space.
func trimSpace(s string) string {
	for len(s) > 0 && s[0] == ' ' {
		s = s[1:]
	}
	for len(s) > 0 && s[len(s)-1] == ' ' {
		s = s[:len(s)-1]
	}
	if len(s) == 0 || visible(s[0]) && visible(s[len(s)-1]) {
		return s
	}
	return strings.TrimSpace(s)
}

// trimmed reports whether s starts and ends with a visible ASCII byte, so that trimSpace
// leaves it as it is; it is false for the empty text.
func trimmed(s string) bool { return len(s) > 0 && visible(s[0]) && visible(s[len(s)-1]) }

// visible reports whether c is a printable ASCII byte other than the space (or DEL).
func visible(c byte) bool { return c-'!' <= 0x7f-'!' }

func trimName(s string) string {
	return trimSpace(trimEnd(trimSpace(s), "."))
}

// parseTransfer reads "to X at 5E" (3.2.4.2).
func parseTransfer(o *domain.Order, rest string, fail failFunc) *ParseError {
	r := trimSpace(rest)
	if w, after := firstWord(r); foldIs(w, "to") {
		r = after
	}
	i := lastIndexAt(r)
	if i < 0 {
		return fail("a transfer is written \"Transfer to Birch at 11D\": the receiving army and its square are missing")
	}
	name := trimSpace(r[:i])
	if strings.Contains(name, ":") {
		return fail("%q is not an army name: names contain no colon", name)
	}
	sqText := trimSpace(trimEnd(trimSpace(r[i+4:]), "."))
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
	return nil
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
	kw, named, ok := parseKeyword(tail)
	if !ok {
		return fail("after the move I expected \"engage NAME\", \"replace NAME\" or \"Joint Engage\", found %q", tail)
	}
	o.Keyword = kw
	o.Named = named
	return nil
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

// parseKeyword reads "engage X", "replace X" or "Joint Engage [X]" (3.2.2.2, 3.2.5.1).
func parseKeyword(tail string) (domain.Keyword, string, bool) {
	w, rest := firstWord(tail)
	if kw, ok := keywordASCII(w); ok {
		switch kw {
		case domain.JointEngage + " ":
			w2, rest2 := firstWord(rest)
			if foldIs(w2, "engage") || foldIs(w2, "engagement") {
				return domain.JointEngage, trimName(rest2), true
			}
			return "", "", false
		case domain.NoKeyword:
			return "", "", false
		}
		return kw, trimName(rest), true
	}
	is := func(words ...string) bool {
		for _, x := range words {
			if foldIs(w, x) {
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
		if foldIs(w2, "engage") || foldIs(w2, "engagement") {
			return domain.JointEngage, trimName(rest2), true
		}
	}
	return "", "", false
}

// keywordASCII is the keyword a word of ASCII letters names, in any case: JointEngage + " "
// for "joint", which needs "engage" after it, and NoKeyword for any other word. ok is false
// when the word is not ASCII, whose letters may fold to the keywords' (strings.EqualFold).
func keywordASCII(w string) (kw domain.Keyword, ok bool) {
	var buf [12]byte
	if len(w) > len(buf) {
		for i := 0; i < len(w); i++ {
			if w[i] >= utf8.RuneSelf {
				return "", false
			}
		}
		return domain.NoKeyword, true
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			return "", false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	switch string(buf[:len(w)]) {
	case "engage", "engages", "attack", "attacks":
		return domain.Engage, true
	case "replace", "replaces":
		return domain.Replace, true
	case "joint-engage", "jointengage", "je":
		return domain.JointEngage, true
	case "joint":
		return domain.JointEngage + " ", true
	}
	return domain.NoKeyword, true
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
