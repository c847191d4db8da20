-- +goose Up
-- A campaign's time settings kept to the microsecond, as the service computes them, not in whole
-- seconds, which stored "turn_length_hours": 0.0001 as 0 (issue 17, R95). A setting out of the
-- bounds R95 gives (a turn length or a lock delay of an hour to 30 days, an extension cap of a
-- minute to 30 days), which only the old code could store, is brought to the nearest bound.

ALTER TABLE campaigns ADD COLUMN lock_delay_us    INTEGER NOT NULL DEFAULT 0;
ALTER TABLE campaigns ADD COLUMN turn_length_us   INTEGER NOT NULL DEFAULT 0;
ALTER TABLE campaigns ADD COLUMN extension_cap_us INTEGER NOT NULL DEFAULT 0;

UPDATE campaigns SET
    lock_delay_us    = CASE WHEN lock_delay_seconds < 3600 THEN 3600 WHEN lock_delay_seconds > 2592000 THEN 2592000 ELSE lock_delay_seconds END * 1000000,
    turn_length_us   = CASE WHEN turn_length_seconds < 3600 THEN 3600 WHEN turn_length_seconds > 2592000 THEN 2592000 ELSE turn_length_seconds END * 1000000,
    extension_cap_us = CASE WHEN extension_cap_seconds < 60 THEN 60 WHEN extension_cap_seconds > 2592000 THEN 2592000 ELSE extension_cap_seconds END * 1000000;

ALTER TABLE campaigns DROP COLUMN lock_delay_seconds;
ALTER TABLE campaigns DROP COLUMN turn_length_seconds;
ALTER TABLE campaigns DROP COLUMN extension_cap_seconds;

-- +goose Down
ALTER TABLE campaigns ADD COLUMN lock_delay_seconds    INTEGER NOT NULL DEFAULT 0;
ALTER TABLE campaigns ADD COLUMN turn_length_seconds   INTEGER NOT NULL DEFAULT 0;
ALTER TABLE campaigns ADD COLUMN extension_cap_seconds INTEGER NOT NULL DEFAULT 0;
UPDATE campaigns SET lock_delay_seconds = lock_delay_us / 1000000, turn_length_seconds = turn_length_us / 1000000, extension_cap_seconds = extension_cap_us / 1000000;
ALTER TABLE campaigns DROP COLUMN lock_delay_us;
ALTER TABLE campaigns DROP COLUMN turn_length_us;
ALTER TABLE campaigns DROP COLUMN extension_cap_us;
