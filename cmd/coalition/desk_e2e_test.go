package main

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/cards"
)

// deskScenario has Ash (Coalition, Gazetzot) and Grim (Phyrexia, Vorath) fighting at 10E in
// turn 1, both with troop lists.
const deskScenario = `{"name":"desk","seed":7,"sites":[],"armies":[
 {"name":"Ash","side":"coalition","rank":"captain","at":"10E","controllers":["Gazetzot"],"colors":["red"],
  "troops":[{"creature":"Hill Giant","size":"3/3","colors":["red"],"slot":1,"alive":5000,"full":5000},
            {"creature":"Shivan Dragon","size":"5/5","colors":["red"],"slot":4,"alive":1000,"full":1000}]},
 {"name":"Grim","side":"phyrexia","rank":"centurion","at":"10E","controllers":["Vorath"],
  "troops":[{"creature":"Plague Rats","size":"1/1","colors":["black"],"slot":1,"alive":3000,"full":5000}]}],
 "turns":[{"lock":"2026-03-09T05:00:00Z","posts":[]}]}`

// TestBattleDeskOverHTTP runs the battle judge's flow through the real program: both sides
// send strategies, the battle judge proposes and confirms, the turn locks, and the published
// dice pass `coalition verify-dice`; a tampered publication fails it.
func TestBattleDeskOverHTTP(t *testing.T) {
	s := startServer(t, "--lock-tick", "off")
	s.clock.Set(time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC))
	admin := s.login("admin", e2eAdminPassword)
	var created struct {
		Campaign struct{ ID int64 }
		Accounts []newAccount
	}
	s.call("POST", "/api/campaigns/import", admin, []byte(deskScenario), http.StatusCreated, &created)
	pw := map[string]string{}
	for _, a := range created.Accounts {
		pw[a.Account.Name] = a.Password
	}
	var judge newAccount
	s.call("POST", "/api/accounts", admin, map[string]string{"name": "Desk Judge"}, http.StatusCreated, &judge)
	base := "/api/campaigns/" + strconv.FormatInt(created.Campaign.ID, 10)
	s.call("PUT", base+"/members/Desk%20Judge", admin, map[string]any{"roles": []string{"battle-judge"}}, http.StatusOK, nil)
	gaz, vor, bj := s.login("Gazetzot", pw["Gazetzot"]), s.login("Vorath", pw["Vorath"]), s.login("Desk Judge", judge.Password)

	battle := base + "/turns/1/battles/10E"
	s.call("POST", battle+"/strategies", gaz, map[string]any{"army": "Ash", "text": "Giants in front, the dragons circle.", "kill": "Grim"}, http.StatusCreated, nil)
	s.call("POST", battle+"/strategies", vor, map[string]any{"army": "Grim", "text": "The rats scatter into the hills.", "run_away": true}, http.StatusCreated, nil)
	var p struct {
		Proposal struct {
			Result struct{ Winner string }
			Rolls  []struct{ Label string }
		}
	}
	s.call("POST", battle+"/proposal", bj, map[string]any{"bonus_to": "Ash", "bonus": 6}, http.StatusOK, &p)
	if p.Proposal.Result.Winner != "Ash" || len(p.Proposal.Rolls) < 8 {
		t.Fatalf("a running side loses (4.2.6): %+v", p.Proposal)
	}
	s.call("POST", battle+"/confirm", bj, map[string]any{}, http.StatusOK, nil)
	s.call("POST", base+"/turns/1/lock", bj, map[string]string{"reason": "e2e"}, http.StatusOK, nil)
	var rep struct {
		Report struct{ Settled []struct{ Winners []string } }
		Text   string
	}
	s.call("GET", base+"/turns/1/report", "", nil, http.StatusOK, &rep)
	if len(rep.Report.Settled) != 1 || rep.Report.Settled[0].Winners[0] != "Ash" {
		t.Fatalf("report %+v", rep.Report)
	}

	pub := s.call("GET", base+"/turns/1/dice", "", nil, http.StatusOK, nil)
	var out bytes.Buffer
	if err := run(t.Context(), []string{"coalition", "verify-dice"}, func(string) string { return "" }, bytes.NewReader(pub), &out, &out); err != nil {
		t.Fatalf("verify-dice on the server's publication: %v\n%s", err, out.String())
	}
	if !strings.HasPrefix(out.String(), "OK") {
		t.Errorf("verify-dice: %s", out.String())
	}
	tampered := bytes.Replace(pub, []byte(`"value":`), []byte(`"value":1`), 1)
	out.Reset()
	if err := run(t.Context(), []string{"coalition", "verify-dice", "-"}, func(string) string { return "" }, bytes.NewReader(tampered), &out, &out); err == nil {
		t.Errorf("verify-dice passed a tampered roll: %s", out.String())
	}
	var check struct{ OK bool }
	s.call("GET", base+"/turns/1/dice/verify", "", nil, http.StatusOK, &check)
	if !check.OK {
		t.Error("the server's own check fails")
	}
}

// TestServeWithAnImportedCatalogue starts the program on a catalogue file, as
// `coalition cards import` writes one: troop lists are checked against it.
func TestServeWithAnImportedCatalogue(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cards.json.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := cards.WriteCards(f, []cards.Card{{Name: "Zz Imported Beast", Colors: []string{"G"}, Types: []string{"Creature"}, Power: "2", Toughness: "2"}}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s := startServer(t, "--lock-tick", "off", "--cards", path)
	s.call("GET", "/api/cards/zz%20imported%20beast", "", nil, http.StatusOK, nil)
	s.call("GET", "/api/cards/Grizzly%20Bears", "", nil, http.StatusNotFound, nil)
	if !strings.Contains(s.stderr.String(), fmt.Sprintf("file=%s", path)) {
		t.Errorf("the log does not say which catalogue was loaded:\n%s", s.stderr.String())
	}
}
