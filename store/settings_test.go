package store

import (
	"database/sql"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/internal/testdb"
	"github.com/coalition-wargame/coalition/migrations"
)

// Migration 00110 (R95): the settings move from whole seconds to microseconds, and a setting
// the old code stored out of its bounds — a turn length of 0 from "0.0001" hours, whose lock spun
// forever — is brought to the nearest bound, so that the server can lock that campaign.
func TestMigrationKeepsSettingsAndBoundsOldOnes(t *testing.T) {
	dsn := testdb.DSN(t, os.Getenv, filepath.Join(t.TempDir(), "old.db"))
	driver, dialect, folder, conn := "sqlite3", goose.DialectSQLite3, "sqlite", dsn
	if testdb.Postgres(os.Getenv) {
		driver, dialect, folder = "pgx", goose.DialectPostgres, "postgres"
	} else {
		conn, _ = SQLiteDSNs(dsn)
	}
	raw, err := sql.Open(driver, conn)
	if err != nil {
		t.Fatal(err)
	}
	fsys, _ := fs.Sub(migrations.FS, folder)
	p, err := goose.NewProvider(dialect, raw, fsys)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 70); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rows := []struct {
		name                  string
		delay, length, capSec int64
	}{
		{"weekly", 86400, 604800, 259200},
		{"tiny", 3600, 0, 0},
		{"huge", 100 * 86400, 365 * 86400, 90 * 86400},
	}
	for _, r := range rows {
		if _, err := raw.Exec(`INSERT INTO campaigns (name, status, lock_delay_seconds, turn_length_seconds, extension_cap_seconds, created_at) VALUES ($1, 'running', $2, $3, $4, $5)`,
			r.name, r.delay, r.length, r.capSec, now); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	db, err := Open(ctx, dsn, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	want := map[string]campaign.Settings{
		"weekly": {LockDelay: 24 * time.Hour, TurnLength: 7 * 24 * time.Hour, ExtensionCap: 72 * time.Hour},
		"tiny":   {LockDelay: time.Hour, TurnLength: time.Hour, ExtensionCap: time.Minute},
		"huge":   {LockDelay: 30 * 24 * time.Hour, TurnLength: 30 * 24 * time.Hour, ExtensionCap: 30 * 24 * time.Hour},
	}
	err = db.Read(ctx, func(r campaign.Reader) error {
		cs, err := r.Campaigns()
		for _, c := range cs {
			if c.Settings != want[c.Name] {
				t.Errorf("%s: %+v, want %+v", c.Name, c.Settings, want[c.Name])
			}
			if err := c.Settings.Check(); err != nil {
				t.Errorf("%s: %v", c.Name, err)
			}
		}
		if len(cs) != len(want) {
			t.Errorf("%d campaigns", len(cs))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Settings are stored to the microsecond: what is written reads back exactly.
func TestSettingsStoredToTheMicrosecond(t *testing.T) {
	db := open(t)
	st := campaign.Settings{LockDelay: time.Hour + 7*time.Microsecond, TurnLength: 3600360 * time.Millisecond, ExtensionCap: 6 * time.Minute}
	c := &campaign.Campaign{Name: "exact", Status: campaign.Running, Settings: st, MapVersion: 1, CreatedAt: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}
	err := db.Write(ctx, func(tx campaign.Tx) error { return tx.CreateCampaign(c) })
	if err != nil {
		t.Fatal(err)
	}
	err = db.Read(ctx, func(r campaign.Reader) error {
		got, err := r.Campaign(c.ID)
		if err == nil && got.Settings != st {
			t.Errorf("read back %+v, want %+v", got.Settings, st)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
