package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/enginetest"
	"github.com/coalition-wargame/coalition/mercenary"
	"github.com/coalition-wargame/coalition/turn"
)

// demoServer is the demo (startDemo) with its campaign's path and the accounts' tokens.
type demoServer struct {
	*demo
	base   string
	tokens map[string]string
}

// as is the token of a demo account, logged in once.
func (d *demoServer) as(name string) string {
	if tok, ok := d.tokens[name]; ok {
		return tok
	}
	tok := d.login(name, d.passwords[name])
	d.tokens[name] = tok
	return tok
}

// mapOf turns a map view back into the map it shows (a judge's view shows all of it).
func mapOf(t *testing.T, raw []byte) *domain.Map {
	var v struct {
		Turn    int
		Grid    struct{ Cols, Rows int }
		Terrain [][]domain.Terrain
		Sites   []domain.Site
		Armies  []domain.Army
		Battles []domain.Battle
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	m := &domain.Map{Grid: domain.Grid{Cols: v.Grid.Cols, Rows: v.Grid.Rows}, Sites: v.Sites, Armies: v.Armies, Battles: v.Battles, Turn: v.Turn - 1,
		Terrain: domain.TerrainMap{Default: domain.Plains, Squares: map[domain.Square]domain.Terrain{}}}
	for r, row := range v.Terrain {
		for c, ter := range row {
			if ter != domain.Plains {
				m.Terrain.Squares[domain.Square{Col: uint8(c + 1), Row: uint8(r + 1)}] = ter
			}
		}
	}
	return m
}

// TestDemoMercenaryAIOverHTTP plays the demo campaign for 20 turns through the real program
// (random port, SQLite file) with mercenary_ai auto — the demo's setting — and no order from
// anyone for the mercenaries, the teams posting realistic orders. After every lock it checks
// that every order the AI made obeys its chapter-6 guideline (mercenary.Check finds nothing on
// the map the turn opened on), that every mercenary the judge orders that was neither fighting
// nor on a long move got one, that no mercenary battle went stratless (B2: the AI filed every
// mercenary's strategy before the deadline, and the lock settled each such battle), and that
// the turn replays the same. The mercenary judge waives each after-lock edit window (6.3.2).
func TestDemoMercenaryAIOverHTTP(t *testing.T) {
	d := &demoServer{demo: startDemo(t), base: "/api/campaigns/1", tokens: map[string]string{}}
	judge, merc := d.as("Barrin"), d.as("Maraxus")
	var st struct {
		Mode string `json:"mercenary_ai"`
	}
	d.call("GET", d.base+"/mercenary", "", nil, http.StatusOK, &st)
	if st.Mode != "auto" {
		t.Fatalf("the demo's mercenary_ai is %q, not auto", st.Mode)
	}
	// the mercenary judge opens an after-lock edit window at every lock (6.3.2), which he waives
	d.call("PUT", d.base+"/mercenary", merc, map[string]any{"after_lock_edit_hours": 12}, http.StatusOK, nil)
	r := enginetest.Rand(13)
	var history []mercenary.Engagement
	counts := map[string]int{}
	for n := 1; n <= 20; n++ {
		var tv struct {
			Status   string
			Deadline time.Time
		}
		d.call("GET", fmt.Sprintf("%s/turns/%d", d.base, n), "", nil, http.StatusOK, &tv)
		if tv.Status != "open" {
			t.Fatalf("turn %d is %s", n, tv.Status)
		}
		d.clock.Set(tv.Deadline.Add(-2 * time.Hour))
		clear(d.tokens) // the clock moved on: tokens of 12 hours have expired
		judge, merc = d.as("Barrin"), d.as("Maraxus")
		opening := mapOf(t, d.call("GET", fmt.Sprintf("%s/turns/%d/map", d.base, n), judge, nil, http.StatusOK, nil))
		counts["team posts"] += postTeamOrders(t, d, r, opening, n)
		var bv struct{ Battles []campaign.BattleView }
		d.call("GET", fmt.Sprintf("%s/turns/%d/battles", d.base, n), merc, nil, http.StatusOK, &bv)
		for _, p := range stratless(bv.Battles) {
			t.Errorf("turn %d: %s", n, p)
			counts["stratless"]++
		}
		counts["mercenary battles"] += mercenaryBattles(bv.Battles)

		var locked struct{ Status string }
		d.call("POST", fmt.Sprintf("%s/turns/%d/lock", d.base, n), judge, map[string]string{"reason": "the AI soak"}, http.StatusOK, &locked)
		if locked.Status == "editing" {
			d.call("POST", fmt.Sprintf("%s/turns/%d/mercenary/edit", d.base, n), merc, map[string]any{"waive": true}, http.StatusOK, nil)
			counts["edit windows"]++
		}
		var rv struct{ Report json.RawMessage }
		d.call("GET", fmt.Sprintf("%s/turns/%d/report", d.base, n), judge, nil, http.StatusOK, &rv)
		var rep turn.Report
		if err := json.Unmarshal(rv.Report, &rep); err != nil {
			t.Fatal(err)
		}
		for _, p := range aiProblems(opening, &rep, history) {
			t.Errorf("turn %d: %s", n, p)
		}
		if ai := rep.MercenaryAI; ai != nil {
			counts["orders"] += len(ai.Orders)
			counts["strategies"] += len(ai.Strategies)
			counts["engagements"] += len(ai.Engagements)
		}
		if rep.Mercenary != nil && rep.Mercenary.Spawn.Army != "" {
			counts["spawned"]++
		}
		history = append(history, turn.History(&rep)...)
		var rp struct {
			Same   bool
			Detail string
		}
		d.call("GET", fmt.Sprintf("%s/turns/%d/replay", d.base, n), judge, nil, http.StatusOK, &rp)
		if !rp.Same {
			t.Errorf("turn %d does not replay the same: %s", n, rp.Detail)
		}
		if rep.Winner != nil {
			t.Logf("%s won at turn %d", *rep.Winner, n)
			break
		}
	}
	t.Logf("%v", counts)
	if counts["orders"] == 0 || counts["edit windows"] == 0 || counts["team posts"] == 0 || counts["mercenary battles"] == 0 {
		t.Errorf("the soak proves little: %v", counts)
	}
	if counts["stratless"] > 0 {
		t.Errorf("%d mercenary battles went stratless", counts["stratless"])
	}
}

// postTeamOrders posts realistic orders for the teams' armies, each post by its author, and
// counts them; the mercenaries get none.
func postTeamOrders(t *testing.T, d *demoServer, r interface{ IntN(int) int }, m *domain.Map, n int) int {
	t.Helper()
	o := enginetest.Posts(enginetest.Rand(uint64(r.IntN(1<<30))), m, d.clock.Now(), int64(1000*n), enginetest.Style{Realistic: true})
	posted := 0
	for _, p := range o.Posts {
		if p.Author == mercenary.Judge || d.passwords[p.Author] == "" {
			continue
		}
		d.call("POST", d.base+"/posts", d.as(p.Author), postBody(p.Text, p.Private, p.ID, o.Transfers), http.StatusCreated, nil)
		posted++
	}
	return posted
}

// stratless names the mercenaries of a turn's battles whose strategy is not in, as the
// mercenary judge sees them at the battle desk (B2); the AI files them as the turn opens.
func stratless(battles []campaign.BattleView) []string {
	var out []string
	for _, b := range battles {
		for _, sd := range b.Sides {
			if sd.Side != domain.Mercenary {
				continue
			}
			for _, a := range sd.Armies {
				if !slices.Contains(sd.Sent, a) {
					out = append(out, fmt.Sprintf("%s fights at %s with no strategy", a, b.Square))
				}
			}
		}
	}
	return out
}

func mercenaryBattles(battles []campaign.BattleView) int {
	n := 0
	for _, b := range battles {
		if slices.ContainsFunc(b.Sides, func(s campaign.BattleSide) bool { return s.Side == domain.Mercenary }) {
			n++
		}
	}
	return n
}

// TestDemoSoakChecksCanFail shows the soak's checks catch what they look for: an AI order
// next to a town breaks 6.3.1, a mercenary unordered is missed, and a mercenary in a battle
// with no strategy sent is stratless.
func TestDemoSoakChecksCanFail(t *testing.T) {
	su, err := demoSetup()
	if err != nil {
		t.Fatal(err)
	}
	m := su.Map
	raider := m.Army("Goblin Marauders")
	town := m.Site("Jamuraa")
	bad := domain.Order{Army: raider.Name, Kind: domain.MoveKind, From: raider.At, Legs: []domain.Leg{{To: domain.Square{Col: town.At.Col + 1, Row: town.At.Row}}}}
	rep := &turn.Report{MercenaryAI: &turn.MercenaryAI{Mode: mercenary.ModeAuto, Orders: []mercenary.Suggestion{{Army: raider.Name, Line: "x", Order: bad, Guideline: "6.3.1", Reason: "r"}}}}
	got := strings.Join(aiProblems(m, rep, nil), "\n")
	for _, want := range []string{"next to Jamuraa (20C) (6.3.1)", "Keldon Raiders got no order"} {
		if !strings.Contains(got, want) {
			t.Errorf("the checks miss %q:\n%s", want, got)
		}
	}
	bv := []campaign.BattleView{{Square: raider.At, Sides: []campaign.BattleSide{{Side: domain.Mercenary, Armies: []string{raider.Name}}, {Side: domain.Coalition, Armies: []string{"Gerrard"}}}}}
	if len(stratless(bv)) != 1 || mercenaryBattles(bv) != 1 {
		t.Errorf("a mercenary with no strategy sent is not found stratless")
	}
}

// aiProblems checks one lock's AI orders against the map the turn opened on: each obeys its
// guideline, has a reason, and every mercenary the judge orders that neither fights nor is on
// a long move got one.
func aiProblems(m *domain.Map, rep *turn.Report, history []mercenary.Engagement) []string {
	ai := rep.MercenaryAI
	if ai == nil || ai.Mode != mercenary.ModeAuto {
		return []string{"the lock report has no mercenary AI on auto"}
	}
	out := turn.CheckAI(m, rep, history)
	fought := map[string]bool{}
	for _, b := range m.Battles {
		for _, a := range b.Armies {
			fought[a] = true
		}
	}
	for _, a := range m.Armies {
		if a.Side != domain.Mercenary || len(a.Controllers) > 0 || fought[a.Name] || a.Plan != nil {
			continue
		}
		if !slices.ContainsFunc(ai.Orders, func(s mercenary.Suggestion) bool { return s.Army == a.Name }) {
			out = append(out, a.Name+" got no order")
		}
	}
	for _, s := range ai.Strategies {
		if !fought[s.Army] {
			out = append(out, fmt.Sprintf("a strategy for %s, which fights no battle", s.Army))
		}
	}
	return out
}
