package api

import (
	"errors"
	"testing"

	"github.com/go-json-experiment/json"
)

// FuzzCheckJSON: the strict check (checkJSON, before the OpenAPI check) and the strict
// decoder (bind's) accept the same bodies — but for a well-formed value the decoder cannot
// hold, which bind refuses as well —, and neither panics.
func FuzzCheckJSON(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":1,"a":2}`, "{\"a\":\"\xff\"}", `{} {}`, `{}garbage`, `[1,2]`, `"\ud800"`, ` null `, ``, `{"a":[{"b":1,"b":2}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checked := checkJSON(data) == nil
		var v any
		err := json.Unmarshal(data, &v, strictJSON)
		decoded := err == nil
		var se *json.SemanticError
		if checked && errors.As(err, &se) {
			// well-formed JSON whose value the decoder cannot hold (a number past float64's
			// range, 1e309): the check is of the syntax; bind refuses the value with a 400 too
			return
		}
		if checked != decoded {
			t.Fatalf("%q: the check says %v, the decoder %v", data, checked, decoded)
		}
	})
}
