package campaign

import (
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

// A structured order reads its keyword by the text parser's one table (movement.ParseKeyword,
// 3.2.2.2, 3.2.5.1): every spelling a post may use is accepted, and a word that is no keyword
// is refused, naming it.
func TestStructuredOrderKeywords(t *testing.T) {
	grid := domain.Grid{Cols: 38, Rows: 14}
	sq := func(s string) domain.Square { q, _ := domain.ParseSquare(s); return q }
	for _, c := range []struct {
		keyword, target, want string
	}{
		{"", "", "Sai Rei: 3F > 4F"},
		{"engage", "Darkhand", "Sai Rei: 3F > 4F; engage Darkhand"},
		{"Attack", "Darkhand", "Sai Rei: 3F > 4F; engage Darkhand"},
		{"replace", "Kris", "Sai Rei: 3F > 4F; replace Kris"},
		{"je", "", "Sai Rei: 3F > 4F; Joint Engage"},
		{"Joint Engage", "", "Sai Rei: 3F > 4F; Joint Engage"},
		{"joint-engage", "", "Sai Rei: 3F > 4F; Joint Engage"},
		{"fly", "", `"fly" is not a keyword`},
	} {
		o := OrderInput{Army: "Sai Rei", Kind: domain.MoveKind, From: sq("3F"), Legs: []domain.Leg{{To: sq("4F")}}, Keyword: c.keyword, Target: c.target}
		line, err := o.line(0, grid)
		got := line
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("keyword %q: %q, want %q", c.keyword, got, c.want)
		}
	}
}
