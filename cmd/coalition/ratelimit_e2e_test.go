package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestRateLimitFlag: `serve --rate-limit 2/h` lets an address make two writes an hour (the
// login among them) and answers the third with 429, Retry-After and a problem document;
// reads go on. A limit it cannot read stops the server with the flag named.
func TestRateLimitFlag(t *testing.T) {
	s := startServer(t, "--rate-limit", "2/h")
	tok := s.login("admin", e2eAdminPassword)
	s.call("POST", "/api/accounts", tok, map[string]string{"name": "Hanna"}, http.StatusCreated, nil)
	req, _ := http.NewRequest("POST", s.base+"/api/accounts", strings.NewReader(`{"name":"Ilse"}`))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "1800" ||
		res.Header.Get("Content-Type") != "application/problem+json" || !strings.Contains(string(body), "too many writes") {
		t.Errorf("the third write: %d Retry-After %q %s", res.StatusCode, res.Header.Get("Retry-After"), body)
	}
	s.call("GET", "/api/campaigns", tok, nil, http.StatusOK, nil)

	var out, errs strings.Builder
	err = run(t.Context(), []string{"coalition", "serve", "--addr", "127.0.0.1:0", "--db", t.TempDir() + "/x.db", "--rate-limit", "lots"}, testEnv, strings.NewReader(""), &out, &errs)
	if err == nil || !strings.Contains(err.Error(), "--rate-limit") {
		t.Errorf("serve --rate-limit lots: %v", err)
	}
}
