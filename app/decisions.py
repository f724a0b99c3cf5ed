"""The tile-game service's reads of open decisions: a seat's own decisions (private ones
included) and a preview of what a seat would be asked next, without storing anything.

:class:`DecisionReads` is a collaborator of :class:`app.matches.MatchService`. The front ends present any decision generically (ARCHITECTURE.md
§5.8): they ask here which decisions a seat has — for a DM, an ephemeral "Decide" reply or
autocomplete — and, to chain pickers (a tile, then a figure on it), what the seat would be
asked after some actions, as long as reaching it reveals nothing hidden.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from app.errors import illegal
from app.replay import Game
from app.results import Outcome
from app.store import MatchStore
from app.types import Loaded
from engine import Action, EngineError, PublicView, lookahead, view_for
from engine.carcassonne.view import SeatView
from engine.core.decisions import Decision

#: previews kept per game state (a move asks one or two; a player may try a few cells)
PREVIEWS_KEPT = 8


#: the outcome of a loaded match, without its picture
OutcomeOf = Callable[[Loaded[Game]], Awaitable[Outcome]]


class DecisionReads:
    """Reads of a seat's open decisions (see the module docstring); ``outcome`` presents a
    loaded match (the service's)."""

    def __init__(self, store: MatchStore[Game], outcome: OutcomeOf) -> None:
        self.store = store
        self.outcome = outcome

    async def decisions_for(
        self, channel_id: int, user_id: int, *, match_id: int | None = None
    ) -> tuple[Outcome, tuple[Decision, ...]]:
        """The caller's open decisions, private ones included (for a DM or an ephemeral
        "Decide" reply), with the match as it stands. ``match_id`` finds the match from a DM.

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_NOT_SEATED.
        """
        loaded = await self.store.load_in(channel_id, match_id)
        seat = self.store.require_seat(loaded, user_id)
        outcome = await self.outcome(loaded)
        if outcome.finished:
            return outcome, ()
        # the seat's own open decisions, as its seat view lists them (``view_for``), worked
        # out once per state (the outcome's public view is the game's cached one too)
        return outcome, tuple(d for d in loaded.game.decisions() if d.seat == seat)

    async def private_decisions(self, match_id: int) -> dict[int, tuple[Decision, ...]]:
        """Every seat's open secret decisions (a sealed bid), by user id, read at once: what
        the front end delivers by direct message after a move. Empty once finished."""
        loaded = await self.store.load(match_id)
        if loaded.row.status == "finished" or loaded.game.state.over:
            return {}
        out: dict[int, list[Decision]] = {}
        for d in loaded.game.decisions():
            if d.private:
                out.setdefault(loaded.user_of(d.seat), []).append(d)
        return {user: tuple(ds) for user, ds in out.items() if user > 0}

    async def preview(
        self,
        channel_id: int,
        user_id: int,
        action: Action | Sequence[Action],
        *,
        match_id: int | None = None,
    ) -> tuple[tuple[Decision, ...], PublicView] | None:
        """The caller's decisions right after ``action`` (or after each of a sequence of
        actions, in order; nothing is stored) and the public view then, when reaching them
        reveals nothing hidden (placing a tile, then its follower step); ``None`` when an
        action would draw a tile, roll a die, answer a simultaneous (sealed) choice or end the
        game (then submit them).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_NOT_SEATED, ERR_ILLEGAL (an action is illegal).
        """
        actions = [action] if isinstance(action, Action) else list(action)
        loaded = await self.store.load_in(channel_id, match_id)
        seat = self.store.require_seat(loaded, user_id)
        # the follower autocomplete and then the move itself ask the same preview: kept with
        # the game's state (a few per state)
        previews: dict[Any, Any] = loaded.game.memo().setdefault("previews", {})
        key = (seat, tuple(a.notation() for a in actions))
        if key in previews:
            found: tuple[tuple[Decision, ...], PublicView] | None = previews[key]
            return found
        try:
            after = lookahead(loaded.game.state, seat, actions, settle=True)
        except EngineError as e:
            raise illegal(e) from None
        found = None
        if after is not None:
            sv = view_for(after, seat)
            assert isinstance(sv, SeatView)
            found = (sv.decisions, sv.public)
        if len(previews) >= PREVIEWS_KEPT:
            previews.pop(next(iter(previews)))
        previews[key] = found
        return found
