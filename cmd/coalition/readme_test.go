package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// shBlock matches a fenced sh code block of the README.
var shBlock = regexp.MustCompile("(?s)```sh\n(.*?)```")

// readmeScript is every command of the README's sh blocks, in order, as one script: the make
// lines left out (make run is the server the test starts, make test the suite that runs it),
// the address and Hanna's password filled in.
func readmeScript(t *testing.T, addr, password string) string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	blocks := shBlock.FindAllStringSubmatch(string(readme), -1)
	if len(blocks) < 3 {
		t.Fatalf("the README has %d sh blocks", len(blocks))
	}
	for _, m := range blocks {
		for _, line := range strings.Split(m[1], "\n") {
			if strings.HasPrefix(line, "make ") {
				continue
			}
			b.WriteString(line + "\n")
		}
	}
	script := strings.NewReplacer("localhost:8080", addr, `"password":"…"`, `"password":"`+password+`"`).Replace(b.String())
	if strings.Contains(script, "…") {
		t.Fatalf("a placeholder is left in the script:\n%s", script)
	}
	return script
}

// Every example command of the README runs against the demo and is accepted: the API calls
// (with curl failing on any 4xx or 5xx), the order (every line accepted, M5), the message, the
// notifications, the feed, coalition version and the admin's password reset.
func TestReadmeExamples(t *testing.T) {
	for _, tool := range []string{"bash", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the README's examples cannot run", tool)
		}
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "coalition"), ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	db := filepath.Join(dir, "coalition.db")
	s := startServer(t, "--demo", "--lock-tick", "off", "--db", db)
	var hanna string
	for _, m := range demoAccount.FindAllStringSubmatch(s.stdout.String(), -1) {
		if m[1] == "Hanna" {
			hanna = m[2]
		}
	}
	script := "set -e\ncurl() { command curl -sSf \"$@\"; }\n" + readmeScript(t, strings.TrimPrefix(s.base, "http://"), hanna)
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "COALITION_PASSWORD_COST=4")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the README's commands failed: %v\n%s\nscript:\n%s", err, out, script)
	}
	got := string(out)
	for _, want := range []string{`"status":"accepted"`, `"channel":"public"`, `"rule":"size.sideboard"`, `"heroDamage":5`, `"webhook_url":"https://hooks.example.org/coalition"`, "<feed", `"squares":[`, "admin's new password: ", "coalition "} {
		if !strings.Contains(got, want) {
			t.Errorf("the README's commands printed no %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, `"status":"rejected"`) || strings.Contains(got, `"status":"warning"`) {
		t.Errorf("an order of the README is not accepted as it is:\n%s", got)
	}
}
