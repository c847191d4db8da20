package main

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/robfig/cron/v3"

	"github.com/coalition-wargame/coalition/api"
	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/deck"
	"github.com/coalition-wargame/coalition/store"
	"github.com/coalition-wargame/coalition/web"
)

// env returns the environment variable name, or def when it is unset.
func env(getenv func(string) string, name, def string) string {
	if v := getenv(name); v != "" {
		return v
	}
	return def
}

// common are the flags every database command shares.
type common struct {
	db   string
	cost int
	log  *slog.Logger
}

func commonFlags(fs *flag.FlagSet, getenv func(string) string, c *common) {
	fs.StringVar(&c.db, "db", env(getenv, "COALITION_DB", "coalition.db"), "the SQLite file, or a postgres:// URL (env COALITION_DB)")
	cost, _ := strconv.Atoi(getenv("COALITION_PASSWORD_COST"))
	fs.IntVar(&c.cost, "password-cost", cost, "bcrypt cost of password hashes, 0 for the default (env COALITION_PASSWORD_COST)")
}

func (c *common) open(ctx context.Context) (*store.DB, *campaign.Service, error) {
	st, err := store.Open(ctx, c.db, c.log)
	if err != nil {
		return nil, nil, err
	}
	svc := campaign.NewService(st, campaign.Options{Clock: now, Log: c.log, PasswordCost: c.cost})
	return st, svc, nil
}

const serveHelp = `usage: coalition serve [FLAGS]

Runs the campaign server: the HTTP API on --addr, the database in --db (an SQLite file by
default), and the lock scheduler. On a fresh database it creates the admin account and prints
how to log in. --demo also loads a demo campaign with player accounts.
`

// serve runs the server until ctx is done.
func serve(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, serveHelp); fs.PrintDefaults() }
	var c common
	commonFlags(fs, getenv, &c)
	addr := fs.String("addr", env(getenv, "COALITION_ADDR", ":8080"), "the address to listen on; :0 picks a free port (env COALITION_ADDR)")
	demo := fs.Bool("demo", false, "load the demo campaign and its player accounts (once)")
	backups := fs.String("backups", env(getenv, "COALITION_BACKUPS", ""), "where the SQLite file is copied, checked, before every sweep that locks a turn and every judge's lock (default: backups/ next to the database; env COALITION_BACKUPS)")
	keep := fs.Int("backup-keep", 20, "how many good backups to keep")
	budget := fs.Duration("lock-budget", envDuration(getenv, "COALITION_LOCK_BUDGET", time.Minute), "the most one lock may take before it is abandoned, recorded and retried next tick (env COALITION_LOCK_BUDGET)")
	workers := fs.Int("lock-workers", 2, "how many due turns the scheduler locks at once")
	tick := fs.String("lock-tick", env(getenv, "COALITION_LOCK_TICK", "* * * * *"), "the lock scheduler's cron spec, in UTC; off disables it (env COALITION_LOCK_TICK)")
	admin := fs.String("admin", env(getenv, "COALITION_ADMIN", "admin"), "the name of the admin account created on a fresh database (env COALITION_ADMIN)")
	proxies := fs.String("trusted-proxies", getenv("COALITION_TRUSTED_PROXIES"), "comma-separated CIDRs of reverse proxies whose X-Forwarded-For is believed (env COALITION_TRUSTED_PROXIES)")
	logFormat := fs.String("log", env(getenv, "COALITION_LOG", "text"), "log format: text or json (env COALITION_LOG)")
	rateLimit := fs.String("rate-limit", env(getenv, "COALITION_RATE_LIMIT", "20/s"), "writes per account and per address: N/s, N/m or N/h, optionally ,BURST (N by default); off disables it (env COALITION_RATE_LIMIT)")
	synchronous := fs.String("synchronous", env(getenv, "COALITION_SQLITE_SYNCHRONOUS", "full"), "SQLite's sync of every commit: full (an acknowledged change survives a power cut) or normal (faster; a power cut may lose the last commits) (env COALITION_SQLITE_SYNCHRONOUS)")
	cardFile := fs.String("cards", getenv("COALITION_CARDS"), "a card catalogue written by `coalition cards import` to check troop lists against; default: the card data shipped in the program (env COALITION_CARDS)")
	formatsFile := fs.String("formats", getenv("COALITION_FORMATS"), "a card formats document (format/data/formats.json's shape) with revisions or sub-formats of its own; default: the shipped one (env COALITION_FORMATS)")
	deckCards := fs.String("deck-cards", getenv("COALITION_DECK_CARDS"), "an every-card catalogue written by `coalition cards import --all` to check deck lists against; default: the every-card data shipped in the program, loaded on the first check (env COALITION_DECK_CARDS)")
	var n notifyFlags
	n.register(fs, getenv)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil // the help was asked for, and printed
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("serve takes no arguments, only flags: %q", fs.Args())
	}
	if v := getenv("COALITION_LOCK_BUDGET"); v != "" {
		if _, err := time.ParseDuration(v); err != nil {
			return fmt.Errorf("COALITION_LOCK_BUDGET: %w", err)
		}
	}
	limit, err := api.ParseRateLimit(*rateLimit)
	if err != nil {
		return fmt.Errorf("--rate-limit: %w", err)
	}
	var h slog.Handler = slog.NewTextHandler(stderr, nil)
	if *logFormat == "json" {
		h = slog.NewJSONHandler(stderr, nil)
	}
	c.log = slog.New(h)

	st, err := store.Open(ctx, c.db, c.log, store.Synchronous(*synchronous))
	if err != nil {
		return err
	}
	defer st.Close()
	// listening first: the address people reach the server at goes into the notifications' links
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	url := serverURL(ln.Addr())
	notifier, err := n.notifier(url)
	if err != nil {
		return err
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	opt := campaign.Options{Clock: now, Log: c.log, PasswordCost: c.cost, BackupKeep: *keep, Notifier: notifier, RemindBefore: n.remindBefore,
		LockBudget: *budget, LockWorkers: *workers, SweepMetrics: api.NewSweepMetrics(reg, now)}
	if !strings.Contains(c.db, "://") {
		opt.BackupDir = backupFolder(c.db, *backups)
	}
	if *cardFile != "" {
		if opt.Cards, err = cardsCatalogue(*cardFile); err != nil {
			return fmt.Errorf("--cards: %w", err)
		}
		c.log.Info("card catalogue loaded", "file", *cardFile, "cards", opt.Cards.Len())
	}
	if *deckCards != "" {
		all, err := catalogueFile(*deckCards, nil)
		if err != nil {
			return fmt.Errorf("--deck-cards: %w", err)
		}
		opt.Decks = deck.NewCatalogue(all)
		c.log.Info("every-card catalogue loaded", "file", *deckCards, "cards", all.Len())
	}
	if *formatsFile != "" {
		if opt.Formats, err = formatsDocument(*formatsFile); err != nil {
			return fmt.Errorf("--formats: %w", err)
		}
	}
	svc := campaign.NewService(st, opt)
	// the card catalogue with the judges' corrections put over it again
	if _, err := svc.Catalogue(ctx); err != nil {
		return fmt.Errorf("the card catalogue: %w", err)
	}

	password, err := svc.Bootstrap(ctx, *admin, getenv("COALITION_ADMIN_PASSWORD"))
	if err != nil {
		return fmt.Errorf("creating the admin account: %w", err)
	}
	switch {
	case password != "" && getenv("COALITION_ADMIN_PASSWORD") != "":
		fmt.Fprintf(stdout, "Created the admin account: log in as %q with the password in COALITION_ADMIN_PASSWORD.\n", *admin)
	case password != "":
		fmt.Fprintf(stdout, "Created the admin account: log in as %q with password %s\n(it is shown this once; change it with PUT /api/me/password).\n", *admin, password)
	}
	fmt.Fprintf(stdout, "If the admin's password is lost: coalition admin reset-password --db %s %s prints a new one (to be changed at the next login).\n", shellQuote(c.db), shellQuote(*admin))
	key, err := signingKey(ctx, svc, getenv("COALITION_JWT_KEY"))
	if err != nil {
		return err
	}
	if *demo {
		if err := loadDemo(ctx, svc, stdout); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
	}

	// the sweep: one at a time, on every tick and once after start-up (C3: a lock that fell due
	// while the server was down runs then, once)
	var sweeping sync.Mutex
	sweep := func() {
		if !sweeping.TryLock() {
			c.log.Debug("lock sweep skipped: the last one still runs")
			return
		}
		defer sweeping.Unlock()
		if _, err := svc.LockDue(ctx); err != nil && ctx.Err() == nil {
			c.log.Error("lock sweep failed", "err", err)
		}
	}
	var sched *cron.Cron
	if *tick != "off" {
		cl := cronLogger{c.log}
		sched = cron.New(cron.WithLocation(time.UTC), cron.WithLogger(cl), cron.WithChain(cron.Recover(cl)))
		if _, err := sched.AddFunc(*tick, sweep); err != nil {
			return fmt.Errorf("--lock-tick %q: %w", *tick, err)
		}
		defer func() { <-sched.Stop().Done() }()
	}

	var trusted []string
	for _, p := range strings.Split(*proxies, ",") {
		if p = strings.TrimSpace(p); p != "" {
			trusted = append(trusted, p)
		}
	}
	srv, err := api.New(svc, api.Options{Key: key, Clock: now, Log: c.log, TrustedProxies: trusted, Health: st.Ping, Pages: web.Handler(), MetricsToken: getenv("COALITION_METRICS_TOKEN"), RateLimit: limit,
		Registry: reg})
	if err != nil {
		return err
	}
	// what another process writes to the SQLite file (coalition admin reset-password) is seen
	// within a second: the server reads the state version again every second (issue 16)
	wctx, stopWatch := context.WithCancel(ctx)
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		st.Watch(wctx, time.Second)
	}()
	defer func() { stopWatch(); <-watched }()
	// the dispatcher sends notifications after their commits and makes the reminders
	dctx, stopDispatch := context.WithCancel(ctx)
	dispatched := make(chan struct{})
	go func() {
		defer close(dispatched)
		svc.RunDispatcher(dctx, n.every)
	}()
	defer func() { stopDispatch(); <-dispatched }()
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 60 * time.Second, IdleTimeout: 2 * time.Minute,
		ErrorLog: slog.NewLogLogger(h, slog.LevelWarn)}
	fmt.Fprintf(stdout, "Listening on %s\n", url)
	c.log.Info("serving", "addr", ln.Addr().String(), "db", c.db)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	// start-up never waits on a lock: the server listens and serves reads while the first sweep
	// catches up (a post to a turn already due is too_late, C2), then the ticks begin
	caughtUp := make(chan struct{})
	go func() {
		defer close(caughtUp)
		beforeCatchUp(ctx)
		svc.CleanBackups(ctx)
		sweep()
		if sched != nil && ctx.Err() == nil {
			sched.Start()
		}
	}()
	defer func() { <-caughtUp }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	c.log.Info("stopped")
	return nil
}

// beforeCatchUp runs before the start-up sweep; tests hold it to see the server serve before
// it catches up.
var beforeCatchUp = func(context.Context) {}

// envDuration is the duration in the environment variable name, or def when it is unset or
// not a duration.
func envDuration(getenv func(string) string, name string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(getenv(name)); err == nil {
		return d
	}
	return def
}

// signingKey is the token key: COALITION_JWT_KEY (hex or base64, at least 32 bytes) or a
// random key kept in the database.
func signingKey(ctx context.Context, svc *campaign.Service, given string) ([]byte, error) {
	if given == "" {
		return svc.Secret(ctx, "jwt-hs256", api.MinKeyBytes)
	}
	key, err := hex.DecodeString(given)
	if err != nil {
		key, err = base64.StdEncoding.DecodeString(given)
	}
	if err != nil {
		key, err = base64.RawURLEncoding.DecodeString(given)
	}
	if err != nil || len(key) < api.MinKeyBytes {
		return nil, fmt.Errorf("COALITION_JWT_KEY must be at least %d random bytes in hex or base64 (try: openssl rand -hex 32)", api.MinKeyBytes)
	}
	return key, nil
}

// cronLogger writes robfig/cron's messages to slog.
type cronLogger struct{ log *slog.Logger }

func (l cronLogger) Info(msg string, kv ...any) { l.log.Debug("cron: "+msg, kv...) }
func (l cronLogger) Error(err error, msg string, kv ...any) {
	l.log.Error("cron: "+msg, append(kv, "err", err)...)
}
