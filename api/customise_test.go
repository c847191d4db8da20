package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

// twoBattles has Kim fight two battles (2.6): Karn wins at 15J at the lock of turn 1, engages
// the beaten Vorthos in turn 2 and wins that battle at the lock of turn 3. Turn 4 is open.
func twoBattles(t *testing.T, e *env) {
	t.Helper()
	ctx := context.Background()
	e.at(start.Add(time.Hour))
	none := 0.0
	if _, err := e.svc.SetMercenarySettings(ctx, e.actor(mover), e.cid, campaign.MercenarySettingsRequest{AfterLockEditHours: &none}); err != nil {
		t.Fatal(err)
	}
	lockTurn1(e)
	m, err := e.svc.CurrentMap(ctx, e.actor(mover), e.cid)
	if err != nil {
		t.Fatal(err)
	}
	at := map[string]domain.Square{}
	for _, a := range m.Armies {
		at[a.Name] = a.At
	}
	if _, err := e.svc.Post(ctx, e.actor(sameSide), e.cid, campaign.PostRequest{Text: fmt.Sprintf("Karn: %s > %s; engage Vorthos", at["Karn"], at["Vorthos"])}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Lock(ctx, e.actor(mover), e.cid, 2, "test"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.EnterResult(ctx, e.actor(batty), e.cid, 3, domain.BattleResult{Square: at["Vorthos"], Winner: "Karn"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Lock(ctx, e.actor(mover), e.cid, 3, "test"); err != nil {
		t.Fatal(err)
	}
	e.at(start.Add(2 * time.Hour))
}

// 2.6: a new player must remain long enough to fight 2 battles before he customises an army:
// given an army in turn 1, before any battle, Kim is refused, the rule named.
func TestPostArmyCustomise409BeforeTwoBattles(t *testing.T) {
	e := newEnv(t)
	e.at(start.Add(time.Hour))
	if _, err := e.svc.SetControl(context.Background(), e.actor(leader), e.cid, "Urza's Guard", []string{"Kim"}, "Kim's own army"); err != nil {
		t.Fatal(err)
	}
	res := e.as(sameSide, "POST", c1+"/armies/Urza's%20Guard/customise", map[string]any{"troops": []map[string]any{{"creature": "Grizzly Bears", "count": 1000}}})
	want(t, res, http.StatusConflict, nil)
	if d := detail(res); !strings.Contains(d, "has fought 0 battles") || !strings.Contains(d, "(2.6)") {
		t.Errorf("detail %q", d)
	}
}
