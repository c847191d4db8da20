package battle

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

func TestDefaultFormulasCompile(t *testing.T) {
	defs := DefaultFormulas()
	var names []string
	for _, f := range defs {
		if err := CheckFormula(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if f.Version != 1 {
			t.Errorf("%s: default version %d", f, f.Version)
		}
		names = append(names, f.Name)
	}
	if !slices.Equal(names, FormulaNames) {
		t.Errorf("defaults %v, want one for each of %v", names, FormulaNames)
	}
	all := Defaults().All()
	if !slices.Equal(all, defs) {
		t.Errorf("Defaults().All() = %v", all)
	}
}

func TestFormulaCompileErrors(t *testing.T) {
	tests := []struct {
		name string
		f    Formula
		want []string // parts of the message
	}{
		{"unknown variable", Formula{FormulaSize, 2, "10 * troops"}, []string{"size v2", "unknown name troops", "larger.troops", "smaller.strength"}},
		{"unknown field", Formula{FormulaSize, 2, "larger.soldiers"}, []string{"has no field soldiers"}},
		{"variable of another formula", Formula{FormulaKill, 3, "roll - enemy_roll + kill"}, []string{"unknown name kill", "enemy_roll"}},
		{"syntax", Formula{FormulaCasualties, 1, "me.troops * (0.4"}, []string{"casualties v1 formula does not compile", "unexpected token"}},
		{"gives a truth value", Formula{FormulaKill, 1, "roll > enemy_roll"}, []string{"expected float64, but got bool"}},
		{"gives text", Formula{FormulaRisk, 1, `"all"`}, []string{"expected float64, but got string"}},
		{"unknown formula", Formula{"weather", 1, "1"}, []string{`"weather" is not a battle formula`, "size, casualties, kill, capture, risk"}},
		{"version 0", Formula{FormulaSize, 0, "1"}, []string{"version number of 1 or more"}},
		{"empty", Formula{FormulaSize, 1, "  "}, []string{"size v1 formula is empty"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckFormula(tt.f)
			if err == nil {
				t.Fatal("compiles; want an error")
			}
			if !errors.Is(err, domain.ErrInvalid) {
				t.Errorf("error %v is not ErrInvalid", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if _, err := CompileFormulas([]Formula{tt.f}); err == nil {
				t.Error("CompileFormulas accepts it")
			}
		})
	}
	if _, err := CompileFormulas([]Formula{{FormulaSize, 1, "1"}, {FormulaSize, 2, "2"}}); err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("a formula given twice: %v", err)
	}
}

func TestFormulaVariables(t *testing.T) {
	tests := map[string][]string{
		FormulaSize:       {"larger.troops", "larger.strength", "larger.top", "larger.armies", "smaller.slot4"},
		FormulaCasualties: {"me.troops", "me.bonus", "me.pairs", "me.sum", "me.stratless", "me.runs", "enemy.runs", "won", "lost", "level", "armies"},
		FormulaKill:       {"roll", "enemy_roll", "me.top", "enemy.top", "damage", "pairs", "enemy_pairs"},
		FormulaCapture:    {"roll", "damage", "kill"},
		FormulaRisk:       {"risked", "roll", "won", "capture", "faction"},
	}
	for name, want := range tests {
		got := FormulaVariables(name)
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: variables %v lack %s", name, got, w)
			}
		}
		// every variable listed compiles in its formula
		for _, v := range got {
			text := v
			if strings.HasSuffix(v, "stratless") || strings.HasSuffix(v, "runs") || v == "won" || v == "lost" || v == "level" || v == "capture" {
				text = v + " ? 1 : 0"
			}
			if v == "faction" {
				text = `faction == "raider" ? 0 : 1`
			}
			if err := CheckFormula(Formula{Name: name, Version: 1, Text: text}); err != nil {
				t.Errorf("%s: variable %s: %v", name, v, err)
			}
		}
	}
	if FormulaVariables("weather") != nil {
		t.Error("variables for an unknown formula")
	}
}

func TestDefaultSizeFormula(t *testing.T) {
	fs := Defaults()
	tests := []struct {
		larger, smaller int
		want            int
	}{
		{10000, 10000, 0},
		{11000, 10000, 1},
		{20000, 10000, 5},
		{50000, 10000, 8},
		{10000, 0, 10},
	}
	for _, tt := range tests {
		got, err := fs.Size(SizeEnv{Larger: Stats{Strength: tt.larger}, Smaller: Stats{Strength: tt.smaller}})
		if err != nil || got != tt.want {
			t.Errorf("size bonus %d vs %d = %d, %v; want %d", tt.larger, tt.smaller, got, err, tt.want)
		}
	}
}

func TestFormulaResultsClamped(t *testing.T) {
	fs, err := CompileFormulas([]Formula{
		{FormulaSize, 2, "larger.troops"},
		{FormulaCasualties, 2, "me.troops * 3 - 10 * enemy.troops"},
		{FormulaRisk, 2, "risked * roll"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := fs.Size(SizeEnv{Larger: Stats{Troops: 9000}}); v != 10 {
		t.Errorf("size %d, want at most 10", v)
	}
	if v, _ := fs.Casualties(CasualtyEnv{Me: Fighter{Stats: Stats{Troops: 100}}}); v != 100 {
		t.Errorf("casualties %d, want at most me.troops", v)
	}
	if v, _ := fs.Casualties(CasualtyEnv{Me: Fighter{Stats: Stats{Troops: 100}}, Enemy: Fighter{Stats: Stats{Troops: 100}}}); v != 0 {
		t.Errorf("casualties %d, want at least 0", v)
	}
	if v, _ := fs.Risk(RiskEnv{Risked: 500, Roll: 7}); v != 500 {
		t.Errorf("risk %d, want at most risked", v)
	}
	if got := fs.Formula(FormulaSize); got.Version != 2 {
		t.Errorf("size formula %v, want version 2", got)
	}
	if got := fs.Formula(FormulaKill); got.Version != 1 {
		t.Errorf("kill formula %v, want the default", got)
	}
}

func TestFormulaRuntimeErrors(t *testing.T) {
	fs, err := CompileFormulas([]Formula{
		{FormulaSize, 2, "larger.troops % smaller.troops"},
		{FormulaCasualties, 2, "me.troops / (enemy.troops - enemy.troops)"},
		{FormulaRisk, 2, `won ? risked : "none"`},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Size(SizeEnv{Larger: Stats{Troops: 5}}); err == nil || !strings.Contains(err.Error(), "size v2 formula failed") {
		t.Errorf("remainder by zero: %v", err)
	}
	if _, err := fs.Casualties(CasualtyEnv{Me: Fighter{Stats: Stats{Troops: 5}}}); err == nil || !strings.Contains(err.Error(), "not a number") {
		t.Errorf("division by zero: %v", err)
	}
	if _, err := fs.Risk(RiskEnv{Risked: 500}); err == nil || !strings.Contains(err.Error(), "risk v2 formula") {
		t.Errorf("text where a number belongs: %v", err)
	}
	if v, err := fs.Risk(RiskEnv{Risked: 500, Won: true}); err != nil || v != 500 {
		t.Errorf("risk = %d, %v; want 500", v, err)
	}
}

// 4.5: a capture is always slightly worse than a kill on the same dice, whatever the judge
// writes.
func TestCaptureNeverBetterThanKill(t *testing.T) {
	generous, err := CompileFormulas([]Formula{{FormulaCapture, 2, "kill + 5"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, fs := range []*Formulas{Defaults(), generous} {
		for roll := 1; roll <= 20; roll++ {
			for enemy := 1; enemy <= 20; enemy++ {
				env := KillEnv{Roll: roll, EnemyRoll: enemy, Damage: 0.3, Me: Stats{Top: 900}, Enemy: Stats{Top: 400}}
				k, err1 := fs.Kill(env)
				c, err2 := fs.Capture(env)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if c > k-1 {
					t.Fatalf("%s: capture %v, kill %v on rolls %d/%d", fs.Formula(FormulaCapture), c, k, roll, enemy)
				}
			}
		}
	}
}

// A compiled set is shared by every battle judge's desk at once.
func TestFormulasShared(t *testing.T) {
	m := proposeMap()
	b := oneOnOne(m)
	done := make(chan error)
	for g := range 4 {
		go func() {
			var err error
			for i := range 50 {
				if _, e := Propose(m, b, Judgement{Strategies: both("Sai Rei", "Darkhand")}, Config{}, domain.ScenarioSeed(int64(i), g).Draws()); e != nil {
					err = e
				}
			}
			done <- err
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
