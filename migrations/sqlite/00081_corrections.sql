-- +goose Up
-- A battle judge's corrections of locked turns (3.3.3): what was corrected and why, and the
-- records every turn adjudicated again had before (reports, opening maps, results, the
-- mercenaries' engagements), so that the original stays on record.

CREATE TABLE corrections (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    turn        INTEGER NOT NULL,
    body        TEXT NOT NULL,
    original    TEXT NOT NULL,
    changes     TEXT NOT NULL,
    made_by     TEXT NOT NULL,
    made_at     TIMESTAMP NOT NULL,
    reason      TEXT NOT NULL
);
CREATE INDEX corrections_by_turn ON corrections (campaign_id, turn, id);

-- +goose Down
DROP TABLE corrections;
