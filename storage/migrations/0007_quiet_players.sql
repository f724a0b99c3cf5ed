-- 0007: players who asked not to be pinged when it is their turn (`/carcassonne pings off`).
--
-- Turn messages still name them; they are only left out of the message's allowed mentions.

CREATE TABLE quiet_players (
    user_id  INTEGER PRIMARY KEY,
    set_at   REAL    NOT NULL
) WITHOUT ROWID;
