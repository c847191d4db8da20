// The group commit of posts (issue 16): posts checked on the hot state wait together for the one
// writer, which commits them in one transaction — one sync to the disk for the group — after
// checking that the state they were checked on is still the current one.

package campaign

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/coalition-wargame/coalition/domain"
)

// maxBatch bounds the posts of one transaction.
const maxBatch = 256

// postJob is one post on its way to the writer: checked at a state version, stored with its
// answer, or refused.
type postJob struct {
	a   Actor
	id  int64
	req PostRequest
	at  time.Time
	// version is the state version the post was checked at; t, p and lines what the check gave.
	version int64
	t       *Turn
	p       *Post
	lines   []LineOutcome
	claim   *Claim

	out *PostOutcome
	err error
	// lead tells a waiting job to commit the queue; done that it was committed or refused.
	lead, done chan struct{}
}

// batcher queues the posts for the writer. The first post to find it idle commits the queue;
// the others wait, and when a group is committed the first of the next one leads it.
type batcher struct {
	mu    sync.Mutex
	queue []*postJob
	busy  bool
	// writing is the size of the group being committed.
	writing int
}

// Waiting is the number of posts checked and waiting for their commit, the group being
// committed included.
func (s *Service) Waiting() int {
	s.batch.mu.Lock()
	defer s.batch.mu.Unlock()
	return len(s.batch.queue) + s.batch.writing
}

// commit stores j with the posts that wait with it, and returns when it is stored or refused.
func (s *Service) commit(j *postJob) {
	j.lead, j.done = make(chan struct{}, 1), make(chan struct{})
	b := &s.batch
	b.mu.Lock()
	b.queue = append(b.queue, j)
	if b.busy {
		b.mu.Unlock()
		select {
		case <-j.done:
			return
		case <-j.lead:
		}
	} else {
		b.busy = true
		b.mu.Unlock()
	}
	s.lead()
	<-j.done
}

// lead commits the queue's first group and hands the rest to the first post waiting in it.
func (s *Service) lead() {
	b := &s.batch
	b.mu.Lock()
	n := min(len(b.queue), maxBatch)
	group := b.queue[:n:n]
	b.queue = b.queue[n:]
	b.writing = n
	b.mu.Unlock()

	s.writeGroup(group)
	for _, j := range group {
		close(j.done)
	}

	b.mu.Lock()
	defer b.mu.Unlock()
	b.writing = 0
	if len(b.queue) == 0 {
		b.busy = false
		b.queue = nil
		return
	}
	b.queue[0].lead <- struct{}{}
}

// writeGroup stores a group of posts in one transaction: each kind of row (posts, audit
// entries, idempotency records) in one statement. A post whose state changed since its check
// is checked again on the transaction's view; a refusal is that post's alone. When the
// transaction fails, each post is tried again on its own, so that none fails for another.
func (s *Service) writeGroup(group []*postJob) {
	now := s.now()
	err := s.store.Write(quietly(context.Background()), func(tx Tx) error {
		current, err := tx.StateVersion()
		if err != nil {
			return err
		}
		var ok []*postJob
		for _, j := range group {
			j.out, j.err = nil, nil
			if j.version != current {
				if err := s.recheck(tx, j, current); err != nil {
					return err
				}
				if j.err != nil {
					continue
				}
			}
			ok = append(ok, j)
		}
		return s.storeGroup(tx, ok, now)
	})
	if err == nil {
		s.stats.Batches.Add(1)
		for _, j := range group {
			if j.err != nil {
				s.stats.PostsRefused.Add(1)
				continue
			}
			s.stats.PostsStored.Add(1)
			if j.claim != nil {
				j.claim.markRecorded(j.claim.Render != nil)
			}
		}
		return
	}
	if len(group) > 1 {
		for _, j := range group {
			s.writeGroup([]*postJob{j})
		}
		return
	}
	group[0].out, group[0].err = nil, err
	s.stats.PostsRefused.Add(1)
}

// recheck checks a post again on tx's view, the state having moved on since its check. A
// refusal of the rules is the post's (j.err); anything else fails the group.
func (s *Service) recheck(tx Tx, j *postJob, current int64) error {
	s.stats.PostsRechecked.Add(1)
	t, p, lines, err := s.preparePost(tx, j.a, j.id, j.req, j.at)
	var de *domain.Error
	if errors.As(err, &de) {
		j.err = err
		return nil
	}
	if err != nil {
		return err
	}
	j.t, j.p, j.lines, j.version = t, p, lines, current
	return nil
}

// storeGroup stores the group's posts, then their answers under their idempotency keys and
// their audit entries, each kind in one statement.
func (s *Service) storeGroup(tx Tx, group []*postJob, now time.Time) error {
	if len(group) == 0 {
		return nil
	}
	posts := make([]*Post, len(group))
	for i, j := range group {
		p := *j.p
		posts[i] = &p
	}
	if err := tx.CreatePosts(posts); err != nil {
		return err
	}
	var keys []*IdempotencyRecord
	audits := make([]*AuditEntry, len(group))
	for i, j := range group {
		p := posts[i]
		j.out = &PostOutcome{Post: viewPost(p, true), Lines: j.lines}
		if j.claim != nil {
			rec, err := j.claim.recordOf(now, j.out)
			if err != nil {
				return err
			}
			keys = append(keys, rec)
		}
		audits[i] = &AuditEntry{CampaignID: j.id, At: now, Actor: j.a.Name(), Action: "post.create", IP: j.a.IP,
			Detail: fmt.Sprintf("post %d in turn %d (%d lines, private: %v)", p.ID, j.t.Number, len(j.lines), p.Private)}
	}
	if len(keys) > 0 {
		// a key of this group taken meanwhile (by another server) fails the group: its posts
		// are tried one by one, and that one is refused
		if err := tx.PutIdempotencies(keys); err != nil {
			return err
		}
		if err := s.expireKeys(tx); err != nil {
			return err
		}
	}
	return tx.AddAudits(audits)
}
