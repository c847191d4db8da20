// Package battle is the battle judge's rule engine: it settles the battles fought in a turn
// from the judge's results (B2, B8–B10, 4.3–4.5), carries out transfers (T3), counts days,
// heals (D1–D5), destroys bases (D7) and decides the round (D8). It also rolls verifiable dice
// (B5, B6) and evaluates the server's secret formulas (B3, B7). It imports only domain and
// the standard library.
package battle

import (
	"fmt"
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// Fought lists the battles fought this turn: every square where armies of different sides
// stand when the turn opens, with the kind and attacker the lock that made it gave (B1), in
// order of square.
func Fought(m *domain.Map) []domain.Battle {
	// armies by square: head[square] is the first army's index + 1, next[army] the next one's,
	// in map order; shared lists the squares that hold two armies or more
	g := m.Grid
	head, next := make([]int32, g.Size()), make([]int32, len(m.Armies))
	var shared []domain.Square
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
	var out []domain.Battle
	var buf [8]int32
	ids := buf[:0]
	for _, s := range shared {
		ids = ids[:0]
		for j := head[g.Index(s)]; j > 0; j = next[j-1] {
			ids = append(ids, j-1)
		}
		if b, ok := battleOf(m, ids); ok {
			out = append(out, b)
		}
	}
	return out
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
	s := first.At
	b := domain.Battle{Square: s, Kind: domain.Meeting, Armies: make([]string, 0, len(ids))}
	if prev := m.BattleAt(s); prev != nil {
		b.Kind, b.Attacker = prev.Kind, prev.Attacker
	}
	for _, k := range ids {
		b.Armies = append(b.Armies, m.Armies[k].Name)
	}
	slices.Sort(b.Armies)
	if b.Attacker != "" && !slices.Contains(b.Armies, b.Attacker) {
		b.Attacker = ""
	}
	return b, true
}

func cmpSquare(a, b domain.Square) int {
	if a.Col != b.Col {
		return int(a.Col) - int(b.Col)
	}
	return int(a.Row) - int(b.Row)
}

func mixed(m *domain.Map, ids []int) bool {
	for _, i := range ids[1:] {
		if domain.Enemy(m.Armies[i].Side, m.Armies[ids[0]].Side) {
			return true
		}
	}
	return false
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
	sq     *squares
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

// squares lists the armies on each square while battles are settled: head[square] is the
// first army's index + 1, next[army] the next one's; armies keep their indexes until the end
// of Settle.
type squares struct {
	g          domain.Grid
	head, next []int32
}

func newSquares(m *domain.Map) *squares {
	q := &squares{g: m.Grid, head: make([]int32, m.Grid.Size()), next: make([]int32, len(m.Armies))}
	for i := len(m.Armies) - 1; i >= 0; i-- {
		if s := m.Armies[i].At; m.Grid.Contains(s) {
			k := q.g.Index(s)
			q.next[i], q.head[k] = q.head[k], int32(i+1)
		}
	}
	return q
}

// each calls f with the index of every army on square s.
func (q *squares) each(s domain.Square, f func(int)) {
	if !q.g.Contains(s) {
		return
	}
	for j := q.head[q.g.Index(s)]; j > 0; j = q.next[j-1] {
		f(int(j - 1))
	}
}

// held reports whether any army stands on square s.
func (q *squares) held(s domain.Square) bool { return q.g.Contains(s) && q.head[q.g.Index(s)] > 0 }

// move puts army a on square to (the zero square: off the map), keeping the lists right.
func (q *squares) move(m *domain.Map, a *domain.Army, to domain.Square) {
	i := int32(-1)
	for k := range m.Armies {
		if &m.Armies[k] == a {
			i = int32(k)
			break
		}
	}
	if from := a.At; q.g.Contains(from) {
		k := q.g.Index(from)
		if q.head[k] == i+1 {
			q.head[k] = q.next[i]
		} else {
			for j := q.head[k]; j > 0; j = q.next[j-1] {
				if q.next[j-1] == i+1 {
					q.next[j-1] = q.next[i]
					break
				}
			}
		}
	}
	a.At = to
	q.next[i] = 0
	if q.g.Contains(to) {
		k := q.g.Index(to)
		q.next[i], q.head[k] = q.head[k], i+1
	}
}

func newLedger() *Ledger {
	return &Ledger{ChangedSides: map[string]domain.Side{}, Displaced: map[string]bool{}, Won: map[string]bool{}, Lost: map[string]bool{}, Losses: map[string]map[string]int{}}
}

// Settle applies the judge's results to the battles fought this turn, on the map as the moves
// left it (B8): losses, kills, captures, the winner that must leave a 2-army side, losers
// pushed, and troops waiting for the battle's end (T3). A battle without a result, or a result
// that does not fit its battle, is an error naming it.
func Settle(m *domain.Map, fought []domain.Battle, results []domain.BattleResult, d *domain.Draws) (*Ledger, error) {
	lg := newLedger()
	lg.sq = newSquares(m)
	used := make([]bool, len(results))
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

func (lg *Ledger) settle(m *domain.Map, b domain.Battle, r *domain.BattleResult, d *domain.Draws) error {
	in := func(name string) *domain.Army {
		if !slices.ContainsFunc(b.Armies, func(n string) bool { return domain.SameName(n, name) }) {
			return nil
		}
		return m.Army(name)
	}
	// a kill needs 500 alive in the top slot before the battle: the risked troops do not fight
	// (4.3.2, 4.3.3, B9)
	lacks := -1
	if k := r.Kill; k != nil {
		if by := in(k.By); by != nil && by.Troops != nil {
			if _, n := by.TopSlot(); n < 500 {
				lacks = n
			}
		}
	}
	// losses (B7)
	var buf [8]string
	for _, name := range sortedKeys(r.Losses, buf[:]) {
		a := in(name)
		if a == nil {
			return domain.Errorf(domain.ErrInvalid, "the result at %s gives losses for %s, which is not in that battle", b.Square, name)
		}
		if err := lg.wound(a, r.Losses[name], b.Square); err != nil {
			return err
		}
	}
	if r.Winner == "" {
		if r.Kill != nil || r.Capture != nil || r.Leaves != nil || !r.LoserTo.IsZero() {
			return domain.Errorf(domain.ErrInvalid, "the battle at %s has no winner, so nobody can kill, capture, leave or be pushed", b.Square)
		}
		lg.Battles = append(lg.Battles, b)
		return nil
	}
	w := in(r.Winner)
	if w == nil {
		return domain.Errorf(domain.ErrInvalid, "the winner at %s, %s, is not in that battle", b.Square, r.Winner)
	}
	st := Settled{Battle: b, Winner: w.Side, Kill: r.Kill, Capture: r.Capture}
	for _, n := range b.Armies {
		if m.Army(n).Side == w.Side {
			st.Winners = append(st.Winners, n)
			lg.Won[n] = true
		} else {
			st.Losers = append(st.Losers, n)
			lg.Lost[n] = true
		}
	}
	gone := map[string]bool{}
	stays := "" // a captured army that could not be teleported
	// the armies of each attempt the rules allow; nil when none is made
	var killer, kill, captor, capture *domain.Army
	if k := r.Kill; k != nil {
		by, target, err := lg.attempt(b, k, "kill", in)
		if err != nil {
			return err
		}
		if lacks >= 0 {
			st.note("%s cannot go for a kill: it had %d troops alive in its top slot (its largest creatures) and needs 500, so no kill was attempted on %s and nothing was risked (4.3.2, 4.5)", by.Name, lacks, target.Name)
			st.Kill = nil
		} else {
			st.Kill = st.possible(k, by, "kill")
			killer, kill = by, target
		}
	}
	if c := r.Capture; c != nil {
		by, target, err := lg.attempt(b, c, "capture", in)
		if err != nil {
			return err
		}
		if !target.Rank.Lowest() {
			st.note("%s cannot capture %s, a %s army: only Lieutenant/Centurion and Lt Commander/CPL armies can be captured, so no capture was attempted and nothing was risked (4.5)", by.Name, target.Name, target.Rank.Name(target.Side))
			st.Capture = nil
		} else {
			st.Capture = st.possible(c, by, "capture")
			captor, capture = by, target
		}
	}
	lg.Settled = append(lg.Settled, st)
	if k := st.Kill; kill != nil {
		lg.risk(killer, k.RiskedLost, true)
		if k.Success {
			lg.Removed = append(lg.Removed, kill.Name)
			gone[kill.Name] = true
			lg.sq.move(m, kill, domain.Square{}) // off the map at once: it no longer holds its square
		}
	}
	if c := st.Capture; capture != nil {
		by, target := captor, capture
		lg.risk(by, c.RiskedLost, false)
		if c.Success {
			gone[target.Name] = true
			if !lg.capture(m, by, target, d) {
				stays = target.Name
			}
		}
	}
	// a winning pair: one leaves first (4.4, B10)
	if len(st.Winners) == 2 {
		if err := lg.leave(m, b, st, r.Leaves, r.LoserTo, d); err != nil {
			return err
		}
	} else if r.Leaves != nil {
		return domain.Errorf(domain.ErrInvalid, "at %s only a winning side of two armies sends one away (4.4)", b.Square)
	}
	first := true
	for _, n := range st.Losers {
		if gone[n] {
			continue
		}
		a := m.Army(n)
		if a.Capture != nil && !a.Capture.Converted {
			lg.liberate(a)
		}
		to, reason := domain.Square{}, "lost the battle at "+b.Square.String()
		if first && !r.LoserTo.IsZero() {
			if !m.Grid.Contains(r.LoserTo) || !domain.Adjacent(r.LoserTo, b.Square) {
				return domain.Errorf(domain.ErrInvalid, "the loser at %s cannot be pushed to %s: it is not next to the battle (B8)", b.Square, r.LoserTo)
			}
			// the judge chose the square before the moves; if a friend or a battle is there now,
			// the push is random after all (B8)
			if lg.occupant(m, r.LoserTo, a) <= 1 {
				to = r.LoserTo
			} else {
				reason += "; " + r.LoserTo.String() + " was taken after the moves, so the push is random"
			}
		}
		first = false
		lg.push(m, a, to, d, reason)
	}
	if stays != "" && len(st.Winners) > 0 {
		for _, n := range st.Winners {
			if a := m.Army(n); a != nil && a.At == b.Square {
				lg.push(m, a, domain.Square{}, d, "bumped out: the army it captured stays at "+b.Square.String())
			}
		}
	}
	lg.deliver(m, b.Armies, true)
	return nil
}

// wound takes losses from an army's troops.
func (lg *Ledger) wound(a *domain.Army, losses map[string]int, sq domain.Square) error {
	if len(losses) == 0 {
		return nil
	}
	if a.Troops == nil {
		return domain.Errorf(domain.ErrInvalid, "%s has no troop list, so its losses at %s cannot be applied", a.Name, sq)
	}
	a.OwnTroops()
	var buf [8]string
	for _, c := range sortedKeys(losses, buf[:]) {
		n := losses[c]
		t := a.Troop(c)
		if t == nil {
			return domain.Errorf(domain.ErrInvalid, "%s has no %s to lose at %s", a.Name, c, sq)
		}
		if n < 0 {
			return domain.Errorf(domain.ErrInvalid, "%s cannot lose a negative number of %s", a.Name, c)
		}
		lg.lose(a, t, n)
	}
	return nil
}

func (lg *Ledger) lose(a *domain.Army, t *domain.Troop, n int) {
	n = min(n, t.Alive)
	if n == 0 {
		return
	}
	t.Alive -= n
	if lg.Losses[a.Name] == nil {
		lg.Losses[a.Name] = map[string]int{}
	}
	lg.Losses[a.Name][t.Creature] += n
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
func (lg *Ledger) attempt(b domain.Battle, at *domain.Attempt, what string, in func(string) *domain.Army) (*domain.Army, *domain.Army, error) {
	by, target := in(at.By), in(at.Target)
	switch {
	case by == nil:
		return nil, nil, domain.Errorf(domain.ErrInvalid, "the %s at %s is made by %s, which is not in that battle", what, b.Square, at.By)
	case target == nil:
		return nil, nil, domain.Errorf(domain.ErrInvalid, "the %s at %s targets %s, which is not in that battle", what, b.Square, at.Target)
	case !domain.Enemy(by.Side, target.Side):
		return nil, nil, domain.Errorf(domain.ErrInvalid, "%s cannot %s %s: they are on the same side", by.Name, what, target.Name)
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

func (st *Settled) note(format string, args ...any) {
	st.Notes = append(st.Notes, fmt.Sprintf(format, args...))
}

// capture hands the target to the captor's side and teleports it to the nearest free base or
// portal of that side, else the nearest free town (4.5, B9). It reports false when the army
// has nowhere to go and stays.
func (lg *Ledger) capture(m *domain.Map, by, t *domain.Army, d *domain.Draws) bool {
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
			lg.sq.move(m, t, to)
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
func (lg *Ledger) leave(m *domain.Map, b domain.Battle, st Settled, lv *domain.Leave, loserTo domain.Square, d *domain.Draws) error {
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
		names := slices.Clone(st.Winners)
		slices.Sort(names)
		a = m.Army(names[d.Intn("leave:"+b.Square.String(), len(names))])
	}
	if a.At != b.Square {
		return nil
	}
	// a random retreat keeps off the square the judge named for the loser: only a chosen
	// retreat overwrites the loser's (4.4)
	lg.pushAvoiding(m, a, to, loserTo, d, "won at "+b.Square.String()+" and leaves the square to its partner")
	return nil
}

// push moves an army off its square after the moves (B8): to the given square, else to a
// random empty neighbour; if none is empty, into a random neighbour held only by enemies (a
// push battle next turn); if every neighbour holds a friend, to a random empty square of the
// nearest ring that has one.
func (lg *Ledger) push(m *domain.Map, a *domain.Army, to domain.Square, d *domain.Draws, reason string) {
	lg.pushAvoiding(m, a, to, domain.Square{}, d, reason)
}

// pushAvoiding pushes as push does, keeping off square avoid while another empty neighbour
// remains.
func (lg *Ledger) pushAvoiding(m *domain.Map, a *domain.Army, to, avoid domain.Square, d *domain.Draws, reason string) {
	from := a.At
	label := "push:" + a.Name
	if to.IsZero() {
		var empty, enemy []domain.Square
		for _, n := range m.Grid.Neighbours(nil, from) {
			switch lg.occupant(m, n, a) {
			case 0:
				empty = append(empty, n)
			case 1:
				enemy = append(enemy, n)
			}
		}
		if len(empty) > 1 {
			empty = slices.DeleteFunc(empty, func(s domain.Square) bool { return s == avoid })
		}
		switch {
		case len(empty) > 0:
			to = empty[d.Intn(label, len(empty))]
		case len(enemy) > 0:
			to = enemy[d.Intn(label, len(enemy))]
		default:
			for r := 2; to.IsZero() && r < max(m.Grid.Cols, m.Grid.Rows); r++ {
				empty = empty[:0]
				for _, n := range m.Grid.RingSquares(nil, from, r) {
					if lg.occupant(m, n, a) == 0 {
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
	lg.sq.move(m, a, to)
	a.Plan = nil
	lg.Displaced[a.Name] = true
	lg.Pushes = append(lg.Pushes, Push{Army: a.Name, From: from, To: to, Reason: reason})
	var names []string
	lg.sq.each(to, func(i int) { names = append(names, m.Armies[i].Name) })
	if len(names) > 1 && mixedNames(m, names) {
		slices.Sort(names)
		// an empty army pushed into an enemy is destroyed, with no battle (B9), and so is an
		// empty enemy it is pushed into: being pushed into, it is engaged
		var empty []*domain.Army
		lg.sq.each(to, func(i int) {
			if o := &m.Armies[i]; o != a && domain.Enemy(o.Side, a.Side) && o.Empty() {
				empty = append(empty, o)
			}
		})
		if a.Empty() {
			empty = append(empty, a)
		}
		for _, o := range empty {
			lg.Removed = append(lg.Removed, o.Name)
			lg.sq.move(m, o, domain.Square{})
		}
		if a.Empty() {
			return
		}
		names = names[:0]
		lg.sq.each(to, func(i int) { names = append(names, m.Armies[i].Name) })
		if len(names) < 2 || !mixedNames(m, names) {
			return
		}
		slices.Sort(names)
		for i := range lg.Battles {
			if lg.Battles[i].Square == to {
				lg.Battles[i].Armies = names
				return
			}
		}
		lg.Battles = append(lg.Battles, domain.Battle{Square: to, Armies: names, Kind: domain.Push})
	}
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

// occupant classifies square s for army a: 0 empty, 1 held by one enemy army, 2 anything
// else (a friend, or a battle already there).
func (lg *Ledger) occupant(m *domain.Map, s domain.Square, a *domain.Army) int {
	n := 0
	lg.sq.each(s, func(i int) {
		switch o := &m.Armies[i]; {
		case o == a:
		case !domain.Enemy(o.Side, a.Side):
			n = 2
		default:
			n++
		}
	})
	return min(n, 2)
}

// deliver hands over the troops waiting for a battle to end (T3): a receiver that was already
// in battle gets them only if it won, else they die; one attacked while waiting gets them
// whatever the outcome.
func (lg *Ledger) deliver(m *domain.Map, armies []string, settled bool) {
	if !settled {
		return
	}
	for _, n := range armies {
		a := m.Army(n)
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
	a.OwnTroops()
	var buf [8]string
	for _, c := range sortedKeys(s.Creatures, buf[:]) {
		n := s.Creatures[c]
		if n <= 0 {
			continue
		}
		t := a.Troop(c)
		if t == nil {
			var proto domain.Troop
			for _, p := range s.Troops {
				if domain.SameName(p.Creature, c) {
					proto = p
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
