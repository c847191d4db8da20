// The backup commands (issue 16.4): backup writes a checked copy of the SQLite database as the
// server does before its locks; restore puts a backup back in place of the database.

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"

	"github.com/coalition-wargame/coalition/store"
)

const backupUsage = `usage: coalition backup [--db FILE] [--backups DIR] [--backup-keep N]

Writes a copy of the SQLite database to the backup folder, as the server does before its locks:
under a temporary name, synced and checked, then named coalition-STAMP-NNN.db; keeps the newest
--backup-keep good backups. It may run beside the server. PostgreSQL is backed up with pg_dump.
`

const restoreUsage = `usage: coalition restore [--db FILE] BACKUP

Puts BACKUP in place of the SQLite database, after checking it (PRAGMA integrity_check). Stop the
server first: the restore refuses a database another process has open. The database it replaces
is kept beside it as FILE.before-restore-STAMP.
`

// backupFolder is the folder of the backups of the SQLite file db: dir, or backups/ beside it.
func backupFolder(db, dir string) string {
	if dir != "" {
		return dir
	}
	return filepath.Join(filepath.Dir(db), "backups")
}

func sqliteOnly(db, what string) error {
	if strings.Contains(db, "://") {
		return fmt.Errorf("%s works on the SQLite file; back PostgreSQL up with pg_dump and restore it with pg_restore", what)
	}
	return nil
}

// backupCommand runs "coalition backup".
func backupCommand(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, backupUsage); fs.PrintDefaults() }
	var c common
	commonFlags(fs, getenv, &c)
	dir := fs.String("backups", env(getenv, "COALITION_BACKUPS", ""), "the backup folder (default: backups/ next to the database; env COALITION_BACKUPS)")
	keep := fs.Int("backup-keep", 20, "how many good backups to keep")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("backup takes no arguments, only flags: %q", fs.Args())
	}
	if err := sqliteOnly(c.db, "backup"); err != nil {
		return err
	}
	c.log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	st, err := store.Open(ctx, c.db, c.log)
	if err != nil {
		return err
	}
	defer st.Close()
	folder := backupFolder(c.db, *dir)
	cleaned, err := st.CleanBackups(ctx, folder)
	if err != nil {
		return err
	}
	for _, p := range cleaned.Removed {
		fmt.Fprintf(stdout, "Removed %s, a partial backup a crash left.\n", p)
	}
	for _, p := range cleaned.Bad {
		fmt.Fprintf(stdout, "Set %s aside as %s.bad: it fails its check.\n", p, filepath.Base(p))
	}
	f, err := st.Backup(ctx, folder, max(*keep, 1), now())
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Backed up %s to %s (%d bytes, checked).\n", c.db, f.Path, f.Size)
	return nil
}

// restoreCommand runs "coalition restore".
func restoreCommand(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, restoreUsage); fs.PrintDefaults() }
	var c common
	commonFlags(fs, getenv, &c)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("restore takes one backup file")
	}
	if err := sqliteOnly(c.db, "restore"); err != nil {
		return err
	}
	aside, err := store.Restore(ctx, c.db, fs.Arg(0), now())
	if err != nil {
		return err
	}
	if aside != "" {
		fmt.Fprintf(stdout, "The database it replaces is kept as %s.\n", aside)
	}
	fmt.Fprintf(stdout, "Restored %s from %s; start the server.\n", c.db, fs.Arg(0))
	return nil
}
