package movement_test

import (
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/movement"
)

// TestParseKeyword pins the keywords a structured order may name (3.2.2.2, 3.2.5.1): the words
// of a posted line, in any case and spacing, and "joint" alone.
func TestParseKeyword(t *testing.T) {
	for _, c := range []struct {
		in   string
		want domain.Keyword
		ok   bool
	}{
		{"", domain.NoKeyword, true},
		{"   ", domain.NoKeyword, true},
		{"engage", domain.Engage, true},
		{"Engages", domain.Engage, true},
		{"ATTACK", domain.Engage, true},
		{" attacks ", domain.Engage, true},
		{"attac\u212a", domain.Engage, true}, // the Kelvin sign folds to k, as strings.EqualFold has it
		{"replace", domain.Replace, true},
		{"Replaces", domain.Replace, true},
		{"joint", domain.JointEngage, true},
		{"Joint Engage", domain.JointEngage, true},
		{"joint   engagement", domain.JointEngage, true},
		{"joint\tengage", domain.JointEngage, true},
		{"joint-engage", domain.JointEngage, true},
		{"JointEngage", domain.JointEngage, true},
		{"JE", domain.JointEngage, true},
		{"je", domain.JointEngage, true},
		{"engage Darkhand5", "", false},
		{"joint Darkhand5", "", false},
		{"joint engage Darkhand5", "", false},
		{"je engage", "", false},
		{"engagement", "", false},
		{"dance", "", false},
		{"replace;", "", false},
	} {
		got, ok := movement.ParseKeyword(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseKeyword(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestLinesReadKeywordsAsParseKeyword checks that a posted line reads every keyword
// ParseKeyword reads, and reads it the same, with or without an army named after it — but for
// "joint" alone, which a line must follow with "engage" (3.2.5.1).
func TestLinesReadKeywordsAsParseKeyword(t *testing.T) {
	words := []string{"engage", "Engages", "attack", "ATTACKS", "replace", "replaces", "Joint Engage", "joint engagement", "joint-engage", "jointengage", "JE", "joint"}
	for _, w := range words {
		want, ok := movement.ParseKeyword(w)
		if !ok {
			t.Fatalf("ParseKeyword(%q) refuses a keyword", w)
		}
		for _, named := range []string{"", " Darkhand5"} {
			line := "Sai Rei: 3D > 4D; " + w + named
			o, perr := movement.ParseLine(line)
			if strings.EqualFold(w, "joint") {
				if perr == nil && named == "" {
					t.Errorf("ParseLine(%q) reads \"joint\" alone as a keyword; a line needs \"joint engage\"", line)
				}
				continue
			}
			if perr != nil || o.Keyword != want || o.Named != strings.TrimSpace(named) {
				t.Errorf("ParseLine(%q) = keyword %q, named %q, error %v; want %q, %q", line, o.Keyword, o.Named, perr, want, strings.TrimSpace(named))
			}
		}
	}
}

// FuzzParseKeyword checks that ParseKeyword never panics, and that a keyword it reads (other
// than "joint" alone, which a line must follow with "engage") ends a posted move as the same
// keyword, with no army named after it.
func FuzzParseKeyword(f *testing.F) {
	for _, s := range []string{"", "engage", "Joint Engage", "joint", "JE", "joint engagement x", "attac\u212a", "répl"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		defer failOnPanic(t, s)
		kw, ok := movement.ParseKeyword(s)
		if !ok || kw == domain.NoKeyword || strings.ContainsAny(s, ":\n\r;,") {
			return
		}
		if w := strings.Fields(s); len(w) == 1 && strings.EqualFold(w[0], "joint") {
			return
		}
		o, perr := movement.ParseLine("3D > 4D; " + s)
		if perr != nil || o.Keyword != kw || o.Named != "" {
			t.Fatalf("ParseKeyword(%q) = %q, but the line reads keyword %q, named %q, error %v", s, kw, o.Keyword, o.Named, perr)
		}
	})
}
