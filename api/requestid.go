// Request ids: every answer carries one (X-Request-Id, and request_id in a problem document),
// and the log lines of the request name it, so that a client's report finds its log line.

package api

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"sync/atomic"

	"github.com/labstack/echo/v4"
)

// proxyID reports whether a request id a reverse proxy hands on is a plain token of at most 64
// characters ([A-Za-z0-9._:-]); anything else is replaced, so that a client cannot write into
// the logs.
func proxyID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '_', c == ':', c == '-':
		default:
			return false
		}
	}
	return true
}

// idPrefix is this process's random half of every request id it makes; ids counts them.
var (
	idPrefix = func() [8]byte {
		var b [8]byte
		_, _ = rand.Read(b[:])
		return b
	}()
	ids atomic.Uint64
)

// newRequestID is 32 hex digits: the process's random prefix and a count, unique without a
// call for random bytes at every request (a request id is no secret).
func newRequestID() string {
	var b [16]byte
	copy(b[:8], idPrefix[:])
	binary.BigEndian.PutUint64(b[8:], ids.Add(1))
	return hex.EncodeToString(b[:])
}

// requestID is the request's id ("" before the middleware ran): the one its answer carries.
func requestID(c echo.Context) string {
	if id := c.Response().Header()[echo.HeaderXRequestID]; len(id) > 0 {
		return id[0]
	}
	return ""
}
