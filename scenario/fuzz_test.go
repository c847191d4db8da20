package scenario_test

import (
	"errors"
	"os"
	"runtime/debug"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/scenario"
)

// FuzzParse checks that Parse never panics on arbitrary bytes, that it refuses what it
// cannot read with an ErrInvalid error that says why, and that a scenario it accepts runs
// through the lock pipeline without panicking (an error is fine: a battle with no result, say).
func FuzzParse(f *testing.F) {
	for _, path := range scenarioFiles(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{``, `{}`, `null`, `[]`, `{"armies": [{}]}`, `{"grid": {"Cols": 0, "Rows": 0}}`,
		`{"grid": {"Cols": 255, "Rows": 26}, "armies": [{"name": "A", "side": "coalition", "rank": "general", "at": "255Z"}]}`,
		`{"grid": {"Cols": 300, "Rows": 40}}`, `{"grid": {"Cols": -1, "Rows": 5}}`,
		`{"armies": [{"name": "A", "side": "coalition", "rank": "general", "at": "3D", "troops": [{"creature": "X", "size": "9/9", "slot": 9, "alive": -1}]}]}`,
		`{"turns": [{"posts": [{"id": 1, "author": "A", "at": "2026-03-01T12:00:00Z", "text": "A: 3D > 5E"}], "results": [{"square": "3D", "winner": "Nobody"}]}]}`,
		`{"seed": 1e99}`, `{"armies": 5}`, "{\"name\": \"\xff\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("panic on %q: %v\n%s", data, r, debug.Stack())
			}
		}()
		sc, err := scenario.Parse(data)
		if err != nil {
			if !errors.Is(err, domain.ErrInvalid) || err.Error() == "" {
				t.Fatalf("Parse fails with %v, not an ErrInvalid that says why", err)
			}
			return
		}
		if _, err := sc.Run(); err != nil && err.Error() == "" {
			t.Fatal("Run fails with no message")
		}
	})
}
