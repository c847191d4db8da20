// Deck lists in their usual text forms (F8): "4 Lightning Bolt", "4x Lightning Bolt",
// "SB: 1 Kaalia of the Vast", Sideboard sections, MTGA and MTGO exports with set codes and
// collector numbers.

package deck

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Line is one card line of a deck list.
type Line struct {
	// Number is the line's number in the text, from 1.
	Number int `json:"line"`
	Count  int `json:"count"`
	// Name is the card's name as the line writes it, without set code or number.
	Name string `json:"name"`
	// Set and Collector are the printing an export names ("(M10) 146"); the check ignores them.
	Set       string `json:"set,omitempty"`
	Collector string `json:"collector,omitempty"`
	Sideboard bool   `json:"sideboard,omitempty"`
}

// List is a parsed deck list: its card lines in order and the lines it could not read.
type List struct {
	Lines []Line
	// Problems are "syntax" problems: lines that are neither a card, a section nor a comment.
	Problems []Problem
}

// ErrUnreadable is a text with no card line at all (F8): not a deck list.
var ErrUnreadable = errors.New("not a deck list")

// MaxCount is the most copies one line may ask for.
const MaxCount = 9999

var (
	// cardLine is "N Name" or "Nx Name".
	cardLine = regexp.MustCompile(`^(\d+)\s*[xX]?\s+(\S.*)$`)
	// printing is a trailing set code and collector number: "(M10) 146", "[2X2] 235", "(DOM)".
	printing = regexp.MustCompile(`\s+[(\[]([A-Za-z0-9]{2,6})[)\]](?:\s+([0-9A-Za-z★†-]{1,10}))?(?:\s+\*[A-Z]\*)?$`)
	// header is a section line: "Sideboard", "SIDEBOARD:", "Deck", "Main (60)", "About".
	header = regexp.MustCompile(`^(?i)(sideboard|side ?board|sb|deck|main ?deck|main ?board|main|commanders?|companion|about)\s*:?\s*(?:\(\d+\))?$`)
)

// section is where the lines under a header go.
type section int

const (
	mainSection section = iota
	sideSection
	// skipSection is a section the list's cards do not come from: MTGA's About (the deck's
	// name) and Companion (the companion is written again in the sideboard).
	skipSection
)

// sections maps a header's word to its section. A Commander section holds the hero, which
// these formats keep in the sideboard.
var sections = map[string]section{
	"sideboard": sideSection, "side board": sideSection, "sb": sideSection, "commander": sideSection, "commanders": sideSection,
	"deck": mainSection, "main": mainSection, "maindeck": mainSection, "main deck": mainSection, "mainboard": mainSection, "main board": mainSection,
	"companion": skipSection, "about": skipSection,
}

// Parse reads a deck list (F8): "N Name" or "Nx Name" lines; blank lines and lines starting
// with "//" or "#" ignored; a Sideboard line starts the sideboard and Deck or Main goes back;
// "SB: " marks one sideboard line; a trailing set code and collector number may follow the
// name. A line it cannot read is a "syntax" problem with its number; a text with no card
// line at all is ErrUnreadable.
func Parse(text string) (List, error) {
	var l List
	sec := mainSection
	n := 0
	for raw := range strings.SplitSeq(text, "\n") {
		n++
		s := strings.TrimSpace(strings.TrimPrefix(raw, "\uFEFF"))
		switch {
		case s == "" || strings.HasPrefix(s, "//") || strings.HasPrefix(s, "#"):
			continue
		case !utf8.ValidString(s):
			l.Problems = append(l.Problems, Problem{Rule: "syntax", Line: n, Message: fmt.Sprintf("line %d is not UTF-8 text", n)})
			continue
		}
		if m := header.FindStringSubmatch(s); m != nil {
			sec = sections[strings.ToLower(m[1])]
			continue
		}
		if sec == skipSection {
			continue
		}
		line, msg := parseCard(s)
		if msg != "" {
			l.Problems = append(l.Problems, Problem{Rule: "syntax", Line: n, Card: line.Name, Message: fmt.Sprintf("line %d: %s", n, msg)})
			continue
		}
		line.Number = n
		line.Sideboard = line.Sideboard || sec == sideSection
		l.Lines = append(l.Lines, line)
	}
	if len(l.Lines) == 0 {
		if len(l.Problems) > 0 {
			return l, fmt.Errorf("%w: no line reads as a card (%s)", ErrUnreadable, l.Problems[0].Message)
		}
		return l, fmt.Errorf("%w: it has no card line", ErrUnreadable)
	}
	return l, nil
}

// parseCard reads one card line, or says what is wrong with it.
func parseCard(s string) (Line, string) {
	var l Line
	if rest, ok := cutFold(s, "SB:"); ok {
		l.Sideboard = true
		s = strings.TrimSpace(rest)
	}
	m := cardLine.FindStringSubmatch(s)
	if m == nil {
		return Line{Name: s}, fmt.Sprintf("%q is not a card line: write the count first, as in \"4 Lightning Bolt\" or \"SB: 1 Kaalia of the Vast\"", clip(s))
	}
	count, err := strconv.Atoi(m[1])
	name := strings.TrimSpace(m[2])
	if p := printing.FindStringSubmatchIndex(name); p != nil {
		l.Set, l.Collector = name[p[2]:p[3]], ""
		if p[4] >= 0 {
			l.Collector = name[p[4]:p[5]]
		}
		name = strings.TrimSpace(name[:p[0]])
	}
	l.Name = name
	switch {
	case err != nil || count > MaxCount:
		return l, fmt.Sprintf("%s copies of %s: at most %d copies a line", m[1], clip(name), MaxCount)
	case count == 0:
		return l, fmt.Sprintf("0 copies of %s: leave the line out", clip(name))
	case name == "":
		return l, "the line has a count but no card name"
	}
	l.Count = count
	return l, ""
}

// cutFold is strings.CutPrefix ignoring ASCII case.
func cutFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// clip shortens a long line for a message.
func clip(s string) string {
	if len(s) <= 80 {
		return s
	}
	i := 80
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
