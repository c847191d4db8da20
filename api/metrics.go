// The server's own metrics (issue 16 item 6): posts accepted, refused and replayed, the
// transactions they were committed in, idempotent replays by route, and the hits and misses of
// the hot state and of the encoded maps.

package api

import (
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/coalition-wargame/coalition/campaign"
)

// serverMetrics are the counters the HTTP layer keeps.
type serverMetrics struct {
	// replays counts the answers given again for a retried Idempotency-Key, by route.
	replays *prometheus.CounterVec
	// postReplays counts those of the posts route.
	postReplays atomic.Uint64
	// mapHits and mapMisses count the map bodies served from the cache of encoded maps and
	// made anew; notModified the maps answered 304.
	mapHits, mapMisses, notModified atomic.Uint64
}

// registerMetrics registers the server's and the service's counters.
func (s *Server) registerMetrics(reg prometheus.Registerer, st *campaign.Stats) {
	m := &s.metrics
	m.replays = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "coalition", Name: "idempotent_replays_total",
		Help: "Answers given again to a request retried with the same Idempotency-Key, by route."}, []string{"route"})
	counter := func(name, help string, labels prometheus.Labels, f func() uint64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: "coalition", Name: name, Help: help, ConstLabels: labels},
			func() float64 { return float64(f()) })
	}
	const posts = "Posts of orders: accepted (stored, whatever their lines' outcomes), refused before anything was stored, or replayed for a retried Idempotency-Key."
	const cache = "Reads of a cache: the hot state (a campaign's or an account's, by state version) and the encoded map bodies, answered from memory (hit) or made anew (miss); not_modified counts maps answered 304."
	reg.MustRegister(m.replays,
		counter("posts_total", posts, prometheus.Labels{"outcome": "accepted"}, st.PostsStored.Load),
		counter("posts_total", posts, prometheus.Labels{"outcome": "refused"}, st.PostsRefused.Load),
		counter("posts_total", posts, prometheus.Labels{"outcome": "replayed"}, m.postReplays.Load),
		counter("post_rechecks_total", "Posts checked again in the writer's transaction because the state changed after their check.", nil, st.PostsRechecked.Load),
		counter("post_batches_total", "Transactions posts were committed in, one sync to the disk each (group commit).", nil, st.Batches.Load),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "coalition", Name: "posts_waiting", Help: "Posts checked and waiting for their commit."},
			func() float64 { return float64(s.svc.Waiting()) }),
		counter("cache_requests_total", cache, prometheus.Labels{"cache": "state", "result": "hit"}, st.CacheHits.Load),
		counter("cache_requests_total", cache, prometheus.Labels{"cache": "state", "result": "miss"}, st.CacheMisses.Load),
		counter("cache_requests_total", cache, prometheus.Labels{"cache": "map", "result": "hit"}, m.mapHits.Load),
		counter("cache_requests_total", cache, prometheus.Labels{"cache": "map", "result": "miss"}, m.mapMisses.Load),
		counter("cache_requests_total", cache, prometheus.Labels{"cache": "map", "result": "not_modified"}, m.notModified.Load),
	)
}

// replayed counts an answer given again on route.
func (m *serverMetrics) replayed(route string) {
	m.replays.WithLabelValues(route).Inc()
	if route == postsRoute {
		m.postReplays.Add(1)
	}
}
