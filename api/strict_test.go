package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// countingBody is a request body of n bytes that counts how many were read.
type countingBody struct {
	n, read int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	if b.read >= b.n {
		return 0, io.EOF
	}
	k := min(int64(len(p)), b.n-b.read)
	for i := range p[:k] {
		p[i] = ' '
	}
	b.read += k
	return int(k), nil
}

const hundredMB = 100 << 20

// A 100 MB body to a route that takes none — GET /api/me, DELETE a post — is refused with
// 413 before it is read: at most 1 KB of it is read when its length is not given, none when
// Content-Length says it (issue 17: it was read to the end).
func TestBodiless413BodyRefusedEarly(t *testing.T) {
	e := newEnv(t)
	tok := e.token(player)
	for _, route := range []struct{ method, path string }{{"GET", "/api/me"}, {"DELETE", c1 + "/posts/1"}, {"GET", "/api/campaigns"}, {"GET", "/"}, {"GET", "/nowhere"}} {
		for _, known := range []bool{false, true} {
			body := &countingBody{n: hundredMB}
			req := httptest.NewRequest(route.method, route.path, body)
			req.ContentLength = -1
			if known {
				req.ContentLength = hundredMB
			}
			req.Header.Set("Authorization", "Bearer "+tok)
			rec := httptest.NewRecorder()
			e.srv.Handler().ServeHTTP(rec, req)
			if rec.Code != http.StatusRequestEntityTooLarge {
				t.Errorf("%s %s (length known: %v): %d %s, want 413", route.method, route.path, known, rec.Code, truncate(rec.Body.String()))
			}
			if body.read > 1<<10+1 || known && body.read > 0 {
				t.Errorf("%s %s (length known: %v): %d bytes read before the refusal", route.method, route.path, known, body.read)
			}
		}
	}
}

// A 100 MB body to a route that takes one is refused once its limit is passed, not read to
// the end.
func TestPostPosts413BodyRefusedAtTheLimit(t *testing.T) {
	e := newEnv(t)
	body := &countingBody{n: hundredMB}
	req := httptest.NewRequest("POST", c1+"/posts", body)
	req.ContentLength = -1
	req.Header.Set("Authorization", "Bearer "+e.token(player))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	e.srv.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge || body.read > 300<<10 {
		t.Errorf("%d after reading %d bytes, want 413 within 256 KB", rec.Code, body.read)
	}
}

// Loose JSON is refused with 400 naming the place (a JSON pointer or a byte offset): duplicate
// keys (the last won), invalid UTF-8 (it was stored as U+FFFD), unknown fields and trailing
// data — on every route, before the OpenAPI check and in bind alike (issue 17).
func TestStrictJSON400NamesThePlace(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name, caller, method, path, body string
		want                             []string
	}{
		{"duplicate key", player, "POST", c1 + "/posts", `{"text":"Sai Rei: 3F > 4F","text":"Sai Rei: 3F > 3G"}`, []string{"duplicate", `"text"`}},
		{"nested duplicate key", player, "POST", c1 + "/posts/check", `{"orders":[{"army":"Sai Rei","army":"Karn","kind":"hold"}]}`, []string{"duplicate", "/orders/0", `"army"`}},
		{"duplicate key at login", anon, "POST", "/api/login", `{"name":"admin","name":"Gazetzot","password":"x"}`, []string{"duplicate", `"name"`}},
		{"duplicate key in a scenario", admin, "POST", "/api/campaigns/import", `{"name":"a","name":"b"}`, []string{"duplicate", `"name"`}},
		{"invalid UTF-8", player, "POST", c1 + "/posts", "{\"text\":\"Sai Rei: 3F > 4F \xff\"}", []string{"UTF-8", "byte 26", `"/text"`}},
		{"invalid UTF-8 in a name", admin, "POST", "/api/accounts", "{\"name\":\"adm\xc0in\"}", []string{"UTF-8", "byte"}},
		{"unknown field", player, "POST", c1 + "/posts", `{"text":"Sai Rei: 3F > 4F","bogus":1}`, []string{"bogus"}},
		{"unknown nested field", batty, "POST", c1 + "/turns/1/battles/15J/proposal", `{"bonus_to":"Karn","bonus":3,"fought":{},"extra":{"x":1}}`, []string{"extra"}},
		{"trailing data", player, "POST", c1 + "/posts", `{"text":"Sai Rei: 3F > 4F"} {"text":"again"}`, []string{"after the JSON value", "byte 28"}},
		{"trailing garbage", anon, "POST", "/api/login", `{"name":"admin","password":"x"}garbage`, []string{"after the JSON value", "byte 31"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := e.dump()
			res := e.as(c.caller, c.method, c.path, []byte(c.body))
			if res.Code != http.StatusBadRequest {
				t.Fatalf("%d %s, want 400", res.Code, truncate(res.Body.String()))
			}
			var p struct{ Detail string }
			json.Unmarshal(res.Body.Bytes(), &p)
			for _, w := range c.want {
				if !strings.Contains(p.Detail, w) {
					t.Errorf("%q does not say %q", p.Detail, w)
				}
			}
			if e.dump() != before {
				t.Error("the refused request changed the database")
			}
		})
	}
}
