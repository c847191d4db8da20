-- +goose Up
-- The card formats as server state (issue 19, docs/FORMATS.md): the banned lists' versions an
-- admin saved (F6), the judges' corrections of the every-card data, leagues, and matches with
-- the log of their events (an undone event stays, marked).

CREATE TABLE banlist_versions (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    list    TEXT NOT NULL,
    version INTEGER NOT NULL,
    banlist TEXT NOT NULL,
    reason  TEXT NOT NULL DEFAULT '',
    by_name TEXT NOT NULL,
    at      TIMESTAMP NOT NULL,
    UNIQUE (list, version)
);

CREATE TABLE deck_cards (
    name_key TEXT PRIMARY KEY,
    card     TEXT NOT NULL,
    by_name  TEXT NOT NULL,
    at       TIMESTAMP NOT NULL
);

CREATE TABLE leagues (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    name     TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    format   TEXT NOT NULL,
    revision TEXT NOT NULL,
    by_name  TEXT NOT NULL,
    at       TIMESTAMP NOT NULL
);

CREATE TABLE matches (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    league_id  INTEGER REFERENCES leagues (id),
    format     TEXT NOT NULL,
    revision   TEXT NOT NULL,
    players    TEXT NOT NULL,
    options    TEXT NOT NULL,
    version    INTEGER NOT NULL DEFAULT 0,
    finished   BOOLEAN NOT NULL DEFAULT FALSE,
    result     TEXT NOT NULL DEFAULT '',
    by_name    TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX matches_by_league ON matches (league_id, id);

CREATE TABLE match_events (
    match_id  INTEGER NOT NULL REFERENCES matches (id),
    seq       INTEGER NOT NULL,
    game      INTEGER NOT NULL,
    event     TEXT NOT NULL,
    says      TEXT NOT NULL,
    by_name   TEXT NOT NULL,
    at        TIMESTAMP NOT NULL,
    undone_by TEXT NOT NULL DEFAULT '',
    undone_at TIMESTAMP,
    PRIMARY KEY (match_id, seq)
);

-- +goose Down
DROP TABLE match_events;
DROP TABLE matches;
DROP TABLE leagues;
DROP TABLE deck_cards;
DROP TABLE banlist_versions;
