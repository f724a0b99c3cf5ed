"""Placing, moving and setting aside the mage and the witch (RULES.md §10.2, OQ-MW-1, OQ-MW-3).

* **A magic tile** (:class:`MoveStep`, slot ``AFTER_PLACE``, before the follower step): its
  seat must put the mage or the witch on a part of an unfinished road or city, on any tile; a
  figure already on the board moves to another tile and another feature; the two never share
  a feature. One decision: figure, then spot (facets ``figure`` → ``feature``). When neither
  figure can go anywhere, the seat takes one off the board (rule 5); with only one on the
  board there is nothing to choose.
* **A tile joining them** (:class:`JoinStep`, first in slot ``SCORE``, after the follower and
  whatever moves or re-routes features before scoring): the active seat must move one of them
  away, under the same limits, before anything scores (rule 6).
* **Completion** (:class:`LeaveStep`, first in slot ``AFTER_SCORE``): a figure whose road or
  city was completed leaves the board, whether or not anyone scored it (OQ-MW-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress, count, islice
from operator import not_
from typing import overload

from engine.carcassonne.actions import Action, Choose, register_action
from engine.carcassonne.board import Board, Meeple, north_first
from engine.carcassonne.events import Event
from engine.carcassonne.flow import Ask, Frame, Result, Step, new_ask
from engine.carcassonne.geometry import Position
from engine.carcassonne.placement import parse_spot, spot_name
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind
from engine.core.decisions import Decision, FeatureRef, FigureRef, Option, Prompt
from engine.core.errors import IllegalActionError, InvalidActionError
from engine.core.messages import Phrase
from engine.core.seats import NEUTRAL, Seat

from .model import (
    FIGURES,
    ID,
    JOIN_STEP,
    LEAVE_STEP,
    MOVE_STEP,
    OFF,
    SYMBOL,
    FigurePlaced,
    FigureSetAside,
    model_of,
    other,
)

#: a part of a feature: the tile's position and the feature's index on it
Spot = tuple[Position, int]
_KINDS = (FeatureKind.ROAD, FeatureKind.CITY)
#: the kinds as plain names (an enum member looked up on its class costs a call per access)
_ROAD, _CITY = _KINDS
#: each cell's notation with its ``@`` (bounded, and the same in every game)
_CELLS: dict[Position, str] = {}


class _Answers(Sequence[Choose]):
    """A magic decision's answers, each figure's spots in :data:`FIGURES` order, each
    answer made only when indexed.

    The unfinished parts are listed once for both figures (``spots`` and their features'
    ``reps``); a figure's spots are those parts but the ones on the features it avoids and
    those on its own tile, which are neighbours in reading order (from ``lo``). They are
    counted and indexed without a list per figure (the random player takes one of hundreds).
    """

    __slots__ = ("_head", "_board", "_spots", "_reps", "_cut", "_n")

    def __init__(
        self,
        head: str,
        board: Board,
        spots: list[Spot],
        reps: list[int],
        cut: list[tuple[str, set[int | None], int, int, int]],
    ) -> None:
        self._head = head
        self._board = board
        self._spots = spots
        self._reps = reps
        #: per figure: its name, the features it avoids, where its own tile's parts begin
        #: (``lo``), how many of these it does not avoid anyway, and its number of spots
        self._cut = cut
        self._n = sum(c[4] for c in cut)

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, index: int) -> Choose: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Choose]: ...

    def __getitem__(self, index: int | slice) -> Choose | Sequence[Choose]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self._n)))
        if index < 0:
            index += self._n
        if not 0 <= index < self._n:
            raise IndexError(index)
        reps = self._reps
        for figure, avoid, lo, own, n in self._cut:
            if index >= n:
                index -= n
                continue
            if own and index >= lo - sum(map(avoid.__contains__, islice(reps, lo))):
                index += own  # past its own tile's parts, which it skips
            kept = compress(count(), map(not_, map(avoid.__contains__, reps)))
            pos, i = self._spots[next(islice(kept, index, None))]
            cell = _CELLS.get(pos)
            if cell is None:
                if len(_CELLS) > 10_000:
                    _CELLS.clear()
                cell = _CELLS[pos] = f"{pos[0]},{pos[1]}@"
            text = cell + self._board.cells[pos].rt.spots[i]
            return Choose(self._head, figure + "@" + text)
        raise IndexError(index)


def rep_of(board: Board, m: Meeple | None) -> int | None:
    """The feature (representative segment) a figure stands on, ``None`` when set aside."""
    return None if m is None else board.root[m.seg]


def _avoid(s: GameState, figure: str) -> tuple[Meeple | None, set[int | None]]:
    """``figure`` as it stands (``None``: set aside) and the features it may not go to: its
    own and the other figure's."""
    board = s.board
    model = model_of(s.ext)
    mine = model.of(figure)
    return mine, {rep_of(board, mine), rep_of(board, model.of(other(figure)))}


def open_parts(s: GameState) -> list[tuple[Position, int, int]]:
    """Every part of an unfinished road or city, in reading order, with its feature
    (representative segment): one pass over the placed tiles in reading order (the cells'
    sort keys are ints, cheaper to sort than the parts), each tile's roads and cities only
    (``closables``: its fields are half its features)."""
    board = s.board
    root, features, cells = board.root, board.features, board.cells
    found: list[tuple[Position, int, int]] = []
    append = found.append
    for pos in sorted(cells, key=north_first):
        placed = cells[pos]
        # by index: a NamedTuple's field is a generic attribute lookup, an index is not
        segs = placed[2]
        for i in placed[1].closables:
            rep = root[segs[i]]
            feat = features[rep]
            if feat.open > 0 and not feat.done:
                append((pos, i, rep))
    return found


def _open_spots(s: GameState) -> tuple[list[Spot], list[int]]:
    """:func:`open_parts` as two lists: the parts, and their features."""
    board = s.board
    root, features, cells = board.root, board.features, board.cells
    spots: list[Spot] = []
    reps: list[int] = []
    for pos in sorted(cells, key=north_first):
        placed = cells[pos]
        # by index: a NamedTuple's field is a generic attribute lookup, an index is not
        segs = placed[2]
        for i in placed[1].closables:
            rep = root[segs[i]]
            feat = features[rep]
            if feat.open > 0 and not feat.done:
                spots.append((pos, i))
                reps.append(rep)
    return spots, reps


def _filter(s: GameState, figure: str, parts: list[tuple[Position, int, int]]) -> list[Spot]:
    mine, avoid = _avoid(s, figure)
    where = None if mine is None else mine.pos
    return [(pos, i) for pos, i, rep in parts if rep not in avoid and pos != where]


def targets(s: GameState, figure: str) -> list[Spot]:
    """Where ``figure`` may go: every part of an unfinished road or city, in reading order,
    except on the other figure's feature and, for a figure on the board, its own tile and
    feature (RULES.md §10.2 rules 2–4, OQ-MW-3)."""
    return _filter(s, figure, open_parts(s))


def allowed(s: GameState, figure: str, spot: Spot) -> bool:
    """Whether ``figure`` may go to ``spot`` (one of :func:`targets`, checked directly)."""
    pos, i = spot
    board = s.board
    mine, avoid = _avoid(s, figure)
    if mine is not None and pos == mine.pos:
        return False
    rep = board.root[board.cells[pos].segs[i]]
    feat = board.features[rep]
    return feat.kind in _KINDS and feat.open > 0 and not feat.done and rep not in avoid


def somewhere(s: GameState) -> bool:
    """Whether either figure may go anywhere (stops at the first spot found)."""
    board = s.board
    limits = [_avoid(s, figure) for figure in FIGURES]
    # newest first: the features of the latest tiles are the likeliest to be unfinished
    features = board.features
    for rep in range(len(features) - 1, -1, -1):
        feat = features[rep]
        if feat.open <= 0 or feat.done:  # NO_FEATURE too (no open end)
            continue
        kind = feat.kind
        if kind is not _ROAD and kind is not _CITY:
            continue
        for mine, avoid in limits:
            if rep in avoid:
                continue
            if mine is None or any(pos != mine.pos for pos in feat.tiles):
                return True
    return False


def value_of(board: Board, figure: str, spot: Spot) -> str:
    """The answer naming ``figure`` on ``spot``: ``mage@2,-1@road:EW``."""
    pos, i = spot
    return f"{figure}@{pos.x},{pos.y}@{spot_name(board.cells[pos].rt, i)}"


def parse(board: Board, value: str) -> tuple[str, Spot | None]:
    """The figure and spot an answer names (``None``: take it off the board).

    Raises:
        IllegalActionError: for an answer that names no figure, or no spot of a placed tile.
    """
    figure, _, rest = value.partition("@")
    if figure not in FIGURES:
        raise IllegalActionError.keyed("mw.err.answer")
    if rest == OFF:
        return figure, None
    cell, sep, spot = rest.partition("@")
    try:
        pos = Position.parse(cell)
        placed = board.cells.get(pos)
        if not sep or placed is None:
            raise InvalidActionError(value)
        return figure, (pos, parse_spot(placed.rt, spot))
    except (InvalidActionError, ValueError):
        raise IllegalActionError.keyed("mw.err.answer") from None


def put(s: GameState, seat: Seat, figure: str, spot: Spot, events: list[Event]) -> None:
    """Place ``figure`` on ``spot``, picking it up first when it stands on the board."""
    board = s.board
    model = model_of(s.ext)
    pos, i = spot
    placed = board.cells[pos]
    mine = model.of(figure)
    if mine is None:
        moved = Meeple(NEUTRAL, figure, placed.segs[i], pos)
        board.add_meeple(moved)
    else:
        moved = board.move_meeple(mine, placed.segs[i], pos)
    s.ext[ID] = model.put(figure, moved)
    kind = placed.rt.tile.features[i].kind.value
    events.append(FigurePlaced(seat, figure, pos, spot_name(placed.rt, i), kind, mine is not None))


def set_aside(s: GameState, figure: str, events: list[Event], seat: Seat | None = None) -> None:
    """Take ``figure`` off the board (its feature completed, or rule 5 when ``seat`` is set)."""
    model = model_of(s.ext)
    m = model.of(figure)
    if m is None:
        return
    s.board.remove_meeples(s.board.root[m.seg], (m,))
    s.ext[ID] = model.put(figure, None)
    events.append(FigureSetAside(figure, seat is None, seat))


def movable(s: GameState) -> dict[str, list[Spot]]:
    """Each figure that may go somewhere, with where."""
    parts = open_parts(s)
    out = {}
    for figure in FIGURES:
        spots = _filter(s, figure, parts)
        if spots:
            out[figure] = spots
    return out


def on_board(s: GameState) -> tuple[str, ...]:
    model = model_of(s.ext)
    return tuple(f for f in FIGURES if model.of(f) is not None)


class _MagicStep(Step):
    """A compulsory placement or move of one figure (the decision shared by both steps)."""

    accepts = (Choose,)

    def _ask(self, s: GameState, seat: Seat, depth: int, events: list[Event]) -> Result:
        """Ask ``seat``; with nowhere to go and one figure on the board, take it off unasked."""
        if not somewhere(s):
            standing = on_board(s)
            if len(standing) <= 1:
                for figure in standing:
                    set_aside(s, figure, events, seat)
                return None
        return (new_ask(s, self, depth, seat),)

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        assert isinstance(action, Choose)
        figure, spot = parse(s.board, action.value)
        if spot is None:
            if figure not in on_board(s) or somewhere(s):
                raise IllegalActionError.keyed("mw.err.off")
            set_aside(s, figure, events, ask.seat)
            return None
        if not allowed(s, figure, spot):
            fig = Phrase(f"mw.subj.{figure}")
            raise IllegalActionError.keyed("mw.err.target", figure=fig, target=action.value)
        put(s, ask.seat, figure, spot, events)
        return None

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("mw.err.first")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        board = s.board

        def options() -> tuple[Option, ...]:
            can = movable(s)
            out: list[Option] = []
            for figure, spots in can.items():
                for pos, i in spots:
                    value = value_of(board, figure, (pos, i))
                    spot = spot_name(board.cells[pos].rt, i)
                    out.append(
                        Option(
                            value,
                            Choose(self.id, value),
                            FeatureRef(pos.x, pos.y, spot),
                            (("figure", figure), ("feature", f"{pos.x},{pos.y}@{spot}")),
                            Prompt.of(f"fig.{figure}"),
                        )
                    )
            if can:
                return tuple(out)
            model = model_of(s.ext)
            for figure in on_board(s):
                m = model.of(figure)
                assert m is not None
                value = f"{figure}@{OFF}"
                spot = spot_name(board.cells[m.pos].rt, board.cells[m.pos].segs.index(m.seg))
                out.append(
                    Option(
                        value,
                        Choose(self.id, value),
                        FigureRef(m.pos.x, m.pos.y, spot, figure),
                        (("figure", figure),),
                        Prompt.of("mw.off", figure=Prompt.of(f"mw.obj.{figure}")),
                    )
                )
            return tuple(out)

        def answers() -> Sequence[Choose]:
            # the options' actions without building the options (random players, the AI),
            # each made only when asked for: the random player takes one of hundreds
            spots, reps = _open_spots(s)
            root, features, cells = board.root, board.features, board.cells
            cut = []
            for figure in FIGURES:
                mine, avoid = _avoid(s, figure)
                n = len(reps) - sum(map(avoid.__contains__, reps))
                lo = own = 0
                if mine is not None:  # its own tile's parts: neighbours in reading order
                    placed = cells[mine.pos]
                    here = [
                        (i, rep)
                        for i in placed.rt.closables
                        if (f := features[rep := root[placed.segs[i]]]).open > 0 and not f.done
                    ]
                    if here:
                        lo = spots.index((mine.pos, here[0][0]))
                        own = sum(1 for _i, rep in here if rep not in avoid)
                        n -= own
                cut.append((figure, avoid, lo, own, n))
            if any(c[4] for c in cut):
                return _Answers(self.id, board, spots, reps, cut)
            return tuple(Choose(self.id, f"{figure}@{OFF}") for figure in on_board(s))

        return Decision(ask.key, ask.seat, self.id, Prompt.of(self.id), options, answers=answers)


class MoveStep(_MagicStep):
    """A magic tile: its seat places or moves the mage or the witch (RULES.md §10.2)."""

    id = MOVE_STEP
    idle_unless_placed = SYMBOL

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        pos = s.placed
        if pos is None or not s.board.cells[pos].rt.tile.symbol_map.get(SYMBOL):
            return None
        return self._ask(s, frame.seat, depth, events)


class JoinStep(_MagicStep):
    """The mage and the witch now share a feature: the active seat moves one away before
    anything scores (RULES.md §10.2 rule 6)."""

    id = JOIN_STEP
    idle_unless = (ID, "mage")

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        model = s.ext[ID]  # every turn: no call when a figure is set aside
        mage = model.mage
        if mage is None:
            return None
        witch = model.witch
        if witch is None:
            return None
        root = s.board.root
        if root[mage.seg] != root[witch.seg]:
            return None
        return self._ask(s, frame.seat, depth, events)


class LeaveStep(Step):
    """After scoring: a figure whose road or city was completed leaves the board (OQ-MW-1)."""

    id = LEAVE_STEP

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        model = s.ext[ID]  # every turn: no call when both are set aside
        if model.mage is None and model.witch is None:
            return None
        board = s.board
        for figure, m in zip(FIGURES, (model.mage, model.witch), strict=True):
            if m is None:
                continue
            feat = board.features[board.root[m.seg]]
            if feat.open == 0 or feat.done:
                set_aside(s, figure, events)
        return None


MOVE = MoveStep()
JOIN = JoinStep()
LEAVE = LeaveStep()
register_action(MoveStep.id)
register_action(JoinStep.id)
