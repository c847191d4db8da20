// The order desk's guides: the squares an army can reach this turn (one leg, 3.2.2.1) and by a
// long move's second leg (3.2.2.3, M14), each judged by the movement checker itself on a
// hypothetical order, and the list of the reader's armies with or without an accepted order.

package campaign

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/movement"
)

// ReachSquare is a square an order could send the army to, and what the checker says of it.
type ReachSquare struct {
	Square domain.Square `json:"square"`
	// Legs is 1 for a square reached this turn, 2 for one reached by a long move's second leg
	// (next turn, M14).
	Legs   int         `json:"legs"`
	Status string      `json:"status"`
	Code   domain.Code `json:"code,omitempty"`
	Reason string      `json:"reason,omitempty"`
	// Line is the order the desk would write for it.
	Line string `json:"line"`
}

// ReachKeyword is the status of a square an order reaches only with engage or replace (M5):
// the reason says which, and Line has it.
const ReachKeyword = "keyword"

// ReachView is where an army may go: every square within one leg, and within two.
type ReachView struct {
	Army     string        `json:"army"`
	From     domain.Square `json:"from"`
	Turn     int           `json:"turn"`
	Version  int64         `json:"version"`
	Fighting bool          `json:"fighting"`
	Squares  []ReachSquare `json:"squares"`
}

type reachKey struct {
	campaign, version int64
	army, author      string
}

// maxReachCache is how many reach views the cache keeps before it starts again.
const maxReachCache = 512

// Reach lists the squares an army can be ordered to, with the movement checker's answer for
// each (the reason when it would refuse), for whoever may order the army and the judges. It is
// cached per map version: the checker's answer changes only with the map and its controllers.
func (s *Service) Reach(ctx context.Context, a Actor, id int64, name string) (*ReachView, error) {
	var out *ReachView
	err := s.store.Read(ctx, func(r Reader) error {
		c, x, t, m, err := s.latestMap(r, a, id)
		if err != nil {
			return err
		}
		army := m.Army(name)
		if army == nil {
			return domain.Errorf(domain.ErrNotFound, "there is no army named %q on the map", name)
		}
		if err := x.need("see where "+army.Name+" may go (its controllers and the judges only)", maySeeReach(x, army)); err != nil {
			return err
		}
		author := postsAs(x)
		if author == "" {
			// a judge sees the checker's answer as the army's controller would get it
			author = movement.MercenaryJudge
			if len(army.Controllers) > 0 {
				author = army.Controllers[0]
			}
		}
		k := reachKey{campaign: id, version: c.MapVersion, army: army.Name, author: domain.NameKey(author)}
		if out = s.cachedReach(k); out != nil {
			return nil
		}
		out = reach(m, army, author, t, s.now())
		out.Version = c.MapVersion
		s.keepReach(k, out)
		return nil
	})
	return out, err
}

// latestMap reads the campaign, what the actor is in it, its latest turn and that turn's map
// with the controllers of now.
func (s *Service) latestMap(r Reader, a Actor, id int64) (*Campaign, access, *Turn, *domain.Map, error) {
	c, x, err := campaignAccess(r, a, id)
	if err != nil {
		return nil, x, nil, nil, err
	}
	t, err := r.LatestTurn(id)
	if err != nil {
		return nil, x, nil, nil, err
	}
	m, err := s.controlledMap(r, id, t)
	return c, x, t, m, err
}

func (s *Service) cachedReach(k reachKey) *ReachView {
	s.notes.mu.Lock()
	defer s.notes.mu.Unlock()
	return s.notes.reach[k]
}

func (s *Service) keepReach(k reachKey, v *ReachView) {
	s.notes.mu.Lock()
	defer s.notes.mu.Unlock()
	if s.notes.reach == nil || len(s.notes.reach) >= maxReachCache {
		s.notes.reach = map[reachKey]*ReachView{}
	}
	s.notes.reach[k] = v
}

// reach asks the checker about a move of army to every square within one leg, then to every
// square within two legs through a square the first pass accepted: one CheckPost a pass, as if
// author posted the lines now.
func reach(m *domain.Map, army *domain.Army, author string, t *Turn, now time.Time) *ReachView {
	v := &ReachView{Army: army.Name, From: army.At, Turn: t.Number, Fighting: fightingArmies(m)[army.Name], Squares: []ReachSquare{}}
	var one, two []domain.Square
	// mids are each line's squares before its destination
	var mids [][]domain.Square
	for r := 1; r <= 6; r++ {
		for _, sq := range m.Grid.RingSquares(nil, army.At, r) {
			switch steps := domain.Steps(army.At, sq); {
			case steps >= 1 && steps <= 3:
				one = append(one, sq)
			case steps >= 4 && steps <= 6:
				two = append(two, sq)
			}
		}
	}
	// the lines are written as a newcomer writes them, without a keyword (M5): a square that
	// needs one is reachable with it, and the checker's reason says which
	move := func(keyword bool, legs ...domain.Square) string {
		o := domain.Order{Army: army.Name, Kind: domain.MoveKind, From: army.At}
		for _, l := range legs {
			o.Legs = append(o.Legs, domain.Leg{To: l})
		}
		if keyword {
			o.Keyword, o.Named = keywordFor(m, army, legs[len(legs)-1])
		}
		return movement.Format(o)
	}
	check := func(lines []string, legs int, squares []domain.Square) {
		if len(lines) == 0 {
			return
		}
		post := domain.Post{Author: author, At: now, Text: strings.Join(lines, "\n")}
		for _, l := range movement.CheckPost(m, post, movement.Options{Lock: lockTime(t)}) {
			rs := ReachSquare{Square: squares[l.Number-1], Legs: legs, Status: "accepted", Line: l.Text}
			switch r := l.Rejection; {
			case r != nil && (r.Code == domain.CodeMissingEngage || r.Code == domain.CodeMissingReplace):
				rs.Status, rs.Code, rs.Reason = ReachKeyword, r.Code, r.Message
				rs.Line = move(true, append(mids[l.Number-1], rs.Square)...)
			case r != nil:
				rs.Status, rs.Code, rs.Reason = "rejected", r.Code, r.Message
			case len(l.Warnings) > 0:
				rs.Status, rs.Reason = "warning", l.Warnings[0].Message
			}
			v.Squares = append(v.Squares, rs)
		}
	}
	lines := make([]string, len(one))
	mids = make([][]domain.Square, len(one))
	for i, sq := range one {
		lines[i] = move(false, sq)
	}
	check(lines, 1, one)
	// a long move passes through squares it may stop on without a keyword (M14)
	var via []domain.Square
	for _, rs := range v.Squares {
		if rs.Status == "accepted" || rs.Status == "warning" {
			via = append(via, rs.Square)
		}
	}
	// a long move's first leg goes as far as it can (3.2.2.3)
	slices.SortStableFunc(via, func(p, q domain.Square) int { return domain.Steps(army.At, q) - domain.Steps(army.At, p) })
	lines, two = lines[:0], slices.DeleteFunc(two, func(sq domain.Square) bool {
		return !slices.ContainsFunc(via, func(mid domain.Square) bool { return domain.Steps(mid, sq) <= 3 })
	})
	mids = mids[:0]
	for _, sq := range two {
		i := slices.IndexFunc(via, func(mid domain.Square) bool { return domain.Steps(mid, sq) <= 3 })
		lines = append(lines, move(false, via[i], sq))
		mids = append(mids, []domain.Square{via[i]})
	}
	check(lines, 2, two)
	return v
}

// keywordFor is the keyword and army a move of army to sq needs by the map as it stands (M5):
// engage an enemy there, replace a friend, nothing on an empty square.
func keywordFor(m *domain.Map, army *domain.Army, sq domain.Square) (domain.Keyword, string) {
	kw, named := domain.NoKeyword, ""
	for i := range m.Armies {
		o := &m.Armies[i]
		if o.At != sq || o.Name == army.Name {
			continue
		}
		if o.Side != army.Side {
			return domain.Engage, o.Name
		}
		kw, named = domain.Replace, o.Name
	}
	return kw, named
}

// DeskArmy is one of the reader's armies on the order desk: whether an order of his counts for
// it this turn, and which, or whether it fights (M1).
type DeskArmy struct {
	Name   string        `json:"name"`
	At     domain.Square `json:"at"`
	Status string        `json:"status"`
	Post   int64         `json:"post,omitempty"`
	Line   int           `json:"line,omitempty"`
	Text   string        `json:"text,omitempty"`
}

// DeskView is the order desk's list of the reader's armies.
type DeskView struct {
	Turn   int        `json:"turn"`
	Armies []DeskArmy `json:"armies"`
}

// The statuses of an army on the order desk.
const (
	DeskOrdered  = "ordered"
	DeskNone     = "none"
	DeskFighting = "fighting"
)

// OrderDesk lists the armies the actor may order, each with the order of his that counts for it
// this turn (the latest accepted one, M2), none, or the battle it fights (M1).
func (s *Service) OrderDesk(ctx context.Context, a Actor, id int64) (*DeskView, error) {
	var out *DeskView
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, t, m, err := s.latestMap(r, a, id)
		if err != nil {
			return err
		}
		if err := x.need("use the order desk (players, team leaders and the mercenary judge)", maySeeOrderDesk(x)); err != nil {
			return err
		}
		posts, err := r.Posts(id, t.Number)
		if err != nil {
			return err
		}
		var mine []domain.Post
		var transfers []domain.TransferDetail
		for i := range posts {
			if p := &posts[i]; p.WithdrawnAt == nil && p.AccountID == a.Account.ID {
				mine = append(mine, p.Domain())
				transfers = append(transfers, details(p)...)
			}
		}
		orders := movement.Check(m, mine, movement.Options{Lock: lockTime(t), Transfers: transfers})
		defer orders.Release()
		fighting := fightingArmies(m)
		author := postsAs(x)
		out = &DeskView{Turn: t.Number, Armies: []DeskArmy{}}
		for i := range m.Armies {
			army := &m.Armies[i]
			if !mayOrder(author, army) {
				continue
			}
			d := DeskArmy{Name: army.Name, At: army.At, Status: DeskNone}
			switch li := orders.Effective[i]; {
			case fighting[army.Name]:
				d.Status = DeskFighting
			case li >= 0:
				l := &orders.Lines[li]
				d.Status, d.Post, d.Line, d.Text = DeskOrdered, l.Post, l.Number, l.Text
			}
			out.Armies = append(out.Armies, d)
		}
		return nil
	})
	return out, err
}
