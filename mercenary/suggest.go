package mercenary

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

// Suggestion is one order the guidelines propose for a mercenary army, as the judge would
// post it, and why.
type Suggestion struct {
	Army string `json:"army"`
	// Line is the order in the classic format: "Raider One: 14C > 12C; engage Sai Rei".
	Line   string       `json:"line"`
	Order  domain.Order `json:"order"`
	Reason string       `json:"reason"`
}

// Suggest proposes one order per mercenary army the judge may order, with the theme armies'
// wars and territories the map remembers (see Memory.Suggest).
func Suggest(m *domain.Map, seed domain.Seed) []Suggestion {
	return FromMap(m).Suggest(m, seed)
}

// Suggest proposes one order per mercenary army the mercenary judge may order (no controller,
// or the judge alone), in the map's order, following the AI guidelines:
//   - a town defender holds its town, retakes it when a team army holds it, comes back to it
//     when pushed away, and waits beside it when the odds there are overwhelming (twice its
//     strength); under 3500 soldiers and overwhelmed, it retreats towards the nearest other
//     town no team holds (6.1.1);
//   - a theme army attacks an army within 3 steps of the centre of its territory (the nearest
//     to it, then the weakest) and otherwise goes back to the centre or holds; the ocean army
//     attacks an army on ocean in reach at random, else holds on ocean (6.2.1);
//   - an At War theme army attacks an army in reach, its war enemy first, then the nearest,
//     then the weakest, never on or next to a base or portal, and otherwise advances towards
//     the nearest army of the team it is at war with (6.2.3);
//   - a raider engages the weakest army within 3 steps whose strength, with its escort (armies
//     of its side next to it), is below the raider's own, never on or next to a site; else it
//     moves, never next to a site, to the square in reach that the fewest stronger armies can
//     reach, then nearest a weaker army, then with the fewest armies around (6.3.1).
//
// Strength is Strength's estimate. No mercenary ends on a square another mercenary holds or is
// sent to, nor on a square where a battle is fought (M12). Ties among the best choices are
// broken by an Intn under "mercenary-suggest:<name key of the army>" over the tied squares in
// order of number, then letter. An army in a battle is told to fight.
func (mem *Memory) Suggest(m *domain.Map, seed domain.Seed) []Suggestion {
	s := &suggester{board: newBoard(m), mem: mem, d: seed.Draws(), claimed: make([]bool, m.Grid.Size())}
	var out []Suggestion
	for i := range m.Armies {
		a := &m.Armies[i]
		if a.Side != domain.Mercenary || !judgeOrders(a) {
			continue
		}
		sg := s.suggest(a)
		if sg.Order.Kind == domain.MoveKind {
			s.claimed[m.Grid.Index(sg.Order.Legs[0].To)] = true
		}
		out = append(out, sg)
	}
	return out
}

// judgeOrders reports whether the mercenary judge's orders count for a (M2, M15).
func judgeOrders(a *domain.Army) bool {
	return len(a.Controllers) == 0 || (len(a.Controllers) == 1 && domain.SameName(a.Controllers[0], Judge))
}

type suggester struct {
	*board
	mem     *Memory
	d       *domain.Draws
	claimed []bool
	reach   []domain.Square
}

// option is one possible order: a move to a square (engaging target when it is not nil), or
// a hold when to is the army's own square. Lower scores are better, compared in order.
type option struct {
	to     domain.Square
	target *domain.Army
	score  [4]int
}

func (o *option) better(p *option) bool {
	for i := range o.score {
		if o.score[i] != p.score[i] {
			return o.score[i] < p.score[i]
		}
	}
	return false
}

// pick is the best option, ties drawn for army a over the tied squares in order of number,
// then letter; ok is false when there is none.
func (s *suggester) pick(a *domain.Army, opts []option) (option, bool) {
	if len(opts) == 0 {
		return option{}, false
	}
	best := []int{0}
	for i := 1; i < len(opts); i++ {
		switch {
		case opts[i].better(&opts[best[0]]):
			best = append(best[:0], i)
		case !opts[best[0]].better(&opts[i]):
			best = append(best, i)
		}
	}
	slices.SortFunc(best, func(i, j int) int { return cmpSquare(opts[i].to, opts[j].to) })
	return opts[best[s.d.Intn("mercenary-suggest:"+domain.NameKey(a.Name), len(best))]], true
}

// within lists the squares of the grid 1–3 steps from s (a turn's move, 3.2.2.1).
func (s *suggester) within(from domain.Square) []domain.Square {
	s.reach = s.reach[:0]
	for dc := -3; dc <= 3; dc++ {
		r := 3 - max(dc, -dc)
		for dr := -r; dr <= r; dr++ {
			c, w := int(from.Col)+dc, int(from.Row)+dr
			if (dc == 0 && dr == 0) || c < 1 || w < 1 {
				continue
			}
			if sq := (domain.Square{Col: uint8(c), Row: uint8(w)}); s.g.Contains(sq) {
				s.reach = append(s.reach, sq)
			}
		}
	}
	return s.reach
}

// free reports whether a mercenary may move onto empty square sq: nobody stands there and no
// other mercenary is sent there.
func (s *suggester) free(sq domain.Square) bool {
	k := s.g.Index(sq)
	return len(s.occ[k]) == 0 && !s.claimed[k]
}

// prey is the army a mercenary of side merc may attack on sq, or nil: armies of one team stand
// there, with no battle (M12) and no other mercenary sent there.
func (s *suggester) prey(sq domain.Square, merc domain.Side) *domain.Army {
	k := s.g.Index(sq)
	ids := s.occ[k]
	if len(ids) == 0 || s.claimed[k] || s.contested(sq) {
		return nil
	}
	if o := &s.m.Armies[ids[0]]; domain.Enemy(o.Side, merc) {
		return o
	}
	return nil
}

// weight is the strength of the armies on sq.
func (s *suggester) weight(sq domain.Square) int {
	n := 0
	for _, i := range s.at(sq) {
		n += Strength(&s.m.Armies[i])
	}
	return n
}

// escort is the strength of the armies of side next to sq.
func (s *suggester) escort(sq domain.Square, side domain.Side) int {
	n := 0
	for dc := -1; dc <= 1; dc++ {
		for dr := -1; dr <= 1; dr++ {
			c, w := int(sq.Col)+dc, int(sq.Row)+dr
			if (dc == 0 && dr == 0) || c < 1 || w < 1 {
				continue
			}
			for _, i := range s.at(domain.Square{Col: uint8(c), Row: uint8(w)}) {
				if o := &s.m.Armies[i]; o.Side == side {
					n += Strength(o)
				}
			}
		}
	}
	return n
}

func (s *suggester) suggest(a *domain.Army) Suggestion {
	if s.fighting(a) {
		return hold(a, "fighting", fmt.Sprintf("%s is in a battle at %s this turn: it fights (3.2.1)", a.Name, a.At))
	}
	switch a.Faction {
	case domain.TownDefender:
		return s.defender(a)
	case domain.Theme:
		if side := s.mem.AtWarWith(a.Name); side.IsTeam() {
			return s.atWar(a, side)
		}
		if s.mem.IsOcean(s.m, a) {
			return s.ocean(a)
		}
		return s.theme(a)
	case domain.Raider:
		return s.raider(a)
	}
	return hold(a, "no move", fmt.Sprintf("%s has no faction on record, so no guideline moves it (6)", a.Name))
}

func hold(a *domain.Army, note, reason string) Suggestion {
	return Suggestion{Army: a.Name, Line: a.Name + ": " + note, Order: domain.Order{Army: a.Name, Kind: domain.Hold, Note: note}, Reason: reason}
}

func move(a *domain.Army, o option, reason string) Suggestion {
	ord := domain.Order{Army: a.Name, Kind: domain.MoveKind, From: a.At, Legs: []domain.Leg{{To: o.to}}}
	line := fmt.Sprintf("%s: %s > %s", a.Name, a.At, o.to)
	if o.target != nil {
		ord.Keyword, ord.Named = domain.Engage, o.target.Name
		line += "; engage " + o.target.Name
	}
	return Suggestion{Army: a.Name, Line: line, Order: ord, Reason: reason}
}

// moveOrHold turns the chosen option into a move, or a hold when it is the army's own square.
func moveOrHold(a *domain.Army, o option, ok bool, moveReason, holdReason string) Suggestion {
	if !ok || o.to == a.At {
		return hold(a, "no move", holdReason)
	}
	return move(a, o, moveReason)
}

// raider follows 6.3.1.
func (s *suggester) raider(a *domain.Army) Suggestion {
	rs := Strength(a)
	var opts []option
	for _, sq := range s.within(a.At) {
		if s.nearSite[s.g.Index(sq)] {
			continue
		}
		t := s.prey(sq, a.Side)
		if t == nil {
			continue
		}
		w := s.weight(sq)
		if w+s.escort(sq, t.Side) >= rs {
			continue
		}
		opts = append(opts, option{to: sq, target: t, score: [4]int{w, s.escort(sq, t.Side), domain.Steps(a.At, sq)}})
	}
	if o, ok := s.pick(a, opts); ok {
		return move(a, o, fmt.Sprintf("%s engages %s, the weakest army within reach that cannot stand up to it (strength %d against %d), away from any site (6.3.1)", a.Name, o.target.Name, o.score[0], rs))
	}
	var weak, strong []domain.Square
	for i := range s.m.Armies {
		o := &s.m.Armies[i]
		if !domain.Enemy(o.Side, a.Side) {
			continue
		}
		if Strength(o) < rs {
			weak = append(weak, o.At)
		} else {
			strong = append(strong, o.At)
		}
	}
	opts = opts[:0]
	for _, sq := range append(s.within(a.At), a.At) {
		if s.nearSite[s.g.Index(sq)] || (sq != a.At && !s.free(sq)) {
			continue
		}
		threat, crowd, near := 0, 0, 99
		for _, x := range strong {
			if d := domain.Steps(sq, x); d <= 3 {
				threat++
				crowd++
			}
		}
		for _, x := range weak {
			d := domain.Steps(sq, x)
			if d <= 3 {
				crowd++
			}
			near = min(near, d)
		}
		opts = append(opts, option{to: sq, score: [4]int{threat, near, crowd, domain.Steps(a.At, sq)}})
	}
	o, ok := s.pick(a, opts)
	return moveOrHold(a, o, ok,
		fmt.Sprintf("no weak army within reach: %s moves where the fewest strong armies can reach it, towards weaker ones, never next to a site (6.3.1)", a.Name),
		fmt.Sprintf("no weak army within reach and no better square: %s waits (6.3.1)", a.Name))
}

// theme follows 6.2.1 for a theme army with a territory on land.
func (s *suggester) theme(a *domain.Army) Suggestion {
	home := s.mem.TerritoryOf(a)
	var opts []option
	for _, sq := range s.within(a.At) {
		if t := s.prey(sq, a.Side); t != nil && domain.Steps(home, sq) <= 3 {
			opts = append(opts, option{to: sq, target: t, score: [4]int{domain.Steps(home, sq), s.weight(sq), domain.Steps(a.At, sq)}})
		}
	}
	if o, ok := s.pick(a, opts); ok {
		return move(a, o, fmt.Sprintf("%s came within one turn's move of %s's territory around %s: %s attacks it (6.2.1)", o.target.Name, a.Name, home, a.Name))
	}
	if a.At == home {
		return hold(a, "no move", fmt.Sprintf("no army within one turn's move of its territory: %s patrols around %s (6.2.1)", a.Name, home))
	}
	opts = opts[:0]
	for _, sq := range append(s.within(a.At), a.At) {
		if sq == a.At || s.free(sq) {
			opts = append(opts, option{to: sq, score: [4]int{domain.Steps(sq, home), domain.Steps(a.At, sq)}})
		}
	}
	o, ok := s.pick(a, opts)
	return moveOrHold(a, o, ok,
		fmt.Sprintf("%s goes back towards its territory around %s (6.2.1)", a.Name, home),
		fmt.Sprintf("%s cannot get nearer its territory around %s this turn (6.2.1)", a.Name, home))
}

// ocean follows 6.2.1 for the ocean theme army.
func (s *suggester) ocean(a *domain.Army) Suggestion {
	var opts []option
	for _, sq := range s.within(a.At) {
		if t := s.prey(sq, a.Side); t != nil && s.m.Terrain.At(sq) == domain.Ocean {
			opts = append(opts, option{to: sq, target: t})
		}
	}
	if o, ok := s.pick(a, opts); ok {
		return move(a, o, fmt.Sprintf("%s is on the ocean within reach: the ocean army %s attacks it, chosen at random among %d (6.2.1)", o.target.Name, a.Name, len(opts)))
	}
	if s.m.Terrain.At(a.At) == domain.Ocean {
		return hold(a, "no move", fmt.Sprintf("no army on the ocean within reach: %s patrols (6.2.1)", a.Name))
	}
	var water []domain.Square
	for k := 0; k < s.g.Size(); k++ {
		if sq := s.g.At(k); s.m.Terrain.At(sq) == domain.Ocean {
			water = append(water, sq)
		}
	}
	if len(water) == 0 {
		return hold(a, "no move", fmt.Sprintf("the map has no ocean for %s to patrol (6.2)", a.Name))
	}
	opts = opts[:0]
	for _, sq := range append(s.within(a.At), a.At) {
		if sq != a.At && !s.free(sq) {
			continue
		}
		near := 1 << 20
		for _, w := range water {
			near = min(near, domain.Steps(sq, w))
		}
		opts = append(opts, option{to: sq, score: [4]int{near, domain.Steps(a.At, sq)}})
	}
	o, ok := s.pick(a, opts)
	return moveOrHold(a, o, ok,
		fmt.Sprintf("%s goes back to the ocean (6.2.1)", a.Name),
		fmt.Sprintf("%s cannot get nearer the ocean this turn (6.2.1)", a.Name))
}

// atWar follows 6.2.3.
func (s *suggester) atWar(a *domain.Army, enemy domain.Side) Suggestion {
	var opts []option
	for _, sq := range s.within(a.At) {
		if s.nearStronghold[s.g.Index(sq)] {
			continue
		}
		if t := s.prey(sq, a.Side); t != nil {
			other := 0
			if t.Side != enemy {
				other = 1
			}
			opts = append(opts, option{to: sq, target: t, score: [4]int{other, domain.Steps(a.At, sq), s.weight(sq)}})
		}
	}
	if o, ok := s.pick(a, opts); ok {
		return move(a, o, fmt.Sprintf("%s is At War with %s and attacks %s of %s, never on or next to a base or portal (6.2.3)", a.Name, enemy.Title(), o.target.Name, o.target.Side.Title()))
	}
	var foes []domain.Square
	for i := range s.m.Armies {
		if o := &s.m.Armies[i]; o.Side == enemy {
			foes = append(foes, o.At)
		}
	}
	if len(foes) == 0 {
		return hold(a, "no move", fmt.Sprintf("%s is At War with %s, which has no army on the map (6.2.3)", a.Name, enemy.Title()))
	}
	opts = opts[:0]
	for _, sq := range append(s.within(a.At), a.At) {
		if sq != a.At && (!s.free(sq) || s.nearStronghold[s.g.Index(sq)]) {
			continue
		}
		near := 1 << 20
		for _, f := range foes {
			near = min(near, domain.Steps(sq, f))
		}
		opts = append(opts, option{to: sq, score: [4]int{near, domain.Steps(a.At, sq)}})
	}
	o, ok := s.pick(a, opts)
	return moveOrHold(a, o, ok,
		fmt.Sprintf("%s is At War with %s and advances towards its armies, never onto or next to a base or portal (6.2.3)", a.Name, enemy.Title()),
		fmt.Sprintf("%s is At War with %s but cannot get nearer its armies this turn (6.2.3)", a.Name, enemy.Title()))
}

// defender follows 6.1.1.
func (s *suggester) defender(a *domain.Army) Suggestion {
	home := s.home(a)
	if home == nil {
		return hold(a, "no move", fmt.Sprintf("the map has no town for %s to defend (6.1)", a.Name))
	}
	ts := Strength(a)
	threat := 0
	for _, sq := range append(s.g.Neighbours(nil, home.At), home.At) {
		for _, o := range s.enemies(sq, a.Side) {
			threat += Strength(o)
		}
	}
	overwhelmed := threat >= 2*ts
	if overwhelmed && a.Troops != nil && a.Alive() < RetreatBelow {
		if sg, ok := s.retreat(a, home); ok {
			return sg
		}
	}
	if a.At == home.At {
		return hold(a, "no move", fmt.Sprintf("%s holds its town %s (6.1.1)", a.Name, home.Name))
	}
	steps := domain.Steps(a.At, home.At)
	if t := s.prey(home.At, a.Side); t != nil && steps <= 3 {
		if overwhelmed && domain.Ring(a.At, home.At) <= 1 {
			return hold(a, "no move", fmt.Sprintf("%s lost %s to %s but the odds there are overwhelming (strength %d against %d): it waits beside the town (6.1.1)", a.Name, home.Name, t.Name, threat, ts))
		}
		return move(a, option{to: home.At, target: t}, fmt.Sprintf("%s holds %s: %s attacks to retake its town (6.1.1)", t.Name, home.Name, a.Name))
	}
	if steps <= 3 && s.free(home.At) {
		return move(a, option{to: home.At}, fmt.Sprintf("%s goes back into its town %s (6.1.1)", a.Name, home.Name))
	}
	ring := domain.Ring(a.At, home.At)
	if ring <= 1 {
		return hold(a, "no move", fmt.Sprintf("%s cannot enter %s this turn and stays beside it (6.1.1)", a.Name, home.Name))
	}
	var opts []option
	for _, sq := range s.within(a.At) {
		if r := domain.Ring(sq, home.At); s.free(sq) && r < ring {
			opts = append(opts, option{to: sq, score: [4]int{r, domain.Steps(sq, home.At), domain.Steps(a.At, sq)}})
		}
	}
	o, ok := s.pick(a, opts)
	return moveOrHold(a, o, ok,
		fmt.Sprintf("%s was driven from %s and goes back towards it (6.1.1)", a.Name, home.Name),
		fmt.Sprintf("%s cannot get nearer its town %s this turn (6.1.1)", a.Name, home.Name))
}

// retreat moves a weak, overwhelmed town defender towards the nearest other town no team holds
// (6.1.1); ok is false when no move gets it nearer one.
func (s *suggester) retreat(a *domain.Army, home *domain.Site) (Suggestion, bool) {
	var to *domain.Site
	for _, t := range s.towns {
		if t == home || len(s.enemies(t.At, a.Side)) > 0 {
			continue
		}
		if to == nil || domain.Steps(a.At, t.At) < domain.Steps(a.At, to.At) {
			to = t
		}
	}
	if to == nil {
		return Suggestion{}, false
	}
	ring := domain.Ring(a.At, to.At)
	var opts []option
	for _, sq := range s.within(a.At) {
		if r := domain.Ring(sq, to.At); s.free(sq) && r < ring {
			opts = append(opts, option{to: sq, score: [4]int{r, domain.Steps(sq, to.At), domain.Steps(a.At, sq)}})
		}
	}
	o, ok := s.pick(a, opts)
	if !ok {
		return Suggestion{}, false
	}
	return move(a, o, fmt.Sprintf("%s has %d soldiers and faces overwhelming odds at %s: it retreats towards %s (6.1.1)", a.Name, a.Alive(), home.Name, to.Name)), true
}

func cmpSquare(a, b domain.Square) int {
	return cmp.Or(cmp.Compare(a.Col, b.Col), cmp.Compare(a.Row, b.Row))
}
