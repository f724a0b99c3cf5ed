"""Counting a database's round trips: calls handed to its connections' worker threads."""

from __future__ import annotations

from typing import Any

from storage import Database


class Trips:
    """Counts the calls handed to the worker threads of a database's connections."""

    def __init__(self, db: Database) -> None:
        self.n = 0
        for conn in (db.conn, db.reader):
            if conn is None:
                continue
            real = conn._execute

            async def counted(fn: Any, *args: Any, _real: Any = real, **kw: Any) -> Any:
                self.n += 1
                return await _real(fn, *args, **kw)

            conn._execute = counted  # type: ignore[method-assign]

    def take(self) -> int:
        n, self.n = self.n, 0
        return n
