package round_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every label the round package draws is documented in docs/RANDOMNESS.md, so that anyone
// holding a round's seed can re-derive its draws: each "round-…" and "weather:" label written in
// the package's source is in the document's tables.
func TestRoundLabelsAreDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "RANDOMNESS.md"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	label := regexp.MustCompile(`"((?:round-[a-z-]+|weather)(?::[a-z]+)*:?)`)
	found := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range label.FindAllStringSubmatch(string(src), -1) {
			found++
			if !strings.Contains(string(doc), "`"+m[1]) {
				t.Errorf("%s draws the label %s…, which docs/RANDOMNESS.md does not document", f, m[1])
			}
		}
	}
	if found < 10 {
		t.Errorf("only %d labels found in the source", found)
	}
}
