package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

// freeNear is an empty land square exactly 3 steps (G2) from sq on the demo's current map, for
// a move that leaves a town's ring.
func freeNear(t *testing.T, d *demo, sq string) string {
	m := d.currentMap(t)
	taken := map[string]bool{}
	for _, a := range m.Armies {
		taken[a.At] = true
	}
	for _, s := range m.Sites {
		taken[s.At] = true
	}
	from, err := domain.ParseSquare(sq)
	if err != nil {
		t.Fatal(err)
	}
	for _, dd := range [][2]int{{3, 0}, {-3, 0}, {0, 3}, {0, -3}, {2, 1}, {-2, 1}} {
		to := domain.Square{Col: uint8(int(from.Col) + dd[0]), Row: uint8(int(from.Row) + dd[1])}
		if !domain.DefaultGrid.Contains(to) || taken[to.String()] || m.Terrain[to.Row-1][to.Col-1] == "ocean" {
			continue
		}
		return to.String()
	}
	t.Fatalf("no free square 3 steps from %s", sq)
	return ""
}

// TestBrowserMercenaryDesk drives the mercenary desk as the demo's mercenary judge: the AI's plan
// drawn on the map (an arrow for each move, its reason on hover), a line edited and one against
// a guideline, the lines posted (the AI's and the edited ones marked, the guideline named),
// then, after the lock, the after-lock edit checked and waived, which publishes the update.
func TestBrowserMercenaryDesk(t *testing.T) {
	b := browser(t)
	d := startDemo(t)
	base := d.base
	tok := d.login("Maraxus", d.passwords["Maraxus"])
	d.call("PUT", "/api/campaigns/1/mercenary", tok, map[string]any{"after_lock_edit_hours": 12}, http.StatusOK, nil)
	var plan campaign.PlanView
	d.call("GET", "/api/campaigns/1/turns/1/mercenary/plan", tok, nil, http.StatusOK, &plan)
	moves := 0
	for _, o := range plan.Orders {
		if o.Order.Kind == domain.MoveKind {
			moves++
		}
	}
	p := newTab(t, b, "Maraxus")
	p.open(base, "/?poll=300")
	p.login("Maraxus", d.passwords["Maraxus"])
	p.view("mercenary")
	p.until("the plan", fmt.Sprintf(`document.querySelectorAll('#merc-plan tbody tr').length === %d`, len(plan.Orders)))
	p.until("the plan's arrows", fmt.Sprintf(`document.querySelectorAll('#map .orders polyline').length === %d`, moves))
	if moves > 0 && !eval[bool](p, `[...document.querySelectorAll('#map .orders polyline title')].every((t) => / — 6\.\d\.\d|Disband: /.test(t.textContent))`) {
		t.Error("an arrow of the plan has no reason to show on hover")
	}
	p.named("the mercenary desk")
	p.shot("mercenary-desk-plan")

	// Jamuraan Militia, a town defender, sent 3 squares from its town (6.1.1); the Keldon
	// Raiders held instead of the AI's order
	away := fmt.Sprintf("Jamuraan Militia: 20C > %s", freeNear(t, d, "20C"))
	keldon := d.currentMap(t)
	var kat string
	for _, a := range keldon.Armies {
		if a.Name == "Keldon Raiders" {
			kat = a.At
		}
	}
	for army, line := range map[string]string{"Jamuraan Militia": away, "Keldon Raiders": "Keldon Raiders: no move"} {
		sel := fmt.Sprintf(`#merc-plan tr[data-army=%s] .merc-line`, jsString(army))
		p.do("editing "+army+"'s line", chromedp.SetValue(chromedp.CSS(sel), line))
		eval[bool](p, fmt.Sprintf(`document.querySelector(%s).dispatchEvent(new Event('input')) || true`, jsString(sel)))
	}
	if n := eval[int](p, `[...document.querySelectorAll('#merc-plan .merc-edited')].filter((e) => !e.hidden).length`); n != 2 {
		t.Errorf("%d lines are marked edited, want 2", n)
	}
	p.do("posting the plan", chromedp.Click(chromedp.ID("merc-post")))
	p.until("each line's outcome", fmt.Sprintf(`document.querySelectorAll('#merc-outcome li').length === %d`, len(plan.Orders)))
	p.until("the guideline named", `document.querySelector('#merc-outcome li[data-army="Jamuraan Militia"] .guideline[data-rule="6.1.1"]')`)
	if msg := eval[string](p, `document.querySelector('#merc-plan-msg').textContent`); !strings.Contains(msg, "2 edited by you") {
		t.Errorf("the desk says %q", msg)
	}
	var posts []campaign.PostView
	d.call("GET", "/api/campaigns/1/turns/1/posts", "", nil, http.StatusOK, &posts)
	edited := map[string]bool{}
	for _, post := range posts {
		if post.Source == campaign.AISource {
			for _, l := range post.Plan {
				edited[l.Army] = l.Edited
			}
		}
	}
	if len(edited) != len(plan.Orders) || !edited["Jamuraan Militia"] || !edited["Keldon Raiders"] || edited["Hollow Keepers"] {
		t.Errorf("the thread's record of the AI's lines: %v", edited)
	}
	p.shot("mercenary-desk-posted")

	// the lock keeps the update for the after-lock edit (6.3.2): the desk offers it
	d.call("POST", "/api/campaigns/1/turns/1/lock", d.login("Barrin", d.passwords["Barrin"]), map[string]string{"reason": "browser test"}, http.StatusOK, nil)
	p.until("the after-lock edit", `document.querySelector('#merc-edit-text')`)
	p.do("writing an edit", chromedp.SendKeys(chromedp.ID("merc-edit-text"), fmt.Sprintf("Keldon Raiders: %s > %s", kat, kat)))
	p.do("checking it", chromedp.Click(chromedp.ID("merc-edit-check")))
	p.until("the check's answer", `/not carried out/.test(document.querySelector('#merc-edit-msg').textContent)`)
	p.named("the after-lock edit")
	p.shot("mercenary-desk-edit")
	p.do("waiving it", chromedp.Click(chromedp.ID("merc-edit-waive")))
	p.until("turn 2 open", `!document.querySelector('#merc-edit-text') && document.querySelectorAll('#merc-plan tbody tr').length > 0`)
	var t2 struct{ Status string }
	d.call("GET", "/api/campaigns/1/turns/2", "", nil, http.StatusOK, &t2)
	if t2.Status != "open" {
		t.Errorf("after the waiver turn 2 is %q", t2.Status)
	}

	// turn 2: the plan accepted as it is
	d.call("GET", "/api/campaigns/1/turns/2/mercenary/plan", tok, nil, http.StatusOK, &plan)
	p.until("turn 2's plan", fmt.Sprintf(`document.querySelectorAll('#merc-plan tbody tr').length === %d && document.querySelectorAll('#merc-outcome li').length === 0`, len(plan.Orders)))
	p.do("accepting the plan", chromedp.Click(chromedp.ID("merc-accept-all")))
	p.until("each line's outcome", fmt.Sprintf(`document.querySelectorAll('#merc-outcome li').length === %d`, len(plan.Orders)))
	if msg := eval[string](p, `document.querySelector('#merc-plan-msg').textContent`); !strings.Contains(msg, "0 edited by you") {
		t.Errorf("after accepting all the desk says %q", msg)
	}
}
