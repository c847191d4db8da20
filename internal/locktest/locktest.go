// Package locktest measures the lock sweep at scale (issue 16): many campaigns due in the same
// minute on one SQLite file, locked by one sweep of the scheduler with its backup, as the
// server runs it. `make loadtest-locks` runs it for 1,000 campaigns; Run and Harness are the
// reusable harness, which wires store and campaign as cmd does.
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

// Config says what New builds and Sweep sweeps.
type Config struct {
	// Campaigns is how many campaigns fall due in the same minute: 1,000 by default.
	Campaigns int
	// Dir holds the database and its backups; a temporary folder, removed after, by default.
	Dir string
	// Workers is the sweep's LockWorkers: the server's default (2) when 0.
	Workers int
	// NoBackup turns off the backup before the sweep, which the server makes.
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
	// FirstLocks and LastLocks are the mean time of the first and the last tenth of the locks,
	// which shows whether a lock costs more as the sweep goes on.
	FirstLocks, LastLocks time.Duration
	// Load is the machine's load average when the sweep ended (Linux), "" elsewhere.
	Load string
	// Errors are the first few lock failures.
	Errors []string
}

func (r Result) String() string {
	return fmt.Sprintf("%d campaigns due in one minute: %d locked, %d failed in %s (backup %s, %.1f MB; database %.1f MB; a lock %s first, %s last; setup %s; load %s)",
		r.Campaigns, r.Locked, r.Failed, r.Sweep.Round(time.Millisecond), r.Backup.Round(time.Millisecond), float64(r.BackupBytes)/1e6,
		float64(r.DBBytes)/1e6, r.FirstLocks.Round(100*time.Microsecond), r.LastLocks.Round(100*time.Microsecond), r.Setup.Round(time.Second), r.Load)
}

// clock is the harness's clock: the campaigns are made before their lock, swept after it.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// recorder keeps what the service says of its locks and its backup.
type recorder struct {
	mu     sync.Mutex
	locks  []time.Duration
	backup campaign.BackupRecord
}

func (r *recorder) Lock(l campaign.LockRecord) {
	r.mu.Lock()
	r.locks = append(r.locks, l.Took)
	r.mu.Unlock()
}

func (r *recorder) Sweep(campaign.SweepRecord) {}

func (r *recorder) Backup(b campaign.BackupRecord) {
	r.mu.Lock()
	r.backup = b
	r.mu.Unlock()
}

// Harness is a database of campaigns that all lock at the same minute, and the service that
// sweeps them: each Sweep moves the clock to the next turns' lock and sweeps once.
type Harness struct {
	cfg   Config
	db    *store.DB
	svc   *campaign.Service
	clk   *clock
	rec   *recorder
	path  string
	due   time.Time
	clean func()
	// Setup is the time the campaigns took to create.
	Setup time.Duration
}

// New creates cfg.Campaigns full campaigns (enginetest.Campaign: 102 armies on the rulebook's
// map, sites, battles fought this turn) on a fresh SQLite file, all locking at the same minute.
// Close removes what it made.
func New(ctx context.Context, cfg Config) (*Harness, error) {
	if cfg.Campaigns <= 0 {
		cfg.Campaigns = 1000
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	h := &Harness{cfg: cfg, clean: func() {}}
	if cfg.Dir == "" {
		dir, err := os.MkdirTemp("", "locktest-")
		if err != nil {
			return nil, err
		}
		h.clean = func() { os.RemoveAll(dir) }
		h.cfg.Dir = dir
	}
	h.path = filepath.Join(h.cfg.Dir, "coalition.db")
	db, err := store.Open(ctx, h.path, cfg.Log)
	if err != nil {
		h.clean()
		return nil, err
	}
	h.db = db
	h.clk = &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	h.rec = &recorder{}
	opt := campaign.Options{Clock: h.clk.now, Log: cfg.Log, PasswordCost: 4, LockWorkers: cfg.Workers, SweepMetrics: h.rec, BackupKeep: 2}
	if !cfg.NoBackup {
		opt.BackupDir = filepath.Join(h.cfg.Dir, "backups")
	}
	h.svc = campaign.NewService(db, opt)
	if _, err := h.svc.Catalogue(ctx); err != nil {
		h.Close()
		return nil, err
	}
	admin := campaign.Operator("locktest")
	deadline := time.Date(2026, 3, 8, 5, 0, 0, 0, time.UTC)
	start := time.Now()
	for i := range cfg.Campaigns {
		m := enginetest.Map(enginetest.Rand(uint64(i)), enginetest.Campaign())
		if _, err := h.svc.CreateCampaign(ctx, admin, campaign.Setup{Name: fmt.Sprintf("Campaign %d", i+1), Map: m, FirstDeadline: deadline}); err != nil {
			h.Close()
			return nil, fmt.Errorf("campaign %d: %w", i+1, err)
		}
	}
	h.Setup = time.Since(start)
	h.due = deadline.Add(campaign.DefaultSettings.LockDelay)
	return h, nil
}

// Close closes the database and removes what New made.
func (h *Harness) Close() {
	h.db.Close()
	h.clean()
}

// Sweep moves the clock 30 seconds past the next turns' lock time and runs one sweep.
func (h *Harness) Sweep(ctx context.Context) (Result, error) {
	res := Result{Campaigns: h.cfg.Campaigns, Setup: h.Setup}
	if fi, err := os.Stat(h.path); err == nil {
		res.DBBytes = fi.Size()
	}
	if wal, err := os.Stat(h.path + "-wal"); err == nil {
		res.DBBytes += wal.Size()
	}
	h.rec.mu.Lock()
	h.rec.locks = nil
	h.rec.mu.Unlock()
	h.clk.set(h.due.Add(30 * time.Second))
	h.due = h.due.Add(campaign.DefaultSettings.TurnLength)
	start := time.Now()
	out, err := h.svc.LockDue(ctx)
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
	h.rec.mu.Lock()
	res.Backup, res.BackupBytes = h.rec.backup.Took, h.rec.backup.Size
	if n := len(h.rec.locks); n >= 10 {
		res.FirstLocks, res.LastLocks = mean(h.rec.locks[:n/10]), mean(h.rec.locks[n-n/10:])
	}
	h.rec.mu.Unlock()
	res.Load = loadAverage()
	return res, nil
}

// Run creates the campaigns (New), runs one sweep at their lock time and reports what it did
// and took.
func Run(ctx context.Context, cfg Config) (Result, error) {
	h, err := New(ctx, cfg)
	if err != nil {
		return Result{}, err
	}
	defer h.Close()
	return h.Sweep(ctx)
}

func mean(ds []time.Duration) time.Duration {
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return sum / time.Duration(len(ds))
}

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
