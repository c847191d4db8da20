// Names: account, army and campaign names are normalized (NFC, PRECIS) and refused when they
// hold invisible or bidirectional control characters, mix look-alike scripts, or would look
// like a name already taken (UTS #39 skeletons) — issue 17.

package campaign

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.mau.fi/util/confusable"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"
	"golang.org/x/text/secure/precis"
	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/unicode/runenames"

	"github.com/coalition-wargame/coalition/domain"
)

// NameKind is what a name names; each kind has its length and characters.
type NameKind int

// The kinds of names a person gives.
const (
	// AccountName is a screen name: it starts an order line's author and is listed among
	// an army's controllers.
	AccountName NameKind = iota
	// ArmyName starts an order line (3.2.2.5).
	ArmyName
	// CampaignName is a campaign's title; it may hold a colon.
	CampaignName
	// LeagueName is a card-format league's title, as a campaign's (issue 19).
	LeagueName
)

func (k NameKind) String() string {
	return [...]string{"account name", "army name", "campaign name", "league name"}[k]
}

// longest is the most characters a name of the kind may have.
func (k NameKind) longest() int {
	if k == CampaignName || k == LeagueName {
		return 100
	}
	return 40
}

// CheckName checks a screen name (an account's or an army's): see NormalName.
func CheckName(name string) error {
	_, err := NormalName(AccountName, name)
	return err
}

// NormalName checks a name and returns its normal form: NFC, trimmed, runs of spaces made
// one, and each space-separated word a PRECIS username (RFC 8265's UsernameCasePreserved,
// applied word by word as its section 3.5 allows for names with spaces: letters and digits of
// any script, ASCII punctuation and symbols, full-width forms made narrow). An invisible or
// bidirectional control character, or a character PRECIS refuses, is refused with the
// character named (domain.ErrInvalid). An account or army name may not hold a colon, line
// break or tab (it starts an order line, 3.2.2.5) and has at most 40 characters; a campaign
// name at most 100. A new name is then checked against the names taken (distinct).
func NormalName(kind NameKind, name string) (string, error) {
	if !utf8.ValidString(name) {
		return "", domain.Errorf(domain.ErrInvalid, "the %s is not valid UTF-8", kind)
	}
	for _, r := range name {
		if why := invisible(r); why != "" {
			return "", domain.Errorf(domain.ErrInvalid, "the %s %q holds %s, %s: names may not contain control characters, invisible ones or bidirectional controls", kind, name, runeName(r), why)
		}
	}
	words := strings.Fields(norm.NFC.String(name))
	if len(words) == 0 {
		return "", domain.Errorf(domain.ErrInvalid, "the %s is empty", kind)
	}
	for i, w := range words {
		p, err := precis.UsernameCasePreserved.String(w)
		if err != nil {
			return "", domain.Errorf(domain.ErrInvalid, "the %s %q holds %s, which names may not hold (letters and digits, and ASCII punctuation and symbols)", kind, name, refused(w))
		}
		words[i] = p
	}
	n := strings.Join(words, " ")
	switch {
	case utf8.RuneCountInString(n) > kind.longest():
		return "", domain.Errorf(domain.ErrInvalid, "the %s %q is too long: at most %d characters", kind, n, kind.longest())
	case kind != CampaignName && kind != LeagueName && strings.Contains(n, ":"):
		return "", domain.Errorf(domain.ErrInvalid, "the %s %q may not contain a colon, tab or line break", kind, n)
	}
	return n, nil
}

// invisible says why a character cannot be seen for what it is, or "" when it can: control
// and format characters (zero-width spaces and joiners, bidirectional controls), the
// default-ignorable ones (variation selectors, Hangul fillers), and every space but U+0020.
func invisible(r rune) string {
	switch {
	case r == ' ':
		return ""
	case r == '\t':
		return "a tab"
	case r == '\n', r == '\r':
		return "a line break"
	case unicode.Is(unicode.Cc, r):
		return "a control character"
	case unicode.Is(unicode.Bidi_Control, r):
		return "a bidirectional control character"
	case unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs, unicode.Zl, unicode.Zp, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector, unicode.Join_Control):
		return "an invisible character"
	case unicode.In(r, unicode.White_Space, unicode.Zs):
		return "a space other than the plain space"
	}
	return ""
}

// refused names the first character of a word that PRECIS refuses.
func refused(word string) string {
	for _, r := range word {
		if _, err := precis.UsernameCasePreserved.String(string(r)); err != nil {
			return runeName(r)
		}
	}
	return "characters in an order PRECIS refuses (RFC 8264: its bidi or context rules)"
}

// runeName names a character for people: U+202E RIGHT-TO-LEFT OVERRIDE.
func runeName(r rune) string {
	n := runenames.Name(r)
	if n == "" || strings.HasPrefix(n, "<") {
		return fmt.Sprintf("U+%04X", r)
	}
	return fmt.Sprintf("U+%04X %s", r, n)
}

// confusableScripts are the scripts whose letters look alike: a word may take letters from
// one of them only (UTS #39's mixed-script detection, for the scripts at hand).
var confusableScripts = []struct {
	name  string
	table *unicode.RangeTable
}{{"Latin", unicode.Latin}, {"Greek", unicode.Greek}, {"Cyrillic", unicode.Cyrillic}}

// oneScript refuses a name with a word that mixes letters of Latin, Greek and Cyrillic
// ("аdmin" with a Cyrillic а), naming a letter of each script.
func oneScript(kind NameKind, name string) error {
	for _, word := range strings.Fields(name) {
		first, firstRune := -1, rune(0)
		for _, r := range word {
			for i, s := range confusableScripts {
				if !unicode.Is(s.table, r) {
					continue
				}
				if first < 0 {
					first, firstRune = i, r
				} else if i != first {
					return domain.Errorf(domain.ErrInvalid, "the %s %q mixes %s and %s letters in %q (%s, %s): a word is written in one script",
						kind, name, confusableScripts[first].name, s.name, word, runeName(firstRune), runeName(r))
				}
			}
		}
	}
	return nil
}

// lookKeys are the forms under which names that look alike are equal: the UTS #39 skeleton
// of the name as written, in lower case and in capitals, spaces made single ("аdmin" and
// "admin" as written, "Kim" and "Kirn" in lower case, "ΚΙΜ" and "Kim" in capitals).
func lookKeys(name string) [3]string {
	skel := func(s string) string { return strings.Join(strings.Fields(confusable.Skeleton(s)), " ") }
	return [3]string{skel(name), skel(cases.Lower(language.Und).String(name)), skel(cases.Upper(language.Und).String(name))}
}

// LookalikeKey is the form under which names that look alike in lower case are equal, for
// counting them as one (the login throttle): "Admin", "аdmin" and "adrnin" share one.
func LookalikeKey(name string) string {
	return lookKeys(name)[1]
}

// LookAlike reports whether two names that are not the same name (domain.NameKey) would
// look alike (see lookalike).
func LookAlike(a, b string) bool {
	_, ok := lookalike(a, []string{b})
	return ok
}

// lookalike finds among names one that looks like name without being the same name
// (domain.NameKey): equal once confusable characters are made one, as written, in lower
// case or in capitals (lookKeys). It returns that name.
func lookalike(name string, names []string) (string, bool) {
	keys, same := lookKeys(name), domain.NameKey(name)
	for _, n := range names {
		if domain.NameKey(n) == same {
			continue
		}
		k := lookKeys(n)
		if k[0] == keys[0] || k[1] == keys[1] || k[2] == keys[2] {
			return n, true
		}
	}
	return "", false
}

// distinct checks a new name against the names taken: one that would look like one of them
// is a conflict naming it (409), and one that mixes look-alike scripts is refused (422) even
// when no name like it exists yet, so that it cannot be taken before the name it mimics.
func distinct(kind NameKind, name string, taken []string) error {
	if t, ok := lookalike(name, taken); ok {
		return domain.Errorf(domain.ErrConflict, "the %s %q would look like the existing %q: choose a name that cannot be taken for it", kind, name, t)
	}
	return oneScript(kind, name)
}

// noLookalikeAccount refuses new account names that would look like an existing account's.
func noLookalikeAccount(r Reader, names ...string) error {
	accs, err := r.Accounts()
	if err != nil {
		return err
	}
	taken := make([]string, len(accs))
	for i, a := range accs {
		taken[i] = a.Name
	}
	for _, n := range names {
		if err := distinct(AccountName, n, taken); err != nil {
			return err
		}
		taken = append(taken, n)
	}
	return nil
}

// noLookalikeCampaign refuses a new campaign name that would look like an existing one's.
func noLookalikeCampaign(r Reader, name string) error {
	cs, err := r.Campaigns()
	if err != nil {
		return err
	}
	taken := make([]string, len(cs))
	for i, c := range cs {
		taken[i] = c.Name
	}
	return distinct(CampaignName, name, taken)
}

// normalArmies puts a new map's army names in their normal form and refuses two that look
// alike (the map is being made: neither exists yet, so it is a 422 naming both).
func normalArmies(m *domain.Map) error {
	var seen []string
	for i := range m.Armies {
		n, err := NormalName(ArmyName, m.Armies[i].Name)
		if err != nil {
			return err
		}
		if t, ok := lookalike(n, seen); ok {
			return domain.Errorf(domain.ErrInvalid, "the armies %q and %q would look alike: rename one", t, n)
		}
		if err := oneScript(ArmyName, n); err != nil {
			return err
		}
		m.Armies[i].Name = n
		seen = append(seen, n)
	}
	return nil
}
