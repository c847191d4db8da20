package api

import (
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

// FuzzMatches: any header parses; a header listing a tag of the server's form among others
// matches it. The seeds "0, \r" and ", \f" are the (17): a tag that is only
// whitespace is no tag the server makes (matches trims the entries of the list, as RFC 9110
// 13.1.2 allows), so the property is about tags of the server's form, not any string.
func FuzzMatches(f *testing.F) {
	f.Add(`"a", W/"b"`, `"b"`)
	f.Add(``, `"x"`)
	f.Add(`0`, "\r")
	f.Add(``, "\f")
	f.Add(`*`, `"map-1-0-5-public-Zo%C3%AB"`)
	f.Fuzz(func(t *testing.T, header, tag string) {
		matches(header, tag)
		if !serverTag(tag) {
			return
		}
		for _, h := range []string{header + ", " + tag, header + ",W/" + tag, tag + " ,\t" + header} {
			if !matches(h, tag) {
				t.Fatalf("%q does not match %q", h, tag)
			}
		}
	})
}

// serverTag reports whether tag has the form of the server's entity tags (etag): an opaque
// tag of RFC 9110 8.8.3 ("…" of etagc) without a comma, which the server never puts in one
// (url.PathEscape escapes it in an author's name).
func serverTag(tag string) bool {
	if len(tag) < 2 || tag[0] != '"' || tag[len(tag)-1] != '"' {
		return false
	}
	for _, c := range []byte(tag[1 : len(tag)-1]) {
		if c < 0x21 || c == '"' || c == ',' || c == 0x7f {
			return false
		}
	}
	return true
}
