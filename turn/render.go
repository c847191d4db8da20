package turn

import (
	"fmt"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// Render writes a lock report the way the movement judge's update post reads (3.1): moves,
// rejected orders and why, battles settled and announced, pushes, healing and day counts.
// Transfers are named without their creatures, which stay private (T2).
func Render(c *Campaign, t *Turn, rep *Report) string {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	section := func(title string) { line("\n%s", title) }
	line("%s — movement update for turn %d", c.Name, t.Number)
	if t.LockedAt != nil {
		line("Locked %s by %s (%s); the lock time was %s.", stamp(*t.LockedAt), t.LockedBy, t.LockReason, stamp(t.LockAt))
	}
	line("Seed %s (its SHA-256, published when the turn opened: %s).", t.Seed, t.Commitment)

	if len(rep.Moves) > 0 {
		section("Moves")
		for _, m := range rep.Moves {
			switch {
			case m.Intercepted:
				line("  %s: %s > %s, intercepted at %s", m.Army, m.From, last(m.Route, m.To), m.To)
			case m.Partial:
				line("  %s: %s > %s, partial move: stopped at %s", m.Army, m.From, last(m.Route, m.To), m.To)
			default:
				line("  %s: %s > %s", m.Army, m.From, m.To)
			}
		}
	}
	if len(rep.Rejected) > 0 {
		section("Orders not carried out")
		for _, r := range rep.Rejected {
			line("  %s (post %d, line %d): %s — %s", r.Army, r.Post, r.Line, r.Code, r.Message)
		}
	}
	if len(rep.Warnings) > 0 {
		section("Warnings")
		for _, w := range rep.Warnings {
			line("  %s (post %d, line %d): %s", w.Army, w.Post, w.Line, w.Message)
		}
	}
	if len(rep.Transfers) > 0 {
		section("Transfers")
		for _, tr := range rep.Transfers {
			line("  %s sent troops to %s", tr.From, tr.To)
		}
	}
	if len(rep.Settled) > 0 {
		section("Battles settled")
		for _, s := range rep.Settled {
			if s.Winner == "" {
				line("  %s: nobody won", s.Battle)
				continue
			}
			line("  %s: %s won (%s)", s.Battle, s.Winner.Title(), strings.Join(s.Winners, ", "))
		}
	}
	if len(rep.Pushes) > 0 {
		section("Armies moved after the battles")
		for _, p := range rep.Pushes {
			line("  %s: %s > %s (%s)", p.Army, p.From, p.To, p.Reason)
		}
	}
	if len(rep.Battles) > 0 {
		section("Battles for next turn")
		for _, bt := range rep.Battles {
			if bt.Attacker != nil {
				line("  %s at %s (%s, %s attacking)", strings.Join(bt.Armies, " vs "), bt.Square, bt.Kind, *bt.Attacker)
			} else {
				line("  %s at %s (%s)", strings.Join(bt.Armies, " vs "), bt.Square, bt.Kind)
			}
		}
	}
	if len(rep.Healed) > 0 {
		section("Healing")
		for _, army := range sortedKeys(rep.Healed) {
			var parts []string
			for _, cr := range sortedKeys(rep.Healed[army]) {
				parts = append(parts, fmt.Sprintf("%d %s", rep.Healed[army][cr], cr))
			}
			line("  %s: %s", army, strings.Join(parts, ", "))
		}
	}
	var counting []string
	for _, army := range sortedKeys(rep.Days) {
		if d := rep.Days[army]; d > 0 {
			counting = append(counting, fmt.Sprintf("%s %d", army, d))
		}
	}
	if len(counting) > 0 {
		section("Day counts")
		line("  %s", strings.Join(counting, "; "))
	}
	if len(rep.Removed) > 0 {
		section("Armies removed")
		line("  %s", strings.Join(rep.Removed, ", "))
	}
	if len(rep.ChangedSides) > 0 {
		section("Armies changing sides")
		for _, army := range sortedKeys(rep.ChangedSides) {
			line("  %s now fights for %s", army, rep.ChangedSides[army].Title())
		}
	}
	if len(rep.DestroyedSites) > 0 {
		section("Destroyed sites")
		line("  %s", strings.Join(rep.DestroyedSites, ", "))
	}
	if rep.Mercenary != nil && len(rep.Mercenary.Lines) > 0 {
		section("Mercenaries")
		for _, l := range rep.Mercenary.Lines {
			line("  %s", l)
		}
	}
	if rep.Winner != nil {
		section("The round is over")
		line("  %s wins.", rep.Winner.Title())
	}
	return b.String()
}

func last(route []domain.Square, fallback domain.Square) domain.Square {
	if len(route) == 0 {
		return fallback
	}
	return route[len(route)-1]
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
