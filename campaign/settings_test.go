package campaign

import (
	"errors"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/domain"
)

// stepAfter and stepNotBefore are the schedule as it was stepped, one turn length at a time: the
// reference the computed schedule must agree with.
func stepAfter(d, now time.Time, step time.Duration) time.Time {
	for !d.After(now) {
		d = d.Add(step)
	}
	return d
}

func stepNotBefore(d, t time.Time, step time.Duration) time.Time {
	for d.Before(t) {
		d = d.Add(step)
	}
	return d
}

// R95, C1: the next deadline is computed in one step and agrees with stepping one turn length at
// a time, on the boundaries too (a deadline exactly at now is not after it).
func TestScheduleComputedAgreesWithStepping(t *testing.T) {
	base := time.Date(2026, 3, 1, 5, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name string
		gap  time.Duration // now - d
		step time.Duration
	}{
		{"d after now", -time.Hour, time.Hour},
		{"d at now", 0, time.Hour},
		{"just past", time.Nanosecond, time.Hour},
		{"one step exactly", time.Hour, time.Hour},
		{"a week late, hourly", 7*24*time.Hour + time.Minute, time.Hour},
		{"ten years late, weekly", 10 * 365 * 24 * time.Hour, 7 * 24 * time.Hour},
		{"odd turn length", 1000*time.Hour + 17*time.Second, 90*time.Minute + 7*time.Microsecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			now := base.Add(c.gap)
			if got, want := after(base, now, c.step), stepAfter(base, now, c.step); !got.Equal(want) {
				t.Errorf("after = %s, stepping gives %s", got, want)
			}
			if got, want := notBefore(base, now, c.step), stepNotBefore(base, now, c.step); !got.Equal(want) {
				t.Errorf("notBefore = %s, stepping gives %s", got, want)
			}
		})
	}
}

// R95: a turn length of zero (as the old code stored 0.0001 h) cannot make the schedule spin:
// the arithmetic returns at once, and the settings check refuses it.
func TestScheduleNeverLoopsOnAZeroTurnLength(t *testing.T) {
	d := time.Date(2026, 3, 1, 5, 0, 0, 0, time.UTC)
	now := d.Add(48 * time.Hour)
	if got := after(d, now, 0); !got.Equal(d) {
		t.Errorf("after with no step = %s", got)
	}
	if got := notBefore(d, now, 0); !got.Equal(d) {
		t.Errorf("notBefore with no step = %s", got)
	}
	prev := &Turn{Deadline: d}
	st := Settings{TurnLength: 0, LockDelay: time.Hour}
	_ = nextDeadline(prev, now, st) // returns: the old loop never did
	err := st.normal().Check()
	if err != nil {
		t.Fatalf("the default fills a zero turn length: %v", err)
	}
	st.TurnLength = 360 * time.Millisecond
	var re *RangeError
	if err := st.normal().Check(); !errors.As(err, &re) || !errors.Is(err, domain.ErrInvalid) || re.Field != "settings.turn_length_hours" {
		t.Errorf("0.0001 h: %v", err)
	}
}

// R95: the settings are rounded to the microsecond, the time the store keeps, and checked.
func TestSettingsNormalAndCheck(t *testing.T) {
	for _, c := range []struct {
		name  string
		in    Settings
		field string
	}{
		{"defaults", Settings{}, ""},
		{"bounds included", Settings{TurnLength: time.Hour, LockDelay: MaxLockDelay, ExtensionCap: time.Minute}, ""},
		{"turn length short", Settings{TurnLength: time.Hour - time.Microsecond}, "settings.turn_length_hours"},
		{"lock delay negative", Settings{LockDelay: -time.Hour}, "settings.lock_delay_hours"},
		{"extension cap long", Settings{ExtensionCap: MaxExtensionCap + time.Second}, "settings.extension_cap_hours"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.in.normal().Check()
			var re *RangeError
			switch {
			case c.field == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.field != "" && (!errors.As(err, &re) || re.Field != c.field):
				t.Errorf("%v, want a refusal naming %s", err, c.field)
			}
		})
	}
	st := Settings{TurnLength: time.Hour + 1500*time.Nanosecond}.normal()
	if st.TurnLength != time.Hour+2*time.Microsecond {
		t.Errorf("rounded to %v", st.TurnLength)
	}
}
