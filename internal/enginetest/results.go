package enginetest

import (
	"math/rand/v2"
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// Fought lists, by square, the armies of every battle fought this turn: every square where
// armies of different sides stand when the turn opens (B1). Squares come in grid order.
func Fought(m *domain.Map) ([]domain.Square, map[domain.Square][]*domain.Army) {
	by := map[domain.Square][]*domain.Army{}
	for i := range m.Armies {
		a := &m.Armies[i]
		by[a.At] = append(by[a.At], a)
	}
	var squares []domain.Square
	for s, as := range by {
		if slices.ContainsFunc(as, func(a *domain.Army) bool { return domain.Enemy(a.Side, as[0].Side) }) {
			squares = append(squares, s)
		}
	}
	slices.SortFunc(squares, func(a, b domain.Square) int { return m.Grid.Index(a) - m.Grid.Index(b) })
	return squares, by
}

// Results gives a judge's result for every battle fought this turn: a random winner (or
// nobody, B2), losses no larger than the troops alive, and now and then a kill or capture
// attempt (4.3, 4.5), which of a winning pair leaves (B10) and where the loser goes (B8). Every
// result fits its battle as it stands when the turn opens; a loser's square may still turn out
// to hold a friend after the moves, which Settle rightly refuses.
func Results(r *rand.Rand, m *domain.Map) []domain.BattleResult {
	squares, by := Fought(m)
	out := make([]domain.BattleResult, 0, len(squares))
	for _, s := range squares {
		armies := by[s]
		res := domain.BattleResult{Square: s}
		for _, a := range armies {
			if a.Troops == nil || len(a.Troops) == 0 || r.IntN(3) == 0 {
				continue
			}
			loss := map[string]int{}
			for _, t := range a.Troops {
				if r.IntN(2) == 0 {
					loss[t.Creature] = r.IntN(t.Alive + 2)
				}
			}
			if len(loss) > 0 {
				if res.Losses == nil {
					res.Losses = map[string]map[string]int{}
				}
				res.Losses[a.Name] = loss
			}
		}
		if r.IntN(7) == 0 {
			out = append(out, res) // nobody won: the battle goes on (B2)
			continue
		}
		w := armies[r.IntN(len(armies))]
		res.Winner = w.Name
		var winners, losers []*domain.Army
		for _, a := range armies {
			if a.Side == w.Side {
				winners = append(winners, a)
			} else {
				losers = append(losers, a)
			}
		}
		by, target := winners[r.IntN(len(winners))], losers[r.IntN(len(losers))]
		switch x := r.IntN(10); {
		case x == 0:
			res.Kill = &domain.Attempt{By: by.Name, Target: target.Name, Success: r.IntN(2) == 0, RiskedLost: r.IntN(501)}
		case x == 1 && target.Rank.Lowest():
			res.Capture = &domain.Attempt{By: by.Name, Target: target.Name, Success: r.IntN(3) != 0, RiskedLost: r.IntN(2001)}
		case x == 2:
			// a failed attempt by the loser: allowed, it risks troops all the same
			res.Kill = &domain.Attempt{By: target.Name, Target: by.Name, RiskedLost: r.IntN(501)}
		}
		if len(winners) == 2 && r.IntN(2) == 0 {
			lv := &domain.Leave{Army: winners[r.IntN(2)].Name}
			if n := m.Grid.Neighbours(nil, s); r.IntN(2) == 0 {
				lv.To = n[r.IntN(len(n))]
			}
			res.Leaves = lv
		}
		if r.IntN(6) == 0 {
			n := m.Grid.Neighbours(nil, s)
			res.LoserTo = n[r.IntN(len(n))]
		}
		out = append(out, res)
	}
	return out
}
