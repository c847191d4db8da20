-- +goose Up
-- A new round set up on the server before its first turn (2.5): its setup document (sites,
-- descriptions, win conditions, towns, counts, armies, placement, mercenaries) and its members,
-- the campaign it became when it started, and the finished campaign it follows.

CREATE TABLE rounds (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT NOT NULL,
    body        TEXT NOT NULL,
    members     TEXT NOT NULL,
    campaign_id INTEGER REFERENCES campaigns (id),
    previous_id INTEGER REFERENCES campaigns (id),
    version     INTEGER NOT NULL DEFAULT 1,
    created_at  TIMESTAMP NOT NULL,
    started_at  TIMESTAMP
);
CREATE UNIQUE INDEX rounds_by_campaign ON rounds (campaign_id);

-- +goose Down
DROP TABLE rounds;
