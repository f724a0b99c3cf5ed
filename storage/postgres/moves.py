"""A move stored in one statement, one round trip to the server (the PostgreSQL backend).

Every accepted move that does not end its match is one ``WITH … UPDATE … INSERT …`` statement:
the compare-and-set on the match's version (which takes the row's lock: a second writer waits
for this one, then finds the version moved on), the log entries, the seats' counts, the timers
and the row and seats read back. A statement is atomic by itself, so no ``BEGIN``/``COMMIT``
round trips either; under a busy machine every round trip is a wake-up of the server's
process, so a move that used to take about eight now takes one. The move that ends a match
(its result written too) keeps the transaction of :meth:`PgStorage.commit_move`.
"""

from __future__ import annotations

import json
from typing import Any

import asyncpg

from storage.errors import StaleVersion
from storage.postgres.connection import Connections
from storage.rows import MatchRow, SeatRow
from storage.units import Found, MoveCommit, Reminder

_ONE_STATEMENT = """
WITH m AS (
    UPDATE matches SET version = $2, snapshot_json = $3, updated_at = $4,
        status = COALESCE($5, status)
    WHERE id = $1 AND version = $6 AND status = 'active'
    RETURNING *
), a AS (
    INSERT INTO actions (match_id, seq, seat, action, visibility, created_at)
    SELECT m.id, e.seq, e.seat, e.action, e.visibility, $4
    FROM m, unnest($7::int[], $8::int[], $9::text[], $10::text[]) AS e(seq, seat, action, visibility)
), s AS (
    UPDATE match_seats AS ms SET
        resigned = CASE WHEN ms.seat = ANY($11::int[]) THEN 1 ELSE ms.resigned END,
        missed = CASE WHEN ms.seat = ANY($13::int[]) THEN ms.missed + 1
                      WHEN ms.seat = ANY($12::int[]) THEN 0 ELSE ms.missed END
    FROM m
    WHERE ms.match_id = m.id
      AND (ms.seat = ANY($11::int[]) OR ms.seat = ANY($12::int[]) OR ms.seat = ANY($13::int[]))
    RETURNING ms.join_order, ms.resigned, ms.missed
), d AS (
    DELETE FROM timers AS t USING m
    WHERE $14::boolean AND t.match_id = m.id AND t.sent = 0 AND NOT (t.kind = ANY($15::text[]))
), u AS (
    INSERT INTO timers (match_id, fires_at, kind, user_id, version, sent)
    SELECT m.id, x.fires_at, x.kind, x.user_id, x.version, 0
    FROM m, unnest($16::float8[], $15::text[], $17::bigint[], $18::int[])
        AS x(fires_at, kind, user_id, version)
    ON CONFLICT (match_id, kind) DO UPDATE SET fires_at = excluded.fires_at,
        user_id = excluded.user_id, version = excluded.version, sent = 0
)
SELECT m.*, (
    SELECT COALESCE(json_agg(json_build_array(ms.match_id, ms.join_order, ms.seat, ms.user_id,
        ms.name, COALESCE(s.resigned, ms.resigned), ms.controller, COALESCE(s.missed, ms.missed))
        ORDER BY ms.join_order), '[]')
    FROM match_seats ms LEFT JOIN s ON s.join_order = ms.join_order
    WHERE ms.match_id = m.id
) AS seats_json
FROM m
"""


def _timer_args(c: MoveCommit) -> tuple[bool, list[Reminder]]:
    """Whether the match's other pending timers go, and the timers written (upserted)."""
    if c.timers is not None:
        return True, list(c.timers)
    if c.timer == "cancel":
        return True, []
    if isinstance(c.timer, Reminder):
        return False, [c.timer]
    return False, []


async def commit_in_one_statement(
    db: Connections, c: MoveCommit, snapshot_json: str, now: float
) -> Found:
    """Store ``c`` (which writes no result) in one statement; the row and seats after it.

    Raises:
        StaleVersion: the match is not at ``c.expected_version`` (or not active), or its log
            has one of the entries already: nothing was written.
        StorageBusy: the row stayed locked past the lock timeout, or the server is away.
    """
    drop_others, timers = _timer_args(c)
    args: list[Any] = [
        c.match_id, c.new_version, snapshot_json, now, c.status, c.expected_version,
        [e.seq for e in c.entries], [e.seat for e in c.entries],
        [e.action for e in c.entries], [e.visibility for e in c.entries],
        list(c.resigned), list(c.moved), list(c.missed),
        drop_others, [t.kind for t in timers], [float(t.fires_at) for t in timers],
        [t.user_id for t in timers], [t.version for t in timers],
    ]  # fmt: skip
    try:
        row = await db.fetchrow(_ONE_STATEMENT, *args)
    except asyncpg.UniqueViolationError as e:
        raise StaleVersion(f"action log of match {c.match_id} already has that entry") from e
    if row is None:
        raise StaleVersion(f"match {c.match_id} is not at version {c.expected_version}")
    seats = [
        SeatRow(s[0], s[1], s[2], s[3], s[4], bool(s[5]), s[6], int(s[7]))
        for s in json.loads(row["seats_json"])
    ]
    return MatchRow.from_row(row), seats
