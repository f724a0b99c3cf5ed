-- 0005: ratings, stats and history (issue 31).
--
-- game_results: one row per finished match, written in the same transaction as the move that
-- finished it (the match id is the key, so a game is never recorded twice). ``rated`` says
-- whether its rating update was applied: 0 pending, 1 applied, 2 never (AI seats); the update
-- and the flag change in one transaction, so a restart applies a pending game once.
-- game_result_seats: its final table (rank 1 = best; players who left share the last rank).
-- ratings: the Plackett-Luce mu/sigma per (scope, user); scope is the guild id, 0 the global.
-- rating_changes: each rated game's before/after per player and scope (trend, last games).

CREATE TABLE game_results (
    match_id     INTEGER PRIMARY KEY REFERENCES matches (id),
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    expansions   TEXT    NOT NULL DEFAULT '[]',
    finished_at  REAL    NOT NULL,
    rated        INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX game_results_pending ON game_results (match_id) WHERE rated = 0;
CREATE INDEX game_results_by_guild ON game_results (guild_id, match_id);
CREATE INDEX game_results_by_channel ON game_results (channel_id, match_id);

CREATE TABLE game_result_seats (
    match_id  INTEGER NOT NULL REFERENCES game_results (match_id),
    seat      INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    score     INTEGER NOT NULL,
    rank      INTEGER NOT NULL,
    left_game INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;

CREATE INDEX game_result_seats_by_user ON game_result_seats (user_id, match_id);

CREATE TABLE ratings (
    scope       INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    games       INTEGER NOT NULL DEFAULT 0,
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (scope, user_id)
) WITHOUT ROWID;

-- the leaderboard's order (storage/ratings.py RatingsRepo.top): best ordinal first
CREATE INDEX ratings_by_ordinal ON ratings (scope, mu - 3 * sigma DESC, user_id);

CREATE TABLE rating_changes (
    match_id      INTEGER NOT NULL REFERENCES game_results (match_id),
    scope         INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    mu_before     REAL    NOT NULL,
    sigma_before  REAL    NOT NULL,
    mu_after      REAL    NOT NULL,
    sigma_after   REAL    NOT NULL,
    PRIMARY KEY (match_id, scope, user_id)
) WITHOUT ROWID;

CREATE INDEX rating_changes_by_user ON rating_changes (scope, user_id, match_id);
