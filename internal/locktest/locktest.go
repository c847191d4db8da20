// Package locktest measures the lock sweep at scale (issue 16): many campaigns due in the same
// minute on one SQLite file, locked by one sweep of the scheduler with its backup, as the
// server runs it. `make loadtest-locks` runs it for 1,000 campaigns; Run is the reusable
// harness, which wires store and campaign as cmd does.
package locktest

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/internal/enginetest"
	"github.com/coalition-wargame/coalition/store"
)

// Config says what Run builds and sweeps.
type Config struct {
	// Campaigns is how many campaigns fall due in the same minute: 1,000 by default.
	Campaigns int
	// Dir holds the database and its backups; a temporary folder, removed after, by default.
	Dir string
	// Workers is the sweep's LockWorkers: the server's default (2) when 0.
	Workers int
	// Backups turns the backup before the sweep on, as the server has it: on unless NoBackup.
	NoBackup bool
	// Log receives the service's log; none by default.
	Log *slog.Logger
}

// Result is what a sweep did and took.
type Result struct {
	Campaigns, Locked, Failed int
	// Setup is the time the campaigns took to create; Sweep the one sweep that locked them
	// (its backup included), Backup the backup alone.
	Setup, Sweep, Backup time.Duration
	// DBBytes is the database's size before the sweep, BackupBytes the backup's.
	DBBytes, BackupBytes int64
	// Load is the machine's load average when the sweep ended (Linux), "" elsewhere.
	Load string
	// Errors are the first few lock failures.
	Errors []string
}

func (r Result) String() string {
	return fmt.Sprintf("%d campaigns due in one minute: %d locked, %d failed in %s (backup %s, %.1f MB; database %.1f MB; setup %s; load %s)",
		r.Campaigns, r.Locked, r.Failed, r.Sweep.Round(time.Millisecond), r.Backup.Round(time.Millisecond), float64(r.BackupBytes)/1e6,
		float64(r.DBBytes)/1e6, r.Setup.Round(time.Second), r.Load)
}

// clock is the harness's clock: the campaigns are made before their lock, swept after it.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// backups keeps what the service says of its backup.
type backups struct {
	mu   sync.Mutex
	last campaign.BackupRecord
}

func (b *backups) Lock(campaign.LockRecord)       {}
func (b *backups) Sweep(campaign.SweepRecord)     {}
func (b *backups) Backup(r campaign.BackupRecord) { b.mu.Lock(); b.last = r; b.mu.Unlock() }

// Run creates cfg.Campaigns full campaigns (enginetest.Campaign: 102 armies on the rulebook's
// map, sites, battles fought this turn) on a fresh SQLite file, all locking at the same minute,
// then runs one sweep of the scheduler at that minute and reports what it did and took.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if cfg.Campaigns <= 0 {
		cfg.Campaigns = 1000
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Dir == "" {
		dir, err := os.MkdirTemp("", "locktest-")
		if err != nil {
			return Result{}, err
		}
		defer os.RemoveAll(dir)
		cfg.Dir = dir
	}
	path := filepath.Join(cfg.Dir, "coalition.db")
	db, err := store.Open(ctx, path, cfg.Log)
	if err != nil {
		return Result{}, err
	}
	defer db.Close()
	clk := &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	rec := &backups{}
	opt := campaign.Options{Clock: clk.now, Log: cfg.Log, PasswordCost: 4, LockWorkers: cfg.Workers, SweepMetrics: rec, BackupKeep: 2}
	if !cfg.NoBackup {
		opt.BackupDir = filepath.Join(cfg.Dir, "backups")
	}
	svc := campaign.NewService(db, opt)
	if _, err := svc.Catalogue(ctx); err != nil {
		return Result{}, err
	}
	admin := campaign.Operator("locktest")
	deadline := time.Date(2026, 3, 8, 5, 0, 0, 0, time.UTC)
	start := time.Now()
	for i := range cfg.Campaigns {
		m := enginetest.Map(enginetest.Rand(uint64(i)), setup())
		if _, err := svc.CreateCampaign(ctx, admin, campaign.Setup{Name: fmt.Sprintf("Campaign %d", i+1), Map: m, FirstDeadline: deadline}); err != nil {
			return Result{}, fmt.Errorf("campaign %d: %w", i+1, err)
		}
	}
	res := Result{Campaigns: cfg.Campaigns, Setup: time.Since(start)}
	if fi, err := os.Stat(path); err == nil {
		res.DBBytes = fi.Size()
	}
	if wal, err := os.Stat(path + "-wal"); err == nil {
		res.DBBytes += wal.Size()
	}
	clk.set(deadline.Add(campaign.DefaultSettings.LockDelay).Add(30 * time.Second))
	start = time.Now()
	out, err := svc.LockDue(ctx)
	res.Sweep = time.Since(start)
	if err != nil {
		return res, err
	}
	for _, o := range out {
		if o.Error != "" {
			res.Failed++
			if len(res.Errors) < 5 {
				res.Errors = append(res.Errors, fmt.Sprintf("campaign %d turn %d: %s", o.Campaign, o.Turn, o.Error))
			}
			continue
		}
		res.Locked++
	}
	res.Backup, res.BackupBytes = rec.last.Took, rec.last.Size
	res.Load = loadAverage()
	return res, nil
}

// setup is the campaigns' map: a full campaign, its battles settled at the lock (B2).
func setup() enginetest.Config { return enginetest.Campaign() }

// loadAverage is /proc/loadavg's first three figures, or "" where there is none.
func loadAverage() string {
	if runtime.GOOS != "linux" {
		return ""
	}
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}
