package campaign_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/internal/testdb"
	"github.com/coalition-wargame/coalition/store"
)

// recorder keeps what the service reports to its metrics.
type recorder struct {
	mu      sync.Mutex
	locks   []campaign.LockRecord
	backups []campaign.BackupRecord
	sweeps  []campaign.SweepRecord
}

func (r *recorder) Lock(l campaign.LockRecord) {
	r.mu.Lock()
	r.locks = append(r.locks, l)
	r.mu.Unlock()
}
func (r *recorder) Backup(b campaign.BackupRecord) {
	r.mu.Lock()
	r.backups = append(r.backups, b)
	r.mu.Unlock()
}
func (r *recorder) Sweep(s campaign.SweepRecord) {
	r.mu.Lock()
	r.sweeps = append(r.sweeps, s)
	r.mu.Unlock()
}

// Issue 16.4: a sweep that locks several turns backs the database up once, before them all,
// not once a lock; the backup is a checked one; the metrics hear of every lock (with its lag
// behind its lock time), the backup (with its size) and the sweep.
func TestOneBackupPerSweep(t *testing.T) {
	if testdb.Postgres(os.Getenv) {
		t.Skip("backups are SQLite's")
	}
	f := newFixture(t)
	ids := []int64{f.campaign(), f.another("Second"), f.another("Third")}
	v, _ := f.svc.Turn(ctx, campaign.Actor{}, ids[0], 1)
	f.clock.Set(v.LockAt.Add(90 * time.Second))
	rec := &recorder{}
	dir := filepath.Join(t.TempDir(), "backups")
	svc := campaign.NewService(f.db, campaign.Options{Clock: f.clock.Now, Rand: newRand(), PasswordCost: 4, Log: quiet,
		BackupDir: dir, BackupKeep: 5, SweepMetrics: rec})
	got, err := svc.LockDue(ctx)
	if err != nil || len(got) != 3 {
		t.Fatalf("%+v %v", got, err)
	}
	for _, o := range got {
		if o.Error != "" {
			t.Errorf("%+v", o)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 1 {
		t.Fatalf("%d files in the backup folder after a sweep of 3 locks, want 1 backup: %v", len(files), files)
	}
	if err := store.CheckFile(ctx, files[0], true); err != nil {
		t.Error(err)
	}
	if len(rec.locks) != 3 || len(rec.backups) != 1 || len(rec.sweeps) != 1 {
		t.Fatalf("metrics: %d locks, %d backups, %d sweeps", len(rec.locks), len(rec.backups), len(rec.sweeps))
	}
	for _, l := range rec.locks {
		if l.Outcome != "locked" || !l.Scheduled || l.Lag != 90*time.Second {
			t.Errorf("lock record %+v", l)
		}
	}
	fi, _ := os.Stat(files[0])
	if b := rec.backups[0]; b.Err != nil || b.Size != fi.Size() {
		t.Errorf("backup record %+v, the file has %d bytes", b, fi.Size())
	}
	if s := rec.sweeps[0]; s.Due != 3 || s.Locked != 3 || s.Failed != 0 || s.Overdue != 0 {
		t.Errorf("sweep record %+v", s)
	}
	// nothing due: no backup
	if _, err := svc.LockDue(ctx); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 1 || len(rec.backups) != 1 {
		t.Errorf("a sweep with nothing due made a backup: %v", files)
	}
}

// backingStore is a stallingStore that backs up as the real store does.
type backingStore struct {
	*stallingStore
	db *store.DB
}

func (b backingStore) Backup(ctx context.Context, dir string, keep int, at time.Time) (campaign.BackupFile, error) {
	return b.db.Backup(ctx, dir, keep, at)
}

func (b backingStore) CleanBackups(ctx context.Context, dir string) (campaign.BackupClean, error) {
	return b.db.CleanBackups(ctx, dir)
}

// R96: a sweep that only retries locks that failed in the sweep before makes no new backup
// until an hour has passed since the last one, so that a lock waiting for a judge does not fill
// the backup folder with a copy a minute; a turn newly due makes one at once.
func TestFailingLockIsRetriedWithoutABackupAMinute(t *testing.T) {
	if testdb.Postgres(os.Getenv) {
		t.Skip("backups are SQLite's")
	}
	f := newFixture(t)
	stuck := f.campaign()
	v, _ := f.svc.Turn(ctx, campaign.Actor{}, stuck, 1)
	f.clock.Set(v.LockAt)
	dir := filepath.Join(t.TempDir(), "backups")
	st := backingStore{&stallingStore{Store: f.db, campaign: stuck, where: "fail"}, f.db}
	svc := campaign.NewService(st, campaign.Options{Clock: f.clock.Now, Rand: newRand(), PasswordCost: 4, Log: quiet, BackupDir: dir, BackupKeep: 50})
	count := func() int { m, _ := filepath.Glob(filepath.Join(dir, "coalition-*.db")); return len(m) }
	sweep := func() {
		t.Helper()
		got, err := svc.LockDue(ctx)
		if err != nil || len(got) == 0 || got[0].Error == "" {
			t.Fatalf("%+v %v, want the stuck lock's failure", got, err)
		}
	}
	sweep()
	for range 5 {
		f.clock.Set(f.clock.Now().Add(time.Minute))
		sweep()
	}
	if n := count(); n != 1 {
		t.Errorf("%d backups after six failing sweeps in five minutes, want 1", n)
	}
	f.clock.Set(f.clock.Now().Add(time.Hour))
	sweep()
	if n := count(); n != 2 {
		t.Errorf("%d backups an hour later, want 2", n)
	}
	other := f.another("Newly due")
	ov, _ := f.svc.Turn(ctx, campaign.Actor{}, other, 1)
	f.clock.Set(ov.LockAt)
	if _, err := svc.LockDue(ctx); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 3 {
		t.Errorf("%d backups after a turn newly due, want 3", n)
	}
}
