package campaign_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"testing"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/testdb"
)

// holdWriter takes the store's one writer connection (SQLite) until the returned function is
// called, running during in its transaction first: the posts made meanwhile are checked, then
// wait for the writer together.
func holdWriter(t *testing.T, f *fixture, during func(campaign.Tx) error) (release func()) {
	t.Helper()
	if testdb.Postgres(os.Getenv) {
		t.Skip("PostgreSQL has no single writer connection to hold")
	}
	held, free, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- f.db.Write(context.Background(), func(tx campaign.Tx) error {
			close(held)
			<-free
			if during != nil {
				return during(tx)
			}
			return nil
		})
	}()
	<-held
	return func() {
		close(free)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// waitQueued waits until n posts wait for the writer.
func waitQueued(f *fixture, n int) {
	for f.svc.Waiting() < n {
		runtime.Gosched()
	}
}

// Posts made while the writer is busy are committed together, in one transaction (one sync to
// the disk), each with its own line outcomes (issue 16).
func TestConcurrentPostsAreCommittedTogether(t *testing.T) {
	f := newFixture(t)
	id := f.campaign()
	release := holdWriter(t, f, nil)
	const posts = 64
	before := f.svc.Stats().Batches.Load()
	outs := make([]*campaign.PostOutcome, posts)
	errs := make([]error, posts)
	var wg sync.WaitGroup
	for i := range posts {
		wg.Go(func() {
			text := fmt.Sprintf("Sai Rei: 3F > %dF", 4+i%3)
			if i%2 == 1 {
				text = "Sai Rei: 3F > 12F" // out of range
			}
			outs[i], errs[i] = f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: text})
		})
	}
	// the first post leads and waits for the writer; the others queue behind it
	waitQueued(f, posts)
	release()
	wg.Wait()
	ids := map[int64]bool{}
	for i := range posts {
		if errs[i] != nil {
			t.Fatalf("post %d: %v", i, errs[i])
		}
		want := "accepted"
		if i%2 == 1 {
			want = "rejected"
		}
		if got := outs[i].Lines[0].Status; got != want {
			t.Errorf("post %d: line %s, want %s", i, got, want)
		}
		ids[outs[i].Post.ID] = true
	}
	if len(ids) != posts {
		t.Errorf("%d post ids for %d posts", len(ids), posts)
	}
	if got := f.svc.Stats().Batches.Load() - before; got != 2 {
		t.Errorf("%d transactions for %d posts, want 2 (the leader's group, then the rest together)", got, posts)
	}
	stored, err := f.svc.Posts(ctx, f.as("Mover"), id, 1)
	if err != nil || len(stored) != posts {
		t.Fatalf("%d posts stored (%v), want %d", len(stored), err, posts)
	}
}

// A post checked on a state that changes before its commit is checked again in the writer's
// transaction: here its army changed hands meanwhile, so its line is not_controller (5.4.1).
func TestPostIsCheckedAgainWhenTheStateMovesBeforeItsCommit(t *testing.T) {
	f := newFixture(t)
	id := f.campaign()
	if _, err := f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Sai Rei: 3F > 4F"}); err != nil {
		t.Fatal(err) // the hot state is read
	}
	rechecked := f.svc.Stats().PostsRechecked.Load()
	release := holdWriter(t, f, func(tx campaign.Tx) error {
		if err := tx.AddControl(&campaign.ControlEntry{CampaignID: id, Army: "Sai Rei", Controllers: []string{"Tevesh"}, EffectiveAt: start, By: "test"}); err != nil {
			return err
		}
		_, err := tx.BumpState()
		return err
	})
	var out *campaign.PostOutcome
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		out, err = f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Sai Rei: 3F > 4F"})
	}()
	// the post was checked (accepted) and waits for the writer, which changes the controller
	for f.svc.Stats().CacheHits.Load() == 0 {
		runtime.Gosched()
	}
	release()
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if l := out.Lines[0]; l.Code != domain.CodeNotController {
		t.Errorf("the line is %s %s (%s), want rejected not_controller: the controller changed before the commit", l.Status, l.Code, l.Message)
	}
	if got := f.svc.Stats().PostsRechecked.Load() - rechecked; got != 1 {
		t.Errorf("%d posts checked again, want 1", got)
	}
}

// Every write that changes what a post's check reads is seen by the next post: a pause, a
// resume, a member's new roles, a new controller (the hot state is kept per state version).
func TestHotStateFollowsEveryWrite(t *testing.T) {
	f := newFixture(t)
	id := f.campaign()
	post := func() (*campaign.PostOutcome, error) {
		return f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Urza's Guard: 20F > 21F"})
	}
	expect := func(step string, status string, kind error) {
		t.Helper()
		out, err := post()
		switch {
		case kind != nil && !errors.Is(err, kind):
			t.Errorf("%s: %v, want %v", step, err, kind)
		case kind == nil && err != nil:
			t.Errorf("%s: %v", step, err)
		case kind == nil && out.Lines[0].Status != status:
			t.Errorf("%s: line %s %s, want %s", step, out.Lines[0].Status, out.Lines[0].Message, status)
		}
	}
	expect("at first", "accepted", nil)
	if _, err := f.svc.Pause(ctx, f.as("Mover"), id, "a holiday"); err != nil {
		t.Fatal(err)
	}
	expect("paused", "", domain.ErrConflict)
	if _, err := f.svc.Resume(ctx, f.as("Mover"), id, "back"); err != nil {
		t.Fatal(err)
	}
	expect("resumed", "accepted", nil)
	if _, err := f.svc.CreateAccount(ctx, f.admin, "Kim", "kim-password", false); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.SetMember(ctx, f.admin, id, campaign.Member{Name: "Kim", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.Lieutenant}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.SetControl(ctx, f.as("Mover"), id, "Urza's Guard", []string{"Kim"}, "Kim joined"); err != nil {
		t.Fatal(err)
	}
	expect("a new member controls it", "rejected", nil)
	// another service on the same store (a second instance of the service in this process)
	// writes: this one sees it too (control is not handed back: Urza's Guard is Kim's last army, 5.3.4)
	other := f.service(f.db)
	if _, err := other.Pause(ctx, f.as("Mover"), id, "by the other service"); err != nil {
		t.Fatal(err)
	}
	expect("paused by another service", "", domain.ErrConflict)
}

// A write made by another process on the SQLite file (coalition admin reset-password while the
// server runs) is seen once the store reads the state version again (Watch does every second).
func TestAnotherProcessWriteIsSeenAfterRefresh(t *testing.T) {
	if testdb.Postgres(os.Getenv) {
		t.Skip("on PostgreSQL the state version is read for every request")
	}
	f := newFixture(t)
	id := f.campaign()
	if _, err := f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Sai Rei: 3F > 4F"}); err != nil {
		t.Fatal(err)
	}
	second := openDB(t, f.path) // another process's connection to the same file
	if _, err := f.service(second).Pause(ctx, f.as("Mover"), id, "from another process"); err != nil {
		t.Fatal(err)
	}
	if err := f.db.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Post(ctx, f.as("Gazetzot"), id, campaign.PostRequest{Text: "Sai Rei: 3F > 4F"}); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("a post to a campaign paused by another process: %v, want a conflict", err)
	}
}

// A post is refused before anything is stored when its key was used already; the claim is
// stored with the post and its answer, in the same transaction (R90).
func TestPostWithAClaimIsStoredOnce(t *testing.T) {
	f := newFixture(t)
	id := f.campaign()
	gaz := f.as("Gazetzot")
	render := func(v any) (string, []byte, error) {
		return "application/json", []byte(fmt.Sprint(v.(*campaign.PostOutcome).Post.ID)), nil
	}
	claim := func() *campaign.Claim {
		return &campaign.Claim{Account: gaz.Account.ID, Key: "k-1", Fingerprint: "f", Status: 201, Render: render}
	}
	c1 := claim()
	out, err := f.svc.Post(campaign.WithClaim(ctx, c1), gaz, id, campaign.PostRequest{Text: "Sai Rei: 3F > 4F"})
	if err != nil {
		t.Fatal(err)
	}
	if !c1.Recorded() || !c1.Answered() {
		t.Errorf("the claim is recorded %v, answered %v: want both", c1.Recorded(), c1.Answered())
	}
	rec, err := f.svc.IdempotencyRecord(ctx, gaz.Account.ID, "k-1")
	if err != nil || rec.Status != 201 || string(rec.Body) != fmt.Sprint(out.Post.ID) {
		t.Fatalf("record %+v, %v: want the post's answer", rec, err)
	}
	before := f.dump()
	if _, err := f.svc.Post(campaign.WithClaim(ctx, claim()), gaz, id, campaign.PostRequest{Text: "Sai Rei: 3F > 4F"}); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("a second post under the key: %v, want a conflict", err)
	}
	if f.dump() != before {
		t.Error("the second post under the same key stored something")
	}
}

// Any other write records the request's claim with its change (status 0), once however many
// writes the request makes; the caller stores the answer after it.
func TestWriteRecordsTheClaimOnce(t *testing.T) {
	f := newFixture(t)
	id := f.campaign()
	mover := f.as("Mover")
	c := &campaign.Claim{Account: mover.Account.ID, Key: "pause-1", Fingerprint: "f"}
	cctx := campaign.WithClaim(ctx, c)
	if _, err := f.svc.Pause(cctx, mover, id, "once"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Resume(cctx, mover, id, "twice"); err != nil {
		t.Fatalf("a second write of the same request: %v", err)
	}
	if !c.Recorded() || c.Answered() {
		t.Errorf("recorded %v, answered %v: want recorded, not answered", c.Recorded(), c.Answered())
	}
	rec, err := f.svc.IdempotencyRecord(ctx, mover.Account.ID, "pause-1")
	if err != nil || rec.Status != 0 {
		t.Fatalf("%+v, %v: want a record without its answer", rec, err)
	}
	if err := f.svc.Answer(cctx, c, 200, "application/json", []byte(`{"ok":true}`)); err != nil {
		t.Fatal(err)
	}
	if rec, err = f.svc.IdempotencyRecord(ctx, mover.Account.ID, "pause-1"); err != nil || rec.Status != 200 || string(rec.Body) != `{"ok":true}` {
		t.Errorf("%+v, %v: want the answer stored", rec, err)
	}
	// a refused write records nothing
	c2 := &campaign.Claim{Account: mover.Account.ID, Key: "pause-2", Fingerprint: "f"}
	if _, err := f.svc.Resume(campaign.WithClaim(ctx, c2), mover, id, "not paused"); err == nil {
		t.Fatal("resuming a running campaign passed")
	}
	if _, err := f.svc.IdempotencyRecord(ctx, mover.Account.ID, "pause-2"); !errors.Is(err, domain.ErrNotFound) || c2.Recorded() {
		t.Errorf("a refused request's key is recorded: %v", err)
	}
}

// Keys are kept KeyLifetime (at least 24 hours, issue 16), then expired by a later write.
func TestIdempotencyKeysExpire(t *testing.T) {
	f := newFixture(t)
	id := f.campaign()
	mover := f.as("Mover")
	write := func(key string) {
		t.Helper()
		c := &campaign.Claim{Account: mover.Account.ID, Key: key, Fingerprint: "f"}
		if _, err := f.svc.SetControl(campaign.WithClaim(ctx, c), mover, id, "Sai Rei", []string{"Gazetzot"}, key); err != nil {
			t.Fatal(err)
		}
	}
	has := func(key string) bool {
		_, err := f.svc.IdempotencyRecord(ctx, mover.Account.ID, key)
		return err == nil
	}
	write("old")
	f.clock.Set(start.Add(24 * 60 * 60 * 1e9)) // a day later
	write("day")
	if !has("old") {
		t.Error("a key was expired after a day")
	}
	f.clock.Set(start.Add(campaign.KeyLifetime + 2*60*60*1e9))
	write("new")
	if has("old") || !has("day") || !has("new") {
		t.Errorf("after %v: old %v (want expired), day %v, new %v", campaign.KeyLifetime, has("old"), has("day"), has("new"))
	}
}
