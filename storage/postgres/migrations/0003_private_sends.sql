-- 0003: the secret decisions already sent by direct message; SQLite's migration 0009 in
-- PostgreSQL's types (see storage/migrations/0009_private_sends.sql).

CREATE TABLE private_sends (
    match_id      BIGINT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    user_id       BIGINT NOT NULL,
    decision_key  TEXT   NOT NULL,
    sent_at       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, user_id, decision_key)
);
