package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
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
	cmd := exec.Command("go", "list", "-json", "./...")
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

// violation says what is wrong with package p importing imp, or "".
func violation(p, imp string) string {
	dep, isLocal := local(imp)
	switch {
	case p == "domain":
		if !standard(imp) {
			return "domain imports only the standard library"
		}
	case p == "movement" || p == "battle" || p == "mercenary":
		if isLocal && dep != "domain" {
			return "a rule engine imports domain and no other package of the module (never another engine)"
		}
		if under(imp, infrastructure...) {
			return "a rule engine never imports a database, the network or the web"
		}
	case p == "turn" || p == "campaign":
		if isLocal && !slices.Contains([]string{"domain", "turn", "movement", "battle", "mercenary", "cards", "roster"}, dep) {
			return "turn imports the engines (the card catalogue and troop-list rules among them) and domain, never store, api or scenario"
		}
		if under(imp, infrastructure...) {
			return "turn knows no database or web library: store implements its interfaces"
		}
	case p == "store":
		if isLocal && !slices.Contains([]string{"domain", "campaign", "migrations"}, dep) {
			return "store implements turn's interfaces and knows nothing above them"
		}
	case p == "api":
		if isLocal && !slices.Contains([]string{"domain", "campaign", "turn", "scenario"}, dep) {
			return "api imports turn, domain and scenario, never store"
		}
		if under(imp, "gorm.io", "database/sql", "github.com/mattn", "github.com/jackc") {
			return "api never touches the database"
		}
	case under(p, "cmd"):
		return ""
	default:
		if isLocal && under(dep, "store", "api", "cmd") {
			return "only cmd wires store and api"
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
		{"turn", module + "/api"},
		{"turn", "gorm.io/gorm"},
		{"api", module + "/store"},
		{"api", "gorm.io/gorm"},
		{"store", module + "/api"},
		{"scenario", module + "/store"},
		{"roster", "github.com/labstack/echo/v4"},
	} {
		if violation(c.pkg, c.imp) == "" {
			t.Errorf("%s importing %s passed", c.pkg, c.imp)
		}
	}
	for _, c := range []struct{ pkg, imp string }{
		{"domain", "crypto/hmac"}, {"battle", "github.com/expr-lang/expr"}, {"turn", module + "/movement"}, {"turn", module + "/roster"},
		{"store", "gorm.io/gorm"}, {"api", module + "/scenario"}, {"api", "github.com/labstack/echo/v4"},
		{"cmd/coalition", module + "/store"},
	} {
		if why := violation(c.pkg, c.imp); why != "" {
			t.Errorf("%s importing %s refused: %s", c.pkg, c.imp, why)
		}
	}
}
