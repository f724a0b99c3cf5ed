"""A throwaway PostgreSQL server for the tests, started in a temporary directory.

The system's server binaries are used when present (``/usr/lib/postgresql/*/bin``, or
``initdb`` on the ``PATH``); on a fresh machine, those the ``pgserver`` dev dependency ships.
The tests never skip for want of a server. The server listens on a Unix socket only (no TCP
port to collide with), runs with ``fsync`` off (it is thrown away), and is started once per
test session; the tests share one migrated database, emptied before each test (a database per
test would leave hundreds of megabytes of files to delete at the end).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import IO

DATABASE = "carcabot_test"
PORT = 5432


def binaries() -> Path:
    """The folder holding ``initdb`` and ``postgres``: the system's, else pgserver's."""
    override = os.environ.get("CARCABOT_PG_BIN")
    if override:
        return Path(override)

    def version(folder: str) -> tuple[int, ...]:
        name = Path(folder).parent.name
        return tuple(int(p) for p in name.split(".") if p.isdigit())

    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version, reverse=True):
        if Path(folder, "initdb").exists():
            return Path(folder)
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    from pgserver._commands import POSTGRES_BIN_PATH  # the dev dependency's own build

    return Path(POSTGRES_BIN_PATH)


def _run_as() -> str | None:
    """PostgreSQL refuses to run as root: then the ``postgres`` user (created if missing)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "pgserver"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    subprocess.run(["useradd", "-M", "-s", "/usr/sbin/nologin", "pgserver"], check=True)
    return "pgserver"


def _traversable(folder: Path) -> None:
    """Let the server's user reach binaries under root's folders (pgserver's in a virtualenv
    inside a checkout under ``/root``): every folder above them gets ``o+x``, as pgserver
    itself does when run as root."""
    for parent in [folder, *folder.resolve().parents]:
        mode = parent.stat().st_mode
        if not mode & 0o001:
            parent.chmod(mode | 0o001)


class Server:
    """One running server (see the module docstring); :meth:`stop` ends it and its files."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="carcapg-"))
        self.data = self.root / "data"
        self.socket = self.root
        self.bin = binaries()
        self.user = _run_as()
        self.proc: subprocess.Popen[bytes] | None = None

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.socket}&port={PORT}"

    def start(self) -> Server:
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
            self.root.chmod(0o755)
            _traversable(self.bin)
        subprocess.run(
            [str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
             "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"],
            check=True, capture_output=True, user=self.user,
        )  # fmt: skip
        with open(self.root / "server.log", "wb") as log:  # the child keeps its own copy
            self.proc = self._spawn(log)
        deadline = time.monotonic() + 60
        while not (self.socket / f".s.PGSQL.{PORT}").exists():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                text = (self.root / "server.log").read_text(errors="replace")
                raise RuntimeError(f"the test PostgreSQL server did not start:\n{text}")
            time.sleep(0.05)
        self._wait_ready()
        return self

    def _spawn(self, log: IO[bytes]) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [str(self.bin / "postgres"), "-D", str(self.data), "-k", str(self.socket),
             "-p", str(PORT), "-c", "listen_addresses=", "-c", "fsync=off",
             "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
             "-c", "max_connections=200"],
            stdout=subprocess.DEVNULL, stderr=log,
            user=self.user,
        )  # fmt: skip

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while True:
            done = subprocess.run(
                [str(self.bin / "pg_isready"), "-h", str(self.socket), "-p", str(PORT)],
                capture_output=True,
            )
            if done.returncode == 0:
                return
            if time.monotonic() > deadline:
                raise RuntimeError("the test PostgreSQL server never became ready")
            time.sleep(0.05)

    def sql(self, database: str, statement: str) -> None:
        """Run one statement through ``psql`` (no event loop needed: fixtures use it)."""
        subprocess.run(
            [str(self.bin / "psql"), "-h", str(self.socket), "-p", str(PORT), "-U", "postgres",
             "-d", database, "-v", "ON_ERROR_STOP=1", "-qc", statement],
            check=True, capture_output=True,
        )  # fmt: skip

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # fast shutdown
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.root, ignore_errors=True)
