// Request ids: every answer carries one (X-Request-Id, and request_id in a problem document),
// and the log lines of the request name it, so that a client's report finds its log line.

package api

import (
	"crypto/rand"
	"encoding/hex"
	"regexp"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// requestIDKey is where the request's id is kept in the echo context.
const requestIDKey = "coalition.request_id"

// proxyID is a request id a reverse proxy may hand on: a plain token of at most 64
// characters; anything else is replaced, so that a client cannot write into the logs.
var proxyID = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,64}$`)

// newRequestID is 16 random bytes in hex.
func newRequestID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// requestIDs is echo's request-id middleware: the id a proxy sent when it is a plain token,
// else a fresh one, set on the answer and kept for the logs and the problem documents.
func requestIDs() echo.MiddlewareFunc {
	return middleware.RequestIDWithConfig(middleware.RequestIDConfig{
		Generator: newRequestID,
		RequestIDHandler: func(c echo.Context, id string) {
			if !proxyID.MatchString(id) {
				id = newRequestID()
				c.Response().Header().Set(echo.HeaderXRequestID, id)
			}
			c.Set(requestIDKey, id)
		},
	})
}

// requestID is the request's id ("" before the middleware ran).
func requestID(c echo.Context) string {
	id, _ := c.Get(requestIDKey).(string)
	return id
}
