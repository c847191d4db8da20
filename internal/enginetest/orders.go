package enginetest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/domain"
)

// Orders are the posts of one turn and the private details of their transfers.
type Orders struct {
	Posts     []domain.Post
	Transfers []domain.TransferDetail
	// Lock is the lock's time, or zero when the turn checks no posting window.
	Lock time.Time
}

// Style says how Posts writes orders.
type Style struct {
	// Realistic orders every army with a legal-looking order of a real campaign (mostly moves of
	// 1–3 steps with the keywords the map needs, some engages and replaces, an intercept or two,
	// a transfer, holds) and leaves out garbage, bad authors and posting windows.
	Realistic bool
	// Crowded writes the realistic style's clean lines, but packs the turn with joint engage
	// pairs, intercepts with their targets passing over the interceptor, replace chains and
	// transfers (crowd), for a Crowded map.
	Crowded bool
}

// mercenaryJudge is movement.MercenaryJudge, repeated so that this package needs only domain.
const mercenaryJudge = "mercenary-judge"

type gen struct {
	r     *rand.Rand
	m     *domain.Map
	style Style
	occ   map[domain.Square][]int
	// lines per author, in the order written
	lines   map[string][]string
	authors []string
	// transfer details waiting for their post: author → army → creatures
	details map[string]map[string]map[string]int
}

// Posts writes one turn of posts for the map, as its players might: every army gets zero, one
// or two lines (the last one counts, M2), grouped into a few posts per author with distinct
// times from start on. Lines mix valid orders with invalid ones of every kind the checker
// rejects, unless the style is realistic.
func Posts(r *rand.Rand, m *domain.Map, start time.Time, firstID int64, style Style) Orders {
	g := &gen{r: r, m: m, style: style, occ: map[domain.Square][]int{}, lines: map[string][]string{}, details: map[string]map[string]map[string]int{}}
	for i := range m.Armies {
		g.occ[m.Armies[i].At] = append(g.occ[m.Armies[i].At], i)
	}
	if style.Crowded {
		g.style.Realistic = true
		g.crowd()
		return g.posts(start, firstID)
	}
	joint := map[int]bool{}
	for range g.r.IntN(3) {
		if g.style.Realistic && len(joint) > 0 {
			break
		}
		g.jointPair(joint)
	}
	if style.Realistic {
		g.oneTransfer(joint)
		g.intercepts(joint, 2)
	}
	for i := range m.Armies {
		if joint[i] {
			continue
		}
		n := 1
		if !style.Realistic {
			n = []int{0, 1, 1, 1, 1, 2}[r.IntN(6)]
		}
		for range n {
			g.order(i)
		}
	}
	return g.posts(start, firstID)
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// author is who writes army a's order: its controller, or someone else now and then.
func (g *gen) author(a *domain.Army) string {
	switch {
	case !g.style.Realistic && g.chance(0.03):
		return []string{"Gazetzot", "Vorath", mercenaryJudge, "Nobody"}[g.r.IntN(4)]
	case len(a.Controllers) == 0:
		return mercenaryJudge
	}
	return a.Controllers[0]
}

// name is how the line names army a: as the map spells it, in other case or spacing, or not at
// all when the author is the army's namesake (3.2.2.5).
func (g *gen) name(a *domain.Army, author string) string {
	if g.style.Realistic {
		return a.Name + ": "
	}
	switch x := g.r.IntN(20); {
	case x == 0 && domain.SameName(author, a.Name):
		return ""
	case x == 1:
		return strings.ToLower(a.Name) + ": "
	case x == 2:
		return "  " + strings.ReplaceAll(a.Name, " ", "   ") + " :"
	case x == 3:
		return ""
	}
	return a.Name + ": "
}

func (g *gen) add(author, line string) {
	if _, ok := g.lines[author]; !ok {
		g.authors = append(g.authors, author)
	}
	g.lines[author] = append(g.lines[author], line)
}

// order writes one line for army i.
func (g *gen) order(i int) {
	a := &g.m.Armies[i]
	author := g.author(a)
	prefix := g.name(a, author)
	fighting := false
	for _, j := range g.occ[a.At] {
		if domain.Enemy(g.m.Armies[j].Side, a.Side) {
			fighting = true
		}
	}
	var line string
	switch {
	case fighting && (g.style.Realistic || g.chance(0.7)):
		line = []string{"fighting", "no move", "in battle", "cannot move, fighting"}[g.r.IntN(4)]
	case g.style.Realistic:
		switch x := g.r.IntN(100); {
		case x < 8:
			line = []string{"no move", "hold", "stays", "No move."}[g.r.IntN(4)]
		case x < 11:
			line = g.intercept(a)
		case x < 13:
			line = g.transfer(a, author)
		case x < 16:
			line = g.longMove(a)
		default:
			line = g.move(a, 1+g.r.IntN(3))
		}
	default:
		switch x := g.r.IntN(100); {
		case x < 8:
			line = []string{"no move", "Holds", "stay", "None.", "fighting", "does not move"}[g.r.IntN(6)]
		case x < 16:
			line = g.intercept(a)
		case x < 24:
			line = g.transfer(a, author)
		case x < 34:
			line = g.longMove(a)
		case x < 42:
			line = g.garbage(a)
		default:
			line = g.move(a, []int{0, 1, 1, 2, 2, 3, 3, 3, 4}[g.r.IntN(9)])
		}
	}
	g.add(author, prefix+line)
}

// sq writes a square as players do: mostly "3D", sometimes "3d", "D3" or "d3".
func (g *gen) sq(s domain.Square) string {
	if g.style.Realistic || g.r.IntN(6) != 0 {
		return s.String()
	}
	return sqText(int(s.Col), int(s.Row), g.r.IntN(3))
}

func sqText(col, row, style int) string {
	letter := byte('A' + row - 1)
	if row < 1 || row > domain.MaxRows {
		letter = 'Z'
	}
	switch style {
	case 0:
		return fmt.Sprintf("%d%c", col, letter|0x20)
	case 1:
		return fmt.Sprintf("%c%d", letter, col)
	case 2:
		return fmt.Sprintf("%c%d", letter|0x20, col)
	}
	return fmt.Sprintf("%d%c", col, letter)
}

// step picks a square d steps from s (G2), on the grid if one exists; ok is false if the
// square is off the grid.
func (g *gen) step(s domain.Square, d int) (col, row int, ok bool) {
	for try := 0; try < 12; try++ {
		dc := g.r.IntN(2*d+1) - d
		dr := d - abs(dc)
		if g.r.IntN(2) == 0 {
			dr = -dr
		}
		col, row = int(s.Col)+dc, int(s.Row)+dr
		if col >= 1 && row >= 1 && col <= g.m.Grid.Cols && row <= g.m.Grid.Rows {
			return col, row, true
		}
	}
	return col, row, false
}

// route is a random shortest route from a to b, both included (M4).
func (g *gen) route(a, b domain.Square) []domain.Square {
	out := []domain.Square{a}
	cur := a
	for cur != b {
		dc, dr := int(b.Col)-int(cur.Col), int(b.Row)-int(cur.Row)
		if dc != 0 && (dr == 0 || g.r.IntN(2) == 0) {
			cur.Col = uint8(int(cur.Col) + sign(dc))
		} else {
			cur.Row = uint8(int(cur.Row) + sign(dr))
		}
		out = append(out, cur)
	}
	return out
}

func (g *gen) routeText(r []domain.Square) string {
	parts := make([]string, len(r))
	for i, s := range r {
		parts[i] = g.sq(s)
	}
	sep := " - "
	if !g.style.Realistic {
		sep = []string{" - ", "-", ", ", " ", " > ", " – "}[g.r.IntN(6)]
	}
	return "(" + strings.Join(parts, sep) + ")"
}

// keyword is the keyword the map as posted needs at dest for army a (M5), and now and then
// (not in the realistic style) a wrong or needless one.
func (g *gen) keyword(a *domain.Army, dest domain.Square) string {
	var enemy, friend *domain.Army
	for _, j := range g.occ[dest] {
		o := &g.m.Armies[j]
		if o == a {
			continue
		}
		if domain.Enemy(o.Side, a.Side) {
			enemy = o
		} else {
			friend = o
		}
	}
	if !g.style.Realistic && g.chance(0.12) {
		names := []string{"", " Darkhand1", " Nobody", " coalition 2"}
		return []string{"", "; engage", "; replace", "; Joint Engage", " attack", ", replaces", "; JE"}[g.r.IntN(7)] + names[g.r.IntN(len(names))]
	}
	switch {
	case enemy != nil:
		return "; engage " + enemy.Name
	case friend != nil:
		return "; replace " + friend.Name
	}
	return ""
}

// move writes a move of d steps, with a written route now and then and the keyword it needs.
func (g *gen) move(a *domain.Army, d int) string {
	from := a.At
	if !g.style.Realistic && g.chance(0.04) {
		from = g.m.Grid.At(g.r.IntN(g.m.Grid.Size())) // wrong origin (M3)
	}
	col, row, ok := g.step(a.At, d)
	if !ok && g.style.Realistic {
		d = 0
		col, row = int(a.At.Col), int(a.At.Row)
		ok = true
	}
	arrow := " > "
	if !g.style.Realistic {
		arrow = []string{" > ", ">", " -> ", " => ", "  >  "}[g.r.IntN(5)]
	}
	if !ok {
		return g.sq(from) + arrow + sqText(col, row, 3) // off the map (G1)
	}
	dest := domain.Square{Col: uint8(col), Row: uint8(row)}
	line := g.sq(from) + arrow + g.sq(dest)
	if d > 0 && g.chance(0.3) {
		rt := g.route(a.At, dest)
		if !g.style.Realistic && g.chance(0.25) && len(rt) > 2 {
			rt = slices.Delete(rt, 1, 2) // a jump: bad route (M4)
		}
		line += " " + g.routeText(rt)
	}
	return line + g.keyword(a, dest)
}

// longMove writes a move of two to four legs (M14).
func (g *gen) longMove(a *domain.Army) string {
	cur := a.At
	var b strings.Builder
	b.WriteString(g.sq(cur))
	legs := 2 + g.r.IntN(3)
	for i := 0; i < legs; i++ {
		col, row, ok := g.step(cur, 1+g.r.IntN(3))
		for try := 0; ok && g.style.Realistic && len(g.occ[domain.Square{Col: uint8(col), Row: uint8(row)}]) > 0 && try < 8; try++ {
			col, row, ok = g.step(cur, 1+g.r.IntN(3)) // players route long moves through empty squares
		}
		if !ok {
			break
		}
		next := domain.Square{Col: uint8(col), Row: uint8(row)}
		b.WriteString(" > ")
		b.WriteString(g.sq(next))
		if g.chance(0.2) {
			b.WriteString(" " + g.routeText(g.route(cur, next)))
		}
		cur = next
	}
	if cur == a.At {
		return "no move"
	}
	return b.String() + g.keyword(a, cur)
}

// near lists the armies within d steps of s that match pred.
func (g *gen) near(s domain.Square, d int, pred func(*domain.Army) bool) []int {
	var out []int
	for i := range g.m.Armies {
		o := &g.m.Armies[i]
		if domain.Steps(o.At, s) <= d && pred(o) {
			out = append(out, i)
		}
	}
	return out
}

func (g *gen) intercept(a *domain.Army) string {
	cands := g.near(a.At, 5, func(o *domain.Army) bool { return domain.Enemy(o.Side, a.Side) })
	if !g.style.Realistic && g.chance(0.15) {
		cands = g.near(a.At, 5, func(o *domain.Army) bool { return true }) // a friend, or itself
	}
	if len(cands) == 0 {
		if g.style.Realistic {
			return "no move"
		}
		return "Intercept Nobody"
	}
	return "Intercept " + g.m.Armies[cands[g.r.IntN(len(cands))]].Name
}

// transfer writes "Transfer to X at 5E" to a neighbour (T1) and records the private detail.
func (g *gen) transfer(a *domain.Army, author string) string {
	d := 1
	if !g.style.Realistic && g.chance(0.2) {
		d = 3
	}
	cands := g.near(a.At, 2*d, func(o *domain.Army) bool {
		return o != a && domain.Ring(o.At, a.At) <= d && (!domain.Enemy(o.Side, a.Side) || !g.style.Realistic)
	})
	if len(cands) == 0 {
		if g.style.Realistic {
			return "no move"
		}
		cands = []int{g.r.IntN(len(g.m.Armies))}
	}
	return g.transferTo(a, &g.m.Armies[cands[g.r.IntN(len(cands))]], author)
}

// transferTo writes a transfer from a to rcv and records its private detail (T2).
func (g *gen) transferTo(a, rcv *domain.Army, author string) string {
	at := rcv.At
	if !g.style.Realistic && g.chance(0.1) {
		at = a.At // wrong square
	}
	if len(a.Troops) > 0 && (g.style.Realistic || g.chance(0.85)) {
		det := map[string]int{}
		for range 1 + g.r.IntN(2) {
			t := a.Troops[g.r.IntN(len(a.Troops))]
			n := 1 + g.r.IntN(max(t.Alive, 1))
			if !g.style.Realistic && g.chance(0.1) {
				n = t.Alive + 100 // more than it has
			}
			det[t.Creature] = min(n, domain.SlotCapacity(t.Slot))
		}
		if g.details[author] == nil {
			g.details[author] = map[string]map[string]int{}
		}
		g.details[author][a.Name] = det
	}
	return "Transfer to " + rcv.Name + " at " + g.sq(at)
}

// oneTransfer orders one transfer between friendly neighbours (T1), if two stand side by
// side off the sites and out of battle, so that a realistic turn has one.
func (g *gen) oneTransfer(taken map[int]bool) {
	free := func(i int) bool {
		a := &g.m.Armies[i]
		return !taken[i] && len(g.occ[a.At]) == 1 && g.m.SiteAt(a.At) == nil
	}
	for _, i := range g.r.Perm(len(g.m.Armies)) {
		a := &g.m.Armies[i]
		if !free(i) || len(a.Troops) == 0 {
			continue
		}
		for j := range g.m.Armies {
			b := &g.m.Armies[j]
			if j != i && free(j) && b.Side == a.Side && domain.Adjacent(a.At, b.At) && slices.Equal(a.Colors, b.Colors) {
				author := g.author(a)
				g.add(author, g.name(a, author)+g.transferTo(a, b, author))
				taken[j] = true // the receiver waits for the troops (T3)
				g.add(g.author(b), g.name(b, g.author(b))+"no move")
				taken[i] = true
				return
			}
		}
	}
}

// intercepts orders n armies out of battle to intercept an enemy within 4 steps (3.2.3.1).
func (g *gen) intercepts(taken map[int]bool, n int) {
	for _, i := range g.r.Perm(len(g.m.Armies)) {
		a := &g.m.Armies[i]
		if n == 0 {
			return
		}
		if taken[i] || len(g.occ[a.At]) > 1 {
			continue
		}
		for _, j := range g.near(a.At, 4, func(o *domain.Army) bool { return domain.Enemy(o.Side, a.Side) }) {
			if len(g.occ[g.m.Armies[j].At]) == 1 {
				author := g.author(a)
				g.add(author, g.name(a, author)+"Intercept "+g.m.Armies[j].Name)
				taken[i] = true
				n--
				break
			}
		}
	}
}

// jointPair orders two armies of one team to joint engage one square (M13): an enemy's
// square, usually, or an empty one, a site, or with an army too high in rank.
func (g *gen) jointPair(taken map[int]bool) {
	t := g.r.IntN(len(g.m.Armies))
	target := g.m.Armies[t].At
	side := domain.Coalition
	if g.m.Armies[t].Side == domain.Coalition || g.chance(0.3) {
		side = domain.Phyrexia
	}
	if !g.style.Realistic && g.chance(0.2) {
		col, row, _ := g.step(target, 1)
		target = domain.Square{Col: uint8(col), Row: uint8(row)}
	}
	cands := g.near(target, 3, func(o *domain.Army) bool {
		return o.Side == side && o.At != target && (!o.Rank.Leader() || (!g.style.Realistic && g.chance(0.1)))
	})
	cands = slices.DeleteFunc(cands, func(i int) bool { return taken[i] })
	if len(cands) < 2 {
		return
	}
	g.r.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	n := 2
	if !g.style.Realistic && len(cands) > 2 && g.chance(0.15) {
		n = 3 // three armies: the joint engagement fails (M13)
	}
	if !g.style.Realistic && g.chance(0.15) {
		n = 1
	}
	for _, i := range cands[:n] {
		a := &g.m.Armies[i]
		author := g.author(a)
		line := g.sq(a.At) + " > " + g.sq(target)
		if g.chance(0.3) {
			line += " " + g.routeText(g.route(a.At, target))
		}
		g.add(author, g.name(a, author)+line+[]string{"; Joint Engage", "; joint engage", "; JE", " Joint Engagement"}[g.r.IntN(4)])
		taken[i] = true
	}
}

// garbage is a line the parser or the checker must reject.
func (g *gen) garbage(a *domain.Army) string {
	s := a.At.String()
	lines := []string{
		s + " to the moon", s + " >", s + " > ", "> " + s, s + " > 5E; dance", s, "E", "5", "0A > 1A",
		s + " > " + s + " > " + s, "Intercept", "Transfer to", "Transfer to Darkhand1", "Transfer at 5E",
		s + " > 3D (", s + " > 3D ()", s + " > 3D (3D - 4Q)", s + " > 3D (x)", "attack!", "¿qué?",
		s + " > 99Z", s + " > 300A", s + " > A", "Intercept " + a.Name, "joint engage",
		"Transfer to " + a.Name + " at " + s, s + " > " + s + "; Joint Engage",
	}
	return lines[g.r.IntN(len(lines))]
}

// posts groups the lines into posts: each author's lines in one to three posts, at distinct
// times (a few share a time and differ by id), some private, some after the lock.
func (g *gen) posts(start time.Time, firstID int64) Orders {
	var out Orders
	if !g.style.Realistic && g.chance(0.3) {
		out.Lock = start.Add(72 * time.Hour)
	}
	used := map[time.Time]bool{}
	var stamps []time.Time
	stamp := func() time.Time {
		if len(stamps) > 0 && !g.style.Realistic && g.chance(0.05) {
			return stamps[g.r.IntN(len(stamps))] // same time, different id: the id decides (M7)
		}
		for {
			t := start.Add(time.Duration(g.r.IntN(72*60)) * time.Minute)
			if !out.Lock.IsZero() && g.chance(0.03) {
				t = out.Lock.Add(time.Duration(1+g.r.IntN(60)) * time.Minute)
			}
			if !used[t] {
				used[t] = true
				stamps = append(stamps, t)
				return t
			}
		}
	}
	id := firstID
	for _, author := range g.authors {
		lines := g.lines[author]
		parts := 1
		if !g.style.Realistic {
			parts = 1 + g.r.IntN(3)
		}
		per := (len(lines) + parts - 1) / parts
		for k := 0; k < len(lines); k += per {
			p := domain.Post{ID: id, Author: author, At: stamp(), Text: strings.Join(lines[k:min(k+per, len(lines))], "\n")}
			id++
			if !g.style.Realistic && g.chance(0.1) {
				p.Private = true
			}
			if !g.style.Realistic && g.chance(0.05) {
				p.Text = "\n  " + strings.ReplaceAll(p.Text, "\n", "\n\n") + "\n"
			}
			out.Posts = append(out.Posts, p)
			for army, det := range g.details[author] {
				if strings.Contains(p.Text, army) || strings.Contains(p.Text, strings.ToLower(army)) {
					out.Transfers = append(out.Transfers, domain.TransferDetail{Post: p.ID, Army: army, Creatures: det})
				}
			}
		}
	}
	slices.SortFunc(out.Transfers, func(a, b domain.TransferDetail) int {
		if a.Post != b.Post {
			return int(a.Post - b.Post)
		}
		return strings.Compare(a.Army, b.Army)
	})
	// posts come in no particular order: Check sorts them by time, then id
	g.r.Shuffle(len(out.Posts), func(i, j int) { out.Posts[i], out.Posts[j] = out.Posts[j], out.Posts[i] })
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
