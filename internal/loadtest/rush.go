// The deadline rush (issue 16): many posts from many clients at once, a share of them sent
// again under the same Idempotency-Key, and the check that the server stored each acknowledged
// post once and nothing else.

package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// Poster is who posts what in a rush: a bearer token and a post's body.
type Poster struct {
	Token string
	Body  []byte
}

// RushConfig is a deadline rush: Posts posts sent by Clients clients at once, every tenth
// (Resend 0.1) sent twice under one Idempotency-Key — half of those while the first is on its
// way, as a client that timed out would, half after its answer.
type RushConfig struct {
	// URL is the server's base URL; Path the posts route (/api/campaigns/1/posts).
	URL, Path string
	// Posters post in turn: client i's n-th post is Posters[(i+n) % len]'s.
	Posters []Poster
	Posts   int
	Clients int
	// Resend is the share of posts sent twice, from 0 to 1.
	Resend float64
	// Run names the rush's keys, so that two rushes on one server use different ones.
	Run    string
	Client *http.Client
}

// RushResult is what a rush got back.
type RushResult struct {
	// Acknowledged are the posts answered 201 (once per key), by post id.
	Acknowledged map[int64]bool
	// Resent counts the keys sent twice; Replayed the answers marked Idempotent-Replayed.
	Resent, Replayed int
	// Mismatched counts the keys whose two answers named different posts: duplicates.
	Mismatched int
	// Errors counts the answers that were not 201 and the requests that failed.
	Errors     int
	FirstError string
	Elapsed    time.Duration
	Latencies  []time.Duration
}

// Rush sends the posts and gathers the answers.
func Rush(ctx context.Context, cfg RushConfig) *RushResult {
	out := &RushResult{Acknowledged: map[int64]bool{}}
	var mu sync.Mutex
	jobs := make(chan int)
	every := 0
	if cfg.Resend > 0 {
		every = max(1, int(1/cfg.Resend+0.5))
	}
	start := time.Now()
	var wg sync.WaitGroup
	for range cfg.Clients {
		wg.Go(func() {
			for i := range jobs {
				p := cfg.Posters[i%len(cfg.Posters)]
				key := fmt.Sprintf("rush-%s-%d", cfg.Run, i)
				twice := every > 0 && i%every == 0
				var a, b answer
				switch {
				case twice && (i/every)%2 == 0:
					// the retry races the first request
					var w sync.WaitGroup
					w.Go(func() { a = postOnce(ctx, cfg, p, key) })
					b = postOnce(ctx, cfg, p, key)
					w.Wait()
				case twice:
					a = postOnce(ctx, cfg, p, key)
					b = postOnce(ctx, cfg, p, key)
				default:
					a = postOnce(ctx, cfg, p, key)
				}
				mu.Lock()
				out.note(a)
				if twice {
					out.Resent++
					out.note(b)
					if a.err == "" && b.err == "" && a.id != b.id {
						out.Mismatched++
					}
				}
				mu.Unlock()
			}
		})
	}
	for i := range cfg.Posts {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	out.Elapsed = time.Since(start)
	return out
}

// answer is one answer of a rush.
type answer struct {
	id       int64
	replayed bool
	latency  time.Duration
	err      string
}

func (r *RushResult) note(a answer) {
	if a.err != "" {
		r.Errors++
		if r.FirstError == "" {
			r.FirstError = a.err
		}
		return
	}
	r.Acknowledged[a.id] = true
	r.Latencies = append(r.Latencies, a.latency)
	if a.replayed {
		r.Replayed++
	}
}

func postOnce(ctx context.Context, cfg RushConfig, p Poster, key string) answer {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.URL+cfg.Path, bytes.NewReader(p.Body))
	if err != nil {
		return answer{err: err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+p.Token)
	req.Header.Set("Idempotency-Key", key)
	t := time.Now()
	res, err := cfg.Client.Do(req)
	if err != nil {
		return answer{err: err.Error()}
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	lat := time.Since(t)
	if err != nil {
		return answer{err: err.Error()}
	}
	if res.StatusCode != http.StatusCreated {
		return answer{err: fmt.Sprintf("%d %s", res.StatusCode, body)}
	}
	var v struct {
		Post struct {
			ID int64 `json:"id"`
		} `json:"post"`
	}
	if err := json.Unmarshal(body, &v); err != nil || v.Post.ID == 0 {
		return answer{err: fmt.Sprintf("an answer without a post: %s", body)}
	}
	return answer{id: v.Post.ID, replayed: res.Header.Get("Idempotent-Replayed") == "true", latency: lat}
}

// PostIDs lists the ids of a turn's posts as a judge sees them (GET …/turns/{n}/posts).
func PostIDs(ctx context.Context, hc *http.Client, url, token string) (map[int64]bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		return nil, fmt.Errorf("GET %s: %d %s", url, res.StatusCode, b)
	}
	var posts []struct {
		ID int64 `json:"id"`
	}
	if err := json.NewDecoder(res.Body).Decode(&posts); err != nil {
		return nil, err
	}
	out := make(map[int64]bool, len(posts))
	for _, p := range posts {
		out[p.ID] = true
	}
	return out, nil
}

// RushCheck is the rush's outcome on the server: the rows stored by the rush against the posts
// acknowledged.
type RushCheck struct {
	// Rows are the posts stored during the rush; Acknowledged the posts answered 201.
	Rows, Acknowledged int
	// Duplicates are the rows stored but never acknowledged, and the keys answered with two
	// different posts.
	Duplicates int
	// Missing are the acknowledged posts not stored.
	Missing int
	Errors  int
}

// Check compares what the server stored during the rush (after less before) with its answers.
func (r *RushResult) Check(before, after map[int64]bool) RushCheck {
	c := RushCheck{Acknowledged: len(r.Acknowledged), Errors: r.Errors, Duplicates: r.Mismatched}
	for id := range after {
		if before[id] {
			continue
		}
		c.Rows++
		if !r.Acknowledged[id] {
			c.Duplicates++
		}
	}
	for id := range r.Acknowledged {
		if !after[id] {
			c.Missing++
		}
	}
	return c
}

// OK reports whether the rush stored exactly the acknowledged posts, once each, without
// errors.
func (c RushCheck) OK() bool {
	return c.Rows == c.Acknowledged && c.Duplicates == 0 && c.Missing == 0 && c.Errors == 0
}

func (c RushCheck) String() string {
	return fmt.Sprintf("%d rows for %d acknowledged posts, %d duplicates, %d missing, %d errors", c.Rows, c.Acknowledged, c.Duplicates, c.Missing, c.Errors)
}
