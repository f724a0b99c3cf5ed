"""The crop circle's two steps (RULES.md §12.2, OQ-CC-1…3).

After the crop-circle tile's own scoring (slot ``CLEANUP``, before a builder's second tile
and a market), :class:`ChooseStep` asks the active seat for option A or B; then
:class:`RoundStep` asks every seat in turn order from the active seat's left, the active seat
last, each seeing what the earlier ones did. A seat with nothing to do is skipped (an event
says so). Option A may be declined (``Pass``), option B may not.

A seat's answer names one of its figures on an unfinished feature of the symbol's kind by the
tile, the spot and the figure: ``3,-1/city:NW/follower``. Under A the figure is the one to
add from the supply beside it (any follower figure that may stand there: a normal or large
follower, the mayor in a city, the wagon on a road or in a city), under B the one taken back.
"""

from __future__ import annotations

from dataclasses import replace

from engine.carcassonne.actions import Action, Choose, Pass, register_action
from engine.carcassonne.board import Feature, Meeple
from engine.carcassonne.events import Event, FigureDeployed, FiguresReturned
from engine.carcassonne.expansion import deploy_vetoes
from engine.carcassonne.figures import FIGURES, spec
from engine.carcassonne.flow import Ask, Frame, Result, SeatByTurnStep, Step, new_ask
from engine.carcassonne.geometry import Position
from engine.carcassonne.placement import spot_name
from engine.carcassonne.state import GameState
from engine.core.decisions import Decision, FeatureRef, Prompt
from engine.core.decisions import Option as Answer
from engine.core.errors import IllegalActionError
from engine.core.messages import Phrase
from engine.core.seats import Seat

from .model import (
    ADD,
    CHOOSE_STEP,
    ID,
    MODES,
    REMOVE,
    ROUND_STEP,
    SYMBOL,
    CropModel,
    FollowerTakenBack,
    OptionChosen,
    SeatPassed,
    SeatSkipped,
    model_of,
)

#: one answer of the round: its value, the tile and spot, the figure named
Spot = tuple[str, Position, str, str]


def symbol_placed(s: GameState) -> str | None:
    """The crop-circle symbol of the tile just placed (``None``: none)."""
    if s.placed is None:
        return None
    value = s.board.cells[s.placed].rt.tile.symbol_map.get(SYMBOL)
    return value if isinstance(value, str) else None


def _own(s: GameState, seat: Seat, m: CropModel) -> list[tuple[Feature, Meeple]]:
    """The seat's follower figures on unfinished features of the round's kind."""
    kind = m.kind
    return [
        (f, x)
        # most features hold no figure (nor does NO_FEATURE): tested first, by the specialised
        # slot read of a plain loop (half the instructions of ``filter`` with an
        # ``attrgetter``, whose generic attribute lookup runs once per feature)
        for f in s.board.features
        if f.meeples and f.kind is kind and not f.done
        for x in f.meeples
        if x.seat == seat and (known := FIGURES.get(x.figure)) is not None and known.follower
    ]


def _spot(s: GameState, meeple: Meeple) -> str:
    placed = s.board.cells[meeple.pos]
    return spot_name(placed.rt, placed.segs.index(meeple.seg))


def spots(
    s: GameState, seat: Seat, own: list[tuple[Feature, Meeple]] | None = None
) -> tuple[Spot, ...]:
    """The answers open to ``seat`` in the round under way, sorted by their value (``own``:
    the seat's figures of the round as :func:`_own` finds them, when the caller has them:
    finding them walks every feature of the board)."""
    m = model_of(s.ext)
    out: dict[str, Spot] = {}
    if own is None:
        own = _own(s, seat, m)
    if m.mode == REMOVE:
        for _, x in own:
            where = _spot(s, x)
            value = f"{x.pos.notation()}/{where}/{x.figure}"
            out[value] = (value, x.pos, where, x.figure)
    elif m.mode == ADD:
        supply = s.players[seat].supply
        kinds = sorted(k for k, n in supply.items() if n > 0 and spec(k).follower)
        vetoes = deploy_vetoes(s.setup)
        for f, x in own:
            where = _spot(s, x)
            at = x.pos.notation()
            for k in kinds:
                value = f"{at}/{where}/{k}"
                if value in out:
                    continue
                # may it stand there: its expansion's veto (the occupation rules do not apply
                # to a follower added beside another, OQ-CC-1)
                for e in vetoes:
                    if e.can_deploy(s, seat, k, f) is False:
                        break
                else:
                    out[value] = (value, x.pos, where, k)
    return tuple(out[v] for v in sorted(out))


class ChooseStep(Step):
    """The active seat chooses option A or B for the crop circle of the tile it placed."""

    id = CHOOSE_STEP
    idle_unless_placed = SYMBOL
    accepts = (Choose,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        symbol = symbol_placed(s)
        if symbol is None:
            return None
        s.ext[ID] = CropModel(symbol=symbol)
        return (new_ask(s, self, depth, frame.seat),)

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        assert isinstance(action, Choose)
        if action.value not in MODES:
            raise IllegalActionError.keyed("cc.err.choose", value=action.value)
        m = replace(model_of(s.ext), mode=action.value)
        s.ext[ID] = m
        events.append(OptionChosen(ask.seat, m.symbol, m.mode))
        return None

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("cc.err.choose_first")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        m = model_of(s.ext)
        who = Prompt.of(f"cc.who.{m.symbol}")
        options = tuple(
            Answer(mode, Choose(self.id, mode), label=Prompt.of(f"{self.id}.{mode}", who=who))
            for mode in MODES
        )
        prompt = Prompt.of(
            self.id,
            symbol=Prompt.of(f"symbol.{SYMBOL}.{m.symbol}"),
            who=who,
            whos=Prompt.of(f"cc.whos.{m.symbol}"),
        )
        return Decision(ask.key, ask.seat, self.id, prompt, options)


class RoundStep(SeatByTurnStep):
    """Every seat in turn from the active seat's left adds (A, may) or takes back (B, must)
    one follower figure of the symbol's kind; a seat with nothing to do is skipped."""

    id = ROUND_STEP
    idle_unless = (ID, "mode")
    accepts = (Choose,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        if not model_of(s.ext).mode:  # no crop circle this placement (most turns)
            return None
        return super().enter(s, frame, depth, events)

    def wants(self, s: GameState, seat: Seat) -> bool:
        return bool(spots(s, seat))

    def optional(self, s: GameState, ask: Ask) -> bool:
        return model_of(s.ext).mode == ADD

    def ask_next(
        self, s: GameState, depth: int, seats: tuple[Seat, ...], events: list[Event]
    ) -> Result:
        m = model_of(s.ext)
        for i, seat in enumerate(seats):
            if self.wants(s, seat):
                return (new_ask(s, self, depth, seat, round=seats[i + 1 :]),)
            events.append(SeatSkipped(seat, m.symbol, m.mode))
        self.finish(s, events)
        return None

    def answer(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> None:
        m = model_of(s.ext)
        if isinstance(action, Pass):
            if m.mode == REMOVE:
                raise IllegalActionError.keyed("cc.err.must_remove", whos=_whos_phrase(m))
            events.append(SeatPassed(ask.seat))
            return
        assert isinstance(action, Choose)
        own = _own(s, ask.seat, m)  # once for the answers and the figure answered
        offered = {sp[0]: sp for sp in spots(s, ask.seat, own)}
        got = offered.get(action.value)
        if got is None:
            names = ", ".join(f"'{v}'" for v in offered)
            raise IllegalActionError.keyed(
                "cc.err.not_offered", value=action.value, whos=_whos_phrase(m), names=names
            )
        _, pos, where, figure = got
        beside = next(x for _, x in own if x.pos == pos and _spot(s, x) == where)
        board = s.board
        player = s.player(ask.seat)
        if m.mode == ADD:
            board.add_meeple(Meeple(ask.seat, figure, beside.seg, pos))
            player.supply[figure] -= 1
            events.append(FigureDeployed(ask.seat, figure, pos, where))
            return
        gone = Meeple(ask.seat, figure, beside.seg, pos)
        board.remove_meeples(board.root[beside.seg], (gone,))  # one of two equal ones
        player.supply[figure] = player.supply.get(figure, 0) + 1
        events.append(FollowerTakenBack(ask.seat, figure, pos, where))
        _escorted_home(s, ask.seat, board.root[beside.seg], events)

    def finish(self, s: GameState, events: list[Event]) -> None:
        s.ext[ID] = CropModel()

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        m = s.ext.get(ID, CropModel())
        if isinstance(action, Pass) and isinstance(m, CropModel) and m.mode == REMOVE:
            return IllegalActionError.keyed("cc.err.must_remove", whos=_whos_phrase(m))
        return IllegalActionError.keyed("cc.err.answer_first")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        m = model_of(s.ext)

        def options() -> tuple[Answer, ...]:
            return tuple(
                Answer(
                    value,
                    Choose(self.id, value),
                    FeatureRef(pos.x, pos.y, where),
                    (("at", f"{pos.notation()}/{where}"), ("figure", figure)),
                )
                for value, pos, where, figure in spots(s, ask.seat)
            )

        prompt = Prompt.of(f"{self.id}.{m.mode}", whos=_whos(m))
        if m.mode == ADD:  # A may be declined
            return Decision(
                ask.key, ask.seat, self.id, prompt, options, optional=True, pass_action=Pass()
            )
        return Decision(ask.key, ask.seat, self.id, prompt, options)


def _escorted_home(s: GameState, seat: Seat, rep: int, events: list[Event]) -> None:
    """Figures that stand only beside their owner's follower (a builder, a pig: RULES.md
    §5.3 rule 5, §5.4 rule 2, OQ-TB-2) go home with the owner's last follower there."""
    feature = s.board.features[rep]
    owned = [x for x in feature.meeples if x.seat == seat]
    if not owned or any(spec(x.figure).follower for x in owned):
        return
    for x in s.board.remove_meeples(rep, owned):
        s.player(seat).supply[x.figure] = s.player(seat).supply.get(x.figure, 0) + 1
        events.append(FiguresReturned(seat, x.figure, 1))


def _whos(m: CropModel) -> Prompt:
    return Prompt.of(f"cc.whos.{m.symbol}")


def _whos_phrase(m: CropModel) -> Phrase:
    """The kind's followers as a refusal's parameter (put in the player's language)."""
    return Phrase(f"cc.whos.{m.symbol}")


CHOOSE = ChooseStep()
ROUND = RoundStep()
register_action(CHOOSE_STEP, MODES)
register_action(ROUND_STEP)
