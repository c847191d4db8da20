package api

// This file holds the mercenary desk's routes (chapter 6): the mercenary AI's settings, its plan
// and the post of it, the after-lock edit (6.3.2), and removing an army at the armies desk.

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/coalition-wargame/coalition/campaign"
)

// mercenaryRoutes are the mercenary desk's routes.
func (s *Server) mercenaryRoutes(small, id, v echo.MiddlewareFunc) {
	e := s.echo
	e.GET("/api/campaigns/:cid/mercenary", campaignRead(s.svc.MercenarySettings), id, v)
	e.PUT("/api/campaigns/:cid/mercenary", campaignWrite(http.StatusOK, s.svc.SetMercenarySettings), small, id, v)
	e.GET("/api/campaigns/:cid/turns/:n/mercenary/plan", turnRead(s.svc.MercenaryPlan), id, v)
	e.POST("/api/campaigns/:cid/turns/:n/mercenary/plan", turnWrite(http.StatusCreated, s.svc.PostPlan), small, id, v)
	e.GET("/api/campaigns/:cid/turns/:n/mercenary/edit", turnRead(s.svc.AfterLockEdit), id, v)
	e.POST("/api/campaigns/:cid/turns/:n/mercenary/edit", turnWrite(http.StatusOK, s.svc.PostAfterLockEdit), small, id, v)
	e.POST("/api/campaigns/:cid/turns/:n/mercenary/edit/check", turnWrite(http.StatusOK, s.svc.CheckAfterLockEdit), small, id, v)
	e.DELETE("/api/campaigns/:cid/armies/:army", s.removeArmy, id, v)
}

// turnWrite serves a change to one turn of a campaign with a JSON body: it binds the campaign,
// the turn and the body, asks the service as the caller, and replies with the status.
func turnWrite[Req, T any](status int, write func(context.Context, campaign.Actor, int64, int, Req) (T, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, n, err := turnParams(c)
		if err != nil {
			return err
		}
		var req Req
		if err := bind(c, &req); err != nil {
			return err
		}
		out, err := write(c.Request().Context(), actor(c), id, n, req)
		return reply(c, status, out, err)
	}
}

func (s *Server) removeArmy(c echo.Context) error {
	id, name, err := armyParams(c)
	if err != nil {
		return err
	}
	out, err := s.svc.RemoveArmy(c.Request().Context(), actor(c), id, name)
	return reply(c, http.StatusOK, out, err)
}
