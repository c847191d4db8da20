package turn_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/mercenary"
	"github.com/coalition-wargame/coalition/turn"
)

func square(s string) domain.Square {
	q, err := domain.ParseSquare(s)
	if err != nil {
		panic(err)
	}
	return q
}

// aiMap is a small map for the mercenary AI: a town with its defender, a raider with a weak
// army in reach (Weak One) and another it does not engage because Picket escorts it, a
// stronger one, and a battle at 30J between a theme army and Grim.
func aiMap() *domain.Map {
	troops := func(n, size int) []domain.Troop {
		return []domain.Troop{{Creature: "Troops", Size: domain.Size{Power: size, Toughness: size}, Slot: 1, Alive: n, Full: n}}
	}
	return &domain.Map{Grid: domain.DefaultGrid,
		Sites: []domain.Site{{Name: "Ashvale", Kind: domain.Town, Side: domain.Neutral, At: square("10E")}},
		Armies: []domain.Army{
			{Name: "Raider One", Side: domain.Mercenary, Rank: domain.Lieutenant, At: square("14C"), Faction: domain.Raider, Troops: troops(3000, 1)},
			{Name: "Warden", Side: domain.Mercenary, Rank: domain.LtCommander, At: square("10E"), Faction: domain.TownDefender, Home: "Ashvale", Troops: troops(4000, 2)},
			{Name: "Chimera", Side: domain.Mercenary, Rank: domain.Commander, At: square("30J"), Faction: domain.Theme, Troops: troops(4000, 3)},
			{Name: "Weak One", Side: domain.Coalition, Rank: domain.Lieutenant, At: square("16C"), Controllers: []string{"Gerrard"}, Troops: troops(500, 1)},
			{Name: "Strong", Side: domain.Phyrexia, Rank: domain.Lieutenant, At: square("20C"), Controllers: []string{"Gix"}, Troops: troops(5000, 1)},
			{Name: "Grim", Side: domain.Phyrexia, Rank: domain.Lieutenant, At: square("30J"), Controllers: []string{"Gix"}, Troops: troops(900, 1)},
			{Name: "Picket", Side: domain.Phyrexia, Rank: domain.Lieutenant, At: square("15C"), Controllers: []string{"Gix"}, Troops: troops(5000, 2)},
			{Name: "Straggler", Side: domain.Phyrexia, Rank: domain.Lieutenant, At: square("16D"), Controllers: []string{"Gix"}, Troops: troops(300, 1)},
		}}
}

var lockAt = time.Date(2026, 3, 2, 5, 0, 0, 0, time.UTC)

func post(id int64, author, text string) domain.Post {
	return domain.Post{ID: id, Author: author, At: lockAt.Add(-time.Hour), Text: text}
}

func aiInput(mode mercenary.Mode, posts ...domain.Post) turn.Input {
	return turn.Input{Seed: domain.ScenarioSeed(1, 0), Posts: posts, Lock: lockAt, MercenaryAI: mode,
		Results: []domain.BattleResult{{Square: square("30J")}}}
}

func positionOf(rep *turn.Report, army string) domain.Square {
	for _, e := range rep.Positions {
		if e.Name == army {
			return e.Value
		}
	}
	return domain.Square{}
}

// TestRunMercenaryAI: off, an unordered mercenary holds and the report says nothing of the AI;
// suggest, the report has the AI's part but carries out no order; auto, every mercenary with
// no accepted order gets the AI's order (a rejected order replaces nothing, M2), every one in
// a battle the AI's strategy, and the report lists the AI's orders as such.
func TestRunMercenaryAI(t *testing.T) {
	judge := post(1, mercenary.Judge, "Warden: 10E > 9E\nChimera: 30J > 31J")
	for _, mode := range []mercenary.Mode{mercenary.ModeOff, mercenary.ModeSuggest, mercenary.ModeAuto} {
		t.Run(string(mode), func(t *testing.T) {
			_, rep, err := turn.Run(aiMap(), aiInput(mode, judge))
			if err != nil {
				t.Fatal(err)
			}
			raider := positionOf(rep, "Raider One")
			if warden := positionOf(rep, "Warden"); warden != square("9E") {
				t.Fatalf("the judge's order for Warden was not carried out: %s", warden)
			}
			switch mode {
			case mercenary.ModeOff:
				if rep.MercenaryAI != nil || raider != square("14C") {
					t.Fatalf("AI off: %+v, raider at %s", rep.MercenaryAI, raider)
				}
				return
			case mercenary.ModeSuggest:
				if rep.MercenaryAI == nil || rep.MercenaryAI.Orders != nil || rep.MercenaryAI.Strategies != nil || raider != square("14C") {
					t.Fatalf("AI suggest: %+v, raider at %s", rep.MercenaryAI, raider)
				}
			case mercenary.ModeAuto:
				ai := rep.MercenaryAI
				if ai == nil || len(ai.Orders) != 1 || ai.Orders[0].Line != "Raider One: 14C > 16C; engage Weak One" || ai.Orders[0].Guideline != mercenary.GuideRaider || raider != square("16C") {
					t.Fatalf("AI auto: %+v, raider at %s", ai, raider)
				}
				if len(ai.Strategies) != 1 || ai.Strategies[0].Army != "Chimera" || ai.Strategies[0].Square != square("30J") {
					t.Fatalf("strategies %+v", ai.Strategies)
				}
				if len(ai.Engagements) != 1 || ai.Engagements[0].Army != "Raider One" || !slices.Equal(ai.Engagements[0].Targets, []string{"Weak One"}) {
					t.Fatalf("engagements %+v", ai.Engagements)
				}
				text := turn.Render(turn.Heading{Campaign: "Test", Turn: 1}, rep)
				for _, want := range []string{"Raider One: 14C > 16C (the mercenary AI's order)", "The mercenary AI's orders", "Raider One: 14C > 16C; engage Weak One — 6.3.1: weakest army in range: Weak One at 16C, 500 alive", "Chimera: the mercenary AI wrote its strategy for the battle at 30J"} {
					if !strings.Contains(text, want) {
						t.Errorf("the report text lacks %q:\n%s", want, text)
					}
				}
			}
			// Chimera fights at 30J: its order is rejected (M1) and it gets no AI order either
			if rep.MercenaryAI != nil && slices.ContainsFunc(rep.MercenaryAI.Orders, func(s mercenary.Suggestion) bool { return s.Army == "Chimera" }) {
				t.Fatal("the AI ordered an army in a battle")
			}
		})
	}
}

// TestRunAIRespectsAcceptedOrders: the AI orders nobody the judge ordered, fills in where the
// judge's line was rejected (M2: a rejected order replaces nothing), and keeps the judge's
// destinations free (M12).
func TestRunAIRespectsAcceptedOrders(t *testing.T) {
	_, rep, err := turn.Run(aiMap(), aiInput(mercenary.ModeAuto, post(1, mercenary.Judge, "Raider One: 14C > 14D\nWarden: 9E > 8E")))
	if err != nil {
		t.Fatal(err)
	}
	if positionOf(rep, "Raider One") != square("14D") {
		t.Fatalf("the judge's order for the raider was replaced: %v", rep.MercenaryAI.Orders)
	}
	if len(rep.MercenaryAI.Orders) != 1 || rep.MercenaryAI.Orders[0].Army != "Warden" {
		t.Fatalf("AI orders %+v (Warden's line was rejected: wrong origin)", rep.MercenaryAI.Orders)
	}
}

// TestRunGuidelineWarnings: a mercenary judge's line that breaks a guideline is carried out,
// and the report carries the warning naming the guideline; MercenaryWarnings gives the same
// warning at post time.
func TestRunGuidelineWarnings(t *testing.T) {
	p := post(7, mercenary.Judge, "Raider One: 14C > 12C\nWarden: 10E > 13E")
	_, rep, err := turn.Run(aiMap(), aiInput(mercenary.ModeSuggest, p))
	if err != nil {
		t.Fatal(err)
	}
	want := []turn.GuidelineWarning{
		{Army: "Warden", Post: 7, Line: 2, Rule: "6.1.1", Code: mercenary.LeavesTown},
	}
	got := rep.MercenaryAI.Warnings
	if len(got) != 1 || got[0].Army != want[0].Army || got[0].Post != 7 || got[0].Line != 2 || got[0].Code != mercenary.LeavesTown || got[0].Rule != "6.1.1" {
		t.Fatalf("warnings %+v", got)
	}
	if positionOf(rep, "Warden") != square("13E") {
		t.Fatal("the judge's order was not carried out")
	}
	now := turn.MercenaryWarnings(aiMap(), p, nil)
	if !reflect.DeepEqual(now, got) {
		t.Fatalf("at post time %+v, at the lock %+v", now, got)
	}
}

// TestMercenaryPlan is the same on every call for the same turn, and names every mercenary the
// judge orders.
func TestMercenaryPlan(t *testing.T) {
	m, seed := aiMap(), domain.ScenarioSeed(4, 2)
	a, b := turn.MercenaryPlan(m, seed, nil), turn.MercenaryPlan(m, seed, nil)
	if !reflect.DeepEqual(a, b) || len(a) != 3 {
		t.Fatalf("plan %+v, then %+v", a, b)
	}
	if a[2].Army != "Chimera" || a[2].Line != "Chimera: fighting" {
		t.Fatalf("Chimera %+v", a[2])
	}
	if m.Armies[2].Territory != (domain.Square{}) {
		t.Fatal("the plan changed the map")
	}
}

// TestMercenaryStrategies writes a strategy for each mercenary in a battle fought this turn.
func TestMercenaryStrategies(t *testing.T) {
	st := turn.MercenaryStrategies(aiMap(), nil)
	if len(st) != 1 || st[0].Army != "Chimera" || st[0].Kill != "" || st[0].Guideline != mercenary.GuideTheme {
		t.Fatalf("strategies %+v", st)
	}
}

// TestHistory gathers the engagements of earlier reports, and the ocean army remembers them.
func TestHistory(t *testing.T) {
	e := mercenary.Engagement{Turn: 3, Army: "Kraken", Square: square("20L"), Targets: []string{"Swimmer"}}
	got := turn.History(&turn.Report{}, nil, &turn.Report{MercenaryAI: &turn.MercenaryAI{Engagements: []mercenary.Engagement{e}}})
	if len(got) != 1 || got[0].Army != "Kraken" {
		t.Fatalf("history %+v", got)
	}
}

// TestRunAfterLockEdit (6.3.2): an edit that engages an army through no army's square is
// carried out and the report says so; one that passes an army, or that does not engage, is
// not, and the turn stands as locked.
func TestRunAfterLockEdit(t *testing.T) {
	edit := func(text string) *domain.Post {
		p := domain.Post{ID: 99, Author: mercenary.Judge, At: lockAt.Add(time.Hour), Text: text}
		return &p
	}
	for _, c := range []struct {
		name, text string
		carried    bool
		raider     string
		problem    mercenary.Code
	}{
		{"engages through free squares", "Raider One: 14C > 16D (14C - 14D - 15D - 16D); engage Straggler", true, "16D", ""},
		{"passes an army", "Raider One: 14C > 16D (14C - 15C - 16C - 16D); engage Straggler", false, "16C", mercenary.EditPassesArmy},
		{"may pass an army on a random route", "Raider One: 14C > 16D; engage Straggler", false, "16C", mercenary.EditPassesArmy},
		{"does not engage", "Raider One: 14C > 14E", false, "16C", mercenary.EditNoEngage},
		{"edits a town defender", "Warden: 10E > 11E", false, "16C", mercenary.EditNotRaider},
		{"edits a raider and a theme army", "Raider One: 14C > 16D (14C - 14D - 15D - 16D); engage Straggler\nChimera: 30J > 30K", false, "16C", mercenary.EditNotRaider},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := aiInput(mercenary.ModeAuto)
			in.Edit = edit(c.text)
			_, rep, err := turn.Run(aiMap(), in)
			if err != nil {
				t.Fatal(err)
			}
			e := rep.AfterLockEdit
			if e == nil || e.CarriedOut != c.carried || e.Post != 99 || e.Note == "" {
				t.Fatalf("edit %+v", e)
			}
			if c.problem != "" && !slices.ContainsFunc(e.Problems, func(w mercenary.Warning) bool { return w.Code == c.problem }) {
				t.Fatalf("problems %+v, want %s", e.Problems, c.problem)
			}
			if got := positionOf(rep, "Raider One"); got != square(c.raider) {
				t.Fatalf("the raider ends at %s, want %s", got, square(c.raider))
			}
		})
	}
}
