package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/turn"
)

// openRound loads the round setup page of round id and waits until it shows the round.
func (p *tab) openRound(base string, id int64) {
	p.t.Helper()
	p.do("opening the round setup page", chromedp.Navigate(fmt.Sprintf("%s/assets/round.html?r=%d", base, id)))
	p.until("the round", `document.body.dataset.ready === 'true' && document.body.dataset.state && document.querySelectorAll('#map svg').length === 1`)
}

// TestBrowserRoundSetup (2.5): on the round setup page the judge fills in a round with the
// generator and sees every problem left with its rule, edits, removes and regenerates a
// mercenary (2.5.3); a team leader sees only his side's bases
// before they are public, sends the judges a request — which the judge sees beside the map — and
// a description, which the judge rejects with a reason and then accepts; the judge publishes the
// positions, the page says the round may start, and the judge starts it.
func TestBrowserRoundSetup(t *testing.T) {
	b := browser(t)
	d := startDemo(t)
	admin := d.login("admin", e2eAdminPassword)
	members := []map[string]any{
		{"name": "Barrin", "roles": []string{"movement-judge"}},
		{"name": "Serra", "roles": []string{"battle-judge"}},
		{"name": "Gerrard", "roles": []string{"player", "leader"}, "side": "coalition", "rank": "general", "factions": []string{"white", "red", "green"}},
		{"name": "Gix", "roles": []string{"player", "leader"}, "side": "phyrexia", "rank": "general"},
		{"name": "Hanna", "roles": []string{"player"}, "side": "coalition", "rank": "captain", "factions": []string{"blue", "colorless"}},
	}
	var created campaign.RoundCreated
	d.call("POST", "/api/rounds", admin, map[string]any{"name": "The Second Invasion", "seed": 21, "members": members}, http.StatusCreated, &created)
	id := created.Round.ID

	judge := newTab(t, b, "Barrin")
	judge.openRound(d.base, id)
	judge.login("Barrin", d.passwords["Barrin"])
	judge.until("the problems", `document.querySelectorAll('#round-problems li').length > 0`)
	judge.axe("the round setup page, empty")
	judge.do("filling in the round", chromedp.Click(chromedp.ID("round-generate")))
	judge.until("the generator's proposal", `/generator filled/.test(document.querySelector('#round-msg').textContent) && document.querySelectorAll('#round-sites tbody tr').length === 15`)
	judge.until("the one problem left: not published", `document.querySelectorAll('#round-problems li').length === 1 && document.querySelector('#round-problems li[data-rule="2.5.2.3"]')`)
	// the mercenaries (2.5.3): the judge rewrites one as the generator made it, is told what is
	// wrong with a square off the map, takes one out (a problem of chapter 6 appears) and has
	// the generator fill it in again
	judge.do("editing the first mercenary", chromedp.Click(chromedp.CSS(`#round-mercs li:first-child button.edit`)))
	judge.until("the form filled in", `document.querySelector('#merc-name').value !== '' && /\d+ \S/.test(document.querySelector('#merc-troops').value)`)
	judge.do("writing it back", chromedp.Click(chromedp.CSS(`#round-merc-form button[type="submit"]`)))
	judge.until("the mercenary written", `/is written/.test(document.querySelector('#round-merc-msg').textContent) && document.querySelectorAll('#round-problems li').length === 1`)
	judge.do("editing it onto a square off the map",
		chromedp.Click(chromedp.CSS(`#round-mercs li:first-child button.edit`)),
		chromedp.SetValue(chromedp.ID("merc-at"), "40Z"),
		chromedp.Click(chromedp.CSS(`#round-merc-form button[type="submit"]`)))
	judge.until("the refusal", `/40Z is not on the map/.test(document.querySelector('#round-merc-msg').textContent)`)
	judge.do("taking the last mercenary out", chromedp.Evaluate[chromedp.Void](`window.mercs = document.querySelectorAll('#round-mercs li').length`),
		chromedp.Click(chromedp.CSS(`#round-mercs li:last-child button.remove`)))
	judge.until("a mercenary missing", `document.querySelectorAll('#round-mercs li').length === window.mercs - 1 && document.querySelectorAll('#round-problems li').length > 1`)
	judge.do("filling in the round again", chromedp.Click(chromedp.ID("round-generate")))
	judge.until("the mercenaries complete again", `document.querySelectorAll('#round-mercs li').length === window.mercs && document.querySelectorAll('#round-problems li').length === 1`)

	leader := newTab(t, b, "Gerrard")
	leader.openRound(d.base, id)
	leader.login("Gerrard", d.passwords["Gerrard"])
	leader.until("his side's bases only", `document.querySelectorAll('#round-sites tbody tr').length === 7 && !document.querySelector('#round-problems')`)
	leader.axe("the round setup page, a leader")
	leader.do("sending a request",
		chromedp.SendKeys(chromedp.ID("round-request"), "Keld Base belongs on the coast, please"),
		chromedp.Click(chromedp.CSS(`#round-request-form button[type="submit"]`)))
	leader.until("the request sent", `/judges have your request/.test(document.querySelector('#round-request-msg').textContent)`)
	leader.do("describing Benalia Base",
		chromedp.SendKeys(chromedp.ID("desc-Benalia-Base"), "Benalia Base: a white keep with plague bombs on every wall"),
		chromedp.Click(chromedp.CSS(`#round-sites tr[data-site="Benalia Base"] button`)))
	leader.until("the description pending", `/pending/.test(document.querySelector('#round-sites tr[data-site="Benalia Base"] .desc').textContent)`)

	judge.openRound(d.base, id)
	judge.until("the request beside the map", `/Keld Base belongs on the coast/.test(document.querySelector('#round-requests').textContent)`)
	judge.until("the description's problem", `document.querySelector('#round-problems li[data-rule="2.5.1.2"]')`)
	judge.do("rejecting the description",
		chromedp.SendKeys(chromedp.ID("reason-Benalia-Base"), "plague bombs are too unbalanced"),
		chromedp.Click(chromedp.CSS(`#round-sites tr[data-site="Benalia Base"] button.reject`)))
	judge.until("the description rejected with its reason", `/rejected: plague bombs are too unbalanced/.test(document.querySelector('#round-sites tr[data-site="Benalia Base"] .desc').textContent)`)
	judge.do("accepting it after all", chromedp.Click(chromedp.CSS(`#round-sites tr[data-site="Benalia Base"] button.accept`)))
	judge.until("the description accepted", `/accepted/.test(document.querySelector('#round-sites tr[data-site="Benalia Base"] .desc').textContent)`)
	judge.do("publishing the positions", chromedp.Click(chromedp.ID("round-publish")))
	judge.until("the round ready", `document.querySelector('#round-ready') && !document.querySelector('#round-problems')`)
	judge.axe("the round setup page, ready")
	judge.named("the round setup page")
	judge.shot("round-setup-ready")
	judge.do("starting the round", chromedp.Click(chromedp.ID("round-start")))
	judge.until("the round started", `/started as campaign 2/.test(document.querySelector('#round-started').textContent) && document.querySelector('#round-state').textContent === 'open' && document.querySelector('#round-campaign')`)
	var v campaign.RoundView
	d.call("GET", fmt.Sprintf("/api/rounds/%d", id), "", nil, http.StatusOK, &v)
	if v.State != campaign.RoundOpen || v.Campaign != 2 {
		t.Errorf("after the start the round is %s, campaign %d", v.State, v.Campaign)
	}
}

// TestBrowserCorrectionPreview (3.3.3): the battle judge corrects turn 1 in the judge console —
// Hanna's accepted move refused with a reason — sees the preview say Hanna ends the turn on 3G,
// not 6G, confirms it, and the corrected turn replays the same.
func TestBrowserCorrectionPreview(t *testing.T) {
	b := browser(t)
	d := startDemo(t)
	hanna := d.login("Hanna", d.passwords["Hanna"])
	var out struct{ Post struct{ ID int64 } }
	d.call("POST", "/api/campaigns/1/posts", hanna, map[string]string{"text": "Hanna: 3G > 6G"}, http.StatusCreated, &out)
	d.call("POST", "/api/campaigns/1/turns/1/lock", d.login("Barrin", d.passwords["Barrin"]), map[string]string{"reason": "test"}, http.StatusOK, nil)

	p := newTab(t, b, "Serra")
	p.open(d.base, "/#judge")
	p.login("Serra", d.passwords["Serra"])
	p.until("the judge console", `document.body.dataset.view === 'judge' && document.querySelector('#judge-corrections')`)
	p.unfold("judge-corrections")
	line := fmt.Sprintf("correct-%d-1", out.Post.ID)
	p.until("turn 1's lines", `document.getElementById(`+jsString(line)+`)`)
	p.do("refusing Hanna's move",
		chromedp.SetValue(chromedp.ID(line), "refuse"),
		chromedp.SendKeys(chromedp.ID(line+"-why"), "Hanna was on leave"),
		chromedp.SendKeys(chromedp.ID("correct-reason"), "a move posted for a player on leave"),
		chromedp.Click(chromedp.ID("correct-preview-button")))
	p.until("the preview", `document.querySelector('#correct-preview .turn-change[data-turn="1"] tr[data-army="Hanna"]')`)
	if got := eval[[]string](p, `[...document.querySelectorAll('#correct-preview .turn-change[data-turn="1"] tr[data-army="Hanna"] td')].map((x) => x.textContent)`); len(got) != 3 || !strings.HasPrefix(got[1], "6G") || !strings.HasPrefix(got[2], "3G") {
		t.Errorf("the preview of Hanna: %q", got)
	}
	p.axe("the correction preview")
	p.shot("correction-preview")
	var before struct{ Report json.RawMessage }
	d.call("GET", "/api/campaigns/1/turns/1/report", "", nil, http.StatusOK, &before)
	if !strings.Contains(string(before.Report), `"Hanna":"6G"`) {
		t.Fatalf("the preview changed the report: %s", before.Report[:200])
	}
	p.do("confirming", chromedp.Click(chromedp.ID("correct-confirm")))
	p.until("the correction confirmed", `/Turn 1 is corrected/.test(document.querySelector('#correct-msg').textContent)`)
	var rv struct{ Report turn.Report }
	d.call("GET", "/api/campaigns/1/turns/1/report", "", nil, http.StatusOK, &rv)
	if rv.Report.Positions.Map()["Hanna"] != sq("3G") {
		t.Errorf("after the correction Hanna is on %s", rv.Report.Positions.Map()["Hanna"])
	}
	var rp campaign.ReplayResult
	d.call("GET", "/api/campaigns/1/turns/1/replay", d.login("Barrin", d.passwords["Barrin"]), nil, http.StatusOK, &rp)
	if !rp.Same {
		t.Errorf("the corrected turn does not replay the same: %s", rp.Detail)
	}
}

// TestBrowserBattleSetting (4.1.2.4, 4.1.2.5): the battle desk shows a battle's terrain and its
// weather — the server's draw, word for word.
func TestBrowserBattleSetting(t *testing.T) {
	b := browser(t)
	s, pw := startBattle(t)
	var bv struct {
		Battles []campaign.BattleView
	}
	s.call("GET", "/api/campaigns/1/turns/1/battles", "", nil, http.StatusOK, &bv)
	if len(bv.Battles) != 1 || bv.Battles[0].Setting == nil || bv.Battles[0].Setting.Weather.Text == "" {
		t.Fatalf("the battle's setting: %+v", bv.Battles)
	}
	p := newTab(t, b, "Gazetzot")
	p.open(s.base, "/#battles")
	p.login("Gazetzot", pw["Gazetzot"])
	p.until("the battle desk", `document.body.dataset.view === 'battles'`)
	card := `article.battle[data-square="5F"] .setting`
	p.until("the battle's setting", `document.querySelector('`+card+` .weather') && document.querySelector('`+card+` .weather').textContent === `+jsString(bv.Battles[0].Setting.Weather.Text)+
		` && /plains/.test(document.querySelector('`+card+`').textContent)`)
	p.axe("the battle desk with its setting")
}

// TestBrowserCorrectionOfResult (3.3.3: the battle judge corrects "a battle result"): turn 1's
// battle at 5F was settled with Sai Rei winning; in the judge console the battle judge replaces
// the result — Darkhand5 wins — sees in the preview that the lock's results change, confirms,
// and the turn's stored result is the new one.
func TestBrowserCorrectionOfResult(t *testing.T) {
	b := browser(t)
	s, pw := startBattle(t)
	bea := s.login("Bea", pw["Bea"])
	s.call("POST", "/api/campaigns/1/turns/1/results", bea, map[string]any{"square": "5F", "winner": "Sai Rei",
		"losses": map[string]map[string]int{"Darkhand5": {"Plague Rats": 300}, "Sai Rei": {"Llanowar Elves": 120}}}, http.StatusOK, nil)
	s.call("POST", "/api/campaigns/1/turns/1/lock", bea, map[string]string{"reason": "battle settled"}, http.StatusOK, nil)

	p := newTab(t, b, "Bea")
	p.open(s.base, "/#judge")
	p.login("Bea", pw["Bea"])
	p.until("the judge console", `document.body.dataset.view === 'judge' && document.querySelector('#judge-corrections')`)
	p.unfold("judge-corrections")
	field := `#correct-results fieldset[data-square="5F"] `
	p.until("turn 1's battle with its result", `/Recorded: Sai Rei’s side won/.test((document.querySelector('`+field+`') || {}).textContent || '')`)
	p.do("replacing the result",
		chromedp.Click(chromedp.ID("correct-result-5F")),
		chromedp.SetValue(chromedp.CSS(field+`select[data-field="winner"]`), "Darkhand5"),
		chromedp.SetValue(chromedp.CSS(field+`input.loss[data-army="Darkhand5"][data-creature="Plague Rats"]`), "100"),
		chromedp.SetValue(chromedp.CSS(field+`input.loss[data-army="Sai Rei"][data-creature="Llanowar Elves"]`), "400"),
		chromedp.SendKeys(chromedp.ID("correct-reason"), "the dice were read the wrong way round"),
		chromedp.Click(chromedp.ID("correct-preview-button")))
	p.until("the preview", `document.querySelector('#correct-preview .turn-change[data-turn="1"]') && document.querySelector('#correct-confirm')`)
	if got := eval[string](p, `document.querySelector('#correct-preview .turn-change[data-turn="1"]').textContent`); !strings.Contains(got, "Darkhand5") {
		t.Errorf("the preview of turn 1 does not name the new winner: %q", got)
	}
	p.axe("the correction of a result")
	p.do("confirming", chromedp.Click(chromedp.ID("correct-confirm")))
	p.until("the correction made", `/Turn 1 is corrected/.test(document.querySelector('#correct-msg').textContent)`)
	var res struct {
		Results []struct {
			Winner string
			Losses map[string]map[string]int
		}
	}
	s.call("GET", "/api/campaigns/1/turns/1/results", bea, nil, http.StatusOK, &res)
	if len(res.Results) != 1 || res.Results[0].Winner != "Darkhand5" || res.Results[0].Losses["Sai Rei"]["Llanowar Elves"] != 400 {
		t.Fatalf("after the correction turn 1's results are %+v", res.Results)
	}
}
