// Posts: orders posted, checked, edited and withdrawn in the open turn, each line's outcome at once
// (M2, C2, 5.4.1), and who sees which post.

package campaign

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/movement"
	"github.com/coalition-wargame/coalition/turn"
)

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
	// Guidelines are the chapter-6 guidelines a mercenary judge's accepted line breaks (R46).
	Guidelines []turn.GuidelineWarning `json:"guidelines,omitempty"`
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
	// AuthorNow is the screen name the author's account holds now, when he changed it since
	// (1.6): the post keeps the name it was made under.
	AuthorNow string `json:"author_now,omitempty"`
	// Plan marks, for a post made from the mercenary AI's plan, each line as the AI's or as
	// edited by the judge.
	Plan []PlanLine `json:"plan,omitempty"`
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

// poster checks that the actor may post orders in the campaign now, and returns what he is in
// it and the turn that takes them.
func poster(r Reader, a Actor, id int64) (access, *Turn, error) {
	c, x, err := campaignAccess(r, a, id)
	if err != nil {
		return x, nil, err
	}
	if err := x.need("post orders in "+c.Name+": only its players, team leaders and mercenary judge post orders", mayPost(x)); err != nil {
		return x, nil, err
	}
	if err := takesOrders(c, nil); err != nil {
		return x, nil, err
	}
	t, err := r.LatestTurn(id)
	if err != nil {
		return x, nil, err
	}
	return x, t, takesOrders(c, t)
}

// mayPostNow checks, as poster does, that the actor may post orders in campaign c now, in its
// latest turn t.
func mayPostNow(c *Campaign, x access, t *Turn) error {
	if err := x.need("post orders in "+c.Name+": only its players, team leaders and mercenary judge post orders", mayPost(x)); err != nil {
		return err
	}
	return takesOrders(c, t)
}

// takesOrders checks that campaign c takes orders now, in its latest turn t (nil: the turn
// is not known yet).
func takesOrders(c *Campaign, t *Turn) error {
	switch c.Status {
	case Paused:
		return domain.Errorf(domain.ErrConflict, "%s is paused (%s): no orders are taken until a judge resumes it", c.Name, c.PauseReason)
	case Finished:
		return domain.Errorf(domain.ErrConflict, "%s is finished: no more orders are taken", c.Name)
	}
	if t != nil && t.Status != Open {
		return domain.Errorf(domain.ErrConflict, "no turn of %s is open", c.Name)
	}
	return nil
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
	for i := range lines {
		out = append(out, outcome(&lines[i]))
	}
	if p.Author == movement.MercenaryJudge {
		return out, guidelineWarnings(r, t, m, p, out)
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

// newPost makes the post a request asks for, not yet stored. Structured orders go through the
// order desk first (orderDesk), so that no caller can post one for an army its author may not
// order.
func (s *Service) newPost(r Reader, a Actor, id int64, req PostRequest) (*Turn, *Post, error) {
	x, t, err := poster(r, a, id)
	if err != nil {
		return nil, nil, err
	}
	m, err := amended(r, t)
	if err != nil {
		return nil, nil, err
	}
	if len(req.Orders) > 0 {
		if _, err := readControl(r, id, m, s.now(), 0); err != nil {
			return nil, nil, err
		}
	}
	p, err := makePost(x, t, m, req, s.now())
	return t, p, err
}

// makePost makes the post a request asks for at time at on m, turn t's map with the
// controllers of that time, not yet stored and not checked: structured orders through the
// order desk (orderDesk), the text normalized, the transfer details' armies on the map.
func makePost(x access, t *Turn, m *domain.Map, req PostRequest, at time.Time) (*Post, error) {
	author := postsAs(x)
	if len(req.Orders) > 0 {
		if err := orderDesk(m, author, req.Orders); err != nil {
			return nil, err
		}
	}
	text, transfers, err := req.normalize(author, t.Snapshot.Grid())
	if err != nil {
		return nil, err
	}
	for _, tr := range transfers {
		if m.Army(tr.Army) == nil {
			return nil, domain.Errorf(domain.ErrInvalid, "the transfer detail names %q, which is not an army on the map", tr.Army)
		}
	}
	src := "text"
	if len(req.Orders) > 0 {
		src = "json"
	}
	return &Post{CampaignID: t.CampaignID, Turn: t.Number, AccountID: x.actor.Account.ID, Author: author, At: at, Private: req.Private, Text: text, Source: src, Transfers: transfers}, nil
}

// draft makes the post a request asks for at time at, not yet stored, and checks it line by
// line (5.4.1, M2) on m, turn t's map with the controllers of that time, which it does not
// change. Structured orders go through the order desk first (orderDesk), so that no caller can
// post one for an army its author may not order.
func draft(x access, t *Turn, m *domain.Map, req PostRequest, at time.Time) (*Post, []LineOutcome, error) {
	p, err := makePost(x, t, m, req, at)
	if err != nil {
		return nil, nil, err
	}
	lines := movement.CheckPost(m, p.Domain(), movement.Options{Lock: lockTime(t), Transfers: details(p)})
	out := make([]LineOutcome, 0, len(lines))
	for i := range lines {
		out = append(out, outcome(&lines[i]))
	}
	return p, out, nil
}

// preparePost makes and checks the post a request asks for at time at on r's view, the way
// the writer checks again a post whose state changed since its check.
func (s *Service) preparePost(r Reader, a Actor, id int64, req PostRequest, at time.Time) (*Turn, *Post, []LineOutcome, error) {
	x, t, err := poster(r, a, id)
	if err != nil {
		return nil, nil, nil, err
	}
	m, _, err := controlledMapAt(r, t, at, 0)
	if err != nil {
		return nil, nil, nil, err
	}
	p, lines, err := draft(x, t, m, req, at)
	if err != nil {
		return nil, nil, nil, err
	}
	if p.Author == movement.MercenaryJudge {
		err = guidelineWarnings(r, t, m, p, lines)
	}
	return t, p, lines, err
}

// prepareHot makes and checks the post a request asks for at time at on the campaign's hot
// state, without the writer (issue 16).
func (s *Service) prepareHot(ctx context.Context, h *hotCampaign, a Actor, req PostRequest, at time.Time) (*Post, []LineOutcome, error) {
	x := access{actor: a}
	if a.Account != nil {
		x.member = h.member(a.Account.ID)
	}
	if err := mayPostNow(h.c, x, h.turn); err != nil {
		return nil, nil, err
	}
	m, err := h.controlledAt(at)
	if err != nil {
		return nil, nil, err
	}
	p, lines, err := draft(x, h.turn, m, req, at)
	if err != nil {
		return nil, nil, err
	}
	if p.Author == movement.MercenaryJudge {
		err = s.store.Read(ctx, func(r Reader) error { return guidelineWarnings(r, h.turn, m.Clone(), p, lines) })
	}
	return p, lines, err
}

// Post records a post in the open turn and answers each line's outcome at once. A line
// for an army the author does not control is recorded all the same, rejected
// not_controller, for the judge (5.4.1); a post after the lock time is recorded too_late
// (C2). The post is checked on the hot state and committed with the posts made at the same
// time (batch.go); the writer checks it again only if the state moved on meanwhile.
func (s *Service) Post(ctx context.Context, a Actor, id int64, req PostRequest) (*PostOutcome, error) {
	at := s.now()
	h, err := s.hotCampaign(ctx, id)
	if err != nil {
		return nil, err
	}
	j := &postJob{a: a, id: id, req: req, at: at, version: h.version, t: h.turn, claim: ClaimOf(ctx)}
	if j.p, j.lines, err = s.prepareHot(ctx, h, a, req, at); err != nil {
		s.stats.PostsRefused.Add(1)
		return nil, err
	}
	s.commit(j)
	if j.err != nil {
		return nil, j.err
	}
	if m := memoOf(ctx); m != nil && j.version > 0 {
		m.set(j.version)
	}
	return j.out, nil
}

// CheckPost answers each line's outcome as Post would, without saving anything.
func (s *Service) CheckPost(ctx context.Context, a Actor, id int64, req PostRequest) (*PostOutcome, error) {
	h, err := s.hotCampaign(ctx, id)
	if err != nil {
		return nil, err
	}
	_, lines, err := s.prepareHot(ctx, h, a, req, s.now())
	if err != nil {
		return nil, err
	}
	return &PostOutcome{Lines: lines}, nil
}

// ownPost loads a post its author may still change: in the open turn, before the lock time.
func (s *Service) ownPost(tx Tx, a Actor, id, postID int64) (*Post, *Turn, error) {
	x, t, err := poster(tx, a, id)
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
	case !mayChangePost(x, p):
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
	// quietly: posts are in no cache, so the state version stays
	err := s.store.Write(quietly(ctx), func(tx Tx) error {
		old, _, err := s.ownPost(tx, a, id, postID)
		if err != nil {
			return err
		}
		t, p, lines, err := s.preparePost(tx, a, id, req, s.now())
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
		out = &PostOutcome{Post: viewPost(p, true), Lines: lines}
		return s.audit(tx, id, a, "post.edit", "post %d replaces post %d in turn %d", p.ID, old.ID, t.Number)
	})
	return out, err
}

// WithdrawPost withdraws the author's own post: it counts for nothing at the lock.
func (s *Service) WithdrawPost(ctx context.Context, a Actor, id, postID int64) (*PostView, error) {
	var out *PostView
	err := s.store.Write(quietly(ctx), func(tx Tx) error {
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
		if !maySeePosts(x) {
			return x.refuse("read the posts")
		}
		posts, err := r.Posts(id, n)
		if err != nil {
			return err
		}
		members, err := r.Members(id)
		if err != nil {
			return err
		}
		side, now := map[int64]domain.Side{}, map[int64]string{}
		for i := range members {
			side[members[i].AccountID] = sideOf(&members[i])
			now[members[i].AccountID] = members[i].Name
		}
		var plans map[int64][]PlanLine
		for i := range posts {
			p := &posts[i]
			if !maySeePost(x, p, t) {
				continue
			}
			v := viewPost(p, maySeeTransfers(x, p, side[p.AccountID]))
			if n, ok := now[p.AccountID]; ok && p.Author != n && !domain.SameName(p.Author, movement.MercenaryJudge) {
				v.AuthorNow = n
			}
			if p.Source == AISource {
				if plans == nil {
					if plans, err = r.PlanLines(id, n); err != nil {
						return err
					}
				}
				v.Plan = plans[p.ID]
			}
			out = append(out, *v)
		}
		return nil
	})
	return nonNil(out), err
}

// orderDesk refuses structured orders for an army the author may not order now (mayOrder; 5.3,
// 5.4) on m, the map with its controllers of now: a text line for it is recorded for the judge
// (5.4.1), but the order desk says no at once.
func orderDesk(m *domain.Map, author string, orders []OrderInput) error {
	for i, o := range orders {
		name := strings.TrimSpace(o.Army)
		if name == "" {
			name = author
		}
		army := m.Army(name)
		if army == nil {
			return domain.Errorf(domain.ErrInvalid, "order %d: there is no army named %q on the map", i+1, name)
		}
		if !mayOrder(author, army) {
			return domain.Errorf(domain.ErrForbidden, "order %d: %s does not control %s, so may not order it (5.3, 5.4.1)", i+1, author, army.Name)
		}
	}
	return nil
}
