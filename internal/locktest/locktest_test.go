package locktest

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"
)

// TestLockSweep runs the harness: a few campaigns in the normal suite, to keep it working;
// COALITION_LOCKTEST=N sweeps N (make loadtest-locks: 1,000), and COALITION_LOCKTEST_GOAL (a
// duration) makes a slower sweep fail — the load test's goal, not a unit test's assertion.
func TestLockSweep(t *testing.T) {
	n := 6
	if v := os.Getenv("COALITION_LOCKTEST"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n <= 0 {
			t.Fatalf("COALITION_LOCKTEST=%q: want a number of campaigns", v)
		}
	}
	res, err := Run(context.Background(), Config{Campaigns: n, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(res)
	if res.Locked != n || res.Failed != 0 {
		t.Errorf("%d of %d locked, %d failed: %v", res.Locked, n, res.Failed, res.Errors)
	}
	if res.BackupBytes == 0 {
		t.Error("the sweep made no backup")
	}
	if v := os.Getenv("COALITION_LOCKTEST_GOAL"); v != "" {
		goal, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("COALITION_LOCKTEST_GOAL=%q: %v", v, err)
		}
		if res.Sweep > goal {
			t.Errorf("the sweep took %s, over the goal of %s", res.Sweep, goal)
		}
	}
}

// BenchmarkSweep is one sweep of the scheduler locking 20 full campaigns due at once, its
// backup included: each iteration is the next week's sweep of the same campaigns.
func BenchmarkSweep(b *testing.B) {
	ctx := context.Background()
	h, err := New(ctx, Config{Campaigns: 20, Dir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	b.ResetTimer()
	for b.Loop() {
		res, err := h.Sweep(ctx)
		if err != nil || res.Locked != 20 {
			b.Fatalf("%v: %v %v", err, res, res.Errors)
		}
	}
}
