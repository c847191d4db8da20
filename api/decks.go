// The card formats' decks and formats (issue 19): POST /api/decks/check judges a deck list
// against a format's revision or a league's, for anyone and storing nothing; the every-card
// data and the judges' corrections of it; the formats and their banned lists, which admins
// edit version by version.

package api

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/deck"
	"github.com/coalition-wargame/coalition/format"
)

// deckRoutes registers the deck checker (public and stateless: it reads no token; small limits
// the body (413) and the document the list (64 KB, 400)), the every-card data and the formats.
func (s *Server) deckRoutes(small, id, v echo.MiddlewareFunc) {
	e := s.echo
	e.POST("/api/decks/check", s.checkDeck, small, v)
	e.GET("/api/decks/cards/:name", s.getDeckCard, id, v)
	e.PUT("/api/decks/cards/:name", s.putDeckCard, small, id, v)
	e.GET("/api/formats", s.cardFormats, id, v)
	e.GET("/api/formats/banlists/:list", s.getBanlist, id, v)
	e.PUT("/api/formats/banlists/:list", s.setBanlist, small, id, v)
}

// checkDeck answers a deck check: 200 with the verdict, legal or not; 400 for an unknown
// format, revision or sub-format, or a text with no card line; 404 for an unknown league.
func (s *Server) checkDeck(c echo.Context) error {
	var req campaign.DeckCheck
	if err := bind(c, &req); err != nil {
		return err
	}
	v, err := s.svc.CheckDeck(c.Request().Context(), req)
	if errors.Is(err, format.ErrUnknown) || errors.Is(err, deck.ErrUnreadable) {
		return badRequest("%s", err)
	}
	return reply(c, http.StatusOK, v, err)
}

func (s *Server) getDeckCard(c echo.Context) error {
	name, err := pathName(c, "name", "a card's name")
	if err != nil {
		return err
	}
	out, err := s.svc.DeckCard(c.Request().Context(), name)
	return reply(c, http.StatusOK, out, err)
}

func (s *Server) putDeckCard(c echo.Context) error {
	name, err := pathName(c, "name", "a card's name")
	if err != nil {
		return err
	}
	var card campaign.Card
	if err := bind(c, &card); err != nil {
		return err
	}
	out, err := s.svc.PutDeckCard(c.Request().Context(), actor(c), name, card)
	return reply(c, http.StatusOK, out, err)
}

func (s *Server) cardFormats(c echo.Context) error {
	out, err := s.svc.CardFormats(c.Request().Context())
	return reply(c, http.StatusOK, out, err)
}

func (s *Server) getBanlist(c echo.Context) error {
	list, err := pathName(c, "list", "a banned list's id")
	if err != nil {
		return err
	}
	out, err := s.svc.Banlist(c.Request().Context(), list)
	return reply(c, http.StatusOK, out, err)
}

func (s *Server) setBanlist(c echo.Context) error {
	list, err := pathName(c, "list", "a banned list's id")
	if err != nil {
		return err
	}
	var req campaign.BanlistInput
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.SetBanlist(c.Request().Context(), actor(c), list, req)
	return reply(c, http.StatusOK, out, err)
}
