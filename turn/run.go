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
	// MercenaryAI is the campaign's mercenary_ai setting (chapter 6); empty is off. With suggest
	// or auto the report warns of the mercenary judge's lines that break a guideline, records
	// the mercenaries' engagements, and a spawned raider is placed by the server; with auto,
	// every mercenary nobody ordered gets the AI's order and every mercenary in a battle the
	// AI's strategy.
	MercenaryAI mercenary.Mode
	// Creatures is the pool a raider the server places draws its troops from (6.3.2): the card
	// data, as cards.Catalogue.CreaturePool gives it. Empty, the raider's troops are left to the judge.
	Creatures []domain.Troop
	// MercenaryHistory is the mercenaries' engagements of earlier turns, as their lock reports
	// recorded them (History): the ocean army remembers its targets by them (6.2.1).
	MercenaryHistory []mercenary.Engagement
	// Edit is the mercenary judge's after-lock edit (6.3.2): a post, made after the lock and
	// before the update is published, that changes one raider's order to an engagement that
	// passes through no army's square. The turn is adjudicated with it (see AfterLockEdit).
	Edit *domain.Post
	// Rulings and Days are the battle judge's corrections of this turn (3.3.3, corrections.go):
	// lines' outcomes overruled, and day counts set in the map the update leaves.
	Rulings []movement.Ruling
	Days    []DayCount
}

// Run adjudicates one turn: it checks every post against the map as the turn opened, resolves
// the moves at once, settles the battles fought this turn from the judge's results and updates
// the map. m is left as it was; the map after the lock is returned with the lock report. An
// error means the input is not one the rules can settle (a battle with no result, say).
//
// With an after-lock edit (Input.Edit), the turn's moves are first resolved as posted, the edit
// is checked on the map they leave (mercenary.CheckEdit), and the whole turn is then run again
// from the same opening map, seed and posts, with the edit as the raider's latest order and
// the AI's orders of the first run kept as they were: the report is that of the second run.
func Run(m *domain.Map, in Input) (*domain.Map, *Report, error) {
	if in.Edit == nil {
		return run(m, in, nil)
	}
	return run(m, in, checkEdit(m, in))
}

func run(m *domain.Map, in Input, ed *editRun) (*domain.Map, *Report, error) {
	// the lock changes the troops of few armies: the others keep sharing m's (Map.Fork)
	next := m.Fork()
	next.NoteLeaders()
	ai := newLockAI(next, in)
	fought := battle.Fought(next)
	t := battle.Turn{Start: m.Armies, Fought: fought}
	// town defenders heal where they stood (6.1.2)
	home := map[string]domain.Square{}
	for i := range next.Armies {
		if a := &next.Armies[i]; a.Faction == domain.TownDefender {
			home[a.Name] = a.At
		}
	}
	var orders *movement.Orders
	if ed != nil && ed.ok() {
		ai.fix(ed.ai)
		orders = ai.orders(next, in, ed.post)
	} else {
		orders = ai.orders(next, in)
	}
	if ai != nil && ai.mode == mercenary.ModeAuto {
		ai.rep.Strategies = ai.mem.Strategies(m, fought)
	}
	disband := disbanding(next, orders)
	moves := movement.Resolve(next, orders, in.Seed)
	t.Moves, t.Formed, t.Transfers = moves.Moves, moves.Battles, moves.Transfers
	if ai != nil {
		ai.rep.Engagements = mercenary.Engagements(next, m.Turn+1, moves.Battles)
	}
	killed := destroyedBy(next, moves) // on the map as the moves left it
	lg, err := battle.Settle(next, fought, in.Results, in.Seed.Draws())
	if err != nil {
		return nil, nil, err
	}
	// a team that kills a town defender sets a theme army at war with the other team (6.2.2):
	// by a kill, or by engaging it when it has no troops (4.3.1 "the killing army", R103)
	killed = append(killed, lg.Killed...)
	var wars []mercenary.War
	for _, k := range killed {
		if _, defender := home[k.Army]; defender && k.By.IsTeam() {
			w, err := mercenary.DeclareWar(next, k.Army, k.By, in.Seed)
			if err != nil {
				return nil, nil, err
			}
			wars = append(wars, w)
		}
	}
	ch := battle.Update(next, t, lg)
	merc := mercenary.Update(next, home, in.Seed, mercenary.UpdateOptions{Disband: disband, Fought: fought,
		Place: in.MercenaryAI.On(), Creatures: in.Creatures, Turn: m.Turn + 1})
	days := setDays(next, in.Days)
	next.Battles = append(slices.Clone(moves.Battles), lg.Battles...)
	slices.SortFunc(next.Battles, func(a, b domain.Battle) int {
		return cmp.Or(cmp.Compare(a.Square.Col, b.Square.Col), cmp.Compare(a.Square.Row, b.Square.Row))
	})
	next.Turn++
	rep := newReport(m, next, orders, moves, lg, ch, merc)
	if ed != nil {
		rep.AfterLockEdit = ed.outcome(orders)
	}
	orders.Release() // the report has copied what it keeps of them
	rep.Seed = in.Seed.String()
	rep.Wars = wars
	rep.Corrections = corrections(in, days)
	if ai != nil {
		rep.MercenaryAI = ai.rep
	}
	return next, rep, nil
}

// destroyedBy lists the armies the moves destroyed empty (B9), each with the side of the armies
// with troops that engaged it on its square, "" when no single side did.
func destroyedBy(m *domain.Map, moves *movement.Outcome) []battle.Kill {
	// in the order of their squares, then of their names, as the battles are
	order := make([]int, len(moves.Removed))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int {
		sa, sb := moves.RemovedAt[a], moves.RemovedAt[b]
		return cmp.Or(cmp.Compare(sa.Col, sb.Col), cmp.Compare(sa.Row, sb.Row), cmp.Compare(moves.Removed[a], moves.Removed[b]))
	})
	out := make([]battle.Kill, 0, len(order))
	for _, k := range order {
		kill := battle.Kill{Army: moves.Removed[k]}
		for i := range m.Armies {
			if o := &m.Armies[i]; o.At == moves.RemovedAt[k] && !o.Empty() {
				kill.Engaged(o.Side)
			}
		}
		out = append(out, kill)
	}
	return out
}
