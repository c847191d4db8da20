package api

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/coalition-wargame/coalition/campaign"
)

func (s *Server) searchCards(c echo.Context) error {
	n, _ := strconv.Atoi(c.QueryParam("limit"))
	out, err := s.svc.SearchCards(c.Request().Context(), c.QueryParam("q"), n)
	return reply(c, http.StatusOK, out, err)
}

func (s *Server) getCard(c echo.Context) error {
	name, err := pathName(c, "name", "a card's name")
	if err != nil {
		return err
	}
	out, err := s.svc.LookupCard(c.Request().Context(), name)
	return reply(c, http.StatusOK, out, err)
}

func (s *Server) putCard(c echo.Context) error {
	name, err := pathName(c, "name", "a card's name")
	if err != nil {
		return err
	}
	var card campaign.Card
	if err := bind(c, &card); err != nil {
		return err
	}
	out, err := s.svc.PutCard(c.Request().Context(), actor(c), name, card)
	return reply(c, http.StatusOK, out, err)
}

// armyReply answers an army change; a troop list that breaks the rules is a 422 problem whose
// detail lists every problem, with the problems also given one by one.
func armyReply(c echo.Context, status int, out *campaign.ArmyChange, err error) error {
	var lp *campaign.ListProblem
	if errors.As(err, &lp) {
		body, err := json.Marshal(listProblemDoc{
			Problem:  newProblem(c, http.StatusUnprocessableEntity, lp.Error()),
			Problems: lp.Problems,
		})
		if err != nil {
			return err
		}
		return c.Blob(http.StatusUnprocessableEntity, "application/problem+json", body)
	}
	return reply(c, status, out, err)
}

func (s *Server) createArmy(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	var req campaign.ArmyInput
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.CreateArmy(c.Request().Context(), actor(c), id, req)
	return armyReply(c, http.StatusCreated, out, err)
}

func armyParams(c echo.Context) (int64, string, error) {
	id, err := campaignID(c)
	if err != nil {
		return 0, "", err
	}
	name, err := pathName(c, "army", "an army's name")
	return id, name, err
}

func (s *Server) editArmy(c echo.Context) error {
	id, name, err := armyParams(c)
	if err != nil {
		return err
	}
	var req campaign.ArmyEdit
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.EditArmy(c.Request().Context(), actor(c), id, name, req)
	return armyReply(c, http.StatusOK, out, err)
}

func (s *Server) changeTroops(c echo.Context) error {
	id, name, err := armyParams(c)
	if err != nil {
		return err
	}
	var req campaign.TroopChange
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.ChangeTroops(c.Request().Context(), actor(c), id, name, req)
	return armyReply(c, http.StatusOK, out, err)
}

func (s *Server) customise(c echo.Context) error {
	id, name, err := armyParams(c)
	if err != nil {
		return err
	}
	var req campaign.Customisation
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.Customise(c.Request().Context(), actor(c), id, name, req)
	return armyReply(c, http.StatusOK, out, err)
}

// listProblemDoc is the problem document of a troop list that breaks the rules: the detail
// says every problem in words, and problems lists them one by one (rule, code, creature).
type listProblemDoc struct {
	Problem
	Problems any `json:"problems"`
}
