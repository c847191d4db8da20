package api_test

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/api"
	"github.com/coalition-wargame/coalition/campaign"
)

// Markers of each secret the leak test plants; each must reach only those allowed to see it.
const (
	coalitionStrategy = "zz-coalition-strategy-zz"
	phyrexianStrategy = "zz-phyrexian-strategy-zz"
	coalitionCargo    = "Zz Coalition Cargo"
	phyrexianCargo    = "Zz Phyrexian Cargo"
	formulaMarker     = "0.987654321"
)

// proposalInternals are keys of a proposal that only battle judges see: the bonuses, the
// judgement, the formulas' versions.
var proposalInternals = []string{`"strategy_bonus"`, `"size_bonus"`, `"judgement"`, `"formulas"`, "smaller.strength"}

// playerGets lists every GET route of the API document, its parameters filled for the
// fixture: the player-facing routes the leak test reads.
func playerGets(t *testing.T, turns []int) []string {
	doc, err := api.LoadSpec(api.Spec)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for path, item := range doc.Paths.Map() {
		if item.Get == nil {
			continue
		}
		if strings.Contains(path, "{pid}") {
			t.Fatalf("%s: the leak test does not know how to fill it", path)
		}
		p := strings.NewReplacer("{cid}", "1", "{square}", "15J", "{name}", "Grizzly%20Bears", "{army}", "Karn", "{mid}", "1",
			"{list}", "coalition-2026-03-09").Replace(path)
		if p == "/api/cards" {
			p += "?q=grizzly"
		}
		if !strings.Contains(p, "{n}") {
			out = append(out, p)
			continue
		}
		for _, n := range turns {
			out = append(out, strings.ReplaceAll(p, "{n}", strconv.Itoa(n)))
		}
	}
	slices.Sort(out)
	return out
}

// No strategy of the other side, no formula, no seed before its reveal, no other side's
// transfer details and no proposal internals ever appear in a player's response, on any
// route, before or after the lock: asserted on the raw bodies, for players of both sides and
// for callers of neither.
func TestNoSecretsLeakToPlayers(t *testing.T) {
	e := newEnv(t)
	plantSecrets(t, e)
	seed := func(n int) string { return seedOf(t, e, n) }

	check := func(phase string, turns []int, unrevealed string) {
		paths := playerGets(t, turns)
		if len(paths) < 20 {
			t.Fatalf("only %d routes to read", len(paths))
		}
		for caller, secrets := range forbidden {
			for _, path := range paths {
				body := e.as(caller, "GET", path, nil).Body.String()
				for _, s := range append(secrets, unrevealed) {
					if strings.Contains(body, s) {
						t.Errorf("%s: GET %s shows %s %q", phase, path, caller, s)
					}
				}
			}
		}
		// The secrets are there for those who may see them: the test can fail.
		for _, c := range []struct {
			caller, path, secret string
		}{
			{sameSide, battle15J, coalitionStrategy}, {enemy, battle15J, phyrexianStrategy},
			{batty, battle15J, `"strategy_bonus"`}, {batty, c1 + "/formulas", formulaMarker},
			{player, c1 + "/turns/1/posts", coalitionCargo}, {enemy, c1 + "/turns/1/posts", phyrexianCargo},
		} {
			if !strings.Contains(e.as(c.caller, "GET", c.path, nil).Body.String(), c.secret) {
				t.Errorf("%s: %s does not see %q at %s", phase, c.caller, c.secret, c.path)
			}
		}
	}
	check("before the lock", []int{1}, seed(1))
	lockOK(t, e)
	check("after the lock", []int{1, 2}, seed(2))
	if body := e.as(enemy, "GET", battle15J, nil).Body.String(); !strings.Contains(body, "The battle at the ford is over.") {
		t.Error("the judge's result text is not public after the lock")
	}
}

// plantSecrets gives each side a strategy and a transfer with its creatures, and the battle
// judge a formula and a confirmed proposal: the secrets the leak tests look for.
func plantSecrets(t *testing.T, e *env) {
	want(t, e.as(sameSide, "POST", battle15J+"/strategies", map[string]any{"army": "Karn", "text": "Karn charges. " + coalitionStrategy, "kill": "Vorthos"}), http.StatusCreated, nil)
	want(t, e.as(enemy, "POST", battle15J+"/strategies", map[string]any{"army": "Vorthos", "text": "Vorthos hides. " + phyrexianStrategy}), http.StatusCreated, nil)
	want(t, e.as(batty, "PUT", c1+"/formulas/size", map[string]string{"text": "10 * (1 - smaller.strength / larger.strength) * " + formulaMarker}), http.StatusOK, nil)
	want(t, e.as(player, "POST", c1+"/posts", map[string]any{"text": "Urza's Guard: Transfer to Sai Rei at 3F",
		"transfers": []map[string]any{{"army": "Urza's Guard", "creatures": map[string]int{coalitionCargo: 7}}}}), http.StatusCreated, nil)
	want(t, e.as(enemy, "POST", c1+"/posts", map[string]any{"text": "Darkhand5: Transfer to Vorthos at 15J",
		"transfers": []map[string]any{{"army": "Darkhand5", "creatures": map[string]int{phyrexianCargo: 7}}}}), http.StatusCreated, nil)
	want(t, e.as(batty, "POST", battle15J+"/proposal", map[string]any{"bonus_to": "Karn", "bonus": 4}), http.StatusOK, nil)
	want(t, e.as(batty, "POST", battle15J+"/confirm", map[string]any{"text": "The battle at the ford is over."}), http.StatusOK, nil)
}

// seedOf is turn n's secret seed, read from the database.
func seedOf(t *testing.T, e *env, n int) string {
	var s string
	if err := e.db.Read(context.Background(), func(r campaign.Reader) error {
		tu, err := r.Turn(e.cid, n)
		if err == nil {
			s = tu.Seed.String()
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return s
}

// common and forbidden are the secrets each caller must never see.
var (
	common    = append([]string{formulaMarker}, proposalInternals...)
	forbidden = map[string][]string{
		player:   append([]string{phyrexianStrategy, phyrexianCargo}, common...),
		sameSide: append([]string{phyrexianStrategy, phyrexianCargo}, common...),
		leader:   append([]string{phyrexianStrategy, phyrexianCargo}, common...),
		enemy:    append([]string{coalitionStrategy, coalitionCargo}, common...),
		anon:     append([]string{coalitionStrategy, phyrexianStrategy, coalitionCargo, phyrexianCargo}, common...),
		merc:     append([]string{coalitionStrategy, phyrexianStrategy, coalitionCargo, phyrexianCargo}, common...),
	}
)

// The mercenary AI's battle strategies (B1, R43) are in the lock report's mercenary_ai for the
// judges, the mercenary judge and the admins only: no player's or anonymous caller's response,
// on any route, shows one, before or after the lock, as transfers are kept from them (T2).
func TestNoMercenaryStrategyLeaksToPlayers(t *testing.T) {
	e := newEnv(t)
	raiderAt(t, e, "23F")
	want(t, e.as(merc, "PUT", c1+"/mercenary", map[string]any{"mercenary_ai": "auto"}), http.StatusOK, nil)
	want(t, e.as(merc, "POST", c1+"/posts", map[string]string{"text": "Zz Raider: 23F > 20F; engage Urza's Guard"}), http.StatusCreated, nil)
	enterResult(e)
	lockOK(t, e)
	want(t, e.as(merc, "POST", c1+"/turns/1/mercenary/edit", map[string]bool{"waive": true}), http.StatusOK, nil)
	// the AI files the raider's strategy for the battle at 20F as turn 2 opens
	var bv struct {
		Battles []struct{ Strategies []campaign.Strategy }
	}
	want(t, e.as(merc, "GET", c1+"/turns/2/battles", nil), http.StatusOK, &bv)
	var secret string
	for _, b := range bv.Battles {
		for _, s := range b.Strategies {
			if s.Army == "Zz Raider" && s.Author == campaign.AIAuthor {
				secret = s.Text
			}
		}
	}
	if secret == "" {
		t.Fatalf("the AI filed no strategy for the raider: %+v", bv)
	}
	e.at(start.Add(10 * 24 * time.Hour))
	want(t, e.as(mover, "POST", c1+"/turns/2/lock", map[string]string{"reason": "test"}), http.StatusOK, nil)
	want(t, e.as(merc, "POST", c1+"/turns/2/mercenary/edit", map[string]bool{"waive": true}), http.StatusOK, nil)
	for _, c := range []string{mover, batty, merc, admin} {
		if body := e.as(c, "GET", c1+"/turns/2/report", nil).Body.String(); !strings.Contains(body, secret) {
			t.Errorf("%s does not see the AI's strategy in the report: the test proves nothing", c)
		}
	}
	for _, c := range []string{player, sameSide, leader, enemy, anon} {
		for _, path := range playerGets(t, []int{1, 2, 3}) {
			if body := e.as(c, "GET", path, nil).Body.String(); strings.Contains(body, secret) || strings.Contains(body, `"strategies":[{"army":"Zz Raider"`) {
				t.Errorf("GET %s shows %s the mercenary AI's strategy", path, c)
			}
		}
	}
}
