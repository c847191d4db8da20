// Package refengine is an independent reference adjudicator, written from the rulebook
// (rules/coalition-wargame-rules.txt) and the standing rulings (RULINGS.md) alone, to be
// compared with the project's lock pipeline (turn.Run) on random maps. It is written for
// clarity, not speed: each step follows the obvious reading of one ruling, cited where it is
// taken. It reuses only the shared types of domain (squares, the seed and its draws) and the
// order parser movement.ParseLine; every check and every resolution step is its own.
//
// The readings it takes where neither the rulebook nor the rulings settle a case are those of
// docs/READINGS.md; README.md lists them with the few it adds.
package refengine

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/coalition-wargame/coalition/domain"
)

// Input is one turn's input: the posts of the movement thread, the lock's time, the private
// transfer details, the judge's battle results and the turn's seed.
type Input struct {
	Seed  domain.Seed
	Posts []domain.Post
	// Lock is the lock's time; zero means no posting window is checked (C2).
	Lock      time.Time
	Transfers []domain.TransferDetail
	Results   []domain.BattleResult
}

// Rejection is an order that was not carried out: the army, where the order was written, and
// the code of the scenario format.
type Rejection struct {
	Army string      `json:"army"`
	Post int64       `json:"post"`
	Line int         `json:"line"`
	Code domain.Code `json:"code"`
}

// Result is the scenario format's result of one turn: the map after the lock and update.
type Result struct {
	Positions      map[string]domain.Square  `json:"positions"`
	Battles        []domain.Battle           `json:"battles"`
	Rejected       []Rejection               `json:"rejected"`
	Partial        []string                  `json:"partial"`
	Days           map[string]int            `json:"days"`
	Alive          map[string]map[string]int `json:"alive"`
	DestroyedSites []string                  `json:"destroyed_sites"`
	Removed        []string                  `json:"removed"`
	ChangedSides   map[string]domain.Side    `json:"changed_sides"`
	Winner         domain.Side               `json:"winner"`
	// Disbanded names the raiders that disbanded at the update (6.3.2); they are in Removed too.
	Disbanded []string `json:"disbanded,omitempty"`
}

// lock is the state of one lock while it runs.
type lock struct {
	m     *domain.Map
	in    Input
	draws *domain.Draws

	// start and startDays are every army's square and day count when the turn opened.
	start     map[string]domain.Square
	startDays map[string]int
	// fought are the battles fought this turn, in square order (B1, M1).
	fought []*fought
	// fighting names the armies in a battle this turn.
	fighting map[string]*fought

	// orders are the counting order of each army after the checks (M2).
	orders map[string]*order
	// transfers are the accepted transfer orders with their detail, in post order.
	transfers []*order

	// units are every army's part in the moves (M6–M15), by name.
	units map[string]*unit
	// formed are the engagements made at this lock (B1); pushed are the push battles (B8).
	formed []domain.Battle
	pushed []domain.Battle
	// goesOn are battles nobody won, fought again next turn (B2).
	goesOn []domain.Battle
	// leaving names the losers of battles won at this lock not yet pushed (R101).
	leaving map[string]bool
	// convCounted names the partially converted armies that counted a day at this update.
	convCounted []string

	// lost are the troops each army lost in the battles settled at this lock: army → creature.
	lost map[string]map[string]int

	// defenderKills are the town defenders a team killed at this lock (6.2.2).
	defenderKills []defenderKill

	res *Result
}

type defenderKill struct {
	target string
	by     domain.Side
}

// fought is a battle fought this turn: the armies on its square when the turn opened, and
// how it came about (its first kind and attacker, B2).
type fought struct {
	square   domain.Square
	armies   []string
	kind     domain.BattleKind
	attacker string
	// outcome after Settle: the winning side, "" when nobody won (B2).
	winner  domain.Side
	winners []string
	decided bool
}

// Run adjudicates one turn on a copy of m and returns the map after the lock and the result.
// An error means the input cannot be settled (a battle fought this turn with no result).
func Run(m *domain.Map, in Input) (*domain.Map, *Result, error) {
	l := &lock{
		m:         m.Clone(),
		in:        in,
		draws:     in.Seed.Draws(),
		start:     map[string]domain.Square{},
		startDays: map[string]int{},
		fighting:  map[string]*fought{},
		leaving:   map[string]bool{},
		orders:    map[string]*order{},
		units:     map[string]*unit{},
		lost:      map[string]map[string]int{},
		res: &Result{
			Positions:    map[string]domain.Square{},
			Days:         map[string]int{},
			Alive:        map[string]map[string]int{},
			ChangedSides: map[string]domain.Side{},
		},
	}
	// D8: a side that has an army of rank Captain/Evincar or above is one that can lose by
	// losing them all; remember it before anything is removed.
	l.m.NoteLeaders()
	for i := range l.m.Armies {
		a := &l.m.Armies[i]
		l.start[a.Name] = a.At
		l.startDays[a.Name] = a.Days
	}
	l.findFought()
	l.check()
	l.resolve()
	if err := l.settle(); err != nil {
		return nil, nil, err
	}
	l.update()
	l.finish()
	return l.m, l.res, nil
}

// findFought lists the battles fought this turn: every square where armies of different sides
// stand when the turn opens (M1, B1). Their kind and attacker come from the map's battles
// when it has them (B2 lists a battle again "with its first kind and attacker"); a square the
// map does not list is a meeting.
func (l *lock) findFought() {
	by := map[domain.Square][]string{}
	for i := range l.m.Armies {
		a := &l.m.Armies[i]
		by[a.At] = append(by[a.At], a.Name)
	}
	for sq, names := range by {
		mixed := false
		for _, n := range names {
			if domain.Enemy(l.army(n).Side, l.army(names[0]).Side) {
				mixed = true
			}
		}
		if !mixed {
			continue
		}
		slices.Sort(names)
		f := &fought{square: sq, armies: names, kind: domain.Meeting}
		if b := l.m.BattleAt(sq); b != nil {
			f.kind, f.attacker = b.Kind, b.Attacker
		}
		l.fought = append(l.fought, f)
		for _, n := range names {
			l.fighting[n] = f
		}
	}
	slices.SortFunc(l.fought, func(a, b *fought) int { return cmpSquare(a.square, b.square) })
}

// army is the army with exactly this name, or nil.
func (l *lock) army(name string) *domain.Army {
	for i := range l.m.Armies {
		if l.m.Armies[i].Name == name {
			return &l.m.Armies[i]
		}
	}
	return nil
}

// armiesAt lists the armies standing on s now, in map order.
func (l *lock) armiesAt(s domain.Square) []*domain.Army {
	var out []*domain.Army
	for i := range l.m.Armies {
		if l.m.Armies[i].At == s {
			out = append(out, &l.m.Armies[i])
		}
	}
	return out
}

// remove takes an army off the map (a kill, B9) and lists it as removed.
func (l *lock) remove(name string) {
	l.m.Armies = slices.DeleteFunc(l.m.Armies, func(a domain.Army) bool { return a.Name == name })
	l.res.Removed = append(l.res.Removed, name)
}

func (l *lock) reject(army string, post int64, line int, code domain.Code) {
	l.res.Rejected = append(l.res.Rejected, Rejection{Army: army, Post: post, Line: line, Code: code})
}

// finish writes the map after the lock into the result (scenario format).
func (l *lock) finish() {
	m := l.m
	m.Battles = nil
	m.Battles = append(m.Battles, l.formed...)
	m.Battles = append(m.Battles, l.goesOn...)
	m.Battles = append(m.Battles, l.pushed...)
	for i := range m.Battles {
		slices.Sort(m.Battles[i].Armies)
	}
	slices.SortFunc(m.Battles, func(a, b domain.Battle) int { return cmpSquare(a.Square, b.Square) })
	m.Turn++
	r := l.res
	r.Battles = slices.Clone(m.Battles)
	for i := range m.Armies {
		a := &m.Armies[i]
		r.Positions[a.Name] = a.At
		r.Days[a.Name] = a.Days
		if a.Troops != nil {
			al := map[string]int{}
			for _, t := range a.Troops {
				al[t.Creature] = t.Alive
			}
			r.Alive[a.Name] = al
		}
	}
	for _, s := range m.Sites {
		if s.Destroyed {
			r.DestroyedSites = append(r.DestroyedSites, s.Name)
		}
	}
	slices.Sort(r.Partial)
	slices.Sort(r.Removed)
	slices.SortStableFunc(r.Rejected, func(a, b Rejection) int {
		return cmp.Or(cmp.Compare(a.Post, b.Post), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Code, b.Code))
	})
	r.Winner = m.Winner
}

// cmpSquare orders squares by number, then letter (docs/RANDOMNESS.md §7).
func cmpSquare(a, b domain.Square) int {
	return cmp.Or(cmp.Compare(a.Col, b.Col), cmp.Compare(a.Row, b.Row))
}

func errorf(format string, args ...any) error {
	return domain.Errorf(domain.ErrInvalid, "%s", fmt.Sprintf(format, args...))
}
