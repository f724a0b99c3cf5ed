"""MatchService on a real SQLite file for the service tests: tiny stand-ins for the renderer
and the animator (real PNG bytes, readable frames), a two-player match, random moves and the
check that a call is refused with a given error key."""

from __future__ import annotations

import io
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from app.matches import MatchOptions, MatchService, Outcome, ServiceError
from engine import Action, Position, PublicView, Rotation

GUILD, CHANNEL = 1, 10
ANN, BOB, CAT = 100, 200, 300


def tiny_renderer(
    view: PublicView,
    *,
    placements: Mapping[Position, tuple[Rotation, ...]] | None = None,
    **_kw: Any,  # lang, events, awards, whole: not drawn
) -> bytes:
    """A real PNG whose width counts the tiles and height counts the legal cells (+1)."""
    img = Image.new("RGB", (len(view.tiles), len(placements or {}) + 1), (10, 200, 30))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def tiny_animator(views: list[PublicView], *, fmt: str = "gif", **_kw: Any) -> bytes:
    """One line per frame: the turn and the number of tiles it shows."""
    return "\n".join(f"{v.turn} {len(v.tiles)}" for v in views).encode()


async def open_service(path: Path, **kw: Any) -> MatchService:
    kw.setdefault("renderer", tiny_renderer)
    kw.setdefault("animator", tiny_animator)
    return await MatchService.open(path, **kw)


async def two_player_match(
    svc: MatchService, *, seed: int = 11, channel: int = CHANNEL, **options: object
) -> Outcome:
    await svc.create_lobby(GUILD, channel, ANN, "Ann", MatchOptions(**options), seed=seed)  # type: ignore[arg-type]
    await svc.join(channel, BOB, "Bob")
    return await svc.start(channel, ANN)


def random_move(out: Outcome, rng: random.Random) -> list[Action]:
    """A random answer to the open decision (any option, or passing when allowed)."""
    (d,) = out.decisions
    answers = list(d.actions())
    return [rng.choice(answers)]


async def play(
    svc: MatchService,
    out: Outcome,
    rng: random.Random,
    *,
    moves: int | None = None,
    channel: int = CHANNEL,
) -> Outcome:
    n = 0
    while not out.finished and (moves is None or n < moves):
        out = await svc.submit(channel, out.current_user_id, random_move(out, rng), out.version)
        n += 1
    return out


async def refused(key: str, coro: object) -> ServiceError:
    with pytest.raises(ServiceError) as info:
        await coro  # type: ignore[misc]
    assert info.value.key == key, str(info.value)
    return info.value
