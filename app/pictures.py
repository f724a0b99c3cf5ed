"""The pictures the tile-game service draws, in the match's language.

A match's pictures speak the language of its public messages, which the Discord front end
learns from each interaction (``note_lang``) and, before any after a restart, from the
language the lobby was opened in (``MatchOptions.lang``); the service draws the turn picture in the
language it last heard (so a match in Spanish is drawn once per move, in Spanish) and the
front end asks :func:`board_png` for another language or for the whole map (cached per
version, language and kind).

A finished match's pictures need what its last move's events say (the figures final scoring
took off, the features it scored) and every award of the game (the final breakdown):
:func:`picture_inputs` finds both, replaying the last move when the events are not at hand
(``/carcassonne board`` after the end).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from app.cache import PictureCache
from app.painters import Painter
from app.replay import Game
from engine import apply
from engine.carcassonne.events import Event
from engine.carcassonne.scoring import Award

log = logging.getLogger(__name__)


class Pictures:
    """The pictures of one game's matches: drawn by ``painter`` (a worker process when the call
    pickles), the newest of each match cached (``size`` pictures, at most ``max_bytes``), and
    the language each match's pictures are drawn in (``"en"`` until told otherwise)."""

    def __init__(self, painter: Painter, size: int, max_bytes: int) -> None:
        self.painter = painter
        #: by (match_id, version, ...): a version fixes the view, so it fixes the image
        self.cache = PictureCache(size, max_bytes)
        self.langs: dict[int, str] = {}
        #: the language of a match nobody spoke in yet (the console sets its table's)
        self.default_lang = "en"

    async def picture(
        self, key: tuple[Any, ...], draw: Callable[[], bytes], what: str
    ) -> bytes | None:
        """``draw()`` by the painter, cached by ``key`` (``(match_id, version, ...)``); a
        failure is logged, not raised (the move itself is stored already)."""
        png = self.cache.get(key)
        if png is not None:
            return png
        try:
            png = await self.painter.paint(draw)
        except Exception:
            log.exception("drawing %s failed; the move itself is stored", what)
            return None
        self.cache.put(key, png)
        return png

    def note_lang(self, match_id: int, lang: str) -> None:
        """Draw ``match_id``'s next pictures in ``lang`` (``"en"``/``"es"``/``"de"``)."""
        self.langs[match_id] = str(lang)
        while len(self.langs) > 4096:  # forget the oldest matches
            del self.langs[next(iter(self.langs))]

    def lang_of_match(self, match_id: int, opened_in: str = "") -> str:
        """The language last heard for ``match_id``; else the one it was opened in (stored with
        its options, so a restart keeps it); else English."""
        return self.langs.get(match_id) or opened_in or self.default_lang


def last_move_events(game: Game) -> tuple[Event, ...]:
    """The events of ``game``'s last move, replayed from the state before it (empty when that
    state is not kept, e.g. right after an undo)."""
    if game.previous is None or not game.moves:
        return ()
    last = game.moves[-1]
    try:
        return apply(game.previous, last.seat, last.action).events
    except Exception:  # the move replayed once already; never let a picture break a call
        return ()


def picture_inputs(
    game: Game, events: Sequence[Event], finished: bool
) -> tuple[tuple[Event, ...], tuple[Award, ...] | None]:
    """The events and awards a picture of ``game`` is drawn with."""
    if not finished:
        return tuple(events), None
    return (tuple(events) or last_move_events(game)), tuple(game.state.awards)


async def board_png(
    service: object, outcome: object, lang: str, *, whole: bool = False
) -> bytes | None:
    """The board of ``outcome`` in ``lang`` (the whole map with ``whole``): the outcome's own
    picture when it is that one, else drawn (and cached) by ``service``; None without a
    renderer or when drawing failed."""
    from app.matches import MatchService
    from app.results import Outcome

    assert isinstance(service, MatchService) and isinstance(outcome, Outcome)
    if outcome.png is not None and outcome.png_lang == lang and not whole:
        return outcome.png
    renderer = service.renderer
    if renderer is None:
        return None
    # a module-level renderer over a view pickles: the service's painter draws it in a worker
    # process (app.painters)
    draw = partial(
        renderer,
        outcome.view.for_pictures(),
        placements=outcome.placements or None,
        lang=lang,
        events=outcome.picture_events,
        awards=outcome.awards,
        whole=whole,
    )
    key = (outcome.match_id, outcome.version, lang, whole)
    return await service.pictures.picture(key, draw, f"the board of match {outcome.match_id}")
