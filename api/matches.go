// Leagues and matches of the card formats (issue 19): anyone reads them; an admin makes a
// league; the table's players start a match and enter its events, and undo the last one.

package api

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/coalition-wargame/coalition/campaign"
)

// matchRoutes registers the leagues and the matches.
func (s *Server) matchRoutes(small, id, v echo.MiddlewareFunc) {
	e := s.echo
	e.GET("/api/leagues", s.leagues, id, v)
	e.POST("/api/leagues", s.createLeague, small, id, v)
	e.GET("/api/matches", s.matches, id, v)
	e.POST("/api/matches", s.createMatch, small, id, v)
	e.GET("/api/matches/:mid", s.getMatch, id, v)
	e.POST("/api/matches/:mid/events", s.matchEvent, small, id, v)
	e.POST("/api/matches/:mid/undo", s.undoMatchEvent, small, id, v)
}

func matchID(c echo.Context) (int64, error) {
	v, _ := param(c, "mid")
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id < 1 {
		return 0, badRequest("%q is not a match id", c.Param("mid"))
	}
	return id, nil
}

func (s *Server) leagues(c echo.Context) error {
	out, err := s.svc.Leagues(c.Request().Context())
	return reply(c, http.StatusOK, out, err)
}

func (s *Server) createLeague(c echo.Context) error {
	var req campaign.LeagueInput
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.CreateLeague(c.Request().Context(), actor(c), req)
	return reply(c, http.StatusCreated, out, err)
}

func (s *Server) matches(c echo.Context) error {
	var league int64
	if q := c.QueryParam("league"); q != "" {
		var err error
		if league, err = strconv.ParseInt(q, 10, 64); err != nil || league < 1 {
			return badRequest("%q is not a league id", q)
		}
	}
	out, err := s.svc.Matches(c.Request().Context(), league, limit(c))
	return reply(c, http.StatusOK, out, err)
}

func (s *Server) createMatch(c echo.Context) error {
	var req campaign.MatchInput
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.CreateMatch(c.Request().Context(), actor(c), req)
	return reply(c, http.StatusCreated, out, err)
}

func (s *Server) getMatch(c echo.Context) error {
	id, err := matchID(c)
	if err != nil {
		return err
	}
	out, err := s.svc.Match(c.Request().Context(), actor(c), id)
	return reply(c, http.StatusOK, out, err)
}

func (s *Server) matchEvent(c echo.Context) error {
	id, err := matchID(c)
	if err != nil {
		return err
	}
	var req campaign.MatchEventInput
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.AddMatchEvent(c.Request().Context(), actor(c), id, req)
	return reply(c, http.StatusCreated, out, err)
}

type undoRequest struct {
	// N is the number of the last event in force: the one to undo.
	N int `json:"n"`
}

func (s *Server) undoMatchEvent(c echo.Context) error {
	id, err := matchID(c)
	if err != nil {
		return err
	}
	var req undoRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.UndoMatchEvent(c.Request().Context(), actor(c), id, req.N)
	return reply(c, http.StatusOK, out, err)
}
