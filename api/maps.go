package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/coalition-wargame/coalition/campaign"
)

// mapCache keeps each map's encoded JSON per campaign, turn and viewer (class and author), for
// the version it was made from: encoding a map is the slow part of serving it (STACK-NOTES).
type mapCache struct {
	mu      sync.Mutex
	entries map[mapKey]mapEntry
}

type mapKey struct {
	campaign int64
	turn     int // 0 for the current map
	class    string
	// author is the name the viewer's orders go under, for the orderable flags of an open
	// turn's armies; "" for a viewer who posts none, and for a locked turn.
	author string
}

type mapEntry struct {
	version string
	body    []byte
}

func newMapCache() *mapCache { return &mapCache{entries: map[mapKey]mapEntry{}} }

func (m *mapCache) get(k mapKey, version string) ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[k]
	if !ok || e.version != version {
		return nil, false
	}
	return e.body, true
}

func (m *mapCache) put(k mapKey, version string, body []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries[k] = mapEntry{version: version, body: body}
}

// etag is the map's entity tag: campaign, turn, version and viewer.
func etag(k mapKey, version string) string {
	tag := "\"map-" + strconv.FormatInt(k.campaign, 10) + "-" + strconv.Itoa(k.turn) + "-" + version + "-" + k.class
	if k.author != "" {
		tag += "-" + url.PathEscape(k.author)
	}
	return tag + "\""
}

// matches reports whether an If-None-Match header names tag (or is "*").
func matches(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		t = strings.TrimPrefix(t, "W/")
		if t == tag || t == "*" {
			return true
		}
	}
	return false
}

// The maps' caching headers, shared by every answer (nothing appends to them in place).
var (
	varyAuthorization = []string{"Authorization"}
	privateNoCache    = []string{"private, no-cache"}
)

// serveMap answers a map request from its version alone when it can: 304 when the client
// has it, the cached bytes when the server has them, and load only otherwise.
func (s *Server) serveMap(c echo.Context, k mapKey, version string, load func() (*campaign.MapView, string, error)) error {
	h := c.Response().Header()
	h["Vary"], h["Cache-Control"] = varyAuthorization, privateNoCache
	tag := etag(k, version)
	if matches(c.Request().Header.Get("If-None-Match"), tag) {
		s.metrics.notModified.Add(1)
		h.Set("ETag", tag)
		// a 304 carries what a cache updates its copy with (RFC 9110 15.4.5: ETag, Vary,
		// Cache-Control); the copy keeps the security headers its 200 came with
		for _, k := range securityHeaders {
			delete(h, k)
		}
		return c.NoContent(http.StatusNotModified)
	}
	body, ok := s.maps.get(k, version)
	if ok {
		s.metrics.mapHits.Add(1)
	} else {
		s.metrics.mapMisses.Add(1)
		v, ver, err := load()
		if err != nil {
			return err
		}
		if body, err = json.Marshal(v); err != nil {
			return err
		}
		version, tag = ver, etag(k, ver)
		s.maps.put(k, version, body)
	}
	h.Set("ETag", tag)
	// its length told, the body goes out whole rather than in chunks
	h.Set(echo.HeaderContentLength, strconv.Itoa(len(body)))
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, body)
}

func (s *Server) currentMap(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	a := actor(c)
	ctx := c.Request().Context()
	v, w, err := s.svc.MapVersion(ctx, a, id)
	if err != nil {
		return err
	}
	return s.serveMap(c, mapKey{campaign: id, class: w.Class, author: w.Author}, strconv.FormatInt(v, 10), func() (*campaign.MapView, string, error) {
		m, err := s.svc.CurrentMap(ctx, a, id)
		if err != nil {
			return nil, "", err
		}
		return m, fmt.Sprint(m.Version), nil
	})
}

func (s *Server) turnMap(c echo.Context) error {
	id, n, err := turnParams(c)
	if err != nil {
		return err
	}
	a := actor(c)
	ctx := c.Request().Context()
	t, err := s.svc.Turn(ctx, a, id, n)
	if err != nil {
		return err
	}
	v, w, err := s.svc.MapVersion(ctx, a, id)
	if err != nil {
		return err
	}
	// Every map is tagged with the campaign's map version: an open turn's changes with the
	// campaign's map, and a locked turn's with a correction of an earlier turn (3.3.3, R77),
	// which moves the version too. A locked turn's map marks no army orderable.
	k := mapKey{campaign: id, turn: n, class: w.Class}
	if t.Status == campaign.Open {
		k.author = w.Author
	}
	return s.serveMap(c, k, strconv.FormatInt(v, 10), func() (*campaign.MapView, string, error) {
		m, err := s.svc.TurnMap(ctx, a, id, n)
		if err != nil {
			return nil, "", err
		}
		return m, strconv.FormatInt(m.Version, 10), nil
	})
}
