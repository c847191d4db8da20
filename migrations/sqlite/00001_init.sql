-- +goose Up
CREATE TABLE secrets (
    name  TEXT PRIMARY KEY,
    value BLOB NOT NULL
);

CREATE TABLE accounts (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT NOT NULL,
    name_key      TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    admin         BOOLEAN NOT NULL DEFAULT FALSE,
    token_version INTEGER NOT NULL DEFAULT 1,
    created_at    TIMESTAMP NOT NULL
);

CREATE TABLE campaigns (
    id                    INTEGER PRIMARY KEY AUTOINCREMENT,
    name                  TEXT NOT NULL,
    status                TEXT NOT NULL CHECK (status IN ('running', 'paused', 'finished')),
    paused_at             TIMESTAMP,
    pause_reason          TEXT NOT NULL DEFAULT '',
    lock_delay_seconds    INTEGER NOT NULL,
    turn_length_seconds   INTEGER NOT NULL,
    extension_cap_seconds INTEGER NOT NULL,
    scenario_seed         INTEGER,
    plan                  TEXT NOT NULL DEFAULT '[]',
    map_version           INTEGER NOT NULL DEFAULT 1,
    created_at            TIMESTAMP NOT NULL
);

CREATE TABLE members (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id),
    account_id   INTEGER NOT NULL REFERENCES accounts (id),
    roles        TEXT NOT NULL,
    side         TEXT NOT NULL DEFAULT '',
    rank         INTEGER NOT NULL DEFAULT 0,
    factions     TEXT NOT NULL DEFAULT '',
    rank_faction TEXT NOT NULL DEFAULT '',
    contingency  TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (campaign_id, account_id)
);

CREATE TABLE turns (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id       INTEGER NOT NULL REFERENCES campaigns (id),
    number            INTEGER NOT NULL,
    status            TEXT NOT NULL CHECK (status IN ('open', 'locked')),
    opened_at         TIMESTAMP NOT NULL,
    deadline          TIMESTAMP NOT NULL,
    lock_at           TIMESTAMP NOT NULL,
    extension_seconds INTEGER NOT NULL DEFAULT 0,
    check_window      BOOLEAN NOT NULL,
    seed              BLOB NOT NULL,
    commitment        TEXT NOT NULL,
    snapshot          TEXT NOT NULL,
    locked_at         TIMESTAMP,
    locked_by         TEXT NOT NULL DEFAULT '',
    lock_reason       TEXT NOT NULL DEFAULT '',
    control_seq       INTEGER NOT NULL DEFAULT 0,
    control_at        TIMESTAMP,
    report            TEXT NOT NULL DEFAULT '',
    report_text       TEXT NOT NULL DEFAULT '',
    lock_error        TEXT NOT NULL DEFAULT '',
    UNIQUE (campaign_id, number)
);

CREATE TABLE posts (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id),
    turn         INTEGER NOT NULL,
    account_id   INTEGER NOT NULL REFERENCES accounts (id),
    author       TEXT NOT NULL,
    at           TIMESTAMP NOT NULL,
    private      BOOLEAN NOT NULL,
    text         TEXT NOT NULL,
    source       TEXT NOT NULL,
    transfers    TEXT NOT NULL DEFAULT '[]',
    withdrawn_at TIMESTAMP,
    replaces     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX posts_by_turn ON posts (campaign_id, turn);

CREATE TABLE results (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    turn_id    INTEGER NOT NULL REFERENCES turns (id),
    square     TEXT NOT NULL,
    result     TEXT NOT NULL,
    entered_by TEXT NOT NULL,
    entered_at TIMESTAMP NOT NULL,
    UNIQUE (turn_id, square)
);

CREATE TABLE control (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id),
    army         TEXT NOT NULL,
    controllers  TEXT NOT NULL,
    effective_at TIMESTAMP NOT NULL,
    by_name      TEXT NOT NULL,
    reason       TEXT NOT NULL DEFAULT ''
);
CREATE INDEX control_by_campaign ON control (campaign_id, effective_at);

CREATE TABLE audit (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL DEFAULT 0,
    at          TIMESTAMP NOT NULL,
    actor       TEXT NOT NULL,
    action      TEXT NOT NULL,
    detail      TEXT NOT NULL,
    ip          TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_by_campaign ON audit (campaign_id, id);

-- +goose Down
DROP TABLE audit;
DROP TABLE control;
DROP TABLE results;
DROP TABLE posts;
DROP TABLE turns;
DROP TABLE members;
DROP TABLE campaigns;
DROP TABLE accounts;
DROP TABLE secrets;
