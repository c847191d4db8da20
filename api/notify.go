package api

import (
	"fmt"
	"html"
	"net/http"
	"strconv"

	"github.com/gorilla/feeds"
	"github.com/labstack/echo/v4"
)

// notifyRoutes are issue 18's routes: the feed and each account's notifications, the threads'
// messages, the order desk's guides, every line of a turn for the judges, and an admin's
// password reset.
func (s *Server) notifyRoutes(small, id, v echo.MiddlewareFunc) {
	e := s.echo
	e.GET("/api/campaigns/:cid/feed.atom", s.feed, id, v)
	e.GET("/api/campaigns/:cid/notifications", campaignRead(s.svc.Notifications), id, v)
	e.PUT("/api/campaigns/:cid/notifications", campaignWrite(http.StatusOK, s.svc.Subscribe), small, id, v)
	e.DELETE("/api/campaigns/:cid/notifications", s.unsubscribe, id, v)

	e.GET("/api/campaigns/:cid/turns/:n/thread", turnRead(s.svc.Thread), id, v)
	e.GET("/api/campaigns/:cid/turns/:n/messages", turnRead(s.svc.Messages), id, v)
	e.POST("/api/campaigns/:cid/messages", campaignWrite(http.StatusCreated, s.svc.SendMessage), small, id, v)
	e.POST("/api/campaigns/:cid/messages/:mid/hide", s.hideMessage, small, id, v)

	e.GET("/api/campaigns/:cid/desk", campaignRead(s.svc.OrderDesk), id, v)
	e.GET("/api/campaigns/:cid/armies/:army/reach", s.reach, id, v)
	e.GET("/api/campaigns/:cid/turns/:n/lines", turnRead(s.svc.TurnLines), id, v)

	e.POST("/api/accounts/:name/reset-password", s.resetPassword, small, id, v)
}

// feed is a campaign's public events as an Atom feed (RFC 4287), newest first.
func (s *Server) feed(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	f, err := s.svc.Feed(c.Request().Context(), actor(c), id, limit(c))
	if err != nil {
		return err
	}
	base := c.Scheme() + "://" + c.Request().Host
	page := fmt.Sprintf("%s/?c=%d", base, id)
	self := fmt.Sprintf("%s/api/campaigns/%d/feed.atom", base, id)
	af := &feeds.Feed{Title: f.Campaign.Name + " — Coalition Wargame", Link: &feeds.Link{Href: page}, Id: self,
		Description: "Locks and their reports, battles, results, deadlines, pauses and the end of the round.", Updated: f.Campaign.CreatedAt}
	for _, ev := range f.Events {
		if ev.At.After(af.Updated) {
			af.Updated = ev.At
		}
		af.Items = append(af.Items, &feeds.Item{Id: fmt.Sprintf("%s#event-%d", self, ev.ID), Title: ev.Title, Link: &feeds.Link{Href: page},
			Content: "<pre>" + html.EscapeString(ev.Body) + "</pre>", Description: ev.Body, Created: ev.At, Updated: ev.At,
			Author: &feeds.Author{Name: string(ev.Kind)}})
	}
	body, err := af.ToAtom()
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-cache")
	return c.Blob(http.StatusOK, "application/atom+xml; charset=utf-8", []byte(body))
}

func (s *Server) unsubscribe(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	if err := s.svc.Unsubscribe(c.Request().Context(), actor(c), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (s *Server) hideMessage(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	v, _ := param(c, "mid")
	mid, err := strconv.ParseInt(v, 10, 64)
	if err != nil || mid < 1 {
		return badRequest("%q is not a message id", c.Param("mid"))
	}
	var req reasonRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.HideMessage(c.Request().Context(), actor(c), id, mid, req.Reason)
	return reply(c, http.StatusOK, out, err)
}

func (s *Server) reach(c echo.Context) error {
	id, name, err := armyParams(c)
	if err != nil {
		return err
	}
	out, err := s.svc.Reach(c.Request().Context(), actor(c), id, name)
	return reply(c, http.StatusOK, out, err)
}

type resetRequest struct {
	Password string `json:"password"`
}

func (s *Server) resetPassword(c echo.Context) error {
	name, err := pathName(c, "name", "an account's name")
	if err != nil {
		return err
	}
	var req resetRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.ResetPassword(c.Request().Context(), actor(c), name, req.Password)
	return reply(c, http.StatusOK, out, err)
}
