-- 0002: storage that stays small as matches are played and kept.
--
-- Timers: one row per match and kind, updated in place when the turn passes (a move then
-- rewrites one timers page: no AUTOINCREMENT counter, no fires_at index to rewrite; the
-- table holds about one row per match, so finding due reminders scans it). A sent reminder
-- is overwritten by the next one instead of piling up.
--
-- Action log: still append-only for every lobby, running and finished match; the entries of
-- an *abandoned* match may be deleted, so that abandoned matches can be pruned.

CREATE TABLE timers_new (
    id        INTEGER PRIMARY KEY,
    match_id  INTEGER NOT NULL REFERENCES matches (id),
    fires_at  REAL    NOT NULL,
    kind      TEXT    NOT NULL,
    user_id   INTEGER NOT NULL,
    version   INTEGER NOT NULL,
    sent      INTEGER NOT NULL DEFAULT 0,
    UNIQUE (match_id, kind)
);

-- keep, per match and kind, the pending reminder (else the newest sent one)
INSERT INTO timers_new (id, match_id, fires_at, kind, user_id, version, sent)
SELECT t.id, t.match_id, t.fires_at, t.kind, t.user_id, t.version, t.sent
FROM timers t
WHERE t.id = (
    SELECT t2.id FROM timers t2
    WHERE t2.match_id = t.match_id AND t2.kind = t.kind
    ORDER BY t2.sent, t2.id DESC
    LIMIT 1
);

DROP TABLE timers;
ALTER TABLE timers_new RENAME TO timers;
DELETE FROM sqlite_sequence WHERE name = 'timers';

DROP TRIGGER actions_no_delete;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
WHEN (SELECT status FROM matches WHERE id = OLD.match_id) IS NOT 'abandoned'
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;
