"""The turn's part of Messages (RULES.md §7.2, OQ-MSG-2, -6, -7, -8, -10).

* :class:`MarkStep` (first in slot ``SCORE``): a placement's scoring starts; awards given from
  now until its messages are used may earn a message.
* Every award given during the game (not final scoring) goes to the seat's main figure and waits
  in the model (``Expansion.on_points_awarded``) for its seat to say which figure takes it.
* :class:`FigureStep` (slot ``AFTER_SCORE``, after castles, barns and the gold sharing, before
  robbers: 001's "EJECUTAR DESPACHOS"): the waiting awards are placed one at a time in
  ascending order of points (OQ-MSG-7), each by its own seat, also off-turn (OQ-MSG-8), asked
  unless the seat's standing choice decides. A figure of the active player that lands on a dark
  space earns one message (:class:`MessageStep`); its points may earn the next (a chain).
* :class:`SettleStep` (slot ``END``, root turn only): awards given outside a scoring step
  (a market's payments) are placed too, earning no message.
"""

from __future__ import annotations

from engine.carcassonne import chance, track
from engine.carcassonne.actions import Action, Choose, register_action
from engine.carcassonne.events import Event
from engine.carcassonne.flow import BONUS_TURN, Ask, Frame, Result, Step, new_ask, push_subturn
from engine.carcassonne.scoring import MAIN, Award
from engine.carcassonne.state import GameState
from engine.core import messages
from engine.core.decisions import Decision, Option, Prompt
from engine.core.errors import IllegalActionError
from engine.core.seats import Seat

from .cards import carry_out, choices
from .model import (
    ASK,
    DARK,
    DECK,
    EXTRA_TILE,
    FIGURE_STEP,
    ID,
    MAIN_FIGURE,
    MARK_STEP,
    MESSAGE_STEP,
    MESSENGER,
    MESSENGER_FIGURE,
    SETTLE_STEP,
    FigureChosen,
    MessageDrawn,
    MessageUsed,
    Pending,
    dark,
    model_of,
    update,
)


def next_pending(s: GameState) -> Pending | None:
    """The waiting award with the fewest points (the first of equals)."""
    pending: tuple[Pending, ...] = s.ext[ID].pending  # no calls (``p[0]`` is its award)
    if not pending:
        return None
    best = pending[0]
    low = best[0].points
    for p in pending:
        if p[0].points < low:
            best, low = p, p[0].points
    return best


def landing(s: GameState, a: Award, figure: str) -> int:
    """The points ``figure`` of ``a.seat`` would stand on once ``a`` is placed on it, every
    award of that seat still waiting (this one too) counted off its main figure first."""
    if figure == MESSENGER:
        return track.value(s, a.seat, MESSENGER) + a.points
    waiting = sum(p.award.points for p in model_of(s).pending if p.award.seat == a.seat)
    return track.value(s, a.seat, MAIN) - waiting + a.points


def standing_figure(s: GameState, a: Award, standing: str) -> str | None:
    """The figure a standing choice gives ``a`` (``None``: ask)."""
    if standing == MAIN_FIGURE:
        return MAIN
    if standing == MESSENGER_FIGURE:
        return MESSENGER
    if standing == DARK:
        return MESSENGER if a.points > 0 and dark(landing(s, a, MESSENGER)) else MAIN
    return None


def place(s: GameState, p: Pending, figure: str, events: list[Event]) -> None:
    """Put waiting award ``p`` on ``figure``; note a landing of the active player's figure on a
    dark space during scoring (with a gain, OQ-MSG-1)."""
    a = p[0]  # its award, without the property's call
    at = landing(s, a, figure)
    m = s.ext[ID]
    rest = list(m.pending)
    rest.remove(p)
    update(s, pending=tuple(rest))
    if figure == MESSENGER:
        track.transfer(s, a, MESSENGER, events)
        held = list(model_of(s).messengers)  # the public count (only this step moves it)
        if 0 <= a.seat < len(held):
            held[a.seat] = track.value(s, a.seat, MESSENGER)
            update(s, messengers=tuple(held))
    lands = a.points > 0 and dark(at)
    events.append(FigureChosen(a.seat, figure, a.points, track.space(at), lands))
    if lands and p.scoring and model_of(s).scoring and a.seat == model_of(s).active:
        update(s, landed=True)


def resume(s: GameState, depth: int, events: list[Event]) -> Result:
    """Place the waiting awards (asking their seats unless a standing choice decides), then
    draw a message for a landing; ``None`` once nothing is left to do."""
    while True:
        p = next_pending(s)
        if p is not None:
            m = s.ext[ID]
            a = p[0]  # its award, without the property's call
            if track.find(s, a.seat, MESSENGER) is None:  # the figures were merged
                update(s, pending=tuple(q for q in m.pending if q != p))
                continue
            figure = standing_figure(s, a, m.standing_of(a.seat))
            if figure is None:
                return (new_ask(s, FIGURE, depth, a.seat),)
            place(s, p, figure, events)
            continue
        m = s.ext[ID]
        if m.landed and m.scoring:
            card = chance.draw(s, DECK)
            update(s, landed=False, card=card)
            if card is not None:
                events.append(MessageDrawn(m.active, card))
                return (new_ask(s, MESSAGE, depth, m.active),)
        update(s, scoring=False, landed=False)
        return None


def what_of(category: str) -> str:
    """A score category in words: the core's four, an expansion's registered ``score.<id>``,
    else the category itself."""
    for key in (f"dispatches.what.{category}", f"score.{category}"):
        if messages.has(key):
            return messages.Phrase(key)
    return category


class MarkStep(Step):
    """A placement's scoring starts: its awards may earn the active player a message."""

    id = MARK_STEP

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        if not s.ext[ID].scoring:  # a quiet scoring leaves it open: no write every turn
            update(s, scoring=True, landed=False)
        return None


class FigureStep(Step):
    """Which figure takes each award of this scoring; then the messages it earned."""

    id = FIGURE_STEP
    idle_unless = (ID, "pending")
    accepts = (Choose,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        m = model_of(s)
        if not m.pending:  # nothing scored: the model stays as it is (the hot path)
            return None
        update(s, active=frame.seat)
        return resume(s, depth, events)

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        assert isinstance(action, Choose)
        p = next_pending(s)
        assert p is not None and p.award.seat == ask.seat
        value = action.value
        if value not in (MAIN_FIGURE, MESSENGER_FIGURE, DARK):
            raise IllegalActionError.keyed(
                "dispatches.err.figure", value=value, names="'main', 'messenger', 'dark'"
            )
        if value == DARK:
            m = model_of(s)
            standing = list(m.standing) + [ASK] * (s.setup.players - len(m.standing))
            standing[ask.seat] = DARK
            update(s, standing=tuple(standing))
            figure = standing_figure(s, p.award, DARK)
            assert figure is not None
        else:
            figure = MESSENGER if value == MESSENGER_FIGURE else MAIN
        place(s, p, figure, events)
        return resume(s, ask.depth, events)

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("dispatches.err.first")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        p = next_pending(s)
        assert p is not None
        a = p.award

        m = model_of(s)
        earns = p.scoring and m.scoring and a.seat == m.active and not m.landed

        def to(figure: str, value: str) -> Option:
            at = landing(s, a, figure)
            key = "dispatches.to.main" if figure == MAIN else "dispatches.to.messenger"
            if earns and a.points > 0 and dark(at):
                key += ".dark"  # this landing would draw a message
            label = Prompt.of(key, space=track.space(at))
            return Option(value, Choose(FIGURE_STEP, value), label=label)

        def options() -> tuple[Option, ...]:  # built only when shown (labels, landings)
            return (
                to(MAIN, MAIN_FIGURE),
                to(MESSENGER, MESSENGER_FIGURE),
                Option(DARK, FIGURE_ANSWERS[2], label=Prompt.of("dispatches.always.dark")),
            )

        what = what_of(a.item.category)
        prompt = Prompt.of(self.id, seat=a.seat, n=a.points, what=what)
        return Decision(ask.key, ask.seat, self.id, prompt, options, answers=lambda: FIGURE_ANSWERS)


class MessageStep(Step):
    """The active player uses the message drawn: its action or the wax seal's 2 points; then it
    goes under the pile (before any further draw, OQ-MSG-6). Its ``enter`` does nothing: the
    message is asked by :func:`resume`."""

    id = MESSAGE_STEP
    accepts = (Choose,)

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        assert isinstance(action, Choose)
        card = model_of(s).card
        assert card is not None
        ids = [c.id for c in choices(s, ask.seat, card)]
        if action.value not in ids:
            names = ", ".join(f"'{i}'" for i in ids)
            raise IllegalActionError.keyed(
                "dispatches.err.message", value=action.value, names=names
            )
        how = "seal" if action.value == "seal" else "act"
        if card == "7" and how == "act":  # one more tile: a placement of its own (OQ-MSG-10)
            self._used(s, ask.seat, card, how, events)
            update(s, scoring=False, landed=False)
            s.turn += 1
            push_subturn(s, ask.seat, params=((BONUS_TURN, True), (EXTRA_TILE, True)))
            return None
        carry_out(s, ask.seat, card, action.value, events)
        self._used(s, ask.seat, card, how, events)
        return resume(s, ask.depth, events)

    @staticmethod
    def _used(s: GameState, seat: Seat, card: str, how: str, events: list[Event]) -> None:
        chance.put_under(s, DECK, card)
        update(s, card=None)
        events.append(MessageUsed(seat, card, how))

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("dispatches.err.first")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        from .model import card_prompt

        card = model_of(s).card
        assert card is not None
        options = tuple(
            Option(c.id, Choose(self.id, c.id), c.target, label=c.label)
            for c in choices(s, ask.seat, card)
        )
        prompt = Prompt.of(self.id, seat=ask.seat, card=card_prompt(card))
        return Decision(ask.key, ask.seat, self.id, prompt, options)


class SettleStep(Step):
    """Before the turn ends: place awards given outside a scoring step (no message)."""

    id = SETTLE_STEP
    idle_unless = (ID, "pending")

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        if not model_of(s).pending:
            return None
        update(s, scoring=False)
        return resume(s, depth, events)


#: the figure decision's answers, in its options' order (a random player needs no labels)
FIGURE_ANSWERS = tuple(Choose(FIGURE_STEP, v) for v in (MAIN_FIGURE, MESSENGER_FIGURE, DARK))
MARK = MarkStep()
FIGURE = FigureStep()
MESSAGE = MessageStep()
SETTLE = SettleStep()
register_action(FIGURE_STEP, (MAIN_FIGURE, MESSENGER_FIGURE, DARK))
register_action(MESSAGE_STEP)
