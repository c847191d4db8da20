// The routes of the teams' self-government (issue 15, chapters 1 and 5): active players,
// change power, consent requests, emergency configurations, votes, name changes and admission.

package api

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/coalition-wargame/coalition/campaign"
)

// governRoutes registers the self-government's routes.
func (s *Server) governRoutes(small, id, v echo.MiddlewareFunc) {
	e := s.echo
	e.GET("/api/campaigns/:cid/activity", campaignRead(s.svc.Activity), id, v)
	e.PUT("/api/campaigns/:cid/activity", campaignWrite(http.StatusOK, s.svc.SetInactive), small, id, v)
	e.POST("/api/campaigns/:cid/inactivity", campaignWrite(http.StatusCreated, s.svc.DeclareInactive), small, id, v)
	e.POST("/api/campaigns/:cid/inactivity/:did/reject", itemWrite("did", "a declaration id", http.StatusOK, reasonedItem(s.svc.RejectDeclaration)), small, id, v)

	e.GET("/api/campaigns/:cid/power", campaignRead(public(s.svc.Power)), id, v)
	e.POST("/api/campaigns/:cid/power", campaignWrite(http.StatusOK, s.svc.HandPower), small, id, v)
	e.GET("/api/campaigns/:cid/control/requests", campaignRead(s.svc.ControlRequests), id, v)
	e.POST("/api/campaigns/:cid/control/requests", campaignWrite(http.StatusCreated, s.svc.RequestConsent), small, id, v)
	e.POST("/api/campaigns/:cid/control/requests/:rid/accept", itemWrite("rid", "a request id", http.StatusOK, decided(s.svc.AnswerConsent, true)), small, id, v)
	e.POST("/api/campaigns/:cid/control/requests/:rid/decline", itemWrite("rid", "a request id", http.StatusOK, decided(s.svc.AnswerConsent, false)), small, id, v)
	e.GET("/api/campaigns/:cid/emergencies", campaignRead(s.svc.Emergencies), id, v)
	e.POST("/api/campaigns/:cid/emergencies", campaignWrite(http.StatusCreated, s.svc.DeclareEmergency), small, id, v)

	e.GET("/api/campaigns/:cid/votes", campaignRead(s.svc.Votes), id, v)
	e.POST("/api/campaigns/:cid/votes", campaignWrite(http.StatusCreated, s.svc.CallVote), small, id, v)
	e.GET("/api/campaigns/:cid/votes/:vid", itemRead("vid", "a vote id", s.svc.VoteOf), id, v)
	e.PUT("/api/campaigns/:cid/votes/:vid/ballot", itemWrite("vid", "a vote id", http.StatusOK, s.castBallot), small, id, v)

	e.GET("/api/campaigns/:cid/names", campaignRead(s.svc.NameChanges), id, v)
	e.POST("/api/campaigns/:cid/names", campaignWrite(http.StatusCreated, s.svc.AskName), small, id, v)
	e.POST("/api/campaigns/:cid/names/:rid/approve", itemWrite("rid", "a request id", http.StatusOK, decided(s.svc.DecideName, true)), small, id, v)
	e.POST("/api/campaigns/:cid/names/:rid/decline", itemWrite("rid", "a request id", http.StatusOK, decided(s.svc.DecideName, false)), small, id, v)

	e.GET("/api/campaigns/:cid/admissions", campaignRead(s.svc.Admissions), id, v)
	e.POST("/api/campaigns/:cid/admissions", campaignWrite(http.StatusCreated, s.svc.AskAdmission), small, id, v)
	e.POST("/api/campaigns/:cid/admissions/:aid/accept", itemWrite("aid", "a request id", http.StatusOK, s.acceptAdmission), small, id, v)
	e.POST("/api/campaigns/:cid/admissions/:aid/decline", itemWrite("aid", "a request id", http.StatusOK, s.declineAdmission), small, id, v)
}

// itemID reads the path parameter key as a positive id.
func itemID(c echo.Context, key, what string) (int64, error) {
	v, _ := param(c, key)
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 1 {
		return 0, badRequest("%q is not %s", c.Param(key), what)
	}
	return n, nil
}

// itemRead serves a GET of one thing of a campaign (/api/campaigns/:cid/…/:key).
func itemRead[T any](key, what string, read func(context.Context, campaign.Actor, int64, int64) (T, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := campaignID(c)
		if err != nil {
			return err
		}
		n, err := itemID(c, key, what)
		if err != nil {
			return err
		}
		out, err := read(c.Request().Context(), actor(c), id, n)
		return reply(c, http.StatusOK, out, err)
	}
}

// itemWrite serves a change to one thing of a campaign with a JSON body.
func itemWrite[Req, T any](key, what string, status int, write func(context.Context, campaign.Actor, int64, int64, Req) (T, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := campaignID(c)
		if err != nil {
			return err
		}
		n, err := itemID(c, key, what)
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

// optionalReason is a body whose reason may be left out.
type optionalReason struct {
	Reason string `json:"reason"`
}

// reasonedItem adapts a judge's action on one thing, whose only input is its reason.
func reasonedItem[T any](f func(context.Context, campaign.Actor, int64, int64, string) (T, error)) func(context.Context, campaign.Actor, int64, int64, reasonRequest) (T, error) {
	return func(ctx context.Context, a campaign.Actor, id, n int64, req reasonRequest) (T, error) {
		return f(ctx, a, id, n, req.Reason)
	}
}

// decided adapts a yes-or-no answer to a request, with an optional reason.
func decided[T any](f func(context.Context, campaign.Actor, int64, int64, bool, string) (T, error), yes bool) func(context.Context, campaign.Actor, int64, int64, optionalReason) (T, error) {
	return func(ctx context.Context, a campaign.Actor, id, n int64, req optionalReason) (T, error) {
		return f(ctx, a, id, n, yes, req.Reason)
	}
}

type ballotRequest struct {
	Choice string `json:"choice"`
}

func (s *Server) castBallot(ctx context.Context, a campaign.Actor, id, vid int64, req ballotRequest) (*campaign.VoteView, error) {
	return s.svc.CastBallot(ctx, a, id, vid, req.Choice)
}

func (s *Server) acceptAdmission(ctx context.Context, a campaign.Actor, id, aid int64, req campaign.AdmissionDecision) (*campaign.Admission, error) {
	return s.svc.DecideAdmission(ctx, a, id, aid, true, req)
}

func (s *Server) declineAdmission(ctx context.Context, a campaign.Actor, id, aid int64, req optionalReason) (*campaign.Admission, error) {
	return s.svc.DecideAdmission(ctx, a, id, aid, false, campaign.AdmissionDecision{Reason: req.Reason})
}
