// The turns' schedule (C1): when the next turn's battle deadline falls after a lock, and why a
// turn's deadline is what it is, in words for the judge console.

package campaign

import (
	"fmt"
	"time"

	"github.com/coalition-wargame/coalition/turn"
)

// nextDeadline is the battle deadline of the turn that opens when prev locks at time at: one
// turn length after prev's scheduled deadline — its deadline without its extensions, which were
// for prev alone — and later by whole turn lengths while that would leave less than a lock delay
// before it (a lock long overdue). An early lock keeps the schedule: the next turn still falls a
// turn length after prev's deadline, never on it.
func nextDeadline(prev *Turn, at time.Time, st Settings) time.Time {
	d := prev.Deadline.Add(-prev.Extension).Add(st.TurnLength)
	return notBefore(d, at.Add(st.LockDelay), st.TurnLength)
}

// explainTiming says why turn t's battle deadline and lock are what they are: the schedule it
// came from (the campaign's creation, an imported plan, or the previous turn's deadline), this
// turn's extensions and the time a pause gave back.
func explainTiming(r Reader, c *Campaign, t *Turn) ([]string, error) {
	st := c.Settings
	var out []string
	var scheduled time.Time
	switch planned := t.Number-1 < len(c.Plan); {
	case planned && c.Plan[t.Number-1].Lock != nil:
		scheduled = c.Plan[t.Number-1].Lock.UTC().Add(-st.LockDelay)
		out = append(out, fmt.Sprintf("Turn %d's lock time comes from the imported scenario's plan; its battle deadline is a lock delay (%s) before it.", t.Number, hours(st.LockDelay)))
	case t.Number == 1:
		scheduled = t.Deadline.Add(-t.Extension)
		out = append(out, fmt.Sprintf("Turn 1's battle deadline, %s, was set when the campaign was created: the first 05:00 UTC at least %s away, or the date given.", turn.Stamp(scheduled), hours(st.TurnLength-st.LockDelay)))
	default:
		prev, err := r.Turn(c.ID, t.Number-1)
		if err != nil {
			return nil, err
		}
		base := prev.Deadline.Add(-prev.Extension)
		at := t.OpenedAt
		if prev.LockedAt != nil {
			at = *prev.LockedAt
		}
		scheduled = nextDeadline(prev, at, st)
		k := 1
		if st.TurnLength > 0 {
			k = int(scheduled.Sub(base) / st.TurnLength)
		}
		out = append(out, fmt.Sprintf("Turn %d's battle deadline follows turn %d's, %s without its extensions: %d turn length(s) of %s later, %s.",
			t.Number, prev.Number, turn.Stamp(base), k, hours(st.TurnLength), turn.Stamp(scheduled)))
		if prev.LockedAt != nil && prev.LockedAt.Before(prev.LockAt) {
			out = append(out, fmt.Sprintf("Turn %d was locked early (%s, its lock time was %s): an early lock does not move the schedule.", prev.Number, turn.Stamp(*prev.LockedAt), turn.Stamp(prev.LockAt)))
		}
		if prev.Extension > 0 {
			out = append(out, fmt.Sprintf("Turn %d's extension of %s was for turn %d alone: later turns keep the schedule.", prev.Number, hours(prev.Extension), prev.Number))
		}
		if k > 1 {
			out = append(out, fmt.Sprintf("Turn %d locked at %s: one turn length would have left less than a lock delay (%s) before the deadline, so the schedule skipped ahead.", prev.Number, turn.Stamp(at), hours(st.LockDelay)))
		}
	}
	if t.Extension > 0 {
		out = append(out, fmt.Sprintf("A judge extended turn %d by %s (at most %s a turn; the reasons are in the audit log).", t.Number, hours(t.Extension), hours(st.ExtensionCap)))
	}
	if shift := t.Deadline.Sub(scheduled) - t.Extension; shift > 0 {
		out = append(out, fmt.Sprintf("A pause moved it %s later: a resume gives the players back the time the campaign was paused.", hours(shift)))
	}
	out = append(out, fmt.Sprintf("So the battle deadline is %s, and the lock a lock delay (%s) after it: %s (C1).", turn.Stamp(t.Deadline), hours(st.LockDelay), turn.Stamp(t.LockAt)))
	return out, nil
}
