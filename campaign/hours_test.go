package campaign

import (
	"testing"
	"time"
)

// TestHours checks how the audit log and refusals write durations, to the minute.
func TestHours(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                            "0m",
		20 * time.Second:             "0m",
		10 * time.Minute:             "10m",
		90 * time.Minute:             "1h30m",
		4*time.Hour + 10*time.Minute: "4h10m",
		72 * time.Hour:               "72h",
		25*time.Hour + 5*time.Minute: "25h05m",
		time.Hour + 29*time.Second:   "1h",
	} {
		if got := hours(d); got != want {
			t.Errorf("hours(%v) = %q, want %q", d, got, want)
		}
	}
}
