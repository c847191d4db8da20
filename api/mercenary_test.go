package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/turn"
)

// raiderAt has the mercenary judge put the raider Zz Raider on the fixture's map at sq.
func raiderAt(t *testing.T, e *env, at string) {
	t.Helper()
	want(t, e.as(merc, "POST", c1+"/armies", map[string]any{"name": "Zz Raider", "side": "mercenary", "rank": "lieutenant", "at": at, "faction": "raider",
		"troops": []map[string]any{{"creature": "Llanowar Elves", "count": 5000}}}), http.StatusCreated, nil)
}

// The plan (chapter 6): the mercenary judge and the admins read it, the same on every call for
// the same turn; nobody else does.
func TestGetMercenaryPlan200SameOnEveryCall403ForOthers(t *testing.T) {
	e := newEnv(t)
	raiderAt(t, e, "23F")
	path := c1 + "/turns/1/mercenary/plan"
	first := e.as(merc, "GET", path, nil)
	var plan campaign.PlanView
	want(t, first, http.StatusOK, &plan)
	if len(plan.Orders) != 2 {
		t.Fatalf("the plan orders %d armies, want the 2 mercenaries: %+v", len(plan.Orders), plan.Orders)
	}
	for _, o := range plan.Orders {
		if o.Line == "" || o.Guideline == "" || o.Reason == "" {
			t.Errorf("an order of the plan lacks its line, guideline or reason: %+v", o)
		}
	}
	for range 3 {
		for _, c := range []string{merc, admin} {
			if again := e.as(c, "GET", path, nil); again.Code != http.StatusOK || !bytes.Equal(again.Body.Bytes(), first.Body.Bytes()) {
				t.Errorf("GET plan as %s: %d, not the same plan:\n%s\n%s", c, again.Code, first.Body, again.Body)
			}
		}
	}
	// made anew by another server on the same database, with no plan kept: the same plan
	cold := campaign.NewService(e.db, campaign.Options{Clock: e.clock.Now, Log: quiet, Cards: sharedCards(t)})
	again, err := cold.MercenaryPlan(context.Background(), e.actor(merc), e.cid, 1)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(again); !bytes.Equal(append(b, '\n'), first.Body.Bytes()) {
		t.Errorf("the plan made anew differs:\n%s\n%s", first.Body, b)
	}
	for _, c := range []string{player, sameSide, enemy, leader, mover, batty} {
		want(t, e.as(c, "GET", path, nil), http.StatusForbidden, nil)
	}
	want(t, e.as(anon, "GET", path, nil), http.StatusUnauthorized, nil)
}

// The post of the plan: the mercenary judge posts all of it or the armies named, a line as the
// AI wrote it or as he edited it; the post is marked as the AI's with the edited lines marked,
// and the thread shows it. Players and the other judges may not.
func TestPostMercenaryPlan201MarksTheAIsLines403ForOthers(t *testing.T) {
	e := newEnv(t)
	raiderAt(t, e, "23F")
	path := c1 + "/turns/1/mercenary/plan"
	for _, c := range []string{player, sameSide, enemy, leader, mover, batty, admin} {
		want(t, e.as(c, "POST", path, map[string]any{}), http.StatusForbidden, nil)
	}
	var plan campaign.PlanView
	want(t, e.as(merc, "GET", path, nil), http.StatusOK, &plan)
	var all campaign.PlanOutcome
	want(t, e.as(merc, "POST", path, map[string]any{}), http.StatusCreated, &all)
	if all.Post == nil || all.Post.Source != campaign.AISource || all.Post.Author != "mercenary-judge" || len(all.Plan) != len(plan.Orders) {
		t.Fatalf("the whole plan's post: %+v", all)
	}
	for i, l := range all.Plan {
		if l.Edited || l.AI != plan.Orders[i].Line || all.Lines[i].Status == "rejected" {
			t.Errorf("line %d of the whole plan: %+v, outcome %+v", i+1, l, all.Lines[i])
		}
	}
	edited := "Zz Raider: 23F > 22F"
	var one campaign.PlanOutcome
	want(t, e.as(merc, "POST", path, map[string]any{"orders": []map[string]string{{"army": "zz raider", "line": edited}}}), http.StatusCreated, &one)
	if len(one.Plan) != 1 || !one.Plan[0].Edited || one.Post.Text != edited || one.Plan[0].AI == edited {
		t.Fatalf("the edited line: %+v", one)
	}
	var posts []campaign.PostView
	want(t, e.as(player, "GET", c1+"/turns/1/posts", nil), http.StatusOK, &posts)
	marked := 0
	for _, p := range posts {
		if p.ID == one.Post.ID && len(p.Plan) == 1 && p.Plan[0].Edited {
			marked++
		}
		if p.ID == all.Post.ID && len(p.Plan) == len(plan.Orders) {
			marked++
		}
	}
	if marked != 2 {
		t.Errorf("the thread does not show which lines are the AI's: %+v", posts)
	}
	// an edit must be the army's own line; an army the plan does not order is no edit
	want(t, e.as(merc, "POST", path, map[string]any{"orders": []map[string]string{{"army": "Zz Raider", "line": "Raiders: 30F > 29F"}}}), http.StatusUnprocessableEntity, nil)
	want(t, e.as(merc, "POST", path, map[string]any{"orders": []map[string]string{{"army": "Sai Rei"}}}), http.StatusUnprocessableEntity, nil)
}

// R46: a mercenary judge's line that breaks a guideline is accepted, with a warning naming it.
func TestPostPosts201GuidelineWarningOnTheMercenaryJudgesLine(t *testing.T) {
	e := newEnv(t)
	raiderAt(t, e, "8D")
	var out campaign.PostOutcome
	want(t, e.as(merc, "POST", c1+"/posts", map[string]string{"text": "Zz Raider: 8D > 6D\nRaiders: 30F > 29F"}), http.StatusCreated, &out)
	l := out.Lines[0]
	if l.Status != "warning" || len(l.Guidelines) != 1 || l.Guidelines[0].Rule != "6.3.1" || !strings.Contains(strings.Join(l.Warnings, " "), "6.3.1") {
		t.Errorf("the raider's move next to Red Base: %+v", l)
	}
	if out.Lines[1].Status != "accepted" || len(out.Lines[1].Guidelines) != 0 {
		t.Errorf("a line that breaks no guideline: %+v", out.Lines[1])
	}
}

// The after-lock edit (6.3.2, R41): a lock with a raider keeps its update as a draft — the turn
// is editing, its report and seed hidden from all but the judges — until the mercenary judge
// posts his edit; the turn is then adjudicated with it, the report says so, the next turn
// opens, and the turn replays the same.
func TestPostAfterLockEdit200PublishesTheUpdateAndReplays(t *testing.T) {
	e := newEnv(t)
	raiderAt(t, e, "23F")
	enterResult(e)
	var tv campaign.TurnView
	want(t, e.as(mover, "POST", c1+"/turns/1/lock", map[string]string{"reason": "test"}), http.StatusOK, &tv)
	if tv.Status != campaign.Editing || tv.EditUntil == nil || tv.Seed != "" {
		t.Fatalf("the lock's turn: %+v", tv)
	}
	want(t, e.as(player, "GET", c1+"/turns/1/report", nil), http.StatusNotFound, nil)
	want(t, e.as(player, "GET", c1+"/turns/2", nil), http.StatusNotFound, nil)
	want(t, e.as(player, "POST", c1+"/posts", map[string]string{"text": "Sai Rei: 3F > 4F"}), http.StatusConflict, nil)
	var draft campaign.ReportView
	want(t, e.as(mover, "GET", c1+"/turns/1/report", nil), http.StatusOK, &draft)
	if !draft.Draft || draft.Seed != "" {
		t.Errorf("the judges' draft: %+v", draft)
	}
	var dice struct{ Seed string }
	want(t, e.as(player, "GET", c1+"/turns/1/dice", nil), http.StatusOK, &dice)
	if dice.Seed != "" {
		t.Error("the seed is revealed before the update is published")
	}
	edit := map[string]string{"text": "Zz Raider: 23F > 20F; engage Urza's Guard"}
	var checked campaign.EditView
	want(t, e.as(merc, "POST", c1+"/turns/1/mercenary/edit/check", edit), http.StatusOK, &checked)
	if checked.Outcome == nil || !checked.Outcome.CarriedOut || checked.Status != campaign.Editing {
		t.Fatalf("the check of the edit: %+v", checked)
	}
	for _, c := range []string{player, mover, batty, admin} {
		want(t, e.as(c, "POST", c1+"/turns/1/mercenary/edit", edit), http.StatusForbidden, nil)
	}
	var done campaign.EditView
	want(t, e.as(merc, "POST", c1+"/turns/1/mercenary/edit", edit), http.StatusOK, &done)
	if done.Status != campaign.Locked || done.Closed == nil || done.Closed.Post == 0 || done.Outcome == nil || !done.Outcome.CarriedOut {
		t.Fatalf("the edit: %+v", done)
	}
	want(t, e.as(merc, "POST", c1+"/turns/1/mercenary/edit", map[string]bool{"waive": true}), http.StatusConflict, nil)
	r := report1(t, e)
	if r.AfterLockEdit == nil || !r.AfterLockEdit.CarriedOut || !strings.Contains(r.AfterLockEdit.Note, "Zz Raider") {
		t.Errorf("the report's after-lock edit: %+v", r.AfterLockEdit)
	}
	if !hasBattle(r, "20F", "Zz Raider", "Urza's Guard") {
		t.Errorf("the edit's engagement is not in the report: %+v", r.Battles)
	}
	var rp campaign.ReplayResult
	want(t, e.as(mover, "GET", c1+"/turns/1/replay", nil), http.StatusOK, &rp)
	if !rp.Same {
		t.Errorf("the turn with its after-lock edit does not replay the same: %s", rp.Detail)
	}
	var t2 campaign.TurnView
	want(t, e.as(player, "GET", c1+"/turns/2", nil), http.StatusOK, &t2)
	want(t, e.as(player, "GET", c1+"/turns/1/report", nil), http.StatusOK, nil)
}

func hasBattle(r turn.Report, at string, armies ...string) bool {
	for _, b := range r.Battles {
		if b.Square.String() != at {
			continue
		}
		n := 0
		for _, a := range armies {
			for _, x := range b.Armies {
				if x == a {
					n++
				}
			}
		}
		return n == len(armies)
	}
	return false
}

// An after-lock edit window whose time runs out closes on the scheduler's tick: the update is
// published as locked; and a campaign with no mercenary judge opens none.
func TestAfterLockEditWindowClosesOnSchedule(t *testing.T) {
	e := newEnv(t)
	raiderAt(t, e, "23F")
	enterResult(e)
	lockOK(t, e)
	var tv campaign.TurnView
	want(t, e.as(mover, "GET", c1+"/turns/1", nil), http.StatusOK, &tv)
	if tv.Status != campaign.Editing {
		t.Fatalf("turn 1 is %s", tv.Status)
	}
	if out, err := e.svc.LockDue(context.Background()); err != nil || len(out) != 0 {
		t.Fatalf("before the window's end: %+v %v", out, err)
	}
	e.at(tv.EditUntil.Add(1))
	out, err := e.svc.LockDue(context.Background())
	if err != nil || len(out) != 1 || out[0].Turn != 1 || out[0].Error != "" {
		t.Fatalf("at the window's end: %+v %v", out, err)
	}
	var ev campaign.EditView
	want(t, e.as(merc, "GET", c1+"/turns/1/mercenary/edit", nil), http.StatusOK, &ev)
	if ev.Status != campaign.Locked || ev.Closed == nil || ev.Closed.By != campaign.Scheduler || ev.Closed.Post != 0 {
		t.Errorf("the window closed on schedule: %+v", ev)
	}
	want(t, e.as(player, "GET", c1+"/turns/2", nil), http.StatusOK, nil)
	// without a window the update is published at once
	want(t, e.as(merc, "PUT", c1+"/mercenary", map[string]any{"after_lock_edit_hours": 0}), http.StatusOK, nil)
	want(t, e.as(mover, "POST", c1+"/turns/2/lock", map[string]string{"reason": "test"}), http.StatusOK, &tv)
	if tv.Status != campaign.Locked {
		t.Errorf("with no edit window the lock's turn is %s", tv.Status)
	}
}

// Settings: anyone reads mercenary_ai; a new campaign with a mercenary judge suggests, one
// without plays auto; a bad mode is refused.
func TestPutMercenary200And422(t *testing.T) {
	e := newEnv(t)
	var st campaign.MercenaryView
	want(t, e.as(anon, "GET", c1+"/mercenary", nil), http.StatusOK, &st)
	if st.Mode != "suggest" || st.AfterLockEditHours != 12 || st.Creatures != -1 {
		t.Errorf("the fixture (with a mercenary judge): %+v", st)
	}
	want(t, e.as(merc, "PUT", c1+"/mercenary", map[string]any{"mercenary_ai": "sometimes"}), http.StatusBadRequest, nil)
	want(t, e.as(merc, "PUT", c1+"/mercenary", map[string]any{"mercenary_ai": "auto", "after_lock_edit_hours": 2}), http.StatusOK, &st)
	if st.Mode != "auto" || st.AfterLockEditHours != 2 {
		t.Errorf("after the change: %+v", st)
	}
	var created struct{ Campaign struct{ ID int64 } }
	want(t, e.as(admin, "POST", "/api/campaigns", map[string]any{"name": "No Judge", "map": map[string]any{"grid": map[string]int{"Cols": 10, "Rows": 5},
		"armies": []map[string]any{{"name": "A", "side": "mercenary", "rank": "lieutenant", "at": "3C", "faction": "raider"}}}}), http.StatusCreated, &created)
	want(t, e.as(anon, "GET", "/api/campaigns/"+itoa(created.Campaign.ID)+"/mercenary", nil), http.StatusOK, &st)
	if st.Mode != "auto" || st.AfterLockEditHours != 0 {
		t.Errorf("a campaign with no mercenary judge: %+v", st)
	}
}

// The mercenary judge creates, edits and removes mercenary armies at the armies desk, with
// their troop lists checked; a team army is not his.
func TestArmiesDeskForTheMercenaryJudge(t *testing.T) {
	e := newEnv(t)
	raiderAt(t, e, "23F")
	want(t, e.as(merc, "POST", c1+"/armies", map[string]any{"name": "Zz Ogres", "side": "mercenary", "rank": "lieutenant", "at": "24F", "faction": "raider",
		"troops": []map[string]any{{"creature": "Craw Wurm", "count": 1000}}}), http.StatusUnprocessableEntity, nil)
	var ch campaign.ArmyChange
	want(t, e.as(merc, "PUT", c1+"/armies/Zz%20Raider", map[string]any{"troops": []map[string]any{{"creature": "Llanowar Elves", "count": 3000}}}), http.StatusOK, &ch)
	if ch.Army.Troops[0].Full != 3000 {
		t.Errorf("the edited raider: %+v", ch.Army)
	}
	want(t, e.as(merc, "PUT", c1+"/armies/Sai%20Rei", map[string]any{"colors": []string{"green"}}), http.StatusForbidden, nil)
	want(t, e.as(merc, "DELETE", c1+"/armies/Sai%20Rei", nil), http.StatusForbidden, nil)
	want(t, e.as(merc, "DELETE", c1+"/armies/Vorthos", nil), http.StatusForbidden, nil)
	want(t, e.as(player, "DELETE", c1+"/armies/Zz%20Raider", nil), http.StatusForbidden, nil)
	want(t, e.as(merc, "DELETE", c1+"/armies/Zz%20Raider", nil), http.StatusOK, nil)
	want(t, e.as(merc, "DELETE", c1+"/armies/Zz%20Raider", nil), http.StatusNotFound, nil)
	var m struct{ Armies []domain.Army }
	want(t, e.as(anon, "GET", c1+"/map", nil), http.StatusOK, &m)
	for _, a := range m.Armies {
		if a.Name == "Zz Raider" {
			t.Error("the removed raider is still on the map")
		}
	}
	lockOK(t, e)
	var rp campaign.ReplayResult
	want(t, e.as(mover, "GET", c1+"/turns/1/replay", nil), http.StatusOK, &rp)
	if !rp.Same {
		t.Errorf("a turn with a removed army does not replay the same: %s", rp.Detail)
	}
}

// A pause holds the after-lock edit window too: no edit while paused, and on resuming the
// window closes as much later as the pause lasted.
func TestPostAfterLockEdit409WhilePausedAndResumeMovesTheWindow(t *testing.T) {
	e := newEnv(t)
	raiderAt(t, e, "23F")
	enterResult(e)
	var tv campaign.TurnView
	want(t, e.as(mover, "POST", c1+"/turns/1/lock", map[string]string{"reason": "test"}), http.StatusOK, &tv)
	want(t, e.as(mover, "POST", c1+"/pause", map[string]string{"reason": "a holiday"}), http.StatusOK, nil)
	want(t, e.as(merc, "POST", c1+"/turns/1/mercenary/edit", map[string]bool{"waive": true}), http.StatusConflict, nil)
	e.at(tv.EditUntil.Add(5 * time.Hour))
	if out, err := e.svc.LockDue(context.Background()); err != nil || len(out) != 0 {
		t.Fatalf("a paused campaign's window closed: %+v %v", out, err)
	}
	want(t, e.as(mover, "POST", c1+"/resume", map[string]string{"reason": "back"}), http.StatusOK, nil)
	var after campaign.TurnView
	want(t, e.as(mover, "GET", c1+"/turns/1", nil), http.StatusOK, &after)
	if after.Status != campaign.Editing || !after.EditUntil.After(e.clock.Now()) {
		t.Errorf("after the resume: %+v", after)
	}
	want(t, e.as(merc, "POST", c1+"/turns/1/mercenary/edit", map[string]bool{"waive": true}), http.StatusOK, nil)
}

// A replay runs the AI as the lock ran it (the mode its report records), whatever the setting
// is now: switched off after the lock, the turn still replays the same.
func TestGetReplay200AfterTheMercenaryAIIsSwitchedOff(t *testing.T) {
	e := newEnv(t)
	raiderAt(t, e, "23F")
	want(t, e.as(merc, "PUT", c1+"/mercenary", map[string]any{"mercenary_ai": "auto", "after_lock_edit_hours": 0}), http.StatusOK, nil)
	enterResult(e)
	lockOK(t, e)
	if r := report1(t, e); r.MercenaryAI == nil || len(r.MercenaryAI.Orders) == 0 {
		t.Fatalf("the AI gave no order at the lock: %+v", r.MercenaryAI)
	}
	want(t, e.as(merc, "PUT", c1+"/mercenary", map[string]any{"mercenary_ai": "off"}), http.StatusOK, nil)
	var rp campaign.ReplayResult
	want(t, e.as(mover, "GET", c1+"/turns/1/replay", nil), http.StatusOK, &rp)
	if !rp.Same {
		t.Errorf("the turn does not replay the same once the AI is off: %s", rp.Detail)
	}
}
