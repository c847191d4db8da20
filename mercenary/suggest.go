package mercenary

// This file holds what each faction does by its AI guidelines (6.1.1, 6.2.1, 6.2.3, 6.3.1,
// 6.3.2 Disband) and the squares it looks at.

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/coalition-wargame/coalition/domain"
)

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
	return s.empty(k) && !s.claimed[k]
}

// prey is the army a mercenary of side merc may attack on sq, or nil: armies of one team stand
// there, with no battle (M12) and no other mercenary sent there.
func (s *suggester) prey(sq domain.Square, merc domain.Side) *domain.Army {
	k := s.g.Index(sq)
	first := s.head[k] - 1
	if first < 0 || s.claimed[k] || s.contested(sq) {
		return nil
	}
	if o := &s.m.Armies[first]; domain.Enemy(o.Side, merc) {
		return o
	}
	return nil
}

// weight is the strength of the armies on sq.
func (s *suggester) weight(sq domain.Square) int { return s.strengthOn(sq, "") }

// escort is the strength of the armies of side next to sq.
func (s *suggester) escort(sq domain.Square, side domain.Side) int {
	n := 0
	for dc := -1; dc <= 1; dc++ {
		for dr := -1; dr <= 1; dr++ {
			c, w := int(sq.Col)+dc, int(sq.Row)+dr
			if (dc == 0 && dr == 0) || c < 1 || w < 1 {
				continue
			}
			for i := s.on(domain.Square{Col: uint8(c), Row: uint8(w)}); i >= 0; i = s.after(i) {
				if s.m.Armies[i].Side == side {
					n += s.strength(i)
				}
			}
		}
	}
	return n
}

// suggest is army a's order by its faction's guideline.
func (s *suggester) suggest(a *domain.Army) Suggestion {
	if s.fighting(a) {
		return hold(a, "fighting", GuideFighting, a.Name+" is in a battle at "+a.At.String()+" this turn: it fights (3.2.1)")
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
		if Spent(a) {
			return hold(a, DisbandNote, GuideDisband, fmt.Sprintf("%s has %s of its %s troops left, under a quarter: no longer strong enough to threaten mayhem, it disbands (6.3.2)",
				a.Name, thousands(a.Alive()), thousands(fullCount(a))))
		}
		return s.raider(a)
	}
	return hold(a, "no move", "6", a.Name+" has no faction on record, so no guideline moves it (6)")
}

// DisbandNote is the hold note of a raider's Disband order ("Raider One: disband", 6.3.2).
const DisbandNote = "disband"

// Spent reports whether a raider is no longer strong enough to threaten mayhem, so that the AI
// disbands it (6.3.2): fewer than a quarter of its troops' full counts are alive. A raider
// whose troops are unknown is never spent.
func Spent(a *domain.Army) bool {
	return a.Faction == domain.Raider && a.Troops != nil && 4*a.Alive() < fullCount(a)
}

func fullCount(a *domain.Army) int {
	n := 0
	for _, t := range a.Troops {
		n += t.Full
	}
	return n
}

// raider follows 6.3.1.
func (s *suggester) raider(a *domain.Army) Suggestion {
	rs := Strength(a)
	opts := s.opts[:0]
	for _, sq := range s.within(a.At) {
		if s.nearSite[s.g.Index(sq)] {
			continue
		}
		t := s.prey(sq, a.Side)
		if t == nil {
			continue
		}
		w, e := s.weight(sq), s.escort(sq, t.Side)
		if w+e >= rs {
			continue
		}
		opts = append(opts, option{to: sq, target: t, score: [4]int{w, e, domain.Steps(a.At, sq)}})
	}
	if o, ok := s.pick(a, opts); ok {
		escort := ""
		if o.score[1] > 0 {
			escort = " with an escort of strength " + thousands(o.score[1])
		}
		return move(a, o, GuideRaider, "weakest army in range: "+describe(o.target)+" (strength "+thousands(o.score[0])+escort+" against "+a.Name+"'s "+thousands(rs)+"), away from every site (6.3.1)")
	}
	weak, strong := s.weak[:0], s.strong[:0]
	defer func() { s.weak, s.strong = weak[:0], strong[:0] }()
	// Only armies within 3 steps of a square in reach (6 of the raider) are counted as a threat
	// or a crowd; a weaker army further away matters only as the nearest one, so when one is
	// within dmin steps, those beyond dmin + 6 can be nearer to no square in reach.
	dmin, far := 1<<20, s.far[:0]
	for i := range s.m.Armies {
		if !s.team[i] {
			continue
		}
		o := &s.m.Armies[i]
		switch d := domain.Steps(a.At, o.At); {
		case d > 6:
			far = append(far, int32(i))
		case s.strength(int32(i)) < rs:
			weak = append(weak, spot{o.At, d})
			dmin = min(dmin, d)
		default:
			strong = append(strong, o.At)
		}
	}
	for _, i := range far {
		o := &s.m.Armies[i]
		if d := domain.Steps(a.At, o.At); d <= dmin+6 && s.strength(i) < rs {
			weak = append(weak, spot{o.At, d})
			dmin = min(dmin, d)
		}
	}
	s.far = far[:0]
	// nearest first: a weaker army d steps from the raider is at least d - 3 from a square in
	// reach, so the search for the nearest stops there
	slices.SortFunc(weak, func(x, y spot) int { return x.d - y.d })
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
			if x.d > 6 && x.d-3 >= near {
				break
			}
			d := domain.Steps(sq, x.at)
			if d <= 3 {
				crowd++
			}
			near = min(near, d)
		}
		opts = append(opts, option{to: sq, score: [4]int{threat, near, crowd, domain.Steps(a.At, sq)}})
	}
	o, ok := s.pick(a, opts)
	why := func() string {
		return "no army in range is weak enough for " + a.Name + " (strength " + thousands(rs) + ")"
	}
	return moveOrHold(a, o, ok, GuideRaider,
		func() string {
			return why() + ": it moves where " + strconv.Itoa(o.score[0]) + " strong armies can reach it, " + nearest(o.score[1], "weaker army") + ", never next to a site (6.3.1)"
		},
		func() string {
			return why() + " and no square is safer: it waits, away from every site (6.3.1)"
		})
}

// spot is an army's square and its distance in steps from the army planned for.
type spot struct {
	at domain.Square
	d  int
}

// nearest words the distance to the nearest of something: "3 steps from the nearest weaker army".
func nearest(d int, what string) string {
	if d >= 99 {
		return "with no " + what + " on the map"
	}
	return strconv.Itoa(d) + " steps from the nearest " + what
}

// theme follows 6.2.1 for a theme army with a territory on land.
func (s *suggester) theme(a *domain.Army) Suggestion {
	home := s.mem.TerritoryOf(a)
	opts := s.opts[:0]
	for _, sq := range s.within(a.At) {
		if t := s.prey(sq, a.Side); t != nil && domain.Steps(home, sq) <= 3 {
			opts = append(opts, option{to: sq, target: t, score: [4]int{domain.Steps(home, sq), s.weight(sq), domain.Steps(a.At, sq)}})
		}
	}
	if o, ok := s.pick(a, opts); ok {
		return move(a, o, GuideTheme, describe(o.target)+" came within one turn's move of "+a.Name+"'s territory around "+home.String()+": "+a.Name+" attacks it (6.2.1)")
	}
	if a.At == home {
		return hold(a, "no move", GuideTheme, "no army within one turn's move of its territory: "+a.Name+" patrols around "+home.String()+" (6.2.1)")
	}
	opts = opts[:0]
	for _, sq := range append(s.within(a.At), a.At) {
		if sq == a.At || s.free(sq) {
			opts = append(opts, option{to: sq, score: [4]int{domain.Steps(sq, home), domain.Steps(a.At, sq)}})
		}
	}
	o, ok := s.pick(a, opts)
	return moveOrHold(a, o, ok, GuideTheme,
		func() string {
			return a.Name + " goes back towards its territory around " + home.String() + " (6.2.1)"
		},
		func() string {
			return a.Name + " cannot get nearer its territory around " + home.String() + " this turn (6.2.1)"
		})
}

// atWar follows 6.2.3.
func (s *suggester) atWar(a *domain.Army, enemy domain.Side) Suggestion {
	opts := s.opts[:0]
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
		first := "its war enemy first"
		if o.target.Side != enemy {
			first = "no army of " + enemy.Title() + " is in range"
		}
		return move(a, o, GuideAtWar, a.Name+" is At War with "+enemy.Title()+" ("+first+"): it attacks "+o.target.Side.Title()+"'s "+describe(o.target)+", never on or next to a base or portal (6.2.3)")
	}
	var foes []domain.Square
	for i := range s.m.Armies {
		if o := &s.m.Armies[i]; o.Side == enemy {
			foes = append(foes, o.At)
		}
	}
	if len(foes) == 0 {
		return hold(a, "no move", GuideAtWar, fmt.Sprintf("%s is At War with %s, which has no army on the map (6.2.3)", a.Name, enemy.Title()))
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
	return moveOrHold(a, o, ok, GuideAtWar,
		func() string {
			return fmt.Sprintf("%s is At War with %s and advances towards its armies (%d steps from the nearest), never onto or next to a base or portal (6.2.3)", a.Name, enemy.Title(), o.score[0])
		},
		func() string {
			return fmt.Sprintf("%s is At War with %s but cannot get nearer its armies this turn (6.2.3)", a.Name, enemy.Title())
		})
}

// defender follows 6.1.1.
func (s *suggester) defender(a *domain.Army) Suggestion {
	home := s.home(a)
	if home == nil {
		return hold(a, "no move", GuideDefender, "the map has no town for "+a.Name+" to defend (6.1)")
	}
	ts := Strength(a)
	threat := 0
	var buf [9]domain.Square
	for _, sq := range append(s.g.Neighbours(buf[:0], home.At), home.At) {
		threat += s.strengthOn(sq, a.Side)
	}
	overwhelmed := threat >= 2*ts
	if overwhelmed && a.Troops != nil && a.Alive() < RetreatBelow {
		if sg, ok := s.retreat(a, home, threat); ok {
			return sg
		}
	}
	if a.At == home.At {
		return hold(a, "no move", GuideDefender, a.Name+" holds its town "+home.Name+" (6.1.1)")
	}
	steps := domain.Steps(a.At, home.At)
	if t := s.prey(home.At, a.Side); t != nil && steps <= 3 {
		if overwhelmed && domain.Ring(a.At, home.At) <= 1 {
			return hold(a, "no move", GuideDefender, fmt.Sprintf("%s lost %s to %s, but the odds there are overwhelming (strength %s against %s): it waits beside the town (6.1.1)",
				a.Name, home.Name, describe(t), thousands(threat), thousands(ts)))
		}
		return move(a, option{to: home.At, target: t}, GuideDefender, describe(t)+" holds "+home.Name+": "+a.Name+" attacks to retake its town (6.1.1)")
	}
	if steps <= 3 && s.free(home.At) {
		return move(a, option{to: home.At}, GuideDefender, a.Name+" goes back into its town "+home.Name+" (6.1.1)")
	}
	ring := domain.Ring(a.At, home.At)
	if ring <= 1 {
		return hold(a, "no move", GuideDefender, a.Name+" cannot enter "+home.Name+" this turn and stays beside it (6.1.1)")
	}
	opts := s.opts[:0]
	for _, sq := range s.within(a.At) {
		if r := domain.Ring(sq, home.At); s.free(sq) && r < ring {
			opts = append(opts, option{to: sq, score: [4]int{r, domain.Steps(sq, home.At), domain.Steps(a.At, sq)}})
		}
	}
	o, ok := s.pick(a, opts)
	return moveOrHold(a, o, ok, GuideDefender,
		func() string {
			return a.Name + " was driven from " + home.Name + " and goes back towards it (6.1.1)"
		},
		func() string {
			return a.Name + " cannot get nearer its town " + home.Name + " this turn (6.1.1)"
		})
}

// retreat moves a weak, overwhelmed town defender towards the nearest other town no team holds
// (6.1.1); ok is false when no move gets it nearer one.
func (s *suggester) retreat(a *domain.Army, home *domain.Site, threat int) (Suggestion, bool) {
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
	opts := s.opts[:0]
	for _, sq := range s.within(a.At) {
		if r := domain.Ring(sq, to.At); s.free(sq) && r < ring {
			opts = append(opts, option{to: sq, score: [4]int{r, domain.Steps(sq, to.At), domain.Steps(a.At, sq)}})
		}
	}
	o, ok := s.pick(a, opts)
	if !ok {
		return Suggestion{}, false
	}
	return move(a, o, GuideDefender, fmt.Sprintf("%s has %s soldiers, under %s, and faces overwhelming odds at %s (strength %s against %s): it retreats towards %s (6.1.1)",
		a.Name, thousands(a.Alive()), thousands(RetreatBelow), home.Name, thousands(threat), thousands(Strength(a)), to.Name)), true
}

func cmpSquare(a, b domain.Square) int {
	return cmp.Or(cmp.Compare(a.Col, b.Col), cmp.Compare(a.Row, b.Row))
}
