package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runDeck runs the program with args and standard input, and gives its output and exit status.
func runDeck(t *testing.T, stdin string, args ...string) (string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), append([]string{"coalition"}, args...), testEnv, strings.NewReader(stdin), &out, &errb)
	code := 0
	if err != nil {
		code = exitCode(err)
	}
	return out.String(), code
}

// TestDeckCheck: `coalition deck check` exits 0 for a legal deck, 1 for an illegal one, 2 for
// a list it cannot read, and prints the verdict as text or JSON.
func TestDeckCheck(t *testing.T) {
	legalFile := "../../format/testdata/coalition-legal.txt"
	legal, err := os.ReadFile(legalFile)
	if err != nil {
		t.Fatal(err)
	}
	swan := strings.Replace(string(legal), "1 Lightning Bolt", "1 Swan Song", 1)
	for _, tt := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  []string
	}{
		{"legal, text", "", []string{"deck", "check", legalFile}, 0, []string{"coalition page: legal; hero Kaalia of the Vast; the deck may choose Demon"}},
		{"legal, JSON", "", []string{"deck", "check", "--format", "coalition", "--json", legalFile}, 0, []string{`"legal": true`, `"types": [`}},
		{"illegal, text", swan, []string{"deck", "check", "-"}, 1, []string{"not legal", "line 9", "typal", "Swan Song has the typal identity Bird"}},
		{"illegal, JSON", swan, []string{"deck", "check", "--json", "-"}, 1, []string{`"rule": "typal"`, `"line": 9`, `"card": "Swan Song"`}},
		{"another revision", string(legal), []string{"deck", "check", "--revision", "draft", "-"}, 1, []string{"size.sideboard", "exactly 8"}},
		{"unreadable", "nothing to see here", []string{"deck", "check", "-"}, 2, nil},
		{"no such file", "", []string{"deck", "check", "no-such-deck.txt"}, 2, nil},
		{"unknown format", string(legal), []string{"deck", "check", "--format", "modern", "-"}, 2, nil},
		{"unknown revision", string(legal), []string{"deck", "check", "--revision", "1999", "-"}, 2, nil},
		{"no file", "", []string{"deck", "check"}, 2, []string{"usage: coalition deck check"}},
		{"no subcommand", "", []string{"deck"}, 2, []string{"usage: coalition deck check"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, code := runDeck(t, tt.stdin, tt.args...)
			if code != tt.code {
				t.Errorf("exit status %d, want %d\n%s", code, tt.code, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
	out, _ := runDeck(t, swan, "deck", "check", "--json", "-")
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil || len(v) != 4 {
		t.Errorf("the JSON verdict %v: %s", err, out)
	}
}

// TestDeckCatalogueImport: an every-card catalogue imported from a newer MTGJSON file and an
// edited formats document are what the check uses when named.
func TestDeckCatalogueImport(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "every-card.json.gz")
	out, code := runDeck(t, "", "cards", "import", "--all", "--into", "", "--out", dest, "../../cards/testdata/AtomicAll.json")
	if code != 0 || !strings.Contains(out, "read 4 cards") || !strings.Contains(out, "0 new") {
		t.Fatalf("import: %d %s", code, out)
	}
	formats := filepath.Join(dir, "formats.json")
	doc := `{"banlists": [{"id": "home", "title": "our table", "categories": [], "names": ["Swan Song"]}],
		"formats": [{"name": "manahearth", "system": "manahearth", "default": "home", "revisions": [
			{"name": "home", "main": 2, "side": 0, "copies": {"any": 2}, "banned": "home", "cite": {}}]}]}`
	if err := os.WriteFile(formats, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = runDeck(t, "1 Swan Song\n1 Lion's Eye Diamond", "deck", "check", "--format", "manahearth", "--catalogue", dest, "--formats", formats, "-")
	if code != 1 || !strings.Contains(out, "banned") || !strings.Contains(out, "planeswalker") {
		t.Errorf("with the edited formats: %d\n%s", code, out)
	}
}
