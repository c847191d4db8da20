package api

import (
	"strings"
	"testing"
)

func TestMatches(t *testing.T) {
	tag := `"map-1-0-5-public"`
	for _, c := range []struct {
		header string
		want   bool
	}{
		{tag, true}, {`W/` + tag, true}, {`"other", ` + tag, true}, {`*`, true},
		{``, false}, {`"map-1-0-4-public"`, false}, {`map-1-0-5-public`, false},
	} {
		if got := matches(c.header, tag); got != c.want {
			t.Errorf("If-None-Match %q: %v, want %v", c.header, got, c.want)
		}
	}
}

// FuzzMatches: any header parses; a header listing the tag among others matches it.
func FuzzMatches(f *testing.F) {
	f.Add(`"a", W/"b"`, `"b"`)
	f.Add(``, `"x"`)
	f.Fuzz(func(t *testing.T, header, tag string) {
		matches(header, tag)
		if tag == "" || strings.ContainsAny(tag, ", ") {
			return
		}
		if !matches(header+", "+tag, tag) {
			t.Fatalf("%q does not match %q", header+", "+tag, tag)
		}
	})
}
