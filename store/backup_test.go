package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/internal/testdb"
)

// sqliteOnly skips a test of SQLite's backups on the PostgreSQL pass.
func sqliteOnly(t *testing.T) {
	t.Helper()
	if testdb.Postgres(os.Getenv) {
		t.Skip("backups are SQLite's; PostgreSQL is backed up with pg_dump")
	}
}

// deadPID is the id of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	p, err := os.StartProcess("/bin/true", []string{"true"}, &os.ProcAttr{})
	if err != nil {
		t.Skip("no /bin/true to make a dead process with")
	}
	if _, err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	return p.Pid
}

// Issue 16.4: what a crash during a backup leaves — a partial copy (of any length, empty too)
// and its journal — is removed at start; a file with a backup's name that fails its check (an
// empty or a truncated copy, as the old VACUUM INTO straight to the final name left) or has a
// journal beside it (its copy was cut short) is set aside as NAME.bad; good backups stay, and a partial copy a live process is making is left
// alone.
func TestCleanBackupsRemovesLeftoversAndSetsAsideBadOnes(t *testing.T) {
	sqliteOnly(t)
	db := open(t)
	dir := filepath.Join(t.TempDir(), "backups")
	at := time.Date(2026, 3, 2, 5, 0, 0, 0, time.UTC)
	good, err := db.Backup(ctx, dir, 10, at)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := os.ReadFile(good.Path)
	if err != nil {
		t.Fatal(err)
	}
	dead, live := deadPID(t), os.Getpid()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o640); err != nil {
			t.Fatal(err)
		}
		return p
	}
	partial := write(fmt.Sprintf(".partial-%d-coalition-20260302T060000.000000Z-1234", dead), whole[:len(whole)/2])
	journal := write(filepath.Base(partial)+"-journal", []byte("journal"))
	emptyPartial := write(fmt.Sprintf(".partial-%d-coalition-20260302T070000.000000Z-99", dead), nil)
	busy := write(fmt.Sprintf(".partial-%d-coalition-20260302T080000.000000Z-5", live), whole[:100])
	empty := write("coalition-20260302T090000.000000Z-001.db", nil)
	truncated := write("coalition-20260302T100000.000000Z-001.db", whole[:len(whole)/3])
	cut := write("coalition-20260302T110000.000000Z-001.db", whole)
	cutJournal := write(filepath.Base(cut)+"-journal", []byte("journal"))
	other := write("notes.txt", []byte("the admin's"))

	c, err := db.CleanBackups(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(c.Removed)
	slices.Sort(c.Bad)
	if want := []string{partial, journal, emptyPartial, cutJournal}; !slices.Equal(c.Removed, sorted(want)) {
		t.Errorf("removed %v, want %v", c.Removed, sorted(want))
	}
	if want := []string{empty, truncated, cut}; !slices.Equal(c.Bad, want) {
		t.Errorf("set aside %v, want %v", c.Bad, want)
	}
	if c.Good != 1 {
		t.Errorf("%d good backups, want 1", c.Good)
	}
	for _, p := range []string{good.Path, busy, other, empty + ".bad", truncated + ".bad", cut + ".bad"} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s is gone: %v", p, err)
		}
	}
	for _, p := range []string{partial, journal, emptyPartial, empty, truncated, cut, cutJournal} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s is still there", p)
		}
	}
	// --backup-keep counts good backups only: the bad ones do not push good ones out
	for i := range 3 {
		if _, err := db.Backup(ctx, dir, 3, at.Add(time.Duration(i+1)*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, "coalition-*.db"))
	if len(left) != 3 {
		t.Errorf("%d backups kept, want 3: %v", len(left), left)
	}
	for _, p := range left {
		if err := CheckFile(ctx, p, true); err != nil {
			t.Error(err)
		}
	}
}

func sorted(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }

// A backup that fails half way — here its context is canceled — leaves no file with a backup's
// name and no partial copy.
func TestBackupThatFailsLeavesNothing(t *testing.T) {
	sqliteOnly(t)
	db := open(t)
	dir := filepath.Join(t.TempDir(), "backups")
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := db.Backup(cctx, dir, 3, time.Date(2026, 3, 2, 5, 0, 0, 0, time.UTC)); err == nil {
		t.Fatal("a canceled backup succeeded")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		t.Errorf("left %s", e.Name())
	}
}

// CheckFile refuses a file that is no server database: empty, not SQLite, or SQLite without
// the migrations (an empty database, which the old backups could be, opens as a fresh server).
func TestCheckFileRefusesWhatIsNoBackup(t *testing.T) {
	sqliteOnly(t)
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o640)
	text := filepath.Join(dir, "text.db")
	os.WriteFile(text, []byte("SQLite format 3 but not really"), 0o640)
	bare := filepath.Join(dir, "bare.db")
	b, err := Open(ctx, bare, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.writer.Exec("DROP TABLE goose_db_version")
	b.Close()
	for _, p := range []string{empty, text, bare, filepath.Join(dir, "missing.db")} {
		if err := CheckFile(ctx, p, true); err == nil {
			t.Errorf("%s passes", filepath.Base(p))
		}
	}
	var _ campaign.Backupper = (*DB)(nil)
}

// Prunes that run at once (two server processes on one file, two sweeps of one) race to
// remove the same oldest backup: the one that finds it gone has not failed — the CI run of
// stop 21 failed TestConcurrentLocksLockOnce on "remove …: no such file or directory".
func TestConcurrentBackupsPruneWithoutFailing(t *testing.T) {
	sqliteOnly(t)
	db := open(t)
	dir := filepath.Join(t.TempDir(), "backups")
	at := time.Date(2026, 3, 9, 5, 0, 0, 0, time.UTC)
	for round := range 6 {
		var wg sync.WaitGroup
		errs := make([]error, 6)
		for i := range errs {
			wg.Go(func() {
				_, errs[i] = db.Backup(ctx, dir, 1, at.Add(time.Duration(round)*time.Hour))
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("%d files left in the backups folder, want the 1 kept", len(entries))
	}
}
