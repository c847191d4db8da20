package domain

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// troopArmy is a Lieutenant army of two creatures, one wounded on days 1 and 2.
func troopArmy() Army {
	return Army{Name: "Sai Rei", Side: Coalition, Rank: Lieutenant, Days: 2, Colors: []Color{Green}, Troops: []Troop{
		{Creature: "Kris Mage", Size: Size{1, 1}, Colors: []Color{Red}, Slot: 1, Alive: 3000, Full: 5000,
			Wounds: []Wound{{Day: 1, Count: 500}, {Day: 2, Count: 300}}},
		{Creature: "Grizzly Bears", Size: Size{2, 2}, Colors: []Color{Green}, Slot: 2, Alive: 1000, Full: 2500},
	}}
}

// TestTroopChanges pins what each Army method that changes troops does (2.1, T2, B7, D1–D5,
// 6.1.2).
func TestTroopChanges(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(a *Army) int
		// got is what the method returned; troop is Troops[i] afterwards
		got   int
		i     int
		troop Troop
	}{
		{"lose some", func(a *Army) int { return a.Lose(1, 400) }, 400, 1, Troop{Alive: 600, Full: 2500}},
		{"lose more than alive", func(a *Army) int { return a.Lose(1, 4000) }, 1000, 1, Troop{Alive: 0, Full: 2500}},
		{"lose a negative number", func(a *Army) int { return a.Lose(1, -5) }, 0, 1, Troop{Alive: 1000, Full: 2500}},
		{"send lowers full too (T2)", func(a *Army) int { return a.Send(1, 400) }, 400, 1, Troop{Alive: 600, Full: 2100}},
		{"send more than alive", func(a *Army) int { return a.Send(1, 1500) }, 1000, 1, Troop{Alive: 0, Full: 1500}},
		{"add to a creature it has", func(a *Army) int { return b2i(a.Add("grizzly bears", 300, Troop{})) }, 1, 1, Troop{Alive: 1300, Full: 2500}},
		{"add: full never past the slot's room (2.1)", func(a *Army) int { return b2i(a.Add("Grizzly Bears", 700, Troop{})) }, 1, 1, Troop{Alive: 1700, Full: 2500}},
		{"add a new creature to the smallest slot with room", func(a *Army) int {
			return b2i(a.Add("Llanowar Elves", 1000, Troop{Creature: "Llanowar Elves", Size: Size{1, 1}}))
		}, 1, 2, Troop{Alive: 1000, Full: 1000, Slot: 1}},
		{"add a new creature no slot has room for", func(a *Army) int {
			return b2i(a.Add("Craw Wurm", 10, Troop{Creature: "Craw Wurm", Size: Size{6, 4}}))
		}, 0, 1, Troop{Alive: 1000, Full: 2500}},
		{"wound on the current day joins its record", func(a *Army) int { a.Wound(0, 100); return 0 }, 0, 0,
			Troop{Alive: 3000, Full: 5000, Wounds: []Wound{{1, 500}, {2, 400}}}},
		{"heal up to day 1 (D3, D4)", func(a *Army) int { return a.Heal(0, 1) }, 1700, 0,
			Troop{Alive: 4700, Full: 5000, Wounds: []Wound{{2, 300}}}},
		{"heal up to day 0 heals only what predates the count", func(a *Army) int { return a.Heal(0, 0) }, 1200, 0,
			Troop{Alive: 4200, Full: 5000, Wounds: []Wound{{1, 500}, {2, 300}}}},
		{"heal before the count heals nothing", func(a *Army) int { return a.Heal(0, -1) }, 0, 0,
			Troop{Alive: 3000, Full: 5000, Wounds: []Wound{{1, 500}, {2, 300}}}},
		{"heal everything", func(a *Army) int { return a.Heal(0, math.MaxInt) }, 2000, 0, Troop{Alive: 5000, Full: 5000}},
		{"clear wounds", func(a *Army) int { a.ClearWounds(); return 0 }, 0, 0, Troop{Alive: 3000, Full: 5000}},
		{"restore whatever day they fell (6.1.2)", func(a *Army) int { return a.Restore(0, 2500) }, 2000, 0,
			Troop{Alive: 5000, Full: 5000, Wounds: []Wound{{1, 500}, {2, 300}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := troopArmy()
			got := c.change(&a)
			tr := a.Troops[c.i]
			want := c.troop
			if want.Slot == 0 {
				want.Slot = tr.Slot
			}
			if got != c.got || tr.Alive != want.Alive || tr.Full != want.Full || tr.Slot != want.Slot || !slices.Equal(tr.Wounds, want.Wounds) {
				t.Errorf("got %d, troop %d alive, %d full, slot %d, wounds %v; want %d, %d, %d, slot %d, %v",
					got, tr.Alive, tr.Full, tr.Slot, tr.Wounds, c.got, want.Alive, want.Full, want.Slot, want.Wounds)
			}
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestTroopChangesLeaveTheForkedMap changes the troops of a forked map with every Army method
// that changes troops and checks that the map it was forked from did not change: each method
// copies the shared troops itself, so that no caller can forget to.
func TestTroopChangesLeaveTheForkedMap(t *testing.T) {
	changes := map[string]func(a *Army){
		"Lose":        func(a *Army) { a.Lose(0, 10) },
		"Send":        func(a *Army) { a.Send(0, 10) },
		"Add":         func(a *Army) { a.Add("Kris Mage", 10, Troop{}) },
		"Add new":     func(a *Army) { a.Add("Llanowar Elves", 10, Troop{Creature: "Llanowar Elves", Size: Size{1, 1}}) },
		"Wound":       func(a *Army) { a.Wound(0, 10) },
		"Wound again": func(a *Army) { a.Days = 1; a.Wound(0, 10) },
		"ClearWounds": func(a *Army) { a.ClearWounds() },
		"Heal":        func(a *Army) { a.Heal(0, 1) },
		"Restore":     func(a *Army) { a.Restore(0, 10) },
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			m := &Map{Grid: DefaultGrid, Armies: []Army{troopArmy()}}
			m.Armies[0].Troops = slices.Grow(m.Armies[0].Troops, 4) // room to append in place
			before, _ := json.Marshal(m)
			change(&m.Fork().Armies[0])
			after, _ := json.Marshal(m)
			if string(before) != string(after) || len(m.Armies[0].Troops[:3][2].Creature) > 0 {
				t.Errorf("%s on a fork changed the map it was forked from:\n%s\n%s", name, before, after)
			}
		})
	}
}

// TestEnginesChangeTroopsOnlyThroughArmy type-checks the rule engines that change a lock's
// forked map (battle, movement, mercenary) and fails on any statement of theirs that changes a
// troop, a wound or an army's troop list other than through the Army methods of troops.go: an
// assignment to a field of Troop or Wound or to Army.Troops, or a copy or clear into a troop or
// wound list.
func TestEnginesChangeTroopsOnlyThroughArmy(t *testing.T) {
	engines := []string{"battle", "movement", "mercenary"}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", exportData(t, engines))
	for _, dir := range engines {
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
		names, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		var files []*ast.File
		for _, n := range names {
			if strings.HasSuffix(n, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, n, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		conf := types.Config{Importer: imp}
		if _, err := conf.Check(modulePath+"/"+dir, fset, files, info); err != nil {
			t.Fatalf("type-checking %s: %v", dir, err)
		}
		for _, f := range files {
			for _, bad := range troopChanges(f, info) {
				t.Errorf("%s changes troops itself; use an Army method of domain/troops.go", fset.Position(bad))
			}
		}
	}
}

const modulePath = "github.com/coalition-wargame/coalition"

// exportData finds the compiled export data of the packages the engines import (go list
// -export), for the gc importer.
func exportData(t *testing.T, engines []string) func(path string) (io.ReadCloser, error) {
	t.Helper()
	args := []string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}
	for _, e := range engines {
		args = append(args, "../"+e)
	}
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	files := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, file, ok := strings.Cut(line, "\t"); ok && file != "" {
			files[path] = file
		}
	}
	return func(path string) (io.ReadCloser, error) {
		f, ok := files[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	}
}

// troopChanges lists the statements of f that change a troop, a wound or a troop list.
func troopChanges(f *ast.File, info *types.Info) []token.Pos {
	protected := func(e ast.Expr) bool {
		for {
			switch x := e.(type) {
			case *ast.ParenExpr:
				e = x.X
				continue
			case *ast.IndexExpr:
				if isList(info.TypeOf(x.X)) {
					return true
				}
				e = x.X
				continue
			case *ast.SelectorExpr:
				s := info.Selections[x]
				if s == nil || s.Kind() != types.FieldVal {
					return false
				}
				switch domainType(s.Recv()) {
				case "Troop", "Wound":
					return true
				case "Army":
					return x.Sel.Name == "Troops"
				}
				return false
			}
			return false
		}
	}
	var out []token.Pos
	ast.Inspect(f, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			for _, l := range s.Lhs {
				if protected(l) {
					out = append(out, s.Pos())
				}
			}
		case *ast.IncDecStmt:
			if protected(s.X) {
				out = append(out, s.Pos())
			}
		case *ast.CallExpr:
			if id, ok := s.Fun.(*ast.Ident); ok && (id.Name == "copy" || id.Name == "clear") && len(s.Args) > 0 && isList(info.TypeOf(s.Args[0])) {
				out = append(out, s.Pos())
			}
		}
		return true
	})
	return out
}

// domainType is the name of t, or of what it points to, when it is a type of domain, else "".
func domainType(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == modulePath+"/domain" {
		return n.Obj().Name()
	}
	return ""
}

// isList reports whether t is a list of domain's troops or wounds.
func isList(t types.Type) bool {
	sl, ok := t.(*types.Slice)
	if !ok {
		return false
	}
	switch domainType(sl.Elem()) {
	case "Troop", "Wound":
		return true
	}
	return false
}
