// A campaign's time settings and their bounds (C1, R95): each setting checked on create and on
// every change, stored to the microsecond, and the turn arithmetic computed in one step.

package campaign

import (
	"fmt"
	"strconv"
	"time"

	"github.com/coalition-wargame/coalition/domain"
)

// The bounds of the time settings (R95): a turn length and a lock delay of at least an hour and
// at most 30 days, an extension cap of a minute (extensions are counted in whole minutes) to 30
// days, every deadline and lock time from 1970 and before the year 3000.
var (
	MinTurnLength   = time.Hour
	MaxTurnLength   = 30 * 24 * time.Hour
	MinLockDelay    = time.Hour
	MaxLockDelay    = 30 * 24 * time.Hour
	MinExtensionCap = time.Minute
	MaxExtensionCap = 30 * 24 * time.Hour
	EarliestTime    = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	LatestTime      = time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)
)

// RangeError is a setting outside its bounds: the field as the API names it, its range and the
// value refused. It is a domain.ErrInvalid.
type RangeError struct {
	// Field is the request's name of the setting ("settings.turn_length_hours").
	Field string
	// Min and Max are the range, both included, in Unit ("hours", or "time" for an instant).
	Min, Max string
	Unit     string
	// Got is the value refused, as the request gave it.
	Got string
	// Why names the rule.
	Why string
}

func (e *RangeError) Error() string {
	unit := " " + e.Unit
	if e.Unit == "time" {
		unit = ""
	}
	return fmt.Sprintf("%s must be from %s to %s%s, not %s (%s)", e.Field, e.Min, e.Max, unit, e.Got, e.Why)
}

// Unwrap makes a RangeError a domain.ErrInvalid.
func (e *RangeError) Unwrap() error { return domain.ErrInvalid }

// hoursText writes a duration in hours as a request gives it: 0.0001, 1.5, 720.
func hoursText(d time.Duration) string { return strconv.FormatFloat(d.Hours(), 'g', -1, 64) }

// durationIn checks that d lies in [lo, hi].
func durationIn(field string, d, lo, hi time.Duration, why string) error {
	if d < lo || d > hi {
		return &RangeError{Field: field, Min: hoursText(lo), Max: hoursText(hi), Unit: "hours", Got: hoursText(d), Why: why}
	}
	return nil
}

// timeIn checks that an instant lies in the sane window: from 1970, before the year 3000 (R95).
func timeIn(field string, t time.Time) error {
	if t.Before(EarliestTime) || !t.Before(LatestTime) {
		return &RangeError{Field: field, Min: EarliestTime.Format(time.RFC3339), Max: LatestTime.Add(-time.Second).Format(time.RFC3339), Unit: "time",
			Got: t.UTC().Format(time.RFC3339Nano), Why: "R95: deadlines and lock times fall within a sane window"}
	}
	return nil
}

// normal is st with zero settings taken from DefaultSettings and every setting rounded to the
// microsecond, the time the store keeps; a negative setting is kept, for check to refuse.
func (st Settings) normal() Settings {
	if st.LockDelay == 0 {
		st.LockDelay = DefaultSettings.LockDelay
	}
	if st.TurnLength == 0 {
		st.TurnLength = DefaultSettings.TurnLength
	}
	if st.ExtensionCap == 0 {
		st.ExtensionCap = DefaultSettings.ExtensionCap
	}
	st.LockDelay = st.LockDelay.Round(time.Microsecond)
	st.TurnLength = st.TurnLength.Round(time.Microsecond)
	st.ExtensionCap = st.ExtensionCap.Round(time.Microsecond)
	return st
}

// Check says which setting, if any, lies outside its bounds (R95).
func (st Settings) Check() error {
	if err := durationIn("settings.turn_length_hours", st.TurnLength, MinTurnLength, MaxTurnLength, "C1: the time from one battle deadline to the next"); err != nil {
		return err
	}
	if err := durationIn("settings.lock_delay_hours", st.LockDelay, MinLockDelay, MaxLockDelay, "C1: the time from the battle deadline to the lock"); err != nil {
		return err
	}
	return durationIn("settings.extension_cap_hours", st.ExtensionCap, MinExtensionCap, MaxExtensionCap, "the most a judge may extend one turn")
}

// checkTurnTiming checks that turn t's deadline and lock fall within the sane window (R95);
// what names the request's field.
func checkTurnTiming(t *Turn, what string) error {
	if err := timeIn(what, t.Deadline); err != nil {
		return err
	}
	return timeIn(what, t.LockAt)
}

// after is the first of d, d+step, d+2·step, … that is after now, computed in one step (the
// schedule never loops, R95); step is at least MinTurnLength.
func after(d, now time.Time, step time.Duration) time.Time {
	if d.After(now) || step <= 0 {
		return d
	}
	k := now.Sub(d)/step + 1
	return d.Add(k * step)
}

// notBefore is the first of d, d+step, d+2·step, … that is not before t, computed in one step.
func notBefore(d, t time.Time, step time.Duration) time.Time {
	if !d.Before(t) || step <= 0 {
		return d
	}
	gap := t.Sub(d)
	k := (gap + step - 1) / step
	return d.Add(k * step)
}

// checkPlan checks a new campaign's given times: its first deadline and an imported plan's lock
// times lie in the sane window (R95).
func checkPlan(su Setup) error {
	if !su.FirstDeadline.IsZero() {
		if err := timeIn("first_deadline", su.FirstDeadline); err != nil {
			return err
		}
	}
	for i, p := range su.Plan {
		if p.Lock != nil {
			if err := timeIn(fmt.Sprintf("turns[%d].lock", i), *p.Lock); err != nil {
				return err
			}
		}
	}
	return nil
}
