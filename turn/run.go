// Package turn is the pure lock pipeline: Run adjudicates one turn (checks, moves, battles,
// the update) and Render writes its report, used alike by the server (package campaign) and
// by `coalition adjudicate`. It knows the rule engines and domain only: no store, no clock, no
// accounts.
package turn

import (
	"cmp"
	"slices"
	"time"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/mercenary"
	"github.com/coalition-wargame/coalition/movement"
)

// Input is everything a lock needs besides the map.
type Input struct {
	Seed  domain.Seed
	Posts []domain.Post
	// Lock is the lock's time; zero means no posting window is checked (C2).
	Lock      time.Time
	Transfers []domain.TransferDetail
	Results   []domain.BattleResult
}

// Run adjudicates one turn: it checks every post against the map as the turn opened, resolves
// the moves at once, settles the battles fought this turn from the judge's results and updates
// the map. m is left as it was; the map after the lock is returned with the lock report. An
// error means the input is not one the rules can settle (a battle with no result, say).
func Run(m *domain.Map, in Input) (*domain.Map, *Report, error) {
	// the lock changes the troops of few armies: the others keep sharing m's (Map.Fork)
	next := m.Fork()
	next.NoteLeaders()
	fought := battle.Fought(next)
	t := battle.Turn{Start: m.Armies, Fought: fought}
	// town defenders heal where they stood (6.1.2)
	home := map[string]domain.Square{}
	for i := range next.Armies {
		if a := &next.Armies[i]; a.Faction == domain.TownDefender {
			home[a.Name] = a.At
		}
	}
	orders := movement.Check(next, in.Posts, movement.Options{Lock: in.Lock, Transfers: in.Transfers})
	moves := movement.Resolve(next, orders, in.Seed)
	t.Moves, t.Formed, t.Transfers = moves.Moves, moves.Battles, moves.Transfers
	defenders := map[string]bool{}
	for i := range next.Armies {
		if a := &next.Armies[i]; a.Faction == domain.TownDefender {
			defenders[a.Name] = true
		}
	}
	lg, err := battle.Settle(next, fought, in.Results, in.Seed.Draws())
	if err != nil {
		return nil, nil, err
	}
	// a team that kills a town defender sets a theme army at war with the other team (6.2.2)
	var wars []mercenary.War
	for _, st := range lg.Settled {
		if k := st.Kill; k != nil && k.Success && defenders[k.Target] {
			if by := next.Army(k.By); by != nil && by.Side.IsTeam() {
				w, err := mercenary.DeclareWar(next, k.Target, by.Side, in.Seed)
				if err != nil {
					return nil, nil, err
				}
				wars = append(wars, w)
			}
		}
	}
	ch := battle.Update(next, t, lg)
	merc := mercenary.Update(next, home, in.Seed)
	next.Battles = append(slices.Clone(moves.Battles), lg.Battles...)
	slices.SortFunc(next.Battles, func(a, b domain.Battle) int {
		return cmp.Or(cmp.Compare(a.Square.Col, b.Square.Col), cmp.Compare(a.Square.Row, b.Square.Row))
	})
	next.Turn++
	rep := newReport(m, next, orders, moves, lg, ch, merc)
	orders.Release() // the report has copied what it keeps of them
	rep.Seed = in.Seed.String()
	rep.Wars = wars
	return next, rep, nil
}
