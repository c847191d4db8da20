package cards

import (
	"testing"
)

func TestParseStat(t *testing.T) {
	tests := []struct {
		text     string
		kind     StatKind
		min, max int
	}{
		{"3", Fixed, 3, 3},
		{"0", Fixed, 0, 0},
		{" 12 ", Fixed, 12, 12},
		{"*", Variable, 0, NoLimit},
		{"1+*", Variable, 1, NoLimit},
		{"2+*", Variable, 2, NoLimit},
		{"*+1", Variable, 1, NoLimit},
		{"7-*", Variable, 0, 7},
		{"*²", Variable, 0, NoLimit},
		{".5", Half, 1, 1},
		{"3.5", Half, 4, 4},
		{"∞", Infinite, 0, 0},
		{"?", Unknown, 0, 0},
		{"", Unknown, 0, 0},
		{"+1", Unknown, 0, 0},
		{"-0", Unknown, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			s, err := ParseStat(tt.text)
			if err != nil {
				t.Fatalf("ParseStat(%q): %v", tt.text, err)
			}
			if s.Kind != tt.kind || s.Min != tt.min || s.Max != tt.max {
				t.Errorf("ParseStat(%q) = kind %d [%d, %d], want kind %d [%d, %d]", tt.text, s.Kind, s.Min, s.Max, tt.kind, tt.min, tt.max)
			}
		})
	}
}

func TestParseStatRejects(t *testing.T) {
	for _, text := range []string{"x", "1+", "*+", "1.25", "3/3", "99999", "+", "1 + *", "--1"} {
		if s, err := ParseStat(text); err == nil {
			t.Errorf("ParseStat(%q) = %+v, want an error", text, s)
		}
	}
}

// TestStatAllows covers rule 2.2.2: a * is any value, n+* at least n, n-* at most n.
func TestStatAllows(t *testing.T) {
	tests := []struct {
		text string
		n    int
		want bool
	}{
		{"*", 0, true}, {"*", 9, true},
		{"1+*", 0, false}, {"1+*", 1, true}, {"1+*", 6, true},
		{"7-*", 7, true}, {"7-*", 8, false},
		{"4", 4, true}, {"4", 5, false}, {"4", 3, false},
		{"∞", 9, false}, {"?", 1, false},
	}
	for _, tt := range tests {
		s, err := ParseStat(tt.text)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Allows(tt.n); got != tt.want {
			t.Errorf("%q allows %d = %v, want %v", tt.text, tt.n, got, tt.want)
		}
	}
}

func FuzzParseStat(f *testing.F) {
	for _, s := range []string{"3", "*", "1+*", "*+1", "7-*", "*²", ".5", "3.5", "∞", "?", "+1", "-0", "", "1000", "1001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseStat(text)
		if err != nil {
			return
		}
		if s.Min < 0 || (s.Max != NoLimit && s.Max < s.Min) {
			t.Fatalf("ParseStat(%q) = [%d, %d]: not a range", text, s.Min, s.Max)
		}
		// The canonical form reads back the same.
		back, err := ParseStat(s.String())
		if err != nil {
			t.Fatalf("ParseStat(%q).String() = %q does not parse: %v", text, s.String(), err)
		}
		if back.Kind != s.Kind || back.Min != s.Min || back.Max != s.Max {
			t.Fatalf("ParseStat(%q) = %+v but its form %q reads %+v", text, s, s.String(), back)
		}
	})
}
