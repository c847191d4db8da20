package main

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/round"
	"github.com/coalition-wargame/coalition/store"
)

// The demo is made by the round generator and passes every check of 2.5 and chapter 6 — its
// mercenaries too: 3 town defenders of rank 2/2–5/5 in the towns (6.1), 4 theme armies of rank
// 3/3–6/6, one in the ocean (6.2), 2 raiders of rank 1/1 and 1 of rank 2/2 (6.3) — and keeps the
// README's example: Hanna on 3G by Tolaria, a friend on 5G, 6G free.
func TestDemoIsAGeneratedLegalRound(t *testing.T) {
	rd, players, _, err := demoRound()
	if err != nil {
		t.Fatal(err)
	}
	cat, err := demoCards()
	if err != nil {
		t.Fatal(err)
	}
	if ps := round.Check(rd, players, cat); len(ps) > 0 {
		t.Fatalf("the demo breaks %d checks: %+v", len(ps), ps)
	}
	count := map[domain.Faction]map[domain.Rank]int{}
	for _, a := range rd.Mercenaries {
		if count[a.Faction] == nil {
			count[a.Faction] = map[domain.Rank]int{}
		}
		count[a.Faction][a.Rank]++
	}
	if count[domain.TownDefender][domain.LtCommander] != 3 || count[domain.Theme][domain.Commander] != 4 ||
		count[domain.Raider][domain.Lieutenant] != 2 || count[domain.Raider][domain.LtCommander] != 1 {
		t.Errorf("the demo's mercenaries by faction and rank: %v", count)
	}
	su, err := demoSetup()
	if err != nil {
		t.Fatal(err)
	}
	m := su.Map
	if a := m.Army("Hanna"); a == nil || a.At != sq("3G") {
		t.Errorf("Hanna is not on 3G: %+v", a)
	}
	for _, a := range m.Armies {
		switch a.At {
		case sq("5G"):
			if a.Side != domain.Coalition {
				t.Errorf("5G holds %s of %s, no friend of Hanna's", a.Name, a.Side)
			}
		case sq("6G"):
			t.Errorf("6G holds %s", a.Name)
		}
	}
	for _, s := range m.Sites {
		if s.Kind != domain.Town && s.Description == "" {
			t.Errorf("%s has no description published with the map (2.5.1.2)", s.Name)
		}
	}
}

// coalition new-round makes a whole legal round by the generator, publishes it and, with
// --start, starts it as a campaign; --from a campaign not decided is refused (1.7).
func TestNewRoundCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	ctx := context.Background()
	var out, errb bytes.Buffer
	if err := run(ctx, []string{"coalition", "new-round", "--db", db, "--seed", "9", "--start", "Round Nine"}, testEnv, strings.NewReader(""), &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	for _, want := range []string{"Made round 1 (\"Round Nine\")", "45 armies a side, 10 mercenaries", "Started it as campaign 1."} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("new-round said %q, not %q", out.String(), want)
		}
	}
	if strings.Contains(out.String(), "problem") {
		t.Errorf("the generated round has problems:\n%s", out.String())
	}
	out.Reset()
	err := run(ctx, []string{"coalition", "new-round", "--db", db, "--from", "1", "Round Ten"}, testEnv, strings.NewReader(""), &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "1.7") {
		t.Errorf("the next round of a campaign not decided: %v", err)
	}
	st, err := store.Open(ctx, db, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := campaign.NewService(st, campaign.Options{PasswordCost: 4})
	v, err := svc.Round(ctx, campaign.Operator("test"), 1)
	if err != nil {
		t.Fatal(err)
	}
	if v.State != campaign.RoundOpen || v.Campaign != 1 {
		t.Errorf("the round is %s, campaign %d", v.State, v.Campaign)
	}
	mv, err := svc.CurrentMap(ctx, campaign.Operator("test"), 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(mv.Armies) != 100 {
		t.Errorf("the campaign's map has %d armies", len(mv.Armies))
	}
}
