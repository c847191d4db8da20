// Rule 3.2.2.5: an order printed in the rulebook's canonical form.

package movement

import (
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// Format prints an order in the rulebook's canonical form; ParseLine reads it back to the
// same order.
func Format(o domain.Order) string {
	var b strings.Builder
	if o.Army != "" {
		b.WriteString(o.Army)
		b.WriteString(": ")
	}
	switch o.Kind {
	case domain.Hold:
		b.WriteString(o.Note)
	case domain.InterceptKind:
		b.WriteString("Intercept ")
		b.WriteString(o.Target)
	case domain.Transfer:
		b.WriteString("Transfer to ")
		b.WriteString(o.Target)
		b.WriteString(" at ")
		b.WriteString(o.At.String())
	case domain.MoveKind:
		b.WriteString(o.From.String())
		for _, l := range o.Legs {
			b.WriteString(" > ")
			b.WriteString(l.To.String())
			if len(l.Route) > 0 {
				b.WriteString(" (")
				for i, r := range l.Route {
					if i > 0 {
						b.WriteString(" - ")
					}
					b.WriteString(r.String())
				}
				b.WriteString(")")
			}
		}
		switch o.Keyword {
		case domain.Engage:
			b.WriteString("; engage")
		case domain.Replace:
			b.WriteString("; replace")
		case domain.JointEngage:
			b.WriteString("; Joint Engage")
		}
		if o.Keyword != domain.NoKeyword && o.Named != "" {
			b.WriteString(" ")
			b.WriteString(o.Named)
		}
	}
	return b.String()
}
