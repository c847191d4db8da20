package campaign

import (
	"strings"
	"testing"
)

// TestCheckName checks the names accounts and members may have: not empty, at most 40
// characters, no colon (the post format's separator), no tab, line break or other control
// character.
func TestCheckName(t *testing.T) {
	for _, tt := range []struct{ name, refusal string }{
		{"Gazetzot", ""},
		{"Lim-Dûl", ""},
		{"  ", "empty"},
		{strings.Repeat("x", 41), "too long"},
		{"Sai: Rei", "colon"},
		{"Sai\tRei", "tab"},
		{"\x00nul", "control characters"},
		{"bell\x07", "control characters"},
	} {
		err := CheckName(tt.name)
		switch {
		case tt.refusal == "" && err != nil:
			t.Errorf("%q refused: %v", tt.name, err)
		case tt.refusal != "" && (err == nil || !strings.Contains(err.Error(), tt.refusal)):
			t.Errorf("%q: %v, want a refusal naming %q", tt.name, err, tt.refusal)
		}
	}
}
