"""What the tile-game service hands its front ends, and the drawing functions it calls.

:class:`Outcome` is the result of every call that changes or reads a started match: the public
view, who sits where, the events of the change, the board picture, and the open public
decisions (``Outcome.decisions``; each seat's private ones come from
``MatchService.decisions_for``). Nothing in it is hidden information.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.base import SeatInfo
from app.replay import Game
from engine import (
    GameState,
    Position,
    PublicView,
    Rotation,
    pending,
)
from engine.carcassonne.actions import Action
from engine.carcassonne.events import Event
from engine.carcassonne.scoring import Award
from engine.core.decisions import Decision, auto_decide
from engine.core.seats import Seat

#: version of the snapshot JSON stored with each match (``"schema"`` key)
SNAPSHOT_SCHEMA = 1

#: colour names by seat, as the renderer draws them (rendering/style.py SEAT_STYLES)
SEAT_COLOURS = ("red", "blue", "yellow", "green", "black", "pink")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What changed after a successful call; the front end turns it into messages."""

    match_id: int
    version: int
    view: PublicView
    seats: tuple[SeatInfo, ...]
    events: tuple[Event, ...] = ()
    png: bytes | None = None  # the board after the change (public view), when it changed
    png_lang: str = "en"  # the language of the words in ``png``
    #: the match's language (last heard, else the one it was opened in): its public messages
    lang: str = "en"
    #: what pictures of this outcome are drawn with (``app.pictures``): the last
    #: move's events, and every award of the game once it is finished
    picture_events: tuple[Event, ...] = ()
    awards: tuple[Award, ...] | None = None
    finished: bool = False
    record_json: str | None = None  # the game record, when finished
    #: replay GIF: the service leaves it out (``MatchService.animation`` draws it after the
    #: final board was posted); a front end may fill it in to present both together
    animation: bytes | None = None
    turn_message_id: int | None = None  # the current turn message, if stored
    extra: dict[str, Any] = field(default_factory=dict)
    #: legal cells of the drawn tile in numbering order (cell n = n-th key), step "place" only
    #: (the local console reads these; the Discord front end reads ``decisions``)
    placements: dict[Position, tuple[Rotation, ...]] = field(default_factory=dict)
    #: seats that won, once finished (ties share; after a resignation, the remaining player)
    winners: tuple[int, ...] = ()
    guild_id: int = 0
    channel_id: int = 0
    #: seats with an open decision, public or private (several at once for simultaneous ones)
    awaiting: tuple[int, ...] = ()
    #: seats whose open decisions include a private one (to deliver by DM)
    private_seats: tuple[int, ...] = ()
    #: seats that have answered a simultaneous private choice still open for others (who has
    #: answered a sealed round, never what)
    answered_seats: tuple[int, ...] = ()
    #: the seat that may take back its tile placement now (``MatchService.undo``), if any
    undo_seat: int | None = None
    #: when the awaited person's move is due (Unix seconds), when the match has a turn clock
    deadline: float | None = None

    @property
    def decisions(self) -> tuple[Decision, ...]:
        """The open public decisions (every seat's); private ones come from
        ``MatchService.decisions_for``."""
        return self.view.decisions

    @property
    def current_user_id(self) -> int:
        return self.seats[self.view.current].user_id

    def user_of(self, seat: int) -> int:
        for s in self.seats:
            if s.seat == seat:
                return s.user_id
        return 0


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A started match as its stored snapshot tells it (no replay needed)."""

    match_id: int
    channel_id: int
    status: str
    version: int
    turn: int
    names: tuple[str, ...]  # in seat order
    scores: tuple[int, ...]
    winners: tuple[int, ...]  # seats, once finished
    updated_at: float


class BoardRenderer(Protocol):
    """Draws the public view as PNG bytes (``rendering.render_board``).

    ``placements``: the legal cells of the drawn tile, numbered 1, 2, ... in the mapping's
    order (the order of :func:`numbered_cells`), so players can pick a cell by number.
    ``lang``: the words' language; ``events``: the last move's (what just scored is outlined;
    a finished game's final scoring puts its figures back); ``awards``: every award of the
    game (the final breakdown); ``whole``: the whole map instead of the turn's region.
    """

    def __call__(
        self,
        view: PublicView,
        *,
        placements: Mapping[Position, tuple[Rotation, ...]] | None = None,
        lang: str = "en",
        events: Sequence[Event] = (),
        awards: Sequence[Award] | None = None,
        whole: bool = False,
    ) -> bytes: ...


class Animator(Protocol):
    """Draws a replay animation from one view per turn (``rendering.render_animation``)."""

    def __call__(
        self,
        views: list[PublicView],
        *,
        fmt: str = "gif",
        lang: str = "en",
        events: Sequence[Event] = (),
    ) -> bytes: ...


def default_renderer() -> BoardRenderer | None:
    """``rendering.render_board`` if the rendering package provides it (imported lazily)."""
    try:
        import rendering
    except ImportError:
        return None
    fn: BoardRenderer | None = getattr(rendering, "render_board", None)
    return fn


def default_animator() -> Animator | None:
    try:
        import rendering
    except ImportError:
        return None
    fn: Animator | None = getattr(rendering, "render_animation", None)
    return fn


def numbered_cells(
    placements: Mapping[Position, tuple[Rotation, ...]],
) -> dict[Position, tuple[Rotation, ...]]:
    """Legal cells in their numbering order (north to south, then west to east): cell number
    ``n`` is the ``n``-th key, 1-based. The image and every picker use this order."""
    return {p: placements[p] for p in sorted(placements, key=lambda p: (p.y, p.x))}


def auto_move(state: GameState, seat: int | None = None) -> tuple[Seat, str, Action]:
    """The answer the service gives for a resigned seat: its first open decision answered by
    ``auto_decide`` (pass when allowed, else the first option: the first cell and rotation in
    numbering order). Returns (seat, decision key, action).

    Raises:
        ValueError: when ``seat`` (any seat when ``None``) has no open decision.
    """
    for d in pending(state):
        if seat is None or d.seat == seat:
            return d.seat, d.key, auto_decide(d)
    raise ValueError("no open decision")


def snapshot_of(
    game: Game, names: list[str], *, winners: tuple[int, ...] | None = None, record: bool = True
) -> dict[str, Any]:
    """What is stored beside a match's log so that listing needs no replay: scores, turn,
    winners (the best score, or the service's choice after a resignation), the names and, with
    ``record``, the game record (a running match's compact snapshot leaves it out, so it is
    not built on every move)."""
    st = game.state
    if winners is None and st.over:
        best = max(st.scores)
        winners = tuple(i for i, s in enumerate(st.scores) if s == best)
    return {
        "schema": SNAPSHOT_SCHEMA,
        "version": game.version,
        "turn": st.turn,
        "step": st.step,
        "current": int(st.current),
        "tiles_left": st.tiles_left,
        "scores": list(st.scores),
        "winners": list(winners or ()),
        "resigned": sorted(int(s) for s in game.resigned),
        **({"record": game.record_json(names)} if record else {"names": list(names)}),
    }
