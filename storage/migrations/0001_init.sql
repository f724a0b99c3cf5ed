-- 0001: matches, seats, the append-only action log, turn timers and guild settings.
-- Times are Unix seconds (REAL). JSON columns hold objects written by storage/codec.py.

CREATE TABLE matches (
    id                    INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id              INTEGER NOT NULL,
    channel_id            INTEGER NOT NULL,
    game                  TEXT    NOT NULL DEFAULT 'carcassonne'
                          CHECK (game IN ('carcassonne', 'cardgame')),
    status                TEXT    NOT NULL DEFAULT 'lobby'
                          CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    host_id               INTEGER NOT NULL,
    version               INTEGER NOT NULL DEFAULT 0,
    options_json          TEXT    NOT NULL DEFAULT '{}',
    setup_json            TEXT,
    seed                  INTEGER NOT NULL,
    snapshot_json         TEXT,
    lobby_message_id      INTEGER,
    turn_message_id       INTEGER,
    turn_message_version  INTEGER,
    created_at            REAL    NOT NULL,
    updated_at            REAL    NOT NULL
);

-- One lobby or running match per channel.
CREATE UNIQUE INDEX matches_one_open_per_channel
    ON matches (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX matches_by_status ON matches (status);

CREATE TABLE match_seats (
    match_id    INTEGER NOT NULL REFERENCES matches (id),
    join_order  INTEGER NOT NULL,
    seat        INTEGER,            -- NULL until the match starts
    user_id     INTEGER NOT NULL,   -- <= 0: a local random-move seat
    name        TEXT    NOT NULL,
    resigned    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, join_order),
    UNIQUE (match_id, user_id),
    UNIQUE (match_id, seat)
);

-- Append-only: seq is the match version the entry produced (1, 2, ...).
CREATE TABLE actions (
    match_id    INTEGER NOT NULL REFERENCES matches (id),
    seq         INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    action      TEXT    NOT NULL,
    visibility  TEXT    NOT NULL DEFAULT 'public',
    created_at  REAL    NOT NULL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TABLE timers (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id  INTEGER NOT NULL REFERENCES matches (id),
    fires_at  REAL    NOT NULL,
    kind      TEXT    NOT NULL,
    user_id   INTEGER NOT NULL,
    version   INTEGER NOT NULL,
    sent      INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX timers_due ON timers (fires_at) WHERE sent = 0;

CREATE TABLE guild_settings (
    guild_id       INTEGER PRIMARY KEY,
    defaults_json  TEXT NOT NULL DEFAULT '{}',
    updated_at     REAL NOT NULL
);
