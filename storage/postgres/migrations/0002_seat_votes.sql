-- 0002: votes to hand a silent player's seat to an AI; SQLite's migration 0008 in
-- PostgreSQL's types (see storage/migrations/0008_seat_votes.sql).

CREATE TABLE seat_votes (
    match_id   BIGINT  NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    target_id  BIGINT  NOT NULL,
    version    INTEGER NOT NULL,
    voter_id   BIGINT  NOT NULL,
    voted_at   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, target_id, version, voter_id)
);
