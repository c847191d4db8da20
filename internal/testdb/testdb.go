// Package testdb gives tests a database to open with store.Open: by default an SQLite file,
// or, when COALITION_TEST_POSTGRES names a PostgreSQL server (a postgres:// URL of a role that
// may create databases), a fresh database on it, dropped when the test ends. The same test
// run with and without the variable checks the store on both.
package testdb

import (
	"crypto/sha256"
	"database/sql"
	"fmt"
	"net/url"
	"sync"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the database/sql driver "pgx"
)

// Env is the variable naming the PostgreSQL server.
const Env = "COALITION_TEST_POSTGRES"

// Postgres reports whether the tests run on PostgreSQL.
func Postgres(getenv func(string) string) bool { return getenv(Env) != "" }

var (
	mu      sync.Mutex
	created = map[string]bool{}
)

// DSN is what store.Open should open for the SQLite file path: the path itself, or on
// PostgreSQL a database of its own (the same one every time the test asks for the same path,
// so a test can close its store and open it again, as a restarted server would).
func DSN(t testing.TB, getenv func(string) string, path string) string {
	t.Helper()
	server := getenv(Env)
	if server == "" {
		return path
	}
	u, err := url.Parse(server)
	if err != nil {
		t.Fatalf("%s: %v", Env, err)
	}
	name := fmt.Sprintf("coalition_test_%x", sha256.Sum256([]byte(path)))[:40]
	mu.Lock()
	defer mu.Unlock()
	if !created[name] {
		admin, err := sql.Open("pgx", server)
		if err != nil {
			t.Fatal(err)
		}
		defer admin.Close()
		if _, err := admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"); err != nil {
			t.Fatal(err)
		}
		if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
			t.Fatal(err)
		}
		created[name] = true
		t.Cleanup(func() {
			mu.Lock()
			delete(created, name)
			mu.Unlock()
			if db, err := sql.Open("pgx", server); err == nil {
				db.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
				db.Close()
			}
		})
	}
	u.Path = "/" + name
	return u.String()
}
