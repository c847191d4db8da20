package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/labstack/echo/v4"
)

// validator checks requests against the OpenAPI document before a handler sees them.
type validator struct {
	doc    *openapi3.T
	router routers.Router
	// headers are the header parameters the document declares anywhere; passed keeps the
	// bodiless requests found valid, by method, URI and those headers (issue 16: a map read
	// is checked once, not a thousand times a second).
	headers []string
	passed  struct {
		sync.RWMutex
		keys map[passKey]bool
	}
}

// embedded is the validator of the embedded document (Spec), read and checked once a process:
// the document and its router are only read once made, by every server and request.
var embedded struct {
	sync.Once
	v   *validator
	err error
}

// specValidator is the validator of the embedded document.
func specValidator() (*validator, error) {
	embedded.Do(func() { embedded.v, embedded.err = newValidator(Spec) })
	return embedded.v, embedded.err
}

// maxPassed bounds the requests kept as found valid; past it the set starts again.
const maxPassed = 4096

func newValidator(spec []byte) (*validator, error) {
	doc, err := LoadSpec(spec)
	if err != nil {
		return nil, err
	}
	r, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	v := &validator{doc: doc, router: r}
	seen := map[string]bool{}
	note := func(ps openapi3.Parameters) {
		for _, p := range ps {
			if p.Value != nil && p.Value.In == openapi3.ParameterInHeader && !seen[p.Value.Name] {
				seen[p.Value.Name] = true
				v.headers = append(v.headers, p.Value.Name)
			}
		}
	}
	for _, item := range doc.Paths.Map() {
		note(item.Parameters)
		for _, op := range item.Operations() {
			note(op.Parameters)
		}
	}
	return v, nil
}

// passKey is what a bodiless request's validity depends on: method, URI and the declared
// headers (four at most are kept).
type passKey struct {
	method, uri string
	headers     [4]string
}

// keyOf is a bodiless request's passKey; false for a request with a body, which is checked
// every time, and when the document declares more headers than a key keeps.
func (v *validator) keyOf(req *http.Request) (passKey, bool) {
	if req.ContentLength != 0 || (req.Method != http.MethodGet && req.Method != http.MethodHead) || len(v.headers) > 4 {
		return passKey{}, false
	}
	k := passKey{method: req.Method, uri: req.RequestURI}
	for i, h := range v.headers {
		k.headers[i] = req.Header.Get(h)
	}
	return k, true
}

// LoadSpec reads and checks an OpenAPI document.
func LoadSpec(spec []byte) (*openapi3.T, error) {
	doc, err := openapi3.NewLoader().LoadFromData(spec)
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	return doc, nil
}

// Router finds a request's operation in the document, for the contract test.
func (v *validator) Router() routers.Router { return v.router }

func (v *validator) middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		key, cache := v.keyOf(req)
		if cache {
			v.passed.RLock()
			ok := v.passed.keys[key]
			v.passed.RUnlock()
			if ok {
				return next(c)
			}
		}
		route, params, err := v.router.FindRoute(req)
		if err != nil {
			return next(c) // echo answers routes the document does not know
		}
		in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
		if err := openapi3filter.ValidateRequest(req.Context(), in); err != nil {
			return requestProblem(err)
		}
		if cache {
			v.passed.Lock()
			if v.passed.keys == nil || len(v.passed.keys) >= maxPassed {
				v.passed.keys = map[passKey]bool{}
			}
			v.passed.keys[key] = true
			v.passed.Unlock()
		}
		return next(c)
	}
}

// requestProblem words a validation failure for people: where and what.
func requestProblem(err error) error {
	var he *echo.HTTPError
	if errors.As(err, &he) {
		return he
	}
	var re *openapi3filter.RequestError
	if !errors.As(err, &re) {
		return badRequest("the request does not match the API: %v", err)
	}
	what := "the request"
	switch {
	case re.Parameter != nil:
		what = fmt.Sprintf("the %s parameter %q", re.Parameter.In, re.Parameter.Name)
	case re.RequestBody != nil:
		what = "the request body"
	}
	var pe *openapi3filter.ParseError
	if errors.As(re.Err, &pe) {
		msg := pe.Reason
		if pe.Cause != nil {
			msg = pe.Cause.Error()
		}
		if re.RequestBody != nil {
			return badRequest("the request body is not valid JSON: %s", msg)
		}
		return badRequest("%s is not valid: %s", what, msg)
	}
	var se *openapi3.SchemaError
	if errors.As(re.Err, &se) {
		return badRequest("%s%s does not fit the API: %s", what, at(se), schemaReason(se))
	}
	if re.Err == nil {
		return badRequest("%s is not valid: %s", what, re.Reason)
	}
	if errors.Is(re.Err, openapi3filter.ErrInvalidRequired) || strings.Contains(re.Err.Error(), "value is required") {
		return badRequest("%s is missing", what)
	}
	return badRequest("%s is not valid: %s", what, firstLine(re.Err.Error()))
}

func at(se *openapi3.SchemaError) string {
	p := se.JSONPointer()
	if len(p) == 0 {
		return ""
	}
	return fmt.Sprintf(" at \"/%s\"", strings.Join(p, "/"))
}

func schemaReason(se *openapi3.SchemaError) string {
	if se.Origin != nil {
		var inner *openapi3.SchemaError
		if errors.As(se.Origin, &inner) && inner != se {
			return schemaReason(inner)
		}
		return firstLine(se.Origin.Error())
	}
	if se.Reason != "" {
		return se.Reason
	}
	return fmt.Sprintf("it does not match the schema's %q", se.SchemaField)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
