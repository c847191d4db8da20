package api

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

// battleParams reads the campaign, turn and battle square of a battle route.
func battleParams(c echo.Context) (int64, int, domain.Square, error) {
	id, n, err := turnParams(c)
	if err != nil {
		return 0, 0, domain.Square{}, err
	}
	v, _ := param(c, "square")
	sq, err := domain.ParseSquare(v)
	if err != nil {
		return 0, 0, domain.Square{}, badRequest("%q is not a square: write it number first, like 15J", c.Param("square"))
	}
	return id, n, sq, nil
}

// pathName reads a name from the path (army, member, formula or card names may hold spaces,
// slashes, percent signs), decoded exactly once.
func pathName(c echo.Context, name, what string) (string, error) {
	v, err := param(c, name)
	if err != nil || strings.TrimSpace(v) == "" {
		return "", badRequest("%q is not %s", c.Param(name), what)
	}
	return v, nil
}

// param is the path parameter name decoded exactly once. Echo routes on the request's
// RawPath when it has one (when the path's encoding is not the default one, as with a %2F in
// a name), and then its parameters are still percent-encoded; otherwise it routes on the
// decoded Path, and its parameters must not be decoded again ("Army%252FPct" is the army
// Army%2FPct, not Army/Pct).
func param(c echo.Context, name string) (string, error) {
	v := c.Param(name)
	if c.Request().URL.RawPath == "" {
		return v, nil
	}
	return url.PathUnescape(v)
}

func (s *Server) getBattle(c echo.Context) error {
	id, n, sq, err := battleParams(c)
	if err != nil {
		return err
	}
	out, err := s.svc.Battle(c.Request().Context(), actor(c), id, n, sq)
	return reply(c, http.StatusOK, out, err)
}

func (s *Server) submitStrategy(c echo.Context) error {
	id, n, sq, err := battleParams(c)
	if err != nil {
		return err
	}
	var req campaign.StrategyRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.SubmitStrategy(c.Request().Context(), actor(c), id, n, sq, req)
	return reply(c, http.StatusCreated, out, err)
}

func (s *Server) proposeBattle(c echo.Context) error {
	id, n, sq, err := battleParams(c)
	if err != nil {
		return err
	}
	var req campaign.JudgementRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.ProposeBattle(c.Request().Context(), actor(c), id, n, sq, req)
	return reply(c, http.StatusOK, out, err)
}

func (s *Server) confirmBattle(c echo.Context) error {
	id, n, sq, err := battleParams(c)
	if err != nil {
		return err
	}
	var req campaign.ConfirmRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.ConfirmBattle(c.Request().Context(), actor(c), id, n, sq, req)
	return reply(c, http.StatusOK, out, err)
}

func (s *Server) sanction(c echo.Context) error {
	id, n, err := turnParams(c)
	if err != nil {
		return err
	}
	var req campaign.SanctionRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.Sanction(c.Request().Context(), actor(c), id, n, req)
	return reply(c, http.StatusCreated, out, err)
}

type formulaRequest struct {
	Text string `json:"text"`
}

func (s *Server) setFormula(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	name, err := pathName(c, "name", "a formula's name")
	if err != nil {
		return err
	}
	var req formulaRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.SetFormula(c.Request().Context(), actor(c), id, name, req.Text)
	return reply(c, http.StatusOK, out, err)
}

// deskRoutes are the battle judge's desk, the dice, the formulas, the card catalogue and the
// army edits.
func (s *Server) deskRoutes(small echo.MiddlewareFunc, id echo.MiddlewareFunc, v echo.MiddlewareFunc) {
	e := s.echo
	e.GET("/api/cards", s.searchCards, id, v)
	e.GET("/api/cards/:name", s.getCard, id, v)
	e.PUT("/api/cards/:name", s.putCard, small, id, v)

	e.GET("/api/campaigns/:cid/formulas", campaignRead(s.svc.Formulas), id, v)
	e.PUT("/api/campaigns/:cid/formulas/:name", s.setFormula, small, id, v)
	e.POST("/api/campaigns/:cid/troops/check", campaignWrite(http.StatusOK, troopCheck(s.svc.CheckTroops)), small, id, v)
	e.POST("/api/campaigns/:cid/armies", s.createArmy, small, id, v)
	e.PUT("/api/campaigns/:cid/armies/:army", s.editArmy, small, id, v)
	e.POST("/api/campaigns/:cid/armies/:army/troops", s.changeTroops, small, id, v)
	e.POST("/api/campaigns/:cid/armies/:army/customise", s.customise, small, id, v)

	e.GET("/api/campaigns/:cid/turns/:n/battles", turnRead(s.svc.Battles), id, v)
	e.GET("/api/campaigns/:cid/turns/:n/battles/:square", s.getBattle, id, v)
	e.POST("/api/campaigns/:cid/turns/:n/battles/:square/strategies", s.submitStrategy, small, id, v)
	e.POST("/api/campaigns/:cid/turns/:n/battles/:square/proposal", s.proposeBattle, small, id, v)
	e.POST("/api/campaigns/:cid/turns/:n/battles/:square/confirm", s.confirmBattle, small, id, v)
	e.GET("/api/campaigns/:cid/turns/:n/dice", turnRead(s.svc.Dice), id, v)
	e.GET("/api/campaigns/:cid/turns/:n/dice/verify", turnRead(s.svc.VerifyDice), id, v)
	e.GET("/api/campaigns/:cid/turns/:n/sanctions", turnRead(s.svc.Sanctions), id, v)
	e.POST("/api/campaigns/:cid/turns/:n/sanctions", s.sanction, small, id, v)
}

// troopCheck refuses a troop check the rules cannot answer before check sees it: a list for
// a side that holds no armies (neutral: only sites are neutral), or a change or
// customisation with no army to compare the list with.
func troopCheck[T any](check func(context.Context, campaign.Actor, int64, campaign.TroopCheck) (T, error)) func(context.Context, campaign.Actor, int64, campaign.TroopCheck) (T, error) {
	return func(ctx context.Context, a campaign.Actor, id int64, req campaign.TroopCheck) (T, error) {
		var none T
		switch req.Side {
		case "", domain.Coalition, domain.Phyrexia, domain.Mercenary:
		default:
			return none, domain.Errorf(domain.ErrInvalid, "%q holds no armies: a troop list is for an army of the coalition, phyrexia or the mercenaries", req.Side)
		}
		if (req.Kind == "change" || req.Kind == "customise") && strings.TrimSpace(req.Army) == "" {
			return none, domain.Errorf(domain.ErrInvalid, "a %s check compares the list with the troops an army has now: name the army in \"army\"", req.Kind)
		}
		return check(ctx, a, id, req)
	}
}
