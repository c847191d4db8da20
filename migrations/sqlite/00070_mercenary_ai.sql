-- +goose Up
-- The mercenary AI (chapter 6): a campaign's mercenary_ai setting and creature pool, the
-- mercenaries' engagements the AI remembers (6.2.1), the plan's posts with the lines the judge
-- edited, and the after-lock edit window of a turn (6.3.2, docs/READINGS.md R41).

CREATE TABLE mercenary_settings (
    campaign_id         INTEGER PRIMARY KEY REFERENCES campaigns (id),
    mode                TEXT NOT NULL CHECK (mode IN ('off', 'suggest', 'auto')),
    edit_window_seconds INTEGER NOT NULL DEFAULT 0,
    creatures           TEXT
);

CREATE TABLE mercenary_history (
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    turn        INTEGER NOT NULL,
    engagements TEXT NOT NULL,
    PRIMARY KEY (campaign_id, turn)
);

CREATE TABLE plan_posts (
    post_id INTEGER PRIMARY KEY REFERENCES posts (id),
    lines   TEXT NOT NULL
);

ALTER TABLE turns ADD COLUMN edit_until TIMESTAMP;
ALTER TABLE turns ADD COLUMN edit TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE turns DROP COLUMN edit;
ALTER TABLE turns DROP COLUMN edit_until;
DROP TABLE plan_posts;
DROP TABLE mercenary_history;
DROP TABLE mercenary_settings;
