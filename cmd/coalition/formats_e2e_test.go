package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/cards"
)

// TestServeFormatsFlags: `serve --formats FILE --deck-cards FILE` checks decks by the document's
// revision against the catalogue given — a house format whose only card is a judge's import —
// and the admin edits the document's banned list over HTTP (issue 19; docs/FORMATS.md).
func TestServeFormatsFlags(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "formats.json")
	err := os.WriteFile(doc, []byte(`{"banlists":[{"id":"house","title":"House list","categories":[],"names":["Opt"]}],
		"formats":[{"name":"manahearth","system":"manahearth","title":"House Manahearth","default":"house","revisions":[{"name":"house","source":"house rules","main":3,"side":0,
		"copies":{"any":4},"banned":"house","cite":{}}]}]}`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	catalogue := filepath.Join(dir, "all.json.gz")
	f, err := os.Create(catalogue)
	if err != nil {
		t.Fatal(err)
	}
	text := "Draw a card."
	if err := cards.WriteCards(f, []cards.Card{
		{Name: "Opt", Types: []string{"Instant"}, Colors: []string{"U"}, Text: &text},
		{Name: "Jace, House Mage", Supertypes: []string{"Legendary"}, Types: []string{"Planeswalker"}, Colors: []string{"U"}, Text: &text},
	}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s := startServer(t, "--formats", doc, "--deck-cards", catalogue)
	type verdict struct {
		Legal    bool
		Problems []struct{ Rule, Card string }
	}
	var v verdict
	s.call("POST", "/api/decks/check", "", map[string]string{"format": "manahearth", "list": "1 Jace, House Mage\n2 Opt"}, http.StatusOK, &v)
	if v.Legal || len(v.Problems) != 1 || v.Problems[0].Rule != "banned" || v.Problems[0].Card != "Opt" {
		t.Errorf("the house format: %+v", v)
	}
	// Lightning Bolt is no card of the catalogue given.
	s.call("POST", "/api/decks/check", "", map[string]string{"format": "manahearth", "list": "1 Jace, House Mage\n1 Lightning Bolt\n1 Opt"}, http.StatusOK, &v)
	if !strings.Contains(strings.Join([]string{v.Problems[0].Rule, v.Problems[len(v.Problems)-1].Rule}, " "), "unknown-card") {
		t.Errorf("a card the catalogue lacks: %+v", v)
	}
	admin := s.login("admin", e2eAdminPassword)
	s.call("PUT", "/api/formats/banlists/house", admin, map[string]any{"categories": []string{}, "names": []string{}}, http.StatusOK, nil)
	s.call("POST", "/api/decks/check", "", map[string]string{"format": "manahearth", "list": "1 Jace, House Mage\n2 Opt"}, http.StatusOK, &v)
	if !v.Legal {
		t.Errorf("after the edit: %+v", v)
	}
	s.call("POST", "/api/decks/check", "", map[string]string{"format": "coalition", "list": "1 Opt"}, http.StatusBadRequest, nil)
}
