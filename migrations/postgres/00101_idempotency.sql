-- +goose Up
-- Idempotency keys (issue 16, docs/READINGS.md R90): the first answer to a request that
-- changed something, kept by the account that sent it (0 for none) and the client's key, with
-- a fingerprint of the request, so that a retry gets that answer again and changes nothing.
-- status is 0 while the answer is not stored yet (the change is committed, its answer not).

CREATE TABLE idempotency (
    account_id   BIGINT NOT NULL,
    idem_key     TEXT NOT NULL,
    fingerprint  TEXT NOT NULL,
    status       INTEGER NOT NULL DEFAULT 0,
    content_type TEXT NOT NULL DEFAULT '',
    body         BYTEA,
    created_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, idem_key)
);
CREATE INDEX idempotency_by_time ON idempotency (created_at);

-- +goose Down
DROP TABLE idempotency;
