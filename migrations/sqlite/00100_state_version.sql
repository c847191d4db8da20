-- +goose Up
-- The state version (issue 16): one number that every write changing what the servers cache
-- (campaigns, members, the control list, turns, amendments, accounts …) increments in its own
-- transaction; posts leave it alone. A server knows its cached state is current by reading this
-- one row, or, owning the SQLite file, without reading at all.

CREATE TABLE state_version (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);
INSERT INTO state_version (id, version) VALUES (1, 1);

-- +goose Down
DROP TABLE state_version;
