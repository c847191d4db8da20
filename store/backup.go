package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// backupPrefix starts every backup file's name; the rest is a UTC time stamp and a counter,
// so that names sort in the order the backups were made.
const backupPrefix = "coalition-"

// Backup copies the SQLite database with VACUUM INTO to a new file in dir, named after at,
// and deletes the oldest copies beyond keep. PostgreSQL is backed up by its own tools.
func (d *DB) Backup(ctx context.Context, dir string, keep int, at time.Time) (string, error) {
	if d.path == "" {
		return "", errors.New("backups with VACUUM INTO need SQLite; back PostgreSQL up with pg_dump")
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", fmt.Errorf("backup: %w", err)
	}
	stamp := at.UTC().Format("20060102T150405.000000Z")
	for n := 1; n < 1000; n++ {
		path := filepath.Join(dir, fmt.Sprintf("%s%s-%03d.db", backupPrefix, stamp, n))
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			continue
		}
		err := d.writer.WithContext(ctx).Exec("VACUUM INTO ?", path).Error
		if err != nil && strings.Contains(err.Error(), "already exists") {
			continue // another process took the name first
		}
		if err != nil {
			return "", fmt.Errorf("backup to %s: %w", path, err)
		}
		return path, prune(dir, keep)
	}
	return "", fmt.Errorf("backup: too many backups named %s%s in %s", backupPrefix, stamp, dir)
}

// prune keeps the newest keep backups in dir.
func prune(dir string, keep int) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasPrefix(e.Name(), backupPrefix) && strings.HasSuffix(e.Name(), ".db") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	var errs []error
	for len(names) > keep {
		errs = append(errs, os.Remove(filepath.Join(dir, names[0])))
		names = names[1:]
	}
	return errors.Join(errs...)
}
