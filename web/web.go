// Package web holds the pages players and judges use — the map viewer, the order desk, the
// battle desk and the judge console — as plain HTML, CSS and JavaScript modules embedded in
// the program: nothing is built or downloaded at run time and no page loads anything from
// another host.
package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
)

//go:embed static
var files embed.FS

// Static is the pages' files: index.html and what it loads.
func Static() fs.FS {
	sub, err := fs.Sub(files, "static")
	if err != nil {
		panic(err)
	}
	return sub
}

// Policy is the Content-Security-Policy of every page: scripts, styles, images and requests
// from this server only, no inline script or style, no frames.
const Policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// asset is one file ready to serve: its bytes, their gzip form when that is smaller, its
// type and entity tag.
type asset struct {
	body, gz []byte
	ctype    string
	etag     string
}

// Handler serves the pages: "/" is the application (index.html) and "/assets/NAME" the
// files it loads. Every answer carries a strong ETag (the content's SHA-256) and asks the
// browser to revalidate (no-cache), so a new program version is seen at once and an unchanged
// file costs a 304; files are gzipped for clients that accept it.
func Handler() http.Handler {
	assets, err := load(Static())
	if err != nil {
		panic(err)
	}
	return &handler{assets: assets}
}

func load(fsys fs.FS) (map[string]*asset, error) {
	out := map[string]*asset{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		a := &asset{body: body, ctype: contentType(p), etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		if _, err := zw.Write(body); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		if buf.Len() < len(body)*9/10 {
			a.gz = buf.Bytes()
		}
		out[p] = a
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("the embedded pages: %w", err)
	}
	if out["index.html"] == nil {
		return nil, fmt.Errorf("the embedded pages have no index.html")
	}
	return out, nil
}

func contentType(p string) string {
	switch path.Ext(p) {
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".html":
		return "text/html; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".json", ".webmanifest":
		return "application/manifest+json"
	}
	if t := mime.TypeByExtension(path.Ext(p)); t != "" {
		return t
	}
	return "application/octet-stream"
}

type handler struct {
	assets map[string]*asset
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, ok := h.name(r.URL.Path)
	a := h.assets[name]
	hd := w.Header()
	hd.Set("Content-Security-Policy", Policy)
	if !ok || a == nil || name == "index.html" && r.URL.Path != "/" {
		hd.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, "there is no page at %s: the map is at /\n", r.URL.Path)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	hd.Set("Content-Type", a.ctype)
	hd.Set("Cache-Control", "no-cache")
	hd.Set("ETag", a.etag)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Add("Vary", "Accept-Encoding")
	if matches(r.Header.Get("If-None-Match"), a.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := a.body
	if a.gz != nil && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		body = a.gz
		hd.Set("Content-Encoding", "gzip")
	}
	hd.Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		_, _ = w.Write(body)
	}
}

// Pages are the paths of the pages other than the map, and their files: the deck check and the
// matches of the card formats (issue 19).
var Pages = map[string]string{"/decks": "decks.html", "/matches": "matches.html"}

// name is the embedded file a path asks for: "/" is index.html, a page of Pages its file,
// "/assets/x" is x.
func (h *handler) name(p string) (string, bool) {
	if p == "/" {
		return "index.html", true
	}
	if f, ok := Pages[p]; ok {
		return f, true
	}
	rest, ok := strings.CutPrefix(p, "/assets/")
	if !ok || rest == "" || strings.Contains(rest, "..") {
		return "", false
	}
	return rest, true
}

func matches(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == tag || t == "*" {
			return true
		}
	}
	return false
}

func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		enc, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(enc), "gzip") {
			continue
		}
		q, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q=")
		if !ok {
			return true
		}
		v, err := strconv.ParseFloat(q, 64)
		return err == nil && v > 0
	}
	return false
}
