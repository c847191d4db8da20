package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/roster"
	"github.com/coalition-wargame/coalition/turn"
)

// The fixture's turn 1: its battle deadline and its lock (C1).
var (
	deadline1 = time.Date(2026, 3, 8, 5, 0, 0, 0, time.UTC)
	lock1     = time.Date(2026, 3, 9, 5, 0, 0, 0, time.UTC)
)

// want checks a response's status and decodes its JSON into out (when not nil).
func want(t *testing.T, res *httptest.ResponseRecorder, status int, out any) {
	t.Helper()
	if res.Code != status {
		t.Fatalf("%d, want %d: %s", res.Code, status, truncate(res.Body.String()))
	}
	if out != nil {
		if err := json.Unmarshal(res.Body.Bytes(), out); err != nil {
			t.Fatalf("%v: %s", err, truncate(res.Body.String()))
		}
	}
}

// detail is a problem document's detail.
func detail(res *httptest.ResponseRecorder) string {
	var p api_problem
	json.Unmarshal(res.Body.Bytes(), &p)
	return p.Detail
}

type api_problem struct {
	Detail   string `json:"detail"`
	Problems []struct {
		Rule, Code, Creature, Message string
	} `json:"problems"`
}

var vorthosStrategy = map[string]any{"army": "Vorthos", "text": "Vorthos waits in the reeds and strikes at night."}

// at moves the clock and forgets the tokens, which last 12 hours.
func (e *env) at(t time.Time) {
	e.clock.Set(t)
	e.tokens = map[string]string{}
}

func lockOK(t *testing.T, e *env) {
	t.Helper()
	want(t, e.as(mover, "POST", c1+"/turns/1/lock", map[string]string{"reason": "test"}), http.StatusOK, nil)
}

func report1(t *testing.T, e *env) turn.Report {
	t.Helper()
	var rv struct{ Report turn.Report }
	want(t, e.as(mover, "GET", c1+"/turns/1/report", nil), http.StatusOK, &rv)
	return rv.Report
}

// B1: a battle whose two sides both sent strategies waits for the judge; the lock refuses it
// and changes nothing.
func TestLock422WhenBothSidesSentStrategiesAndNoResult(t *testing.T) {
	e := newEnv(t)
	want(t, e.as(sameSide, "POST", battle15J+"/strategies", karnStrategy), http.StatusCreated, nil)
	want(t, e.as(enemy, "POST", battle15J+"/strategies", vorthosStrategy), http.StatusCreated, nil)
	before := e.dump()
	res := e.as(mover, "POST", c1+"/turns/1/lock", map[string]string{"reason": "now"})
	want(t, res, http.StatusUnprocessableEntity, nil)
	if d := detail(res); !strings.Contains(d, "the battle at 15J (Karn vs Vorthos) has no result") {
		t.Errorf("detail %q", d)
	}
	if e.dump() != before {
		t.Error("the refused lock changed the database")
	}
}

// B2, 4.2.1: a side that sent no strategy loses to the side that did, which gets +10; the
// server settles the battle itself at the lock and publishes its dice.
func TestLock200SettlesABattleWithAStratlessSide(t *testing.T) {
	e := newEnv(t)
	want(t, e.as(sameSide, "POST", battle15J+"/strategies", karnStrategy), http.StatusCreated, nil)
	e.at(lock1)
	lockOK(t, e)
	rep := report1(t, e)
	if len(rep.Settled) != 1 || rep.Settled[0].Winner != domain.Coalition {
		t.Fatalf("settled %+v", rep.Settled)
	}
	var results campaign.ResultsView
	want(t, e.as(enemy, "GET", c1+"/turns/1/results", nil), http.StatusOK, &results)
	if len(results.Results) != 1 || results.Results[0].Winner != "Karn" {
		t.Errorf("results %+v", results.Results)
	}
	var dice campaign.DiceView
	want(t, e.as(anon, "GET", c1+"/turns/1/dice", nil), http.StatusOK, &dice)
	if len(dice.Rolls) < 8 || !strings.HasPrefix(dice.Rolls[0].Label, "dice:15J:") {
		t.Errorf("the stratless battle's dice are not published: %+v", dice.Rolls)
	}
	var b campaign.BattleView
	want(t, e.as(batty, "GET", battle15J, nil), http.StatusOK, &b)
	if b.Proposal == nil || b.Proposal.Proposal.Sides[0].StrategyBonus+b.Proposal.Proposal.Sides[1].StrategyBonus != 10 || b.Proposal.MadeBy != campaign.ServerJudge {
		t.Errorf("the server's proposal %+v", b.Proposal)
	}
}

// B2: when neither side sent a strategy nobody wins and nobody loses; the battle goes on.
func TestLock200BothStratlessNobodyWins(t *testing.T) {
	e := newEnv(t)
	lockOK(t, e)
	rep := report1(t, e)
	if len(rep.Settled) != 0 || len(rep.Battles) != 1 || rep.Battles[0].Square != sq("15J") {
		t.Fatalf("settled %+v, battles %+v", rep.Settled, rep.Battles)
	}
	if rep.Alive.Map()["Karn"].Map()["Grizzly Bears"] != 1000 || rep.Alive.Map()["Vorthos"].Map()["Grizzly Bears"] != 1000 {
		t.Errorf("losses in a battle nobody fought: %+v", rep.Alive)
	}
}

// B1: a strategy is seen by its own side and the battle judges, never by the other side,
// before the lock or after it.
func TestPostStrategies201SeenByItsSideOnly(t *testing.T) {
	e := newEnv(t)
	var st campaign.Strategy
	want(t, e.as(sameSide, "POST", battle15J+"/strategies", karnStrategy), http.StatusCreated, &st)
	if st.Army != "Karn" || st.Contingency || st.Choices.Kill != "Vorthos" || st.Author != "Kim" {
		t.Errorf("strategy %+v", st)
	}
	text := karnStrategy["text"].(string)
	check := func(when string) {
		for c, sees := range map[string]bool{sameSide: true, player: true, leader: true, batty: true, admin: true, enemy: false, anon: false, merc: false, mover: false} {
			for _, path := range []string{battle15J, c1 + "/turns/1/battles"} {
				body := e.as(c, "GET", path, nil).Body.String()
				if got := strings.Contains(body, text); got != sees {
					t.Errorf("%s, %s sees Karn's strategy at %s: %v, want %v", when, c, path, got, sees)
				}
			}
		}
	}
	check("before the lock")
	lockOK(t, e)
	check("after the lock")
}

// 5.2.3: a contingency sends a strategy only in the last 24 hours before the deadline, and the
// controller's strategy counts over his.
func TestPostStrategies201ByAContingencyInTheLastDay(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	if _, err := e.svc.SetMember(ctx, e.actor(leader), e.cid, campaign.Member{Name: "Kim", Contingency: "Gazetzot"}); err != nil {
		t.Fatal(err)
	}
	stand := map[string]any{"army": "Karn", "text": "Gazetzot writes for Karn: hold.", "capture": "Vorthos"}
	res := e.as(player, "POST", battle15J+"/strategies", stand)
	want(t, res, http.StatusForbidden, nil)
	if d := detail(res); !strings.Contains(d, "last 24 hours") {
		t.Errorf("detail %q", d)
	}
	e.at(deadline1.Add(-12 * time.Hour))
	var st campaign.Strategy
	want(t, e.as(player, "POST", battle15J+"/strategies", stand), http.StatusCreated, &st)
	if !st.Contingency || st.Author != "Gazetzot" {
		t.Errorf("contingency strategy %+v", st)
	}
	// the contingency's stands while the controller sends none
	var p campaign.ProposalRecord
	want(t, e.as(batty, "POST", battle15J+"/proposal", map[string]any{}), http.StatusOK, &p)
	if len(p.Judgement.Strategies) != 1 || p.Judgement.Strategies[0].Capture != "Vorthos" {
		t.Errorf("judgement %+v", p.Judgement)
	}
	want(t, e.as(sameSide, "POST", battle15J+"/strategies", karnStrategy), http.StatusCreated, nil)
	p = campaign.ProposalRecord{}
	want(t, e.as(batty, "POST", battle15J+"/proposal", map[string]any{}), http.StatusOK, &p)
	if len(p.Judgement.Strategies) != 1 || p.Judgement.Strategies[0].Kill != "Vorthos" || p.Judgement.Strategies[0].Capture != "" {
		t.Errorf("the controller's strategy does not count over the contingency's: %+v", p.Judgement)
	}
	// the enemy's contingency is not Gazetzot
	want(t, e.as(player, "POST", battle15J+"/strategies", vorthosStrategy), http.StatusForbidden, nil)
	e.at(deadline1.Add(time.Minute))
	res = e.as(sameSide, "POST", battle15J+"/strategies", karnStrategy)
	want(t, res, http.StatusConflict, nil)
	if d := detail(res); !strings.Contains(d, "were due at 2026-03-08 05:00 UTC") {
		t.Errorf("detail %q", d)
	}
}

// 4.3.2, 4.4, 4.5: the structured choices are checked when the strategy is sent.
func TestPostStrategies422ForChoicesTheRulesRefuse(t *testing.T) {
	e := newEnv(t)
	if _, err := e.svc.Sanction(context.Background(), e.actor(batty), e.cid, 1, campaign.SanctionRequest{Army: "Karn", Severity: 1, Reason: "set-up"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		caller string
		body   map[string]any
		detail string
	}{
		{"kill and capture", sameSide, map[string]any{"army": "Karn", "text": "x", "kill": "Vorthos", "capture": "Vorthos"}, "not both"},
		{"kill of a friend", sameSide, map[string]any{"army": "Karn", "text": "x", "kill": "Karn"}, "not an enemy army"},
		{"leaver of a lone army", sameSide, map[string]any{"army": "Karn", "text": "x", "leaves": map[string]any{"army": "Karn"}}, "side of two armies"},
		{"no text", sameSide, map[string]any{"army": "Karn", "text": " "}, "the strategy is empty"},
		{"army not in the battle", player, map[string]any{"army": "Sai Rei", "text": "x"}, "does not fight in the battle at 15J"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := e.as(c.caller, "POST", battle15J+"/strategies", c.body)
			want(t, res, http.StatusUnprocessableEntity, nil)
			if d := detail(res); !strings.Contains(d, c.detail) {
				t.Errorf("detail %q does not say %q", d, c.detail)
			}
		})
	}
	// a sanction took Karn's bears below 500: no kill (4.3.2)
	var m campaign.MapView
	want(t, e.as(anon, "GET", c1+"/map", nil), http.StatusOK, &m)
	for _, a := range m.Armies {
		if a.Name == "Karn" && a.Troops[0].Alive < 500 {
			res := e.as(sameSide, "POST", battle15J+"/strategies", karnStrategy)
			want(t, res, http.StatusUnprocessableEntity, nil)
			if d := detail(res); !strings.Contains(d, "needs 500") {
				t.Errorf("detail %q", d)
			}
		}
	}
}

// B2–B7: the judge's bonus, the server's proposal, its confirmation, and the lock that uses
// the confirmed result.
func TestPostProposal200AndConfirm200(t *testing.T) {
	e := newEnv(t)
	want(t, e.as(sameSide, "POST", battle15J+"/strategies", karnStrategy), http.StatusCreated, nil)
	want(t, e.as(enemy, "POST", battle15J+"/strategies", vorthosStrategy), http.StatusCreated, nil)
	res := e.as(batty, "POST", battle15J+"/confirm", map[string]any{})
	want(t, res, http.StatusConflict, nil)
	want(t, e.as(batty, "POST", battle15J+"/proposal", map[string]any{"bonus_to": "Vorthos", "bonus": 11}), http.StatusBadRequest, nil)
	var p campaign.ProposalRecord
	want(t, e.as(batty, "POST", battle15J+"/proposal", map[string]any{"bonus_to": "Karn", "bonus": 7}), http.StatusOK, &p)
	pr := p.Proposal
	if pr.Result.Square != sq("15J") || len(pr.Rolls) < 8 || len(pr.Formulas) != 5 || pr.Formulas[0] != "size v1" {
		t.Fatalf("proposal %+v", pr)
	}
	var karn battle.SideReport
	for _, s := range pr.Sides {
		if s.Side == domain.Coalition {
			karn = s
		}
	}
	if karn.StrategyBonus != 7 {
		t.Errorf("Karn's side has strategy bonus %d, want 7", karn.StrategyBonus)
	}
	// every die comes from the turn's seed (B5, B6)
	var turn1 struct{ Commitment string }
	want(t, e.as(anon, "GET", c1+"/turns/1", nil), http.StatusOK, &turn1)
	var b campaign.BattleView
	want(t, e.as(batty, "POST", battle15J+"/confirm", map[string]any{"text": "The ford ran red."}), http.StatusOK, &b)
	if b.Result == nil || b.Result.Winner != pr.Result.Winner || b.Proposal.ConfirmedBy != "Batty" {
		t.Fatalf("confirmed %+v", b)
	}
	lockOK(t, e)
	rep := report1(t, e)
	if len(rep.Settled) == 0 {
		if pr.Result.Winner != "" {
			t.Fatalf("the lock did not use the confirmed result: %+v", rep)
		}
	} else if rep.Settled[0].Winners[0] != pr.Result.Winner && !contains(rep.Settled[0].Winners, pr.Result.Winner) {
		t.Errorf("the lock's winner %v, the confirmed %s", rep.Settled[0].Winners, pr.Result.Winner)
	}
	for _, army := range []string{"Karn", "Vorthos"} {
		lost := pr.Result.Losses[army]["Grizzly Bears"]
		if k := pr.Result.Kill; k != nil && k.By == army {
			lost += k.RiskedLost
		}
		if k := pr.Result.Kill; k != nil && k.Success && k.Target == army {
			continue
		}
		if got := rep.Alive.Map()[army].Map()["Grizzly Bears"]; got != 1000-lost {
			t.Errorf("%s has %d alive after losing %d of 1000", army, got, lost)
		}
	}
	// the result text is public after the lock; the strategies are not
	body := e.as(enemy, "GET", battle15J, nil).Body.String()
	if !strings.Contains(body, "The ford ran red.") || strings.Contains(body, karnStrategy["text"].(string)) {
		t.Errorf("after the lock the other side sees %s", truncate(body))
	}
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// The judge may adjust the proposal; an adjustment that does not fit the battle is refused.
func TestPostConfirm200Adjusted422Misfit(t *testing.T) {
	e := newEnv(t)
	propose15J(e)
	adjusted := map[string]any{"square": "15J", "winner": "Vorthos", "losses": map[string]any{"Karn": map[string]int{"Grizzly Bears": 600}}}
	var b campaign.BattleView
	want(t, e.as(batty, "POST", battle15J+"/confirm", map[string]any{"result": adjusted}), http.StatusOK, &b)
	if b.Result.Winner != "Vorthos" || b.Result.Losses["Karn"]["Grizzly Bears"] != 600 {
		t.Errorf("result %+v", b.Result)
	}
	before := e.dump()
	for _, bad := range []map[string]any{
		{"square": "15J", "winner": "Sai Rei"},
		{"square": "3F", "winner": "Karn"},
		{"square": "15J", "winner": "Karn", "kill": map[string]any{"by": "Vorthos", "target": "Karn", "success": true}},
	} {
		res := e.as(batty, "POST", battle15J+"/confirm", map[string]any{"result": bad})
		want(t, res, http.StatusUnprocessableEntity, nil)
	}
	if e.dump() != before {
		t.Error("a refused confirmation changed the database")
	}
	lockOK(t, e)
	if rep := report1(t, e); len(rep.Settled) != 1 || rep.Settled[0].Winner != domain.Phyrexia || rep.Alive.Map()["Karn"].Map()["Grizzly Bears"] != 400 {
		t.Errorf("the lock did not use the adjusted result: %+v %+v", rep.Settled, rep.Alive)
	}
}

// B3, B7: formulas are versioned, compiled on save, and used by the next proposal.
func TestPutFormula200NewVersion422DoesNotCompile(t *testing.T) {
	e := newEnv(t)
	res := e.as(batty, "PUT", c1+"/formulas/size", map[string]string{"text": "larger.troopz * 2"})
	want(t, res, http.StatusUnprocessableEntity, nil)
	if d := detail(res); !strings.Contains(d, "the size v2 formula does not compile") || !strings.Contains(d, "larger.troops") {
		t.Errorf("detail %q", d)
	}
	var fs campaign.FormulasView
	want(t, e.as(batty, "PUT", c1+"/formulas/size", map[string]string{"text": "3"}), http.StatusOK, &fs)
	want(t, e.as(admin, "PUT", c1+"/formulas/size", map[string]string{"text": "4"}), http.StatusOK, &fs)
	if fs.Formulas[0].Name != "size" || fs.Formulas[0].Version != 3 || fs.Formulas[0].Text != "4" || fs.Formulas[0].By != "admin" {
		t.Errorf("formulas %+v", fs.Formulas[0])
	}
	if len(fs.History) != 2 || fs.History[0].By != "Batty" || fs.History[0].Version != 2 {
		t.Errorf("history %+v", fs.History)
	}
	var p campaign.ProposalRecord
	want(t, e.as(batty, "POST", battle15J+"/proposal", map[string]any{}), http.StatusOK, &p)
	if p.Proposal.Formulas[0] != "size v3" {
		t.Errorf("the proposal used %v", p.Proposal.Formulas)
	}
}

// B6: from the revealed seed anyone reproduces every die of a turn; a changed seed or a
// changed roll is detected. All through the HTTP API.
func TestDiceOverHTTP(t *testing.T) {
	e := newEnv(t)
	var before campaign.DiceView
	want(t, e.as(anon, "GET", c1+"/turns/1/dice", nil), http.StatusOK, &before)
	if before.Seed != "" || len(before.Rolls) != 0 || len(before.Commitment) != 64 {
		t.Fatalf("before the lock the publication shows %+v", before)
	}
	want(t, e.as(sameSide, "POST", battle15J+"/strategies", karnStrategy), http.StatusCreated, nil)
	want(t, e.as(enemy, "POST", battle15J+"/strategies", vorthosStrategy), http.StatusCreated, nil)
	want(t, e.as(batty, "POST", battle15J+"/proposal", map[string]any{"bonus_to": "Vorthos", "bonus": 2}), http.StatusOK, nil)
	want(t, e.as(batty, "POST", battle15J+"/confirm", map[string]any{}), http.StatusOK, nil)
	want(t, e.as(batty, "POST", c1+"/turns/1/sanctions", map[string]any{"army": "Sai Rei", "severity": 2, "reason": "Tevesh ordered it"}), http.StatusCreated, nil)
	lockOK(t, e)

	res := e.as(anon, "GET", c1+"/turns/1/dice", nil)
	var pub campaign.DiceView
	want(t, res, http.StatusOK, &pub)
	if pub.Commitment != before.Commitment {
		t.Fatalf("the commitment changed at the lock: %s then %s", before.Commitment, pub.Commitment)
	}
	// The body is what coalition verify-dice reads.
	parsed, err := battle.ParsePublication(res.Body.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if ms, err := parsed.Check(); err != nil || len(ms) != 0 {
		t.Fatalf("the honest publication fails: %v %v", err, ms)
	}
	// Re-derive every die by hand from the seed, as docs/RANDOMNESS.md says.
	seed, err := domain.ParseSeed(pub.Seed)
	if err != nil || seed.Commitment() != pub.Commitment {
		t.Fatalf("seed %q does not match the commitment: %v", pub.Seed, err)
	}
	labels := map[string]bool{}
	for _, r := range pub.Rolls {
		if got := seed.Intn(r.Label, r.Faces()) + 1; got != r.Value {
			t.Errorf("%s: published %d, the seed gives %d", r.Label, r.Value, got)
		}
		labels[strings.SplitN(r.Label, ":", 2)[0]] = true
	}
	if !labels["dice"] || !labels["sanction"] {
		t.Errorf("the publication lacks the battle's or the sanction's dice: %v", labels)
	}
	var check campaign.DiceCheck
	want(t, e.as(anon, "GET", c1+"/turns/1/dice/verify", nil), http.StatusOK, &check)
	if !check.OK || check.Rolls != len(pub.Rolls) || len(check.Mismatches) != 0 {
		t.Errorf("the server's check %+v", check)
	}
	// A changed seed breaks the commitment and the rolls; a changed roll is named.
	other := parsed
	other.Seed = strings.Repeat("ab", 32)
	if ms, _ := other.Check(); len(ms) == 0 || ms[0].Index != 0 {
		t.Errorf("a changed seed passed: %v", ms)
	}
	forged := parsed
	forged.Rolls = append([]battle.Roll(nil), parsed.Rolls...)
	forged.Rolls[3].Value = forged.Rolls[3].Value%20 + 1
	ms, _ := forged.Check()
	if len(ms) != 1 || ms[0].Index != 4 || ms[0].Label != parsed.Rolls[3].Label {
		t.Errorf("a changed roll: %v", ms)
	}
}

// 5.4.1: a sanction costs the army severity × d20 × (100, 50, 25, 10) troops at once; in the
// last 24 hours before the deadline the sanctioned army's side gets 24 more hours for its
// strategies.
func TestPostSanctions201AppliesAtOnceAndExtendsTheStrategyDeadline(t *testing.T) {
	e := newEnv(t)
	var s1, s2 campaign.Sanction
	want(t, e.as(batty, "POST", c1+"/turns/1/sanctions", map[string]any{"army": "Sai Rei", "severity": 1, "reason": "first"}), http.StatusCreated, &s1)
	want(t, e.as(batty, "POST", c1+"/turns/1/sanctions", map[string]any{"army": "Sai Rei", "severity": 1, "reason": "second"}), http.StatusCreated, &s2)
	if s1.K != 1 || s2.K != 2 || s1.Roll.Label != "sanction:Sai Rei:1" || s2.Roll.Label != "sanction:Sai Rei:2" {
		t.Fatalf("sanctions %+v %+v", s1, s2)
	}
	lost := min(1000, s1.Roll.Value*100) + min(1000-min(1000, s1.Roll.Value*100), s2.Roll.Value*100)
	var m campaign.MapView
	want(t, e.as(enemy, "GET", c1+"/map", nil), http.StatusOK, &m)
	for _, a := range m.Armies {
		if a.Name == "Sai Rei" && a.Troops[0].Alive != 1000-lost {
			t.Errorf("Sai Rei has %d alive after losing %d", a.Troops[0].Alive, lost)
		}
	}
	want(t, e.as(batty, "POST", c1+"/turns/1/sanctions", map[string]any{"army": "Sai Rei", "severity": 1, "reason": " "}), http.StatusUnprocessableEntity, nil)

	e.at(deadline1.Add(-2 * time.Hour))
	want(t, e.as(batty, "POST", c1+"/turns/1/sanctions", map[string]any{"army": "Karn", "severity": 1, "reason": "Tevesh sent Karn's strategy"}), http.StatusCreated, nil)
	var b campaign.BattleView
	want(t, e.as(anon, "GET", battle15J, nil), http.StatusOK, &b)
	for _, s := range b.Sides {
		wantDue := deadline1
		if s.Side == domain.Coalition {
			wantDue = deadline1.Add(24 * time.Hour)
		}
		if !s.StrategyDeadline.Equal(wantDue) {
			t.Errorf("%s's strategies are due at %s, want %s", s.Side, s.StrategyDeadline, wantDue)
		}
	}
	e.at(deadline1.Add(time.Hour))
	want(t, e.as(sameSide, "POST", battle15J+"/strategies", map[string]any{"army": "Karn", "text": "rewritten with fewer bears"}), http.StatusCreated, nil)
	want(t, e.as(enemy, "POST", battle15J+"/strategies", vorthosStrategy), http.StatusConflict, nil)
	lockOK(t, e)
	if rep := report1(t, e); rep.Alive.Map()["Sai Rei"].Map()["Grizzly Bears"] != 1000-lost {
		t.Errorf("the lock did not use the sanctioned map: %+v", rep.Alive.Map()["Sai Rei"])
	}
	var rp struct{ Same bool }
	want(t, e.as(mover, "GET", c1+"/turns/1/replay", nil), http.StatusOK, &rp)
	if !rp.Same {
		t.Error("a turn with sanctions does not replay the same")
	}
}

// baseCampaign is a campaign with Mira, a green Coalition army that has counted 2 days at
// Green Base, Thorn a Phyrexian on its portal with 1 day, and a destroyed Black Base.
func baseCampaign(t *testing.T, e *env, days int) string {
	t.Helper()
	bears := []domain.Troop{{Creature: "Grizzly Bears", Size: domain.Size{Power: 2, Toughness: 2}, Colors: []domain.Color{domain.Green}, Slot: 1, Alive: 800, Full: 1000}}
	m := &domain.Map{Grid: domain.DefaultGrid, Sites: []domain.Site{
		{Name: "Green Base", Kind: domain.Base, Side: domain.Coalition, Color: domain.Green, At: sq("5C")},
		{Name: "Black Base", Kind: domain.Base, Side: domain.Coalition, Color: domain.Black, At: sq("9C"), Destroyed: true},
		{Name: "Town", Kind: domain.Town, Side: domain.Neutral, At: sq("12C")},
		{Name: "Portal", Kind: domain.Portal, Side: domain.Phyrexia, At: sq("30C")},
	}, Armies: []domain.Army{
		{Name: "Mira", Side: domain.Coalition, Rank: domain.Captain, At: sq("5C"), Controllers: []string{"Kim"}, Colors: []domain.Color{domain.Green, domain.Black}, Days: days, Troops: bears},
		{Name: "Wanderer", Side: domain.Coalition, Rank: domain.Lieutenant, At: sq("12C"), Controllers: []string{"Kim"}, Colors: []domain.Color{domain.Green}, Days: 3, Troops: bears},
		{Name: "Thorn", Side: domain.Phyrexia, Rank: domain.Captain, At: sq("30C"), Controllers: []string{"Tevesh"}, Days: 1, Troops: bears},
	}}
	created, err := e.svc.CreateCampaign(context.Background(), e.actor(admin), campaign.Setup{Name: "Bases", Map: m, Members: []campaign.Member{
		{Name: "Kim", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.General},
		{Name: "Tevesh", Roles: []campaign.Role{campaign.Player}, Side: domain.Phyrexia, Rank: domain.General},
		{Name: "Batty", Roles: []campaign.Role{campaign.BattleJudge}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return "/api/campaigns/" + strconv.FormatInt(created.Campaign.ID, 10)
}

// 2.3.2, D6: after counting 2 days at a base where it heals, the controller sends a new troop
// list; a Coalition army may not gain a creature of a destroyed base's colour.
func TestPostArmyTroops200AfterTwoDaysAtABase(t *testing.T) {
	e := newEnv(t)
	base := baseCampaign(t, e, 2)
	list := map[string]any{"troops": []map[string]any{{"creature": "Llanowar Elves", "count": 3000}, {"creature": "Grizzly Bears", "count": 1000, "slot": 1}}}
	want(t, e.as(enemy, "POST", base+"/armies/Mira/troops", list), http.StatusForbidden, nil)
	var ch campaign.ArmyChange
	want(t, e.as(sameSide, "POST", base+"/armies/Mira/troops", list), http.StatusOK, &ch)
	if len(ch.Army.Troops) != 2 || ch.Army.Troops[0].Creature != "Llanowar Elves" || ch.Army.Troops[0].Alive != 3000 {
		t.Errorf("new troops %+v", ch.Army.Troops)
	}
	var m campaign.MapView
	want(t, e.as(anon, "GET", base+"/map", nil), http.StatusOK, &m)
	if m.Armies[0].Name != "Mira" || len(m.Armies[0].Troops) != 2 {
		t.Errorf("the map does not show the change at once: %+v", m.Armies[0])
	}
	// Black Base is destroyed: Mira may not gain a black creature it did not have.
	res := e.as(sameSide, "POST", base+"/armies/Mira/troops", map[string]any{"troops": []map[string]any{{"creature": "Plague Rats", "count": 2000}, {"creature": "Grizzly Bears", "count": 1000}}})
	want(t, res, http.StatusUnprocessableEntity, nil)
	var p api_problem
	json.Unmarshal(res.Body.Bytes(), &p)
	found := false
	for _, pr := range p.Problems {
		if pr.Code == "destroyed_base_color" && pr.Rule == "2.3.2" && pr.Creature == "Plague Rats" {
			found = true
		}
	}
	if !found || !strings.Contains(p.Detail, "Plague Rats") {
		t.Errorf("problems %+v, detail %q", p.Problems, p.Detail)
	}
	// a town heals but never lets an army change troops (2.3.1.3)
	res = e.as(sameSide, "POST", base+"/armies/Wanderer/troops", list)
	want(t, res, http.StatusConflict, nil)
	// one day on its portal is not two
	res = e.as(enemy, "POST", base+"/armies/Thorn/troops", list)
	want(t, res, http.StatusConflict, nil)
	if d := detail(res); !strings.Contains(d, "has counted 1 day") {
		t.Errorf("detail %q", d)
	}
}

// 2.6: a new player who has fought 2 battles, given an army by his leaders, customises it once:
// new name and units, the same colours and troops alive.
func TestPostArmyCustomise200OnceForANewPlayer(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	twoBattles(t, e)
	guard := campaign.ArmyEdit{Colors: []domain.Color{domain.Green}, Troops: roster.List{{Creature: "Grizzly Bears", Count: 1000, Slot: 2}}}
	if _, err := e.svc.EditArmy(ctx, e.actor(mover), e.cid, "Urza's Guard", guard); err != nil {
		t.Fatal(err)
	}
	e.at(start.Add(3 * time.Hour))
	if _, err := e.svc.SetControl(ctx, e.actor(leader), e.cid, "Urza's Guard", []string{"Kim"}, "Kim's own army"); err != nil {
		t.Fatal(err)
	}
	body := map[string]any{"name": "Kim's Guard", "troops": []map[string]any{{"creature": "Llanowar Elves", "count": 1200, "dead": 200}}}
	want(t, e.as(player, "POST", c1+"/armies/Urza's%20Guard/customise", body), http.StatusForbidden, nil)
	bad := e.as(sameSide, "POST", c1+"/armies/Urza's%20Guard/customise", map[string]any{"troops": []map[string]any{{"creature": "Llanowar Elves", "count": 3000}}})
	want(t, bad, http.StatusUnprocessableEntity, nil)
	if d := detail(bad); !strings.Contains(d, "not healed") {
		t.Errorf("detail %q", d)
	}
	var ch campaign.ArmyChange
	want(t, e.as(sameSide, "POST", c1+"/armies/Urza's%20Guard/customise", body), http.StatusOK, &ch)
	if ch.Army.Name != "Kim's Guard" || ch.Army.Troops[0].Alive != 1000 || ch.Army.Colors[0] != domain.Green {
		t.Errorf("customised %+v", ch.Army)
	}
	var ctl campaign.ControlList
	want(t, e.as(anon, "GET", c1+"/control", nil), http.StatusOK, &ctl)
	if got := ctl.Current["Kim's Guard"]; len(got) != 1 || got[0] != "Kim" {
		t.Errorf("control list %+v", ctl.Current)
	}
	res := e.as(sameSide, "POST", c1+"/armies/Kim's%20Guard/customise", body)
	want(t, res, http.StatusConflict, nil)
	if d := detail(res); !strings.Contains(d, "already customised") {
		t.Errorf("detail %q", d)
	}
	// orders use the new name, and the lock carries the army on
	want(t, e.as(sameSide, "POST", c1+"/posts", map[string]string{"text": "Kim's Guard: 20F > 21F"}), http.StatusCreated, nil)
	want(t, e.as(mover, "POST", c1+"/turns/4/lock", map[string]string{"reason": "test"}), http.StatusOK, nil)
	var rv struct{ Report turn.Report }
	want(t, e.as(mover, "GET", c1+"/turns/4/report", nil), http.StatusOK, &rv)
	if rv.Report.Positions.Map()["Kim's Guard"] != sq("21F") {
		t.Errorf("positions %+v", rv.Report.Positions)
	}
	var rp struct{ Same bool }
	want(t, e.as(mover, "GET", c1+"/turns/4/replay", nil), http.StatusOK, &rp)
	if !rp.Same {
		t.Error("a turn with a customisation does not replay the same")
	}
}

// 2.5.2: judges create armies with checked troop lists; every problem comes back at once.
func TestPostArmies201And422ListsEveryProblem(t *testing.T) {
	e := newEnv(t)
	res := e.as(mover, "POST", c1+"/armies", map[string]any{"name": "Bad Army", "side": "coalition", "rank": "lieutenant", "at": "30J", "colors": []string{"green"},
		"troops": []map[string]any{{"creature": "Grizzly Bearz", "count": 100}, {"creature": "Craw Wurm", "count": 100}, {"creature": "Shivan Dragon", "count": 100}}})
	want(t, res, http.StatusUnprocessableEntity, nil)
	var p api_problem
	json.Unmarshal(res.Body.Bytes(), &p)
	creatures := map[string]bool{}
	for _, pr := range p.Problems {
		creatures[pr.Creature] = true
		if pr.Rule == "" || pr.Message == "" {
			t.Errorf("problem %+v", pr)
		}
	}
	if len(p.Problems) < 3 || !creatures["Craw Wurm"] || !creatures["Shivan Dragon"] || !strings.Contains(p.Detail, "Grizzly Bearz") {
		t.Errorf("problems %+v", p.Problems)
	}
	var ch campaign.ArmyChange
	want(t, e.as(mover, "POST", c1+"/armies", map[string]any{"name": "Llanowar Watch", "side": "coalition", "rank": "lieutenant", "at": "30J",
		"colors": []string{"green"}, "controllers": []string{"Kim"},
		"troops": []map[string]any{{"creature": "Llanowar Elves", "count": 2000}, {"creature": "Mirri, Cat Warrior", "legend": true}}}), http.StatusCreated, &ch)
	if ch.Army.Legend != "Mirri, Cat Warrior" || ch.Army.Troops[0].Slot != 1 {
		t.Errorf("created %+v", ch.Army)
	}
	want(t, e.as(mover, "POST", c1+"/armies", map[string]any{"name": "llanowar watch", "side": "coalition", "rank": "lieutenant", "at": "31J", "colors": []string{"green"},
		"troops": []map[string]any{{"creature": "Llanowar Elves", "count": 2000}}}), http.StatusConflict, nil)
	// Mirri is taken now: no legend in two armies (2.1)
	var rep struct {
		Problems []struct{ Code string }
	}
	want(t, e.as(anon, "POST", c1+"/troops/check", map[string]any{"army": "Karn", "colors": []string{"green"},
		"troops": []map[string]any{{"creature": "Mirri, Cat Warrior", "legend": true}, {"creature": "Llanowar Elves", "count": 10}}}), http.StatusOK, &rep)
	if len(rep.Problems) != 1 || rep.Problems[0].Code != "legend_taken" {
		t.Errorf("the check of a legend held by another army: %+v", rep.Problems)
	}
	want(t, e.as(sameSide, "POST", c1+"/posts", map[string]string{"text": "Llanowar Watch: 30J > 31J"}), http.StatusCreated, nil)
	lockOK(t, e)
	if r := report1(t, e); r.Positions.Map()["Llanowar Watch"] != sq("31J") {
		t.Errorf("the created army did not move at the lock: %+v", r.Positions)
	}
}

// Cards: search, lookup with suggestions, and a judge's correction kept in the database and
// put over the card data again at the next start.
func TestPutCards200SurvivesARestart(t *testing.T) {
	e := newEnv(t)
	var found []cards.Card
	want(t, e.as(anon, "GET", "/api/cards?q=grizzly%20bea&limit=3", nil), http.StatusOK, &found)
	if len(found) == 0 || found[0].Name != "Grizzly Bears" {
		t.Errorf("search %+v", found)
	}
	res := e.as(anon, "GET", "/api/cards/Grizly%20Bears", nil)
	want(t, res, http.StatusNotFound, nil)
	if d := detail(res); !strings.Contains(d, "Grizzly Bears") {
		t.Errorf("no suggestion in %q", d)
	}
	want(t, e.as(batty, "PUT", "/api/cards/Zz%20Restart%20Beast", map[string]any{"name": "Other", "types": []string{"Creature"}, "power": "1", "toughness": "1"}), http.StatusUnprocessableEntity, nil)
	want(t, e.as(batty, "PUT", "/api/cards/Zz%20Restart%20Beast", map[string]any{"types": []string{"Creature"}, "colors": []string{"X"}, "power": "1", "toughness": "1"}), http.StatusBadRequest, nil)
	want(t, e.as(batty, "PUT", "/api/cards/Zz%20Restart%20Beast", map[string]any{"types": []string{"Creature"}, "colors": []string{"G"}, "power": "7", "toughness": "1"}), http.StatusOK, nil)
	fresh := campaign.NewService(e.db, campaign.Options{Clock: e.clock.Now, Log: quiet, Cards: cards.New(nil)})
	c, err := fresh.LookupCard(context.Background(), "zz restart beast")
	if err != nil || c.Power != "7" {
		t.Fatalf("after a restart: %+v %v", c, err)
	}
}

// 1.7.3, D8: the lock that decides the round finishes the campaign: the result is kept,
// posting is closed and the map shows the winner.
func TestLock200ThatDecidesTheRoundFinishesTheCampaign(t *testing.T) {
	e := newEnv(t)
	// Turn 1: Karn kills Vorthos; Phyrexia never had a Captain-rank army, so it has not lost.
	want(t, e.as(batty, "POST", c1+"/turns/1/results", map[string]any{"square": "15J", "winner": "Karn",
		"kill": map[string]any{"by": "Karn", "target": "Vorthos", "success": true}}), http.StatusOK, nil)
	lockOK(t, e)
	var mid struct{ Status string }
	want(t, e.as(anon, "GET", c1, nil), http.StatusOK, &mid)
	if mid.Status != "running" {
		t.Fatalf("the campaign is %s after a lock that decided nothing", mid.Status)
	}
	// Turn 2: a judge makes Darkhand5 a Captain-rank army on Sai Rei's square; their battle
	// goes on (both stratless), and in turn 3 Sai Rei kills it.
	if _, err := e.svc.EditArmy(context.Background(), e.actor(mover), e.cid, "Darkhand5", campaign.ArmyEdit{Rank: domain.Captain, At: sq("3F"), Troops: roster.List{{Creature: "Sengir Vampire", Count: 1000}}}); err != nil {
		t.Fatal(err)
	}
	want(t, e.as(mover, "POST", c1+"/turns/2/lock", map[string]string{"reason": "test"}), http.StatusOK, nil)
	want(t, e.as(batty, "POST", c1+"/turns/3/results", map[string]any{"square": "3F", "winner": "Sai Rei",
		"kill": map[string]any{"by": "Sai Rei", "target": "Darkhand5", "success": true}}), http.StatusOK, nil)
	want(t, e.as(mover, "POST", c1+"/turns/3/lock", map[string]string{"reason": "test"}), http.StatusOK, nil)
	var c struct {
		Status string
		Winner string
	}
	want(t, e.as(anon, "GET", c1, nil), http.StatusOK, &c)
	if c.Status != "finished" || c.Winner != "coalition" {
		t.Fatalf("campaign %+v", c)
	}
	var m campaign.MapView
	want(t, e.as(anon, "GET", c1+"/map", nil), http.StatusOK, &m)
	if m.Winner != domain.Coalition {
		t.Errorf("the map shows winner %q", m.Winner)
	}
	res := e.as(player, "POST", c1+"/posts", map[string]string{"text": "Sai Rei: 3F > 4F"})
	want(t, res, http.StatusConflict, nil)
	if d := detail(res); !strings.Contains(d, "finished") {
		t.Errorf("detail %q", d)
	}
	text := e.as(anon, "GET", c1+"/turns/3/report.txt", nil).Body.String()
	for _, s := range []string{"Sai Rei killed Darkhand5 (4.3)", "Darkhand5: killed by Sai Rei at 3F (4.3)", "The round is over", "the Coalition wins."} {
		if !strings.Contains(text, s) {
			t.Errorf("the report does not say %q:\n%s", s, text)
		}
	}
}

// BenchmarkProposeBattle proposes the fixture's battle through the service: the desk's read,
// battle.Propose with the campaign's formulas, and the proposal's write.
func BenchmarkProposeBattle(b *testing.B) {
	e := newEnv(b)
	ctx := context.Background()
	for _, c := range []struct {
		who  string
		body campaign.StrategyRequest
	}{{sameSide, campaign.StrategyRequest{Army: "Karn", Text: "hold", StrategyChoices: campaign.StrategyChoices{Kill: "Vorthos"}}}, {enemy, campaign.StrategyRequest{Army: "Vorthos", Text: "wait"}}} {
		if _, err := e.svc.SubmitStrategy(ctx, e.actor(c.who), e.cid, 1, sq("15J"), c.body); err != nil {
			b.Fatal(err)
		}
	}
	judge := e.actor(batty)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := e.svc.ProposeBattle(ctx, judge, e.cid, 1, sq("15J"), campaign.JudgementRequest{BonusTo: "Karn", Bonus: i % 11}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPropose is battle.Propose alone on the fixture's battle, for comparison.
func BenchmarkPropose(b *testing.B) {
	m := fixtureMap()
	bt := battle.Fought(m)[0]
	j := battle.Judgement{Strategies: []battle.Strategy{{Army: "Karn", Kill: "Vorthos"}, {Army: "Vorthos"}}, BonusTo: "Karn", Bonus: 4}
	d := domain.ScenarioSeed(1, 0).Draws()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := battle.Propose(m, bt, j, battle.Config{}, d); err != nil {
			b.Fatal(err)
		}
	}
}

// 4.4, B10: a pair's strategy names the army that leaves if it wins and where; the judge says
// how much each fought, and the casualties are shared by it.
func TestPostProposal200TwoArmySideLeavesAndSharesCasualties(t *testing.T) {
	e := newEnv(t)
	troops := func() []domain.Troop {
		return []domain.Troop{{Creature: "Llanowar Elves", Size: domain.Size{Power: 1, Toughness: 1}, Colors: []domain.Color{domain.Green}, Slot: 1, Alive: 5000, Full: 5000}}
	}
	m := &domain.Map{Grid: domain.DefaultGrid, Armies: []domain.Army{
		{Name: "Ash", Side: domain.Coalition, Rank: domain.Lieutenant, At: sq("10E"), Controllers: []string{"Kim"}, Colors: []domain.Color{domain.Green}, Troops: troops()},
		{Name: "Birch", Side: domain.Coalition, Rank: domain.Lieutenant, At: sq("10E"), Controllers: []string{"Gazetzot"}, Colors: []domain.Color{domain.Green}, Troops: troops()},
		{Name: "Grim", Side: domain.Phyrexia, Rank: domain.Commander, At: sq("10E"), Controllers: []string{"Tevesh"}, Troops: troops()},
	}, Battles: []domain.Battle{{Square: sq("10E"), Armies: []string{"Ash", "Birch", "Grim"}, Kind: domain.Joint}}}
	created, err := e.svc.CreateCampaign(context.Background(), e.actor(admin), campaign.Setup{Name: "Pair", Map: m, Members: []campaign.Member{
		{Name: "Kim", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.General},
		{Name: "Gazetzot", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.General},
		{Name: "Tevesh", Roles: []campaign.Role{campaign.Player}, Side: domain.Phyrexia, Rank: domain.General},
		{Name: "Batty", Roles: []campaign.Role{campaign.BattleJudge}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	base := "/api/campaigns/" + strconv.FormatInt(created.Campaign.ID, 10)
	b := base + "/turns/1/battles/10E"
	want(t, e.as(sameSide, "POST", b+"/strategies", map[string]any{"army": "Ash", "text": "Ash leads; Birch goes north after.", "leaves": map[string]any{"army": "Birch", "to": "10D"}}), http.StatusCreated, nil)
	want(t, e.as(player, "POST", b+"/strategies", map[string]any{"army": "Birch", "text": "Birch guards the flank."}), http.StatusCreated, nil)
	want(t, e.as(enemy, "POST", b+"/strategies", map[string]any{"army": "Grim", "text": "Grim stands."}), http.StatusCreated, nil)
	var p campaign.ProposalRecord
	want(t, e.as(batty, "POST", b+"/proposal", map[string]any{"bonus_to": "Ash", "bonus": 10, "fought": map[string]float64{"Ash": 3, "Birch": 1}}), http.StatusOK, &p)
	r := p.Proposal.Result
	if r.Winner == "" || r.Leaves == nil || r.Leaves.Army != "Birch" || r.Leaves.To != sq("10D") {
		t.Fatalf("the pair wins (+10 and twice the size) and its leaver goes: %+v", r)
	}
	ash, birch := r.Losses["Ash"]["Llanowar Elves"], r.Losses["Birch"]["Llanowar Elves"]
	if ash == 0 || birch == 0 || ash < 2*birch {
		t.Errorf("the pair's casualties are not shared 3:1 by how much each fought: Ash %d, Birch %d", ash, birch)
	}
	want(t, e.as(batty, "POST", b+"/confirm", map[string]any{}), http.StatusOK, nil)
	want(t, e.as(batty, "POST", b+"/strategies", map[string]any{"army": "Ash", "text": "x"}), http.StatusForbidden, nil)
	if _, err := e.svc.SetMember(context.Background(), e.actor(admin), created.Campaign.ID, campaign.Member{Name: "Mover", Roles: []campaign.Role{campaign.MovementJudge}}); err != nil {
		t.Fatal(err)
	}
	want(t, e.as(mover, "POST", base+"/turns/1/lock", map[string]string{"reason": "test"}), http.StatusOK, nil)
	var rv struct{ Report turn.Report }
	want(t, e.as(anon, "GET", base+"/turns/1/report", nil), http.StatusOK, &rv)
	if rv.Report.Positions.Map()["Birch"] != sq("10D") || rv.Report.Positions.Map()["Ash"] != sq("10E") {
		t.Errorf("positions %+v", rv.Report.Positions)
	}
}

// R37: losses larger than an army has are recorded with a warning, and the lock takes what
// the army has, with a note; the desk's confirmation of the same result is refused.
func TestPostResults200WarnsOfLossesOverTheTroopsAlive(t *testing.T) {
	e := newEnv(t)
	over := map[string]any{"square": "15J", "winner": "Karn",
		"losses": map[string]any{"Vorthos": map[string]int{"Grizzly Bears": 1500}, "Karn": map[string]int{"Grizzly Bears": 200}}}
	var rv campaign.ResultsView
	want(t, e.as(batty, "POST", c1+"/turns/1/results", over), http.StatusOK, &rv)
	note := "Vorthos lost 1500 Grizzly Bears but had only 1000 alive, so it loses those 1000 (B7, R37)"
	if len(rv.Warnings) != 1 || rv.Warnings[0] != "At 15J: "+note {
		t.Errorf("warnings %q", rv.Warnings)
	}
	propose15J(e)
	res := e.as(batty, "POST", battle15J+"/confirm", map[string]any{"result": over})
	want(t, res, http.StatusUnprocessableEntity, nil)
	if !strings.Contains(res.Body.String(), "had only 1000 alive") {
		t.Errorf("the desk's refusal does not say why: %s", res.Body)
	}
	lockOK(t, e)
	rep := report1(t, e)
	if len(rep.Settled) != 1 || !slices.Equal(rep.Settled[0].Notes, []string{note}) {
		t.Fatalf("settled %+v", rep.Settled)
	}
	if al, _ := rep.Alive.Get("Karn"); al.Map()["Grizzly Bears"] != 800 {
		t.Errorf("Karn has %v alive, want 800 Grizzly Bears", al)
	}
	if _, ok := rep.Alive.Get("Vorthos"); ok {
		if al, _ := rep.Alive.Get("Vorthos"); al.Map()["Grizzly Bears"] != 0 {
			t.Errorf("Vorthos has %v alive, want none", al)
		}
	}
}

// R33: a result entered directly that asks for what the rules forbid — here a kill "won" by
// the army that lost (4.3.3) — is recorded with a warning, and the lock makes the kill fail;
// the desk's confirmation of the same result is refused.
func TestPostResults200WarnsOfAnImpossibleKill(t *testing.T) {
	e := newEnv(t)
	bad := map[string]any{"square": "15J", "winner": "Karn", "kill": map[string]any{"by": "Vorthos", "target": "Karn", "success": true, "risked_lost": 0}}
	var rv campaign.ResultsView
	want(t, e.as(batty, "POST", c1+"/turns/1/results", bad), http.StatusOK, &rv)
	if len(rv.Warnings) != 1 || !strings.Contains(rv.Warnings[0], "At 15J: Vorthos's kill on Karn cannot succeed: Vorthos did not win the battle, so the kill failed (4.3.3)") {
		t.Errorf("warnings %q", rv.Warnings)
	}
	propose15J(e)
	res := e.as(batty, "POST", battle15J+"/confirm", map[string]any{"result": bad})
	want(t, res, http.StatusUnprocessableEntity, nil)
	if !strings.Contains(res.Body.String(), "did not win the battle") {
		t.Errorf("the desk's refusal does not say why: %s", res.Body)
	}
	lockOK(t, e)
	rep := report1(t, e)
	if len(rep.Settled) != 1 || len(rep.Settled[0].Notes) != 1 || rep.Settled[0].Kill == nil || rep.Settled[0].Kill.Success {
		t.Fatalf("settled %+v", rep.Settled)
	}
	if _, ok := rep.Positions.Get("Karn"); !ok {
		t.Error("Karn was killed by the army it beat")
	}
}
