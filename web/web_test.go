package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"strings"
	"testing"
)

func get(t *testing.T, h http.Handler, method, target string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestHandler is each kind of request the pages' handler answers, by path and status.
func TestHandler(t *testing.T) {
	h := Handler()
	for _, c := range []struct {
		name, method, path string
		status             int
		ctype              string
	}{
		{"GET / is the application", "GET", "/", 200, "text/html; charset=utf-8"},
		{"HEAD /", "HEAD", "/", 200, "text/html; charset=utf-8"},
		{"GET a module", "GET", "/assets/js/app.js", 200, "text/javascript; charset=utf-8"},
		{"GET the style sheet", "GET", "/assets/app.css", 200, "text/css; charset=utf-8"},
		{"GET the icon", "GET", "/assets/icon.svg", 200, "image/svg+xml"},
		{"GET an unknown file 404", "GET", "/assets/nothing.js", 404, "text/plain; charset=utf-8"},
		{"GET index.html by name 404 (only / serves it)", "GET", "/assets/index.html", 404, "text/plain; charset=utf-8"},
		{"GET a path outside the assets 404", "GET", "/assets/../web.go", 404, "text/plain; charset=utf-8"},
		{"GET the assets folder 404", "GET", "/assets/", 404, "text/plain; charset=utf-8"},
		{"POST / 405", "POST", "/", 405, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := get(t, h, c.method, c.path)
			if rec.Code != c.status {
				t.Fatalf("%s %s: %d, want %d", c.method, c.path, rec.Code, c.status)
			}
			if got := rec.Header().Get("Content-Type"); got != c.ctype {
				t.Errorf("Content-Type %q, want %q", got, c.ctype)
			}
			if got := rec.Header().Get("Content-Security-Policy"); got != Policy {
				t.Errorf("Content-Security-Policy %q", got)
			}
			if c.method == "HEAD" && rec.Body.Len() != 0 {
				t.Errorf("HEAD answered a body of %d bytes", rec.Body.Len())
			}
		})
	}
}

// TestPolicy keeps the pages' Content-Security-Policy strict: this origin only, no inline
// script or style, no eval, no frames.
func TestPolicy(t *testing.T) {
	for _, want := range []string{"default-src 'none'", "script-src 'self';", "style-src 'self';", "connect-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(Policy, want) {
			t.Errorf("the policy lacks %q: %s", want, Policy)
		}
	}
	for _, bad := range []string{"unsafe-inline", "unsafe-eval", "*", "http:", "https:"} {
		if strings.Contains(Policy, bad) {
			t.Errorf("the policy allows %q: %s", bad, Policy)
		}
	}
}

// TestRevalidation: an unchanged file costs a 304, a changed tag gets the file again, and the
// browser is told to revalidate every time.
func TestRevalidation(t *testing.T) {
	h := Handler()
	first := get(t, h, "GET", "/assets/js/map.js")
	tag := first.Header().Get("ETag")
	if !regexp.MustCompile(`^"[0-9a-f]{24}"$`).MatchString(tag) {
		t.Fatalf("ETag %q is not a strong content hash", tag)
	}
	if cc := first.Header().Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("Cache-Control %q, want no-cache", cc)
	}
	for _, c := range []struct {
		header string
		status int
	}{{tag, 304}, {"W/" + tag, 304}, {`"other", ` + tag, 304}, {"*", 304}, {`"other"`, 200}, {"", 200}} {
		rec := get(t, h, "GET", "/assets/js/map.js", "If-None-Match", c.header)
		if rec.Code != c.status {
			t.Errorf("If-None-Match %q: %d, want %d", c.header, rec.Code, c.status)
		}
		if c.status == 304 && rec.Body.Len() != 0 {
			t.Errorf("a 304 with a body")
		}
	}
	if other := get(t, h, "GET", "/assets/js/app.js").Header().Get("ETag"); other == tag {
		t.Errorf("two files share the ETag %s", tag)
	}
}

// TestGzip: clients that accept gzip get the same bytes compressed; others and q=0 get them plain.
func TestGzip(t *testing.T) {
	h := Handler()
	plain := get(t, h, "GET", "/assets/js/map.js")
	for _, c := range []struct {
		accept string
		gz     bool
	}{{"gzip", true}, {"br, gzip;q=0.8", true}, {"GZIP", true}, {"gzip;q=0", false}, {"br", false}, {"", false}} {
		rec := get(t, h, "GET", "/assets/js/map.js", "Accept-Encoding", c.accept)
		if got := rec.Header().Get("Content-Encoding") == "gzip"; got != c.gz {
			t.Errorf("Accept-Encoding %q: gzip %v, want %v", c.accept, got, c.gz)
			continue
		}
		body := rec.Body.Bytes()
		if c.gz {
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			if body, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
			if rec.Body.Len() >= plain.Body.Len() {
				t.Errorf("the gzipped file (%d bytes) is no smaller than the plain one (%d)", rec.Body.Len(), plain.Body.Len())
			}
		}
		if !bytes.Equal(body, plain.Body.Bytes()) {
			t.Errorf("Accept-Encoding %q: the file differs from the plain one", c.accept)
		}
		if !strings.Contains(rec.Header().Get("Vary"), "Accept-Encoding") {
			t.Errorf("no Vary: Accept-Encoding")
		}
	}
}

var (
	external  = regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`)
	reference = regexp.MustCompile(`(?:src|href)="([^"#]+)"`)
	imports   = regexp.MustCompile(`(?m)^\s*import\s[^'"]*['"]([^'"]+)['"]`)
	inline    = regexp.MustCompile(`(?i)<script>|<style|\sstyle="|\son[a-z]+="`)
)

// TestSelfContained: the pages name no other host (the server may have no internet), every
// file index.html and the modules load is embedded, and nothing inline would need the
// policy loosened.
func TestSelfContained(t *testing.T) {
	st := Static()
	files := map[string][]byte{}
	total, roundTotal, formatsTotal := 0, 0, 0
	err := fs.WalkDir(st, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(st, p)
		files[p] = b
		switch {
		case roundPage[p]:
			roundTotal += len(b)
		case formatsPages[p]:
			formatsTotal += len(b)
		default:
			total += len(b)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for p, b := range files {
		text := string(b)
		// The SVG namespace is a name, not a request.
		text = strings.ReplaceAll(text, "http://www.w3.org/2000/svg", "")
		if m := external.FindString(text); m != "" {
			t.Errorf("%s names another host: %s", p, m)
		}
		if strings.HasSuffix(p, ".html") {
			if m := inline.FindString(text); m != "" {
				t.Errorf("%s has inline code or style %q, which the policy refuses", p, m)
			}
			for _, m := range reference.FindAllStringSubmatch(text, -1) {
				if _, page := Pages[m[1]]; page || m[1] == "/" {
					continue // a link to a page, not a file the page loads
				}
				name, ok := strings.CutPrefix(m[1], "/assets/")
				if !ok || files[name] == nil {
					t.Errorf("%s loads %s, which is not embedded", p, m[1])
				}
			}
		}
		if strings.HasSuffix(p, ".js") {
			for _, m := range imports.FindAllStringSubmatch(text, -1) {
				if dep := path.Join(path.Dir(p), m[1]); files[dep] == nil {
					t.Errorf("%s imports %s, which is not embedded", p, m[1])
				}
			}
			if strings.Contains(text, ".innerHTML") || strings.Contains(text, "eval(") || strings.Contains(text, "new Function") {
				t.Errorf("%s parses strings as HTML or code", p)
			}
		}
	}
	// The budget of a page load is 200 KB with the map (the browser test weighs it, gzipped as
	// served); the code itself must leave most of it to the map. (150 KB since the threads, the
	// notifications and the desk's guides: about 45 KB gzipped; 180 KB since the team, control
	// list and votes pages, which load only when their tab is opened; 190 KB since the
	// Idempotency-Key on every change and the thread's re-render on a login, 186 KB: the load
	// the browser test weighs, gzipped with the map, stays far under its 200 KB.)
	if total > 190*1024 {
		t.Errorf("the embedded pages weigh %d bytes: keep them under 190 KB", total)
	}
	// The round setup page (2.5) is a page of its own, which the application never loads.
	if roundTotal > 40*1024 {
		t.Errorf("the round setup page weighs %d bytes: keep it under 40 KB", roundTotal)
	}
	// The card formats' pages (/decks, /matches) load none of the application's code either.
	if formatsTotal > 60*1024 {
		t.Errorf("the card formats' pages weigh %d bytes: keep them under 60 KB", formatsTotal)
	}
	t.Logf("%d files, %d bytes, %d bytes of the round setup page and %d of the card formats' pages", len(files), total, roundTotal, formatsTotal)
}

// roundPage are the files of the round setup page alone (round.html and what only it loads).
var roundPage = map[string]bool{"round.html": true, "round.css": true, "js/round.js": true}

// formatsPages are the files of the card formats' pages alone (/decks, /matches, issue 19).
var formatsPages = map[string]bool{"decks.html": true, "matches.html": true, "formats.css": true, "js/decks.js": true, "js/matches.js": true}

// TestPages: the deck check and the matches are served at their paths, with the policy.
func TestPages(t *testing.T) {
	h := Handler()
	for p, f := range Pages {
		res := get(t, h, "GET", p)
		if res.Code != http.StatusOK || !strings.Contains(res.Body.String(), "/assets/js/") || res.Header().Get("Content-Security-Policy") != Policy {
			t.Errorf("%s (%s): %d %q", p, f, res.Code, res.Header())
		}
		if !formatsPages[f] {
			t.Errorf("%s's file %s is not among formatsPages", p, f)
		}
	}
	if res := get(t, h, "GET", "/decks/"); res.Code != http.StatusNotFound {
		t.Errorf("/decks/: %d", res.Code)
	}
}
