// Rules B2, B7–B10 and 4.3–4.5: settling the battles fought this turn from the judge's results —
// checking each result fits its battle, and applying it in the rules' order.

package battle

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/coalition-wargame/coalition/domain"
)

// Ledger is what settling a turn's battles did, for the update that follows and the report.
type Ledger struct {
	// Settled are the battles that ended, with their winners.
	Settled []Settled
	// Battles are battles to be fought next turn: those nobody won (B2) and push battles (B8).
	Battles []domain.Battle
	// Removed names armies killed (4.3) or destroyed empty (B9).
	Removed []string
	// Killed are the armies of Removed in the order they died, each with the side that killed
	// it: by a kill (4.3), or by engaging it when it had no troops — "the killing army" of
	// 4.3.1 (6.2.2, R103); the side is "" when no single side did.
	Killed []Kill
	// ChangedSides names armies captured or liberated (4.5) and their new side.
	ChangedSides map[string]domain.Side
	// Displaced names armies moved off their square after the moves: pushed, teleported or
	// leaving a won square (B8, B10, 4.5).
	Displaced map[string]bool
	// Won and Lost name the armies of each settled battle's sides.
	Won, Lost map[string]bool
	// Losses are the troops lost this update: army → creature → count.
	Losses map[string]map[string]int
	// Pushes say where each displaced army went and why, for the report.
	Pushes []Push
	// sq lists the armies by square while Settle runs; fights is the number of its battles;
	// names holds the winners and losers of the battles to settle, armies of them (take)
	sq             *squares
	fights, armies int
	names          []string
	// over are the losses of the battle being settled that were larger than the troops alive
	over []overLoss
	// leaving marks, by army index, the losers of a won battle not yet pushed off its square
	leaving []bool
	// idx holds the map indexes of the armies of the battles being settled (take32)
	idx []int32
}

// Kill is an army killed at this lock and the side that killed it, "" when no single side did.
type Kill struct {
	Army string
	By   domain.Side
	// mixed is set once armies of two sides engaged it
	mixed bool
}

// Engaged notes an army of side s among those that engaged an army with no troops: By is the
// one side they all are, "" once armies of two sides are.
func (k *Kill) Engaged(s domain.Side) {
	switch {
	case k.mixed:
	case k.By == "":
		k.By = s
	case k.By != s:
		k.By, k.mixed = "", true
	}
}

// emptied removes army j, destroyed with no troops where it stands, and notes the side of the
// enemies on its square that engaged it.
func (lg *Ledger) emptied(m *domain.Map, j int) {
	a := &m.Armies[j]
	kill := Kill{Army: a.Name}
	for k := lg.sq.first(a.At); k >= 0; k = lg.sq.after(k) {
		if o := &m.Armies[k]; k != j && !lg.isLeaving(k) && domain.Enemy(o.Side, a.Side) && !o.Empty() {
			kill.Engaged(o.Side)
		}
	}
	lg.Removed = append(lg.Removed, a.Name)
	lg.Killed = append(lg.Killed, kill)
	lg.sq.move(m, j, domain.Square{})
}

// Settled is one battle that ended this turn.
type Settled struct {
	Battle domain.Battle `json:"battle"`
	Winner domain.Side   `json:"winner"`
	// Winners and Losers name the armies of each side.
	Winners []string        `json:"winners"`
	Losers  []string        `json:"losers"`
	Kill    *domain.Attempt `json:"kill,omitempty"`
	Capture *domain.Attempt `json:"capture,omitempty"`
	// Notes say where the judge's result asked for what the rules do not allow and what was
	// done instead (R33).
	Notes []string `json:"notes,omitempty"`
}

// Push is an army moved after the moves, and why.
type Push struct {
	Army   string        `json:"army"`
	From   domain.Square `json:"from"`
	To     domain.Square `json:"to"`
	Reason string        `json:"reason"`
}

func newLedger() *Ledger {
	return &Ledger{ChangedSides: map[string]domain.Side{}, Displaced: map[string]bool{}, Won: map[string]bool{}, Lost: map[string]bool{}, Losses: map[string]map[string]int{}}
}

// Settle applies the judge's results to the battles fought this turn, on the map as the moves
// left it (B8): losses, kills, captures, the winner that must leave a 2-army side, losers
// pushed, and troops waiting for the battle's end (T3). A battle without a result, or a result
// that does not fit its battle, is an error naming it.
func Settle(m *domain.Map, fought []domain.Battle, results []domain.BattleResult, d *domain.Draws) (*Ledger, error) {
	sc := getScratch()
	defer sc.release()
	lg := newLedger()
	lg.sq = sc.index(m)
	lg.fights = len(fought)
	for _, b := range fought {
		lg.armies += len(b.Armies)
	}
	var buf [16]bool
	// one array for the won battles and one for their armies' indexes (ids, winners, losers):
	// the battles point into them, so neither grows
	var moves []afterBattle
	if len(fought) > 0 {
		moves = make([]afterBattle, 0, len(fought))
		lg.idx = make([]int32, 0, 3*lg.armies)
	}
	used := buf[:0]
	if len(results) <= len(buf) {
		used = buf[:len(results)]
	} else {
		used = make([]bool, len(results))
	}
	for _, b := range fought {
		ri := -1
		for i := range results {
			if results[i].Square == b.Square {
				if ri >= 0 {
					return nil, domain.Errorf(domain.ErrInvalid, "two results are given for the battle at %s", b.Square)
				}
				ri = i
			}
		}
		if ri < 0 {
			return nil, domain.Errorf(domain.ErrInvalid, "the battle at %s (%s) has no result", b.Square, joinNames(b.Armies))
		}
		used[ri] = true
		moves = append(moves, afterBattle{})
		won, err := lg.settle(m, b, &results[ri], d, &moves[len(moves)-1])
		if err != nil {
			return nil, err
		}
		if !won {
			moves = moves[:len(moves)-1]
		}
	}
	// every battle's result (losses, kills, captures) stands before any army moves off a
	// battle's square: "after the turn's moves are resolved, the loser is moved" (B8), and a
	// killed army holds no square a loser beside it could be pushed into (R101)
	for k := range moves {
		if err := lg.move(m, &moves[k], d); err != nil {
			return nil, err
		}
	}
	for i, r := range results {
		if !used[i] {
			return nil, domain.Errorf(domain.ErrInvalid, "a result is given for %s, but no battle is fought there this turn", r.Square)
		}
	}
	if len(lg.Removed) > 0 {
		removeArmies(m, lg.Removed)
	}
	lg.sq, lg.names, lg.idx = nil, nil, nil
	return lg, nil
}

// removeArmies takes the named armies off the map, the others keeping their order. Each run of
// armies that stay moves down with one copy.
func removeArmies(m *domain.Map, names []string) {
	as, w := m.Armies, 0
	for r := 0; r < len(as); r++ {
		e := r
		for e < len(as) && !slices.Contains(names, as[e].Name) {
			e++
		}
		if w != r {
			copy(as[w:], as[r:e])
		}
		w += e - r
		r = e
	}
	clear(as[w:])
	m.Armies = as[:w]
}

// sortedKeys lists the map's keys in order, in buf while they fit.
func sortedKeys[V any](m map[string]V, buf []string) []string {
	out := buf[:0]
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func joinNames(n []string) string {
	s := ""
	for i, x := range n {
		if i > 0 {
			s += " vs "
		}
		s += x
	}
	return s
}

// withSquare is text + s.String(), made with one allocation.
func withSquare(text string, s domain.Square) string {
	var buf [64]byte
	b := append(buf[:0], text...)
	if !s.IsZero() {
		b = strconv.AppendUint(b, uint64(s.Col), 10)
		if s.Row >= 1 && s.Row <= domain.MaxRows {
			b = append(b, 'A'+s.Row-1)
		} else {
			b = append(b, '?')
		}
	}
	return string(b)
}

// find is the index of the army m.Army(name) returns, or -1.
func find(m *domain.Map, name string) int {
	for i := range m.Armies {
		if m.Armies[i].Name == name {
			return i
		}
	}
	for i := range m.Armies {
		if domain.SameName(m.Armies[i].Name, name) {
			return i
		}
	}
	return -1
}

// fight is a battle being settled and the index of each of its armies on the map (find of its
// name; armies keep their indexes until Settle ends).
type fight struct {
	b   *domain.Battle
	ids []int32
}

// in is the index of the named army if it fights in the battle (as SameName compares names),
// else -1.
func (f *fight) in(m *domain.Map, name string) int {
	for k, n := range f.b.Armies {
		if n == name {
			return int(f.ids[k])
		}
	}
	for _, n := range f.b.Armies {
		if domain.SameName(n, name) {
			return find(m, name)
		}
	}
	return -1
}

// armyAt is the army of index i, nil for -1.
func armyAt(m *domain.Map, i int) *domain.Army {
	if i < 0 {
		return nil
	}
	return &m.Armies[i]
}

// settle applies one battle's result, checking it against the battle as each step needs it,
// in the rules' order: losses (B7), a battle nobody won (B2), kill and capture attempts (4.3,
// 4.5). When the battle was won it fills mv with what moves once every battle's result stands
// (move) and reports true.
func (lg *Ledger) settle(m *domain.Map, b domain.Battle, r *domain.BattleResult, d *domain.Draws, mv *afterBattle) (bool, error) {
	mv.b, mv.r = b, r
	mv.f = fight{b: &mv.b, ids: lg.take32(len(b.Armies))}
	for _, n := range b.Armies {
		mv.f.ids = append(mv.f.ids, int32(find(m, n)))
	}
	f := &mv.f
	lacks := lacksTopSlot(m, f, r.Kill)
	over, err := lg.applyLosses(m, f, r.Losses)
	if err != nil {
		return false, err
	}
	if r.Winner == "" {
		return false, lg.undecided(m, f, b, r, d)
	}
	w := armyAt(m, f.in(m, r.Winner))
	if w == nil {
		return false, domain.Errorf(domain.ErrInvalid, "the winner at %s, %s, is not in that battle", b.Square, r.Winner)
	}
	st := Settled{Battle: b, Winner: w.Side, Kill: r.Kill, Capture: r.Capture, Notes: over}
	mv.winners, mv.losers = lg.split(m, f, w.Side, &st, lg.take32(len(b.Armies)), lg.take32(len(b.Armies)))
	at, err := lg.allowAttempts(m, f, r, &st, lacks)
	if err != nil {
		return false, err
	}
	if lg.Settled == nil {
		lg.Settled = make([]Settled, 0, lg.fights)
	}
	lg.Settled = append(lg.Settled, st)
	mv.gone, mv.stays = lg.makeAttempts(m, &st, at, nil, d)
	mv.st = st
	for k, n := range st.Losers {
		if !slices.Contains(mv.gone, n) {
			if lg.leaving == nil {
				lg.leaving = make([]bool, len(m.Armies))
			}
			lg.leaving[mv.losers[k]] = true
		}
	}
	// a winning pair: one leaves first (4.4, B10); checked now, made in move
	if len(st.Winners) != 2 && r.Leaves != nil {
		return false, domain.Errorf(domain.ErrInvalid, "at %s only a winning side of two armies sends one away (4.4)", b.Square)
	}
	return true, nil
}

// take32 is an empty slice of capacity n carved from lg.idx, or a new one past its end.
func (lg *Ledger) take32(n int) []int32 {
	if k := len(lg.idx); cap(lg.idx)-k >= n {
		lg.idx = lg.idx[:k+n]
		return lg.idx[k : k : k+n]
	}
	return make([]int32, 0, n)
}

// afterBattle is a won battle whose result stands and whose armies have yet to move.
type afterBattle struct {
	b               domain.Battle
	r               *domain.BattleResult
	f               fight
	st              Settled
	winners, losers []int32
	gone            []string
	stays           string
}

// move makes a won battle's moves, once every battle's result stands: the winning pair's
// leaver (B10), losers pushed (B8), winners bumped off a captive that stays (4.5), then troops
// waiting for the battle's end (T3).
func (lg *Ledger) move(m *domain.Map, mv *afterBattle, d *domain.Draws) error {
	b, st, r := &mv.b, &mv.st, mv.r
	if len(st.Winners) == 2 {
		if err := lg.leave(m, b, st, r.Leaves, r.LoserTo, d); err != nil {
			return err
		}
	}
	if err := lg.pushLosers(m, b, st, mv.losers, mv.gone, r.LoserTo, d); err != nil {
		return err
	}
	if mv.stays != "" && len(st.Winners) > 0 {
		lg.bumpWinners(m, b, mv.winners, d)
	}
	lg.deliver(m, &mv.f)
	return nil
}

// lacksTopSlot is the troops alive in the top slot of the army making the result's kill when
// fewer than the 500 a kill needs, else -1: they are counted before the battle's losses, as
// the risked troops do not fight (4.3.2, 4.3.3, B9).
func lacksTopSlot(m *domain.Map, f *fight, kill *domain.Attempt) int {
	if kill == nil {
		return -1
	}
	if by := armyAt(m, f.in(m, kill.By)); by != nil && by.Troops != nil {
		if _, n := by.TopSlot(); n < 500 {
			return n
		}
	}
	return -1
}

// applyLosses takes the result's losses from the battle's armies (B7) and returns the notes of
// those larger than the troops alive, which kill what the army has (R37).
func (lg *Ledger) applyLosses(m *domain.Map, f *fight, losses map[string]map[string]int) ([]string, error) {
	if len(losses) == 0 {
		return nil, nil
	}
	lg.over = lg.over[:0]
	if err := lg.wounds(m, f, losses); err != nil {
		return nil, err
	}
	return lg.overNotes(), nil
}

// undecided keeps a battle nobody won for next turn (B2); its result may make no attempt, send
// nobody away and push nobody.
func (lg *Ledger) undecided(m *domain.Map, f *fight, b domain.Battle, r *domain.BattleResult, d *domain.Draws) error {
	if r.Kill != nil || r.Capture != nil || r.Leaves != nil || !r.LoserTo.IsZero() {
		return domain.Errorf(domain.ErrInvalid, "the battle at %s has no winner, so nobody can kill, capture, leave or be pushed", b.Square)
	}
	lg.armies -= len(b.Armies)
	// an army the battle left with no troops is engaged again as the battle goes on: it is
	// destroyed now, with no battle and no strategy to write (4.3.1, B9, R102)
	if !slices.ContainsFunc(f.ids, func(i int32) bool { a := armyAt(m, int(i)); return a != nil && a.Empty() }) {
		lg.Battles = append(lg.Battles, b)
		return nil
	}
	keep := b.Armies[:0:0]
	for k, n := range b.Armies {
		if a := armyAt(m, int(f.ids[k])); a != nil && a.Empty() {
			lg.emptied(m, int(f.ids[k]))
			continue
		}
		keep = append(keep, n)
	}
	switch {
	case len(keep) >= 2 && mixedNames(m, keep):
		b.Armies = keep
		if !slices.Contains(keep, b.Attacker) {
			b.Attacker = ""
		}
		lg.Battles = append(lg.Battles, b)
	case len(keep) == 2:
		// a pair left alone on the square: one leaves it, as a winning pair's does (4.4, B10)
		slices.Sort(keep)
		a := m.Army(keep[d.Intn("leave:"+b.Square.String(), len(keep))])
		lg.pushAvoiding(m, indexOf(m, a), domain.Square{}, domain.Square{}, d, "its enemy at "+b.Square.String()+" was destroyed with no troops: it leaves the square to its partner")
	}
	return nil
}

// split names the winners, then the losers, of a battle won by side won, in the battle's order,
// in one array (st.Winners, st.Losers), marks them in the ledger, and appends their indexes on
// the map to winners and losers.
func (lg *Ledger) split(m *domain.Map, f *fight, won domain.Side, st *Settled, winners, losers []int32) ([]int32, []int32) {
	nw := 0
	for _, i := range f.ids {
		if m.Armies[i].Side == won {
			nw++
		}
	}
	names := lg.take(len(f.b.Armies))
	wi, li := 0, nw
	for k, n := range f.b.Armies {
		if i := f.ids[k]; m.Armies[i].Side == won {
			names[wi] = n
			wi++
			winners = append(winners, i)
			lg.Won[n] = true
		} else {
			names[li] = n
			li++
			losers = append(losers, i)
			lg.Lost[n] = true
		}
	}
	if nw > 0 {
		st.Winners = names[:nw:nw]
	}
	if nw < len(names) {
		st.Losers = names[nw:]
	}
	return winners, losers
}

// take returns n strings for a settled battle's winners and losers, from one array made for
// all the battles left to settle.
func (lg *Ledger) take(n int) []string {
	if len(lg.names) < n {
		lg.names = make([]string, max(n, lg.armies))
	}
	out := lg.names[:n:n]
	lg.names, lg.armies = lg.names[n:], lg.armies-n
	return out
}

// String describes a settled battle for the lock report.
func (s Settled) String() string {
	return fmt.Sprintf("%s won at %s", joinNames(s.Winners), s.Battle.Square)
}
