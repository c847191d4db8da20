// What the service counts for the metrics (issue 16): posts stored, refused and checked again
// at the commit, the groups they were committed in, and the hot state's hits and misses.

package campaign

import "sync/atomic"

// Stats are the service's counters since it started; package api exports them as metrics.
type Stats struct {
	// PostsStored counts the posts stored; PostsRefused the posts refused before anything was
	// stored (not the lines rejected: a post with rejected lines is stored, 5.4.1).
	PostsStored, PostsRefused atomic.Uint64
	// PostsRechecked counts the posts checked again in the writer's transaction because the
	// state changed between their check and their commit.
	PostsRechecked atomic.Uint64
	// Batches counts the transactions posts were committed in (one sync each).
	Batches atomic.Uint64
	// CacheHits and CacheMisses count the reads of the hot state (a campaign's or an
	// account's) answered from memory and from the store.
	CacheHits, CacheMisses atomic.Uint64
}

// Stats are the service's counters.
func (s *Service) Stats() *Stats { return &s.stats }
