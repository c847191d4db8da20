package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"syscall"

	"github.com/labstack/echo/v4"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

// Problem is an RFC 9457 problem document.
type Problem struct {
	Type     string `json:"type"`
	Title    string `json:"title"`
	Status   int    `json:"status"`
	Detail   string `json:"detail"`
	Instance string `json:"instance,omitempty"`
	// RequestID is the request's id, as in the X-Request-Id header and the log.
	RequestID string `json:"request_id,omitempty"`
	// Field and Range name a setting out of its bounds and the bounds (campaign.RangeError).
	Field string        `json:"field,omitempty"`
	Range *ProblemRange `json:"range,omitempty"`
}

// ProblemRange is the range a refused setting must lie in, both ends included.
type ProblemRange struct {
	Min  string `json:"min"`
	Max  string `json:"max"`
	Unit string `json:"unit"`
}

// newProblem is the problem document of a status for this request.
func newProblem(c echo.Context, status int, detail string) Problem {
	title := http.StatusText(status)
	if status == statusClientGone {
		title = "Client Closed Request"
	}
	return Problem{Type: "about:blank", Title: title, Status: status, Detail: detail, Instance: c.Request().URL.Path, RequestID: requestID(c)}
}

// statusClientGone is the status logged for a client that went away before its answer
// (nginx's 499); nobody reads the answer.
const statusClientGone = 499

// clientContextKey keeps the request's context as the server got it, before the time limit
// (middleware.ContextTimeout) wraps it and cancels the wrapper when the handler returns.
const clientContextKey = "coalition.client_context"

// clientGone reports whether err comes from a client that went away: the request's own
// context was canceled, or the connection broke while the answer was written.
func clientGone(err error, c echo.Context) bool {
	ctx, ok := c.Get(clientContextKey).(context.Context)
	if !ok {
		ctx = c.Request().Context() // no time limit wraps it (deadlineFree)
	}
	return errors.Is(ctx.Err(), context.Canceled) || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET)
}

// badRequest is a malformed request: bad JSON, unknown fields, a value of the wrong form.
func badRequest(format string, args ...any) error {
	return echo.NewHTTPError(http.StatusBadRequest, fmt.Sprintf(format, args...))
}

// handleError is the one place errors become HTTP: domain sentinels map to their statuses,
// echo's own errors keep theirs, anything else is a 500 "internal error", logged once at
// ERROR with the request id the client sees; a client that went away is a debug line.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, detail := http.StatusInternalServerError, "internal error"
	at := func(kv ...any) []any {
		return append([]any{"request_id", requestID(c), "method", c.Request().Method, "path", c.Request().URL.Path}, kv...)
	}
	var he *echo.HTTPError
	switch {
	case clientGone(err, c):
		status, detail = statusClientGone, "the client went away"
		s.opt.Log.Debug("client went away", at("err", err)...)
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
			s.opt.Log.Error("internal error", at("err", err)...)
			detail = "internal error"
		}
	default:
		s.opt.Log.Error("internal error", at("err", err)...)
	}
	if status == http.StatusUnauthorized {
		c.Response().Header().Set("WWW-Authenticate", `Bearer realm="coalition"`)
	}
	p := newProblem(c, status, detail)
	var re *campaign.RangeError
	if errors.As(err, &re) {
		p.Field, p.Range = re.Field, &ProblemRange{Min: re.Min, Max: re.Max, Unit: re.Unit}
	}
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
		if he.Message == echo.ErrStatusRequestEntityTooLarge.Message {
			return "the request body is too large"
		}
	}
	if m, ok := he.Message.(string); ok {
		return m
	}
	return http.StatusText(he.Code)
}
