// Package store keeps the server's accounts and campaigns in SQLite (the default, one file)
// or PostgreSQL through gorm. It alone knows gorm; it implements campaign.Store. The schema is
// built by the numbered SQL migrations of package migrations, run by goose at start-up.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"gorm.io/driver/postgres"
	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/migrations"
)

// DB is a store on one database: a single writer connection and a read-only pool for
// SQLite (STACK-NOTES), one pool for PostgreSQL.
type DB struct {
	writer, reader *gorm.DB
	// path is the SQLite file, empty for PostgreSQL.
	path string
	// known is the state version as this process last knew it (SQLite only; State).
	known atomic.Int64
	// peek is the reader pool with its statements kept prepared (Peek).
	peek *gorm.DB
}

var _ campaign.Store = (*DB)(nil)
var _ campaign.Backupper = (*DB)(nil)

// Open opens the database a DSN names — a postgres:// or postgresql:// URL, or else the path
// of an SQLite file (created if missing) — and brings its schema up to date.
func Open(ctx context.Context, dsn string, log *slog.Logger, opts ...Option) (*DB, error) {
	o := options{synchronous: "FULL"}
	for _, f := range opts {
		if err := f(&o); err != nil {
			return nil, err
		}
	}
	if log == nil {
		log = slog.Default()
	}
	cfg := &gorm.Config{
		SkipDefaultTransaction: true,
		TranslateError:         true,
		Logger: quietTrace{Interface: logger.NewSlogLogger(log, logger.Config{SlowThreshold: slowStatement, LogLevel: logger.Warn, IgnoreRecordNotFoundError: true}),
			slow: slowStatement},
		NowFunc: func() time.Time { return time.Now().UTC() },
	}
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return openPostgres(ctx, dsn, cfg)
	}
	return openSQLite(ctx, dsn, cfg, o)
}

// Option changes how Open opens a database.
type Option func(*options) error

type options struct{ synchronous string }

// Synchronous sets SQLite's synchronous setting: "full", the default (a commit is on the disk
// before it is acknowledged: an acknowledged order survives a power cut), or "normal" (with
// WAL, a power cut may lose the last commits, never the file's consistency; the commits cost no
// sync). PostgreSQL ignores it.
func Synchronous(mode string) Option {
	return func(o *options) error {
		switch m := strings.ToUpper(mode); m {
		case "FULL", "NORMAL":
			o.synchronous = m
			return nil
		}
		return fmt.Errorf("synchronous %q: full or normal", mode)
	}
}

// slowStatement is how long a statement runs before it is logged.
const slowStatement = 500 * time.Millisecond

// SQLiteDSNs are the writer's and the readers' DSNs for an SQLite file (STACK-NOTES): WAL,
// a busy timeout, BEGIN IMMEDIATE for the one writer, read-only query-only readers. The writer
// syncs FULL (issue 16): a commit is on the disk before it is acknowledged, so an acknowledged
// order survives a power cut; posts are committed in groups (campaign's post batch), one sync a
// group.
func SQLiteDSNs(path string) (writer, reader string) { return sqliteDSNs(path, "FULL") }

func sqliteDSNs(path, synchronous string) (writer, reader string) {
	p := (&url.URL{Path: path}).EscapedPath()
	writer = "file:" + p + "?_journal_mode=WAL&_busy_timeout=5000&_synchronous=" + synchronous + "&_foreign_keys=on&_txlock=immediate"
	reader = "file:" + p + "?mode=ro&_query_only=on&_busy_timeout=5000"
	return writer, reader
}

func openSQLite(ctx context.Context, path string, cfg *gorm.Config, o options) (*DB, error) {
	if path == "" {
		return nil, fmt.Errorf("no database file given")
	}
	wdsn, rdsn := sqliteDSNs(path, o.synchronous)
	// The writer first: a read-only connection cannot switch a file to WAL.
	w, err := gorm.Open(sqlite.Open(wdsn), cfg)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	wsql, err := w.DB()
	if err != nil {
		return nil, err
	}
	wsql.SetMaxOpenConns(1)
	wsql.SetMaxIdleConns(1)
	wsql.SetConnMaxLifetime(0)
	wsql.SetConnMaxIdleTime(0)
	if err := wsql.PingContext(ctx); err != nil {
		wsql.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := migrate(ctx, wsql, goose.DialectSQLite3, "sqlite"); err != nil {
		wsql.Close()
		return nil, err
	}
	r, err := gorm.Open(sqlite.Open(rdsn), cfg)
	if err != nil {
		wsql.Close()
		return nil, fmt.Errorf("open %s for reading: %w", path, err)
	}
	rsql, err := r.DB()
	if err != nil {
		wsql.Close()
		return nil, err
	}
	rsql.SetMaxOpenConns(6)
	rsql.SetMaxIdleConns(6)
	return &DB{writer: w, reader: r, path: path, peek: r.Session(&gorm.Session{PrepareStmt: true})}, nil
}

func openPostgres(ctx context.Context, dsn string, cfg *gorm.Config) (*DB, error) {
	g, err := gorm.Open(postgres.Open(dsn), cfg)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	sqlDB, err := g.DB()
	if err != nil {
		return nil, err
	}
	if err := migrate(ctx, sqlDB, goose.DialectPostgres, "postgres"); err != nil {
		sqlDB.Close()
		return nil, err
	}
	return &DB{writer: g, reader: g, peek: g.Session(&gorm.Session{PrepareStmt: true})}, nil
}

// migrate runs the dialect's embedded migrations; on PostgreSQL an advisory lock lets only
// one replica migrate at a time.
func migrate(ctx context.Context, db *sql.DB, dialect goose.Dialect, folder string) error {
	fsys, err := fs.Sub(migrations.FS, folder)
	if err != nil {
		return err
	}
	var opts []goose.ProviderOption
	if dialect == goose.DialectPostgres {
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(dialect, db, fsys, opts...)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	return nil
}

// Close closes every connection.
func (d *DB) Close() error {
	var errs []error
	for _, g := range []*gorm.DB{d.reader, d.writer} {
		if s, err := g.DB(); err == nil {
			errs = append(errs, s.Close())
		}
		if d.reader == d.writer {
			break
		}
	}
	return errors.Join(errs...)
}

// Ping checks that the database answers.
func (d *DB) Ping(ctx context.Context) error {
	s, err := d.reader.DB()
	if err != nil {
		return err
	}
	return s.PingContext(ctx)
}

// Write runs fn in one transaction on the writer connection; a commit that bumped the state
// version makes it the one this process knows.
func (d *DB) Write(ctx context.Context, fn func(campaign.Tx) error) error {
	var bumped int64
	err := d.writer.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		t := &txn{db: tx}
		err := fn(t)
		bumped = t.bumped
		return err
	})
	if err == nil && bumped > 0 && d.path != "" {
		d.advance(bumped)
	}
	return err
}

// Read runs fn in a read-only transaction on the reader pool.
func (d *DB) Read(ctx context.Context, fn func(campaign.Reader) error) error {
	return d.reader.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return fn(&txn{db: tx})
	}, &sql.TxOptions{ReadOnly: d.path == ""})
}

// Peek runs fn on the reader pool without a transaction, its statements prepared once per
// connection and kept (the hot paths' few statements: preparing one cost more than running it).
func (d *DB) Peek(ctx context.Context, fn func(campaign.Reader) error) error {
	return fn(&txn{db: d.peek.WithContext(ctx)})
}

// Tables lists the application's tables, for tests that compare database contents.
var Tables = []string{"secrets", "accounts", "campaigns", "members", "turns", "posts", "results", "control", "audit",
	"strategies", "proposals", "formulas", "sanctions", "amendments", "cards",
	"events", "subscriptions", "deliveries", "messages", "idempotency",
	"inactivity", "change_power", "control_requests", "emergencies", "notices", "votes", "ballots", "name_changes", "admissions",
	"banlist_versions", "deck_cards", "leagues", "matches", "match_events"}

// Dump returns every row of every table as text, in primary-key order, so that a test can
// compare the whole database before and after something.
func (d *DB) Dump(ctx context.Context) (string, error) {
	var b strings.Builder
	for _, t := range Tables {
		rows, err := d.reader.WithContext(ctx).Raw("SELECT * FROM " + t + " ORDER BY 1, 2").Rows()
		if err != nil {
			return "", err
		}
		cols, _ := rows.Columns()
		fmt.Fprintf(&b, "## %s %v\n", t, cols)
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return "", err
			}
			for i, v := range vals {
				if bs, ok := v.([]byte); ok {
					vals[i] = string(bs)
				}
			}
			fmt.Fprintf(&b, "%v\n", vals)
		}
		rows.Close()
	}
	return b.String(), nil
}

// translate turns gorm's errors into the domain's sentinels.
func translate(err error, what string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, gorm.ErrRecordNotFound):
		return domain.Errorf(domain.ErrNotFound, "%s does not exist", what)
	case errors.Is(err, gorm.ErrDuplicatedKey):
		return domain.Errorf(domain.ErrConflict, "%s already exists", what)
	}
	return err
}
