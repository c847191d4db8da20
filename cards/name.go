package cards

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// ligatures are letters that do not decompose into a base letter and an accent.
var ligatures = map[rune]string{
	'æ': "ae", 'Æ': "ae", 'œ': "oe", 'Œ': "oe", 'ß': "ss", 'ø': "o", 'Ø': "o",
	'đ': "d", 'Đ': "d", 'ð': "d", 'Ð': "d", 'þ': "th", 'Þ': "th", 'ł': "l", 'Ł': "l", 'ı': "i",
}

// Key is the form of a card name used to compare it: accents dropped, ligatures spelt out,
// lower case, only letters and digits ("Lim-Dûl" and "lim dul" are both "limdul", "Æther"
// and "Aether" both "aether").
func Key(name string) string {
	k := fold(name, false)
	if k == "" {
		// A name of punctuation only ("_____", an Unhinged card) is its own key.
		return strings.TrimSpace(name)
	}
	return k
}

// Words is the name folded as Key but with its words kept apart by single spaces
// ("lim dul the necromancer").
func Words(name string) string {
	return fold(name, true)
}

// ascii reports whether s is plain ASCII.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func fold(name string, spaces bool) string {
	s := name
	if !ascii(name) {
		s = norm.NFD.String(name)
	}
	var b strings.Builder
	b.Grow(len(s))
	gap := false
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
		case r >= 'A' && r <= 'Z':
			r += 'a' - 'A'
		case r == '\'' || r == '’' || r == '‘' || r == '.':
			// An apostrophe or a dot joins: "Summoner's" is "summoners", "B.F.M." is "bfm".
			continue
		case r < utf8.RuneSelf:
			gap = true
			continue
		case unicode.Is(unicode.Mn, r):
			continue
		default:
			if l, ok := ligatures[r]; ok {
				if gap && spaces && b.Len() > 0 {
					b.WriteByte(' ')
				}
				gap = false
				b.WriteString(l)
				continue
			}
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				gap = true
				continue
			}
			r = unicode.ToLower(r)
		}
		if gap && spaces && b.Len() > 0 {
			b.WriteByte(' ')
		}
		gap = false
		b.WriteRune(r)
	}
	return b.String()
}

// distance is the optimal-string-alignment edit distance between a and b (insertions,
// deletions, substitutions and swaps of neighbours each cost 1), or limit+1 when it exceeds
// limit.
func distance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	if len(a) > 64 || len(b) > 64 {
		// Names are shorter; anything longer is not a useful suggestion.
		return limit + 1
	}
	var rows [3][65]int
	prev2, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= len(b); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			best = min(best, v)
		}
		if best > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	if prev[len(b)] > limit {
		return limit + 1
	}
	return prev[len(b)]
}
