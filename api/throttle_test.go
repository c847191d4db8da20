package api_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestPostLogin429 checks the login throttle: ten wrong passwords from one address within ten
// minutes shut that address out, right password or not, until the window ends; other
// addresses are not affected.
func TestPostLogin429(t *testing.T) {
	e := newEnv(t)
	e.token(player) // the real password
	name := accountOf[player]
	wrong := map[string]string{"name": name, "password": "not-the-password"}
	right := map[string]string{"name": name, "password": template.passwords[name]}
	for i := range 10 {
		if res := e.do(http.MethodPost, "/api/login", "", wrong); res.Code != http.StatusUnauthorized {
			t.Fatalf("wrong password %d: %d %s", i+1, res.Code, res.Body)
		}
		e.clock.Set(start.Add(time.Duration(i+1) * time.Second))
	}
	res := e.do(http.MethodPost, "/api/login", "", right)
	if res.Code != http.StatusTooManyRequests {
		t.Fatalf("after 10 failures: %d %s", res.Code, res.Body)
	}
	if got := res.Header().Get("Retry-After"); got != "590" {
		t.Errorf("Retry-After %q, want 590 (10 minutes from the first failure)", got)
	}
	if !strings.Contains(res.Body.String(), "too many failed logins from this address: try again in 10 minutes") {
		t.Errorf("the refusal does not say why: %s", res.Body)
	}

	other := httptest.NewRequest(http.MethodPost, "/api/login", bytes.NewReader([]byte(`{"name":"`+name+`","password":"`+template.passwords[name]+`"}`)))
	other.RemoteAddr = "203.0.113.9:5000"
	other.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	e.srv.Handler().ServeHTTP(rec, other)
	if rec.Code != http.StatusOK {
		t.Errorf("another address is refused too: %d %s", rec.Code, rec.Body)
	}

	e.clock.Set(start.Add(10 * time.Minute))
	if res := e.do(http.MethodPost, "/api/login", "", right); res.Code != http.StatusOK {
		t.Fatalf("after the window: %d %s", res.Code, res.Body)
	}
}

// TestPostLoginBadRequestNotCounted checks that malformed logins are not counted as guesses.
func TestPostLoginBadRequestNotCounted(t *testing.T) {
	e := newEnv(t)
	for range 20 {
		if res := e.do(http.MethodPost, "/api/login", "", `{"name":`); res.Code != http.StatusBadRequest {
			t.Fatalf("%d %s", res.Code, res.Body)
		}
	}
	if res := e.do(http.MethodPost, "/api/login", "", map[string]string{"name": accountOf[player], "password": template.passwords[accountOf[player]]}); res.Code != http.StatusOK {
		t.Fatalf("%d %s", res.Code, res.Body)
	}
}
