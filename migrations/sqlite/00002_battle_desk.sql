-- +goose Up
-- The battle judge's desk (B1–B7, 4.1–4.5), sanctions (5.4.1), army edits and troop changes
-- (2.3.2, 2.5.2, 2.6), the judges' card corrections and the end of a round (1.7, D8).

ALTER TABLE campaigns ADD COLUMN winner TEXT NOT NULL DEFAULT '';

CREATE TABLE strategies (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    turn_id        INTEGER NOT NULL REFERENCES turns (id),
    square         TEXT NOT NULL,
    army           TEXT NOT NULL,
    side           TEXT NOT NULL,
    contingency    BOOLEAN NOT NULL,
    author         TEXT NOT NULL,
    text           TEXT NOT NULL,
    choices        TEXT NOT NULL,
    submitted_at   TIMESTAMP NOT NULL,
    UNIQUE (turn_id, army, contingency)
);

CREATE TABLE proposals (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    turn_id      INTEGER NOT NULL REFERENCES turns (id),
    square       TEXT NOT NULL,
    judgement    TEXT NOT NULL,
    proposal     TEXT NOT NULL,
    made_by      TEXT NOT NULL,
    made_at      TIMESTAMP NOT NULL,
    confirmed_by TEXT NOT NULL DEFAULT '',
    confirmed_at TIMESTAMP,
    text         TEXT NOT NULL DEFAULT '',
    UNIQUE (turn_id, square)
);

CREATE TABLE formulas (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    name        TEXT NOT NULL,
    version     INTEGER NOT NULL,
    text        TEXT NOT NULL,
    by_name     TEXT NOT NULL,
    at          TIMESTAMP NOT NULL,
    UNIQUE (campaign_id, name, version)
);

CREATE TABLE sanctions (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    turn_id  INTEGER NOT NULL REFERENCES turns (id),
    army     TEXT NOT NULL,
    k        INTEGER NOT NULL,
    severity INTEGER NOT NULL,
    roll     TEXT NOT NULL,
    losses   TEXT NOT NULL,
    reason   TEXT NOT NULL,
    by_name  TEXT NOT NULL,
    at       TIMESTAMP NOT NULL,
    UNIQUE (turn_id, army, k)
);

CREATE TABLE amendments (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    turn_id INTEGER NOT NULL REFERENCES turns (id),
    kind    TEXT NOT NULL,
    army    TEXT NOT NULL,
    patch   TEXT NOT NULL,
    by_name TEXT NOT NULL,
    at      TIMESTAMP NOT NULL
);
CREATE INDEX amendments_by_turn ON amendments (turn_id, id);

CREATE TABLE cards (
    name_key TEXT PRIMARY KEY,
    card     TEXT NOT NULL,
    by_name  TEXT NOT NULL,
    at       TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE cards;
DROP TABLE amendments;
DROP TABLE sanctions;
DROP TABLE formulas;
DROP TABLE proposals;
DROP TABLE strategies;
ALTER TABLE campaigns DROP COLUMN winner;
