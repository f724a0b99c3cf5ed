"""A seat's picker sessions: its open decisions read once, a path of answers read back through
the decisions it chains, and what follows each answer — the one picker every front end uses.

A picker asks one decision facet by facet over several clicks (:mod:`app.choices`), and
may chain the decisions that follow an answer when reaching them reveals nothing (a tile,
then a follower on it: ``MatchService.preview``). Without a session each click would read the
match again and rebuild a whole outcome; with one, a seat's decisions are read at its first
click and every look past an answer is asked once, until the match changes. Nothing here
knows Discord: the session is the front end's memory of what it asked, not game logic.

A front end keeps only a *path* (:mod:`app.choices`: in a button's custom id on Discord, in
a variable on the console), and asks the session to read it back (:meth:`PickerSessions.walk`)
and what follows a complete answer (:meth:`PickerSessions.following`); it presents the question
and submits the chain's actions. ``back`` is one token off the path, across a chain too.

The front end forgets a match's sessions whenever it learns the match changed (it posts every
new state). On a database that several processes share, another process may have changed the
match meanwhile: there a session's first read of a click checks the match's version (one short
read) and reads the decisions again when it moved on — else every click on the new turn message
would be refused as out of date until this process posted a state itself. A session never stores
anything wrong. After a restart there are no sessions: the first click reads again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from app.cache import Lru
from app.choices import Path, Step, find_decision, fingerprint, walk
from app.errors import ERR_NO_MATCH, ERR_NOT_YOUR_TURN, ERR_STALE, ServiceError
from app.results import Outcome
from engine import Action, PublicView
from engine.core.decisions import Decision

if TYPE_CHECKING:
    from app.matches import MatchService

#: what follows some answers: the seat's decisions then and the public view, or ``None``
Ahead = tuple[tuple[Decision, ...], PublicView] | None


class OutOfDate(ServiceError):
    """An answer to a decision that has closed, or a path that no longer fits its decision's
    options; ``outcome`` is the match as the session read it (for a link to the current turn)."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(ERR_STALE, "This choice is out of date.")
        self.outcome = outcome


@dataclass
class Chain:
    """A path read back: one step per decision of the chain, the actions of the complete
    ones before the last, and the public view the last decision is asked on."""

    outcome: Outcome | None
    user_id: int
    steps: list[Step]
    actions: list[Any]
    view: PublicView | None
    known: set[str] = field(default_factory=set)

    @property
    def root(self) -> Decision:
        return self.steps[0].decision

    @property
    def last(self) -> Step:
        return self.steps[-1]

    def answers(self) -> list[Any]:
        """Every action of a complete chain, to submit in one call."""
        return [*self.actions, self.last.action()]


class Walker(Protocol):
    """What a front end's asking needs: a path read back, and what follows a complete one."""

    async def walk(self, root: Decision, path: Path) -> Chain: ...

    async def following(self, chain: Chain) -> tuple[Step, PublicView | None] | None: ...


@dataclass(frozen=True, slots=True)
class OneDecision:
    """A :class:`Walker` over one decision that chains nothing (a game without look-ahead:
    the card game)."""

    view: PublicView | None = None

    async def walk(self, root: Decision, path: Path) -> Chain:
        if len(path) != 1:
            raise ValueError("one decision chains nothing")
        return Chain(None, 0, [walk(root, path[0])], [], self.view)

    async def following(self, chain: Chain) -> tuple[Step, PublicView | None] | None:
        return None


@dataclass(frozen=True, slots=True)
class SeatPicker:
    """A :class:`Walker` for one seat of one match version, through its session."""

    sessions: PickerSessions
    outcome: Outcome
    user_id: int
    mine: tuple[Decision, ...]

    async def walk(self, root: Decision, path: Path) -> Chain:
        return await self.sessions.walk(self.outcome, self.user_id, self.mine, root, path)

    async def following(self, chain: Chain) -> tuple[Step, PublicView | None] | None:
        return await self.sessions.following(chain)


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
            if await self._current(session.read[0]):
                return session.read
            session.read, session.ahead = None, {}
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

    async def _current(self, outcome: Outcome) -> bool:
        """Whether ``outcome`` is still its match's state: always when this process alone
        serves the database (it forgets a session on every change it makes); else the
        match's stored version says."""
        storage = self.service.storage
        if not storage.shared:
            return True
        row = await storage.match(outcome.match_id)
        return row is not None and row.version == outcome.version and row.status == "active"

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

    async def decision(
        self, match_id: int, user_id: int, ref: str, fp: str | None = None
    ) -> tuple[Outcome, tuple[Decision, ...], Decision]:
        """The seat's open decision ``ref`` names (a :func:`~app.choices.keyref`), with
        the match and the seat's decisions; ``fp``, when given, must be the decision's
        :func:`~app.choices.fingerprint` (its options are those the path was made on).

        Raises:
            ServiceError: not_seated, match_over, not_your_turn (another seat's decision);
                :class:`OutOfDate` (closed, or its options changed).
        """
        outcome, mine = await self.open(match_id, user_id)
        decision = find_decision(mine, ref)
        if decision is None:
            other = find_decision(outcome.decisions, ref)
            if other is not None:
                raise ServiceError(
                    ERR_NOT_YOUR_TURN,
                    "This choice is another player's.",
                    current_user_id=outcome.user_of(other.seat),
                )
            raise OutOfDate(outcome)
        if fp is not None and fp != fingerprint(decision):
            raise OutOfDate(outcome)
        return outcome, mine, decision

    async def walk(
        self,
        outcome: Outcome,
        user_id: int,
        mine: Sequence[Decision],
        root: Decision,
        path: Path,
    ) -> Chain:
        """Read ``path`` back from ``root`` through the chained decisions.

        Raises:
            OutOfDate: when the path does not fit the decisions (any more).
        """
        chain = Chain(outcome, user_id, [], [], outcome.view, {d.key for d in mine})
        decision = root
        for i, selection in enumerate(path):
            try:
                step = walk(decision, selection)
            except ValueError:
                raise OutOfDate(outcome) from None
            chain.steps.append(step)
            if i < len(path) - 1:
                if not step.complete:
                    raise OutOfDate(outcome)
                chain.actions.append(step.action())
                nxt = await self._next(chain)
                if nxt is None:
                    raise OutOfDate(outcome)
                decision, chain.view = nxt
        return chain

    def seat(self, outcome: Outcome, user_id: int, mine: Sequence[Decision]) -> SeatPicker:
        """A walker for ``user_id``'s decisions ``mine`` in ``outcome``."""
        return SeatPicker(self, outcome, user_id, tuple(mine))

    async def following(self, chain: Chain) -> tuple[Step, PublicView] | None:
        """The first question of the seat's next decision once the chain's last (complete)
        answer is given, when reaching it reveals nothing (a follower on the tile just
        placed); ``None`` when the chain's answers are to be submitted now."""
        chain.actions.append(chain.last.action())
        try:
            nxt = await self._next(chain)
        finally:
            chain.actions.pop()
        if nxt is None:
            return None
        decision, view = nxt
        return walk(decision, ()), view

    async def _next(self, chain: Chain) -> tuple[Decision, PublicView] | None:
        """The seat's new decision after the chain's actions, if reaching it reveals nothing."""
        assert chain.outcome is not None
        seen = await self.look_ahead(chain.outcome, chain.user_id, chain.root, chain.actions)
        if seen is None:
            return None
        decisions, view = seen
        new = [d for d in decisions if d.key not in chain.known]
        return (new[0], view) if new else None

    def forget(self, match_id: int) -> None:
        """The match changed (or ended): its sessions are out of date."""
        self._matches.pop(match_id)
