package mercenary_test

import (
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/mercenary"
	"github.com/coalition-wargame/coalition/movement"
)

// TestJudgeName keeps the mercenary judge's author name the same as the movement checker's.
func TestJudgeName(t *testing.T) {
	if mercenary.Judge != movement.MercenaryJudge {
		t.Fatalf("mercenary.Judge is %q, movement.MercenaryJudge is %q", mercenary.Judge, movement.MercenaryJudge)
	}
}

// TestSuggestionsAreLegalOrders posts every suggestion of many full maps as the mercenary
// judge and checks that movement.CheckPost accepts each line without a warning, that it reads
// back to the suggested order, that the suggestions break no guideline (Check), and that no
// two mercenaries are sent to one square (M12).
func TestSuggestionsAreLegalOrders(t *testing.T) {
	moves, engages := 0, 0
	for seed := uint64(1); seed <= 150; seed++ {
		m, mem := mercenary.FullMap(seed)
		if err := m.Validate(); err != nil {
			t.Fatalf("map %d: %v", seed, err)
		}
		for _, mm := range []*mercenary.Memory{nil, mem} {
			sugg := mm.Suggest(m, domain.ScenarioSeed(int64(seed), 0))
			var lines []string
			var orders []domain.Order
			dest := map[domain.Square]string{}
			for _, s := range sugg {
				lines = append(lines, s.Line)
				orders = append(orders, s.Order)
				if s.Reason == "" {
					t.Errorf("map %d: %s has no reason", seed, s.Line)
				}
				if s.Order.Kind != domain.MoveKind {
					continue
				}
				moves++
				if s.Order.Keyword == domain.Engage {
					engages++
				}
				to := s.Order.Legs[0].To
				if other, ok := dest[to]; ok {
					t.Errorf("map %d: %s and %s are both sent to %s (M12)", seed, other, s.Army, to)
				}
				dest[to] = s.Army
				for i := range m.Armies {
					if o := &m.Armies[i]; o.At == to && o.Side == domain.Mercenary {
						t.Errorf("map %d: %s is sent onto %s's square %s (M12)", seed, s.Army, o.Name, to)
					}
				}
			}
			want := 0
			for i := range m.Armies {
				a := &m.Armies[i]
				if a.Side == domain.Mercenary && (len(a.Controllers) == 0 || a.Controllers[0] == movement.MercenaryJudge) {
					want++
				}
			}
			if len(sugg) != want {
				t.Errorf("map %d: %d suggestions for %d mercenaries", seed, len(sugg), want)
			}
			post := domain.Post{ID: 1, Author: movement.MercenaryJudge, At: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), Text: strings.Join(lines, "\n")}
			for _, l := range movement.CheckPost(m, post, movement.Options{}) {
				if l.Rejection != nil {
					t.Errorf("map %d: %q rejected: %s %s", seed, l.Text, l.Rejection.Code, l.Rejection.Message)
				}
				for _, w := range l.Warnings {
					t.Errorf("map %d: %q warned: %s", seed, l.Text, w.Message)
				}
				o, perr := movement.ParseLine(l.Text)
				if perr != nil {
					t.Errorf("map %d: %q: %s", seed, l.Text, perr.Message)
					continue
				}
				if got := movement.Format(o); got != l.Text {
					t.Errorf("map %d: %q reads back as %q", seed, l.Text, got)
				}
			}
			for _, w := range mm.Check(m, orders...) {
				t.Errorf("map %d: a suggestion breaks a guideline: %s", seed, w)
			}
		}
	}
	if moves == 0 || engages == 0 {
		t.Fatalf("the maps gave %d moves and %d engagements: the test proves nothing", moves, engages)
	}
	t.Logf("%d moves, %d engagements", moves, engages)
}

// TestCheckReadsPostedLines runs judge's lines through movement.ParseLine and Check, as the
// order desk would.
func TestCheckReadsPostedLines(t *testing.T) {
	m := &domain.Map{Grid: domain.DefaultGrid,
		Sites:  []domain.Site{{Name: "Ashvale", Kind: domain.Town, Side: domain.Neutral, At: domain.Square{Col: 10, Row: 5}}},
		Armies: []domain.Army{{Name: "Raider One", Side: domain.Mercenary, Rank: domain.Lieutenant, At: domain.Square{Col: 14, Row: 5}, Faction: domain.Raider}}}
	var orders []domain.Order
	for _, line := range []string{"Raider One: 14E > 12E", "Raider One: 14E > 11E"} {
		o, perr := movement.ParseLine(line)
		if perr != nil {
			t.Fatal(perr.Message)
		}
		orders = append(orders, o)
	}
	ws := mercenary.Check(m, orders...)
	if len(ws) != 1 || ws[0].Line != 2 || ws[0].Code != mercenary.NearSite {
		t.Fatalf("want one near_site warning on line 2, got %v", ws)
	}
}
