package mercenary

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

// TestPlanNamesGuidelineReasonAndDraw: every order of the plan names its guideline and its
// reason in words; where the seed's draw picked among equal choices, the plan gives the draw
// (label, faces, value) and the lines it passed over.
func TestPlanNamesGuidelineReasonAndDraw(t *testing.T) {
	m := suggestMap(raider("14C", 3000), team("Left", domain.Coalition, "12C", 1000), team("Right", domain.Phyrexia, "16C", 1000), warden("10E", 4000))
	lines := []string{"Raider One: 14C > 12C; engage Left", "Raider One: 14C > 16C; engage Right"}
	for i := int64(0); i < 10; i++ {
		seed := domain.ScenarioSeed(i, 0)
		plan := (*Memory)(nil).Plan(m, seed, PlanOptions{})
		if len(plan) != 2 {
			t.Fatalf("plan %v", plan)
		}
		r, w := plan[0], plan[1]
		k := seed.Intn("mercenary-suggest:raider one", 2)
		if r.Line != lines[k] || r.Guideline != GuideRaider || r.Draw == nil || *r.Draw != (Draw{Label: "mercenary-suggest:raider one", Die: 2, Value: k + 1}) || !slices.Equal(r.Choices, []string{lines[1-k]}) {
			t.Fatalf("seed %d: raider %+v", i, r)
		}
		target := []string{"Left at 12C", "Right at 16C"}[k]
		if want := "weakest army in range: " + target + ", 1,000 alive (strength 2,000 against Raider One's 12,000), away from every site (6.3.1)"; r.Reason != want {
			t.Fatalf("reason %q, want %q", r.Reason, want)
		}
		if w.Line != "Warden: no move" || w.Guideline != GuideDefender || w.Draw != nil || w.Choices != nil || !strings.Contains(w.Reason, "holds its town Ashvale") {
			t.Fatalf("warden %+v", w)
		}
	}
}

// TestPlanLeavesOrderedArmies: an army the judge already ordered gets no order in the plan,
// and the square its move ends on is taken (M12).
func TestPlanLeavesOrderedArmies(t *testing.T) {
	m := suggestMap(raider("14C", 3000), unit{name: "Raider Two", side: domain.Mercenary, faction: domain.Raider, at: "16C", alive: 3000, size: 2}, team("Weak", domain.Coalition, "15D", 500))
	plan := (*Memory)(nil).Plan(m, domain.ScenarioSeed(1, 0), PlanOptions{Ordered: []domain.Order{engage(mv("Raider One", "14C", "15D"), "Weak")}})
	if len(plan) != 1 || plan[0].Army != "Raider Two" || strings.Contains(plan[0].Line, "15D") {
		t.Fatalf("plan %+v", plan)
	}
}

// TestPlanDisbandsSpentRaider: a raider with fewer than a quarter of its troops alive disbands
// (6.3.2); at a quarter it raids on.
func TestPlanDisbandsSpentRaider(t *testing.T) {
	for _, c := range []struct {
		alive int
		want  string
	}{{1249, "Raider One: disband"}, {1250, "Raider One: no move"}} {
		m := suggestMap(raider("14C", c.alive))
		m.Armies[0].Troops[0].Full = 5000
		got := Suggest(m, domain.ScenarioSeed(1, 0))[0]
		if got.Line != c.want {
			t.Fatalf("%d alive: %q (%s)", c.alive, got.Line, got.Reason)
		}
		if c.alive < 1250 && (got.Guideline != GuideDisband || got.Order.Kind != domain.Hold || got.Order.Note != DisbandNote) {
			t.Fatalf("disband %+v", got)
		}
	}
}

// TestOceanMemory (6.2.1): the ocean army does not attack a target it engaged before, and after
// OceanAreaBattles battles around one square it leaves the armies there and moves on.
func TestOceanMemory(t *testing.T) {
	kraken := unit{name: "Kraken", side: domain.Mercenary, faction: domain.Theme, at: "20L", alive: 4000, size: 3}
	swimmers := []unit{kraken, team("Old Foe", domain.Coalition, "20N", 3000), team("New Foe", domain.Phyrexia, "21M", 3000)}
	at := func(turn int, square string, targets ...string) Engagement {
		return Engagement{Turn: turn, Army: "Kraken", Square: sq(square), Targets: targets}
	}
	for _, c := range []struct {
		name string
		past []Engagement
		want string
	}{
		{"no memory: either target, drawn", nil, ""},
		{"a past target is left alone", []Engagement{at(1, "22N", "Old Foe")}, "Kraken: 20L > 21M; engage New Foe"},
		{"two battles in the area: it stays", []Engagement{at(1, "22N", "Someone"), at(2, "20K", "Another")}, ""},
		{"three battles in the area: it moves on", []Engagement{at(1, "22N", "Someone"), at(2, "20K", "Another"), at(3, "21L", "A Third")}, "moves on"},
		{"three battles, the first elsewhere: it stays", []Engagement{at(1, "2A", "Someone"), at(2, "20K", "Another"), at(3, "21L", "A Third")}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := suggestMap(swimmers...)
			mem := &Memory{Ocean: "Kraken", Engagements: c.past}
			got := mem.Plan(m, domain.ScenarioSeed(3, 0), PlanOptions{})[0]
			switch {
			case c.want == "moves on":
				// to an ocean square more than 3 steps from 21L, with no engagement
				if to := got.Order.Legs; got.Order.Keyword != "" || len(to) != 1 || domain.Steps(to[0].To, sq("21L")) <= OceanArea || m.Terrain.At(to[0].To) != domain.Ocean {
					t.Fatalf("%q (%s): it should move on", got.Line, got.Reason)
				}
			case c.want != "" && got.Line != c.want:
				t.Fatalf("%q (%s), want %q", got.Line, got.Reason, c.want)
			case c.want == "" && got.Order.Keyword != domain.Engage:
				t.Fatalf("%q (%s): it should attack", got.Line, got.Reason)
			}
			if got.Guideline != GuideTheme {
				t.Fatalf("guideline %q", got.Guideline)
			}
		})
	}
}

// TestEngagements lists the battles mercenaries made, with their targets, push battles aside.
func TestEngagements(t *testing.T) {
	m := suggestMap(raider("14C", 3000), team("Sai Rei", domain.Coalition, "14C", 100), team("Grim", domain.Phyrexia, "5E", 100), warden("5E", 100))
	got := Engagements(m, 4, []domain.Battle{
		{Square: sq("14C"), Armies: []string{"Raider One", "Sai Rei"}, Kind: domain.Attack, Attacker: "Raider One"},
		{Square: sq("5E"), Armies: []string{"Grim", "Warden"}, Kind: domain.Push},
	})
	want := []Engagement{{Turn: 4, Army: "Raider One", Square: sq("14C"), Targets: []string{"Sai Rei"}}}
	if len(got) != 1 || got[0].Turn != want[0].Turn || got[0].Army != want[0].Army || got[0].Square != want[0].Square || !slices.Equal(got[0].Targets, want[0].Targets) {
		t.Fatalf("engagements %+v", got)
	}
}

// TestStrategies: the AI writes a strategy for every mercenary in a battle; a raider goes for
// a kill on the weakest enemy when it has 500 in its top slot (Hellbent, 6.3.2), an At War
// army on its war enemy, a town defender risks nothing.
func TestStrategies(t *testing.T) {
	m := suggestMap(raider("14C", 3000), team("Strong", domain.Coalition, "14C", 4000), team("Weak", domain.Coalition, "14C", 600),
		warden("10E", 3000), team("Taker", domain.Phyrexia, "10E", 100),
		themeArmy("25C"), team("Coalition Army", domain.Coalition, "25C", 100), team("Phyrexian Army", domain.Phyrexia, "25C", 900),
		unit{name: "Starved", side: domain.Mercenary, faction: domain.Raider, at: "30A", alive: 400, size: 2}, team("Prey", domain.Phyrexia, "30A", 100))
	mem := &Memory{AtWar: map[string]domain.Side{"Chimera": domain.Phyrexia}}
	fought := []domain.Battle{
		{Square: sq("10E"), Armies: []string{"Taker", "Warden"}},
		{Square: sq("14C"), Armies: []string{"Raider One", "Strong", "Weak"}},
		{Square: sq("25C"), Armies: []string{"Chimera", "Coalition Army", "Phyrexian Army"}},
		{Square: sq("30A"), Armies: []string{"Prey", "Starved"}},
	}
	got := mem.Strategies(m, fought)
	want := []struct{ army, kill, guide string }{{"Warden", "", GuideDefender}, {"Raider One", "Weak", "6.3.2"}, {"Chimera", "Phyrexian Army", GuideAtWar}, {"Starved", "", "6.3.2"}}
	if len(got) != len(want) {
		t.Fatalf("strategies %+v", got)
	}
	for i, w := range want {
		if g := got[i]; g.Army != w.army || g.Kill != w.kill || g.Guideline != w.guide || g.Text == "" || g.Square != fought[i].Square {
			t.Errorf("strategy %d: %+v, want %+v", i, g, w)
		}
	}
}

// TestNoteTerritories: a theme army at peace takes its square as its territory; the first on
// ocean, with no ocean army on record, becomes the ocean army.
func TestNoteTerritories(t *testing.T) {
	m := suggestMap(themeArmy("25C"), unit{name: "Kraken", side: domain.Mercenary, faction: domain.Theme, at: "20L", alive: 4000, size: 3},
		unit{name: "Eel", side: domain.Mercenary, faction: domain.Theme, at: "21L", alive: 4000, size: 3})
	if got := NoteTerritories(m); !slices.Equal(got, []string{"Chimera", "Kraken", "Eel"}) {
		t.Fatalf("changed %v", got)
	}
	if m.Armies[0].Territory != sq("25C") || !m.Armies[1].Ocean || m.Armies[2].Ocean || m.Armies[2].Territory != sq("21L") {
		t.Fatalf("armies %+v", m.Armies)
	}
	if got := NoteTerritories(m); got != nil {
		t.Fatalf("noted again: %v", got)
	}
}

// TestParseMode reads the campaign setting.
func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": ModeOff, "off": ModeOff, "Suggest": ModeSuggest, " auto ": ModeAuto} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseMode("on"); err == nil {
		t.Error("ParseMode(on) passed")
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1840: "1,840", 1234567: "1,234,567", -1500: "-1,500"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q", n, got)
		}
	}
}

// TestDrawLabelsDocumented: every label the mercenary package draws under is in
// docs/RANDOMNESS.md, so that anyone holding the seed can re-derive its draws (B6).
func TestDrawLabelsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/RANDOMNESS.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, label := range []string{"raider-spawn", "raider-spawn-rank", "raider-spawn-square", "raider-troop:<slot>", "theme-at-war:<name key of the killed town defender>", "mercenary-suggest:<name key>"} {
		if !strings.Contains(string(doc), "`"+label+"`") {
			t.Errorf("docs/RANDOMNESS.md does not document the label %s", label)
		}
	}
}

// TestMemoryNoteTerritoriesMatchesTheMap: noting territories in the memory gives the memory the
// map would give once NoteTerritories has noted them on it.
func TestMemoryNoteTerritoriesMatchesTheMap(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		m, _ := FullMap(seed)
		for i := range m.Armies {
			if a := &m.Armies[i]; seed%2 == 0 && a.Name == "Theme 2" {
				a.AtWar = domain.Phyrexia
			}
		}
		mem := FromMap(m)
		if mem == nil {
			mem = &Memory{}
		}
		mem.NoteTerritories(m)
		f := m.Clone()
		NoteTerritories(f)
		want := FromMap(f)
		if !reflect.DeepEqual(mem.Territory, want.Territory) || mem.Ocean != want.Ocean {
			t.Fatalf("map %d: memory %v %q, map %v %q", seed, mem.Territory, mem.Ocean, want.Territory, want.Ocean)
		}
	}
}
