// The card catalogue: searches, lookups, and the corrections judges put over the card data.

package campaign

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/domain"
)

// catalogue is the service's card catalogue, loaded on first use with the judges'
// corrections put over it.
type catalogue struct {
	mu  sync.Mutex
	cat *cards.Catalogue
	// pool is cat's creature pool for spawned raiders (creaturePool), nil until asked for
	pool []domain.Troop
}

// Catalogue is the card catalogue troop lists are checked against: Options.Cards or the
// shipped data, with every correction judges stored put over it again. The first call loads
// it; a load that fails is tried again by the next call.
func (s *Service) Catalogue(ctx context.Context) (*cards.Catalogue, error) {
	s.cat.mu.Lock()
	defer s.cat.mu.Unlock()
	if s.cat.cat != nil {
		return s.cat.cat, nil
	}
	var fixes []CardCorrection
	if err := s.store.Read(ctx, func(r Reader) (err error) {
		fixes, err = r.CardCorrections()
		return err
	}); err != nil {
		return nil, err
	}
	cat := s.opt.Cards
	if cat == nil {
		var err error
		if cat, err = cards.Load(); err != nil {
			return nil, err
		}
	}
	for _, f := range fixes {
		if err := cat.Put(f.Card); err != nil {
			s.opt.Log.Error("a stored card correction no longer applies", "card", f.Card.Name, "err", err)
		}
	}
	s.cat.cat = cat
	return cat, nil
}

// MaxSearch is the most cards a search returns.
const MaxSearch = 100

// SearchCards finds creature cards whose names contain the query, for a troop picker; anyone
// may search.
func (s *Service) SearchCards(ctx context.Context, query string, limit int) ([]cards.Card, error) {
	cat, err := s.Catalogue(ctx)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(query) == "" {
		return nil, domain.Errorf(domain.ErrInvalid, "say what to search for: a part of the creature's name")
	}
	if limit <= 0 || limit > MaxSearch {
		limit = 20
	}
	return nonNil(cat.Search(query, limit)), nil
}

// LookupCard finds one card by name as players type it; when none matches, the error names
// the closest names.
func (s *Service) LookupCard(ctx context.Context, name string) (*cards.Card, error) {
	cat, err := s.Catalogue(ctx)
	if err != nil {
		return nil, err
	}
	c, ok := cat.Lookup(name)
	if !ok {
		if near := cat.Suggest(name, 5); len(near) > 0 {
			return nil, domain.Errorf(domain.ErrNotFound, "there is no creature card named %q; did you mean %s?", name, strings.Join(near, ", "))
		}
		return nil, domain.Errorf(domain.ErrNotFound, "there is no creature card named %q", name)
	}
	return &c, nil
}

// memberships lists the actor's memberships in every campaign.
func memberships(r Reader, a Actor) ([]*Member, error) {
	if a.Account == nil {
		return nil, nil
	}
	cs, err := r.Campaigns()
	if err != nil {
		return nil, err
	}
	var out []*Member
	for _, c := range cs {
		m, err := r.Member(c.ID, a.Account.ID)
		switch {
		case errors.Is(err, domain.ErrNotFound):
		case err != nil:
			return nil, err
		default:
			out = append(out, m)
		}
	}
	return out, nil
}

// Card is a creature card of the catalogue (cards.Card), as the API reads and writes it.
type Card = cards.Card

// CardCorrection is a card a judge added or corrected, put over the card data at start.
type CardCorrection struct {
	// Key is cards.Key of the card's name: one correction a name.
	Key  string     `json:"-"`
	Card cards.Card `json:"card"`
	By   string     `json:"by"`
	At   time.Time  `json:"at"`
}

// PutCard adds a creature card to the catalogue or corrects one (judges and admins): it is
// stored, and put over the card data again at every start. name is the card's name as the
// request gives it; the card may leave its own name out.
func (s *Service) PutCard(ctx context.Context, a Actor, name string, card Card) (*Card, error) {
	cat, err := s.Catalogue(ctx)
	if err != nil {
		return nil, err
	}
	if card.Name == "" {
		card.Name = strings.TrimSpace(name)
	}
	if cards.Key(card.Name) != cards.Key(name) {
		return nil, domain.Errorf(domain.ErrInvalid, "the card is %q, but the request names %q", card.Name, name)
	}
	if err := cards.Validate(&card); err != nil {
		return nil, err
	}
	card.Colors = nonNil(card.Colors) // a colourless card has colors [], as the shipped data's
	err = s.store.Write(ctx, func(tx Tx) error {
		ms, err := memberships(tx, a)
		if err != nil {
			return err
		}
		x := access{actor: a}
		if err := x.need("correct the card catalogue (judges and admins only)", mayCorrectCards(a, ms)); err != nil {
			return err
		}
		if err := tx.PutCardCorrection(&CardCorrection{Key: cards.Key(card.Name), Card: card, By: a.Name(), At: s.now()}); err != nil {
			return err
		}
		return s.audit(tx, 0, a, "card.put", "put the card %s over the card data", card.Name)
	})
	if err != nil {
		return nil, err
	}
	if err := cat.Put(card); err != nil {
		return nil, err
	}
	s.cat.mu.Lock()
	s.cat.pool = nil
	s.cat.mu.Unlock()
	c, _ := cat.Lookup(card.Name)
	return &c, nil
}
