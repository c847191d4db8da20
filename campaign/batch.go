// The group commit of posts (issue 16): posts checked on the hot state wait together for the one
// writer, which commits them in one transaction — one sync to the disk for the group — after
// checking that the state they were checked on is still the current one.

package campaign

import (
	"context"
	"errors"
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

// writeGroup stores a group of posts in one transaction. A post whose state changed since its
// check is checked again on the transaction's view; a refusal is that post's alone. When the
// transaction fails, each post is tried again on its own, so that none fails for another.
func (s *Service) writeGroup(group []*postJob) {
	now := s.now()
	err := s.store.Write(quietly(context.Background()), func(tx Tx) error {
		current, err := tx.StateVersion()
		if err != nil {
			return err
		}
		for _, j := range group {
			if err := s.storePost(tx, j, current, now); err != nil {
				return err
			}
		}
		return nil
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

// storePost stores one post of a group in tx, checking it again first if the state moved on
// since its check. A refusal of the rules is the post's (j.err); anything else fails the group.
func (s *Service) storePost(tx Tx, j *postJob, current int64, now time.Time) error {
	j.out, j.err = nil, nil
	if j.version != current {
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
	}
	if j.claim != nil {
		switch _, err := tx.Idempotency(j.claim.Account, j.claim.Key); {
		case err == nil:
			j.err = domain.Errorf(domain.ErrConflict, "a request with the idempotency key %q is already being answered: send it again in a moment to get its answer", j.claim.Key)
			return nil
		case !errors.Is(err, domain.ErrNotFound):
			return err
		}
	}
	p := *j.p
	if err := tx.CreatePost(&p); err != nil {
		return err
	}
	out := &PostOutcome{Post: viewPost(&p, true), Lines: j.lines}
	switch {
	case j.claim != nil && j.claim.Render != nil:
		if err := j.claim.answer(tx, now, out); err != nil {
			return err
		}
	case j.claim != nil:
		if _, err := j.claim.record(tx, now); err != nil {
			return err
		}
	}
	if err := s.audit(tx, j.id, j.a, "post.create", "post %d in turn %d (%d lines, private: %v)", p.ID, j.t.Number, len(j.lines), p.Private); err != nil {
		return err
	}
	j.out = out
	return nil
}
