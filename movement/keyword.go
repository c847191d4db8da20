// Rules 3.2.2.2 and 3.2.5.1: the keywords at the end of a move (engage, replace, Joint Engage).

package movement

import (
	"unicode/utf8"

	"github.com/coalition-wargame/coalition/domain"
)

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
