package api

// This file holds the round setup's routes (2.5) — a round created, filled in by the generator,
// its sites, requests, descriptions, win conditions, counts, armies, placement and mercenaries,
// and its start — the next round of a finished campaign, and the corrections of locked turns
// (3.3.3).

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/coalition-wargame/coalition/campaign"
)

// roundRoutes are the round setup's and the corrections' routes.
func (s *Server) roundRoutes(small, large, id, v echo.MiddlewareFunc) {
	e := s.echo
	e.GET("/api/rounds", func(c echo.Context) error {
		out, err := s.svc.Rounds(c.Request().Context())
		return reply(c, http.StatusOK, out, err)
	}, id, v)
	e.POST("/api/rounds", func(c echo.Context) error {
		var req campaign.NewRound
		if err := bind(c, &req); err != nil {
			return err
		}
		out, err := s.svc.CreateRound(c.Request().Context(), actor(c), req)
		return reply(c, http.StatusCreated, out, err)
	}, large, id, v)
	e.GET("/api/rounds/:rid", roundRead(s.svc.Round), id, v)
	e.POST("/api/rounds/:rid/generate", roundWrite(http.StatusOK, s.svc.GenerateRound), small, id, v)
	e.PUT("/api/rounds/:rid/sites", roundWrite(http.StatusOK, s.svc.SetSites), small, id, v)
	e.POST("/api/rounds/:rid/requests", roundWrite(http.StatusOK, s.svc.AddRequest), small, id, v)
	e.PUT("/api/rounds/:rid/descriptions/:site", roundNamed(http.StatusOK, "site", s.svc.Describe), small, id, v)
	e.POST("/api/rounds/:rid/descriptions/:site/review", roundNamed(http.StatusOK, "site", s.svc.ReviewDescription), small, id, v)
	e.PUT("/api/rounds/:rid/win-conditions", roundWrite(http.StatusOK, s.svc.ChooseWinConditions), small, id, v)
	e.POST("/api/rounds/:rid/publish", roundWrite(http.StatusOK, s.svc.Publish), small, id, v)
	e.PUT("/api/rounds/:rid/counts", roundWrite(http.StatusOK, s.svc.SetCounts), small, id, v)
	e.PUT("/api/rounds/:rid/armies/:army", roundNamed(http.StatusOK, "army", s.svc.PutRoundArmy), small, id, v)
	e.DELETE("/api/rounds/:rid/armies/:army", roundRemove("army", s.svc.RemoveRoundArmy), id, v)
	e.POST("/api/rounds/:rid/place", roundWrite(http.StatusOK, s.svc.PlaceArmies), small, id, v)
	e.PUT("/api/rounds/:rid/mercenaries/:army", roundNamed(http.StatusOK, "army", s.svc.PutRoundMercenary), small, id, v)
	e.DELETE("/api/rounds/:rid/mercenaries/:army", roundRemove("army", s.svc.RemoveRoundMercenary), id, v)
	e.POST("/api/rounds/:rid/start", roundWrite(http.StatusCreated, s.svc.StartRound), small, id, v)
	e.POST("/api/campaigns/:cid/next-round", campaignWrite(http.StatusCreated, s.svc.NextRound), small, id, v)

	e.GET("/api/campaigns/:cid/turns/:n/corrections", turnRead(s.svc.Corrections), id, v)
	e.POST("/api/campaigns/:cid/turns/:n/corrections/preview", turnWrite(http.StatusOK, s.svc.PreviewCorrection), small, id, v)
	e.POST("/api/campaigns/:cid/turns/:n/corrections", turnWrite(http.StatusCreated, s.svc.Correct), small, id, v)
}

func roundID(c echo.Context) (int64, error) {
	v, _ := param(c, "rid")
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id < 1 {
		return 0, badRequest("%q is not a round id", c.Param("rid"))
	}
	return id, nil
}

// roundRead serves a GET of a round.
func roundRead[T any](read func(context.Context, campaign.Actor, int64) (T, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := roundID(c)
		if err != nil {
			return err
		}
		out, err := read(c.Request().Context(), actor(c), id)
		return reply(c, http.StatusOK, out, err)
	}
}

// roundWrite serves a step of a round's setup with a JSON body.
func roundWrite[Req, T any](status int, write func(context.Context, campaign.Actor, int64, Req) (T, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := roundID(c)
		if err != nil {
			return err
		}
		var req Req
		if err := bind(c, &req); err != nil {
			return err
		}
		out, err := write(c.Request().Context(), actor(c), id, req)
		return reply(c, status, out, err)
	}
}

// roundNamed serves a step on one named thing of a round (a site, an army) with a JSON body.
func roundNamed[Req, T any](status int, name string, write func(context.Context, campaign.Actor, int64, string, Req) (T, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := roundID(c)
		if err != nil {
			return err
		}
		n, err := pathName(c, name, "a name")
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

// roundRemove serves a DELETE of one named thing of a round.
func roundRemove[T any](name string, remove func(context.Context, campaign.Actor, int64, string) (T, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := roundID(c)
		if err != nil {
			return err
		}
		n, err := pathName(c, name, "a name")
		if err != nil {
			return err
		}
		out, err := remove(c.Request().Context(), actor(c), id, n)
		return reply(c, http.StatusOK, out, err)
	}
}
