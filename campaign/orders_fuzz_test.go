package campaign

import (
	"testing"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/movement"
)

// FuzzStructuredOrder: a structured order the server accepts renders to a classic line that
// the order parser reads back to the same order (3.2.2.5), so that text and JSON orders are
// treated the same.
func FuzzStructuredOrder(f *testing.F) {
	f.Add("Sai Rei", "move", uint8(3), uint8(6), uint8(5), uint8(6), "engage", "Darkhand5", "")
	f.Add("", "intercept", uint8(0), uint8(0), uint8(0), uint8(0), "", "Darkhand5", "")
	f.Add("Sai Rei", "transfer", uint8(0), uint8(0), uint8(4), uint8(6), "", "Urza's Guard", "")
	f.Add("Sai Rei", "hold", uint8(0), uint8(0), uint8(0), uint8(0), "", "", "fighting")
	f.Add("A", "move", uint8(1), uint8(1), uint8(1), uint8(2), "joint", "", "")
	f.Fuzz(func(t *testing.T, army, kind string, fc, fr, tc, tr uint8, keyword, target, note string) {
		o := OrderInput{Army: army, Kind: domain.OrderKind(kind), Keyword: keyword, Target: target, Note: note}
		from, to := domain.Square{Col: fc, Row: fr}, domain.Square{Col: tc, Row: tr}
		if !domain.DefaultGrid.Contains(from) || !domain.DefaultGrid.Contains(to) {
			return // the API reads squares from text, which only gives squares of the grid
		}
		switch o.Kind {
		case domain.MoveKind:
			o.From, o.Legs = from, []domain.Leg{{To: to}}
		case domain.Transfer:
			o.At = to
		}
		line, err := o.line(0, domain.DefaultGrid)
		if err != nil {
			return
		}
		got, perr := movement.ParseLine(line)
		if perr != nil {
			t.Fatalf("%+v renders as %q, which does not parse: %s", o, line, perr.Message)
		}
		if got.Kind != o.Kind || !domain.SameName(got.Army, o.Army) {
			t.Fatalf("%+v renders as %q, read back as %+v", o, line, got)
		}
		switch o.Kind {
		case domain.MoveKind:
			if got.From != from || len(got.Legs) != 1 || got.Legs[0].To != to || (o.Target != "" && !domain.SameName(got.Named, o.Target)) {
				t.Fatalf("%+v renders as %q, read back as %+v", o, line, got)
			}
		case domain.InterceptKind, domain.Transfer:
			if !domain.SameName(got.Target, o.Target) {
				t.Fatalf("%+v renders as %q, read back as %+v", o, line, got)
			}
		}
	})
}
