// The scenarios of the report (issue 16): order posts at 64 clients, the map's 304 and 200 at
// 32, each run on the real server and the baseline in turn; and the runner that alternates them
// and prints each figure as a ratio. A new figure (the lock sweep) is another Scenario.

package loadtest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// Scenario is one figure of the report: a load put on the real server and on the baseline.
type Scenario interface {
	// Name names the figure.
	Name() string
	// Targets starts (or finds) the real server and the baseline the scenario runs on.
	Targets(ctx context.Context, env *Env) (real, base *Target, err error)
	// Run puts the load on one of them for d.
	Run(ctx context.Context, env *Env, t *Target, d time.Duration) (Measure, error)
	// Goal says what the figure should reach; Met whether the measures reach it.
	Goal() string
	Met(real, base Measure) bool
}

// Figure is a scenario's measures on both servers, and the load average around them.
type Figure struct {
	Scenario   Scenario
	Real, Base Measure
	// LoadBefore and LoadAfter are the machine's load averages before and after the runs.
	LoadBefore, LoadAfter string
}

// CPURatio is the baseline's CPU time per request over the real server's: like Ratio, 1 is
// as cheap as the baseline, but this one the other processes on the machine do not sway.
func (f Figure) CPURatio() float64 {
	if f.Real.CPUPerRequest() == 0 {
		return 0
	}
	return float64(f.Base.CPUPerRequest()) / float64(f.Real.CPUPerRequest())
}

// Ratio is the real server's rate over the baseline's.
func (f Figure) Ratio() float64 {
	if f.Base.Rate() == 0 {
		return 0
	}
	return f.Real.Rate() / f.Base.Rate()
}

// Options configure a run of the report.
type Options struct {
	// Rounds is how many times each server runs each scenario, alternately (the first server
	// changes every round); Duration how long each run lasts.
	Rounds   int
	Duration time.Duration
	Out      io.Writer
}

// Report runs every scenario on both servers alternately and prints each figure.
func Report(ctx context.Context, env *Env, scenarios []Scenario, opt Options) ([]Figure, error) {
	var out []Figure
	for _, s := range scenarios {
		real, base, err := s.Targets(ctx, env)
		if err != nil {
			return out, fmt.Errorf("%s: %w", s.Name(), err)
		}
		f := Figure{Scenario: s, LoadBefore: LoadAverage()}
		// a short warm-up of each, not counted
		for _, t := range []*Target{real, base} {
			if _, err := s.Run(ctx, env, t, opt.Duration/4); err != nil {
				return out, fmt.Errorf("%s on %s: %w", s.Name(), t.Name, err)
			}
		}
		for r := range opt.Rounds {
			order := []*Target{real, base}
			if r%2 == 1 {
				order = []*Target{base, real}
			}
			for _, t := range order {
				cpu := ProcessCPU(t.Pid)
				m, err := s.Run(ctx, env, t, opt.Duration)
				if err != nil {
					return out, fmt.Errorf("%s on %s: %w", s.Name(), t.Name, err)
				}
				m.CPU = ProcessCPU(t.Pid) - cpu
				if t == real {
					f.Real.add(m)
				} else {
					f.Base.add(m)
				}
			}
		}
		f.LoadAfter = LoadAverage()
		fmt.Fprintln(opt.Out, f)
		out = append(out, f)
	}
	return out, nil
}

func (f Figure) String() string {
	met := "NOT MET"
	if f.Scenario.Met(f.Real, f.Base) {
		met = "met"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-26s ratio %.2f (by CPU per request %.2f)   goal %s: %s   (load average %s → %s)\n", f.Scenario.Name(), f.Ratio(), f.CPURatio(), f.Scenario.Goal(), met, f.LoadBefore, f.LoadAfter)
	for _, x := range []struct {
		name string
		m    Measure
	}{{"coalition", f.Real}, {"baseline", f.Base}} {
		fmt.Fprintf(&b, "    %-10s %8.0f/s  p50 %-9v p99 %-9v CPU %-8v a request  %d requests, %d errors", x.name, x.m.Rate(), round(x.m.Quantile(0.5)), round(x.m.Quantile(0.99)), round(x.m.CPUPerRequest()), x.m.Requests, x.m.Errors)
		if x.m.FirstError != "" {
			fmt.Fprintf(&b, " (first: %.200s)", x.m.FirstError)
		}
		b.WriteString("\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func round(d time.Duration) time.Duration {
	switch {
	case d > 10*time.Millisecond:
		return d.Round(time.Millisecond)
	case d > 10*time.Microsecond:
		return d.Round(time.Microsecond)
	}
	return d
}

// both is the Targets of the scenarios that share the real server with the demo and the
// baseline.
func both(ctx context.Context, env *Env) (*Target, *Target, error) {
	real, err := env.Real(ctx)
	if err != nil {
		return nil, nil, err
	}
	base, err := env.Base(ctx)
	return real, base, err
}

// Posts posts orders from Clients clients, each post one line the checker accepts, with an
// Idempotency-Key on the real server as the web UI sends (issue 16: ≥ 1,000/s with
// synchronous=FULL, p99 ≤ 250 ms at 64 clients).
type Posts struct{ Clients int }

// Name names the figure.
func (p Posts) Name() string { return fmt.Sprintf("order posts, %d clients", p.Clients) }

// Targets are the real server and the baseline.
func (p Posts) Targets(ctx context.Context, env *Env) (*Target, *Target, error) {
	return both(ctx, env)
}

// Goal is issue 16's.
func (p Posts) Goal() string { return "≥ 1,000/s and p99 ≤ 250 ms (durable: synchronous=FULL)" }

// Met checks the goal.
func (p Posts) Met(real, _ Measure) bool {
	return real.Rate() >= 1000 && real.Quantile(0.99) <= 250*time.Millisecond && real.Errors == 0
}

var keys atomic.Int64

// Run posts for d.
func (p Posts) Run(ctx context.Context, env *Env, t *Target, d time.Duration) (Measure, error) {
	return Load(ctx, env.Client, p.Clients, d, http.StatusCreated, func(c, n int) (*http.Request, error) {
		q := t.Posters[(c+n)%len(t.Posters)]
		req, err := http.NewRequest(http.MethodPost, t.URL+t.PostPath, strings.NewReader(string(q.Body)))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		if q.Token != "" {
			req.Header.Set("Authorization", "Bearer "+q.Token)
		}
		if t.Keys {
			req.Header.Set("Idempotency-Key", fmt.Sprintf("load-%d", keys.Add(1)))
		}
		return req, nil
	}), nil
}

// Map asks for the current map from Clients clients: with the ETag the client has (304, NotModified)
// or without (200, the whole body); anonymously, or as a logged-in player (LoggedIn), whose
// token the real server checks (issue 16: ≥ 0.75 of the baseline serving the same bytes).
type Map struct {
	Clients     int
	NotModified bool
	LoggedIn    bool
}

// Name names the figure.
func (m Map) Name() string {
	s := "map 200"
	if m.NotModified {
		s = "map 304"
	}
	if m.LoggedIn {
		s += " (player)"
	}
	return fmt.Sprintf("%s, %d clients", s, m.Clients)
}

// Targets are the real server and the baseline.
func (m Map) Targets(ctx context.Context, env *Env) (*Target, *Target, error) { return both(ctx, env) }

// Goal is issue 16's.
func (m Map) Goal() string { return "≥ 0.75 of the baseline" }

// Met checks the goal.
func (m Map) Met(real, base Measure) bool {
	return base.Rate() > 0 && real.Rate()/base.Rate() >= 0.75 && real.Errors == 0
}

// Run asks for the map for d.
func (m Map) Run(ctx context.Context, env *Env, t *Target, d time.Duration) (Measure, error) {
	tok := ""
	if m.LoggedIn {
		tok = t.Reader
	}
	_, tag, err := get(ctx, env.Client, t.URL+t.MapPath, tok, "")
	if err != nil {
		return Measure{}, err
	}
	want := http.StatusOK
	if m.NotModified {
		want = http.StatusNotModified
	}
	return Load(ctx, env.Client, m.Clients, d, want, func(c, n int) (*http.Request, error) {
		req, err := http.NewRequest(http.MethodGet, t.URL+t.MapPath, nil)
		if err != nil {
			return nil, err
		}
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		if m.NotModified {
			req.Header.Set("If-None-Match", tag)
		}
		return req, nil
	}), nil
}
