-- 0006: turn clocks (app/clocks.py).
--
-- A seat's moves missed in a row: each time its move deadline passes and an AI stand-in plays
-- for it, one more; a move the player makes sets it back to 0. At the match's limit the seat
-- is handed to the AI (its controller becomes "away:<level>").
-- The deadlines themselves are rows of ``timers`` (kinds ``deadline`` and ``warning``, beside
-- ``turn_reminder``), claimed once by whichever process fires them.

ALTER TABLE match_seats ADD COLUMN missed INTEGER NOT NULL DEFAULT 0;
