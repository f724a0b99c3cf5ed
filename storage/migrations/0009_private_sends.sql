-- 0009: the secret decisions (a sealed bid) already sent to their player by direct message.
--
-- The process that posts a match's new state DMs the secret decisions it opened; with several
-- processes on one database the next state may be posted by another process, which must not
-- send them again (each process used to remember only what it had sent itself). A row per
-- decision sent, claimed before sending: each goes once, whichever process posts. The rows of
-- a match no longer running go when the database is pruned.

CREATE TABLE private_sends (
    match_id      INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    decision_key  TEXT    NOT NULL,
    sent_at       REAL    NOT NULL,
    PRIMARY KEY (match_id, user_id, decision_key)
) WITHOUT ROWID;
