// Rules M1–M5, M13 (rank, site), M14, T1, T2 and C2: the reference checks of a turn's posts.

package refengine

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/movement"
)

// mercenaryJudge is the author of the mercenary judge's posts (M15, R16).
const mercenaryJudge = "mercenary-judge"

// order is one accepted line: the army it orders and where it was written.
type order struct {
	army string
	post *domain.Post
	line int
	o    domain.Order
	// hold is set for a line that orders nothing (3.2.1: "no move"; R4: a move to the army's
	// own square without Joint Engage).
	hold bool
	// detail is a transfer's private detail (3.2.4.2, T2); nil when none was sent (R8).
	detail map[string]int
}

// key is the order's place for M7's tie-breaks 3 and 4: post time, then post id, then line.
func (o *order) key() key { return key{at: o.post.At, post: o.post.ID, line: o.line} }

// key orders moves for M7 steps 3–4.
type key struct {
	at   time.Time
	post int64
	line int
}

func (k key) cmp(o key) int {
	return cmp.Or(k.at.Compare(o.at), cmp.Compare(k.post, o.post), cmp.Compare(k.line, o.line))
}

// check reads every post and keeps each army's counting order (M2, C2, M1–M5, M13, M14, T1–T2).
func (l *lock) check() {
	posts := slices.Clone(l.in.Posts)
	// M2: "the latest accepted one counts (by post time, then post id; within one post, the
	// last line)".
	slices.SortStableFunc(posts, func(a, b domain.Post) int {
		return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.ID, b.ID))
	})
	for pi := range posts {
		p := &posts[pi]
		late, early := false, false
		if !l.in.Lock.IsZero() {
			// C2 / 3.1: "until precisely 24 hours inclusive after the battle deadline": a post
			// at the lock counts, one after it is too late.
			late = p.At.After(l.in.Lock)
			// C2: a private order "is accepted only in the last 28 hours before the lock, both
			// ends included".
			early = !late && p.Private && p.At.Before(l.in.Lock.Add(-28*time.Hour))
		}
		for i, raw := range strings.Split(p.Text, "\n") {
			if strings.TrimSpace(raw) == "" {
				continue
			}
			l.checkLine(p, i+1, raw, late, early)
		}
	}
}

// lineArmy is the name a rejection of a line is filed under: the army it names (as the map
// spells it when the army exists), else the author's own army (3.2.2.5), else the name as
// written or the author.
func (l *lock) lineArmy(written, author string) string {
	if written == "" {
		if a := l.m.Army(author); a != nil {
			return a.Name
		}
		return author
	}
	if a := l.m.Army(written); a != nil {
		return a.Name
	}
	return written
}

func (l *lock) checkLine(p *domain.Post, line int, raw string, late, early bool) {
	// R1: a post outside the windows belongs to no turn; its lines are not read further.
	if late || early {
		written := ""
		if name, _, ok := strings.Cut(strings.TrimSpace(raw), ":"); ok {
			written = strings.TrimSpace(name)
		}
		code := domain.CodeTooLate
		if early {
			code = domain.CodePrivateTooEarly
		}
		l.reject(l.lineArmy(written, p.Author), p.ID, line, code)
		return
	}
	// M2: syntax first.
	o, perr := movement.ParseLine(raw)
	if perr != nil {
		l.reject(l.lineArmy(perr.Army, p.Author), p.ID, line, domain.CodeParseError)
		return
	}
	// M2: then the army. 3.2.2.5: "If you and the army have the same name, you may leave this
	// off."
	name := o.Army
	if name == "" {
		name = p.Author
	}
	a := l.m.Army(name)
	if a == nil {
		l.reject(name, p.ID, line, domain.CodeUnknownArmy)
		return
	}
	// M2: then the controller. R16: a mercenary with no controller listed takes the
	// mercenary judge's orders (M15).
	if !l.mayOrder(a, p.Author) {
		l.reject(a.Name, p.ID, line, domain.CodeNotController)
		return
	}
	// 3.3.6 / M2: "If an army has two or more otherwise legal controllers, it will ignore all
	// orders".
	if len(a.Controllers) >= 2 {
		l.reject(a.Name, p.ID, line, domain.CodeConflictingControllers)
		return
	}
	// M1: an army in a battle this turn fights; every other order is in_battle. R5: a hold
	// line orders nothing and is accepted.
	if l.fighting[a.Name] != nil && o.Kind != domain.Hold {
		l.reject(a.Name, p.ID, line, domain.CodeInBattle)
		return
	}
	ord := &order{army: a.Name, post: p, line: line, o: o}
	var code domain.Code
	switch o.Kind {
	case domain.Hold:
		ord.hold = true
	case domain.MoveKind:
		code = l.checkMove(a, ord)
	case domain.InterceptKind:
		code = l.checkIntercept(a, o)
	case domain.Transfer:
		code = l.checkTransfer(a, ord)
	}
	if code != "" {
		l.reject(a.Name, p.ID, line, code)
		return
	}
	// M2: the latest accepted order counts; the earlier one is superseded. A rejected order
	// (returned above) replaces nothing.
	if prev := l.orders[a.Name]; prev != nil {
		l.reject(a.Name, prev.post.ID, prev.line, domain.CodeSuperseded)
		if prev.o.Kind == domain.Transfer {
			l.transfers = slices.DeleteFunc(l.transfers, func(t *order) bool { return t == prev })
		}
	}
	l.orders[a.Name] = ord
	if o.Kind == domain.Transfer {
		l.transfers = append(l.transfers, ord)
	}
}

// mayOrder reports whether author controls army a (M2, M15, R16).
func (l *lock) mayOrder(a *domain.Army, author string) bool {
	if a.Side == domain.Mercenary && len(a.Controllers) == 0 {
		return domain.SameName(author, mercenaryJudge)
	}
	return a.ControlledBy(author)
}

// checkMove checks a move in M2's order: origin (M3), squares (G1), range (G2), route (M4),
// keywords (M5, M14), then the joint engage restrictions (M13).
func (l *lock) checkMove(a *domain.Army, ord *order) domain.Code {
	o := ord.o
	// M3: the order names the army's current square.
	if o.From != a.At {
		return domain.CodeWrongOrigin
	}
	// G1: every square named must be on the map.
	for _, leg := range o.Legs {
		if !l.m.Grid.Contains(leg.To) {
			return domain.CodeOffMap
		}
		for _, s := range leg.Route {
			if !l.m.Grid.Contains(s) {
				return domain.CodeOffMap
			}
		}
	}
	// G2 / 3.2.2.1: each leg (M14: "each leg must be legal under G2") is at most 3 steps.
	prev := a.At
	for _, leg := range o.Legs {
		if domain.Steps(prev, leg.To) > 3 {
			return domain.CodeOutOfRange
		}
		prev = leg.To
	}
	// M4: a written route starts on the leg's start, ends on its destination and is a chain
	// of single steps; R3: it visits no square twice; R2: longer than 3 steps is out of range.
	prev = a.At
	for _, leg := range o.Legs {
		if r := leg.Route; len(r) > 0 {
			if r[0] != prev || r[len(r)-1] != leg.To {
				return domain.CodeBadRoute
			}
			seen := map[domain.Square]bool{r[0]: true}
			for i := 1; i < len(r); i++ {
				if domain.Steps(r[i-1], r[i]) != 1 || seen[r[i]] {
					return domain.CodeBadRoute
				}
				seen[r[i]] = true
			}
			if len(r)-1 > 3 {
				return domain.CodeOutOfRange
			}
		}
		prev = leg.To
	}
	// M13 / 3.2.5.4: rank and site restrictions of a joint engage, checked
	// before the legs' keywords (the project's order; no ruling orders them).
	if o.Keyword == domain.JointEngage {
		if a.Rank.Leader() {
			return domain.CodeJointEngageRank
		}
		if l.m.SiteAt(o.Legs[len(o.Legs)-1].To) != nil {
			return domain.CodeJointEngageSite
		}
	}
	// M5 / M14: keywords are judged against the map as posted (the map as the turn opened);
	// the keyword at the end of the line belongs to the last leg, earlier legs have none.
	for i, leg := range o.Legs {
		kw := domain.NoKeyword
		if i == len(o.Legs)-1 {
			kw = o.Keyword
		}
		enemy, friend := false, false
		for _, b := range l.armiesAt(leg.To) {
			if b.Name == a.Name {
				continue
			}
			if domain.Enemy(b.Side, a.Side) {
				enemy = true
			} else {
				friend = true
			}
		}
		switch {
		case enemy: // "with or without a friend beside it"
			switch kw {
			case domain.Replace:
				return domain.CodeWrongKeyword
			case domain.NoKeyword:
				return domain.CodeMissingEngage
			}
		case friend:
			switch kw {
			case domain.Engage:
				return domain.CodeWrongKeyword
			case domain.NoKeyword:
				return domain.CodeMissingReplace
			}
		}
	}
	// R4: a move to the army's own square without Joint Engage is a hold.
	if o.Keyword != domain.JointEngage {
		still := true
		for _, leg := range o.Legs {
			if leg.To != a.At {
				still = false
			}
		}
		if still {
			ord.hold = true
		}
	}
	return ""
}

// checkIntercept: 3.2.3.1, R6 (an unknown target), M9 (only an enemy can be intercepted).
func (l *lock) checkIntercept(a *domain.Army, o domain.Order) domain.Code {
	t := l.m.Army(o.Target)
	if t == nil {
		return domain.CodeUnknownArmy
	}
	if !domain.Enemy(t.Side, a.Side) {
		return domain.CodeInterceptNotEnemy
	}
	return ""
}

// checkTransfer: T1, T2 and R6–R9.
func (l *lock) checkTransfer(a *domain.Army, ord *order) domain.Code {
	o := ord.o
	r := l.m.Army(o.Target)
	if r == nil {
		return domain.CodeUnknownArmy // R6
	}
	// T2 / G1: the square the order names is on the map.
	if !l.m.Grid.Contains(o.At) {
		return domain.CodeOffMap
	}
	// T2: the receiver must be a friendly army other than the sender (2.3.3: "an adjacent
	// friendly army"). T2 orders the checks, the first failure named: receiver exists, square,
	// friendliness, the square named, adjacency, the sender's site, room.
	if r.Name == a.Name || domain.Enemy(r.Side, a.Side) {
		return domain.CodeTransferNotFriendly
	}
	// T2: the receiver must be on the square the order names.
	if o.At != r.At {
		return domain.CodeTransferWrongSquare
	}
	// T1 / G3: sender and receiver are adjacent at the turn's start.
	if !domain.Adjacent(a.At, r.At) {
		return domain.CodeTransferNotAdjacent
	}
	// T1 / 3.2.4.1: "The sending army cannot be in a base, portal, or town."
	if l.m.SiteAt(a.At) != nil {
		return domain.CodeTransferFromSite
	}
	for _, d := range l.in.Transfers {
		if d.Post == ord.post.ID && domain.SameName(d.Army, a.Name) {
			ord.detail = d.Creatures
		}
	}
	if ord.detail == nil {
		return "" // R8: accepted; it does nothing (3.2.4.2)
	}
	if !room(a, r, ord.detail) {
		return domain.CodeTransferNoRoom // T2, R7, R9
	}
	return ""
}

// room reports whether the sender has the troops of a transfer (R7) and the receiver has room
// for them (2.3.3, T2, R9): at most 6 creatures counting dead ones, its slots' sizes and
// counts (counted on troops alive), and a Coalition receiver's colours (2.2.1). An army whose
// troop list is not known cannot be checked and is given the benefit of the doubt.
func room(sender, receiver *domain.Army, creatures map[string]int) bool {
	if sender.Troops == nil {
		return true
	}
	for name, n := range creatures {
		if st := sender.Troop(name); st == nil || st.Alive < n {
			return false // R7
		}
	}
	if receiver.Troops == nil {
		return true
	}
	kinds := len(receiver.Troops)
	var load [domain.Slots + 1]int
	for _, t := range receiver.Troops {
		load[t.Slot] += t.Alive
	}
	for _, name := range sortedKeys(creatures) {
		n := creatures[name]
		st := sender.Troop(name)
		if st == nil || st.Alive < n {
			return false
		}
		if rt := receiver.Troop(name); rt != nil {
			if load[rt.Slot]+n > domain.SlotCapacity(rt.Slot) {
				return false
			}
			load[rt.Slot] += n
			continue
		}
		kinds++
		if kinds > 6 {
			return false
		}
		if receiver.Side == domain.Coalition && !colourAllowed(receiver, st) {
			return false
		}
		slot := slotFor(receiver.Rank, st.Size, n, load)
		if slot == 0 {
			return false
		}
		load[slot] += n
	}
	return true
}

// slotFor is the smallest slot of an army of rank r that fits a creature of size s and has
// room for n more troops (T2), or 0.
func slotFor(r domain.Rank, s domain.Size, n int, load [domain.Slots + 1]int) int {
	for slot := 1; slot <= domain.Slots; slot++ {
		if s.Fits(r.SlotSize(slot)) && load[slot]+n <= domain.SlotCapacity(slot) {
			return slot
		}
	}
	return 0
}

// colourAllowed: 2.2.1, a Coalition army may hold creatures of its own colours; multicoloured
// ones need five-colour membership, artifacts colourless membership.
func colourAllowed(a *domain.Army, t *domain.Troop) bool {
	switch {
	case t.Multicolor():
		return a.HasColor(domain.FiveColor)
	case t.Colorless():
		return a.HasColor(domain.Colorless)
	}
	for _, c := range t.Colors {
		if c.IsMagic() && !a.HasColor(c) {
			return false
		}
	}
	return true
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
