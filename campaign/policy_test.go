package campaign

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/movement"
)

// policyCalls type-checks the package's source in dir and returns, for each of its functions
// and methods (methods as "Type.name"), the functions and methods of the package it calls or
// passes on (judgeAction's may), and the names of the predicates the policy files (policy*.go) declare.
func policyCalls(t *testing.T, dir string) (calls map[string][]string, policy map[string]bool, methods map[string]*ast.FuncDecl) {
	t.Helper()
	// the imports' export data, as the go command builds it
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", dir).Output()
	if err != nil {
		t.Fatal(err)
	}
	exports := map[string]string{}
	for _, l := range strings.Fields(string(out)) {
		path, file, _ := strings.Cut(l, "=")
		exports[path] = file
	}
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		if name := e.Name(); strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) { return os.Open(exports[path]) })
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	pkg, err := (&types.Config{Importer: imp}).Check("campaign", fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	// key names a function or method of the package as calls does
	key := func(fn *types.Func) string {
		if recv := fn.Signature().Recv(); recv != nil {
			typ := recv.Type()
			if p, ok := typ.(*types.Pointer); ok {
				typ = p.Elem()
			}
			return typ.(*types.Named).Obj().Name() + "." + fn.Name()
		}
		return fn.Name()
	}
	calls, policy, methods = map[string][]string{}, map[string]bool{}, map[string]*ast.FuncDecl{}
	for _, f := range files {
		name := filepath.Base(fset.Position(f.Package).Filename)
		policyFile := strings.HasPrefix(name, "policy") && !strings.HasSuffix(name, "_test.go")
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			self := key(info.Defs[fn.Name].(*types.Func))
			methods[self] = fn
			if policyFile {
				policy[self] = true
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if used, ok := info.Uses[id].(*types.Func); ok && used.Pkg() == pkg {
						calls[self] = append(calls[self], key(used))
					}
				}
				return true
			})
		}
	}
	return calls, policy, methods
}

// asksPolicy reports whether fn reaches a predicate of policy.go through the package's own
// functions and methods.
func asksPolicy(fn string, calls map[string][]string, policy map[string]bool) bool {
	seen := map[string]bool{}
	var walk func(key string) bool
	walk = func(key string) bool {
		if policy[key] {
			return true
		}
		if seen[key] {
			return false
		}
		seen[key] = true
		return slices.ContainsFunc(calls[key], walk)
	}
	return walk(fn)
}

// Every method of the service that acts for an actor asks policy.go whether he may (and the
// check itself must catch a method that does not).
func TestEveryActionAsksThePolicy(t *testing.T) {
	calls, policy, methods := policyCalls(t, ".")
	if len(policy) < 20 {
		t.Fatalf("policy.go declares only %d predicates", len(policy))
	}
	checked := 0
	for key, fn := range methods {
		if !strings.HasPrefix(key, "Service.") || !fn.Name.IsExported() || key == "Service.Rogue" {
			continue
		}
		takesActor := slices.ContainsFunc(fn.Type.Params.List, func(f *ast.Field) bool {
			id, ok := f.Type.(*ast.Ident)
			return ok && id.Name == "Actor"
		})
		if !takesActor {
			continue
		}
		checked++
		if !asksPolicy(key, calls, policy) {
			t.Errorf("%s acts for an actor but asks no predicate of policy.go", key)
		}
	}
	if checked < 40 {
		t.Errorf("only %d methods act for an actor", checked)
	}
	// the check itself: a method that decides by itself is caught
	calls["Service.Rogue"] = []string{"access.admin", "access.need", "campaignAccess"}
	if asksPolicy("Service.Rogue", calls, policy) {
		t.Error("a method that decides by its own roles passed")
	}
	calls["Service.Rogue"] = append(calls["Service.Rogue"], "poster")
	if !policy["mayPost"] || !slices.Contains(calls["poster"], "mayPost") {
		t.Error("the call graph misses poster's call of mayPost")
	}
	if !asksPolicy("Service.Rogue", calls, policy) {
		t.Error("a method that asks through poster failed")
	}
}

// mayOrder is the rule engine's answer, not a copy that could drift from it: for every kind of
// army and author, a text line the engine rejects not_controller is exactly one mayOrder
// refuses (3.3.6, 5.4.1, M15).
func TestMayOrderIsTheEngines(t *testing.T) {
	sides := []domain.Side{domain.Coalition, domain.Phyrexia, domain.Mercenary}
	controllers := [][]string{nil, {"Hanna"}, {"hanna"}, {"Mirri"}, {"Hanna", "Mirri"}, {movement.MercenaryJudge}}
	authors := []string{"Hanna", "HANNA", "Mirri", "Gix", movement.MercenaryJudge, "Mercenary-Judge"}
	cases := 0
	for _, side := range sides {
		for _, ctl := range controllers {
			for _, author := range authors {
				army := domain.Army{Name: "Gerrard's Guard", Side: side, Rank: domain.Captain, At: domain.Square{Col: 3, Row: 4}, Controllers: ctl}
				m := &domain.Map{Grid: domain.DefaultGrid, Armies: []domain.Army{army}}
				lines := movement.CheckPost(m, domain.Post{ID: 1, Author: author, Text: army.Name + ": no move"}, movement.Options{})
				if len(lines) != 1 {
					t.Fatalf("%d lines checked", len(lines))
				}
				engine := lines[0].Rejection == nil || lines[0].Rejection.Code != domain.CodeNotController
				if got := mayOrder(author, &army); got != engine {
					t.Errorf("%s army controlled by %v, author %s: mayOrder %v, the engine %v", side, ctl, author, got, engine)
				}
				cases++
			}
		}
	}
	if !mayOrder("Hanna", &domain.Army{Side: domain.Coalition, Controllers: []string{"Hanna"}}) || mayOrder("", &domain.Army{Side: domain.Mercenary}) {
		t.Error("mayOrder does not tell a controller from nobody")
	}
	t.Logf("%d cases", cases)
}
