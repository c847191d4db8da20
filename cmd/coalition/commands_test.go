package main

import (
	"bytes"
	"context"
	"database/sql"
	"log/slog"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/store"
)

func testEnv(k string) string { return map[string]string{"COALITION_PASSWORD_COST": "4"}[k] }

// The demo is a real game: a full map, the rulebook's bases, portals and towns, 45 armies a
// side of ranks 1/2/7/7/14/14 (2.5.2.1) with legal troop lists, mercenaries and players.
func TestDemoSetup(t *testing.T) {
	su, err := demoSetup()
	if err != nil {
		t.Fatal(err)
	}
	m := su.Map
	if m.Grid != domain.DefaultGrid {
		t.Errorf("grid %+v", m.Grid)
	}
	terrains := map[domain.Terrain]int{}
	for i := range m.Grid.Size() {
		terrains[m.Terrain.At(m.Grid.At(i))]++
	}
	if len(terrains) < 5 {
		t.Errorf("only %d terrains: %v", len(terrains), terrains)
	}
	kinds := map[domain.SiteKind]int{}
	colors := map[domain.Color]bool{}
	wins := 0
	for _, s := range m.Sites {
		kinds[s.Kind]++
		if s.Kind == domain.Base {
			colors[s.Color] = true
			if s.WinCondition {
				wins++
			}
		}
		if m.Terrain.At(s.At) == domain.Ocean {
			t.Errorf("%s is at sea", s.Name)
		}
	}
	if kinds[domain.Base] != 7 || kinds[domain.Portal] != 5 || kinds[domain.Town] != 3 || len(colors) != 7 || wins != 5 {
		t.Errorf("sites %v, %d base colours, %d win conditions", kinds, len(colors), wins)
	}
	ranks := map[domain.Side]map[domain.Rank]int{}
	for i := range m.Armies {
		a := &m.Armies[i]
		if ranks[a.Side] == nil {
			ranks[a.Side] = map[domain.Rank]int{}
		}
		ranks[a.Side][a.Rank]++
		if len(a.Troops) != domain.Slots {
			t.Errorf("%s has %d troops", a.Name, len(a.Troops))
		}
		for _, tr := range a.Troops {
			if !tr.Size.Fits(a.Rank.SlotSize(tr.Slot)) || tr.Full > domain.SlotCapacity(tr.Slot) {
				t.Errorf("%s: %s %s does not fit slot %d of a %s", a.Name, tr.Creature, tr.Size, tr.Slot, a.Rank.Name(a.Side))
			}
			if a.Side == domain.Coalition && !a.MayUse(&tr) {
				t.Errorf("%s (%v) may not use %s (%v) (2.2.1)", a.Name, a.Colors, tr.Creature, tr.Colors)
			}
			if a.Side == domain.Phyrexia && (tr.HasColor(domain.Green) || tr.HasColor(domain.White)) {
				t.Errorf("Phyrexian %s uses %s (2.2.1)", a.Name, tr.Creature)
			}
		}
	}
	want := map[domain.Rank]int{domain.General: 1, domain.Admiral: 2, domain.Captain: 7, domain.Commander: 7, domain.LtCommander: 14, domain.Lieutenant: 14}
	for _, side := range []domain.Side{domain.Coalition, domain.Phyrexia} {
		for r, n := range want {
			if ranks[side][r] != n {
				t.Errorf("%s has %d %s armies, want %d", side, ranks[side][r], r.Name(side), n)
			}
		}
	}
	if n := len(m.Armies) - 90; n < 3 {
		t.Errorf("%d mercenaries", n)
	}
	players := 0
	for _, mem := range su.Members {
		if mem.Plays() {
			players++
		}
	}
	if players < 4 {
		t.Errorf("%d demo players", players)
	}
}

// import makes a campaign from a scenario; replay adjudicates its locked turns again and
// notices a post changed behind the server's back.
func TestImportAndReplayCommands(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	var out, errb bytes.Buffer
	ctx := context.Background()
	if err := run(ctx, []string{"coalition", "import", "--db", db, "../../testdata/scenarios/public/attack.json"}, testEnv, strings.NewReader(""), &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if !regexp.MustCompile(`Imported .* as campaign 1`).MatchString(out.String()) {
		t.Fatalf("import said %q", out.String())
	}
	st, err := store.Open(ctx, db, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	svc := campaign.NewService(st, campaign.Options{Clock: func() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) }, PasswordCost: 4})
	op := campaign.Operator("test")
	if _, err := svc.SetMember(ctx, op, 1, campaign.Member{Name: "admin-less judge", Roles: []campaign.Role{campaign.MovementJudge}}); err == nil {
		t.Fatal("a member without an account")
	}
	if _, err := svc.CreateAccount(ctx, op, "judge", "judge-password", false); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SetMember(ctx, op, 1, campaign.Member{Name: "judge", Roles: []campaign.Role{campaign.MovementJudge}}); err != nil {
		t.Fatal(err)
	}
	judge, _ := svc.Login(ctx, "judge", "judge-password")
	gaz, err := svc.Login(ctx, "Gazetzot", passwordOf(t, out.String(), "Gazetzot"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Post(ctx, campaign.Actor{Account: gaz}, 1, campaign.PostRequest{Text: "Sai Rei: 3F > 4F; engage Darkhand5"}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Lock(ctx, campaign.Actor{Account: judge}, 1, 1, "test"); err != nil {
		t.Fatal(err)
	}
	st.Close()

	out.Reset()
	if err := run(ctx, []string{"coalition", "replay", "--db", db, "1", "all"}, testEnv, strings.NewReader(""), &out, &errb); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if !strings.Contains(out.String(), "campaign 1 turn 1: same") {
		t.Errorf("replay said %q", out.String())
	}
	// Someone edits the stored post: the replay no longer gives the stored report.
	raw, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.ExecContext(ctx, "UPDATE posts SET text = 'Sai Rei: 3F > 3G'"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	out.Reset()
	err = run(ctx, []string{"coalition", "replay", "--db", db, "1", "1"}, testEnv, strings.NewReader(""), &out, &errb)
	if err == nil || !strings.Contains(out.String(), "DIFFERENT") {
		t.Errorf("a tampered turn replayed: %v %q", err, out.String())
	}
}

func passwordOf(t *testing.T, out, name string) string {
	m := regexp.MustCompile(`(?m)^\s+` + regexp.QuoteMeta(name) + `\s+(\S+)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no password for %s in %q", name, out)
	}
	return m[1]
}

func TestDemoLoadsOnce(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "c.db"), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := campaign.NewService(st, campaign.Options{PasswordCost: 4, Log: slog.New(slog.DiscardHandler)})
	var out bytes.Buffer
	for range 2 {
		if err := loadDemo(ctx, svc, &out); err != nil {
			t.Fatal(err)
		}
	}
	cs, _ := svc.Campaigns(ctx)
	if len(cs) != 1 || !strings.Contains(out.String(), "Gerrard") || !strings.Contains(out.String(), "The demo campaign is campaign 1") {
		t.Errorf("%d campaigns; said %q", len(cs), out.String())
	}
}
