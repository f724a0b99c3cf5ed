"""The JCloisterZone 5.x fixtures (tests/fixtures/jcz5) for the importer's tests: a save read as
JSON, and a save imported and replayed by our engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.carcassonne.jcz5 import import_jcz5
from engine.carcassonne.record import replay

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "jcz5"


def load_save(name: str) -> dict[str, Any]:
    """The fixture ``name`` (a path under tests/fixtures/jcz5) as JSON, to change at will."""
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


def replay_save(data: dict[str, Any]) -> Any:
    """The save imported and replayed by our engine (the replay's result)."""
    return replay(import_jcz5(data).record)
