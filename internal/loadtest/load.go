// Package loadtest is the load harness of make loadtest (issue 16 item 7): it starts the real
// server and a minimal baseline server (cmd/loadtest), puts the same load on each in turn, and
// reports every figure as a ratio to the baseline with its p50 and p99 and the machine's load
// average; and it drives a deadline rush of posts with retries under the same Idempotency-Key.
// It speaks HTTP only, so that it measures the servers as clients see them.
package loadtest

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// NewClient is an HTTP client for n concurrent clients: one kept-alive connection each.
func NewClient(n int) *http.Client {
	t := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        n,
		MaxIdleConnsPerHost: n,
		MaxConnsPerHost:     n,
		IdleConnTimeout:     time.Minute,
	}
	return &http.Client{Transport: t, Timeout: 30 * time.Second}
}

// Measure is what a run of load on one server gave: how many requests were answered as
// expected in how long, their latencies, and the failures.
type Measure struct {
	Requests  int
	Errors    int
	Elapsed   time.Duration
	Latencies []time.Duration
	// CPU is the CPU time the server's process used meanwhile: the work per request, which
	// the load of other processes on the machine does not inflate as it does the rate.
	CPU time.Duration
	// FirstError says what the first failure was.
	FirstError string
}

// Rate is the requests answered as expected per second.
func (m Measure) Rate() float64 {
	if m.Elapsed <= 0 {
		return 0
	}
	return float64(m.Requests) / m.Elapsed.Seconds()
}

// Quantile is the latency below which the fraction q of the requests were answered.
func (m Measure) Quantile(q float64) time.Duration {
	if len(m.Latencies) == 0 {
		return 0
	}
	s := slices.Clone(m.Latencies)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// CPUPerRequest is the server's CPU time per request answered.
func (m Measure) CPUPerRequest() time.Duration {
	if m.Requests == 0 {
		return 0
	}
	return m.CPU / time.Duration(m.Requests)
}

// add puts another run's measure with this one.
func (m *Measure) add(o Measure) {
	m.CPU += o.CPU
	m.Requests += o.Requests
	m.Errors += o.Errors
	m.Elapsed += o.Elapsed
	m.Latencies = append(m.Latencies, o.Latencies...)
	if m.FirstError == "" {
		m.FirstError = o.FirstError
	}
}

// Request makes client i's n-th request.
type Request func(client, n int) (*http.Request, error)

// Load runs clients closed loops of requests for d: each client sends its next request when
// the last is answered. want is the status every answer should have.
func Load(ctx context.Context, hc *http.Client, clients int, d time.Duration, want int, req Request) Measure {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var mu sync.Mutex
	var total Measure
	start := time.Now()
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			var m Measure
			m.Latencies = make([]time.Duration, 0, 1024)
			for n := 0; ctx.Err() == nil; n++ {
				r, err := req(c, n)
				if err != nil {
					m.fail(err.Error())
					continue
				}
				t := time.Now()
				status, err := send(hc, r.WithContext(ctx))
				if ctx.Err() != nil {
					break // the run ended: the last request does not count
				}
				switch {
				case err != nil:
					m.fail(err.Error())
				case status != want:
					m.fail(fmt.Sprintf("%s %s: %d, want %d", r.Method, r.URL.Path, status, want))
				default:
					m.Requests++
					m.Latencies = append(m.Latencies, time.Since(t))
				}
			}
			mu.Lock()
			total.add(m)
			mu.Unlock()
		})
	}
	wg.Wait()
	total.Elapsed = time.Since(start)
	return total
}

func (m *Measure) fail(msg string) {
	m.Errors++
	if m.FirstError == "" {
		m.FirstError = msg
	}
}

// send sends a request and reads its whole answer.
func send(hc *http.Client, r *http.Request) (int, error) {
	res, err := hc.Do(r)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		return 0, err
	}
	return res.StatusCode, nil
}

// ProcessCPU is the CPU time (user and system) process pid has used, from /proc/PID/stat;
// 0 where it cannot be read.
func ProcessCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// the fields after the command's name, which is in parentheses and may hold spaces
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	var ticks int64
	for _, s := range f[11:13] { // utime, stime
		var n int64
		fmt.Sscan(s, &n)
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicks
}

// clockTicks is the kernel's USER_HZ: 100 on Linux.
const clockTicks = 100

// LoadAverage is the machine's load average over 1, 5 and 15 minutes (/proc/loadavg), or "?"
// where it cannot be read.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
