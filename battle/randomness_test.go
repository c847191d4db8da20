package battle

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

// randomnessDoc reads docs/RANDOMNESS.md.
func randomnessDoc(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "docs", "RANDOMNESS.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

type docVector struct {
	seed  domain.Seed
	label string
	n     int
	want  int
}

func docVectors(t *testing.T, doc string) []docVector {
	t.Helper()
	_, table, ok := strings.Cut(doc, "## Test vectors")
	if !ok {
		t.Fatal("docs/RANDOMNESS.md has no test vectors")
	}
	var out []docVector
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), "|")
		if len(cells) != 4 || !strings.HasPrefix(strings.TrimSpace(cells[0]), "`") {
			continue
		}
		cell := func(i int) string { return strings.Trim(strings.TrimSpace(cells[i]), "`") }
		seed, err := domain.ParseSeed(cell(0))
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		n, err1 := strconv.Atoi(cell(2))
		want, err2 := strconv.Atoi(cell(3))
		if err1 != nil || err2 != nil {
			t.Fatalf("%q: not numbers", line)
		}
		out = append(out, docVector{seed, cell(1), n, want})
	}
	if len(out) < 10 {
		t.Fatalf("only %d test vectors", len(out))
	}
	return out
}

// The test vectors and the worked example of docs/RANDOMNESS.md are what the code draws.
func TestRandomnessDocVectors(t *testing.T) {
	doc := randomnessDoc(t)
	for _, v := range docVectors(t, doc) {
		if got := v.seed.Intn(v.label, v.n); got != v.want {
			t.Errorf("Intn(%q, %d) under %s = %d; the doc says %d", v.label, v.n, v.seed, got, v.want)
		}
	}
	s := domain.ScenarioSeed(1, 0)
	for _, want := range []string{s.String(), s.Commitment(), "coalition-scenario:1:turn:0", "so the d20\nshows " + strconv.Itoa(s.D20("dice:5E:Sai Rei:1"))} {
		if !strings.Contains(doc, want) {
			t.Errorf("the worked example does not say %q", want)
		}
	}
	for _, label := range []string{"route:<army>", "m10:<square>", "push:<army>", "leave:<square>", "capture:<army>", "dice:<square>:<side>:<i>", "dice:<square>:<side>:r<k>:<i>", "kill-roll:<square>:<army>", "capture-roll:<square>:<army>", "risk:<square>:<army>", "sanction:<army>:<k>", "raider-spawn", "raider-spawn-rank", "theme-at-war:"} {
		if !strings.Contains(doc, "`"+label) {
			t.Errorf("docs/RANDOMNESS.md does not document the label %s", label)
		}
	}
}

// The Python reference code of docs/RANDOMNESS.md agrees with the test vectors.
func TestRandomnessDocPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on this machine")
	}
	doc := randomnessDoc(t)
	_, rest, _ := strings.Cut(doc, "```python\n")
	code, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("docs/RANDOMNESS.md has no Python reference code")
	}
	var b strings.Builder
	b.WriteString(code)
	vs := docVectors(t, doc)
	for _, v := range vs {
		b.WriteString("print(intn(" + strconv.Quote(v.seed.String()) + ", " + strconv.Quote(v.label) + ", " + strconv.Itoa(v.n) + "))\n")
	}
	b.WriteString("print(commitment(" + strconv.Quote(vs[0].seed.String()) + "))\n")
	out, err := exec.Command(py, "-c", b.String()).CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(vs)+1 {
		t.Fatalf("python printed %q", out)
	}
	for i, v := range vs {
		if lines[i] != strconv.Itoa(v.want) {
			t.Errorf("python intn(%q, %d) = %s, want %d", v.label, v.n, lines[i], v.want)
		}
	}
	if lines[len(vs)] != vs[0].seed.Commitment() {
		t.Errorf("python commitment %s, want %s", lines[len(vs)], vs[0].seed.Commitment())
	}
}
