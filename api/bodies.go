// Request bodies: a size limit on every route, GET and DELETE included, and strict JSON —
// one reader and one decoder for every handler (issue 17).

package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
	"github.com/labstack/echo/v4"

	"github.com/coalition-wargame/coalition/domain"
)

// Body limits: a post is at most 20 KB of text; a campaign with its map or a scenario is
// larger; a route that takes no body (GET, HEAD, DELETE) accepts at most noBody and ignores it.
const (
	smallBody = 256 << 10
	largeBody = 8 << 20
	noBody    = 1 << 10
)

// strictJSON decodes as encoding/json does (json v1's semantics: names matched without
// regard to case, the types' own UnmarshalJSON) but refuses duplicate names, invalid UTF-8,
// unknown fields and trailing data, and says where (json v2's errors carry the JSON pointer
// and the byte offset).
var strictJSON = json.JoinOptions(jsonv1.DefaultOptionsV1(),
	json.RejectUnknownMembers(true), jsontext.AllowDuplicateNames(false), jsontext.AllowInvalidUTF8(false),
	jsonv1.ReportErrorsWithLegacySemantics(false))

// bodyKey keeps the request body read by readBody.
const bodyKey = "coalition.body"

// bodiless reports whether a request of the method takes no body.
func bodiless(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodDelete, http.MethodOptions, http.MethodTrace:
		return true
	}
	return false
}

// limitBodies puts a limit on every request's body, whatever its route (unknown ones too):
// a body longer than its Content-Length allows is refused at once; a route that takes no
// body reads at most noBody of it (413 past that, before the rest is read); a body of another
// request stops at largeBody when read.
func limitBodies(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		limit := int64(largeBody)
		if bodiless(req.Method) {
			limit = noBody
		}
		if req.ContentLength > limit {
			return tooLarge(limit)
		}
		if req.Body == nil || req.Body == http.NoBody {
			return next(c)
		}
		if bodiless(req.Method) {
			if _, err := readBody(c, limit); err != nil {
				return err
			}
			return next(c)
		}
		req.Body = http.MaxBytesReader(c.Response().Writer, req.Body, limit)
		return next(c)
	}
}

// jsonBody reads a route's body up to limit (413 past it) and, when it is JSON, checks that
// it is strict JSON before the OpenAPI check and the handler see it.
func jsonBody(limit int64) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if c.Request().ContentLength > limit {
				return tooLarge(limit)
			}
			data, err := readBody(c, limit)
			if err != nil {
				return err
			}
			if len(data) > 0 && isJSON(c.Request().Header.Get(echo.HeaderContentType)) {
				if err := checkJSON(data); err != nil {
					return err
				}
			}
			return next(c)
		}
	}
}

// isJSON reports whether a Content-Type is JSON; a body without one is read as JSON.
func isJSON(contentType string) bool {
	if contentType == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// readBody reads the whole body, at most limit bytes (413 past it), keeps it for bind and
// puts it back for whoever reads it next (the OpenAPI check, a handler).
func readBody(c echo.Context, limit int64) ([]byte, error) {
	req := c.Request()
	if data, ok := c.Get(bodyKey).([]byte); ok {
		if int64(len(data)) > limit {
			return nil, tooLarge(limit)
		}
		return data, nil
	}
	var data []byte
	if req.Body != nil {
		var err error
		data, err = io.ReadAll(io.LimitReader(req.Body, limit+1))
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			return nil, tooLarge(mbe.Limit)
		case err != nil && clientGone(err, c):
			return nil, err
		case err != nil:
			return nil, badRequest("the request body could not be read: %v", err)
		case int64(len(data)) > limit:
			return nil, tooLarge(limit)
		}
	}
	req.Body = io.NopCloser(bytes.NewReader(data))
	req.ContentLength = int64(len(data))
	c.Set(bodyKey, data)
	return data, nil
}

// tooLarge is the 413 of a body over limit.
func tooLarge(limit int64) error {
	if limit <= noBody {
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is too large: this route takes no body (at most %s, ignored)", size(limit)))
	}
	return echo.NewHTTPError(http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is too large: this route takes at most %s", size(limit)))
}

// size words a byte count: 1 KB, 256 KB, 8 MB.
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// checkJSON checks that data is one strict JSON value: well formed, valid UTF-8, no name
// twice in an object, nothing after it.
func checkJSON(data []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(false), jsontext.AllowInvalidUTF8(false))
	if err := dec.SkipValue(); err != nil {
		return badRequest("the request body is not valid JSON: %s", jsonProblem(data, err))
	}
	return trailing(data, dec.InputOffset())
}

// trailing refuses anything but white space after the JSON value that ends at end.
func trailing(data []byte, end int64) error {
	rest := bytes.TrimLeft(data[end:], " \t\r\n")
	if len(rest) == 0 {
		return nil
	}
	return badRequest("the request body is not valid JSON: there is more after the JSON value, at byte %d", int64(len(data)-len(rest)))
}

// bind decodes the request body strictly into v: a JSON value of v's form, no unknown field,
// no duplicate name, valid UTF-8, nothing after it (400, as the OpenAPI check's refusals); a
// value the domain does not know (a rank word, a square) is a 422.
func bind(c echo.Context, v any) error {
	data, err := readBody(c, largeBody)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return badRequest("the request body is not valid: it is empty")
	}
	if err := json.Unmarshal(data, v, strictJSON); err != nil {
		var se *jsontext.SyntacticError
		if errors.As(err, &se) && strings.Contains(se.Error(), "after top-level value") {
			return trailing(data, se.ByteOffset)
		}
		if errors.Is(err, domain.ErrInvalid) {
			// well-formed, of the document's form, but no value of its kind: a rank word,
			// a square, a colour the domain does not know (422, as the service's refusals)
			return domain.Errorf(domain.ErrInvalid, "the request body is not valid: %s", jsonProblem(data, err))
		}
		return badRequest("the request body is not valid: %s", jsonProblem(data, err))
	}
	return nil
}

// jsonProblem words a decoding error for people: what, and where (a JSON pointer, a byte).
func jsonProblem(data []byte, err error) string {
	var syn *jsontext.SyntacticError
	var sem *json.SemanticError
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "it ends before its JSON value does"
	case errors.As(err, &syn) && errors.Is(syn.Err, jsontext.ErrDuplicateName):
		return fmt.Sprintf("duplicate name %q in the object at %s", syn.JSONPointer.LastToken(), pointer(syn.JSONPointer.Parent()))
	case errors.As(err, &syn) && strings.Contains(syn.Err.Error(), "UTF-8"):
		return fmt.Sprintf("invalid UTF-8 at byte %d, in %s", badUTF8(data, syn.ByteOffset), pointer(syn.JSONPointer))
	case errors.As(err, &syn):
		return fmt.Sprintf("%s at byte %d (in %s)", strings.TrimPrefix(syn.Err.Error(), "jsontext: "), syn.ByteOffset, pointer(syn.JSONPointer))
	case errors.As(err, &sem) && errors.Is(sem.Err, json.ErrUnknownName):
		return fmt.Sprintf("unknown field %q at %s", sem.JSONPointer.LastToken(), pointer(sem.JSONPointer.Parent()))
	case errors.As(err, &sem) && sem.JSONKind == '0' && sem.GoType != nil && goKind(sem.GoType.Kind().String()) == "a number":
		// JSON Schema's integer takes 1.0 and any size; Go's integers do not
		if bytes.ContainsAny(sem.JSONValue, ".eE") && !strings.HasPrefix(sem.GoType.Kind().String(), "float") {
			return fmt.Sprintf("the number %s at %s must be written as a whole number, without a fraction or exponent (byte %d)", sem.JSONValue, pointer(sem.JSONPointer), sem.ByteOffset)
		}
		return fmt.Sprintf("the number %s at %s is out of range (byte %d)", sem.JSONValue, pointer(sem.JSONPointer), sem.ByteOffset)
	case errors.As(err, &sem) && sem.Err != nil:
		return fmt.Sprintf("%s at %s (byte %d)", strings.TrimPrefix(sem.Err.Error(), "json: "), pointer(sem.JSONPointer), sem.ByteOffset)
	case errors.As(err, &sem):
		what := "the value"
		if sem.JSONKind != 0 {
			what = "a JSON " + sem.JSONKind.String()
		}
		if sem.GoType != nil {
			what += " cannot be " + goKind(sem.GoType.Kind().String())
		}
		return fmt.Sprintf("%s at %s (byte %d)", what, pointer(sem.JSONPointer), sem.ByteOffset)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// pointer names a place in the body: its JSON pointer, or the body itself.
func pointer(p jsontext.Pointer) string {
	if p == "" {
		return "the top level"
	}
	return strconv.Quote(string(p))
}

// goKind words a Go kind as the JSON it takes.
func goKind(k string) string {
	switch {
	case strings.HasPrefix(k, "int"), strings.HasPrefix(k, "uint"), strings.HasPrefix(k, "float"):
		return "a number"
	case k == "string":
		return "a string"
	case k == "bool":
		return "true or false"
	case k == "slice", k == "array":
		return "a list"
	case k == "struct", k == "map":
		return "an object"
	}
	return "this field"
}

// badUTF8 is the first byte from off on that is not valid UTF-8 (off when none is found).
func badUTF8(data []byte, off int64) int64 {
	for i := int(max(off, 0)); i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return int64(i)
		}
		i += n
	}
	return off
}
