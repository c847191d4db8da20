package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/cards"
)

func runCards(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := cardsCommand(args, &out)
	return out.String(), err
}

func TestCardsLookup(t *testing.T) {
	out, err := runCards(t, "lookup", "lim dul the necromancer", "Æther Figment")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"name": "Lim-Dûl the Necromancer"`, `"name": "Aether Figment"`} {
		if !strings.Contains(out, want) {
			t.Errorf("lookup output lacks %s:\n%s", want, out)
		}
	}
	out, err = runCards(t, "lookup", "Grizly Bears")
	if err == nil || !strings.Contains(out, "did you mean: Grizzly Bears") {
		t.Errorf("lookup of a misspelt name: %v\n%s", err, out)
	}
}

func TestCardsSearch(t *testing.T) {
	out, err := runCards(t, "search", "-n", "3", "grizzly")
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[0], "Grizzly Bears\t2/2\tG") {
		t.Errorf("search output:\n%s", out)
	}
}

func TestCardsCheck(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(`{"army": {"name": "Sai Rei", "side": "Coalition", "rank": "lieutenant", "colors": ["red", "green"]},
		"troops": [{"creature": "Kris Mage", "slot": 1, "count": 5000}, {"creature": "Grizzly Bears", "slot": 2, "count": 2500}]}`), 0o644)
	out, err := runCards(t, "check", good)
	if err != nil || !strings.Contains(out, `"problems": []`) {
		t.Errorf("check of a legal list: %v\n%s", err, out)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"army": {"name": "Sai Rei", "side": "coalition", "rank": "captain", "colors": ["black", "red"]},
		"mode": "change", "current": [{"creature": "Plague Rats", "size": "1/1", "slot": 1, "alive": 5000, "full": 5000}],
		"destroyed": ["black"], "troops": [{"creature": "Bog Imp", "slot": 1, "count": 5000}]}`), 0o644)
	out, err = runCards(t, "check", bad)
	if err == nil || !strings.Contains(out, `"code": "destroyed_base_color"`) {
		t.Errorf("check of an illegal change: %v\n%s", err, out)
	}
}

func TestCardsImport(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "catalogue.json.gz")
	out, err := runCards(t, "import", "--out", dest, "../../cards/testdata/AllPrintings.json")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "read 6 creature cards") || !strings.Contains(out, "2 new") {
		t.Errorf("import summary: %s", out)
	}
	f, err := os.Open(dest)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cs, err := cards.ReadCards(f)
	if err != nil {
		t.Fatal(err)
	}
	cat := cards.New(cs)
	if card, ok := cat.Lookup("Digital Drake"); !ok || !card.DigitalOnly {
		t.Errorf("the imported card is in the written catalogue: %+v %v", card, ok)
	}
	if _, ok := cat.Lookup("Grizzly Bears"); !ok {
		t.Error("the shipped cards stay in the written catalogue")
	}
	// The written catalogue serves lookups.
	out, err = runCards(t, "lookup", "--catalogue", dest, "digital drake")
	if err != nil || !strings.Contains(out, `"digitalOnly": true`) {
		t.Errorf("lookup in the imported catalogue: %v\n%s", err, out)
	}
}

func TestCardsUsage(t *testing.T) {
	if _, err := runCards(t); err == nil {
		t.Error("no subcommand must be an error")
	}
	if _, err := runCards(t, "frobnicate"); err == nil {
		t.Error("an unknown subcommand must be an error")
	}
	if out, err := runCards(t, "help"); err != nil || !strings.Contains(out, "usage: coalition cards") {
		t.Errorf("help: %v %s", err, out)
	}
}

// TestCardsCheckAudit checks the troop lists of a blind audit (testdata/troops/audit): lists
// written from chapter 2 alone by someone who never read the checker, each with the verdict in
// EXPECTED.tsv — the auditor's, or where the server reads a rule otherwise, the documented
// reading (docs/READINGS.md R34, R35).
func TestCardsCheckAudit(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "troops", "audit")
	data, err := os.ReadFile(filepath.Join(dir, "EXPECTED.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	cat, err := cards.Load()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 3 {
			t.Fatalf("EXPECTED.tsv: %q has no verdict", line)
		}
		n++
		t.Run(f[0], func(t *testing.T) {
			list, err := os.ReadFile(filepath.Join(dir, f[0]+".json"))
			if err != nil {
				t.Fatal(err)
			}
			r, err := checkTroopFile(cat, f[0], list)
			if err != nil {
				t.Fatal(err)
			}
			var codes []string
			for _, p := range r.Problems {
				if c := string(p.Code); !slices.Contains(codes, c) {
					codes = append(codes, c)
				}
			}
			slices.Sort(codes)
			got := strings.Join(codes, ",")
			if got == "" {
				got = "valid"
			}
			if got != f[1] {
				t.Errorf("%s (%s): %s, want %s — %s", f[0], f[2], got, f[1], strings.Join(f[3:], " "))
			}
		})
	}
	if n < 100 {
		t.Errorf("%d audit lists, want the 129", n)
	}
}
