package main

import (
	"bytes"
	"context"
	"net"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
)

// serve --help prints every flag and exits 0; a flag that does not exist is an error.
func TestServeHelpExitsZero(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"coalition", "serve", "--help"}, testEnv, strings.NewReader(""), &out, &errb); err != nil {
		t.Fatalf("serve --help: %v", err)
	}
	for _, flag := range []string{"-addr", "-db", "-smtp", "-remind-before", "-base-url"} {
		if !strings.Contains(errb.String(), flag) {
			t.Errorf("the help does not list %s", flag)
		}
	}
	if err := run(context.Background(), []string{"coalition", "serve", "--no-such-flag"}, testEnv, strings.NewReader(""), &out, &errb); err == nil {
		t.Error("an unknown flag was taken")
	}
}

// The start line names an address one can click: localhost for a server on every address.
func TestServerURL(t *testing.T) {
	for addr, want := range map[string]string{
		"[::]:8080": "http://localhost:8080", "0.0.0.0:8080": "http://localhost:8080", "127.0.0.1:41234": "http://127.0.0.1:41234",
		"[::1]:8080": "http://[::1]:8080", "192.0.2.7:80": "http://192.0.2.7:80",
	} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := serverURL(a); got != want {
			t.Errorf("%s: %s, want %s", addr, got, want)
		}
	}
}

// coalition version names the module's version and the Go that built it; with a commit, the
// commit, its time and whether the tree had changes.
func TestVersion(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"coalition", "version"}, testEnv, strings.NewReader(""), &out, &out); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^coalition \S+.* go1\.\d+`).MatchString(out.String()) {
		t.Errorf("version printed %q", out.String())
	}
	info := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-11-23T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	if got, want := versionLine(info), "coalition v1.2.3 commit 0123456789ab (2026-11-23T10:00:00Z, modified) go1.26.8"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// shellUnquote undoes shellQuote: the message quotes a PostgreSQL URL (its '?' is special to
// the shell), and the test runs the command as a shell would.
func shellUnquote(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], `'\''`, "'")
	}
	return s
}

// A lost admin password: the start-up message says what to run; coalition admin
// reset-password prints a new one, the old one no longer logs in, and the new one does, with
// a change asked for before anything else.
func TestAdminResetPassword(t *testing.T) {
	s := startServer(t, "--lock-tick", "off")
	if !strings.Contains(s.stdout.String(), "If the admin's password is lost: coalition admin reset-password --db ") {
		t.Errorf("the start-up message says nothing of a lost password:\n%s", s.stdout.String())
	}
	db := regexp.MustCompile(`--db (\S+) admin`).FindStringSubmatch(s.stdout.String())
	if db == nil {
		t.Fatal("no database in the message")
	}
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"coalition", "admin", "reset-password", "--db", shellUnquote(db[1]), "admin"}, testEnv, strings.NewReader(""), &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	m := regexp.MustCompile(`admin's new password: (\S+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no password printed: %q", out.String())
	}
	s.call("POST", "/api/login", "", map[string]string{"name": "admin", "password": e2eAdminPassword}, 401, nil)
	tok := s.login("admin", m[1])
	s.call("GET", "/api/accounts", tok, nil, 403, nil)
	var me struct {
		Account struct {
			MustChange bool `json:"must_change"`
		}
	}
	s.call("GET", "/api/me", tok, nil, 200, &me)
	if !me.Account.MustChange {
		t.Error("the account is not asked to change its password")
	}
	s.call("PUT", "/api/me/password", tok, map[string]string{"old": m[1], "new": "a-brand-new-password"}, 204, nil)
	tok = s.login("admin", "a-brand-new-password")
	s.call("GET", "/api/accounts", tok, nil, 200, nil)
	if err := run(context.Background(), []string{"coalition", "admin", "reset-password", "--db", filepath.Join(t.TempDir(), "x.db"), "nobody"}, testEnv, strings.NewReader(""), &out, &errb); err == nil {
		t.Error("a reset for no account passed")
	}
}
