package campaign

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/movement"
	"github.com/coalition-wargame/coalition/turn"
)

// MaxPostText is the longest post text accepted, in bytes.
const MaxPostText = 20000

// PostRequest is a post as a player sends it: classic text, or structured orders that the
// server renders to the classic format; either may carry transfers' private detail (T2).
type PostRequest struct {
	Text      string           `json:"text,omitempty"`
	Orders    []OrderInput     `json:"orders,omitempty"`
	Private   bool             `json:"private"`
	Transfers []TransferDetail `json:"transfers,omitempty"`
}

// OrderInput is one structured order. Army may be left empty for the author's namesake
// army (3.2.2.5); Target is the army named after engage/replace, the army to intercept, or
// the receiver of a transfer; Creatures is a transfer's private detail.
type OrderInput struct {
	Army      string           `json:"army,omitempty"`
	Kind      domain.OrderKind `json:"kind"`
	From      domain.Square    `json:"from,omitzero"`
	Legs      []domain.Leg     `json:"legs,omitempty"`
	Keyword   string           `json:"keyword,omitempty"`
	Target    string           `json:"target,omitempty"`
	At        domain.Square    `json:"at,omitzero"`
	Note      string           `json:"note,omitempty"`
	Creatures map[string]int   `json:"creatures,omitempty"`
}

// nameBreakers are the characters an army name in a structured order may not hold: the
// classic line would read them as its own punctuation.
const nameBreakers = ":;>()\n\r"

// line renders a structured order as the classic line, or says what is missing or off the
// map (a structured order is bad input, not a rejected order, when a square is off the grid).
func (o OrderInput) line(i int, grid domain.Grid) (string, error) {
	bad := func(format string, args ...any) (string, error) {
		return "", domain.Errorf(domain.ErrInvalid, "order %d: %s", i+1, fmt.Sprintf(format, args...))
	}
	squares := []domain.Square{o.From, o.At}
	for _, l := range o.Legs {
		squares = append(squares, l.To)
		squares = append(squares, l.Route...)
	}
	for _, sq := range squares {
		if !sq.IsZero() && !grid.Contains(sq) {
			return bad("%s is off the map: squares run from 1A to %s (1.2)", sq, domain.Square{Col: uint8(grid.Cols), Row: uint8(grid.Rows)})
		}
	}
	d := domain.Order{Army: strings.TrimSpace(o.Army), Kind: o.Kind}
	target := strings.TrimSpace(o.Target)
	for _, n := range []string{d.Army, target} {
		if strings.ContainsAny(n, nameBreakers) {
			return bad("the name %q may not contain any of %s or a line break: they carry meaning in an order line (3.2.2.5)", n, strings.TrimSpace(nameBreakers))
		}
	}
	if strings.ContainsAny(o.Note, "\n\r") {
		return bad("a note may not contain a line break")
	}
	switch o.Kind {
	case domain.MoveKind:
		if o.From.IsZero() || len(o.Legs) == 0 {
			return bad("a move needs \"from\" and at least one leg with \"to\"")
		}
		for _, l := range o.Legs {
			if l.To.IsZero() {
				return bad("every leg needs \"to\"")
			}
		}
		d.From, d.Legs = o.From, o.Legs
		switch strings.ToLower(strings.TrimSpace(o.Keyword)) {
		case "":
		case "engage":
			d.Keyword = domain.Engage
		case "replace":
			d.Keyword = domain.Replace
		case "joint", "joint engage", "joint-engage":
			d.Keyword = domain.JointEngage
		default:
			return bad("%q is not a keyword: use engage, replace or joint", o.Keyword)
		}
		if d.Keyword == domain.NoKeyword && target != "" {
			return bad("a target army goes with a keyword (engage or replace)")
		}
		d.Named = target
	case domain.InterceptKind:
		if target == "" {
			return bad("an intercept needs the target army")
		}
		d.Target = target
	case domain.Transfer:
		if target == "" || o.At.IsZero() {
			return bad("a transfer needs the receiving army (\"target\") and its square (\"at\")")
		}
		d.Target, d.At = target, o.At
	case domain.Hold:
		d.Note = strings.TrimSpace(o.Note)
		if d.Note == "" {
			d.Note = "no move"
		}
		if _, err := movement.ParseLine(d.Note); err != nil {
			return bad("%q is not a hold line: write \"no move\" or \"fighting\"", d.Note)
		}
	default:
		return bad("%q is not a kind of order: use move, intercept, transfer or hold", o.Kind)
	}
	if o.Kind != domain.Transfer && len(o.Creatures) > 0 {
		return bad("creatures go only with a transfer")
	}
	if o.Kind != domain.Hold && strings.TrimSpace(o.Note) != "" {
		return bad("a note goes only with a hold (\"no move\" or \"fighting\"); a %s order's line has no place for one (3.2.2.5)", o.Kind)
	}
	return movement.Format(d), nil
}

// normalize turns a request into the post's text and transfer details.
func (req *PostRequest) normalize(author string, grid domain.Grid) (string, []TransferDetail, error) {
	text := strings.TrimSpace(req.Text)
	transfers := append([]TransferDetail(nil), req.Transfers...)
	switch {
	case text != "" && len(req.Orders) > 0:
		return "", nil, domain.Errorf(domain.ErrInvalid, "send either \"text\" or \"orders\", not both")
	case text == "" && len(req.Orders) == 0:
		return "", nil, domain.Errorf(domain.ErrInvalid, "the post is empty: send \"text\" with one order a line, or \"orders\"")
	case len(req.Orders) > 0:
		lines := make([]string, len(req.Orders))
		for i, o := range req.Orders {
			l, err := o.line(i, grid)
			if err != nil {
				return "", nil, err
			}
			lines[i] = l
			if o.Kind == domain.Transfer && len(o.Creatures) > 0 {
				army := strings.TrimSpace(o.Army)
				if army == "" {
					army = author
				}
				transfers = append(transfers, TransferDetail{Army: army, Creatures: o.Creatures})
			}
		}
		text = strings.Join(lines, "\n")
	}
	if len(text) > MaxPostText {
		return "", nil, domain.Errorf(domain.ErrInvalid, "the post is %d bytes long: at most %d", len(text), MaxPostText)
	}
	if !utf8.ValidString(text) {
		return "", nil, domain.Errorf(domain.ErrInvalid, "the post is not valid UTF-8 text")
	}
	for _, t := range transfers {
		if strings.TrimSpace(t.Army) == "" {
			return "", nil, domain.Errorf(domain.ErrInvalid, "a transfer detail needs the sending army")
		}
		if len(t.Creatures) == 0 {
			return "", nil, domain.Errorf(domain.ErrInvalid, "the transfer detail of %s names no creatures", t.Army)
		}
		for c, n := range t.Creatures {
			if strings.TrimSpace(c) == "" || n <= 0 {
				return "", nil, domain.Errorf(domain.ErrInvalid, "the transfer detail of %s must name each creature with a positive count (%q: %d)", t.Army, c, n)
			}
		}
	}
	return text, transfers, nil
}

// LineOutcome is what became of one line of a post as posted: accepted, accepted with
// warnings, or rejected with a code and a message (movement.CheckPost).
type LineOutcome struct {
	Line     int         `json:"line"`
	Text     string      `json:"text"`
	Army     string      `json:"army"`
	Status   string      `json:"status"`
	Code     domain.Code `json:"code,omitempty"`
	Message  string      `json:"message,omitempty"`
	Warnings []string    `json:"warnings,omitempty"`
}

// PostView is a post as shown to someone allowed to see it.
type PostView struct {
	ID          int64            `json:"id"`
	Turn        int              `json:"turn"`
	Author      string           `json:"author"`
	At          time.Time        `json:"at"`
	Private     bool             `json:"private"`
	Text        string           `json:"text"`
	Source      string           `json:"source"`
	Transfers   []TransferDetail `json:"transfers,omitempty"`
	WithdrawnAt *time.Time       `json:"withdrawn_at,omitempty"`
	Replaces    int64            `json:"replaces,omitempty"`
}

// PostOutcome is the answer to a post or a check: the post (nil for a check) and each
// line's outcome.
type PostOutcome struct {
	Post  *PostView     `json:"post,omitempty"`
	Lines []LineOutcome `json:"lines"`
}

func viewPost(p *Post, withTransfers bool) *PostView {
	v := &PostView{ID: p.ID, Turn: p.Turn, Author: p.Author, At: p.At, Private: p.Private, Text: p.Text, Source: p.Source, WithdrawnAt: p.WithdrawnAt, Replaces: p.Replaces}
	if withTransfers && len(p.Transfers) > 0 {
		v.Transfers = p.Transfers
	}
	return v
}

// poster checks that the actor may post orders in the campaign now, and returns the turn
// that takes them and the author name the post carries.
func poster(r Reader, a Actor, id int64) (*Campaign, *Turn, string, error) {
	c, x, err := campaignAccess(r, a, id)
	if err != nil {
		return nil, nil, "", err
	}
	if err := x.need("post orders in "+c.Name+": only its players, team leaders and mercenary judge post orders", x.member.Plays() || x.has(MercenaryJudge)); err != nil {
		return nil, nil, "", err
	}
	switch c.Status {
	case Paused:
		return nil, nil, "", domain.Errorf(domain.ErrConflict, "%s is paused (%s): no orders are taken until a judge resumes it", c.Name, c.PauseReason)
	case Finished:
		return nil, nil, "", domain.Errorf(domain.ErrConflict, "%s is finished: no more orders are taken", c.Name)
	}
	t, err := r.LatestTurn(id)
	if err != nil {
		return nil, nil, "", err
	}
	if t.Status != Open {
		return nil, nil, "", domain.Errorf(domain.ErrConflict, "no turn of %s is open", c.Name)
	}
	author := a.Account.Name
	if !x.member.Plays() && x.has(MercenaryJudge) {
		author = movement.MercenaryJudge
	}
	return c, t, author, nil
}

// lockTime is the lock time the posting window is judged against (C2), zero when the turn
// does not check it.
func lockTime(t *Turn) time.Time {
	if !t.CheckWindow {
		return time.Time{}
	}
	return t.LockAt
}

// check checks a post line by line against the turn's map with the control list as it
// stands at the post's time (5.4.1, M2).
func check(r Reader, t *Turn, p *Post) ([]LineOutcome, error) {
	m, _, err := controlledMapAt(r, t, p.At, 0)
	if err != nil {
		return nil, err
	}
	lines := movement.CheckPost(m, p.Domain(), movement.Options{Lock: lockTime(t), Transfers: details(p)})
	out := make([]LineOutcome, 0, len(lines))
	for _, l := range lines {
		o := LineOutcome{Line: l.Number, Text: l.Text, Army: l.Army, Status: "accepted"}
		if l.Rejection != nil {
			o.Status, o.Code, o.Message = "rejected", l.Rejection.Code, l.Rejection.Message
		}
		for _, w := range l.Warnings {
			o.Warnings = append(o.Warnings, w.Message)
		}
		if o.Status == "accepted" && len(o.Warnings) > 0 {
			o.Status = "warning"
		}
		out = append(out, o)
	}
	return out, nil
}

func details(p *Post) []domain.TransferDetail {
	var out []domain.TransferDetail
	for _, t := range p.Transfers {
		out = append(out, domain.TransferDetail{Post: p.ID, Army: t.Army, Creatures: t.Creatures})
	}
	return out
}

func (s *Service) newPost(r Reader, a Actor, id int64, req PostRequest) (*Turn, *Post, error) {
	_, t, author, err := poster(r, a, id)
	if err != nil {
		return nil, nil, err
	}
	text, transfers, err := req.normalize(author, t.Snapshot.Grid)
	if err != nil {
		return nil, nil, err
	}
	m, err := amended(r, t)
	if err != nil {
		return nil, nil, err
	}
	for _, tr := range transfers {
		if m.Army(tr.Army) == nil {
			return nil, nil, domain.Errorf(domain.ErrInvalid, "the transfer detail names %q, which is not an army on the map", tr.Army)
		}
	}
	src := "text"
	if len(req.Orders) > 0 {
		src = "json"
	}
	p := &Post{CampaignID: id, Turn: t.Number, AccountID: a.Account.ID, Author: author, At: s.now(), Private: req.Private, Text: text, Source: src, Transfers: transfers}
	return t, p, nil
}

// Post records a post in the open turn and answers each line's outcome at once. A line
// for an army the author does not control is recorded all the same, rejected
// not_controller, for the judge (5.4.1); a post after the lock time is recorded too_late
// (C2).
func (s *Service) Post(ctx context.Context, a Actor, id int64, req PostRequest) (*PostOutcome, error) {
	var out *PostOutcome
	err := s.store.Write(ctx, func(tx Tx) error {
		t, p, err := s.newPost(tx, a, id, req)
		if err != nil {
			return err
		}
		if err := tx.CreatePost(p); err != nil {
			return err
		}
		lines, err := check(tx, t, p)
		if err != nil {
			return err
		}
		out = &PostOutcome{Post: viewPost(p, true), Lines: lines}
		return s.audit(tx, id, a, "post.create", "post %d in turn %d (%d lines, private: %v)", p.ID, t.Number, len(lines), p.Private)
	})
	return out, err
}

// CheckPost answers each line's outcome as Post would, without saving anything.
func (s *Service) CheckPost(ctx context.Context, a Actor, id int64, req PostRequest) (*PostOutcome, error) {
	var out *PostOutcome
	err := s.store.Read(ctx, func(r Reader) error {
		t, p, err := s.newPost(r, a, id, req)
		if err != nil {
			return err
		}
		lines, err := check(r, t, p)
		out = &PostOutcome{Lines: lines}
		return err
	})
	return out, err
}

// ownPost loads a post its author may still change: in the open turn, before the lock time.
func (s *Service) ownPost(tx Tx, a Actor, id, postID int64) (*Post, *Turn, error) {
	_, t, _, err := poster(tx, a, id)
	if err != nil {
		return nil, nil, err
	}
	p, err := tx.Post(postID)
	if errors.Is(err, domain.ErrNotFound) || (err == nil && p.CampaignID != id) {
		return nil, nil, domain.Errorf(domain.ErrNotFound, "there is no post %d in this campaign", postID)
	}
	if err != nil {
		return nil, nil, err
	}
	switch {
	case p.AccountID != a.Account.ID:
		if p.Private {
			return nil, nil, domain.Errorf(domain.ErrNotFound, "there is no post %d in this campaign", postID)
		}
		return nil, nil, domain.Errorf(domain.ErrForbidden, "post %d is %s's: only its author may change it", postID, p.Author)
	case p.Turn != t.Number:
		return nil, nil, domain.Errorf(domain.ErrConflict, "post %d belongs to turn %d, which is locked", postID, p.Turn)
	case p.WithdrawnAt != nil:
		return nil, nil, domain.Errorf(domain.ErrConflict, "post %d was already withdrawn or edited", postID)
	case s.now().After(t.LockAt):
		return nil, nil, domain.Errorf(domain.ErrConflict, "the lock time %s has passed: post %d can no longer be changed (3.1)", turn.Stamp(t.LockAt), postID)
	}
	return p, t, nil
}

// EditPost replaces the author's own post with a new version: the old one is withdrawn and
// the new one is a post of its own, made now, so that it counts as the latest order (M2).
func (s *Service) EditPost(ctx context.Context, a Actor, id, postID int64, req PostRequest) (*PostOutcome, error) {
	var out *PostOutcome
	err := s.store.Write(ctx, func(tx Tx) error {
		old, _, err := s.ownPost(tx, a, id, postID)
		if err != nil {
			return err
		}
		t, p, err := s.newPost(tx, a, id, req)
		if err != nil {
			return err
		}
		if err := tx.WithdrawPost(old.ID, p.At); err != nil {
			return err
		}
		p.Replaces = old.ID
		if err := tx.CreatePost(p); err != nil {
			return err
		}
		lines, err := check(tx, t, p)
		if err != nil {
			return err
		}
		out = &PostOutcome{Post: viewPost(p, true), Lines: lines}
		return s.audit(tx, id, a, "post.edit", "post %d replaces post %d in turn %d", p.ID, old.ID, t.Number)
	})
	return out, err
}

// WithdrawPost withdraws the author's own post: it counts for nothing at the lock.
func (s *Service) WithdrawPost(ctx context.Context, a Actor, id, postID int64) (*PostView, error) {
	var out *PostView
	err := s.store.Write(ctx, func(tx Tx) error {
		p, t, err := s.ownPost(tx, a, id, postID)
		if err != nil {
			return err
		}
		now := s.now()
		if err := tx.WithdrawPost(p.ID, now); err != nil {
			return err
		}
		p.WithdrawnAt = &now
		out = viewPost(p, true)
		return s.audit(tx, id, a, "post.withdraw", "withdrew post %d of turn %d", p.ID, t.Number)
	})
	return out, err
}

// Posts lists the posts of a turn the actor may see: public posts; private ones only to
// their author and the judges until the turn is locked (C2). Transfer details only to the
// author's side and the judges (T2).
func (s *Service) Posts(ctx context.Context, a Actor, id int64, n int) ([]PostView, error) {
	var out []PostView
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, t, err := turnAccess(r, a, id, n)
		if err != nil {
			return err
		}
		posts, err := r.Posts(id, n)
		if err != nil {
			return err
		}
		members, err := r.Members(id)
		if err != nil {
			return err
		}
		side := map[int64]domain.Side{}
		for _, m := range members {
			switch {
			case m.Plays():
				side[m.AccountID] = m.Side
			case m.Has(MercenaryJudge):
				side[m.AccountID] = domain.Mercenary
			}
		}
		mine := func(p *Post) bool { return a.Account != nil && p.AccountID == a.Account.ID }
		for i := range posts {
			p := &posts[i]
			if p.Private && t.Status == Open && !mine(p) && !x.judge() {
				continue
			}
			own := mine(p) || x.judge() || (x.side() != "" && side[p.AccountID] == x.side())
			out = append(out, *viewPost(p, own))
		}
		return nil
	})
	return nonNil(out), err
}

// ResultsView is a turn's battles and the judge's results for them.
type ResultsView struct {
	Turn    int                   `json:"turn"`
	Battles []domain.Battle       `json:"battles"`
	Results []domain.BattleResult `json:"results"`
	// Warnings say where a result asks for a kill or capture the rules do not allow, and what
	// the lock will do instead (R33).
	Warnings []string `json:"warnings"`
}

// Results shows the battles fought in a turn and their results: to the judges at any time,
// to everyone once the turn is locked.
func (s *Service) Results(ctx context.Context, a Actor, id int64, n int) (*ResultsView, error) {
	var out *ResultsView
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, t, err := turnAccess(r, a, id, n)
		if err != nil {
			return err
		}
		if t.Status == Open {
			if err := x.need("see the results of a turn before its lock (judges only)", x.judge()); err != nil {
				return err
			}
		}
		rs, err := r.Results(t.ID)
		if err != nil {
			return err
		}
		m, err := amended(r, t)
		if err != nil {
			return err
		}
		out = &ResultsView{Turn: n, Battles: nonNil(battle.Fought(m)), Results: []domain.BattleResult{}, Warnings: []string{}}
		for _, res := range rs {
			out.Results = append(out.Results, res.Result)
			if t.Status != Open {
				continue // the lock report has the notes
			}
			notes, err := settleTrial(m, t.Seed, res.Result)
			if err != nil {
				notes = []string{err.Error()}
			}
			for _, n := range notes {
				out.Warnings = append(out.Warnings, "At "+res.Result.Square.String()+": "+n)
			}
		}
		return nil
	})
	return out, err
}

// EnterResult records the battle judge's result for one battle fought in the open turn,
// replacing an earlier one for the same square. It must fit its battle: the square holds a
// battle this turn and every army it names fights there (B1).
func (s *Service) EnterResult(ctx context.Context, a Actor, id int64, n int, res domain.BattleResult) (*ResultsView, error) {
	err := s.store.Write(ctx, func(tx Tx) error {
		c, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.need("enter battle results (battle judges only)", x.has(BattleJudge)); err != nil {
			return err
		}
		if c.Status == Finished {
			return domain.Errorf(domain.ErrConflict, "the campaign is finished")
		}
		t, err := tx.Turn(id, n)
		if err != nil {
			return err
		}
		if t.Status != Open {
			return domain.Errorf(domain.ErrConflict, "turn %d is locked: its results can no longer change", n)
		}
		m, err := amended(tx, t)
		if err != nil {
			return err
		}
		if err := fitResult(m, &res); err != nil {
			return err
		}
		if _, err := settleTrial(m, t.Seed, res); err != nil {
			return err
		}
		if err := tx.PutResult(&Result{TurnID: t.ID, Result: res, EnteredBy: a.Name(), EnteredAt: s.now()}); err != nil {
			return err
		}
		winner := res.Winner
		if winner == "" {
			winner = "nobody"
		}
		return s.audit(tx, id, a, "result.enter", "result for the battle at %s in turn %d: %s won", res.Square, n, winner)
	})
	if err != nil {
		return nil, err
	}
	return s.Results(ctx, a, id, n)
}

// settleTrial settles one result on a copy of the map as the lock will: an error is a result
// the lock could not apply; the notes say where the rules change what the judge wrote (R33).
func settleTrial(m *domain.Map, seed domain.Seed, res domain.BattleResult) ([]string, error) {
	for _, b := range battle.Fought(m) {
		if b.Square != res.Square {
			continue
		}
		lg, err := battle.Settle(m.Clone(), []domain.Battle{b}, []domain.BattleResult{res}, seed.Draws())
		if err != nil || len(lg.Settled) == 0 {
			return nil, err
		}
		return lg.Settled[0].Notes, nil
	}
	return nil, domain.Errorf(domain.ErrInvalid, "no battle is fought at %s this turn", res.Square)
}

// fitResult checks a result against the battles fought on the map (B1), and spells army
// names as the map does.
func fitResult(m *domain.Map, res *domain.BattleResult) error {
	var b *domain.Battle
	fought := battle.Fought(m)
	for i := range fought {
		if fought[i].Square == res.Square {
			b = &fought[i]
		}
	}
	if b == nil {
		return domain.Errorf(domain.ErrInvalid, "no battle is fought at %s this turn", res.Square)
	}
	in := func(what, name string) (string, error) {
		for _, n := range b.Armies {
			if domain.SameName(n, name) {
				return n, nil
			}
		}
		return "", domain.Errorf(domain.ErrInvalid, "%s %q does not fight in the battle at %s (%s)", what, name, b.Square, strings.Join(b.Armies, ", "))
	}
	var err error
	if res.Winner != "" {
		if res.Winner, err = in("the winner", res.Winner); err != nil {
			return err
		}
	}
	losses := map[string]map[string]int{}
	for army, cs := range res.Losses {
		name, err := in("the army with losses", army)
		if err != nil {
			return err
		}
		ar := m.Army(name)
		for creature, k := range cs {
			if k < 0 {
				return domain.Errorf(domain.ErrInvalid, "%s cannot lose %d %s: losses are not negative", name, k, creature)
			}
			if ar.Troops != nil && ar.Troop(creature) == nil {
				return domain.Errorf(domain.ErrInvalid, "%s has no %s", name, creature)
			}
		}
		losses[name] = cs
	}
	if res.Losses != nil {
		res.Losses = losses
	}
	for _, at := range []*domain.Attempt{res.Kill, res.Capture} {
		if at == nil {
			continue
		}
		if at.By, err = in("the attacker", at.By); err != nil {
			return err
		}
		if at.Target, err = in("the target", at.Target); err != nil {
			return err
		}
	}
	if res.Leaves != nil {
		if res.Leaves.Army, err = in("the army leaving", res.Leaves.Army); err != nil {
			return err
		}
	}
	for _, sq := range []domain.Square{res.LoserTo} {
		if !sq.IsZero() && !m.Grid.Contains(sq) {
			return domain.Errorf(domain.ErrInvalid, "%s is off the map", sq)
		}
	}
	return nil
}

// MayOrder checks structured orders before they are posted: the order desk refuses an order
// for an army the author does not control now (5.3, 5.4), where a text post would record it
// for the judge (5.4.1).
func (s *Service) MayOrder(ctx context.Context, a Actor, id int64, orders []OrderInput) error {
	return s.store.Read(ctx, func(r Reader) error {
		_, t, author, err := poster(r, a, id)
		if err != nil {
			return err
		}
		m, err := s.controlledMap(r, id, t)
		if err != nil {
			return err
		}
		for i, o := range orders {
			name := strings.TrimSpace(o.Army)
			if name == "" {
				name = author
			}
			army := m.Army(name)
			if army == nil {
				return domain.Errorf(domain.ErrInvalid, "order %d: there is no army named %q on the map", i+1, name)
			}
			mine := army.ControlledBy(author) ||
				(army.Side == domain.Mercenary && len(army.Controllers) == 0 && domain.SameName(author, movement.MercenaryJudge))
			if !mine {
				return domain.Errorf(domain.ErrForbidden, "order %d: %s does not control %s, so may not order it (5.3, 5.4.1)", i+1, author, army.Name)
			}
		}
		return nil
	})
}
