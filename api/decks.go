// The deck checker: POST /api/decks/check judges a deck list against a card format
// (Coalition, Heroic, Manahearth) with no state, for anyone.

package api

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/coalition-wargame/coalition/deck"
	"github.com/coalition-wargame/coalition/format"
)

// deckRoutes registers the deck checker: public and stateless; small limits the body (413)
// and the document the list (64 KB, 400).
func (s *Server) deckRoutes(small, v echo.MiddlewareFunc) {
	s.echo.POST("/api/decks/check", checkDeck, small, v)
}

// checkDeck answers a deck check: 200 with the verdict, legal or not; 400 for an unknown
// format, revision or sub-format, or a text with no card line.
func checkDeck(c echo.Context) error {
	var req format.Request
	if err := bind(c, &req); err != nil {
		return err
	}
	cat, err := deck.Shipped()
	if err != nil {
		return err
	}
	v, err := format.Shipped().Check(cat, req)
	switch {
	case errors.Is(err, format.ErrUnknown), errors.Is(err, deck.ErrUnreadable):
		return badRequest("%s", err)
	case err != nil:
		return err
	}
	return c.JSON(http.StatusOK, v)
}
