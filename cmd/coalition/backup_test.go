package main

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/internal/testdb"
	"github.com/coalition-wargame/coalition/store"
)

// runCommand runs a command of the program, as a shell would, and returns what it printed.
func runCommand(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errb syncBuffer
	err := run(context.Background(), append([]string{"coalition"}, args...), func(string) string { return "" }, strings.NewReader(""), &out, &errb)
	return out.String() + errb.String(), err
}

// dumpOf is the contents of the database file at path, every row of every table.
func dumpOf(t *testing.T, path string) string {
	t.Helper()
	db, err := store.Open(context.Background(), path, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	d, err := db.Dump(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// The restore drill (issue 16.4): the scheduler's sweep backs the database up before it locks;
// `coalition backup` writes a checked copy beside the running server; `coalition restore` is
// refused while the server has the file open; once it is stopped, the restore puts the backup
// back — the database then holds exactly what the backup holds, the one it replaced is kept
// aside, and the server starts on it and serves the campaign as it stood before the lock.
func TestRestoreDrill(t *testing.T) {
	if testdb.Postgres(os.Getenv) {
		t.Skip("backup and restore are the SQLite file's; PostgreSQL has pg_dump")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "coalition.db")
	backups := filepath.Join(dir, "backups")
	a := startServer(t, "--lock-tick", "@every 100ms", "--db", db)
	a.clock.Set(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	admin := a.login("admin", e2eAdminPassword)
	var created struct {
		Campaign struct{ ID int64 }
		Accounts []newAccount
	}
	a.call("POST", "/api/campaigns/import", admin, tickScenario, http.StatusCreated, &created)
	base := "/api/campaigns/" + strconv.FormatInt(created.Campaign.ID, 10)
	ann := a.login("Ann", created.Accounts[0].Password)
	a.call("POST", base+"/posts", ann, map[string]string{"text": "A: 3D > 5D"}, http.StatusCreated, nil)
	a.clock.Set(time.Date(2026, 3, 3, 5, 0, 0, 0, time.UTC))
	var turn struct{ Status string }
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && turn.Status != "locked"; time.Sleep(50 * time.Millisecond) {
		a.call("GET", base+"/turns/1", "", nil, http.StatusOK, &turn)
	}
	if turn.Status != "locked" {
		t.Fatal("the scheduler did not lock turn 1")
	}
	beforeLock, _ := filepath.Glob(filepath.Join(backups, "coalition-*.db"))
	if len(beforeLock) != 1 {
		t.Fatalf("%d backups after one sweep, want 1: %v", len(beforeLock), beforeLock)
	}
	ann = a.login("Ann", created.Accounts[0].Password)
	a.call("POST", base+"/posts", ann, map[string]string{"text": "A: 5D > 6D"}, http.StatusCreated, nil)

	out, err := runCommand(t, "backup", "--db", db, "--backup-keep", "5")
	if err != nil || !strings.Contains(out, "checked") {
		t.Fatalf("coalition backup beside the server: %v\n%s", err, out)
	}
	all, _ := filepath.Glob(filepath.Join(backups, "coalition-*.db"))
	if len(all) != 2 {
		t.Fatalf("%d backups, want 2", len(all))
	}
	for _, p := range all {
		if err := store.CheckFile(context.Background(), p, true); err != nil {
			t.Error(err)
		}
	}
	if out, err := runCommand(t, "restore", "--db", db, beforeLock[0]); !errors.Is(err, store.ErrInUse) {
		t.Fatalf("a restore while the server runs: %v\n%s", err, out)
	}
	a.stopNow()

	if out, err := runCommand(t, "restore", "--db", db, filepath.Join(dir, "missing.db")); err == nil {
		t.Fatalf("a restore of a missing file: %s", out)
	}
	out, err = runCommand(t, "restore", "--db", db, beforeLock[0])
	if err != nil || !strings.Contains(out, "before-restore") {
		t.Fatalf("coalition restore: %v\n%s", err, out)
	}
	scratch := filepath.Join(t.TempDir(), "copy.db")
	raw, _ := os.ReadFile(beforeLock[0])
	os.WriteFile(scratch, raw, 0o640)
	if got, want := dumpOf(t, db), dumpOf(t, scratch); got != want {
		t.Fatal("the restored database does not hold what the backup holds")
	}
	aside, _ := filepath.Glob(db + ".before-restore-*")
	if len(aside) != 1 || store.CheckFile(context.Background(), aside[0], true) != nil {
		t.Fatalf("the replaced database is not kept whole: %v", aside)
	}

	c := startServer(t, "--lock-tick", "off", "--db", db)
	c.clock.Set(time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC))
	var turns []struct{ Status string }
	c.call("GET", base+"/turns", "", nil, http.StatusOK, &turns)
	if len(turns) != 1 || turns[0].Status != "open" {
		t.Errorf("after the restore: turns %+v, want turn 1 open as before its lock", turns)
	}
	var posts []struct{ Text string }
	c.call("GET", base+"/turns/1/posts", c.login("Ann", created.Accounts[0].Password), nil, http.StatusOK, &posts)
	if len(posts) != 1 || posts[0].Text != "A: 3D > 5D" {
		t.Errorf("after the restore: posts %+v", posts)
	}
}
