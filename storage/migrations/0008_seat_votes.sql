-- 0008: votes to hand a silent player's seat to an AI (`/carcassonne vote_out`, app/base.py).
--
-- A vote counts for the match version it was cast at (a move starts the count again), so a
-- restart, or another process serving the channel, keeps the count. Votes of other versions
-- go when a vote is cast; those of a match no longer running, when the database is pruned.

CREATE TABLE seat_votes (
    match_id   INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    target_id  INTEGER NOT NULL,
    version    INTEGER NOT NULL,
    voter_id   INTEGER NOT NULL,
    voted_at   REAL    NOT NULL,
    PRIMARY KEY (match_id, target_id, version, voter_id)
) WITHOUT ROWID;
