package movement

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coalition-wargame/coalition/domain"
)

// MercenaryJudge is the author name of the mercenary judge's posts (M15): it may order every
// mercenary army that has no other controller.
const MercenaryJudge = "mercenary-judge"

// PrivateWindow is how long before the lock a private order is accepted (C2).
const PrivateWindow = 28 * time.Hour

// Options are what the checker needs besides the map and the posts.
type Options struct {
	// Lock is the turn's lock; zero means no time window is checked (C2).
	Lock time.Time
	// Transfers are the private details of transfer orders (T2).
	Transfers []domain.TransferDetail
}

// Line is one line of a post and what became of it.
type Line struct {
	Post    int64
	Author  string
	At      time.Time
	Private bool
	// Number is the line's number in its post, from 1.
	Number int
	Text   string
	Order  domain.Order
	// Army is the ordered army's name as the map spells it, or as written when unknown.
	Army string
	// Index is the army's index in the map, or -1.
	Index     int
	Rejection *domain.Rejection
	Warnings  []domain.Warning
	// Creatures is the transfer's detail, when the order is a transfer and one was sent.
	Creatures map[string]int
}

// Accepted reports whether the line was accepted (it may still be superseded later).
func (l *Line) Accepted() bool { return l.Rejection == nil }

// Orders is every line of a turn's posts, checked, in the order the posts were made.
type Orders struct {
	Lines []Line
	// Effective holds, per army index, the index in Lines of the order that counts, or -1.
	Effective []int
	// m is the map the orders were checked on; fighting marks its armies in a battle this
	// turn (M1) and targets gives the army each effective intercept waits for, for Resolve.
	m        *domain.Map
	fighting []bool
	targets  []target
}

// target is the army index an army's effective intercept order waits for.
type target struct{ army, target int32 }

// targetOf gives the army that army i's effective intercept waits for, or -1.
func (o *Orders) targetOf(i int) int32 {
	for _, t := range o.targets {
		if int(t.army) == i {
			return t.target
		}
	}
	return -1
}

// Rejections lists every line that was not accepted, superseded ones included.
func (o *Orders) Rejections() []domain.Rejection {
	var out []domain.Rejection
	for i := range o.Lines {
		if r := o.Lines[i].Rejection; r != nil {
			out = append(out, *r)
		}
	}
	return out
}

// Warnings lists the warnings of every line that counts.
func (o *Orders) Warnings() []domain.Warning {
	var out []domain.Warning
	for _, i := range o.Effective {
		if i >= 0 {
			out = append(out, o.Lines[i].Warnings...)
		}
	}
	slices.SortStableFunc(out, func(a, b domain.Warning) int {
		if a.Post != b.Post {
			return int(a.Post - b.Post)
		}
		return a.Line - b.Line
	})
	return out
}

// board is the map as it stands when the turn opens, indexed for the checks.
type board struct {
	m *domain.Map
	// names is a hash table of army index + 1 (0 = empty slot) by exact name (nameHash),
	// with linear probing; its length is a power of two at least twice the number of armies.
	names []int32
	// shift takes a name's slot from the top bits of its hash.
	shift uint8
	// head and next list the armies on each square: head[square index] is the first army's
	// index + 1 (0 = none), next[army] the next one's.
	head, next []int32
	// fighting marks armies that share their square with an enemy (M1).
	fighting []bool
	order    []postKey
	// ints is the array the names, head and next tables share.
	ints []int32
	// arena is where the turn's orders take their legs and routes from.
	arena arena
}

// boards keeps boards, with their tables, between calls: only the fighting marks and the
// orders' legs and routes outlive a check.
var boards = sync.Pool{New: func() any { return new(board) }}

// newBoard indexes the map; release gives the board back when it is no longer used.
func newBoard(m *domain.Map) *board {
	n := len(m.Armies)
	slots, shift := 8, 61
	for slots < 2*n {
		slots, shift = slots*2, shift-1
	}
	b := boards.Get().(*board)
	// the board's three int32 tables share one array
	b.ints = resize(b.ints, slots+m.Grid.Size()+n)
	ints := b.ints
	b.m, b.names, b.shift, b.head, b.next = m, ints[:slots:slots], uint8(shift), ints[slots:slots+m.Grid.Size()], ints[slots+m.Grid.Size():]
	b.fighting = make([]bool, n)
	for i := range m.Armies {
		if k := b.slot(m.Armies[i].Name); b.names[k] == 0 {
			b.names[k] = int32(i + 1)
		}
	}
	for i := n - 1; i >= 0; i-- {
		a := &m.Armies[i]
		if m.Grid.Contains(a.At) {
			k := m.Grid.Index(a.At)
			b.next[i] = b.head[k]
			b.head[k] = int32(i + 1)
		}
	}
	for i := range m.Armies {
		for j := b.next[i]; j > 0; j = b.next[j-1] {
			if domain.Enemy(m.Armies[i].Side, m.Armies[j-1].Side) {
				b.fighting[i], b.fighting[j-1] = true, true
			}
		}
	}
	return b
}

// release gives the board back for another check, keeping none of the map or the orders.
func (b *board) release() {
	b.m, b.fighting, b.arena = nil, nil, arena{}
	boards.Put(b)
}

// slot is where the names table holds the army called name, or the empty slot where it
// would go.
func (b *board) slot(name string) int {
	mask := len(b.names) - 1
	for k := int(nameHash(name) >> b.shift); ; k = (k + 1) & mask {
		if j := b.names[k]; j == 0 || b.m.Armies[j-1].Name == name {
			return k
		}
	}
}

// nameHash mixes a name's length with its first and last eight bytes, which tell the armies of
// a map apart ("Darkhand12", "Coalition 3"), into its top bits: a collision costs only a probe.
func nameHash(s string) uint64 {
	h := uint64(len(s))
	if n := len(s); n >= 8 {
		h ^= load64(s) ^ bits.RotateLeft64(load64(s[n-8:]), 29)
	} else {
		for i := 0; i < n; i++ {
			h = h<<8 | uint64(s[i])
		}
	}
	return h * 0x9e3779b97f4a7c15
}

// load64 reads the first eight bytes of s, little-endian.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// army finds an army by name as players write it, or -1.
func (b *board) army(name string) int {
	if j := b.names[b.slot(name)]; j > 0 {
		return int(j - 1)
	}
	for i := range b.m.Armies {
		if domain.SameName(b.m.Armies[i].Name, name) {
			return i
		}
	}
	return -1
}

// first gives the first army on square s, in map order, or -1; b.next[id] - 1 is the next.
func (b *board) first(s domain.Square) int32 {
	if !b.m.Grid.Contains(s) {
		return -1
	}
	return b.head[b.m.Grid.Index(s)] - 1
}

// Check reads and checks every post of a turn against the map as it stands when the turn
// opens, then marks the orders that later orders supersede (M2).
func Check(m *domain.Map, posts []domain.Post, opt Options) *Orders {
	b := newBoard(m)
	order := postOrder(b.order[:0], posts)
	b.order = order
	out := &Orders{Effective: make([]int, len(m.Armies)), m: m, fighting: b.fighting}
	for i := range out.Effective {
		out.Effective[i] = -1
	}
	// every leg follows an arrow (">", "->" or "=>"), so there are at most as many as '>'
	lines, arrows := 0, 0
	for i := range posts {
		lines += strings.Count(posts[i].Text, "\n") + 1
		arrows += strings.Count(posts[i].Text, ">")
	}
	out.Lines = takeLines(lines)
	b.arena.legs = make([]domain.Leg, 0, arrows)
	b.arena.squares = make([]domain.Square, 0, lines)
	for _, k := range order {
		out.Lines = b.checkPost(out.Lines, &posts[k.i], opt)
	}
	for i := range out.Lines {
		l := &out.Lines[i]
		if !l.Accepted() || l.Index < 0 {
			continue
		}
		if prev := out.Effective[l.Index]; prev >= 0 {
			p := &out.Lines[prev]
			p.Rejection = &domain.Rejection{Army: p.Army, Post: p.Post, Line: p.Number, Code: domain.CodeSuperseded, Text: p.Text,
				Message: fmt.Sprintf("a later order for %s counts instead (post %d, line %d)", p.Army, l.Post, l.Number)}
		}
		out.Effective[l.Index] = i
	}
	for i, li := range out.Effective {
		if li >= 0 && out.Lines[li].Order.Kind == domain.InterceptKind {
			out.targets = append(out.targets, target{int32(i), int32(b.army(out.Lines[li].Order.Target))})
		}
	}
	b.release()
	return out
}

// linePool keeps the lines of released orders (Orders.Release) for the next Check.
var linePool sync.Pool

// takeLines is an empty list of lines with room for n, from linePool when it has one.
func takeLines(n int) []Line {
	if p, _ := linePool.Get().(*[]Line); p != nil && cap(*p) >= n {
		return (*p)[:0]
	}
	return make([]Line, 0, n)
}

// Release gives the memory of the orders' lines back for the next Check, which saves the
// collector a turn's worth of lines. Neither o nor its lines may be used afterwards: copy what
// is kept of them (rejections, warnings) first.
func (o *Orders) Release() {
	if o == nil || cap(o.Lines) == 0 {
		return
	}
	lines := o.Lines[:cap(o.Lines)]
	clear(lines) // checkPost writes lines in place, over zeroed memory
	o.Lines = nil
	linePool.Put(&lines)
}

// postKey is a post's place in the order of a turn's posts: by time, then id (M2, M7).
type postKey struct {
	sec  int64
	nsec int32
	i    int32
	id   int64
}

// postOrder appends the indexes of the posts to order by time, then id, as domain.Post.Before
// (M2, M7), keeping the order of posts that tie.
func postOrder(order []postKey, posts []domain.Post) []postKey {
	mono := false
	for i := range posts {
		t := posts[i].At
		// a time with a monotonic reading compares by it with another that has one
		mono = mono || t != t.Round(0)
		order = append(order, postKey{t.Unix(), int32(t.Nanosecond()), int32(i), posts[i].ID})
	}
	if mono {
		slices.SortStableFunc(order, func(x, y postKey) int {
			p, q := &posts[x.i], &posts[y.i]
			if c := p.At.Compare(q.At); c != 0 {
				return c
			}
			return cmp.Compare(p.ID, q.ID)
		})
		return order
	}
	if len(order) > 64 {
		slices.SortFunc(order, func(x, y postKey) int {
			switch {
			case x.before(y):
				return -1
			case y.before(x):
				return 1
			}
			return 0
		})
		return order
	}
	// a turn has a few dozen posts: insertion sort compares the fewest
	for i := 1; i < len(order); i++ {
		k := order[i]
		j := i
		for ; j > 0 && k.before(order[j-1]); j-- {
			order[j] = order[j-1]
		}
		order[j] = k
	}
	return order
}

// before orders post keys by time, then id, then index.
func (k postKey) before(o postKey) bool {
	switch {
	case k.sec != o.sec:
		return k.sec < o.sec
	case k.nsec != o.nsec:
		return k.nsec < o.nsec
	case k.id != o.id:
		return k.id < o.id
	}
	return k.i < o.i
}

// CheckPost checks the lines of one post on their own, as the order desk does while a player
// types: the same checks as Check, without superseding.
func CheckPost(m *domain.Map, post domain.Post, opt Options) []Line {
	b := newBoard(m)
	lines := b.checkPost(nil, &post, opt)
	b.release()
	return lines
}

func (b *board) checkPost(dst []Line, p *domain.Post, opt Options) []Line {
	late := !opt.Lock.IsZero() && p.At.After(opt.Lock)
	early := !opt.Lock.IsZero() && p.Private && p.At.Before(opt.Lock.Add(-PrivateWindow))
	rest := p.Text
	for n := 1; ; n++ {
		raw := rest
		end := strings.IndexByte(rest, '\n')
		if end >= 0 {
			raw, rest = rest[:end], rest[end+1:]
		}
		text := raw
		if !trimmed(text) {
			text = trimSpace(text)
		}
		if text != "" {
			// the line is written in place: a Line is large, and copying one that holds
			// pointers costs write barriers while the collector runs
			if len(dst) < cap(dst) {
				dst = dst[:len(dst)+1]
			} else {
				dst = append(dst, Line{})
			}
			l := &dst[len(dst)-1]
			l.Post, l.Author, l.At, l.Private, l.Number, l.Text, l.Index = p.ID, p.Author, p.At, p.Private, n, text, -1
			b.checkLine(l, opt, late, early)
		}
		if end < 0 {
			return dst
		}
	}
}

func (l *Line) reject(code domain.Code, format string, args ...any) {
	l.Rejection = &domain.Rejection{Army: l.Army, Post: l.Post, Line: l.Number, Code: code, Text: l.Text, Message: fmt.Sprintf(format, args...)}
}

func (l *Line) warn(format string, args ...any) {
	l.Warnings = append(l.Warnings, domain.Warning{Army: l.Army, Post: l.Post, Line: l.Number, Message: fmt.Sprintf(format, args...)})
}

func (b *board) checkLine(l *Line, opt Options, late, early bool) {
	// the order is read in place and kept only if the line is not rejected before its checks
	perr := parseLine(&l.Order, l.Text, &b.arena)
	o := &l.Order
	name := o.Army
	if perr != nil || late || early {
		if perr != nil {
			name = perr.Army
		}
		*o = domain.Order{}
	}
	if name == "" {
		name = l.Author
	}
	l.Army = name
	idx := b.army(name)
	if idx >= 0 {
		l.Army = b.m.Armies[idx].Name
	}
	switch {
	case late:
		l.reject(domain.CodeTooLate, "posted at %s, after the lock at %s: it belongs to no turn (C2)", stamp(l.At), stamp(opt.Lock))
		return
	case early:
		l.reject(domain.CodePrivateTooEarly, "sent privately at %s: private orders are accepted only in the last 28 hours before the lock at %s (3.1, C2)", stamp(l.At), stamp(opt.Lock))
		return
	}
	if perr != nil {
		l.reject(perr.Code, "%s", perr.Message)
		return
	}
	if idx < 0 {
		if o.Army == "" {
			l.reject(domain.CodeUnknownArmy, "there is no army named %s: put the army's name first, like \"Sai Rei: 3D > 5E\"", name)
		} else {
			l.reject(domain.CodeUnknownArmy, "there is no army named %q on the map", name)
		}
		return
	}
	l.Index = idx
	a := &b.m.Armies[idx]
	if !mayOrder(a, l.Author) {
		l.reject(domain.CodeNotController, "%s does not control %s: only its controller's orders count (3.3.6, 5.4.1)", l.Author, a.Name)
		return
	}
	if len(a.Controllers) > 1 {
		l.reject(domain.CodeConflictingControllers, "%s has %d controllers (%s), so it ignores every order this turn (3.3.6)", a.Name, len(a.Controllers), strings.Join(a.Controllers, ", "))
		return
	}
	if b.fighting[idx] && o.Kind != domain.Hold {
		l.reject(domain.CodeInBattle, "%s is in a battle at %s this turn: it fights and takes no other action (3.2.1)", a.Name, a.At)
		return
	}
	switch o.Kind {
	case domain.MoveKind:
		b.checkMove(l, a)
	case domain.InterceptKind:
		b.checkIntercept(l, a)
	case domain.Transfer:
		b.checkTransfer(l, a, opt)
	}
}

func mayOrder(a *domain.Army, author string) bool {
	if a.ControlledBy(author) {
		return true
	}
	return a.Side == domain.Mercenary && len(a.Controllers) == 0 && domain.SameName(author, MercenaryJudge)
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

func (b *board) checkMove(l *Line, a *domain.Army) {
	o := &l.Order
	g := b.m.Grid
	if o.From != a.At {
		l.reject(domain.CodeWrongOrigin, "%s is on %s, not %s: a move starts from the army's own square (3.2.2.5)", a.Name, a.At, o.From)
		return
	}
	if !legsValid(g, o) {
		b.legProblem(l, o)
		return
	}
	dest := o.Legs[len(o.Legs)-1].To
	if o.Keyword == domain.JointEngage {
		if a.Rank.Leader() {
			l.reject(domain.CodeJointEngageRank, "%s is a %s army: armies of rank Captain/Evincar or above cannot joint engage (3.2.5.4)", a.Name, a.Rank.Name(a.Side))
			return
		}
		if s := b.m.SiteAt(dest); s != nil {
			l.reject(domain.CodeJointEngageSite, "%s is %s: a joint engagement may not target a base, portal or town (3.2.5.4)", dest, s.Name)
			return
		}
	}
	for i, leg := range o.Legs {
		kw, named := domain.NoKeyword, ""
		if i == len(o.Legs)-1 {
			kw, named = o.Keyword, o.Named
		}
		if !b.checkKeyword(l, a, leg.To, kw, named, i) {
			return
		}
	}
	if len(o.Legs) == 1 && o.Legs[0].To == o.From && o.Keyword != domain.JointEngage {
		l.warn("%s > %s does not move: %s holds", o.From, o.From, a.Name)
	}
}

// legsValid reports, in one pass, whether every leg of a move is on the map, in range and
// follows a good route: what legProblem finds wrong otherwise.
func legsValid(g domain.Grid, o *domain.Order) bool {
	prev := o.From
	for _, leg := range o.Legs {
		if !g.Contains(leg.To) || domain.Steps(prev, leg.To) > 3 || len(leg.Route) > 4 {
			return false
		}
		if r := leg.Route; len(r) > 0 {
			if r[0] != prev || r[len(r)-1] != leg.To {
				return false
			}
			for i := range r {
				if !g.Contains(r[i]) || i > 0 && domain.Steps(r[i-1], r[i]) != 1 {
					return false
				}
				for j := 0; j < i; j++ {
					if r[j] == r[i] {
						return false
					}
				}
			}
		}
		prev = leg.To
	}
	return true
}

// legProblem rejects a move whose legs legsValid finds wrong, with the first problem in the
// order the rules check them: squares off the map, legs out of range, bad routes.
func (b *board) legProblem(l *Line, o *domain.Order) {
	g := b.m.Grid
	for _, leg := range o.Legs {
		if !g.Contains(leg.To) {
			l.reject(domain.CodeOffMap, "%s is off the map: squares run from 1A to %s (1.2)", leg.To, domain.Square{Col: uint8(g.Cols), Row: uint8(g.Rows)})
			return
		}
		for _, r := range leg.Route {
			if !g.Contains(r) {
				l.reject(domain.CodeOffMap, "the route passes %s, which is off the map (1.2)", r)
				return
			}
		}
	}
	prev := o.From
	for i, leg := range o.Legs {
		if n := domain.Steps(prev, leg.To); n > 3 {
			l.reject(domain.CodeOutOfRange, "%s > %s is %d steps; an army moves at most 3 a turn, and never diagonally (3.2.2.1)%s", prev, leg.To, n, legNote(o, i))
			return
		}
		if len(leg.Route) > 4 {
			l.reject(domain.CodeOutOfRange, "the route %s is %d steps; an army moves at most 3 a turn (3.2.2.1)", routeText(leg.Route), len(leg.Route)-1)
			return
		}
		prev = leg.To
	}
	prev = o.From
	for _, leg := range o.Legs {
		if msg := routeProblem(prev, leg); msg != "" {
			l.reject(domain.CodeBadRoute, "%s", msg)
			return
		}
		prev = leg.To
	}
}

func legNote(o *domain.Order, i int) string {
	if len(o.Legs) < 2 {
		return ""
	}
	return fmt.Sprintf(" — leg %d of the long move", i+1)
}

func routeText(r []domain.Square) string {
	parts := make([]string, len(r))
	for i, s := range r {
		parts[i] = s.String()
	}
	return "(" + strings.Join(parts, " - ") + ")"
}

// routeProblem checks a written route (M4): from the leg's start to its destination, both
// included, in single steps, never visiting a square twice.
func routeProblem(from domain.Square, leg domain.Leg) string {
	r := leg.Route
	if len(r) == 0 {
		return ""
	}
	if r[0] != from {
		return fmt.Sprintf("the route %s must start at the army's square %s (3.2.2.4)", routeText(r), from)
	}
	if r[len(r)-1] != leg.To {
		return fmt.Sprintf("the route %s must end at the destination %s (3.2.2.4)", routeText(r), leg.To)
	}
	for i := 1; i < len(r); i++ {
		if domain.Steps(r[i-1], r[i]) != 1 {
			return fmt.Sprintf("the route %s jumps from %s to %s: each step moves one square, never diagonally (3.2.2.1)", routeText(r), r[i-1], r[i])
		}
		for j := 0; j < i; j++ {
			if r[j] == r[i] {
				return fmt.Sprintf("the route %s visits %s twice", routeText(r), r[i])
			}
		}
	}
	return ""
}

// checkKeyword applies M5 to the destination of the move's leg-th leg, judged against the map
// as posted.
func (b *board) checkKeyword(l *Line, a *domain.Army, dest domain.Square, kw domain.Keyword, named string, leg int) bool {
	var enemy, friend *domain.Army
	for id := b.first(dest); id >= 0; id = b.next[id] - 1 {
		o := &b.m.Armies[id]
		if o == a {
			continue
		}
		if domain.Enemy(a.Side, o.Side) {
			if enemy == nil {
				enemy = o
			}
		} else if friend == nil {
			friend = o
		}
	}
	switch {
	case enemy != nil:
		switch kw {
		case domain.NoKeyword:
			l.reject(domain.CodeMissingEngage, "%s holds the enemy army %s: add \"engage %s\" to move there (3.2.2.2)%s", dest, enemy.Name, enemy.Name, legNote(&l.Order, leg))
			return false
		case domain.Replace:
			l.reject(domain.CodeWrongKeyword, "%s holds the enemy army %s: write \"engage %s\", not replace (3.2.2.2)", dest, enemy.Name, enemy.Name)
			return false
		}
		b.checkNamed(l, kw, named, dest, enemy, friend)
	case friend != nil:
		switch kw {
		case domain.NoKeyword:
			l.reject(domain.CodeMissingReplace, "%s holds your side's army %s: add \"replace %s\" if you expect it to leave (3.2.2.2)%s", dest, friend.Name, friend.Name, legNote(&l.Order, leg))
			return false
		case domain.Engage:
			l.reject(domain.CodeWrongKeyword, "%s holds %s, an army of your own side: write \"replace %s\", not engage (3.2.2.2)", dest, friend.Name, friend.Name)
			return false
		}
		b.checkNamed(l, kw, named, dest, enemy, friend)
	default:
		switch kw {
		case domain.Engage:
			l.warn("%s is empty as posted: \"engage\" is not needed (3.2.2.2)", dest)
		case domain.Replace:
			l.warn("%s is empty as posted: \"replace\" is not needed (3.2.2.2)", dest)
		}
	}
	return true
}

func (b *board) checkNamed(l *Line, kw domain.Keyword, named string, dest domain.Square, enemy, friend *domain.Army) {
	if named == "" || kw == domain.NoKeyword {
		return
	}
	for id := b.first(dest); id >= 0; id = b.next[id] - 1 {
		if domain.SameName(b.m.Armies[id].Name, named) {
			return
		}
	}
	occupant := enemy
	if occupant == nil {
		occupant = friend
	}
	l.warn("%s is held by %s, not %s: the move goes ahead whoever is there (3.2.2.5)", dest, occupant.Name, named)
}

func (b *board) checkIntercept(l *Line, a *domain.Army) {
	t := b.army(l.Order.Target)
	if t < 0 {
		l.reject(domain.CodeUnknownArmy, "there is no army named %q to intercept", l.Order.Target)
		return
	}
	x := &b.m.Armies[t]
	if x == a || !domain.Enemy(a.Side, x.Side) {
		l.reject(domain.CodeInterceptNotEnemy, "%s is not an enemy of %s: only an enemy army can be intercepted (3.2.3.1)", x.Name, a.Name)
		return
	}
	l.Order.Target = x.Name
}

func (b *board) checkTransfer(l *Line, a *domain.Army, opt Options) {
	o := &l.Order
	t := b.army(o.Target)
	if t < 0 {
		l.reject(domain.CodeUnknownArmy, "there is no army named %q to transfer to", o.Target)
		return
	}
	r := &b.m.Armies[t]
	o.Target = r.Name
	switch {
	case !b.m.Grid.Contains(o.At):
		l.reject(domain.CodeOffMap, "%s is off the map (1.2)", o.At)
	case r == a || domain.Enemy(a.Side, r.Side):
		l.reject(domain.CodeTransferNotFriendly, "%s is not a friendly army of %s: troops go only to an adjacent friend (3.2.4.1)", r.Name, a.Name)
	case r.At != o.At:
		l.reject(domain.CodeTransferWrongSquare, "%s is on %s, not %s (3.2.4.2)", r.Name, r.At, o.At)
	case !domain.Adjacent(a.At, r.At):
		l.reject(domain.CodeTransferNotAdjacent, "%s on %s is not next to %s on %s: transfers need touching squares, corners included (3.2.4.1)", r.Name, r.At, a.Name, a.At)
	case b.m.SiteAt(a.At) != nil:
		l.reject(domain.CodeTransferFromSite, "%s is on %s: an army on a base, portal or town cannot send troops (3.2.4.1)", a.Name, b.m.SiteAt(a.At).Name)
	}
	if l.Rejection != nil {
		return
	}
	var detail map[string]int
	for _, d := range opt.Transfers {
		if d.Post == l.Post && domain.SameName(d.Army, a.Name) {
			detail = d.Creatures
		}
	}
	if detail == nil {
		l.warn("no private detail of which creatures to send was received: the transfer does nothing (3.2.4.2)")
		return
	}
	if code, msg := domain.TransferRoom(a, r, detail); code != "" {
		l.reject(code, "%s", msg)
		return
	}
	l.Creatures = detail
}
