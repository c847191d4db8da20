// The baseline server the figures compare with (issue 16): echo, gorm and SQLite doing the
// least the real server's requests need.

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/labstack/echo/v4"
	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// baselinePost is the row the baseline stores for a post: what the real server's insert
// needs at least.
type baselinePost struct {
	ID         int64 `gorm:"primaryKey"`
	CampaignID int64
	Author     string
	At         time.Time
	Text       string
}

// baseline runs the minimal server the figures compare with (issue 16): echo and gorm on an
// SQLite file set up as the real server's (WAL, synchronous=FULL, one writer connection,
// BEGIN IMMEDIATE); POST /posts stores a post's text and answers it, GET /map serves the same
// bytes as the real server's map, 304 for its ETag. Nothing else: no authentication, no
// checks, no logs.
func baseline(args []string) error {
	fs := flag.NewFlagSet("baseline", flag.ContinueOnError)
	db := fs.String("db", "baseline.db", "the SQLite file")
	addr := fs.String("addr", "127.0.0.1:0", "the address to listen on")
	mapFile := fs.String("map", "", "the map's bytes to serve")
	sync := fs.String("synchronous", "FULL", "SQLite's synchronous setting")
	if err := fs.Parse(args); err != nil {
		return err
	}
	body, err := os.ReadFile(*mapFile)
	if err != nil {
		return err
	}
	p := (&url.URL{Path: *db}).EscapedPath()
	g, err := gorm.Open(sqlite.Open("file:"+p+"?_journal_mode=WAL&_busy_timeout=5000&_synchronous="+*sync+"&_txlock=immediate"),
		&gorm.Config{SkipDefaultTransaction: true, Logger: logger.Discard})
	if err != nil {
		return err
	}
	sqlDB, err := g.DB()
	if err != nil {
		return err
	}
	sqlDB.SetMaxOpenConns(1)
	if err := g.Exec(`CREATE TABLE IF NOT EXISTS baseline_posts (id INTEGER PRIMARY KEY AUTOINCREMENT, campaign_id INTEGER NOT NULL,
		author TEXT NOT NULL, at TIMESTAMP NOT NULL, text TEXT NOT NULL)`).Error; err != nil {
		return err
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	const tag = `"baseline-map-1"`
	e.GET("/map", func(c echo.Context) error {
		if c.Request().Header.Get("If-None-Match") == tag {
			c.Response().Header().Set("ETag", tag)
			return c.NoContent(http.StatusNotModified)
		}
		c.Response().Header().Set("ETag", tag)
		return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, body)
	})
	e.POST("/posts", func(c echo.Context) error {
		var req struct {
			Text string `json:"text"`
		}
		if err := c.Bind(&req); err != nil {
			return err
		}
		p := &baselinePost{CampaignID: 1, Author: "baseline", At: time.Now().UTC(), Text: req.Text}
		if err := g.Table("baseline_posts").Create(p).Error; err != nil {
			return err
		}
		return c.JSON(http.StatusCreated, map[string]any{"post": p})
	})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: e}
	fmt.Printf("Listening on http://%s\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return sqlDB.Close()
}
