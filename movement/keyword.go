// Rules 3.2.2.2 and 3.2.5.1: the keywords at the end of a move (engage, replace, Joint Engage),
// read by one table for posted lines and structured orders alike.

package movement

import (
	"strings"
	"unicode/utf8"

	"github.com/coalition-wargame/coalition/domain"
)

// keywords are the words that name a move's keyword, in lower case. "joint" stands for Joint
// Engage alone only in ParseKeyword; in a line a name may follow the keyword, so there it
// needs "engage" or "engagement" after it (jointNouns).
var keywords = [...]struct {
	word string
	kw   domain.Keyword
}{
	{"engage", domain.Engage}, {"engages", domain.Engage}, {"attack", domain.Engage}, {"attacks", domain.Engage},
	{"replace", domain.Replace}, {"replaces", domain.Replace},
	{"joint-engage", domain.JointEngage}, {"jointengage", domain.JointEngage}, {"je", domain.JointEngage},
	{"joint", domain.JointEngage},
}

// jointNouns are the words that may follow "joint" to name Joint Engage.
var jointNouns = [...]string{"engage", "engagement"}

// ParseKeyword reads a move's keyword written on its own, in any case and spacing — the
// "keyword" of a structured order (3.2.2.2, 3.2.5.1): "engage" (or "engages", "attack",
// "attacks"), "replace" ("replaces"), "joint engage" ("joint", "joint engagement",
// "joint-engage", "jointengage", "je"). An empty text is NoKeyword. ok is false for anything
// else. A posted line reads its keyword by the same table (ParseLine), except that there
// "joint" needs "engage" after it, since the army's name may follow the keyword.
func ParseKeyword(word string) (kw domain.Keyword, ok bool) {
	s := trimSpace(word)
	if s == "" {
		return domain.NoKeyword, true
	}
	w, rest := firstWord(s)
	kw, joint, ok := wordKeyword(w)
	switch {
	case !ok:
		return "", false
	case rest == "":
		return kw, true
	case joint:
		if w2, rest2 := firstWord(rest); rest2 == "" && jointNoun(w2) {
			return domain.JointEngage, true
		}
	}
	return "", false
}

// parseKeyword reads the keyword at the end of a line and the army named after it ("engage X",
// "replace X", "Joint Engage [X]") (3.2.2.2, 3.2.5.1).
func parseKeyword(tail string) (domain.Keyword, string, bool) {
	w, rest := firstWord(tail)
	kw, joint, ok := wordKeyword(w)
	switch {
	case !ok:
		return "", "", false
	case joint:
		w2, rest2 := firstWord(rest)
		if !jointNoun(w2) {
			return "", "", false
		}
		return domain.JointEngage, trimName(rest2), true
	}
	return kw, trimName(rest), true
}

// wordKeyword is the keyword one word names by the keywords table (strings.EqualFold), and
// whether the word is "joint", which a line follows with "engage".
func wordKeyword(w string) (kw domain.Keyword, joint, ok bool) {
	// an ASCII word is lowered once, on the stack; others are folded as strings.EqualFold does
	var buf [12]byte
	ascii := len(w) <= len(buf)
	for i := 0; ascii && i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	for _, k := range keywords {
		if ascii && string(buf[:len(w)]) == k.word || !ascii && strings.EqualFold(w, k.word) {
			return k.kw, k.word == "joint", true
		}
	}
	return "", false, false
}

// jointNoun reports whether w is a word that follows "joint" in Joint Engage.
func jointNoun(w string) bool {
	for _, n := range jointNouns {
		if foldIs(w, n) {
			return true
		}
	}
	return false
}
