// Messages: the comments of a turn's threads — the public thread beside the orders, a private
// channel per side, conversations with the judges — which are never orders and are never parsed
// as such; the judges hide a message with a reason. The public thread shows the turn's posts and
// comments together, as the forum's movement thread did.

package campaign

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/coalition-wargame/coalition/domain"
)

// MaxMessageText is the longest message accepted, in characters.
const MaxMessageText = 4000

// MessageRequest is a message as someone writes it: to the public thread, his side ("side") or
// the judges; a judge answering in the judges' channel names whom he answers (To).
type MessageRequest struct {
	Channel string `json:"channel"`
	Text    string `json:"text"`
	To      string `json:"to,omitempty"`
}

// MessageView is a message as its reader may see it: a hidden message's text is kept from all but
// the judges and its author.
type MessageView struct {
	ID      int64     `json:"id"`
	Turn    int       `json:"turn"`
	Channel string    `json:"channel"`
	Author  string    `json:"author"`
	With    string    `json:"with,omitempty"`
	At      time.Time `json:"at"`
	Text    string    `json:"text"`
	Hidden  *Hiding   `json:"hidden,omitempty"`
}

// Hiding is when, by whom and why a judge hid a message.
type Hiding struct {
	At     time.Time `json:"at"`
	By     string    `json:"by"`
	Reason string    `json:"reason"`
}

func viewMessage(x access, m *Message, names map[int64]string) MessageView {
	v := MessageView{ID: m.ID, Turn: m.Turn, Channel: m.Channel, Author: m.Author, With: names[m.With], At: m.At, Text: m.Text}
	if m.HiddenAt != nil {
		v.Hidden = &Hiding{At: *m.HiddenAt, By: m.HiddenBy, Reason: m.HiddenReason}
		if !maySeeHiddenText(x, m) {
			v.Text = ""
		}
	}
	return v
}

// SendMessage writes a message in the campaign's latest turn. It is a comment: nothing in it is
// read as an order.
func (s *Service) SendMessage(ctx context.Context, a Actor, id int64, req MessageRequest) (*MessageView, error) {
	text := strings.TrimSpace(req.Text)
	switch {
	case text == "":
		return nil, domain.Errorf(domain.ErrInvalid, "the message is empty")
	case !utf8.ValidString(text):
		return nil, domain.Errorf(domain.ErrInvalid, "the message is not valid UTF-8 text")
	case utf8.RuneCountInString(text) > MaxMessageText:
		return nil, domain.Errorf(domain.ErrInvalid, "the message is %d characters long: at most %d", utf8.RuneCountInString(text), MaxMessageText)
	}
	var out MessageView
	err := s.store.Write(ctx, func(tx Tx) error {
		c, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.needLogin(); err != nil {
			return err
		}
		channel := channelOf(x, strings.TrimSpace(req.Channel))
		switch req.Channel {
		case "public", "side", "judges":
		default:
			return domain.Errorf(domain.ErrInvalid, "%q is not a channel: write to public, side or judges", req.Channel)
		}
		if err := x.need("write to the "+req.Channel+" channel of "+c.Name, mayPostMessage(x, channel)); err != nil {
			return err
		}
		t, err := tx.LatestTurn(id)
		if err != nil {
			return err
		}
		m := &Message{CampaignID: id, Turn: t.Number, Channel: channel, AccountID: a.Account.ID, Author: a.Account.Name, At: s.now(), Text: text}
		names := map[int64]string{}
		if channel == "judges" {
			m.With, names[a.Account.ID] = a.Account.ID, a.Account.Name
			if to := strings.TrimSpace(req.To); to != "" {
				if !mayHideMessage(x) {
					return domain.Errorf(domain.ErrInvalid, "only a judge names whom he answers: your message goes to the judges")
				}
				acc, err := tx.AccountByName(to)
				if errors.Is(err, domain.ErrNotFound) {
					return domain.Errorf(domain.ErrInvalid, "there is no account named %q to answer", to)
				}
				if err != nil {
					return err
				}
				m.With, names[acc.ID] = acc.ID, acc.Name
			}
		} else if req.To != "" {
			return domain.Errorf(domain.ErrInvalid, "\"to\" goes only with the judges' channel")
		}
		if err := tx.AddMessage(m); err != nil {
			return err
		}
		out = viewMessage(x, m, names)
		return s.audit(tx, id, a, "message.create", "message %d in turn %d (%s)", m.ID, t.Number, channel)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// Messages lists the messages of turn n the actor may see: the public thread's, his side's, his
// conversation with the judges; the judges see every channel.
func (s *Service) Messages(ctx context.Context, a Actor, id int64, n int) ([]MessageView, error) {
	var out []MessageView
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, _, err := turnAccess(r, a, id, n)
		if err != nil {
			return err
		}
		ms, err := r.Messages(id, n)
		if err != nil {
			return err
		}
		names, err := accountNames(r, ms)
		if err != nil {
			return err
		}
		for i := range ms {
			if maySeeMessage(x, &ms[i]) {
				out = append(out, viewMessage(x, &ms[i], names))
			}
		}
		return nil
	})
	return nonNil(out), err
}

// accountNames names the accounts the judges' conversations are with.
func accountNames(r Reader, ms []Message) (map[int64]string, error) {
	names := map[int64]string{}
	for _, m := range ms {
		if m.With == 0 || names[m.With] != "" {
			continue
		}
		acc, err := r.Account(m.With)
		if err != nil {
			return nil, err
		}
		names[m.With] = acc.Name
	}
	return names, nil
}

// HideMessage hides a message from its readers, with a recorded reason: they see that a judge
// hid it and why, not its text.
func (s *Service) HideMessage(ctx context.Context, a Actor, id, mid int64, reason string) (*MessageView, error) {
	var out MessageView
	err := s.store.Write(ctx, func(tx Tx) error {
		_, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.need("hide a message (movement and battle judges only)", mayHideMessage(x)); err != nil {
			return err
		}
		if strings.TrimSpace(reason) == "" {
			return domain.Errorf(domain.ErrInvalid, "say why the message is hidden: the reason is shown in its place")
		}
		m, err := tx.Message(mid)
		if errors.Is(err, domain.ErrNotFound) || (err == nil && m.CampaignID != id) {
			return domain.Errorf(domain.ErrNotFound, "there is no message %d in this campaign", mid)
		}
		if err != nil {
			return err
		}
		if m.HiddenAt != nil {
			return domain.Errorf(domain.ErrConflict, "message %d was already hidden by %s", mid, m.HiddenBy)
		}
		now := s.now()
		m.HiddenAt, m.HiddenBy, m.HiddenReason = &now, a.Name(), strings.TrimSpace(reason)
		if err := tx.HideMessage(m); err != nil {
			return err
		}
		names, err := accountNames(tx, []Message{*m})
		if err != nil {
			return err
		}
		out = viewMessage(x, m, names)
		return s.audit(tx, id, a, "message.hide", "hid message %d of %s: %s", mid, m.Author, reason)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// ThreadItem is one entry of a turn's public thread: a post of orders or a comment.
type ThreadItem struct {
	Kind string `json:"kind"`
	// Post is set for a post of orders, Message for a comment.
	Post    *PostView    `json:"post,omitempty"`
	Message *MessageView `json:"message,omitempty"`
	At      time.Time    `json:"at"`
}

// Thread is turn n's public thread as the forum showed it: every post the actor may see (a
// private one once the turn is locked, or his own) and every public comment, by time.
func (s *Service) Thread(ctx context.Context, a Actor, id int64, n int) ([]ThreadItem, error) {
	var out []ThreadItem
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, t, err := turnAccess(r, a, id, n)
		if err != nil {
			return err
		}
		if !maySeePosts(x) {
			return x.refuse("read the thread")
		}
		posts, err := r.Posts(id, n)
		if err != nil {
			return err
		}
		for i := range posts {
			if p := &posts[i]; maySeePost(x, p, t) {
				out = append(out, ThreadItem{Kind: "post", Post: viewPost(p, false), At: p.At})
			}
		}
		ms, err := r.Messages(id, n)
		if err != nil {
			return err
		}
		for i := range ms {
			if ms[i].Channel == "public" && maySeeMessage(x, &ms[i]) {
				v := viewMessage(x, &ms[i], nil)
				out = append(out, ThreadItem{Kind: "comment", Message: &v, At: v.At})
			}
		}
		slices.SortStableFunc(out, func(p, q ThreadItem) int { return p.At.Compare(q.At) })
		return nil
	})
	return nonNil(out), err
}
