// Command loadtest is make loadtest (issue 16): it builds the server, starts it on a temporary
// database with the demo campaign and a minimal baseline server (echo + gorm + SQLite doing the
// least the same requests need), runs each scenario on both alternately, and prints each figure
// as a ratio to the baseline with p50, p99 and the load average; then a deadline rush of posts
// with retries under the same Idempotency-Key. `loadtest baseline` is the baseline server.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/coalition-wargame/coalition/internal/loadtest"
)

func main() {
	var err error
	if len(os.Args) > 1 && os.Args[1] == "baseline" {
		err = baseline(os.Args[2:])
	} else {
		err = report(os.Args[1:])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

func report(args []string) error {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	d := fs.Duration("d", 4*time.Second, "how long each run lasts")
	rounds := fs.Int("rounds", 3, "runs of each server per scenario, alternately")
	only := fs.String("only", "posts,map304,map200,map304-player,rush", "the scenarios to run, comma-separated")
	rush := fs.Int("rush", 10000, "posts in the rush")
	keep := fs.Bool("keep", false, "keep the temporary folder (databases and logs)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	dir, err := os.MkdirTemp("", "coalition-loadtest-")
	if err != nil {
		return err
	}
	if *keep {
		fmt.Println("temporary folder:", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	bin := filepath.Join(dir, "coalition")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/coalition")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building the server (run from the repository's root): %w", err)
	}
	env := &loadtest.Env{Coalition: bin, Baseline: []string{self, "baseline"}, Dir: dir, Client: loadtest.NewClient(128)}
	defer env.Close()
	fmt.Printf("loadtest: %d CPUs, %s, each figure %d × %v a server, alternately; load average %s\n", runtime.NumCPU(), runtime.Version(), *rounds, *d, loadtest.LoadAverage())
	all := map[string]loadtest.Scenario{
		"posts":         loadtest.Posts{Clients: 64},
		"map304":        loadtest.Map{Clients: 32, NotModified: true},
		"map200":        loadtest.Map{Clients: 32},
		"map304-player": loadtest.Map{Clients: 32, NotModified: true, LoggedIn: true},
	}
	var scenarios []loadtest.Scenario
	want := strings.Split(*only, ",")
	for _, name := range want {
		if s, ok := all[name]; ok {
			scenarios = append(scenarios, s)
		} else if name != "rush" {
			return fmt.Errorf("-only: no scenario %q", name)
		}
	}
	if _, err := loadtest.Report(ctx, env, scenarios, loadtest.Options{Rounds: *rounds, Duration: *d, Out: os.Stdout}); err != nil {
		return err
	}
	for _, name := range want {
		if name == "rush" {
			if err := runRush(ctx, env, *rush); err != nil {
				return err
			}
		}
	}
	return nil
}

// runRush sends the rush to the real server and checks what it stored.
func runRush(ctx context.Context, env *loadtest.Env, n int) error {
	real, err := env.Real(ctx)
	if err != nil {
		return err
	}
	judge, turnPosts, err := env.JudgeToken(ctx)
	if err != nil {
		return err
	}
	// the posts still on their way from an earlier scenario (cut off at its end) land first
	before, err := loadtest.PostIDs(ctx, env.Client, real.URL+turnPosts, judge)
	for err == nil {
		time.Sleep(500 * time.Millisecond)
		var again map[int64]bool
		if again, err = loadtest.PostIDs(ctx, env.Client, real.URL+turnPosts, judge); err == nil && len(again) == len(before) {
			break
		}
		before = again
	}
	if err != nil {
		return err
	}
	load := loadtest.LoadAverage()
	res := loadtest.Rush(ctx, loadtest.RushConfig{URL: real.URL, Path: real.PostPath, Posters: real.Posters, Posts: n, Clients: 64, Resend: 0.1, Run: fmt.Sprint(time.Now().UnixNano()), Client: env.Client})
	after, err := loadtest.PostIDs(ctx, env.Client, real.URL+turnPosts, judge)
	if err != nil {
		return err
	}
	check := res.Check(before, after)
	m := loadtest.Measure{Requests: len(res.Latencies), Elapsed: res.Elapsed, Latencies: res.Latencies}
	verdict := "met"
	if !check.OK() {
		verdict = "NOT MET"
	}
	fmt.Printf("%-26s %s; %d keys sent twice, %d answers replayed   goal: rows = acknowledged, 0 duplicates, 0 errors: %s   (load average %s → %s)\n",
		fmt.Sprintf("rush, %d posts, 64 clients", n), check, res.Resent, res.Replayed, verdict, load, loadtest.LoadAverage())
	fmt.Printf("    coalition  %8.0f/s  p50 %-9v p99 %v\n", m.Rate(), m.Quantile(0.5).Round(time.Millisecond), m.Quantile(0.99).Round(time.Millisecond))
	if res.FirstError != "" {
		fmt.Printf("    first error: %.300s\n", res.FirstError)
	}
	return nil
}
