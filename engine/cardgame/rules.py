"""The card game's rules: the only state transitions (RULES.md §17, seed 002).

Same shape as the tile engine: :func:`new_game`, :func:`legal_actions`, :func:`apply` (which
never changes its input), :func:`answer` (apply an answer to an open decision, by its key) and
:func:`replay`. The open decisions themselves are :func:`engine.cardgame.decisions.pending`;
legal actions are their answers. The steps live in :mod:`engine.cardgame.flow`, the scoring in
:mod:`engine.cardgame.tally`.

A round: the dealer's left plays first, clockwise. On a turn a seat plays one card (its first
of the round face down, into any row; later ones face up into their colour's row; jokers into
any row) or stands its large follower at the end of a row. Seats with nothing left to do are
skipped (OQ-CARD-2). When every hand is empty and every follower stands, the round is scored;
wrong-row choices and animal-joker assignments wait for their owners (step ``choose``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.cardgame.actions import (
    AssignJoker,
    CardAction,
    ChooseWrongRow,
    LayJoker,
    PlaceFollower,
    PlayCard,
)
from engine.cardgame.cards import DECK, FACES, ROW_INDEX, ROWS, CardFace
from engine.cardgame.decisions import actions_of, find, seat_pending
from engine.cardgame.events import CardEvent
from engine.cardgame.flow import (
    assign_joker,
    choose_wrong_row,
    continue_setup,
    lay_joker,
    place_follower,
    play_card,
)
from engine.cardgame.queries import joker_options, secured_by
from engine.cardgame.state import (
    STEP_CHOOSE,
    STEP_OVER,
    STEP_PLAY,
    STEP_SETUP,
    CardSetup,
    CardState,
)
from engine.cardgame.work import Work
from engine.core import messages
from engine.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    RecordError,
    StaleStateError,
)
from engine.core.rng import Rng
from engine.core.seats import Seat

messages.register(
    {
        "err.game_over": ("The game is over.", "La partida ha terminado."),
        "err.cards.stack": (
            "The stack names more {card} cards than the box holds.",
            "La pila nombra más cartas {card} de las que hay en la caja.",
        ),
        "err.cards.no_seat": (
            "There is no seat {seat} in this game.",
            "En esta partida no hay asiento {seat}.",
        ),
        "err.cards.no_choice_now": (
            "There is no scoring choice to make now.",
            "Ahora no hay ninguna elección de puntuación.",
        ),
        "err.cards.dealer_lays": (
            "Jokers are laid by the dealer only while setting up.",
            "Los comodines los coloca el repartidor solo durante la preparación.",
        ),
        "err.cards.unknown_action": ("unknown action {action}", "acción desconocida: {action}"),
        "err.cards.stale": ("This choice is out of date.", "Esta elección está desactualizada."),
        "err.cards.not_an_answer": (
            "That is not an answer to this choice.",
            "Eso no responde a esta elección.",
        ),
        "err.cards.wait_choices": (
            "Waiting for {names} to make their scoring choices.",
            "Esperando a que {names} hagan sus elecciones de puntuación.",
        ),
        "err.cards.wait_dealer": (
            "Waiting for the dealer, {names}, to lay the joker.",
            "Esperando a que el repartidor, {names}, coloque el comodín.",
        ),
        "err.cards.not_your_turn": (
            "It is not your turn: {names} is to play.",
            "No es tu turno: le toca a {names}.",
        ),
        "err.cards.setting_up": (
            "The dealer is still laying out the first cards.",
            "El repartidor todavía está colocando las primeras cartas.",
        ),
        "err.cards.scoring": (
            "The round is being scored: make your scoring choice first.",
            "Se está puntuando la ronda: primero haz tu elección de puntuación.",
        ),
    }
)

__all__ = [
    "Transition",
    "answer",
    "apply",
    "auto_action",
    "joker_options",
    "legal_actions",
    "new_game",
    "replay",
    "secured_by",
]

# Action objects are immutable: build each one once.
_PLAY = {(f.code, r): PlayCard(f.code, r) for f in FACES for r in ROWS}
_FOLLOW = tuple(PlaceFollower(r) for r in ROWS)
_LAY = tuple(LayJoker(r) for r in ROWS)


@dataclass(frozen=True, slots=True)
class Transition:
    """The result of :func:`apply`: the new state and what happened."""

    state: CardState
    events: tuple[CardEvent, ...]


# ---------------------------------------------------------------------------------- setup
def new_game(setup: CardSetup, *, seed: int) -> CardState:
    """Shuffle, pick the first dealer, lay the 10 setup cards and deal the first hands.

    If a joker comes up during setup the game waits in step ``setup`` for the dealer to lay it
    (:class:`LayJoker`); the deal follows the tenth card.

    Raises:
        IllegalActionError: for an impossible setup.
        InvalidActionError: when ``setup.stack`` names an unknown card.
    """
    setup.validate()
    rng = Rng(seed)
    pile = _stacked_deck(setup.stack, rng)
    dealer = Seat(setup.dealer if setup.dealer is not None else rng.below(setup.players))
    n = setup.players
    state = CardState(
        setup=setup,
        seed=seed,
        pile=pile,
        pile_pos=0,
        rows=tuple(() for _ in ROWS),
        hands=tuple(() for _ in range(n)),
        animals=tuple(() for _ in range(n)),
        chests=tuple(() for _ in range(n)),
        scores=(0,) * n,
        played=(0,) * n,
        follower_row=(None,) * n,
        dealer=dealer,
        current=dealer,
        step=STEP_SETUP,
        awaiting=frozenset({dealer}),
    )
    w = Work(state)
    continue_setup(w, [])
    return w.freeze()


def _stacked_deck(stack: Sequence[str], rng: Rng) -> tuple[int, ...]:
    """The deck order: the cards named in ``stack`` first, then the rest shuffled."""
    free: dict[str, list[int]] = {}
    for card, face in enumerate(DECK):
        free.setdefault(face.code, []).append(card)
    top: list[int] = []
    for code in stack:
        face = CardFace.parse(code)
        copies = free[face.code]
        if not copies:
            raise IllegalActionError.keyed("err.cards.stack", card=face.code)
        top.append(copies.pop(0))
    rest = sorted(c for copies in free.values() for c in copies)
    return (*top, *rng.shuffled(rest))


# ------------------------------------------------------------------------------ the queries
def legal_actions(state: CardState, seat: Seat) -> tuple[CardAction, ...]:
    """Every action ``seat`` may take now: the answers to its open decisions
    (:func:`engine.cardgame.decisions.seat_pending`); nothing when the game does not wait
    for it."""
    return actions_of(seat_pending(state, seat))


# ------------------------------------------------------------------------------------ apply
def apply(state: CardState, seat: Seat, action: CardAction) -> Transition:
    """Apply ``action`` by ``seat`` and return the new state; ``state`` is never changed.

    Raises:
        GameOverError: the game has ended.
        NotYourTurnError: the game does not wait for ``seat``.
        IllegalActionError: the action breaks a rule; the message says which.
        InvalidActionError: the action names something that does not exist.
    """
    if state.step == STEP_OVER:
        raise GameOverError.keyed("err.game_over")
    if not 0 <= seat < state.players:
        raise InvalidActionError.keyed("err.cards.no_seat", seat=seat + 1)
    if seat not in state.awaiting:
        raise _not_your_turn(state)
    w = Work(state)
    events: list[CardEvent] = []
    if isinstance(action, PlayCard | PlaceFollower):
        if state.step != STEP_PLAY:
            raise _wrong_step(state)
        if isinstance(action, PlayCard):
            play_card(w, seat, action, events)
        else:
            place_follower(w, seat, action, events)
    elif isinstance(action, ChooseWrongRow | AssignJoker):
        if state.step != STEP_CHOOSE:
            raise IllegalActionError.keyed("err.cards.no_choice_now")
        if isinstance(action, ChooseWrongRow):
            choose_wrong_row(w, seat, action, events)
        else:
            assign_joker(w, seat, action, events)
    elif isinstance(action, LayJoker):
        if state.step != STEP_SETUP:
            raise IllegalActionError.keyed("err.cards.dealer_lays")
        lay_joker(w, action, events)
    else:
        raise InvalidActionError.keyed("err.cards.unknown_action", action=repr(action))
    w.version = state.version + 1
    return Transition(w.freeze(), tuple(events))


def answer(state: CardState, seat: Seat, key: str, action: CardAction) -> Transition:
    """Apply ``action`` as ``seat``'s answer to its open decision ``key`` (a button, a DM).

    Another seat's answer never closes ``key``; this seat's own answer does, so a second
    click on an old button is refused instead of being taken for the next choice.

    Raises:
        GameOverError: the game has ended.
        StaleStateError: ``key`` is not an open decision of ``seat`` ("out of date").
        IllegalActionError: ``action`` does not answer decision ``key``.
    """
    if state.step == STEP_OVER:
        raise GameOverError.keyed("err.game_over")
    decision = find(state, seat, key)
    if decision is None:
        raise StaleStateError.keyed("err.cards.stale")
    if action not in tuple(decision.actions()):
        raise IllegalActionError.keyed("err.cards.not_an_answer")
    return apply(state, seat, action)


def replay(setup: CardSetup, seed: int, log: Iterable[tuple[Seat, CardAction]]) -> CardState:
    """Rebuild a game from its setup, seed and ordered action log.

    Raises:
        RecordError: naming the first move (from 1) that cannot be applied, and why.
    """
    state = new_game(setup, seed=seed)
    for i, (seat, action) in enumerate(log, start=1):
        try:
            state = apply(state, seat, action).state
        except IllegalActionError as e:
            raise RecordError(str(e), move=i) from e
        except InvalidActionError as e:
            raise RecordError(str(e), move=i) from e
    return state


def _not_your_turn(state: CardState) -> NotYourTurnError:
    names = ", ".join(state.setup.name(s) for s in sorted(state.awaiting))
    if state.step == STEP_CHOOSE:
        return NotYourTurnError.keyed("err.cards.wait_choices", names=names)
    if state.step == STEP_SETUP:
        return NotYourTurnError.keyed("err.cards.wait_dealer", names=names)
    return NotYourTurnError.keyed("err.cards.not_your_turn", names=names)


def _wrong_step(state: CardState) -> IllegalActionError:
    if state.step == STEP_SETUP:
        return IllegalActionError.keyed("err.cards.setting_up")
    return IllegalActionError.keyed("err.cards.scoring")


# ------------------------------------------------------------------------------ auto moves
def auto_action(state: CardState, seat: Seat) -> CardAction:
    """A sensible legal move for a seat that ran out of time (or a stand-in player).

    Setup jokers go to the shortest row. In play a seat lays its lowest card into the card's
    own row (a joker into the shortest row), and stands its follower only when its hand is empty,
    where it secures the most cards. Wrong-row cards are cashed for their sure 10 points; an
    animal joker joins the kind that scores most now.

    Raises:
        GameOverError: the game has ended.
        NotYourTurnError: the game does not wait for ``seat``.
    """
    if state.step == STEP_OVER:
        raise GameOverError.keyed("err.game_over")
    if seat not in state.awaiting:
        raise _not_your_turn(state)
    shortest = min(ROWS, key=lambda c: len(state.rows[ROW_INDEX[c]]))
    if state.step == STEP_SETUP:
        return _LAY[ROW_INDEX[shortest]]
    if state.step == STEP_CHOOSE:
        r = state.receipts[seat]
        if r.undecided:
            return ChooseWrongRow(DECK[r.undecided[0]].code, keep=False)
        held = state.animals[seat]

        def now(kind: str) -> int:
            return sum(1 for a in held if a.kind == kind)

        return AssignJoker(max(joker_options(held, r), key=now))
    hand = state.hands[seat]
    if hand:
        face = DECK[hand[0]]
        return _PLAY[face.code, face.colour or shortest]
    best = max(ROWS, key=lambda c: secured_by(state.rows[ROW_INDEX[c]]))
    return _FOLLOW[ROW_INDEX[best]]
