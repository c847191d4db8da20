package store

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/testdb"
	"github.com/coalition-wargame/coalition/migrations"
)

var ctx = context.Background()

func open(t *testing.T) *DB {
	t.Helper()
	db, err := Open(ctx, testdb.DSN(t, os.Getenv, filepath.Join(t.TempDir(), "c.db")), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestMigrationFoldersInStep(t *testing.T) {
	names := func(dir string) []string {
		entries, err := fs.ReadDir(migrations.FS, dir)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return out
	}
	if s, p := names("sqlite"), names("postgres"); !slices.Equal(s, p) || len(s) == 0 {
		t.Errorf("sqlite has %v, postgres %v: every migration exists in both", s, p)
	}
}

func TestOpenTwiceKeepsTheSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	for range 2 {
		db, err := Open(ctx, path, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Write(ctx, func(tx campaign.Tx) error {
			return tx.CreateAccount(&campaign.Account{Name: "A" + time.Now().Format("150405.000000000"), PasswordHash: "x", TokenVersion: 1, CreatedAt: time.Now()})
		}); err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
	db2, err := Open(ctx, path, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	if err := db2.Read(ctx, func(r campaign.Reader) error {
		n, err := r.CountAccounts()
		if err == nil && n != 2 {
			t.Errorf("%d accounts after two starts, want 2: the migrations must not rebuild tables", n)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

func TestReadersCannotWrite(t *testing.T) {
	db := open(t)
	err := db.Read(ctx, func(r campaign.Reader) error {
		return r.(campaign.Tx).PutSecret("k", []byte("v"))
	})
	if err == nil || !strings.Contains(err.Error(), "readonly") && !strings.Contains(err.Error(), "read-only transaction") {
		t.Errorf("a write on the read pool: %v", err)
	}
}

func TestErrorsAreSentinels(t *testing.T) {
	db := open(t)
	acc := &campaign.Account{Name: "Gazetzot", PasswordHash: "x", TokenVersion: 1, CreatedAt: time.Now()}
	if err := db.Write(ctx, func(tx campaign.Tx) error { return tx.CreateAccount(acc) }); err != nil {
		t.Fatal(err)
	}
	dup := &campaign.Account{Name: "gazetzot ", PasswordHash: "x", TokenVersion: 1, CreatedAt: time.Now()}
	if err := db.Write(ctx, func(tx campaign.Tx) error { return tx.CreateAccount(dup) }); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("a second account of the same name: %v", err)
	}
	err := db.Peek(ctx, func(r campaign.Reader) error {
		_, err := r.CampaignVersion(42)
		return err
	})
	if !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a missing campaign: %v", err)
	}
	err = db.Read(ctx, func(r campaign.Reader) error {
		_, err := r.Turn(1, 1)
		return err
	})
	if !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a missing turn: %v", err)
	}
}

func TestBackupKeepsTheNewest(t *testing.T) {
	db := open(t)
	dir := filepath.Join(t.TempDir(), "backups")
	at := time.Date(2026, 3, 2, 5, 0, 0, 0, time.UTC)
	if testdb.Postgres(os.Getenv) {
		if _, err := db.Backup(ctx, dir, 2, at); err == nil || !strings.Contains(err.Error(), "pg_dump") {
			t.Errorf("a PostgreSQL backup: %v, want a refusal naming pg_dump", err)
		}
		return
	}
	var paths []string
	for i := range 5 {
		p, err := db.Backup(ctx, dir, 3, at.Add(time.Duration(i/2)*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p.Path)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*.db"))
	if !slices.Equal(left, paths[2:]) {
		t.Errorf("kept %v, want the newest three %v", left, paths[2:])
	}
	copyDB, err := Open(ctx, paths[4], slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("a backup does not open: %v", err)
	}
	copyDB.Close()
}

func TestSQLiteDSNs(t *testing.T) {
	w, r := SQLiteDSNs("/tmp/a b/c.db")
	for _, want := range []string{"_journal_mode=WAL", "_busy_timeout=5000", "_txlock=immediate", "_foreign_keys=on"} {
		if !strings.Contains(w, want) {
			t.Errorf("writer DSN %q lacks %s", w, want)
		}
	}
	for _, want := range []string{"mode=ro", "_query_only=on"} {
		if !strings.Contains(r, want) {
			t.Errorf("reader DSN %q lacks %s", r, want)
		}
	}
	if !strings.HasPrefix(w, "file:/tmp/a%20b/c.db?") {
		t.Errorf("the path is not escaped: %q", w)
	}
}

// The writer syncs FULL by default (issue 16: an acknowledged order survives a power cut);
// normal is taken on request, anything else refused.
func TestOpenSynchronous(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		opts []Option
		want int // PRAGMA synchronous: 1 NORMAL, 2 FULL
	}{{nil, 2}, {[]Option{Synchronous("normal")}, 1}, {[]Option{Synchronous("FULL")}, 2}} {
		d, err := Open(ctx, filepath.Join(t.TempDir(), "s.db"), slog.New(slog.DiscardHandler), c.opts...)
		if err != nil {
			t.Fatal(err)
		}
		var got int
		if err := d.writer.Raw("PRAGMA synchronous").Row().Scan(&got); err != nil || got != c.want {
			t.Errorf("%d options: synchronous %d (%v), want %d", len(c.opts), got, err, c.want)
		}
		d.Close()
	}
	if _, err := Open(ctx, filepath.Join(t.TempDir(), "s.db"), nil, Synchronous("off")); err == nil {
		t.Error("synchronous off was taken")
	}
}
