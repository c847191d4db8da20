// Reading rules text word by word for typal identity (F7): reminder text, words, card names
// and the creature tokens a text creates.

package deck

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// stripReminder drops reminder text: everything in parentheses (906.4b, F7).
func stripReminder(text string) string {
	if !strings.Contains(text, "(") {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	depth := 0
	for _, r := range text {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// joiner reports whether r joins letters into one word: an apostrophe or a hyphen
// ("C'tan", "Assembly-Worker", "non-Human", "Half-Elf").
func joiner(r rune) bool { return r == '\'' || r == '’' || r == '-' }

// wordAt is the word starting at byte i of s: letters, with inner apostrophes and hyphens.
func wordAt(s string, i int) string {
	j := i
	for j < len(s) {
		r, n := utf8.DecodeRuneInString(s[j:])
		if unicode.IsLetter(r) {
			j += n
			continue
		}
		if joiner(r) && j > i {
			next, _ := utf8.DecodeRuneInString(s[j+n:])
			if unicode.IsLetter(next) {
				j += n
				continue
			}
		}
		break
	}
	return s[i:j]
}

// word is one word of a text and where it stands.
type word struct {
	text       string
	start, end int
}

// capital reports whether the word starts with a capital letter.
func (w word) capital() bool {
	r, _ := utf8.DecodeRuneInString(w.text)
	return unicode.IsUpper(r)
}

// words splits a text into its words.
func words(s string) []word {
	out := make([]word, 0, len(s)/5)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) {
			i += n
			continue
		}
		w := wordAt(s, i)
		out = append(out, word{text: w, start: i, end: i + len(w)})
		i += len(w)
	}
	return out
}

// replaceNames puts "~" for every whole-word occurrence of the names in text, longest first.
func replaceNames(text string, names []string) string {
	for _, n := range names {
		if n == "" || !strings.Contains(text, n) {
			continue
		}
		var b strings.Builder
		rest := text
		for {
			i := strings.Index(rest, n)
			if i < 0 {
				b.WriteString(rest)
				break
			}
			before, _ := utf8.DecodeLastRuneInString(rest[:i])
			after, _ := utf8.DecodeRuneInString(rest[i+len(n):])
			if i > 0 && (unicode.IsLetter(before) || joiner(before)) || unicode.IsLetter(after) {
				b.WriteString(rest[:i+len(n)])
			} else {
				b.WriteString(rest[:i])
				b.WriteString("~")
			}
			rest = rest[i+len(n):]
		}
		text = b.String()
	}
	return text
}

// dropAbilityNames drops the name that opens a line before " — ": an ability word or flavour
// word ("Tail Spikes —", "The Allagan Eye —", "Coven —"), a mode's name ("• Hire a Mercenary
// —") or a keyword whose condition follows ("Companion —"). It has no rules meaning (207.2c),
// so it names no creature type.
func dropAbilityNames(text string) string {
	if !strings.Contains(text, " — ") {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		name, rest, ok := strings.Cut(line, " — ")
		if ok && !strings.ContainsAny(name, ".:{\"") && len(strings.Fields(name)) <= 6 {
			lines[i] = "~ — " + rest
		}
	}
	return strings.Join(lines, "\n")
}

// tokenPattern finds the creature types of creature tokens a text creates or a permanent
// becomes: "a 1/1 colorless Servo artifact creature token", "becomes a 1/1 Blinkmoth artifact
// creature".
var tokenPattern = regexp.MustCompile(`[0-9X*+]+/[0-9X*+]+ (?:(?:white|blue|black|red|green|colorless|legendary|snow|and|or)[ ,]+)*((?:\p{Lu}[\p{L}'’-]* )+)(?:(?:artifact|enchantment|land|legendary|snow) )*creature`)

// tokenTypes are the capitalised words before "creature" in the text's token phrases.
func tokenTypes(text string) []string {
	if !strings.Contains(text, "creature") || !strings.Contains(text, "/") {
		return nil
	}
	var out []string
	for _, m := range tokenPattern.FindAllStringSubmatch(text, -1) {
		out = append(out, strings.Fields(m[1])...)
	}
	return out
}
