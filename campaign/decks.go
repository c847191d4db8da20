// The card formats' decks on the server (issue 19): the every-card catalogue with the judges'
// corrections put over it, and a deck list checked against the revision its request or its
// league names, under the banned lists as the admins left them (banlists.go).

package campaign

import (
	"cmp"
	"context"
	"log/slog"
	"strings"
	"sync"

	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/deck"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/format"
)

// deckCards is the service's every-card catalogue: the base (Options.Decks or the shipped data)
// shared with every other service of the process, and over a fork of it the judges'
// corrections, once there are any.
type deckCards struct {
	mu  sync.Mutex
	cat *deck.Catalogue
}

// DeckCatalogue is the every-card catalogue decks are checked against: Options.Decks or the
// shipped data (loaded on the first call, a few hundred milliseconds), with every correction
// judges stored put over it. The base is never written to: corrections go into a fork.
func (s *Service) DeckCatalogue(ctx context.Context) (*deck.Catalogue, error) {
	s.decks.mu.Lock()
	defer s.decks.mu.Unlock()
	if s.decks.cat != nil {
		return s.decks.cat, nil
	}
	var fixes []CardCorrection
	if err := s.store.Read(ctx, func(r Reader) (err error) {
		fixes, err = r.DeckCardCorrections()
		return err
	}); err != nil {
		return nil, err
	}
	base := s.opt.Decks
	if base == nil {
		var err error
		if base, err = deck.Shipped(); err != nil {
			return nil, err
		}
	}
	s.decks.cat = corrected(base, fixes, s.opt.Log)
	return s.decks.cat, nil
}

// corrected is the base with the corrections put over a fork of it; the base itself when there
// are none. The base's creature types, learnt once, are shared unless a correction brings a
// type they lack (deck.Catalogue.Corrected).
func corrected(base *deck.Catalogue, fixes []CardCorrection, log *slog.Logger) *deck.Catalogue {
	if len(fixes) == 0 {
		return base
	}
	f := base.Cards.Fork()
	var put []cards.Card
	for _, c := range fixes {
		if err := f.PutAny(c.Card); err != nil {
			log.Error("a stored correction of the every-card data no longer applies", "card", c.Card.Name, "err", err)
			continue
		}
		put = append(put, c.Card)
	}
	return base.Corrected(f, put)
}

// DeckCheck is a deck list to check and what to check it against: a format's revision, or the
// league whose format and revision its matches are played under.
type DeckCheck struct {
	Format   string `json:"format,omitempty"`
	Revision string `json:"revision,omitempty"`
	// Subformat narrows the revision to a set filter (Manahearth's rule 3.4).
	Subformat string `json:"subformat,omitempty"`
	// League names a league: its format and revision are the check's (E2).
	League int64  `json:"league,omitempty"`
	List   string `json:"list"`
}

// CheckDeck judges a deck list (anyone, nothing stored) against a revision of a format: the
// request's, its league's, or the format's default. The errors format.ErrUnknown (a format,
// revision or sub-format no document has) and deck.ErrUnreadable (no card line) are bad input;
// everything wrong with a readable deck is a problem of the verdict.
func (s *Service) CheckDeck(ctx context.Context, req DeckCheck) (*format.Verdict, error) {
	var doc *format.Formats
	err := s.store.Read(ctx, func(r Reader) error {
		if req.League != 0 {
			l, err := r.League(req.League)
			if err != nil {
				return err
			}
			if req.Format != "" && !strings.EqualFold(req.Format, l.Format) || req.Revision != "" && req.Revision != l.Revision {
				return domain.Errorf(domain.ErrInvalid, "the league %s is played in %s %s: leave the format and revision out, or name those (E2)", l.Name, l.Format, l.Revision)
			}
			req.Format, req.Revision = l.Format, l.Revision
		}
		var err error
		doc, err = s.formatsDocument(r)
		return err
	})
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Format) == "" {
		return nil, domain.Errorf(domain.ErrInvalid, "name a format (%s) or a league", strings.Join(doc.Names(), ", "))
	}
	cat, err := s.DeckCatalogue(ctx)
	if err != nil {
		return nil, err
	}
	v, err := doc.Check(cat, format.Request{Format: req.Format, Revision: req.Revision, Subformat: req.Subformat, List: req.List})
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// DeckCard is a card of the every-card catalogue as the deck page shows it: every face and the
// typal identity the checker reads in it (906.4, F7).
type DeckCard struct {
	Card     cards.Card    `json:"card"`
	Identity deck.Identity `json:"identity"`
	// Corrected says a judge's correction stands in for the card data.
	Corrected bool `json:"corrected"`
}

// DeckCard finds a card of the every-card catalogue (anyone) by its name or a face's; a miss
// names the closest cards.
func (s *Service) DeckCard(ctx context.Context, name string) (*DeckCard, error) {
	cat, err := s.DeckCatalogue(ctx)
	if err != nil {
		return nil, err
	}
	card, _, ok := cat.Cards.Find(name)
	if !ok {
		if near := cat.Cards.Suggest(name, 5); len(near) > 0 {
			return nil, domain.Errorf(domain.ErrNotFound, "there is no card named %q; did you mean %s?", name, strings.Join(near, ", "))
		}
		return nil, domain.Errorf(domain.ErrNotFound, "there is no card named %q", name)
	}
	id := cat.Identity(card)
	id.Types = nonNil(id.Types)
	corrected := false
	for _, c := range cat.Cards.Overlays() {
		if cards.Key(c.Name) == cards.Key(card.Name) {
			corrected = true
		}
	}
	return &DeckCard{Card: *card, Identity: id, Corrected: corrected}, nil
}

// PutDeckCard adds a card to the every-card data or corrects one (judges and admins, as for
// the creature data): it is stored, and put over the card data again at every start. name is
// the card's name as the request gives it; the card may leave its own name out. A creature
// type the card brings is learnt by the next check.
func (s *Service) PutDeckCard(ctx context.Context, a Actor, name string, card cards.Card) (*DeckCard, error) {
	card.Name = cmp.Or(card.Name, strings.TrimSpace(name))
	if cards.Key(card.Name) != cards.Key(name) {
		return nil, domain.Errorf(domain.ErrInvalid, "the card is %q, but the request names %q", card.Name, name)
	}
	if err := cards.ValidateAny(&card); err != nil {
		return nil, err
	}
	card.Colors = nonNil(card.Colors)
	err := s.store.Write(ctx, func(tx Tx) error {
		ms, err := memberships(tx, a)
		if err != nil {
			return err
		}
		x := access{actor: a}
		if err := x.need("correct the every-card data (judges and admins only)", mayCorrectDeckCards(a, ms)); err != nil {
			return err
		}
		if err := tx.PutDeckCardCorrection(&CardCorrection{Key: cards.Key(card.Name), Card: card, By: a.Name(), At: s.now()}); err != nil {
			return err
		}
		return s.audit(tx, 0, a, "deck-card.put", "put the card %s over the every-card data", card.Name)
	})
	if err != nil {
		return nil, err
	}
	s.decks.mu.Lock()
	s.decks.cat = nil
	s.decks.mu.Unlock()
	return s.DeckCard(ctx, card.Name)
}
