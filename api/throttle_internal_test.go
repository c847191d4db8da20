package api

import (
	"strconv"
	"testing"
	"time"
)

// TestThrottleBounded checks that a refused address waits out the window, that a success
// gives its attempt back, and that a flood of addresses cannot grow the throttle without
// bound.
func TestThrottleBounded(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	th := newThrottle(func() time.Time { return now }, loginFailures)
	ok, _ := th.reserve("guesser")
	th.release(ok)
	for range loginFailures {
		if _, wait := th.reserve("guesser"); wait != 0 {
			t.Fatalf("refused before %d failures", loginFailures)
		}
	}
	if _, wait := th.reserve("guesser"); wait != loginWindow {
		t.Fatalf("the guesser waits %v, want %v", wait, loginWindow)
	}
	for i := range 3 * throttleKeep {
		th.reserve("10.0." + strconv.Itoa(i))
		if len(th.tries) > throttleKeep {
			t.Fatalf("%d addresses remembered, at most %d", len(th.tries), throttleKeep)
		}
	}
	now = now.Add(loginWindow)
	if _, wait := th.reserve("guesser"); wait != 0 {
		t.Error("the window has ended but the guesser still waits")
	}
}
