-- +goose Up
-- Issue 15, the teams govern themselves (chapters 1 and 5): when a member joined and which judge
-- an assistant judge assists (1.3); statements that a player will be inactive (5.1); who holds
-- the power to change the control list (5.2.2.1); requests for a namesake's consent (5.3.2);
-- the judges' emergency configurations (5.2.2.2); notices to a side (5.3.1, 5.3.4, the locks);
-- votes and ballots (1.4); screen-name changes (1.6); requests for admission (1.1).

ALTER TABLE members ADD COLUMN joined_at TIMESTAMP;
ALTER TABLE members ADD COLUMN assists TEXT NOT NULL DEFAULT '';

CREATE TABLE inactivity (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    account_id  INTEGER NOT NULL REFERENCES accounts (id),
    by_self     BOOLEAN NOT NULL,
    declared_by TEXT NOT NULL,
    declared_at TIMESTAMP NOT NULL,
    until_at    TIMESTAMP,
    reason      TEXT NOT NULL DEFAULT '',
    ended_at    TIMESTAMP,
    ended_by    TEXT NOT NULL DEFAULT '',
    rejected_at TIMESTAMP,
    rejected_by TEXT NOT NULL DEFAULT '',
    rejection   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX inactivity_by_campaign ON inactivity (campaign_id, id);

CREATE TABLE change_power (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    side        TEXT NOT NULL,
    holders     TEXT NOT NULL,
    at          TIMESTAMP NOT NULL,
    by_name     TEXT NOT NULL,
    reason      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX change_power_by_campaign ON change_power (campaign_id, id);

CREATE TABLE control_requests (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id),
    army         TEXT NOT NULL,
    controllers  TEXT NOT NULL,
    reason       TEXT NOT NULL DEFAULT '',
    requested_by TEXT NOT NULL,
    requested_at TIMESTAMP NOT NULL,
    consent_of   INTEGER NOT NULL REFERENCES accounts (id),
    status       TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'declined')),
    decided_at   TIMESTAMP,
    decision     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX control_requests_by_campaign ON control_requests (campaign_id, id);

CREATE TABLE emergencies (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    side        TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('authorize', 'accept')),
    people      TEXT NOT NULL DEFAULT '[]',
    army        TEXT NOT NULL DEFAULT '',
    controllers TEXT NOT NULL DEFAULT '[]',
    breaches    TEXT NOT NULL DEFAULT '[]',
    reason      TEXT NOT NULL,
    by_name     TEXT NOT NULL,
    at          TIMESTAMP NOT NULL,
    turn        INTEGER NOT NULL,
    closed_turn INTEGER NOT NULL DEFAULT 0,
    outcome     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX emergencies_by_campaign ON emergencies (campaign_id, id);

CREATE TABLE notices (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    side        TEXT NOT NULL,
    turn        INTEGER NOT NULL,
    at          TIMESTAMP NOT NULL,
    kind        TEXT NOT NULL,
    player      TEXT NOT NULL DEFAULT '',
    text        TEXT NOT NULL
);
CREATE INDEX notices_by_campaign ON notices (campaign_id, id);

CREATE TABLE votes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    kind        TEXT NOT NULL CHECK (kind IN ('normal', 'leader', 'special')),
    side        TEXT NOT NULL DEFAULT '',
    question    TEXT NOT NULL,
    options     TEXT NOT NULL,
    voters      TEXT NOT NULL DEFAULT '[]',
    secret      BOOLEAN NOT NULL,
    closes_at   TIMESTAMP NOT NULL,
    called_by   TEXT NOT NULL,
    called_at   TIMESTAMP NOT NULL
);
CREATE INDEX votes_by_campaign ON votes (campaign_id, id);

CREATE TABLE ballots (
    vote_id    INTEGER NOT NULL REFERENCES votes (id),
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    choice     TEXT NOT NULL,
    points     INTEGER NOT NULL,
    cast_at    TIMESTAMP NOT NULL,
    PRIMARY KEY (vote_id, account_id)
);

CREATE TABLE name_changes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    account_id  INTEGER NOT NULL REFERENCES accounts (id),
    old_name    TEXT NOT NULL,
    new_name    TEXT NOT NULL,
    army        TEXT NOT NULL DEFAULT '',
    army_name   TEXT NOT NULL DEFAULT '',
    army_done   BOOLEAN NOT NULL DEFAULT FALSE,
    status      TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'declined')),
    asked_at    TIMESTAMP NOT NULL,
    decided_by  TEXT NOT NULL DEFAULT '',
    decided_at  TIMESTAMP,
    reason      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX name_changes_by_account ON name_changes (account_id, id);

CREATE TABLE admissions (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id),
    account_id   INTEGER NOT NULL REFERENCES accounts (id),
    side         TEXT NOT NULL,
    message      TEXT NOT NULL DEFAULT '',
    factions     TEXT NOT NULL DEFAULT '',
    status       TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'declined')),
    asked_at     TIMESTAMP NOT NULL,
    decided_by   TEXT NOT NULL DEFAULT '',
    decided_at   TIMESTAMP,
    rank         INTEGER NOT NULL DEFAULT 0,
    reason       TEXT NOT NULL DEFAULT ''
);
CREATE INDEX admissions_by_campaign ON admissions (campaign_id, id);

-- +goose Down
DROP TABLE admissions;
DROP TABLE name_changes;
DROP TABLE ballots;
DROP TABLE votes;
DROP TABLE notices;
DROP TABLE emergencies;
DROP TABLE control_requests;
DROP TABLE change_power;
DROP TABLE inactivity;
ALTER TABLE members DROP COLUMN assists;
ALTER TABLE members DROP COLUMN joined_at;
