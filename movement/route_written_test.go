package movement_test

import (
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/movement"
)

// TestRouteWrittenAfterTheKeyword checks 3.2.2.4 and R104: a route written at the end of the
// line, after the keyword, is the last leg's route, as one written after the destination is;
// written twice, or not a route, it is refused; parentheses that do not open with a square are
// part of the name, which is informational (M5).
func TestRouteWrittenAfterTheKeyword(t *testing.T) {
	for _, c := range []struct {
		line, route, named, err string
	}{
		{line: "Ash: 10C > 10D; engage Grim (10C - 11C - 11D - 10D)", route: "11C 11D 10D", named: "Grim"},
		{line: "Ash: 10C > 10D; engage Grim (10C-11C-11D-10D)", route: "11C 11D 10D", named: "Grim"},
		{line: "Ash: 10C > 10D (10C - 11C - 11D - 10D); engage Grim", route: "11C 11D 10D", named: "Grim"},
		{line: "Ash: 5E > 8E > 11E; replace Birch (8E - 9E - 10E - 11E)", route: "9E 10E 11E", named: "Birch"},
		{line: "Ash: 10C > 10D; Joint Engage (10C - 11C - 11D - 10D)", route: "11C 11D 10D"},
		{line: "Ash: 10C > 10D; engage Grim (the Black)", named: "Grim (the Black)"},
		{line: "Ash: 10C > 10D (10C - 10D); engage Grim (10C - 11C - 10D)", err: "the route is written twice"},
		{line: "Ash: 10C > 10D; engage Grim (10C - 11C - moon)", err: `"moon" in the route is not a square`},
	} {
		o, perr := movement.ParseLine(c.line)
		if c.err != "" {
			if perr == nil || !strings.Contains(perr.Error(), c.err) {
				t.Errorf("ParseLine(%q) = error %v, want one saying %q", c.line, perr, c.err)
			}
			continue
		}
		if perr != nil {
			t.Errorf("ParseLine(%q): %v", c.line, perr)
			continue
		}
		var route []string
		for _, sq := range o.Legs[len(o.Legs)-1].Route {
			route = append(route, sq.String())
		}
		// the route a player writes starts with the army's square, which the order leaves out
		if got := strings.Join(route, " "); !strings.HasSuffix(got, c.route) || c.route == "" && got != "" {
			t.Errorf("ParseLine(%q) has the route %q on its last leg, want %q", c.line, got, c.route)
		}
		if o.Named != c.named {
			t.Errorf("ParseLine(%q) names %q, want %q", c.line, o.Named, c.named)
		}
	}
}
