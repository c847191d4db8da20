// Idempotency-Key (issue 16, R90; draft-ietf-httpapi-idempotency-key-header): a request that
// changes something, sent again with the same key and body, gets the first answer again and
// changes nothing; the same key with another request is a 422, and a retry while the first is
// still being answered waits for it.

package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

// Header names of the idempotency keys.
const (
	// HeaderIdempotencyKey carries the client's key for a request that changes something.
	HeaderIdempotencyKey = "Idempotency-Key"
	// HeaderReplayed is set on an answer given again for a retried key.
	HeaderReplayed = "Idempotent-Replayed"
)

// maxKey is the longest key taken: a UUID is 36 characters.
const maxKey = 255

// parseKey reads an Idempotency-Key: a structured-field string ("…", RFC 8941) as the draft
// has it, or the bare token most clients send; printable ASCII, 1 to 255 characters.
func parseKey(raw string) (string, error) {
	k := strings.TrimSpace(raw)
	if len(k) >= 2 && k[0] == '"' && k[len(k)-1] == '"' {
		k = k[1 : len(k)-1]
	}
	if k == "" || len(k) > maxKey {
		return "", badRequest("the Idempotency-Key must have 1 to %d characters (a UUID will do)", maxKey)
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x21 || k[i] > 0x7e || k[i] == '"' || k[i] == '\\' {
			return "", badRequest("the Idempotency-Key may hold only printable ASCII characters, no space, quote or backslash (a UUID will do)")
		}
	}
	return k, nil
}

// Fingerprint is a request as its key is bound to: method, path and query, and the body (JSON
// compacted, so that a retry that only spaces it otherwise is the same request).
func Fingerprint(method, path, query string, body []byte) string {
	var b bytes.Buffer
	if json.Valid(body) && json.Compact(&b, body) == nil {
		body = b.Bytes()
	}
	h := sha256.New()
	h.Write([]byte(method + " " + path + "?" + query + "\n"))
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// keyLocks lets one request per account and key run at a time in this server: a retry sent
// while the first is being answered waits for it, then gets its answer.
type keyLocks struct {
	mu   sync.Mutex
	held map[keyID]chan struct{}
}

type keyID struct {
	account int64
	key     string
}

// hold waits until no other request of this server holds k, then holds it until release.
func (l *keyLocks) hold(c echo.Context, k keyID) (release func(), err error) {
	for {
		l.mu.Lock()
		ch, busy := l.held[k]
		if !busy {
			if l.held == nil {
				l.held = map[keyID]chan struct{}{}
			}
			ch = make(chan struct{})
			l.held[k] = ch
			l.mu.Unlock()
			return func() {
				l.mu.Lock()
				delete(l.held, k)
				l.mu.Unlock()
				close(ch)
			}, nil
		}
		l.mu.Unlock()
		select {
		case <-ch:
		case <-c.Request().Context().Done():
			return nil, c.Request().Context().Err()
		}
	}
}

// idempotent answers a retried Idempotency-Key from its record, and otherwise runs the request
// with the key as its claim: the service records it with the request's first change, and the
// answer is kept with it (a post's in the same transaction; any other's just after).
func (s *Server) idempotent(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		raw := req.Header.Get(HeaderIdempotencyKey)
		if raw == "" || !changes(req.Method) {
			return next(c)
		}
		key, err := parseKey(raw)
		if err != nil {
			return err
		}
		var body []byte
		if !bodiless(req.Method) {
			if body, err = readBody(c, largeBody); err != nil {
				return err
			}
		}
		id := keyID{key: key}
		if a := actor(c).Account; a != nil {
			id.account = a.ID
		}
		release, err := s.keys.hold(c, id)
		if err != nil {
			return err
		}
		defer release()
		ctx := req.Context()
		fp := Fingerprint(req.Method, req.URL.Path, req.URL.RawQuery, body)
		rec, err := s.svc.IdempotencyRecord(ctx, id.account, key)
		switch {
		case err == nil && rec.Fingerprint != fp:
			return domain.Errorf(domain.ErrInvalid, "the Idempotency-Key %q was sent before with another request (another method, path or body): a new request needs a new key", key)
		case err == nil && rec.Status == 0:
			return domain.Errorf(domain.ErrConflict, "the request first sent with the Idempotency-Key %q changed something, but its answer was not kept (the server stopped before it could answer): look at what it did before you send it again with a new key", key)
		case err == nil:
			s.metrics.replayed(c.Path())
			c.Response().Header().Set(HeaderReplayed, "true")
			return c.Blob(rec.Status, rec.ContentType, rec.Body)
		case !errors.Is(err, domain.ErrNotFound):
			return err
		}
		claim := &campaign.Claim{Account: id.account, Key: key, Fingerprint: fp}
		c.SetRequest(req.WithContext(campaign.WithClaim(ctx, claim)))
		tee := &teeWriter{ResponseWriter: c.Response().Writer}
		c.Response().Writer = tee
		if err := next(c); err != nil {
			c.Error(err)
		}
		c.Response().Writer = tee.ResponseWriter
		if claim.Recorded() && !claim.Answered() {
			if err := s.svc.Answer(ctx, claim, c.Response().Status, c.Response().Header().Get(echo.HeaderContentType), tee.body.Bytes()); err != nil {
				s.opt.Log.Error("the answer to an idempotent request was not kept", "request_id", requestID(c), "err", err)
			}
		}
		return nil
	}
}

// changes reports whether a method may change something: POST, PUT, PATCH, DELETE.
func changes(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// answerPosts has the post batch store a post's answer with its key, as c.JSON writes it.
func answerPosts(c echo.Context, status int) {
	claim := campaign.ClaimOf(c.Request().Context())
	if claim == nil {
		return
	}
	claim.Status = status
	claim.Render = func(v any) (string, []byte, error) {
		var b bytes.Buffer
		// echo's c.JSON: an encoder, with its newline
		err := json.NewEncoder(&b).Encode(v)
		return echo.MIMEApplicationJSON, b.Bytes(), err
	}
}

// teeWriter keeps a copy of the answer's body.
type teeWriter struct {
	http.ResponseWriter
	body bytes.Buffer
}

func (w *teeWriter) Write(p []byte) (int, error) {
	w.body.Write(p)
	return w.ResponseWriter.Write(p)
}

// Flush flushes the answer when the writer can.
func (w *teeWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap is the writer underneath, for http.ResponseController.
func (w *teeWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
