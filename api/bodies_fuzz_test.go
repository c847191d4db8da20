package api

import (
	"testing"

	"github.com/go-json-experiment/json"
)

// FuzzCheckJSON: the strict check (checkJSON, before the OpenAPI check) and the strict
// decoder (bind's) accept the same bodies, and neither panics.
func FuzzCheckJSON(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":1,"a":2}`, "{\"a\":\"\xff\"}", `{} {}`, `{}garbage`, `[1,2]`, `"\ud800"`, ` null `, ``, `{"a":[{"b":1,"b":2}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checked := checkJSON(data) == nil
		var v any
		decoded := json.Unmarshal(data, &v, strictJSON) == nil
		if checked != decoded {
			t.Fatalf("%q: the check says %v, the decoder %v", data, checked, decoded)
		}
	})
}
