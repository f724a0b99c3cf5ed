"""A move's reads and writes as whole units, each one trip to SQLite's thread.

Through aiosqlite every statement is a hand-over to the connection's thread and back (about
0.3 ms of waiting and a few tens of µs of CPU each, against a few µs for the statement itself
in sqlite3). A move used to make one such trip per statement: the match row, its seats, then
``BEGIN``, the compare-and-set, the log, the reminder, ``COMMIT``, and the row and seats again.
Here each of a move's steps is one plain sqlite3 function run on the thread in one trip
(:meth:`storage.db.Database.read` / :meth:`~storage.db.Database.write`):

- :meth:`Units.match` / :meth:`Units.open_match` — the match row and its seats;
- :meth:`Units.commit_move` — the whole move's transaction, and the row and seats after it;
- :meth:`Units.set_turn_message` — which message shows a version.

The JSON columns are not decoded here (:class:`~storage.rows.MatchRow` decodes on first use).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from storage.db import Database, Wrote
from storage.errors import StaleVersion
from storage.ratings import GameResult, write_result
from storage.rows import ENDED_STATUSES, STATUSES, MatchRow, NewAction, SeatRow, dumps
from storage.snapshots import compact_snapshot

#: a match row and its seats (join order)
Found = tuple[MatchRow, list[SeatRow]]

_SEATS = (
    "SELECT match_id, join_order, seat, user_id, name, resigned, controller, missed FROM match_seats"
    " WHERE match_id = ? ORDER BY join_order"
)


@dataclass(frozen=True, slots=True)
class Reminder:
    """The match's turn reminder after a move (replacing any earlier one)."""

    user_id: int
    fires_at: float
    version: int
    kind: str = "turn_reminder"


@dataclass(frozen=True, slots=True)
class MoveCommit:
    """Everything one accepted move stores, in one transaction.

    ``snapshot`` is stored compact (:func:`~storage.snapshots.compact_snapshot`: whole only
    when ``status`` ends the match). ``timer``: ``"keep"`` the reminder, ``"cancel"`` it, or a
    new :class:`Reminder`.
    """

    match_id: int
    expected_version: int
    new_version: int
    snapshot: dict[str, Any]
    entries: Sequence[NewAction]
    status: str | None = None
    resigned: Sequence[int] = ()
    timer: Reminder | Literal["keep", "cancel"] = "keep"
    #: every unsent timer of the match replaced by these (a new turn's reminder, deadline and
    #: warning; empty: none), or None to leave them to ``timer``
    timers: Sequence[Reminder] | None = None
    #: seats whose missed-moves count goes back to 0 (a player moved) or up by one (their
    #: deadline passed and a stand-in played)
    moved: Sequence[int] = ()
    missed: Sequence[int] = ()
    #: the finished game's result (:mod:`storage.ratings`), stored in the same transaction
    result: GameResult | None = None


def _seats(conn: sqlite3.Connection, match_id: int) -> list[SeatRow]:
    return [
        SeatRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6], int(r[7]))
        for r in conn.execute(_SEATS, (match_id,)).fetchall()
    ]


def _found(conn: sqlite3.Connection, rows: list[Any]) -> Found | None:
    if not rows:
        return None
    row = MatchRow.from_row(rows[0])
    return row, _seats(conn, row.id)


def _commit(conn: sqlite3.Connection, c: MoveCommit) -> Found:
    """The statements of :meth:`Units.commit_move` (inside its transaction)."""
    final = c.status in ENDED_STATUSES
    snap = dumps(compact_snapshot(c.snapshot, final=final))
    now = time.time()
    if c.status is None:
        cur = conn.execute(
            "UPDATE matches SET version = ?, snapshot_json = ?, updated_at = ?"
            " WHERE id = ? AND version = ? AND status = 'active'",
            (c.new_version, snap, now, c.match_id, c.expected_version),
        )
    else:
        cur = conn.execute(
            "UPDATE matches SET version = ?, snapshot_json = ?, status = ?, updated_at = ?"
            " WHERE id = ? AND version = ? AND status = 'active'",
            (c.new_version, snap, c.status, now, c.match_id, c.expected_version),
        )
    if cur.rowcount != 1:
        raise StaleVersion(f"match {c.match_id} is not at version {c.expected_version}")
    try:
        conn.executemany(
            "INSERT INTO actions (match_id, seq, seat, action, visibility, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [(c.match_id, e.seq, e.seat, e.action, e.visibility, now) for e in c.entries],
        )
    except sqlite3.IntegrityError as e:
        raise StaleVersion(f"action log of match {c.match_id} already has that entry") from e
    for seat in c.resigned:
        conn.execute(
            "UPDATE match_seats SET resigned = 1 WHERE match_id = ? AND seat = ?",
            (c.match_id, seat),
        )
    conn.executemany(
        "UPDATE match_seats SET missed = 0 WHERE match_id = ? AND seat = ? AND missed > 0",
        [(c.match_id, seat) for seat in c.moved],
    )
    conn.executemany(
        "UPDATE match_seats SET missed = missed + 1 WHERE match_id = ? AND seat = ?",
        [(c.match_id, seat) for seat in c.missed],
    )
    if c.timers is not None:
        conn.execute("DELETE FROM timers WHERE match_id = ? AND sent = 0", (c.match_id,))
        conn.executemany(
            "INSERT INTO timers (match_id, fires_at, kind, user_id, version, sent)"
            " VALUES (?, ?, ?, ?, ?, 0)"
            " ON CONFLICT (match_id, kind) DO UPDATE SET fires_at = excluded.fires_at,"
            " user_id = excluded.user_id, version = excluded.version, sent = 0",
            [(c.match_id, t.fires_at, t.kind, t.user_id, t.version) for t in c.timers],
        )
    elif c.timer == "cancel":
        conn.execute("DELETE FROM timers WHERE match_id = ? AND sent = 0", (c.match_id,))
    elif isinstance(c.timer, Reminder):
        t = c.timer
        conn.execute(
            "INSERT INTO timers (match_id, fires_at, kind, user_id, version, sent)"
            " VALUES (?, ?, ?, ?, ?, 0)"
            " ON CONFLICT (match_id, kind) DO UPDATE SET fires_at = excluded.fires_at,"
            " user_id = excluded.user_id, version = excluded.version, sent = 0",
            (c.match_id, t.fires_at, t.kind, t.user_id, t.version),
        )
    if c.result is not None:
        write_result(conn, c.result)
    found = _found(
        conn, conn.execute("SELECT * FROM matches WHERE id = ?", (c.match_id,)).fetchall()
    )
    assert found is not None  # updated above, in this transaction
    return found


class Units:
    """A move's reads and writes, each one trip to SQLite (see the module docstring)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def match(self, match_id: int) -> Found | None:
        """The match ``match_id`` and its seats, or None."""

        def work(conn: sqlite3.Connection) -> Found | None:
            rows = conn.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchall()
            return _found(conn, rows)

        return await self.db.read(work)

    async def open_match(self, channel_id: int) -> Found | None:
        """The channel's lobby or active match and its seats, or None."""

        def work(conn: sqlite3.Connection) -> Found | None:
            rows = conn.execute(
                "SELECT * FROM matches WHERE channel_id = ? AND status IN ('lobby', 'active')",
                (channel_id,),
            ).fetchall()
            return _found(conn, rows)

        return await self.db.read(work)

    async def commit_move(
        self, c: MoveCommit, then: Callable[[Found], None] | None = None
    ) -> Found:
        """Store one move in one transaction: compare-and-set the match from
        ``expected_version`` to ``new_version`` with its snapshot (and ``status``), append the
        log entries, mark resigned seats, keep/cancel/replace the reminder, store a finished
        game's result. Returns the match row and seats as committed (``then`` gets them in
        commit order: :meth:`storage.db.Database.write`).

        Raises:
            StaleVersion: the match is not at ``expected_version`` (or not active), or the log
                has one of the entries already: nothing was written.
            StorageBusy: another process kept the database locked.
        """
        if c.status is not None and c.status not in STATUSES:
            raise ValueError(f"unknown status {c.status!r}")
        return await self.db.write(lambda conn: _commit(conn, c), Wrote(c.match_id), then)

    async def set_turn_message(
        self,
        match_id: int,
        version: int,
        message_id: int,
        then: Callable[[bool], None] | None = None,
    ) -> bool:
        """Remember the message that shows ``version``; ignored if a newer one is stored
        (``then``: as :meth:`commit_move`'s)."""

        def work(conn: sqlite3.Connection) -> bool:
            cur = conn.execute(
                "UPDATE matches SET turn_message_id = ?, turn_message_version = ?"
                " WHERE id = ? AND COALESCE(turn_message_version, -1) <= ?",
                (message_id, version, match_id, version),
            )
            return cur.rowcount == 1

        return await self.db.write(work, Wrote(match_id), then)
