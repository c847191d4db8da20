package api

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzParseKey: a key taken is 1 to 255 printable ASCII characters, no quote or backslash,
// and reads the same bare, quoted or spaced around; anything else is refused.
func FuzzParseKey(f *testing.F) {
	for _, s := range []string{"9b1c2f7e-0d7a-4c53-9a52-2f6f4d1b8e11", `"abc"`, " k ", "", `"`, `""`, "a b", "caf\u00e9", strings.Repeat("k", 256), `"x\"y"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		k, err := parseKey(raw)
		if err != nil {
			return
		}
		if len(k) < 1 || len(k) > maxKey {
			t.Fatalf("%q → %q: length %d", raw, k, len(k))
		}
		for i := 0; i < len(k); i++ {
			if c := k[i]; c <= ' ' || c > '~' || c == '"' || c == '\\' {
				t.Fatalf("%q → %q holds %q", raw, k, c)
			}
		}
		for _, again := range []string{k, `"` + k + `"`, " " + k + "\t"} {
			if k2, err := parseKey(again); err != nil || k2 != k {
				t.Fatalf("%q → %q, but %q → %q, %v", raw, k, again, k2, err)
			}
		}
	})
}

// FuzzFingerprint: a body and the same JSON spaced otherwise are one request; another method,
// path or query is another.
func FuzzFingerprint(f *testing.F) {
	f.Add([]byte(`{"text":"Sai Rei: 3F > 4F"}`))
	f.Add([]byte(`not json`))
	f.Add([]byte(``))
	f.Fuzz(func(t *testing.T, body []byte) {
		fp := Fingerprint("POST", "/api/campaigns/1/posts", "", body)
		if json.Valid(body) {
			var spaced bytes.Buffer
			if json.Indent(&spaced, body, " ", "  ") == nil && Fingerprint("POST", "/api/campaigns/1/posts", "", spaced.Bytes()) != fp {
				t.Fatalf("%q spaced otherwise is another request", body)
			}
		}
		for _, other := range []string{Fingerprint("PUT", "/api/campaigns/1/posts", "", body), Fingerprint("POST", "/api/campaigns/2/posts", "", body),
			Fingerprint("POST", "/api/campaigns/1/posts", "a=1", body)} {
			if other == fp {
				t.Fatalf("%q: another request has the same fingerprint", body)
			}
		}
	})
}
