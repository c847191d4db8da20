-- +goose Up
-- Issue 18: the events of a campaign (public ones for the feed, personal reminders), each
-- account's choice of what it receives and where, the outbox of deliveries the dispatcher sends
-- after the commit, the messages of a turn's threads, and an admin's password reset.

ALTER TABLE accounts ADD COLUMN must_change BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    turn        INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    at          TIMESTAMP NOT NULL,
    title       TEXT NOT NULL,
    body        TEXT NOT NULL,
    account_id  INTEGER REFERENCES accounts (id),
    dedup       TEXT UNIQUE
);
CREATE INDEX events_by_campaign ON events (campaign_id, id);

CREATE TABLE subscriptions (
    account_id     INTEGER NOT NULL REFERENCES accounts (id),
    campaign_id    INTEGER NOT NULL REFERENCES campaigns (id),
    kinds          TEXT NOT NULL,
    email          TEXT NOT NULL DEFAULT '',
    webhook_url    TEXT NOT NULL DEFAULT '',
    webhook_format TEXT NOT NULL DEFAULT 'json',
    webhook_secret TEXT NOT NULL DEFAULT '',
    updated_at     TIMESTAMP NOT NULL,
    PRIMARY KEY (account_id, campaign_id)
);

CREATE TABLE deliveries (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id   INTEGER NOT NULL REFERENCES events (id),
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    channel    TEXT NOT NULL,
    target     TEXT NOT NULL,
    format     TEXT NOT NULL,
    status     TEXT NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    next_at    TIMESTAMP NOT NULL,
    last_error TEXT NOT NULL DEFAULT '',
    sent_at    TIMESTAMP
);
CREATE INDEX deliveries_due ON deliveries (status, next_at);

CREATE TABLE messages (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id   INTEGER NOT NULL REFERENCES campaigns (id),
    turn          INTEGER NOT NULL,
    channel       TEXT NOT NULL,
    account_id    INTEGER NOT NULL REFERENCES accounts (id),
    author        TEXT NOT NULL,
    with_account  INTEGER NOT NULL DEFAULT 0,
    at            TIMESTAMP NOT NULL,
    text          TEXT NOT NULL,
    hidden_at     TIMESTAMP,
    hidden_by     TEXT NOT NULL DEFAULT '',
    hidden_reason TEXT NOT NULL DEFAULT ''
);
CREATE INDEX messages_by_turn ON messages (campaign_id, turn, id);

-- +goose Down
DROP TABLE messages;
DROP TABLE deliveries;
DROP TABLE subscriptions;
DROP TABLE events;
ALTER TABLE accounts DROP COLUMN must_change;
