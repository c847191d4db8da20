package scenario_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/scenario"
)

// Parse tells a file that is not JSON from JSON that does not fit the scenario format, and
// says where; both are domain.ErrInvalid, and only the second a *scenario.FormatError.
func TestParseWordsItsErrors(t *testing.T) {
	cases := []struct {
		name, file string
		format     bool
		want       string
	}{
		{"cut short", `{"name": "broken", "armies": [`, false, "the scenario is not valid JSON"},
		{"not JSON", `name: broken`, false, "the scenario is not valid JSON"},
		{"empty", ``, false, "the scenario is empty"},
		{"a number for a name", `{"name": 7, "armies": []}`, true, `the scenario does not fit the scenario format: "name" must be a string, not a number`},
		{"a number for an army's name", `{"armies": [{"name": 5, "side": "coalition", "rank": "captain", "at": "3D"}]}`, true,
			`the scenario does not fit the scenario format: "armies.name" must be a string, not a number`},
		{"a list, not an object", `[1, 2, 3]`, true, "the scenario does not fit the scenario format: it must be an object, not an array"},
		{"a post time that is no time", `{"armies": [], "turns": [{"posts": [{"id": 1, "author": "A", "at": "yesterday", "text": "x"}]}]}`, true,
			`the scenario does not fit the scenario format: "yesterday" is not a time`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := scenario.Parse([]byte(c.file))
			var fe *scenario.FormatError
			switch {
			case err == nil:
				t.Fatal("parsed")
			case !errors.Is(err, domain.ErrInvalid):
				t.Errorf("%v is not ErrInvalid", err)
			case errors.As(err, &fe) != c.format:
				t.Errorf("%v: a FormatError %v, want %v", err, !c.format, c.format)
			case !strings.Contains(err.Error(), c.want):
				t.Errorf("%q does not say %q", err, c.want)
			}
		})
	}
}
