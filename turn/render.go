package turn

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/mercenary"
)

// Heading is what a rendered report opens with: the campaign and turn, who locked it, when and
// why, and its seed with the commitment published when the turn opened (B6).
type Heading struct {
	Campaign string
	Turn     int
	// LockAt is the turn's lock time; LockedAt, LockedBy and LockReason say when, by whom and
	// why it was locked (LockedAt nil: not said).
	LockAt     time.Time
	LockedAt   *time.Time
	LockedBy   string
	LockReason string
	Seed       domain.Seed
	Commitment string
}

// Stamp writes a time the way reports and messages do, to the minute in UTC.
func Stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// Render writes a lock report the way the movement judge's update post reads (3.1): moves,
// rejected orders and why, battles settled and announced, pushes, healing and day counts.
// Transfers are named without their creatures, which stay private (T2).
func Render(t Heading, rep *Report) string {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	section := func(title string) { line("\n%s", title) }
	line("%s — movement update for turn %d", t.Campaign, t.Turn)
	if t.LockedAt != nil {
		line("Locked %s by %s (%s); the lock time was %s.", Stamp(*t.LockedAt), t.LockedBy, t.LockReason, Stamp(t.LockAt))
	}
	line("Seed %s (its SHA-256, published when the turn opened: %s).", t.Seed, t.Commitment)

	if len(rep.Moves) > 0 {
		section("Moves")
		for _, m := range rep.Moves {
			by := aiMark(rep, m.Army)
			switch {
			case m.Intercepted:
				line("  %s: %s > %s, intercepted at %s%s", m.Army, m.From, last(m.Route, m.To), m.To, by)
			case m.Partial:
				line("  %s: %s > %s, partial move: stopped at %s%s", m.Army, m.From, last(m.Route, m.To), m.To, by)
			default:
				line("  %s: %s > %s%s", m.Army, m.From, m.To, by)
			}
		}
	}
	if len(rep.Rejected) > 0 {
		section("Orders not carried out")
		for _, r := range rep.Rejected {
			line("  %s (post %d, line %d): %s — %s", r.Army, r.Post, r.Line, r.Code, PublicMessage(r))
		}
	}
	// The text is public: a private warning is only in the JSON report, for its side (T3).
	for i, w := range publicWarnings(rep.Warnings) {
		if i == 0 {
			section("Warnings")
		}
		line("  %s (post %d, line %d): %s", w.Army, w.Post, w.Line, w.Message)
	}
	if len(rep.Transfers) > 0 {
		section("Transfers")
		for _, tr := range rep.Transfers {
			line("  %s sent troops to %s%s", tr.From, tr.To, transferFate(rep, tr.To))
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
			for _, at := range []struct {
				what, rule string
				a          *domain.Attempt
			}{{"kill", "4.3", s.Kill}, {"capture", "4.5", s.Capture}} {
				switch a := at.a; {
				case a == nil:
				case a.Success && at.what == "kill":
					line("    %s killed %s (%s)", a.By, a.Target, at.rule)
				case a.Success:
					line("    %s captured %s (%s)", a.By, a.Target, at.rule)
				case a.RiskedLost > 0:
					line("    %s's %s attempt on %s failed; %d of the troops it risked died (%s)", a.By, at.what, a.Target, a.RiskedLost, at.rule)
				default:
					line("    %s's %s attempt on %s failed; the troops it risked are safe (%s)", a.By, at.what, a.Target, at.rule)
				}
			}
			for _, n := range s.Notes {
				line("    Note: %s", n)
			}
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
	for _, e := range rep.Days {
		if e.Value > 0 {
			counting = append(counting, fmt.Sprintf("%s %d", e.Name, e.Value))
		}
	}
	if len(counting) > 0 {
		section("Day counts")
		line("  %s", strings.Join(counting, "; "))
	}
	if len(rep.Removed) > 0 {
		section("Armies removed")
		for _, army := range rep.Removed {
			line("  %s%s", army, removal(rep, army))
		}
	}
	if len(rep.ChangedSides) > 0 {
		section("Armies changing sides")
		for _, army := range sortedKeys(rep.ChangedSides) {
			if by := capturedBy(rep, army); by != "" {
				line("  %s is captured by %s and is controlled by %s until it has counted 2 days (4.5)", army, by, rep.ChangedSides[army].Title())
				continue
			}
			line("  %s is liberated and fights for %s again (4.5)", army, rep.ChangedSides[army].Title())
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
	renderAI(rep, section, line)
	if rep.Winner != nil {
		section("The round is over")
		line("  %s wins.", rep.Winner.Title())
	}
	return b.String()
}

// transferFate says what became of troops sent to an army in a battle (T3).
func transferFate(rep *Report, to string) string {
	for _, s := range rep.Settled {
		switch {
		case slices.Contains(s.Winners, to):
			return fmt.Sprintf(", which won the battle at %s and gets them (T3)", s.Battle.Square)
		case slices.Contains(s.Losers, to):
			return fmt.Sprintf(", which lost the battle at %s: the troops are lost with it (3.2.4.3.3)", s.Battle.Square)
		}
	}
	for _, b := range rep.Battles {
		if slices.Contains(b.Armies, to) {
			return fmt.Sprintf(", which fights at %s next turn: they wait for the battle's end (T3)", b.Square)
		}
	}
	return ""
}

// removal says why an army left the map: killed, or destroyed empty (4.3, B9).
func removal(rep *Report, army string) string {
	for _, s := range rep.Settled {
		if k := s.Kill; k != nil && k.Success && k.Target == army {
			return fmt.Sprintf(": killed by %s at %s (4.3)", k.By, s.Battle.Square)
		}
	}
	return ": destroyed, with no troops left (4.3.1, B9)"
}

// capturedBy names the army that captured army this turn, or "".
func capturedBy(rep *Report, army string) string {
	for _, s := range rep.Settled {
		if c := s.Capture; c != nil && c.Success && c.Target == army {
			return c.By
		}
	}
	return ""
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

// aiMark marks a move the mercenary AI ordered.
func aiMark(rep *Report, army string) string {
	if ai := rep.MercenaryAI; ai != nil && slices.ContainsFunc(ai.Orders, func(s mercenary.Suggestion) bool { return s.Army == army }) {
		return " (the mercenary AI's order)"
	}
	return ""
}

// renderAI writes what the mercenary AI did and the after-lock edit (chapter 6). The AI's
// battle strategies are named, not shown: a strategy stays private to the judges (B1).
func renderAI(rep *Report, section func(string), line func(string, ...any)) {
	if ai := rep.MercenaryAI; ai != nil {
		if len(ai.Orders) > 0 {
			section("The mercenary AI's orders")
			for _, s := range ai.Orders {
				line("  %s — %s: %s", s.Line, s.Guideline, s.Reason)
			}
		}
		if len(ai.Strategies) > 0 {
			section("The mercenary AI's battle strategies")
			for _, st := range ai.Strategies {
				line("  %s: the mercenary AI wrote its strategy for the battle at %s (B2)", st.Army, st.Square)
			}
		}
		if len(ai.Warnings) > 0 {
			section("Mercenary orders against a guideline")
			for _, w := range ai.Warnings {
				line("  %s (post %d, line %d): %s", w.Army, w.Post, w.Line, w.Message)
			}
		}
	}
	if e := rep.AfterLockEdit; e != nil {
		section("After-lock edit")
		line("  %s", e.Note)
	}
}

// PrivateTransfer is what the public learns of a transfer refused for its troops: the reason
// names the creatures and counts sent, which stay with the sending side and the judges (T2).
const PrivateTransfer = "the receiving army had no room for the troops sent, or the sender had not got them (2.1, 2.3.3); the details stay with the sending side (T2)"

// PublicMessage is a rejection's reason as everyone may read it: a transfer's troops kept out
// (T2), every other reason as it is.
func PublicMessage(r domain.Rejection) string {
	if r.Code == domain.CodeTransferNoRoom {
		return PrivateTransfer
	}
	return r.Message
}

// publicWarnings are the warnings anyone may read: all but the private ones (T3).
func publicWarnings(ws []domain.Warning) []domain.Warning {
	out := make([]domain.Warning, 0, len(ws))
	for _, w := range ws {
		if !w.Private {
			out = append(out, w)
		}
	}
	return out
}
