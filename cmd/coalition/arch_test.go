package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/coalition-wargame/coalition"

// pkg is what `go list -json` says of a package.
type pkg struct {
	ImportPath string
	Imports    []string
}

func listPackages(t *testing.T) []pkg {
	t.Helper()
	// -e: a package that does not build (an import cycle a wrong arrow makes) is listed too,
	// so that the wrong arrow is named here
	cmd := exec.Command("go", "list", "-e", "-json", "./...")
	cmd.Dir = "../.."
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("go list: %v\n%s", err, errb.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(&out)
	for {
		var p pkg
		err := dec.Decode(&p)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// local is a package of this module, by its path inside it ("domain", "cmd/coalition").
func local(path string) (string, bool) {
	if path == module {
		return "", true
	}
	rest, ok := strings.CutPrefix(path, module+"/")
	return rest, ok
}

func standard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

func under(path string, prefixes ...string) bool {
	for _, p := range prefixes {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// infrastructure is what a pure package never imports: databases, the network, the web.
var infrastructure = []string{"gorm.io", "database/sql", "net", "github.com/labstack", "github.com/mattn", "github.com/jackc",
	"github.com/pressly", "github.com/robfig", "github.com/golang-jwt", "github.com/getkin", "github.com/prometheus", "os/exec"}

// pureDeps are the module's packages each pure card-format package may import (the first
// entry, "", stands for none): deck lists and typal identity on the catalogue, formats on
// both, match scorekeeping on nothing.
var pureDeps = map[string][]string{
	"deck":   {"", "cards"},
	"format": {"", "cards", "deck"},
	"match":  {""},
	// round: the rules of a new round's setup (2.5), on the catalogue and the troop-list rules
	"round": {"", "domain", "cards", "roster"},
}

// The arrows of the folder tree, toward domain: campaign → turn → the engines → domain; store →
// campaign; api → campaign, never store; cmd alone wires them.
var (
	// engines are the pure rule engines: each imports domain and nothing else of the module.
	engines = []string{"movement", "battle", "mercenary"}
	// turnImports is what the pure lock pipeline may import of the module: the engines and domain.
	turnImports = append([]string{"domain"}, engines...)
	// campaignImports is what the workflow may import: turn, the engines, the card catalogue and
	// the troop-list rules, the pure card-format packages (deck, format, match), and domain.
	campaignImports = append([]string{"turn", "cards", "roster", "round", "deck", "format", "match"}, turnImports...)
)

// violation says what is wrong with package p importing imp, or "".
func violation(p, imp string) string {
	dep, isLocal := local(imp)
	switch {
	case p == "domain":
		if !standard(imp) {
			return "domain imports only the standard library"
		}
	case slices.Contains(engines, p):
		if isLocal && dep != "domain" {
			return "a rule engine imports domain and no other package of the module (never another engine)"
		}
		if under(imp, infrastructure...) {
			return "a rule engine never imports a database, the network or the web"
		}
	case p == "turn":
		if isLocal && !slices.Contains(turnImports, dep) {
			return "turn is the pure lock pipeline: it imports the engines and domain, never campaign, store, api or scenario"
		}
		if under(imp, infrastructure...) {
			return "turn knows no database or web library"
		}
	case p == "campaign":
		if isLocal && !slices.Contains(campaignImports, dep) {
			return "campaign imports turn, the engines, cards, roster, the card formats (deck, format, match) and domain, never store, api or scenario: store implements its port"
		}
		if under(imp, infrastructure...) {
			return "campaign knows no database or web library: store implements its interfaces"
		}
	case pureDeps[p] != nil:
		if isLocal && !slices.Contains(pureDeps[p], dep) {
			return "a card-format package imports only the module's packages below it: " + cmp.Or(strings.Join(pureDeps[p][1:], ", "), "none")
		}
		if under(imp, infrastructure...) {
			return "a card-format package never imports a database, the network or the web"
		}
	case p == "store":
		if isLocal && !slices.Contains([]string{"domain", "campaign", "migrations"}, dep) {
			return "store implements campaign's port and knows nothing above it"
		}
	case p == "notify":
		if isLocal && !slices.Contains([]string{"domain", "campaign"}, dep) {
			return "notify implements campaign's Sender port (webhooks, SMTP) and knows nothing else of the module"
		}
		if under(imp, "gorm.io", "database/sql", "github.com/labstack") {
			return "notify sends notifications: no database, no web server"
		}
	case p == "api":
		if isLocal && !slices.Contains([]string{"domain", "campaign", "scenario", "deck", "format"}, dep) {
			return "api speaks to campaign (and reads domain, scenario and the pure deck checker: deck, format), never store"
		}
		if under(imp, "gorm.io", "database/sql", "github.com/mattn", "github.com/jackc") {
			return "api never touches the database"
		}
	case under(p, "cmd"), p == "internal/locktest":
		// cmd wires the program; locktest, a load harness, wires store and campaign as cmd does
		return ""
	default:
		if isLocal && under(dep, "campaign", "store", "api", "cmd") {
			return "only store, api and cmd sit above campaign; only cmd wires store and api"
		}
	}
	if under(imp, "gorm.io") && p != "store" {
		return "store alone imports gorm"
	}
	if under(imp, "github.com/labstack") && p != "api" {
		return "api alone imports echo"
	}
	return ""
}

// TestArchitecture checks the arrows of the folder tree against the packages' imports.
func TestArchitecture(t *testing.T) {
	pkgs := listPackages(t)
	if len(pkgs) < 8 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	for _, p := range pkgs {
		name, ok := local(p.ImportPath)
		if !ok {
			continue
		}
		for _, imp := range p.Imports {
			if why := violation(name, imp); why != "" {
				t.Errorf("%s imports %s: %s", name, imp, why)
			}
		}
	}
}

// The check itself must catch each kind of violation.
func TestArchitectureCatches(t *testing.T) {
	for _, c := range []struct{ pkg, imp string }{
		{"domain", "github.com/expr-lang/expr"},
		{"movement", module + "/battle"},
		{"battle", "gorm.io/gorm"},
		{"mercenary", "net/http"},
		{"turn", module + "/store"},
		{"turn", module + "/campaign"},
		{"turn", module + "/api"},
		{"turn", module + "/cards"},
		{"turn", "gorm.io/gorm"},
		{"campaign", module + "/store"},
		{"campaign", module + "/api"},
		{"campaign", module + "/scenario"},
		{"campaign", "gorm.io/gorm"},
		{"campaign", "net/http"},
		{"movement", module + "/turn"},
		{"api", module + "/store"},
		{"api", module + "/turn"},
		{"api", "gorm.io/gorm"},
		{"store", module + "/api"},
		{"store", module + "/turn"},
		{"scenario", module + "/store"},
		{"scenario", module + "/campaign"},
		{"roster", module + "/campaign"},
		{"roster", "github.com/labstack/echo/v4"},
		{"deck", module + "/store"},
		{"deck", module + "/format"},
		{"format", "net/http"},
		{"format", "gorm.io/gorm"},
		{"match", module + "/format"},
		{"api", module + "/cards"},
		{"notify", module + "/store"},
		{"notify", module + "/api"},
		{"notify", "gorm.io/gorm"},
		{"campaign", module + "/notify"},
		{"api", module + "/notify"},
	} {
		if violation(c.pkg, c.imp) == "" {
			t.Errorf("%s importing %s passed", c.pkg, c.imp)
		}
	}
	for _, c := range []struct{ pkg, imp string }{
		{"domain", "crypto/hmac"}, {"battle", "github.com/expr-lang/expr"}, {"turn", module + "/movement"},
		{"campaign", module + "/turn"}, {"campaign", module + "/roster"}, {"campaign", module + "/cards"}, {"campaign", "golang.org/x/crypto/bcrypt"},
		{"store", "gorm.io/gorm"}, {"store", module + "/campaign"}, {"api", module + "/campaign"}, {"api", module + "/scenario"}, {"api", "github.com/labstack/echo/v4"},
		{"cmd/coalition", module + "/store"},
		{"format", module + "/deck"}, {"deck", module + "/cards"}, {"api", module + "/format"}, {"match", "slices"},
		{"notify", module + "/campaign"}, {"notify", "net/http"}, {"notify", "github.com/emersion/go-smtp"}, {"cmd/coalition", module + "/notify"},
	} {
		if why := violation(c.pkg, c.imp); why != "" {
			t.Errorf("%s importing %s refused: %s", c.pkg, c.imp, why)
		}
	}
}

// maxLines is the most lines a Go file other than a test may have: a longer one is split by
// rule or by subject.
const maxLines = 600

// oversizeAllowed are files allowed over maxLines for a while, each with the reason on its line;
// none is, since the engines were split by rule (issue 11).
var oversizeAllowed = []string{}

// generated matches the line that marks a generated Go file (go help generate).
var generated = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// sourceFiles lists the Go files under root that the line limit applies to, relative to root
// with slashes: no tests, nothing under testdata or a hidden folder, nothing generated.
func sourceFiles(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		head, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if generated.Match(head[:min(len(head), 2048)]) {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		out = append(out, filepath.ToSlash(rel))
		return err
	})
	return out, err
}

// countLines counts the lines of r; a last line without a newline counts.
func countLines(r io.Reader) (int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		n++
	}
	return n, sc.Err()
}

// overLimit says what is wrong with the file rel under root: too long, or on allowed but no
// longer over the limit; "" when nothing is.
func overLimit(root, rel string, allowed []string) (string, error) {
	f, err := os.Open(filepath.Join(root, rel))
	if err != nil {
		return "", err
	}
	defer f.Close()
	n, err := countLines(f)
	if err != nil {
		return "", err
	}
	switch listed := slices.Contains(allowed, rel); {
	case n > maxLines && !listed:
		return fmt.Sprintf("%s has %d lines, more than %d: split it by rule or by subject", rel, n, maxLines), nil
	case n <= maxLines && listed:
		return fmt.Sprintf("%s has %d lines, no more than %d: take it off oversizeAllowed", rel, n, maxLines), nil
	}
	return "", nil
}

// TestFileLength holds every Go file but tests and generated code to maxLines.
func TestFileLength(t *testing.T) {
	files, err := sourceFiles("../..")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 50 {
		t.Fatalf("found only %d Go files", len(files))
	}
	for _, rel := range oversizeAllowed {
		if !slices.Contains(files, rel) {
			t.Errorf("%s is on oversizeAllowed but is no longer a source file: take it off", rel)
		}
	}
	for _, rel := range files {
		why, err := overLimit("../..", rel, oversizeAllowed)
		if err != nil {
			t.Fatal(err)
		}
		if why != "" {
			t.Error(why)
		}
	}
}

// The line limit must catch a file of 601 lines and pass one of 600, tests and testdata aside.
func TestFileLengthCatches(t *testing.T) {
	lines := func(n int) string { return strings.Repeat("// a line\n", n) }
	for _, c := range []struct {
		text string
		want int
	}{
		{"", 0}, {"package p", 1}, {"package p\n", 1}, {lines(600), 600}, {lines(600) + "}", 601},
	} {
		if n, err := countLines(strings.NewReader(c.text)); err != nil || n != c.want {
			t.Errorf("countLines of %d bytes = %d, %v; want %d", len(c.text), n, err, c.want)
		}
	}
	root := t.TempDir()
	for name, text := range map[string]string{
		"long/long.go":          "package long\n" + lines(600),
		"long/exact.go":         "package long\n" + lines(599),
		"long/listed.go":        "package long\n" + lines(700),
		"long/short_listed.go":  "package long\n",
		"long/long_test.go":     "package long\n" + lines(700),
		"long/testdata/data.go": "package data\n" + lines(700),
		"long/gen.go":           "// Code generated by hand. DO NOT EDIT.\n\npackage long\n" + lines(700),
		".hidden/h.go":          "package h\n" + lines(700),
	} {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := sourceFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"long/exact.go", "long/listed.go", "long/long.go", "long/short_listed.go"}; !slices.Equal(files, want) {
		t.Fatalf("sourceFiles = %v, want %v", files, want)
	}
	allowed := []string{"long/listed.go", "long/short_listed.go"}
	for _, c := range []struct {
		file string
		fail bool
	}{
		{"long/long.go", true}, {"long/exact.go", false}, {"long/listed.go", false}, {"long/short_listed.go", true},
	} {
		why, err := overLimit(root, c.file, allowed)
		if err != nil {
			t.Fatal(err)
		}
		if (why != "") != c.fail {
			t.Errorf("%s: %q, want a failure: %v", c.file, why, c.fail)
		}
	}
}
