package api_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// An army's name in the path is its percent-encoded form, decoded exactly once: a name that
// holds a %, a slash, spaces or accents is reached by url.PathEscape of itself.
func TestPutArmies200NameInThePathDecodedOnce(t *testing.T) {
	cases := []string{"Army%2FPct", "Army/Pct", "50% Off", "Légion Noire", "Æther / 100%", "Plain"}
	for _, name := range cases {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			want(t, e.as(mover, "POST", c1+"/armies", map[string]any{"name": name, "side": "coalition", "rank": "lieutenant", "at": "30J",
				"colors": []string{"green"}, "troops": []map[string]any{{"creature": "Llanowar Elves", "count": 1000}}}), http.StatusCreated, nil)
			var ch struct{ Army struct{ Name, Rank string } }
			want(t, e.as(mover, "PUT", c1+"/armies/"+url.PathEscape(name), map[string]any{"rank": "captain"}), http.StatusOK, &ch)
			if ch.Army.Name != name || ch.Army.Rank != "captain" {
				t.Errorf("edited %+v, want %q made captain", ch.Army, name)
			}
		})
	}
}

// A member's name in the path is decoded exactly once, as an army's is.
func TestPutMembers200NameInThePathDecodedOnce(t *testing.T) {
	cases := []string{"Hanna%2FPct", "Hanna/Pct", "50% Hanna", "Zoë Brontë"}
	for _, name := range cases {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			want(t, e.as(admin, "POST", "/api/accounts", map[string]string{"name": name}), http.StatusCreated, nil)
			var m struct{ Name string }
			want(t, e.as(mover, "PUT", c1+"/members/"+url.PathEscape(name), map[string]any{"roles": []string{"player"}, "side": "coalition", "rank": "captain"}), http.StatusOK, &m)
			if m.Name != name {
				t.Errorf("set member %q, want %q", m.Name, name)
			}
		})
	}
}

// A card's name in the path is decoded exactly once: split cards hold "//", others accents;
// a name with a percent sign that is no card is a miss (404) naming it, not a bad path (400).
func TestGetCards200NameInThePathDecodedOnce(t *testing.T) {
	cases := []struct {
		name   string
		status int
	}{
		{"Aberrant Researcher // Perfected Form", http.StatusOK},
		{"Dandân", http.StatusOK},
		{"Círdan the Shipwright", http.StatusOK},
		{"Llanowar Elves", http.StatusOK},
		{"Elves 100% Off", http.StatusNotFound},
	}
	e := newEnv(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := e.as(anon, "GET", "/api/cards/"+url.PathEscape(c.name), nil)
			var body struct{ Name, Detail string }
			json.Unmarshal(res.Body.Bytes(), &body)
			if res.Code != c.status {
				t.Fatalf("%d %s, want %d", res.Code, truncate(res.Body.String()), c.status)
			}
			if got := body.Name + body.Detail; !strings.Contains(strings.ToLower(got), strings.ToLower(c.name)) {
				t.Errorf("%q does not name %q", got, c.name)
			}
		})
	}
}
