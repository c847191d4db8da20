package api_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Account, army and campaign names that could pass for others are refused (issue 17): one
// that would look like an existing name is a 409 naming it; one with an invisible or
// bidirectional control character is a 422 naming the character; one mixing look-alike
// scripts is a 422 even before the name it mimics exists. Nothing is stored.
func TestLookAlikeNamesRefused(t *testing.T) {
	army := func(name string) map[string]any {
		return map[string]any{"name": name, "side": "coalition", "rank": "lieutenant", "at": "30J",
			"colors": []string{"green"}, "troops": []map[string]any{{"creature": "Llanowar Elves", "count": 1000}}}
	}
	camp := func(name string, members ...map[string]any) map[string]any {
		if members == nil {
			members = []map[string]any{}
		}
		return map[string]any{"name": name, "map": smallMap(), "members": members}
	}
	cases := []struct {
		name, caller, method, path string
		body                       any
		status                     int
		want                       []string
	}{
		{"zero-width space", admin, "POST", "/api/accounts", map[string]string{"name": "admin\u200b"}, 422, []string{"U+200B ZERO WIDTH SPACE", "invisible"}},
		{"right-to-left override", admin, "POST", "/api/accounts", map[string]string{"name": "\u202enimda"}, 422, []string{"U+202E RIGHT-TO-LEFT OVERRIDE", "bidirectional"}},
		{"Cyrillic a", admin, "POST", "/api/accounts", map[string]string{"name": "\u0430dmin"}, 409, []string{`existing \"admin\"`}},
		{"rn for m", admin, "POST", "/api/accounts", map[string]string{"name": "Gazetzot rn"}, 0, nil},
		{"capital I for l", admin, "POST", "/api/accounts", map[string]string{"name": "Kirn"}, 409, []string{`existing \"Kim\"`}},
		{"Greek capitals", admin, "POST", "/api/accounts", map[string]string{"name": "\u039a\u0399\u039c"}, 409, []string{`existing \"Kim\"`}},
		{"mixed scripts, nothing like it", admin, "POST", "/api/accounts", map[string]string{"name": "M\u0430rkov"}, 422, []string{"mixes Latin and Cyrillic", "U+0430 CYRILLIC SMALL LETTER A"}},
		{"no-break space", admin, "POST", "/api/accounts", map[string]string{"name": "Sai\u00a0Rei"}, 422, []string{"U+00A0 NO-BREAK SPACE"}},
		{"army: Cyrillic K", mover, "POST", c1 + "/armies", army("\u041aarn"), 409, []string{`existing \"Karn\"`}},
		{"army: zero-width joiner", mover, "POST", c1 + "/armies", army("Ka\u200drn"), 422, []string{"U+200D ZERO WIDTH JOINER"}},
		{"army renamed like another", mover, "PUT", c1 + "/armies/" + url.PathEscape("Sai Rei"), map[string]any{"name": "Vorth0s"}, 409, []string{`existing \"Vorthos\"`}},
		{"campaign: Cyrillic i", admin, "POST", "/api/campaigns", camp("F\u0456xture"), 409, []string{`existing \"Fixture\"`}},
		{"campaign: bidi", admin, "POST", "/api/campaigns", camp("Fixture \u2067two\u2069"), 422, []string{"U+2067 RIGHT-TO-LEFT ISOLATE"}},
		{"new member like an account", admin, "POST", "/api/campaigns", camp("Other", map[string]any{"name": "Gazetz\u043et", "roles": []string{"player"}, "side": "coalition", "rank": "captain"}), 409, []string{`existing \"Gazetzot\"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			before := e.dump()
			res := e.as(c.caller, c.method, c.path, c.body)
			if c.status == 0 { // a name that only contains a look-alike piece is fine
				if res.Code != http.StatusCreated {
					t.Errorf("%d %s, want 201", res.Code, truncate(res.Body.String()))
				}
				return
			}
			if res.Code != c.status {
				t.Fatalf("%d %s, want %d", res.Code, truncate(res.Body.String()), c.status)
			}
			for _, w := range c.want {
				if !strings.Contains(res.Body.String(), w) {
					t.Errorf("%s does not say %s", truncate(res.Body.String()), w)
				}
			}
			if e.dump() != before {
				t.Error("the refused name changed the database")
			}
		})
	}
}

// Names are stored in NFC with single spaces and narrow forms, so that the same name typed
// two ways is one name; names like the demo's and the scenarios' (apostrophes, accents,
// slashes, percent signs) are accepted as they are.
func TestPostAccounts201NamesNormalized(t *testing.T) {
	e := newEnv(t)
	for in, want := range map[string]string{
		"Zoe\u0308  Bronte\u0308":        "Zoë Brontë",
		"\uff28\uff41\uff4e\uff4e\uff41": "Hanna",
		"Urza's Guard":                   "Urza's Guard",
		"Lim-Dûl":                        "Lim-Dûl",
		"Æther / 100%":                   "Æther / 100%",
	} {
		res := e.as(admin, "POST", "/api/accounts", map[string]string{"name": in})
		var out struct{ Account struct{ Name string } }
		json.Unmarshal(res.Body.Bytes(), &out)
		if res.Code != http.StatusCreated || out.Account.Name != want {
			t.Errorf("%q: %d %s, want %q stored", in, res.Code, truncate(res.Body.String()), want)
		}
	}
	// the login finds the name typed another way
	res := e.as(admin, "POST", "/api/accounts", map[string]string{"name": "Ilse Aalto", "password": "ilse-password"})
	if res.Code != http.StatusCreated {
		t.Fatalf("%d %s", res.Code, res.Body)
	}
	for _, typed := range []string{"Ilse  Aalto", "\uff29lse Aalto", " ilse aalto "} {
		if res := e.as(anon, "POST", "/api/login", map[string]string{"name": typed, "password": "ilse-password"}); res.Code != http.StatusOK {
			t.Errorf("login as %q: %d %s", typed, res.Code, truncate(res.Body.String()))
		}
	}
}
