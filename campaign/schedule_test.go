package campaign_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
)

// R49 (C1): after a lock the next turn's battle deadline is a turn length after the locked
// turn's scheduled deadline — an early lock does not make the next turn share the old deadline,
// and an extension is for its own turn only — and the campaign's view says why.
func TestNextDeadlineKeepsTheSchedule(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		extend time.Duration
		lockAt time.Duration // after turn 1's deadline (negative: early)
		want   time.Duration // turn 2's deadline after turn 1's scheduled one
		says   string
	}{
		{"on schedule", 0, 24 * time.Hour, 7 * 24 * time.Hour, "1 turn length(s)"},
		{"two days early", 0, -48 * time.Hour, 7 * 24 * time.Hour, "locked early"},
		{"extended by two days", 48 * time.Hour, 72 * time.Hour, 7 * 24 * time.Hour, "was for turn 1 alone"},
		{"a lock ten days late", 0, 10 * 24 * time.Hour, 14 * 24 * time.Hour, "skipped ahead"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			id := f.campaign()
			v, err := f.svc.Campaign(ctx, f.as("Mover"), id)
			if err != nil {
				t.Fatal(err)
			}
			scheduled := v.Turn.Deadline
			if c.extend > 0 {
				if _, err := f.svc.Extend(ctx, f.as("Mover"), id, 1, c.extend, "holiday"); err != nil {
					t.Fatal(err)
				}
			}
			f.clock.Set(scheduled.Add(c.lockAt))
			if _, err := f.svc.Lock(ctx, f.as("Mover"), id, 1, "test"); err != nil {
				t.Fatal(err)
			}
			v, err = f.svc.Campaign(ctx, f.as("Mover"), id)
			if err != nil {
				t.Fatal(err)
			}
			if got := v.Turn.Deadline.Sub(scheduled); got != c.want {
				t.Errorf("turn 2's deadline is %s after turn 1's scheduled one, want %s", got, c.want)
			}
			if why := strings.Join(v.Turn.Timing, " "); !strings.Contains(why, c.says) || !strings.Contains(why, "(C1)") {
				t.Errorf("the timing says %q, not %q", why, c.says)
			}
		})
	}
}

// The lock's events are written in its own transaction: the lock's event is there after it,
// with the report, and an extension's event names the new deadline.
func TestLockPublishesItsEvents(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	id := f.campaign()
	if _, err := f.svc.Extend(ctx, f.as("Mover"), id, 1, 2*time.Hour, "a late player"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Lock(ctx, f.as("Mover"), id, 1, "test"); err != nil {
		t.Fatal(err)
	}
	feed, err := f.svc.Feed(ctx, campaign.Actor{}, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	kinds := []campaign.EventKind{}
	for _, e := range feed.Events {
		kinds = append(kinds, e.Kind)
	}
	if len(kinds) != 2 || kinds[0] != campaign.EventLock || kinds[1] != campaign.EventDeadline {
		t.Fatalf("events %v", kinds)
	}
	if !strings.Contains(feed.Events[0].Body, "movement update for turn 1") || !strings.Contains(feed.Events[1].Body, "a late player") {
		t.Errorf("events %+v", feed.Events)
	}
}
