"""Compact match snapshots: small and flat per move, whole when the match ends.

A match is its setup plus its append-only action log (ARCHITECTURE.md decision 2); the snapshot
stored beside it only saves a replay when *listing* matches (turn, scores, winners, names).
The service's snapshot also carries the whole game record, which grows with every move and made
each move rewrite the match row across overflow pages (BENCHMARKS.md "Storage"). A compact
snapshot leaves the bulky keys out while the match runs (the log holds every move, and the
service rebuilds the record from it) and keeps them when the match ends, so finished games keep
their records as the players' history.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: snapshot keys that grow with the game: stored only in a final snapshot
BULKY_KEYS = frozenset({"record"})


def compact_snapshot(snapshot: Mapping[str, Any], *, final: bool) -> dict[str, Any]:
    """The snapshot to store with a move: without :data:`BULKY_KEYS` unless ``final``.

    The player names, which listings show, are lifted out of the record into ``names`` (see
    :func:`snapshot_names`).
    """
    out = dict(snapshot)
    if final:
        return out
    record = out.get("record")
    for key in BULKY_KEYS:
        out.pop(key, None)
    if "names" not in out and isinstance(record, Mapping) and "names" in record:
        out["names"] = list(record["names"])
    return out


def snapshot_names(snapshot: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The player names a snapshot holds, compact (``names``) or whole (``record.names``)."""
    if not snapshot:
        return ()
    names = snapshot.get("names")
    if names is None:
        record = snapshot.get("record")
        names = record.get("names", ()) if isinstance(record, Mapping) else ()
    return tuple(str(n) for n in names)
