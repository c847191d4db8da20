// Rules M1, M2 and C2: checking a turn's posts line by line, and which order of each army counts.

package movement

import (
	"cmp"
	"fmt"
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
	// Rulings are the battle judge's corrections of lines' outcomes (3.3.3, ruling.go).
	Rulings []Ruling
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
			if len(opt.Rulings) == 0 {
				b.checkLine(l, opt, late, early)
			} else {
				b.checkRuled(l, opt, late, early)
			}
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
	if !mayOrder(a, l.Author) && !b.overrule {
		l.reject(domain.CodeNotController, "%s does not control %s: only its controller's orders count (3.3.6, 5.4.1)", l.Author, a.Name)
		return
	}
	if len(a.Controllers) > 1 && !b.overrule {
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
