// Package battle is the battle judge's rule engine: it settles the battles fought in a turn
// from the judge's results (B2, B8–B10, 4.3–4.5), carries out transfers (T3), counts days,
// heals (D1–D5), destroys bases (D7) and decides the round (D8). It also rolls verifiable dice
// (B5, B6) and evaluates the server's secret formulas (B3, B7). It imports only domain and
// the standard library.
package battle

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// Fought lists the battles fought this turn: every square where armies of different sides
// stand when the turn opens, with the kind and attacker the lock that made it gave (B1), in
// order of square.
func Fought(m *domain.Map) []domain.Battle {
	// armies by square, as Settle lists them; shared lists the squares that hold two armies
	// or more
	sc := getScratch()
	defer sc.release()
	g, q := m.Grid, &sc.sq
	q.g, q.head, q.next = g, zeroed(q.head, g.Size()), zeroed(q.next, len(m.Armies))
	head, next := q.head, q.next
	var buf [16]domain.Square
	shared := buf[:0]
	for i := len(m.Armies) - 1; i >= 0; i-- {
		s := m.Armies[i].At
		if !g.Contains(s) {
			return foughtOffGrid(m)
		}
		k := g.Index(s)
		if h := head[k]; h > 0 && next[h-1] == 0 {
			shared = append(shared, s)
		}
		next[i], head[k] = head[k], int32(i+1)
	}
	slices.SortFunc(shared, cmpSquare)
	battles, names := 0, 0
	for _, s := range shared {
		j := q.first(s)
		side, mixed, n := m.Armies[j].Side, false, 0
		for ; j >= 0; j = q.after(j) {
			mixed = mixed || domain.Enemy(m.Armies[j].Side, side)
			n++
		}
		if mixed {
			shared[battles] = s
			battles++
			names += n
		}
	}
	if battles == 0 {
		return nil
	}
	// one array holds the names of every battle, each its own part of it
	out, all := make([]domain.Battle, battles), make([]string, 0, names)
	for k, s := range shared[:battles] {
		from := len(all)
		for j := q.first(s); j >= 0; j = q.after(j) {
			all = append(all, m.Armies[j].Name)
		}
		out[k] = newBattle(m, s, all[from:len(all):len(all)])
	}
	return out
}

// newBattle is the battle on square s between the named armies, which it sorts, with the
// kind and attacker of the battle the lock made there (B1).
func newBattle(m *domain.Map, s domain.Square, names []string) domain.Battle {
	b := domain.Battle{Square: s, Kind: domain.Meeting, Armies: names}
	if prev := m.BattleAt(s); prev != nil {
		b.Kind, b.Attacker = prev.Kind, prev.Attacker
	}
	slices.Sort(b.Armies)
	if b.Attacker != "" && !slices.Contains(b.Armies, b.Attacker) {
		b.Attacker = ""
	}
	return b
}

// foughtOffGrid is Fought for a map with armies off its grid: the armies are sorted by square.
func foughtOffGrid(m *domain.Map) []domain.Battle {
	idx := make([]int32, len(m.Armies))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(a, b int32) int {
		if c := cmpSquare(m.Armies[a].At, m.Armies[b].At); c != 0 {
			return c
		}
		return int(a - b)
	})
	var out []domain.Battle
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && m.Armies[idx[j]].At == m.Armies[idx[i]].At {
			j++
		}
		if b, ok := battleOf(m, idx[i:j]); ok {
			out = append(out, b)
		}
		i = j
	}
	return out
}

// battleOf is the battle of the armies ids, in map order on one square, if two of them are
// enemies (B1).
func battleOf(m *domain.Map, ids []int32) (domain.Battle, bool) {
	first := &m.Armies[ids[0]]
	mixed := false
	for _, k := range ids[1:] {
		if domain.Enemy(m.Armies[k].Side, first.Side) {
			mixed = true
		}
	}
	if !mixed {
		return domain.Battle{}, false
	}
	names := make([]string, 0, len(ids))
	for _, k := range ids {
		names = append(names, m.Armies[k].Name)
	}
	return newBattle(m, first.At, names), true
}

func cmpSquare(a, b domain.Square) int {
	if a.Col != b.Col {
		return int(a.Col) - int(b.Col)
	}
	return int(a.Row) - int(b.Row)
}

// Ledger is what settling a turn's battles did, for the update that follows and the report.
type Ledger struct {
	// Settled are the battles that ended, with their winners.
	Settled []Settled
	// Battles are battles to be fought next turn: those nobody won (B2) and push battles (B8).
	Battles []domain.Battle
	// Removed names armies killed (4.3) or destroyed empty (B9).
	Removed []string
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
}

// overLoss is a loss the judge gave that was larger than the troops alive (R37).
type overLoss struct {
	army, creature string
	asked, alive   int
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
		if err := lg.settle(m, b, &results[ri], d); err != nil {
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
	lg.sq, lg.names = nil, nil
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

func (lg *Ledger) settle(m *domain.Map, b domain.Battle, r *domain.BattleResult, d *domain.Draws) error {
	var idBuf [8]int32
	f := fight{b: &b, ids: idBuf[:0]}
	for _, n := range b.Armies {
		f.ids = append(f.ids, int32(find(m, n)))
	}
	// a kill needs 500 alive in the top slot before the battle: the risked troops do not fight
	// (4.3.2, 4.3.3, B9)
	lacks := -1
	if k := r.Kill; k != nil {
		if by := armyAt(m, f.in(m, k.By)); by != nil && by.Troops != nil {
			if _, n := by.TopSlot(); n < 500 {
				lacks = n
			}
		}
	}
	// losses (B7): more than an army has kill what it has, with a note (R37)
	var over []string
	if len(r.Losses) > 0 {
		lg.over = lg.over[:0]
		if err := lg.wounds(m, &f, r.Losses); err != nil {
			return err
		}
		over = lg.overNotes()
	}
	if r.Winner == "" {
		if r.Kill != nil || r.Capture != nil || r.Leaves != nil || !r.LoserTo.IsZero() {
			return domain.Errorf(domain.ErrInvalid, "the battle at %s has no winner, so nobody can kill, capture, leave or be pushed", b.Square)
		}
		lg.Battles = append(lg.Battles, b)
		lg.armies -= len(b.Armies)
		return nil
	}
	w := armyAt(m, f.in(m, r.Winner))
	if w == nil {
		return domain.Errorf(domain.ErrInvalid, "the winner at %s, %s, is not in that battle", b.Square, r.Winner)
	}
	st := Settled{Battle: b, Winner: w.Side, Kill: r.Kill, Capture: r.Capture, Notes: over}
	// the winners, then the losers, in the battle's order, in one array; winners and losers
	// hold their indexes on the map
	won := 0
	for _, i := range f.ids {
		if m.Armies[i].Side == w.Side {
			won++
		}
	}
	names := lg.take(len(b.Armies))
	var winnerBuf, loserBuf [8]int32
	winners, losers := winnerBuf[:0], loserBuf[:0]
	wi, li := 0, won
	for k, n := range b.Armies {
		if i := f.ids[k]; m.Armies[i].Side == w.Side {
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
	if won > 0 {
		st.Winners = names[:won:won]
	}
	if won < len(names) {
		st.Losers = names[won:]
	}
	// the armies killed or captured, which are not pushed
	var goneBuf [2]string
	gone := goneBuf[:0]
	stays := "" // a captured army that could not be teleported
	// the armies of each attempt the rules allow; -1 when none is made
	killer, kill, captor, capture := -1, -1, -1, -1
	if k := r.Kill; k != nil {
		by, target, err := lg.attempt(m, &f, k, "kill")
		if err != nil {
			return err
		}
		if lacks >= 0 {
			st.note("%s cannot go for a kill: it had %d troops alive in its top slot (its largest creatures) and needs 500, so no kill was attempted on %s and nothing was risked (4.3.2, 4.5)", m.Armies[by].Name, lacks, m.Armies[target].Name)
			st.Kill = nil
		} else {
			st.Kill = st.hellbent(st.possible(k, &m.Armies[by], "kill"), &m.Armies[by])
			killer, kill = by, target
		}
	}
	if c := r.Capture; c != nil {
		by, target, err := lg.attempt(m, &f, c, "capture")
		if err != nil {
			return err
		}
		if t := &m.Armies[target]; !t.Rank.Lowest() {
			st.note("%s cannot capture %s, a %s army: only Lieutenant/Centurion and Lt Commander/CPL armies can be captured, so no capture was attempted and nothing was risked (4.5)", m.Armies[by].Name, t.Name, t.Rank.Name(t.Side))
			st.Capture = nil
		} else {
			st.Capture = st.possible(c, &m.Armies[by], "capture")
			captor, capture = by, target
		}
	}
	if lg.Settled == nil {
		lg.Settled = make([]Settled, 0, lg.fights)
	}
	lg.Settled = append(lg.Settled, st)
	if k := st.Kill; kill >= 0 {
		lg.risk(&m.Armies[killer], k.RiskedLost, true)
		if k.Success {
			name := m.Armies[kill].Name
			lg.Removed = append(lg.Removed, name)
			gone = append(gone, name)
			lg.sq.move(m, kill, domain.Square{}) // off the map at once: it no longer holds its square
		}
	}
	if c := st.Capture; capture >= 0 {
		lg.risk(&m.Armies[captor], c.RiskedLost, false)
		if c.Success {
			name := m.Armies[capture].Name
			gone = append(gone, name)
			if !lg.capture(m, captor, capture, d) {
				stays = name
			}
		}
	}
	// a winning pair: one leaves first (4.4, B10)
	if len(st.Winners) == 2 {
		if err := lg.leave(m, &b, &st, r.Leaves, r.LoserTo, d); err != nil {
			return err
		}
	} else if r.Leaves != nil {
		return domain.Errorf(domain.ErrInvalid, "at %s only a winning side of two armies sends one away (4.4)", b.Square)
	}
	first := true
	lostAt := ""
	for k, n := range st.Losers {
		if slices.Contains(gone, n) {
			continue
		}
		i := int(losers[k])
		a := &m.Armies[i]
		if a.Capture != nil && !a.Capture.Converted {
			lg.liberate(a)
		}
		if lostAt == "" {
			lostAt = withSquare("lost the battle at ", b.Square)
		}
		to, reason := domain.Square{}, lostAt
		if first && !r.LoserTo.IsZero() {
			if !m.Grid.Contains(r.LoserTo) || !domain.Adjacent(r.LoserTo, b.Square) {
				return domain.Errorf(domain.ErrInvalid, "the loser at %s cannot be pushed to %s: it is not next to the battle (B8)", b.Square, r.LoserTo)
			}
			// the judge chose the square before the moves; if a friend or a battle is there now,
			// the push is random after all (B8)
			if lg.occupant(m, r.LoserTo, i) <= 1 {
				to = r.LoserTo
			} else {
				reason += "; " + r.LoserTo.String() + " was taken after the moves, so the push is random"
			}
		}
		first = false
		lg.pushAvoiding(m, i, to, domain.Square{}, d, reason)
	}
	if stays != "" && len(st.Winners) > 0 {
		for _, i := range winners {
			if i := int(i); m.Armies[i].At == b.Square {
				lg.pushAvoiding(m, i, domain.Square{}, domain.Square{}, d, "bumped out: the army it captured stays at "+b.Square.String())
			}
		}
	}
	lg.deliver(m, &f)
	return nil
}

// overNotes are the notes of the losses larger than the troops alive, in order of army and
// creature: the army lost those it had (R37).
func (lg *Ledger) overNotes() []string {
	if len(lg.over) == 0 {
		return nil
	}
	slices.SortFunc(lg.over, func(x, y overLoss) int {
		return cmp.Or(strings.Compare(x.army, y.army), strings.Compare(x.creature, y.creature))
	})
	notes := make([]string, len(lg.over))
	for i, o := range lg.over {
		notes[i] = fmt.Sprintf("%s lost %d %s but had only %d alive, so it loses those %d (B7, R37)", o.army, o.asked, o.creature, o.alive, o.alive)
	}
	return notes
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

// wounds takes the result's losses from the armies of the battle (B7). They are taken in any
// order, which comes to the same; when one does not fit, the error is the one taking them in
// order of army and creature meets first.
func (lg *Ledger) wounds(m *domain.Map, f *fight, losses map[string]map[string]int) error {
	for name, l := range losses {
		i := f.in(m, name)
		if i < 0 || !lg.wound(&m.Armies[i], l) {
			return lg.woundError(m, f, losses)
		}
	}
	return nil
}

// wound takes losses from an army's troops; it reports false, having taken none, when one of
// them does not fit.
func (lg *Ledger) wound(a *domain.Army, losses map[string]int) bool {
	if len(losses) == 0 {
		return true
	}
	if a.Troops == nil {
		return false
	}
	a.OwnTroops()
	type loss struct {
		t *domain.Troop
		n int
	}
	var buf [8]loss
	ls := buf[:0]
	for c, n := range losses {
		t := troop(a, c)
		if t == nil || n < 0 {
			return false
		}
		ls = append(ls, loss{t, n})
	}
	var l map[string]int
	for _, x := range ls {
		if x.n > x.t.Alive {
			lg.over = append(lg.over, overLoss{a.Name, x.t.Creature, x.n, x.t.Alive})
		}
		n := min(x.n, x.t.Alive)
		if n == 0 {
			continue
		}
		if l == nil {
			l = lg.losses(a)
		}
		x.t.Alive -= n
		l[x.t.Creature] += n
	}
	return true
}

// woundError is the error of the first loss, in order of army and creature, that does not fit
// its battle.
func (lg *Ledger) woundError(m *domain.Map, f *fight, losses map[string]map[string]int) error {
	var buf [8]string
	for _, name := range sortedKeys(losses, buf[:]) {
		i := f.in(m, name)
		if i < 0 {
			return domain.Errorf(domain.ErrInvalid, "the result at %s gives losses for %s, which is not in that battle", f.b.Square, name)
		}
		a, l := &m.Armies[i], losses[name]
		if len(l) == 0 {
			continue
		}
		if a.Troops == nil {
			return domain.Errorf(domain.ErrInvalid, "%s has no troop list, so its losses at %s cannot be applied", a.Name, f.b.Square)
		}
		var cbuf [8]string
		for _, c := range sortedKeys(l, cbuf[:]) {
			if troop(a, c) == nil {
				return domain.Errorf(domain.ErrInvalid, "%s has no %s to lose at %s", a.Name, c, f.b.Square)
			}
			if l[c] < 0 {
				return domain.Errorf(domain.ErrInvalid, "%s cannot lose a negative number of %s", a.Name, c)
			}
		}
	}
	panic("battle: woundError found no error")
}

// troop is a.Troop(creature), trying the exact name before folding case.
func troop(a *domain.Army, creature string) *domain.Troop {
	for i := range a.Troops {
		if c := a.Troops[i].Creature; c == creature || strings.EqualFold(c, creature) {
			return &a.Troops[i]
		}
	}
	return nil
}

// losses is the army's entry in Losses, made when it has none.
func (lg *Ledger) losses(a *domain.Army) map[string]int {
	l := lg.Losses[a.Name]
	if l == nil {
		l = map[string]int{}
		lg.Losses[a.Name] = l
	}
	return l
}

func (lg *Ledger) lose(a *domain.Army, t *domain.Troop, n int) {
	n = min(n, t.Alive)
	if n == 0 {
		return
	}
	t.Alive -= n
	lg.losses(a)[t.Creature] += n
}

// risk takes the troops killed among those risked: 500 of the top slot for a kill, 2000 of the
// lowest for a capture (4.3.2, 4.5, B9).
func (lg *Ledger) risk(a *domain.Army, n int, top bool) {
	if n <= 0 || a.Troops == nil {
		return
	}
	a.OwnTroops()
	slot := 0
	for _, t := range a.Troops {
		if t.Alive > 0 && (slot == 0 || (top && t.Slot > slot) || (!top && t.Slot < slot)) {
			slot = t.Slot
		}
	}
	for i := range a.Troops {
		if n == 0 {
			return
		}
		t := &a.Troops[i]
		if t.Slot == slot && t.Alive > 0 {
			k := min(n, t.Alive)
			lg.lose(a, t, k)
			n -= k
		}
	}
}

// attempt finds the armies of a kill or capture, which must be enemies fighting in the battle.
func (lg *Ledger) attempt(m *domain.Map, f *fight, at *domain.Attempt, what string) (by, target int, err error) {
	by, target = f.in(m, at.By), f.in(m, at.Target)
	switch {
	case by < 0:
		return -1, -1, domain.Errorf(domain.ErrInvalid, "the %s at %s is made by %s, which is not in that battle", what, f.b.Square, at.By)
	case target < 0:
		return -1, -1, domain.Errorf(domain.ErrInvalid, "the %s at %s targets %s, which is not in that battle", what, f.b.Square, at.Target)
	case !domain.Enemy(m.Armies[by].Side, m.Armies[target].Side):
		return -1, -1, domain.Errorf(domain.ErrInvalid, "%s cannot %s %s: they are on the same side", m.Armies[by].Name, what, m.Armies[target].Name)
	}
	return by, target, nil
}

// possible is the attempt as the rules let it be: one by the side that lost fails, however
// the judge wrote it (4.3.3), and the risked troops are lost all the same.
func (st *Settled) possible(at *domain.Attempt, by *domain.Army, what string) *domain.Attempt {
	if !at.Success || slices.Contains(st.Winners, by.Name) {
		return at
	}
	st.note("%s's %s on %s cannot succeed: %s did not win the battle, so the %s failed (4.3.3)", by.Name, what, at.Target, by.Name, what)
	failed := *at
	failed.Success = false
	return &failed
}

// Hellbent reports whether a's failed kill attempts cost it nothing: a raider keeps its kill
// squad (6.3.2).
func Hellbent(a *domain.Army) bool { return a.Side == domain.Mercenary && a.Faction == domain.Raider }

// hellbent keeps a raider's kill squad after a failed kill, whatever risked losses the result
// names (6.3.2, R38).
func (st *Settled) hellbent(k *domain.Attempt, by *domain.Army) *domain.Attempt {
	if k.Success || k.RiskedLost == 0 || !Hellbent(by) {
		return k
	}
	st.note("%s is a raider: Hellbent, it keeps its kill squad after a failed kill, so the %d risked troops the result names are not lost (6.3.2)", by.Name, k.RiskedLost)
	kept := *k
	kept.RiskedLost = 0
	return &kept
}

func (st *Settled) note(format string, args ...any) {
	st.Notes = append(st.Notes, fmt.Sprintf(format, args...))
}

// capture hands army ti to the side of army bi and teleports it to the nearest free base or
// portal of that side, else the nearest free town (4.5, B9). It reports false when the army
// has nowhere to go and stays.
func (lg *Ledger) capture(m *domain.Map, bi, ti int, d *domain.Draws) bool {
	by, t := &m.Armies[bi], &m.Armies[ti]
	switch {
	case t.Capture == nil:
		t.Capture = &domain.Capture{Side: t.Side, Colors: t.Colors, Controllers: t.Controllers}
		if by.Side == domain.Coalition && len(by.Colors) > 0 {
			t.Colors = []domain.Color{by.Colors[0]}
		}
	case t.Capture.Side == by.Side:
		t.Colors, t.Controllers = t.Capture.Colors, t.Capture.Controllers
		t.Capture = nil
	default:
		t.Capture.Converted = false
	}
	t.Side = by.Side
	if t.Capture != nil {
		t.Controllers = nil
	}
	t.Plan = nil
	// its 2 days of conversion are counted from its capture, wherever it ends up (4.5)
	t.Days, t.WinDays = 0, 0
	lg.ChangedSides[t.Name] = t.Side
	kind := domain.Base
	if by.Side == domain.Phyrexia {
		kind = domain.Portal
	}
	for _, want := range []domain.SiteKind{kind, domain.Town} {
		var best []domain.Square
		dist := 1 << 30
		for _, s := range m.Sites {
			if s.Kind != want || s.Destroyed || (want != domain.Town && s.Side != by.Side) || lg.occupied(s.At) {
				continue
			}
			switch dd := domain.Steps(s.At, t.At); {
			case dd < dist:
				dist, best = dd, []domain.Square{s.At}
			case dd == dist:
				best = append(best, s.At)
			}
		}
		if len(best) > 0 {
			slices.SortFunc(best, cmpSquare)
			to := best[d.Intn("capture:"+t.Name, len(best))]
			lg.Pushes = append(lg.Pushes, Push{Army: t.Name, From: t.At, To: to, Reason: "captured by " + by.Name})
			lg.sq.move(m, ti, to)
			t.Days = 0
			lg.Displaced[t.Name] = true
			return true
		}
	}
	return false
}

// liberate returns a partially converted army that lost a battle to its old side (4.5).
func (lg *Ledger) liberate(a *domain.Army) {
	c := a.Capture
	a.Side, a.Colors, a.Controllers = c.Side, c.Colors, c.Controllers
	a.Capture = nil
	lg.ChangedSides[a.Name] = a.Side
}

func (lg *Ledger) occupied(s domain.Square) bool { return lg.sq.held(s) }

// leave sends one army of a winning pair out of the square before the losers are pushed
// (4.4, B10): the one the strategy names, to its square if free, else at random.
func (lg *Ledger) leave(m *domain.Map, b *domain.Battle, st *Settled, lv *domain.Leave, loserTo domain.Square, d *domain.Draws) error {
	var a *domain.Army
	to := domain.Square{}
	if lv != nil {
		if !slices.ContainsFunc(st.Winners, func(n string) bool { return domain.SameName(n, lv.Army) }) {
			return domain.Errorf(domain.ErrInvalid, "%s cannot leave %s as a winner: it is not on the winning side", lv.Army, b.Square)
		}
		a = m.Army(lv.Army)
		if !lv.To.IsZero() {
			if !m.Grid.Contains(lv.To) || !domain.Adjacent(lv.To, b.Square) {
				return domain.Errorf(domain.ErrInvalid, "%s cannot leave %s for %s: it is not next to the battle (4.4)", a.Name, b.Square, lv.To)
			}
			if !lg.occupied(lv.To) {
				to = lv.To
			}
		}
	} else {
		var buf [2]string
		names := append(buf[:0], st.Winners...)
		slices.Sort(names)
		a = m.Army(names[d.Intn("leave:"+b.Square.String(), len(names))])
	}
	if a.At != b.Square {
		return nil
	}
	// a random retreat keeps off the square the judge named for the loser: only a chosen
	// retreat overwrites the loser's (4.4)
	lg.pushAvoiding(m, indexOf(m, a), to, loserTo, d, "won at "+b.Square.String()+" and leaves the square to its partner")
	return nil
}

// pushAvoiding moves army i off its square after the moves (B8): to the given square, else to
// a random empty neighbour, keeping off square avoid while another empty neighbour remains; if
// none is empty, into a random neighbour held only by enemies (a push battle next turn); if
// every neighbour holds a friend, to a random empty square of the nearest ring that has one.
func (lg *Ledger) pushAvoiding(m *domain.Map, i int, to, avoid domain.Square, d *domain.Draws, reason string) {
	a := &m.Armies[i]
	from := a.At
	if to.IsZero() {
		var around, emptyBuf, enemyBuf [8]domain.Square
		empty, enemy := emptyBuf[:0], enemyBuf[:0]
		for _, n := range m.Grid.Neighbours(around[:0], from) {
			switch lg.occupant(m, n, i) {
			case 0:
				empty = append(empty, n)
			case 1:
				enemy = append(enemy, n)
			}
		}
		if len(empty) > 1 {
			k := 0
			for _, s := range empty {
				if s != avoid {
					empty[k] = s
					k++
				}
			}
			empty = empty[:k]
		}
		label := "push:" + a.Name
		switch {
		case len(empty) > 0:
			to = empty[d.Intn(label, len(empty))]
		case len(enemy) > 0:
			to = enemy[d.Intn(label, len(enemy))]
		default:
			var ring []domain.Square
			for r := 2; to.IsZero() && r < max(m.Grid.Cols, m.Grid.Rows); r++ {
				empty = empty[:0]
				ring = m.Grid.RingSquares(ring[:0], from, r)
				for _, n := range ring {
					if lg.occupant(m, n, i) == 0 {
						empty = append(empty, n)
					}
				}
				if len(empty) > 0 {
					to = empty[d.Intn(label, len(empty))]
				}
			}
			if to.IsZero() {
				return
			}
		}
	}
	lg.sq.move(m, i, to)
	a.Plan = nil
	lg.Displaced[a.Name] = true
	if lg.Pushes == nil {
		lg.Pushes = make([]Push, 0, lg.fights)
	}
	lg.Pushes = append(lg.Pushes, Push{Army: a.Name, From: from, To: to, Reason: reason})
	if lg.sq.after(lg.sq.first(to)) < 0 {
		return // alone on its new square
	}
	var names []string
	for j := lg.sq.first(to); j >= 0; j = lg.sq.after(j) {
		names = append(names, m.Armies[j].Name)
	}
	if !mixedNames(m, names) {
		return
	}
	slices.Sort(names)
	// an empty army pushed into an enemy is destroyed, with no battle (B9), and so is an
	// empty enemy it is pushed into: being pushed into, it is engaged
	var empty []int
	for j := lg.sq.first(to); j >= 0; j = lg.sq.after(j) {
		if o := &m.Armies[j]; j != i && domain.Enemy(o.Side, a.Side) && o.Empty() {
			empty = append(empty, j)
		}
	}
	if a.Empty() {
		empty = append(empty, i)
	}
	for _, j := range empty {
		lg.Removed = append(lg.Removed, m.Armies[j].Name)
		lg.sq.move(m, j, domain.Square{})
	}
	if a.Empty() {
		return
	}
	names = names[:0]
	for j := lg.sq.first(to); j >= 0; j = lg.sq.after(j) {
		names = append(names, m.Armies[j].Name)
	}
	if len(names) < 2 || !mixedNames(m, names) {
		return
	}
	slices.Sort(names)
	for k := range lg.Battles {
		if lg.Battles[k].Square == to {
			lg.Battles[k].Armies = names
			return
		}
	}
	lg.Battles = append(lg.Battles, domain.Battle{Square: to, Armies: names, Kind: domain.Push})
}

func mixedNames(m *domain.Map, names []string) bool {
	first := m.Army(names[0]).Side
	for _, n := range names[1:] {
		if domain.Enemy(first, m.Army(n).Side) {
			return true
		}
	}
	return false
}

// occupant classifies square s for army i: 0 empty, 1 held by one enemy army, 2 anything
// else (a friend, or a battle already there).
func (lg *Ledger) occupant(m *domain.Map, s domain.Square, i int) int {
	n := 0
	side := m.Armies[i].Side
	for j := lg.sq.first(s); j >= 0; j = lg.sq.after(j) {
		switch {
		case j == i:
		case !domain.Enemy(m.Armies[j].Side, side):
			n = 2
		default:
			n++
		}
	}
	return min(n, 2)
}

// deliver hands over the troops waiting for a battle to end (T3): a receiver that was already
// in battle gets them only if it won, else they die; one attacked while waiting gets them
// whatever the outcome.
func (lg *Ledger) deliver(m *domain.Map, f *fight) {
	for k, n := range f.b.Armies {
		a := armyAt(m, int(f.ids[k]))
		if a == nil || len(a.Incoming) == 0 {
			continue
		}
		for _, s := range a.Incoming {
			if s.WinOnly && !lg.Won[n] {
				continue
			}
			Receive(a, s)
		}
		a.Incoming = nil
	}
}

// Receive adds a shipment's troops to an army (2.3.3, T2): a creature it has joins its slot;
// a new one the smallest slot that fits its size and has room. The receiver's full count rises
// with its alive count, never past its slot's size (2.1).
func Receive(a *domain.Army, s domain.Shipment) {
	if a.Troops == nil {
		return
	}
	var buf [8]count
	cs := buf[:0]
	for c, n := range s.Creatures {
		cs = append(cs, count{c, n})
	}
	receive(a, sortCounts(cs), s.Troops)
}

// count is a number of troops of a creature.
type count struct {
	creature string
	n        int
}

// sortCounts sorts counts of distinct creatures by creature.
func sortCounts(cs []count) []count {
	slices.SortFunc(cs, func(x, y count) int { return strings.Compare(x.creature, y.creature) })
	return cs
}

// receive is Receive of the shipment's counts, in order of creature, with the troops that
// describe its creatures.
func receive(a *domain.Army, cs []count, protos []domain.Troop) {
	if a.Troops == nil {
		return
	}
	a.OwnTroops()
	// room for the creatures new to the army, made once
	k := 0
	for _, x := range cs {
		if x.n > 0 && troop(a, x.creature) == nil {
			k++
		}
	}
	if k > cap(a.Troops)-len(a.Troops) {
		ts := make([]domain.Troop, len(a.Troops), len(a.Troops)+k)
		copy(ts, a.Troops)
		a.Troops = ts
	}
	for _, x := range cs {
		c, n := x.creature, x.n
		if n <= 0 {
			continue
		}
		t := troop(a, c)
		if t == nil {
			var proto domain.Troop
			for i := len(protos) - 1; i >= 0; i-- { // the last that matches
				if domain.SameName(protos[i].Creature, c) {
					proto = protos[i]
					break
				}
			}
			slot := a.SlotFor(proto.Size, n, a.Load())
			if slot == 0 {
				continue
			}
			a.Troops = append(a.Troops, domain.Troop{Creature: proto.Creature, Size: proto.Size, Colors: proto.Colors, Slot: slot})
			t = &a.Troops[len(a.Troops)-1]
		}
		t.Alive += n
		room := domain.SlotCapacity(t.Slot)
		for _, x := range a.Troops {
			if x.Slot == t.Slot && x.Creature != t.Creature {
				room -= x.Full
			}
		}
		t.Full = max(t.Alive, min(t.Full+n, room))
	}
}

// String describes a settled battle for the lock report.
func (s Settled) String() string {
	return fmt.Sprintf("%s won at %s", joinNames(s.Winners), s.Battle.Square)
}
