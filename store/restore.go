// Restoring a backup over the SQLite database (issue 16.4): refused while a server uses the
// file; the database it replaces is set aside, never deleted.

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ErrInUse means another process has the database open: stop the server before a restore.
var ErrInUse = errors.New("the database is in use")

// Restore puts the backup at from in place of the SQLite database at path. The backup must
// pass PRAGMA integrity_check and hold a server's schema; the database must not be open in
// another process (ErrInUse). The database it replaces, if any, is checkpointed and moved to
// PATH.before-restore-STAMP (with its WAL files, if it has any left), whose path Restore
// returns; the copy is written under a temporary name, synced, checked and renamed, so that a
// crash leaves either database whole.
func Restore(ctx context.Context, path, from string, at time.Time) (aside string, err error) {
	if err := CheckFile(ctx, from, true); err != nil {
		return "", fmt.Errorf("%s is not a good backup: %w", from, err)
	}
	if _, err := os.Stat(path); err == nil {
		if err := quiesce(ctx, path); err != nil {
			return "", err
		}
		aside = path + ".before-restore-" + at.UTC().Format("20060102T150405Z")
		for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
			if err := os.Rename(path+suffix, aside+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
				return "", fmt.Errorf("setting %s aside: %w", path+suffix, err)
			}
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	tmp := path + ".restore-partial"
	os.Remove(tmp) // a crashed restore's
	if err := copyFile(from, tmp); err != nil {
		os.Remove(tmp)
		return aside, err
	}
	if err := CheckFile(ctx, tmp, false); err != nil {
		os.Remove(tmp)
		return aside, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return aside, err
	}
	return aside, syncDir(filepath.Dir(path))
}

// quiesce makes sure no other process has the database at path open, by taking SQLite's
// exclusive lock, and folds its WAL into the file; a file that is no database is left as it is,
// to be set aside.
func quiesce(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?_locking_mode=EXCLUSIVE&_busy_timeout=200")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		return inUse(path, err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		return inUse(path, err)
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		return err
	}
	// the lock stays with this connection (locking_mode EXCLUSIVE) while the WAL is folded in
	if _, err := conn.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		return fmt.Errorf("checkpointing %s: %w", path, err)
	}
	return nil
}

// inUse words a failure to take the exclusive lock: the database is busy, or it is no database.
func inUse(path string, err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "locked") || strings.Contains(msg, "busy"):
		return fmt.Errorf("%w: %s is open in another process — stop the server before a restore", ErrInUse, path)
	case strings.Contains(msg, "not a database") || strings.Contains(msg, "malformed"):
		return nil // broken: it is set aside as it is
	}
	return fmt.Errorf("opening %s: %w", path, err)
}

// copyFile copies from to a new file to, synced.
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o640)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return errors.Join(out.Sync(), out.Close())
}
