// Rules 3.2.1, 3.2.2.5, 3.2.3.1 and 3.2.4.2: reading one line of a post — its army, and hold,
// intercept and transfer lines (moves: parse_move.go).

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
