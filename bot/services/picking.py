"""A seat's picker sessions: its open decisions read once, and what follows each answer.

A picker asks one decision facet by facet over several clicks (:mod:`bot.ui.choices`), and
may chain the decisions that follow an answer when reaching them reveals nothing (a tile,
then a follower on it: ``MatchService.preview``). Without a session each click would read the
match again and rebuild a whole outcome; with one, a seat's decisions are read at its first
click and every look past an answer is asked once, until the match changes. Nothing here
knows Discord: the session is the front end's memory of what it asked, not game logic.

The front end forgets a match's sessions whenever it learns the match changed (it posts every
new state); a session kept past a change by another process can only offer a click that the
submission refuses as out of date (it names its decision's key), so a session never stores
anything wrong. After a restart there are no sessions: the first click reads again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.services.cache import Lru
from bot.services.errors import ERR_NO_MATCH, ServiceError
from bot.services.results import Outcome
from engine import Action, PublicView
from engine.core.decisions import Decision

if TYPE_CHECKING:
    from bot.services.matches import MatchService

#: what follows some answers: the seat's decisions then and the public view, or ``None``
Ahead = tuple[tuple[Decision, ...], PublicView] | None


@dataclass
class PickerSession:
    """One seat's memory of one match version: its open decisions (once read) and the looks
    past answers asked so far (keyed by the answers' notation)."""

    match_id: int
    user_id: int
    read: tuple[Outcome, tuple[Decision, ...]] | None = None
    ahead: dict[tuple[str, ...], Ahead] = field(default_factory=dict)


class PickerSessions:
    """The sessions of every seat of every match a front end is asking, bounded."""

    def __init__(self, service: MatchService, size: int) -> None:
        self.service = service
        self._matches: Lru[int, dict[int, PickerSession]] = Lru(size)

    def session(self, match_id: int, user_id: int) -> PickerSession:
        seats = self._matches.setdefault(match_id, {})
        return seats.setdefault(user_id, PickerSession(match_id, user_id))

    async def open(self, match_id: int, user_id: int) -> tuple[Outcome, tuple[Decision, ...]]:
        """The match and the seat's open decisions: read now if this session has not yet.

        Raises:
            ServiceError: match_over (the match has ended), not_seated.
        """
        session = self.session(match_id, user_id)
        if session.read is not None:
            return session.read
        try:
            outcome, mine = await self.service.decisions_for(0, user_id, match_id=match_id)
        except ServiceError as e:
            if e.key == ERR_NO_MATCH:
                raise ServiceError("match_over", "This match is over.") from None
            raise
        if outcome.finished or outcome.view.over:
            raise ServiceError("match_over", "This match is over.")
        session.read = (outcome, mine)
        return session.read

    async def look_ahead(
        self, outcome: Outcome, user_id: int, root: Decision, actions: Sequence[Action]
    ) -> Ahead:
        """The seat's decisions after ``actions`` answered from ``root`` on (asked once per
        session), or ``None`` when reaching them would reveal something (then the answers
        are submitted): always after a simultaneous (sealed) answer, whose followers may
        reveal the others'."""
        if root.group is not None:
            return None
        session = self.session(outcome.match_id, user_id)
        key = tuple(a.notation() for a in actions)
        if key not in session.ahead:
            session.ahead[key] = await self.service.preview(
                outcome.channel_id, user_id, actions, match_id=outcome.match_id
            )
        return session.ahead[key]

    def forget(self, match_id: int) -> None:
        """The match changed (or ended): its sessions are out of date."""
        self._matches.pop(match_id)
