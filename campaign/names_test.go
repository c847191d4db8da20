package campaign

import (
	"strings"
	"testing"
)

// TestNormalName: names are kept or put in normal form (NFC, single spaces, narrow forms);
// an invisible or bidirectional control character, or one PRECIS refuses, is refused with
// the character named.
func TestNormalName(t *testing.T) {
	for _, c := range []struct {
		kind     NameKind
		in, want string
		refusal  string
	}{
		{AccountName, "Urza's Guard", "Urza's Guard", ""},
		{AccountName, "  Sai   Rei ", "Sai Rei", ""},
		{AccountName, "Zoe\u0308", "Zoë", ""},
		{AccountName, "\uff2b\uff41\uff52\uff4e", "Karn", ""},
		{ArmyName, "Æther / 100%", "Æther / 100%", ""},
		{ArmyName, "Darkhand5", "Darkhand5", ""},
		{CampaignName, "Demo: the Phyrexian invasion of Dominaria", "Demo: the Phyrexian invasion of Dominaria", ""},
		{AccountName, "Sai: Rei", "", "colon"},
		{AccountName, "admin\u200b", "", "U+200B ZERO WIDTH SPACE, an invisible character"},
		{AccountName, "\u202eadmin", "", "U+202E RIGHT-TO-LEFT OVERRIDE, a bidirectional control character"},
		{AccountName, "ad\u2066min", "", "U+2066 LEFT-TO-RIGHT ISOLATE"},
		{AccountName, "ad\u00admin", "", "U+00AD SOFT HYPHEN"},
		{AccountName, "\u3164", "", "U+3164 HANGUL FILLER"},
		{AccountName, "Kar\ufe0fn", "", "U+FE0F VARIATION SELECTOR-16"},
		{AccountName, "Sai\u2003Rei", "", "U+2003 EM SPACE, a space other than the plain space"},
		{AccountName, "Sai\u2014Rei", "", "U+2014 EM DASH"},
		{AccountName, "Sai\u2800Rei", "", "U+2800 BRAILLE PATTERN BLANK"},
		{AccountName, "\xffname", "", "UTF-8"},
		{CampaignName, strings.Repeat("x", 101), "", "at most 100"},
	} {
		got, err := NormalName(c.kind, c.in)
		switch {
		case c.refusal == "" && (err != nil || got != c.want):
			t.Errorf("%q: %q %v, want %q", c.in, got, err, c.want)
		case c.refusal != "" && (err == nil || !strings.Contains(err.Error(), c.refusal)):
			t.Errorf("%q: %q %v, want a refusal naming %q", c.in, got, err, c.refusal)
		}
	}
}

// TestLookAlike: names equal once confusable letters are made one, in lower case or in
// capitals, look alike; the same name in other case is no look-alike (it is the same name).
func TestLookAlike(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"admin", "\u0430dmin", true}, {"admin", "adrnin", true}, {"Kim", "Kirn", true}, {"Kim", "\u039a\u0399\u039c", true},
		{"Urza's Guard", "Urza\u2019s Guard", true}, {"Oscar", "0scar", true}, {"Sai Rei", "Sai  Re\u0131", true},
		{"admin", "Admin", false}, {"Karn", "Kari", false}, {"Sai Rei", "Sai Ren", false}, {"IL", "LL", false},
	} {
		if got := LookAlike(c.a, c.b); got != c.want {
			t.Errorf("LookAlike(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// A name mixing Latin, Greek and Cyrillic letters in a word is refused, naming a letter of
// each; scripts apart in separate words, or other scripts, are not.
func TestOneScript(t *testing.T) {
	for name, refusal := range map[string]string{
		"\u0430dmin":                    "U+0430 CYRILLIC SMALL LETTER A, U+0064 LATIN SMALL LETTER D",
		"K\u03b1rn":                     "mixes Latin and Greek",
		"Karn \u041a\u0430\u0440\u043d": "",
		"Ζεύς":                          "",
		"東京 Tokyo":                      "",
	} {
		err := oneScript(AccountName, name)
		if refusal == "" && err != nil || refusal != "" && (err == nil || !strings.Contains(err.Error(), refusal)) {
			t.Errorf("%q: %v, want %q", name, err, refusal)
		}
	}
}

// FuzzNormalName: any text is accepted or refused without a panic; an accepted name is in
// normal form (checking it again changes nothing), holds no invisible character, and is
// the same name as itself, never a look-alike of it.
func FuzzNormalName(f *testing.F) {
	for _, s := range []string{"Urza's Guard", "admin\u200b", "\u0430dmin", "Zoe\u0308  Bronte\u0308", "\uff28anna", "Demo: x", "\u202e", ""} {
		f.Add(uint8(0), s)
		f.Add(uint8(2), s)
	}
	f.Fuzz(func(t *testing.T, kind uint8, name string) {
		k := NameKind(kind % 3)
		n, err := NormalName(k, name)
		if err != nil {
			return
		}
		if again, err := NormalName(k, n); err != nil || again != n {
			t.Fatalf("%q → %q → %q, %v", name, n, again, err)
		}
		for _, r := range n {
			if invisible(r) != "" {
				t.Fatalf("%q → %q holds %s", name, n, runeName(r))
			}
		}
		if LookAlike(n, n) {
			t.Fatalf("%q looks like itself", n)
		}
	})
}
