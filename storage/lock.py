"""The writer lock: at most one process that writes a database file (the bot, the local table).

An OS lock (``flock`` on POSIX, ``msvcrt.locking`` on Windows) on a side file
``<database>.lock``, held for the life of the process's :class:`~storage.db.Database`. The
operating system drops it when the process ends in any way, ``kill -9`` and power loss
included, so there is no stale heartbeat to wait out after a crash. Readers (``carcabot
replay``, tests, tools) do not take it and keep reading while a bot runs.

The database file itself is never opened here: SQLite's own POSIX locks on it are released
when *any* descriptor of that file closes in the process, so a second descriptor would break
them. The side file holds one line naming the holder (pid, host, start time) so that the
process that is refused can say who holds it.
"""

from __future__ import annotations

import os
import socket
import sys
import time
from pathlib import Path
from typing import IO

from storage.errors import DatabaseInUse

_MAX_HOLDER = 200  # characters of the holder line quoted in the refusal


def lock_path(db_path: Path | str) -> Path:
    """The side file whose lock marks the database's writer: ``<database>.lock``."""
    p = Path(db_path)
    return p.with_name(p.name + ".lock")


def _try_lock(f: IO[bytes]) -> bool:
    """Take an exclusive lock on ``f`` without waiting; False when another holder has it."""
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        try:
            f.seek(0)
            msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except (BlockingIOError, PermissionError):
        return False
    return True


def _clean(text: str) -> str:
    """One printable line of at most ``_MAX_HOLDER`` characters."""
    line = "".join(ch if ch.isprintable() else "?" for ch in text.strip())
    return line[:_MAX_HOLDER] if len(line) <= _MAX_HOLDER else line[: _MAX_HOLDER - 1] + "…"


class WriterLock:
    """An exclusive, process-lifetime claim on writing one database file."""

    def __init__(self, path: Path, handle: IO[bytes]) -> None:
        self.path = path
        self._handle: IO[bytes] | None = handle

    @classmethod
    def acquire(cls, db_path: Path | str) -> WriterLock:
        """Claim the writer lock of ``db_path`` (creating its folder and the side file).

        Raises:
            DatabaseInUse: another process holds it; the message is one line naming it.
        """
        path = lock_path(db_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        handle = os.fdopen(fd, "r+b")  # held open for the life of the lock
        try:
            if not _try_lock(handle):
                try:
                    handle.seek(0)
                    raw = handle.read(4 * _MAX_HOLDER)
                except OSError:  # a mandatory lock (Windows) keeps the holder line unreadable
                    raw = b""
                holder = _clean(raw.decode("utf-8", "replace"))
                raise DatabaseInUse(
                    f"another Carcabot process ({holder or 'holder unknown'}) is already "
                    f"writing to {_clean(str(db_path))}; stop it first, or point this one "
                    "at another database file (DATABASE_PATH)"
                )
            started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
            handle.seek(0)
            handle.truncate()
            handle.write(f"pid {os.getpid()} on {socket.gethostname()}, since {started}".encode())
            handle.flush()
        except BaseException:
            handle.close()
            raise
        return cls(path, handle)

    @property
    def held(self) -> bool:
        return self._handle is not None

    def release(self) -> None:
        """Give the lock up (closing the side file drops the OS lock). Idempotent."""
        handle, self._handle = self._handle, None
        if handle is None:
            return
        try:
            handle.seek(0)
            handle.truncate()
        except OSError:
            pass
        finally:
            handle.close()
