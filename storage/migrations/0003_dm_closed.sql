-- 0003: users whose direct messages are closed, stored the moment a DM is refused.
--
-- Private content (a card-game hand, a secret choice) goes by DM; a DM answered with 403
-- marks its user here at once, so a restart right after the refusal neither tries the DM again
-- nor repeats the notice in the channel. Earlier versions kept this list inside each match's
-- snapshot (key "dm_closed"), written only with the next move; it is carried over here.
-- Rows older than the pruning age are dropped, so a player who opens their DMs again is
-- tried again one day.

CREATE TABLE dm_closed (
    user_id   INTEGER PRIMARY KEY,
    noted_at  REAL    NOT NULL
) WITHOUT ROWID;

INSERT OR IGNORE INTO dm_closed (user_id, noted_at)
SELECT CAST(j.value AS INTEGER), m.updated_at
FROM (
    SELECT snapshot_json, updated_at FROM matches
    WHERE snapshot_json IS NOT NULL AND json_valid(snapshot_json)
      AND json_type(snapshot_json, '$.dm_closed') = 'array'
) AS m, json_each(m.snapshot_json, '$.dm_closed') AS j
WHERE j.type = 'integer' AND j.value > 0;
