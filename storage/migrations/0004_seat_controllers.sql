-- 0004: who plays a seat when it is not a person (app/seats.py).
--
-- NULL: a person plays it through a front end. Else the program that answers it:
-- "ai:<level>" (an AI seat the host added, or a player's seat handed to an AI stand-in while
-- they are away; "away:<level>" keeps that it is theirs to take back). A restart reads it here,
-- so an AI seat keeps playing and an away player's stand-in keeps standing in.

ALTER TABLE match_seats ADD COLUMN controller TEXT;
