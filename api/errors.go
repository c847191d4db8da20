package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/coalition-wargame/coalition/domain"
)

// Problem is an RFC 9457 problem document.
type Problem struct {
	Type     string `json:"type"`
	Title    string `json:"title"`
	Status   int    `json:"status"`
	Detail   string `json:"detail"`
	Instance string `json:"instance,omitempty"`
}

// badRequest is a malformed request: bad JSON, unknown fields, a value of the wrong form.
func badRequest(format string, args ...any) error {
	return echo.NewHTTPError(http.StatusBadRequest, fmt.Sprintf(format, args...))
}

// handleError is the one place errors become HTTP: domain sentinels map to their statuses,
// echo's own errors keep theirs, anything else is a 500 "internal error", logged once.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, detail := http.StatusInternalServerError, "internal error"
	var he *echo.HTTPError
	switch {
	case errors.Is(err, domain.ErrNotFound):
		status, detail = http.StatusNotFound, err.Error()
	case errors.Is(err, domain.ErrInvalid):
		status, detail = http.StatusUnprocessableEntity, err.Error()
	case errors.Is(err, domain.ErrUnauthorized):
		status, detail = http.StatusUnauthorized, err.Error()
	case errors.Is(err, domain.ErrForbidden):
		status, detail = http.StatusForbidden, err.Error()
	case errors.Is(err, domain.ErrConflict):
		status, detail = http.StatusConflict, err.Error()
	case errors.As(err, &he):
		status = he.Code
		detail = httpDetail(he, c)
		if status >= 500 {
			s.opt.Log.Error("internal error", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
			detail = "internal error"
		}
	default:
		s.opt.Log.Error("internal error", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
	}
	if status == http.StatusUnauthorized {
		c.Response().Header().Set("WWW-Authenticate", `Bearer realm="coalition"`)
	}
	p := Problem{Type: "about:blank", Title: http.StatusText(status), Status: status, Detail: detail, Instance: c.Request().URL.Path}
	body, _ := json.Marshal(p)
	if c.Request().Method == http.MethodHead {
		c.Response().Header().Set(echo.HeaderContentType, "application/problem+json")
		_ = c.NoContent(status)
		return
	}
	_ = c.Blob(status, "application/problem+json", body)
}

// httpDetail words echo's own errors for people.
func httpDetail(he *echo.HTTPError, c echo.Context) string {
	switch he.Code {
	case http.StatusNotFound:
		if he.Message == echo.ErrNotFound.Message {
			return fmt.Sprintf("there is nothing at %s", c.Request().URL.Path)
		}
	case http.StatusMethodNotAllowed:
		return fmt.Sprintf("%s is not allowed on %s", c.Request().Method, c.Request().URL.Path)
	case http.StatusRequestEntityTooLarge:
		return "the request body is too large: posts, results and deck lists may be at most " + smallBody + "B, campaigns and scenarios " + largeBody + "B"
	}
	if m, ok := he.Message.(string); ok {
		return m
	}
	return http.StatusText(he.Code)
}
