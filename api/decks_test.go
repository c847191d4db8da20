package api_test

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
)

func legalDeck(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("../format/testdata/coalition-legal.txt")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// deckVerdict is the body of a 200 from POST /api/decks/check.
type deckVerdict struct {
	Legal    bool     `json:"legal"`
	Hero     string   `json:"hero"`
	Types    []string `json:"types"`
	Problems []struct {
		Rule    string `json:"rule"`
		Line    int    `json:"line"`
		Card    string `json:"card"`
		Message string `json:"message"`
	} `json:"problems"`
}

// POST /api/decks/check answers a legal deck with its hero and the types it may choose, to
// anyone, storing nothing.
func TestPostDecksCheck200Legal(t *testing.T) {
	e := newEnv(t)
	for _, caller := range []string{anon, player} {
		res := e.as(caller, "POST", "/api/decks/check", map[string]any{"format": "coalition", "list": legalDeck(t)})
		var v deckVerdict
		if err := json.Unmarshal(res.Body.Bytes(), &v); err != nil || res.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", caller, res.Code, truncate(res.Body.String()))
		}
		if !v.Legal || v.Hero != "Kaalia of the Vast" || strings.Join(v.Types, ",") != "Demon" || v.Problems == nil || len(v.Problems) != 0 {
			t.Errorf("%s: %+v", caller, v)
		}
	}
}

// POST /api/decks/check answers an illegal deck with 200 too, every problem named by its rule
// and line.
func TestPostDecksCheck200Illegal(t *testing.T) {
	e := newEnv(t)
	list := strings.Replace(legalDeck(t), "1 Lightning Bolt", "1 Swan Song\n1 Lightening Bolt", 1)
	res := e.as(anon, "POST", "/api/decks/check", map[string]any{"format": "coalition", "revision": "page", "list": list})
	var v deckVerdict
	if err := json.Unmarshal(res.Body.Bytes(), &v); err != nil || res.Code != http.StatusOK {
		t.Fatalf("%d %s", res.Code, truncate(res.Body.String()))
	}
	var got []string
	for _, p := range v.Problems {
		got = append(got, p.Rule)
	}
	if v.Legal || strings.Join(got, " ") != "size.main typal unknown-card" || v.Problems[1].Line != 9 || v.Problems[1].Card != "Swan Song" ||
		!strings.Contains(v.Problems[2].Message, "Lightning Bolt") {
		t.Errorf("%+v", v)
	}
	// The Heroic revision of the same list: its sideboard of 8, and Human allowed.
	res = e.as(anon, "POST", "/api/decks/check", map[string]any{"format": "heroic", "list": legalDeck(t)})
	json.Unmarshal(res.Body.Bytes(), &v)
	if res.Code != http.StatusOK || v.Legal || len(v.Problems) != 1 || v.Problems[0].Rule != "size.sideboard" {
		t.Errorf("heroic: %d %+v", res.Code, v)
	}
}

// POST /api/decks/check refuses a format, revision or sub-format it does not know, a text
// with no card line, and a body that is not the document's, saying which.
func TestPostDecksCheck400(t *testing.T) {
	e := newEnv(t)
	for _, tt := range []struct {
		name   string
		body   any
		detail string
	}{
		{"bad format name", map[string]any{"format": "modern", "list": legalDeck(t)}, `unknown format "modern": the formats are coalition, heroic, manahearth`},
		{"bad revision", map[string]any{"format": "coalition", "revision": "1999", "list": legalDeck(t)}, `coalition has no revision "1999"; its revisions are page, draft, site-2026`},
		{"bad sub-format", map[string]any{"format": "manahearth", "subformat": "standard", "list": legalDeck(t)}, `no sub-format "standard"`},
		{"no card line", map[string]any{"format": "coalition", "list": "Kaalia of the Vast, and friends"}, "not a deck list"},
		{"no list", map[string]any{"format": "coalition"}, "list"},
		{"unknown field", map[string]any{"format": "coalition", "list": "1 Opt", "sideboard": "1 Opt"}, "sideboard"},
		{"not JSON", "4 Lightning Bolt", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := e.as(anon, "POST", "/api/decks/check", tt.body)
			var p struct{ Detail string }
			json.Unmarshal(res.Body.Bytes(), &p)
			if res.Code != http.StatusBadRequest || !strings.Contains(p.Detail, tt.detail) {
				t.Errorf("%d %s, want 400 saying %s", res.Code, truncate(res.Body.String()), tt.detail)
			}
		})
	}
}

// POST /api/decks/check refuses a list over 64 KB (400, by the document) and a body over the
// small limit (413), before reading a card.
func TestPostDecksCheck413(t *testing.T) {
	e := newEnv(t)
	long := strings.Repeat("1 Lightning Bolt\n", 65536/17+1)
	res := e.as(anon, "POST", "/api/decks/check", map[string]any{"format": "coalition", "list": long})
	if res.Code != http.StatusBadRequest || !strings.Contains(res.Body.String(), "list") {
		t.Errorf("a list of %d bytes: %d %s", len(long), res.Code, truncate(res.Body.String()))
	}
	huge := strings.Repeat("1 Lightning Bolt\n", 300<<10/17)
	res = e.as(anon, "POST", "/api/decks/check", map[string]any{"format": "coalition", "list": huge})
	if res.Code != http.StatusRequestEntityTooLarge || !strings.Contains(res.Body.String(), "this route takes at most 256 KB") {
		t.Errorf("a body of %d bytes: %d %s", len(huge), res.Code, truncate(res.Body.String()))
	}
}
