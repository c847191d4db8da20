package mercenary

// This file holds the AI's plan for a turn (chapter 6): its modes, the orders it gives and
// the draw that breaks ties among equally good ones.

import (
	"slices"
	"strconv"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// Mode is the campaign setting mercenary_ai: how far the server plays the mercenaries.
type Mode string

// The modes of the mercenary AI.
const (
	// ModeOff leaves every mercenary to the mercenary judge; an unordered mercenary holds and a
	// spawned raider is only reported.
	ModeOff Mode = "off"
	// ModeSuggest has the server plan every mercenary's order for the judge to post, check the
	// judge's orders against the guidelines and place spawned raiders.
	ModeSuggest Mode = "suggest"
	// ModeAuto is ModeSuggest, and at the lock every mercenary with no accepted order gets the
	// AI's order and every mercenary in a battle the AI's strategy.
	ModeAuto Mode = "auto"
)

// ParseMode reads a mode as a campaign or scenario writes it; empty is ModeOff.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case "":
		return ModeOff, nil
	case ModeOff, ModeSuggest, ModeAuto:
		return m, nil
	}
	return "", domain.Errorf(domain.ErrInvalid, "%q is not a mercenary AI mode: write off, suggest or auto", s)
}

// On reports whether the server plays any part of the mercenary judge's job.
func (m Mode) On() bool { return m == ModeSuggest || m == ModeAuto }

// The guidelines an order of the plan follows.
const (
	GuideDefender = "6.1.1"
	GuideTheme    = "6.2.1"
	GuideAtWar    = "6.2.3"
	GuideRaider   = "6.3.1"
	GuideDisband  = "Disband"
	// GuideFighting is not the AI's choice: an army in a battle fights (3.2.1, M1).
	GuideFighting = "3.2.1"
)

// Suggestion is one order the guidelines propose for a mercenary army, as the judge would
// post it, and why.
type Suggestion struct {
	Army string `json:"army"`
	// Line is the order in the classic format: "Raider One: 14C > 12C; engage Sai Rei".
	Line  string       `json:"line"`
	Order domain.Order `json:"order"`
	// Guideline is the guideline the order follows: 6.1.1, 6.2.1, 6.2.3, 6.3.1, Disband, or
	// 3.2.1 for an army that fights.
	Guideline string `json:"guideline"`
	Reason    string `json:"reason"`
	// Draw is the seed's draw that picked this order among equally good ones; nil when it was
	// the only best one.
	Draw *Draw `json:"draw,omitempty"`
	// Choices are the other equally good orders the draw passed over, as lines.
	Choices []string `json:"choices,omitempty"`
}

// Draw is one draw from the turn's seed as RANDOMNESS.md publishes it: a die of Die faces
// whose Value is Intn(Label, Die) + 1.
type Draw struct {
	Label string `json:"label"`
	Die   int    `json:"die"`
	Value int    `json:"value"`
}

// PlanOptions are what the plan needs besides the map, the seed and the memory.
type PlanOptions struct {
	// Ordered are orders that already count this turn for mercenary armies: those armies get
	// no order in the plan, and the squares their moves end on are taken (M12).
	Ordered []domain.Order
}

// Suggest proposes one order per mercenary army the judge may order, with the theme armies'
// wars and territories the map remembers (see Memory.Plan).
func Suggest(m *domain.Map, seed domain.Seed) []Suggestion {
	return FromMap(m).Plan(m, seed, PlanOptions{})
}

// Suggest is Plan with no orders given yet.
func (mem *Memory) Suggest(m *domain.Map, seed domain.Seed) []Suggestion {
	return mem.Plan(m, seed, PlanOptions{})
}

// Plan proposes one order per mercenary army the mercenary judge may order (no controller, or
// the judge alone) and opt does not already order, in the map's order, following the AI
// guidelines:
//   - a town defender holds its town, retakes it when a team army holds it, comes back to it
//     when pushed away, and waits beside it when the odds there are overwhelming (twice its
//     strength); under 3500 soldiers and overwhelmed, it retreats towards the nearest other
//     town no team holds (6.1.1);
//   - a theme army attacks an army within 3 steps of the centre of its territory (the nearest
//     to it, then the weakest) and otherwise goes back to the centre or holds; the ocean army
//     attacks an army on ocean in reach at random, never one it attacked before, and after
//     OceanAreaBattles battles in one area moves on to another (6.2.1);
//   - an At War theme army attacks an army in reach, its war enemy first, then the nearest,
//     then the weakest, never on or next to a base or portal, and otherwise advances towards
//     the nearest army of the team it is at war with (6.2.3);
//   - a raider with fewer than a quarter of its troops alive disbands (6.3.2); any other
//     engages the weakest army within 3 steps whose strength, with its escort (armies of its
//     side next to it), is below the raider's own, never on or next to a site; else it moves,
//     never next to a site, to the square in reach that the fewest stronger armies can reach,
//     then nearest a weaker army, then with the fewest armies around (6.3.1).
//
// Strength is Strength's estimate. No mercenary ends on a square another mercenary holds or is
// sent to, nor on a square where a battle is fought (M12). Ties among the best choices are
// broken by an Intn under "mercenary-suggest:<name key of the army>" over the tied squares in
// order of number, then letter; the suggestion gives the draw and the choices passed over. An
// army in a battle is told to fight.
func (mem *Memory) Plan(m *domain.Map, seed domain.Seed, opt PlanOptions) []Suggestion {
	b := newBoard(m)
	defer b.release()
	b.claimed = zeroed(b.claimed, m.Grid.Size())
	s := &suggester{board: b, mem: mem, seed: seed}
	var ordered []string
	for _, o := range opt.Ordered {
		ordered = append(ordered, o.Army)
		if o.Kind == domain.MoveKind && len(o.Legs) > 0 && m.Grid.Contains(o.Legs[len(o.Legs)-1].To) {
			s.claimed[m.Grid.Index(o.Legs[len(o.Legs)-1].To)] = true
		}
	}
	n := 0
	for i := range m.Armies {
		if m.Armies[i].Side == domain.Mercenary {
			n++
		}
	}
	out := make([]Suggestion, 0, n)
	for i := range m.Armies {
		a := &m.Armies[i]
		if a.Side != domain.Mercenary || !judgeOrders(a) || slices.ContainsFunc(ordered, func(n string) bool { return domain.SameName(n, a.Name) }) {
			continue
		}
		s.tie = nil
		sg := s.suggest(a)
		if s.tie != nil && s.tie.army == a {
			sg.Draw = &s.tie.draw
			for _, o := range s.tie.others {
				sg.Choices = append(sg.Choices, optionLine(a, o))
			}
		}
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
	mem  *Memory
	seed domain.Seed
	// d are the turn's draws, made when a tie is first drawn
	d *domain.Draws
	// tie is the last draw pick made among equally good options
	tie *tie
}

// tie is a draw among equally good options: the draw and the options it passed over.
type tie struct {
	army   *domain.Army
	draw   Draw
	others []option
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
	if cap(opts) > cap(s.opts) {
		s.opts = opts[:0] // the next list of options reuses the memory
	}
	if len(opts) == 0 {
		return option{}, false
	}
	var buf [16]int
	best := append(buf[:0], 0)
	for i := 1; i < len(opts); i++ {
		switch {
		case opts[i].better(&opts[best[0]]):
			best = append(best[:0], i)
		case !opts[best[0]].better(&opts[i]):
			best = append(best, i)
		}
	}
	if len(best) == 1 {
		return opts[best[0]], true
	}
	slices.SortFunc(best, func(i, j int) int { return cmpSquare(opts[i].to, opts[j].to) })
	label := "mercenary-suggest:" + domain.NameKey(a.Name)
	if s.d == nil {
		s.d = s.seed.Draws()
	}
	k := s.d.Intn(label, len(best))
	t := &tie{army: a, draw: Draw{Label: label, Die: len(best), Value: k + 1}}
	for j, i := range best {
		if j != k {
			t.others = append(t.others, opts[i])
		}
	}
	s.tie = t
	return opts[best[k]], true
}

func hold(a *domain.Army, note, guide, reason string) Suggestion {
	return Suggestion{Army: a.Name, Line: a.Name + ": " + note, Order: domain.Order{Army: a.Name, Kind: domain.Hold, Note: note}, Guideline: guide, Reason: reason}
}

func move(a *domain.Army, o option, guide, reason string) Suggestion {
	ord := domain.Order{Army: a.Name, Kind: domain.MoveKind, From: a.At, Legs: []domain.Leg{{To: o.to}}}
	if o.target != nil {
		ord.Keyword, ord.Named = domain.Engage, o.target.Name
	}
	return Suggestion{Army: a.Name, Line: optionLine(a, o), Order: ord, Guideline: guide, Reason: reason}
}

// optionLine writes an option as the judge would post it.
func optionLine(a *domain.Army, o option) string {
	if o.to == a.At {
		return a.Name + ": no move"
	}
	var buf [96]byte
	b := append(buf[:0], a.Name...)
	b = append(b, ": "...)
	b = appendSquare(b, a.At)
	b = append(b, " > "...)
	b = appendSquare(b, o.to)
	if o.target != nil {
		b = append(b, "; engage "...)
		b = append(b, o.target.Name...)
	}
	return string(b)
}

// appendSquare appends a square as players write it: number, then letter (G1).
func appendSquare(b []byte, s domain.Square) []byte {
	b = strconv.AppendUint(b, uint64(s.Col), 10)
	if s.Row >= 1 && s.Row <= 26 {
		return append(b, 'A'+s.Row-1)
	}
	return append(b, s.String()...)
}

// moveOrHold turns the chosen option into a move, or a hold when it is the army's own square,
// with the reason for the one it is (only that one is written).
func moveOrHold(a *domain.Army, o option, ok bool, guide string, moveReason, holdReason func() string) Suggestion {
	if !ok || o.to == a.At {
		return hold(a, "no move", guide, holdReason())
	}
	return move(a, o, guide, moveReason())
}

// describe names an army for a reason: "Crovax at 12F, 1,840 alive".
func describe(a *domain.Army) string {
	var buf [96]byte
	b := append(buf[:0], a.Name...)
	b = append(b, " at "...)
	b = appendSquare(b, a.At)
	if a.Troops != nil {
		b = append(b, ", "...)
		b = appendThousands(b, a.Alive())
		b = append(b, " alive"...)
	}
	return string(b)
}

// thousands writes n with commas between groups of three digits: 12,345.
func thousands(n int) string {
	var buf [24]byte
	return string(appendThousands(buf[:0], n))
}

func appendThousands(b []byte, n int) []byte {
	if n < 0 {
		b = append(b, '-')
		n = -n
	}
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], int64(n), 10)
	for i, c := range d {
		if i > 0 && (len(d)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, c)
	}
	return b
}
