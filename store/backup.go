// Backups of the SQLite file (issue 16.4): a copy made with VACUUM INTO under a temporary name,
// synced, checked, and only then renamed to a backup's name; leftovers of a crash removed; a
// backup restored over the database.

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
)

// backupPrefix starts every backup file's name; the rest is a UTC time stamp and a counter,
// so that names sort in the order the backups were made.
const backupPrefix = "coalition-"

// partialPrefix starts the name of a copy being made: it never looks like a backup, and one a
// crash left is removed (CleanBackups).
const partialPrefix = ".partial-"

// backupName is the name of a finished backup, checked before it got it.
var backupName = regexp.MustCompile(`^coalition-\d{8}T\d{6}\.\d{6}Z-\d{3}\.db$`)

// Backup copies the SQLite database with VACUUM INTO to a temporary file in dir, syncs it,
// checks it (PRAGMA quick_check, and that it holds this server's schema), then renames it to a
// backup's name made of at and syncs the folder, so that a crash at any point leaves no file
// that looks like a backup; it then deletes the oldest backups beyond keep. The copy is read
// from a connection of its own, so that the writer goes on meanwhile. PostgreSQL is backed up
// by its own tools.
func (d *DB) Backup(ctx context.Context, dir string, keep int, at time.Time) (campaign.BackupFile, error) {
	if d.path == "" {
		return campaign.BackupFile{}, errors.New("backups with VACUUM INTO need SQLite; back PostgreSQL up with pg_dump")
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return campaign.BackupFile{}, fmt.Errorf("backup: %w", err)
	}
	stamp := at.UTC().Format("20060102T150405.000000Z")
	// the copy's temporary name is this attempt's own, so that two never share one, and names
	// the process making it, so that cleaning removes only a dead process's copies
	reserve, err := os.CreateTemp(dir, fmt.Sprintf("%s%d-%s%s-*", partialPrefix, os.Getpid(), backupPrefix, stamp))
	if err != nil {
		return campaign.BackupFile{}, fmt.Errorf("backup: %w", err)
	}
	tmp := reserve.Name()
	reserve.Close()
	size, err := d.copyTo(ctx, tmp)
	if err != nil {
		removePartial(tmp)
		return campaign.BackupFile{}, fmt.Errorf("backup in %s: %w", dir, err)
	}
	defer removePartial(tmp)
	for n := 1; n < 1000; n++ {
		final := filepath.Join(dir, fmt.Sprintf("%s%s-%03d.db", backupPrefix, stamp, n))
		// a hard link never replaces a backup another process named first; the copy's
		// temporary name is removed after
		err := os.Link(tmp, final)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return campaign.BackupFile{}, fmt.Errorf("backup to %s: %w", final, err)
		}
		os.Remove(tmp)
		if err := syncDir(dir); err != nil {
			return campaign.BackupFile{}, fmt.Errorf("backup to %s: %w", final, err)
		}
		return campaign.BackupFile{Path: final, Size: size}, prune(dir, keep)
	}
	return campaign.BackupFile{}, fmt.Errorf("backup: too many backups named %s%s in %s", backupPrefix, stamp, dir)
}

// copyTo writes a checked, synced copy of the database to path and returns its size.
func (d *DB) copyTo(ctx context.Context, path string) (int64, error) {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return 0, err
	}
	src, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: d.path}).EscapedPath()+"?mode=ro&_busy_timeout=5000")
	if err != nil {
		return 0, err
	}
	defer src.Close()
	if _, err := src.ExecContext(ctx, "VACUUM INTO ?", path); err != nil {
		return 0, err
	}
	if err := syncFile(path); err != nil {
		return 0, err
	}
	if err := CheckFile(ctx, path, false); err != nil {
		return 0, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// CheckFile checks that the SQLite file at path is a good copy of a server's database: it
// passes PRAGMA quick_check (integrity_check when full is set) and holds the migrations'
// version table with at least one migration — an empty or truncated file does not.
func CheckFile(ctx context.Context, path string, full bool) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() || fi.Size() == 0 {
		return fmt.Errorf("%s is empty or not a file", path)
	}
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=ro&immutable=1")
	if err != nil {
		return err
	}
	defer db.Close()
	pragma := "PRAGMA quick_check"
	if full {
		pragma = "PRAGMA integrity_check"
	}
	rows, err := db.QueryContext(ctx, pragma)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	var problems []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return fmt.Errorf("%s: %w", path, err)
		}
		if s != "ok" {
			problems = append(problems, s)
		}
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s fails its check: %s", path, strings.Join(problems[:min(len(problems), 5)], "; "))
	}
	var migrations int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM goose_db_version WHERE is_applied").Scan(&migrations); err != nil || migrations == 0 {
		return fmt.Errorf("%s holds no server database (no migrations): %v", path, err)
	}
	return nil
}

// CleanBackups removes from dir what a crash during a backup left — partial copies and their
// journals — and renames a backup that fails its check to NAME.bad, so that it is neither
// counted nor taken for a good one.
func (d *DB) CleanBackups(ctx context.Context, dir string) (campaign.BackupClean, error) {
	var c campaign.BackupClean
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, err
	}
	var errs []error
	// a backup with a journal beside it was being written when the process died (the old
	// VACUUM INTO straight to a backup's name did so): it is bad whatever its check says
	journaled := map[string]bool{}
	for _, e := range entries {
		if base, ok := strings.CutSuffix(e.Name(), "-journal"); ok {
			journaled[base] = true
		}
	}
	for _, e := range entries {
		name, p := e.Name(), filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
		case strings.HasPrefix(name, partialPrefix), leftoverJournal(name):
			if pid, ok := partialOf(name); ok && alive(pid) {
				continue // a copy another process is making now
			}
			if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
				continue
			}
			c.Removed = append(c.Removed, p)
		case backupName.MatchString(name):
			err := CheckFile(ctx, p, false)
			if errors.Is(err, os.ErrNotExist) {
				continue // pruned meanwhile by another process
			}
			if err == nil && journaled[name] {
				err = fmt.Errorf("%s has a journal: its copy was cut short", p)
			}
			if err != nil {
				if ctx.Err() != nil {
					return c, ctx.Err()
				}
				errs = append(errs, os.Rename(p, p+".bad"))
				c.Bad = append(c.Bad, p)
				continue
			}
			c.Good++
		}
	}
	if len(c.Removed)+len(c.Bad) > 0 {
		errs = append(errs, syncDir(dir))
	}
	return c, errors.Join(errs...)
}

// leftoverJournal is a journal or WAL file next to a backup or a partial copy.
func leftoverJournal(name string) bool {
	for _, suffix := range []string{"-journal", "-wal", "-shm"} {
		if base, ok := strings.CutSuffix(name, suffix); ok && (strings.HasPrefix(base, backupPrefix) || strings.HasPrefix(base, partialPrefix)) {
			return true
		}
	}
	return false
}

// partialOf is the process id a partial copy's name holds.
func partialOf(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, partialPrefix)
	if !ok {
		return 0, false
	}
	digits, _, _ := strings.Cut(rest, "-")
	pid, err := strconv.Atoi(digits)
	return pid, err == nil && pid > 0
}

// alive reports whether process pid runs: this process, or another that answers signal 0.
func alive(pid int) bool {
	if pid == os.Getpid() {
		return true
	}
	p, err := os.FindProcess(pid)
	return err == nil && p.Signal(syscall.Signal(0)) == nil
}

// removePartial removes a partial copy and its journal.
func removePartial(path string) {
	os.Remove(path)
	os.Remove(path + "-journal")
}

// prune keeps the newest keep backups in dir; only files with a backup's name count, and only
// a checked copy gets one. Prunes may run at once (two processes on one file, or two sweeps).
func prune(dir string, keep int) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && backupName.MatchString(e.Name()) {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	var errs []error
	for len(names) > keep {
		// another process (or another sweep of this one) pruning at the same time may have
		// removed it first: gone is what was wanted
		if err := os.Remove(filepath.Join(dir, names[0])); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
		names = names[1:]
	}
	return errors.Join(errs...)
}

// syncFile flushes a file's contents to the disk.
func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	return errors.Join(f.Sync(), f.Close())
}

// syncDir flushes a folder's entries (a rename, a removal) to the disk.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(f.Sync(), f.Close())
}
