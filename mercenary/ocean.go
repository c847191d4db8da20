package mercenary

// This file holds the ocean theme army's guideline (6.2.1): it patrols every ocean, attacks at
// random, rarely the same target twice, and moves on after several battles in one area.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// OceanAreaBattles is how many battles in a row the ocean army fights in one ocean area before
// it moves on to another (6.2.1 "after several battles in one ocean area").
const OceanAreaBattles = 3

// OceanArea is the size of an ocean area in steps: the squares within one turn's move (3
// steps) of the ocean army's latest battle.
const OceanArea = 3

// Engagement is a battle a mercenary army made at a lock: the army, the square, and the armies
// it engaged there. The lock report records them; the AI reads the ocean army's to remember
// its targets and areas (6.2.1).
type Engagement struct {
	// Turn is the number of the lock report that made it.
	Turn    int           `json:"turn"`
	Army    string        `json:"army"`
	Square  domain.Square `json:"square"`
	Targets []string      `json:"targets"`
}

// Engagements lists the battles among battles (those made at a lock) that a mercenary army of m
// is in, as that army's engagements of turn; a push battle is nobody's choice and is left out.
func Engagements(m *domain.Map, turn int, battles []domain.Battle) []Engagement {
	var out []Engagement
	for _, b := range battles {
		if b.Kind == domain.Push {
			continue
		}
		for _, n := range b.Armies {
			a := m.Army(n)
			if a == nil || a.Side != domain.Mercenary {
				continue
			}
			e := Engagement{Turn: turn, Army: a.Name, Square: b.Square, Targets: []string{}}
			for _, t := range b.Armies {
				if o := m.Army(t); o != nil && domain.Enemy(o.Side, a.Side) {
					e.Targets = append(e.Targets, t)
				}
			}
			out = append(out, e)
		}
	}
	return out
}

// oceanPast is what the ocean army a remembers: every army it engaged, and, when its latest
// OceanAreaBattles battles or more were all fought within OceanArea steps of the latest one,
// the square of that latest battle (moveOn set): it then moves on from that area (6.2.1).
func (mem *Memory) oceanPast(a *domain.Army) (targets []string, last domain.Square, moveOn bool) {
	if mem == nil {
		return nil, last, false
	}
	var mine []Engagement
	for _, e := range mem.Engagements {
		if domain.SameName(e.Army, a.Name) {
			mine = append(mine, e)
			targets = append(targets, e.Targets...)
		}
	}
	if len(mine) == 0 {
		return targets, last, false
	}
	slices.SortStableFunc(mine, func(x, y Engagement) int { return x.Turn - y.Turn })
	last = mine[len(mine)-1].Square
	run := 0
	for i := len(mine) - 1; i >= 0 && domain.Steps(mine[i].Square, last) <= OceanArea; i-- {
		run++
	}
	return targets, last, run >= OceanAreaBattles
}

// ocean follows 6.2.1 for the ocean theme army. "It will rarely attack the same target twice"
// is read as: the AI never attacks an army it engaged before (the judge may).
func (s *suggester) ocean(a *domain.Army) Suggestion {
	targets, last, moveOn := s.mem.oceanPast(a)
	inArea := func(sq domain.Square) bool { return moveOn && domain.Steps(sq, last) <= OceanArea }
	opts := s.opts[:0]
	var again, left []string
	for _, sq := range s.within(a.At) {
		t := s.prey(sq, a.Side)
		if t == nil || s.m.Terrain.At(sq) != domain.Ocean {
			continue
		}
		switch {
		case slices.ContainsFunc(targets, func(n string) bool { return domain.SameName(n, t.Name) }):
			again = append(again, t.Name)
		case inArea(sq):
			left = append(left, t.Name)
		default:
			opts = append(opts, option{to: sq, target: t})
		}
	}
	memo := ""
	if len(again) > 0 {
		memo += fmt.Sprintf("; it attacked %s before and leaves them be", strings.Join(again, ", "))
	}
	if len(left) > 0 {
		memo += fmt.Sprintf("; after %d battles around %s it leaves %s there", OceanAreaBattles, last, strings.Join(left, ", "))
	}
	if o, ok := s.pick(a, opts); ok {
		return move(a, o, GuideTheme, describe(o.target)+" is on the ocean within reach: the ocean army "+a.Name+" attacks it, chosen at random among "+strconv.Itoa(len(opts))+memo+" (6.2.1)")
	}
	water := s.oceans()
	var away []domain.Square
	if moveOn {
		for _, sq := range water {
			if !inArea(sq) {
				away = append(away, sq)
			}
		}
	}
	if len(water) == 0 {
		return hold(a, "no move", GuideTheme, fmt.Sprintf("the map has no ocean for %s to patrol (6.2)", a.Name))
	}
	if moveOn && inArea(a.At) && len(away) > 0 {
		o, ok := s.towards(a, away)
		return moveOrHold(a, o, ok, GuideTheme,
			func() string {
				return fmt.Sprintf("after %d battles around %s the ocean army %s moves on to another ocean area%s (6.2.1)", OceanAreaBattles, last, a.Name, memo)
			},
			func() string {
				return fmt.Sprintf("after %d battles around %s the ocean army %s would move on, but cannot get nearer another ocean area this turn (6.2.1)", OceanAreaBattles, last, a.Name)
			})
	}
	if s.m.Terrain.At(a.At) == domain.Ocean {
		return hold(a, "no move", GuideTheme, "no army on the ocean within reach: "+a.Name+" patrols"+memo+" (6.2.1)")
	}
	o, ok := s.towards(a, water)
	return moveOrHold(a, o, ok, GuideTheme,
		func() string { return a.Name + " goes back to the ocean (6.2.1)" },
		func() string { return a.Name + " cannot get nearer the ocean this turn (6.2.1)" })
}

// towards is the free square within a's reach (or its own) nearest to any of goals, then the
// fewest steps away.
func (s *suggester) towards(a *domain.Army, goals []domain.Square) (option, bool) {
	opts := s.opts[:0]
	for _, sq := range append(s.within(a.At), a.At) {
		if sq != a.At && !s.free(sq) {
			continue
		}
		near := 1 << 20
		for _, w := range goals {
			near = min(near, domain.Steps(sq, w))
		}
		opts = append(opts, option{to: sq, score: [4]int{near, domain.Steps(a.At, sq)}})
	}
	return s.pick(a, opts)
}

// among words how many armies the ocean army chose among.
func among(n int) string {
	if n == 1 {
		return "the only one on the ocean in reach"
	}
	return "chosen at random among " + strconv.Itoa(n)
}
