package cards

import (
	"fmt"
	"strconv"
	"strings"
)

// StatKind says how a printed power or toughness reads.
type StatKind uint8

// The kinds of printed power or toughness.
const (
	// Fixed is a whole number: "3".
	Fixed StatKind = iota
	// Variable is set by a characteristic-defining ability: "*", "1+*", "*+1", "7-*", "*²".
	// Rule 2.2.2 ignores the condition: the army's creator picks the value within the range.
	Variable
	// Half is an Un-set half point (".5", "3.5"); Min and Max hold it rounded up.
	Half
	// Infinite is "∞": it fits no slot.
	Infinite
	// Unknown is anything the data cannot pin down: "?", an augment's "+1", an empty field.
	Unknown
)

// NoLimit is Stat.Max for a value with no upper bound.
const NoLimit = -1

// maxStat bounds the numbers a printed value may hold, to keep sizes in int range.
const maxStat = 1000

// Stat is a printed power or toughness read as the range of values a creature may have in
// an army.
type Stat struct {
	// Text is the value as printed.
	Text string
	Kind StatKind
	// Min and Max bound the value; Max is NoLimit when unbounded.
	Min, Max int
}

// Allows reports whether the value n is within the stat's range.
func (s Stat) Allows(n int) bool {
	switch s.Kind {
	case Infinite, Unknown:
		return false
	}
	return n >= s.Min && (s.Max == NoLimit || n <= s.Max)
}

// String is the canonical printed form: "3", "*", "1+*", "7-*", "3.5", "∞" or "?".
func (s Stat) String() string {
	switch s.Kind {
	case Fixed:
		return strconv.Itoa(s.Min)
	case Variable:
		switch {
		case s.Max != NoLimit:
			return strconv.Itoa(s.Max) + "-*"
		case s.Min > 0:
			return strconv.Itoa(s.Min) + "+*"
		}
		return "*"
	case Half:
		return strconv.Itoa(s.Min-1) + ".5"
	case Infinite:
		return "∞"
	}
	return "?"
}

// ParseStat reads a printed power or toughness. "?", an empty field and an augment's signed
// modifier ("+1", "-0") read as Unknown; text that is none of the printed forms is an error.
func ParseStat(text string) (Stat, error) {
	s := strings.TrimSpace(text)
	out := Stat{Text: text}
	switch {
	case s == "" || s == "?":
		out.Kind = Unknown
		return out, nil
	case s == "∞":
		out.Kind = Infinite
		return out, nil
	case s == "*" || s == "*²" || s == "*^2":
		out.Kind, out.Max = Variable, NoLimit
		return out, nil
	case s[0] == '+' || s[0] == '-':
		if _, ok := number(s[1:]); ok {
			out.Kind = Unknown
			return out, nil
		}
	case strings.HasSuffix(s, "+*"):
		if n, ok := number(s[:len(s)-2]); ok {
			out.Kind, out.Min, out.Max = Variable, n, NoLimit
			return out, nil
		}
	case strings.HasPrefix(s, "*+"):
		if n, ok := number(s[2:]); ok {
			out.Kind, out.Min, out.Max = Variable, n, NoLimit
			return out, nil
		}
	case strings.HasSuffix(s, "-*"):
		if n, ok := number(s[:len(s)-2]); ok {
			out.Kind, out.Min, out.Max = Variable, 0, n
			return out, nil
		}
	case strings.HasSuffix(s, ".5"):
		whole := s[:len(s)-2]
		if whole == "" {
			whole = "0"
		}
		if n, ok := number(whole); ok && n < maxStat {
			out.Kind, out.Min, out.Max = Half, n+1, n+1
			return out, nil
		}
	default:
		if n, ok := number(s); ok {
			out.Kind, out.Min, out.Max = Fixed, n, n
			return out, nil
		}
	}
	return Stat{}, fmt.Errorf("%q is not a printed power or toughness: expected a number, *, 1+*, 7-*, 3.5, ∞ or ?", text)
}

// number reads a whole number of at most maxStat written in ASCII digits.
func number(s string) (int, bool) {
	if s == "" || len(s) > 4 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, n <= maxStat
}
