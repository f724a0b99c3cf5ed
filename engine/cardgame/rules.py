"""The card game's rules: the only state transitions (RULES.md §17, seed 002).

Same shape as the tile engine: :func:`new_game`, :func:`legal_actions`, :func:`apply` (which
never changes its input) and :func:`replay`.

A round: the dealer's left plays first, clockwise. On a turn a seat plays one card (its first
of the round face down, into any row; later ones face up into their colour's row; jokers into
any row) or stands its large follower at the end of a row. Seats with nothing left to do are
skipped (OQ-CARD-2). When every hand is empty and every follower stands, the round is scored;
wrong-row choices and animal-joker assignments wait for their owners (step ``choose``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields, replace

from engine.cardgame.actions import (
    AssignJoker,
    CardAction,
    ChooseWrongRow,
    LayJoker,
    PlaceFollower,
    PlayCard,
)
from engine.cardgame.cards import (
    ANIMAL_TABLE,
    DECK,
    FACE_BY_CODE,
    FACES,
    LONE_JOKER_POINTS,
    ROW_INDEX,
    ROWS,
    SETUP_CARDS,
    WILD_JOKER_POINTS,
    WRONG_ROW_POINTS,
    CardFace,
    CardType,
    Colour,
    animal_points,
)
from engine.cardgame.events import (
    CardEvent,
    CardPlayed,
    CardsCollected,
    CardsToChest,
    ChoiceMade,
    ChoiceNeeded,
    FollowerPlaced,
    GameEnded,
    JokerTurnedUp,
    PointsScored,
    RoundEnded,
    RoundStarted,
    SetupCardLaid,
)
from engine.cardgame.scoring import (
    ANIMALS,
    BUILDINGS,
    CHARACTERS,
    LONE_JOKER,
    WILD_JOKER,
    WRONG_ROW,
    Award,
    CardScoreItem,
    best_building_sets,
    character_points,
)
from engine.cardgame.state import (
    STEP_CHOOSE,
    STEP_OVER,
    STEP_PLAY,
    STEP_SETUP,
    CardSetup,
    CardState,
    HeldAnimal,
    Receipt,
    RowCard,
    RowFollower,
    RowItem,
)
from engine.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    RecordError,
)
from engine.core.rng import Rng
from engine.core.seats import Seat

_KNOWN_ANIMAL = {r.cards for r in ANIMAL_TABLE if r.known}
# Action objects are immutable: build each one once (legal_actions runs in every random move).
_PLAY = {(f.code, r): PlayCard(f.code, r) for f in FACES for r in ROWS}
_FACE_ID = tuple(FACES.index(f) for f in DECK)
_PLAY_ANY = tuple(tuple(PlayCard(f.code, r) for r in ROWS) for f in FACES)
_PLAY_UP = tuple(
    _PLAY_ANY[i] if f.colour is None else (PlayCard(f.code, f.colour),) for i, f in enumerate(FACES)
)
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
    w = _Work(state)
    _continue_setup(w, [])
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
            raise IllegalActionError(f"The stack names more {face.code} cards than the box holds.")
        top.append(copies.pop(0))
    rest = sorted(c for copies in free.values() for c in copies)
    return (*top, *rng.shuffled(rest))


# ------------------------------------------------------------------------------ the queries
def legal_actions(state: CardState, seat: Seat) -> tuple[CardAction, ...]:
    """Every action ``seat`` may take now (nothing when the game does not wait for it)."""
    if seat not in state.awaiting:
        return ()
    if state.step == STEP_SETUP:
        return _LAY
    if state.step == STEP_PLAY:
        out: list[CardAction] = []
        table = _PLAY_ANY if state.played[seat] == 0 else _PLAY_UP
        seen: set[int] = set()
        for card in state.hands[seat]:
            face = _FACE_ID[card]
            if face not in seen:
                seen.add(face)
                out.extend(table[face])
        if state.follower_row[seat] is None:
            out.extend(_FOLLOW)
        return tuple(out)
    if state.step == STEP_CHOOSE:
        r = state.receipts[seat]
        if r.undecided:
            codes = dict.fromkeys(DECK[c].code for c in r.undecided)
            return tuple(ChooseWrongRow(code, keep) for code in codes for keep in (True, False))
        if r.jokers:
            return tuple(AssignJoker(k) for k in joker_options(state.animals[seat], r))
    return ()


def secured_by(row: Sequence[RowItem]) -> int:
    """How many cards a follower stood at the end of ``row`` now would secure."""
    n = 0
    for item in reversed(row):
        if isinstance(item, RowFollower):
            break
        n += 1
    return n


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
        raise GameOverError("The game is over.")
    if not 0 <= seat < state.players:
        raise InvalidActionError(f"There is no seat {seat + 1} in this game.")
    if seat not in state.awaiting:
        raise NotYourTurnError(_not_your_turn(state))
    w = _Work(state)
    events: list[CardEvent] = []
    if isinstance(action, PlayCard | PlaceFollower):
        if state.step != STEP_PLAY:
            raise IllegalActionError(_wrong_step(state))
        if isinstance(action, PlayCard):
            _play_card(w, seat, action, events)
        else:
            _place_follower(w, seat, action, events)
    elif isinstance(action, ChooseWrongRow | AssignJoker):
        if state.step != STEP_CHOOSE:
            raise IllegalActionError("There is no scoring choice to make now.")
        if isinstance(action, ChooseWrongRow):
            _choose_wrong_row(w, seat, action, events)
        else:
            _assign_joker(w, seat, action, events)
    elif isinstance(action, LayJoker):
        if state.step != STEP_SETUP:
            raise IllegalActionError("Jokers are laid by the dealer only while setting up.")
        _lay_joker(w, action, events)
    else:
        raise InvalidActionError(f"unknown action {action!r}")
    w.version = state.version + 1
    return Transition(w.freeze(), tuple(events))


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


def _not_your_turn(state: CardState) -> str:
    names = ", ".join(state.setup.name(s) for s in sorted(state.awaiting))
    if state.step == STEP_CHOOSE:
        return f"Waiting for {names} to make their scoring choices."
    if state.step == STEP_SETUP:
        return f"Waiting for the dealer, {names}, to lay the joker."
    return f"It is not your turn: {names} is to play."


def _wrong_step(state: CardState) -> str:
    if state.step == STEP_SETUP:
        return "The dealer is still laying out the first cards."
    return "The round is being scored: make your scoring choice first."


# ----------------------------------------------------------------------------- working copy
_SETTERS = tuple(getattr(CardState, f.name).__set__ for f in fields(CardState))
_new = object.__new__


def _make_state(values: tuple[object, ...]) -> CardState:
    """Build a :class:`CardState` from its field values in declaration order.

    Same result as ``CardState(*values)`` at half the cost: the frozen dataclass ``__init__``
    goes through ``object.__setattr__`` per field, the slot descriptors do not. Used once per
    :func:`apply`, the hot path of random games (ARCHITECTURE.md decision 3).
    """
    state: CardState = _new(CardState)
    for set_field, value in zip(_SETTERS, values, strict=True):
        set_field(state, value)
    return state


class _Work:
    """A mutable copy of a state, used only inside one :func:`apply`."""

    __slots__ = (
        "animals",
        "awaiting",
        "awards",
        "chests",
        "current",
        "dealer",
        "follower_row",
        "hands",
        "last_follower",
        "pile",
        "pile_pos",
        "played",
        "receipts",
        "removed",
        "round",
        "rows",
        "scores",
        "seed",
        "setup",
        "step",
        "version",
        "winners",
    )

    def __init__(self, s: CardState) -> None:
        self.setup = s.setup
        self.seed = s.seed
        self.pile = s.pile
        self.pile_pos = s.pile_pos
        # lists of tuples: a row, hand, animal pile or chest becomes a list only when changed
        self.rows: list[Sequence[RowItem]] = list(s.rows)
        self.hands: list[Sequence[int]] = list(s.hands)
        self.animals: list[Sequence[HeldAnimal]] = list(s.animals)
        self.chests: list[Sequence[int]] = list(s.chests)
        self.scores = list(s.scores)
        self.played = list(s.played)
        self.follower_row = list(s.follower_row)
        self.dealer = s.dealer
        self.current = s.current
        self.step = s.step
        self.awaiting = set(s.awaiting)
        self.version = s.version
        self.round = s.round
        self.last_follower = s.last_follower
        self.removed = s.removed
        self.awards = s.awards
        self.receipts = list(s.receipts)
        self.winners = s.winners

    def freeze(self) -> CardState:
        return _make_state(
            (
                self.setup,
                self.seed,
                self.pile,
                self.pile_pos,
                tuple(map(tuple, self.rows)),
                tuple(map(tuple, self.hands)),
                tuple(map(tuple, self.animals)),
                tuple(map(tuple, self.chests)),
                tuple(self.scores),
                tuple(self.played),
                tuple(self.follower_row),
                self.dealer,
                self.current,
                self.step,
                frozenset(self.awaiting),
                self.version,
                self.round,
                self.last_follower,
                self.removed,
                self.awards,
                tuple(self.receipts),
                self.winners,
            )
        )

    @property
    def n(self) -> int:
        return self.setup.players

    def row(self, i: int) -> list[RowItem]:
        """Row ``i``, made changeable."""
        r = self.rows[i]
        if not isinstance(r, list):
            r = self.rows[i] = list(r)
        return r

    def hand(self, seat: int) -> list[int]:
        """Hand of ``seat``, made changeable."""
        h = self.hands[seat]
        if not isinstance(h, list):
            h = self.hands[seat] = list(h)
        return h

    def award(self, seat: Seat, item: CardScoreItem, events: list[CardEvent]) -> None:
        a = Award(seat, item.points, item)
        self.scores[seat] += item.points
        self.awards = (*self.awards, a)
        events.append(PointsScored(a))


# -------------------------------------------------------------------------------- the steps
def _continue_setup(w: _Work, events: list[CardEvent]) -> None:
    """Turn up setup cards until 10 lie in the rows, stopping at a joker for the dealer."""
    while w.pile_pos < SETUP_CARDS:
        card = w.pile[w.pile_pos]
        face = DECK[card]
        if face.colour is None:
            w.step = STEP_SETUP
            w.current = w.dealer
            w.awaiting = {w.dealer}
            events.append(JokerTurnedUp(w.dealer, face.code))
            return
        w.row(ROW_INDEX[face.colour]).append(RowCard(card))
        w.pile_pos += 1
        events.append(SetupCardLaid(face.code, face.colour))
    _start_round(w, events)


def _lay_joker(w: _Work, action: LayJoker, events: list[CardEvent]) -> None:
    card = w.pile[w.pile_pos]
    w.row(ROW_INDEX[action.row]).append(RowCard(card))
    w.pile_pos += 1
    events.append(SetupCardLaid(DECK[card].code, action.row))
    _continue_setup(w, events)


def _start_round(w: _Work, events: list[CardEvent]) -> None:
    """The dealer deals a hand to each seat (in blocks, from their left) and the left plays."""
    w.round += 1
    cards = w.setup.deal.cards
    first = Seat((w.dealer + 1) % w.n)
    for k in range(w.n):
        seat = (first + k) % w.n
        w.hands[seat] = sorted(w.pile[w.pile_pos : w.pile_pos + cards])
        w.pile_pos += cards
    w.played = [0] * w.n
    w.follower_row = [None] * w.n
    w.last_follower = None
    w.step = STEP_PLAY
    w.current = first
    w.awaiting = {first}
    events.append(RoundStarted(w.round, w.dealer, first, cards))


def _play_card(w: _Work, seat: Seat, action: PlayCard, events: list[CardEvent]) -> None:
    face = FACE_BY_CODE.get(action.card) or CardFace.parse(action.card)
    for card in w.hands[seat]:
        if DECK[card] is face:
            break
    else:
        raise IllegalActionError(f"You have no {face.describe()} card in your hand.")
    face_down = w.played[seat] == 0
    if not face_down and face.colour is not None and face.colour is not action.row:
        raise IllegalActionError(
            f"A face-up {face.describe()} card must go in the {face.colour.value} "
            f"({face.colour.feature}) row; only your first card of a round (played face down) "
            "and jokers may go in any row."
        )
    w.hand(seat).remove(card)
    w.row(ROW_INDEX[action.row]).append(RowCard(card, face_down, seat))
    w.played[seat] += 1
    events.append(CardPlayed(seat, action.row, None if face_down else face.code, face_down))
    _next_turn(w, events)


def _place_follower(w: _Work, seat: Seat, action: PlaceFollower, events: list[CardEvent]) -> None:
    where = w.follower_row[seat]
    if where is not None:
        raise IllegalActionError(
            f"Your large follower already stands in the {where.value} row this round."
        )
    row = w.row(ROW_INDEX[action.row])
    secured = secured_by(row)
    row.append(RowFollower(seat))
    w.follower_row[seat] = action.row
    last = all(r is not None for r in w.follower_row)
    if last:
        w.last_follower = seat
    events.append(FollowerPlaced(seat, action.row, secured, last))
    _next_turn(w, events)


def _next_turn(w: _Work, events: list[CardEvent]) -> None:
    """Pass the turn clockwise to the next seat with something left to do, or end the round."""
    for k in range(1, w.n + 1):
        s = Seat((w.current + k) % w.n)
        if w.hands[s] or w.follower_row[s] is None:
            w.current = s
            w.awaiting = {s}
            return
    _end_round(w, events)


def _end_round(w: _Work, events: list[CardEvent]) -> None:
    """Collect the secured cards (rows bottom to top), take the followers back, and open the
    scoring choices."""
    got: list[list[tuple[int, Colour]]] = [[] for _ in range(w.n)]
    for ri in reversed(range(len(ROWS))):
        colour = ROWS[ri]
        segment: list[int] = []
        for item in w.rows[ri]:
            if isinstance(item, RowFollower):
                if segment:
                    got[item.seat].extend((c, colour) for c in segment)
                    events.append(
                        CardsCollected(item.seat, colour, tuple(DECK[c].code for c in segment))
                    )
                segment = []
            else:
                segment.append(item.card)
        # Cards after the last follower stay in the row as they lie (face down or up).
        keep: list[RowItem] = []
        for item in reversed(w.rows[ri]):
            if isinstance(item, RowFollower):
                break
            keep.append(item)
        w.rows[ri] = keep[::-1]
    w.receipts = []
    for seat in range(w.n):
        undecided = tuple(
            c
            for c, row in got[seat]
            if DECK[c].type in (CardType.ANIMAL, CardType.BUILDING) and DECK[c].colour is not row
        )
        w.receipts.append(Receipt(Seat(seat), tuple(got[seat]), undecided))
        for c in undecided:
            events.append(ChoiceNeeded(Seat(seat), "wrong-row", DECK[c].code, ("keep", "cash")))
    w.step = STEP_CHOOSE
    for seat in range(w.n):
        if not w.receipts[seat].undecided:
            _settle_jokers(w, Seat(seat), events)
    _advance(w, events)


def _real_kinds(held: Iterable[HeldAnimal], r: Receipt) -> tuple[str, ...]:
    """Animal kinds the seat holds, or receives (and keeps) in this scoring."""
    kinds = {DECK[a.card].kind for a in held if DECK[a.card].type is CardType.ANIMAL}
    for c, row in r.cards:
        face = DECK[c]
        if face.type is CardType.ANIMAL and (face.colour is row or c in r.kept):
            kinds.add(face.kind)
    return tuple(sorted(kinds))


def joker_options(held: Sequence[HeldAnimal], r: Receipt) -> tuple[str, ...]:
    """Kinds an animal joker may join: one the seat holds or receives in this scoring."""
    return _real_kinds(held, r)


def _settle_jokers(w: _Work, seat: Seat, events: list[CardEvent]) -> None:
    """Once the wrong-row choices are made: animal jokers waiting for a kind (held ones and new
    ones) must join one if the seat now has animals. One possible kind: assigned at once."""
    r = w.receipts[seat]
    kinds = _real_kinds(w.animals[seat], r)
    if not kinds:
        return
    jokers = [a.card for a in w.animals[seat] if a.kind is None]
    jokers += [c for c, _ in r.cards if DECK[c].type is CardType.ANIMAL_JOKER]
    if not jokers:
        return
    if len(kinds) == 1:
        w.receipts[seat] = replace(r, assigned=tuple((j, kinds[0]) for j in jokers))
        return
    w.receipts[seat] = replace(r, jokers=tuple(jokers))
    events.append(ChoiceNeeded(seat, "joker", "animal-joker", kinds))


def _choose_wrong_row(
    w: _Work, seat: Seat, action: ChooseWrongRow, events: list[CardEvent]
) -> None:
    r = w.receipts[seat]
    card = next((c for c in r.undecided if DECK[c].code == action.card), None)
    if card is None:
        if r.undecided:
            options = ", ".join(sorted({DECK[c].code for c in r.undecided}))
            raise IllegalActionError(f"Choose for one of your wrong-row cards: {options}.")
        raise IllegalActionError("You have no wrong-row card to decide on.")
    left = list(r.undecided)
    left.remove(card)
    if action.keep:
        r = replace(r, undecided=tuple(left), kept=(*r.kept, card))
    else:
        r = replace(r, undecided=tuple(left), cashed=(*r.cashed, card))
    w.receipts[seat] = r
    events.append(ChoiceMade(seat, "wrong-row", action.card, "keep" if action.keep else "cash"))
    if not left:
        _settle_jokers(w, seat, events)
    _advance(w, events)


def _assign_joker(w: _Work, seat: Seat, action: AssignJoker, events: list[CardEvent]) -> None:
    r = w.receipts[seat]
    if r.undecided:
        raise IllegalActionError("Decide on your wrong-row cards first.")
    if not r.jokers:
        raise IllegalActionError("You have no animal joker to assign.")
    options = joker_options(w.animals[seat], r)
    if action.animal not in options:
        raise IllegalActionError(
            "An animal joker joins a kind you hold or just received: " + ", ".join(options) + "."
        )
    joker = r.jokers[0]
    w.receipts[seat] = replace(
        r, jokers=r.jokers[1:], assigned=(*r.assigned, (joker, action.animal))
    )
    events.append(ChoiceMade(seat, "joker", action.animal, action.animal))
    _advance(w, events)


def _advance(w: _Work, events: list[CardEvent]) -> None:
    """Wait for the seats with open choices; once there are none, score the round."""
    w.awaiting = {Seat(s) for s, r in enumerate(w.receipts) if r.pending}
    if w.awaiting:
        w.current = min(w.awaiting)
        return
    _score_round(w, events)


# ---------------------------------------------------------------------------------- scoring
def _score_round(w: _Work, events: list[CardEvent]) -> None:
    """Score every seat's cards (§17.4), then deal the next round or end the game."""
    first = (w.dealer + 1) % w.n
    for k in range(w.n):
        seat = Seat((first + k) % w.n)
        _score_receipt(w, w.receipts[seat], events)
    w.receipts = []
    assert w.last_follower is not None
    w.dealer = w.last_follower
    left = sum(1 for row in w.rows for item in row if isinstance(item, RowCard))
    events.append(RoundEnded(w.round, w.dealer, left))
    if w.round >= w.setup.deal.rounds:
        _final_scoring(w, events)
    else:
        _start_round(w, events)


def _score_receipt(w: _Work, r: Receipt, events: list[CardEvent]) -> None:
    seat = r.seat
    rnd = w.round
    characters: list[int] = []
    wrong: list[tuple[int, Colour]] = []
    wild: list[int] = []
    animals: list[int] = []
    jokers: list[int] = []
    chest: list[int] = []
    for card, row in r.cards:
        face = DECK[card]
        t = face.type
        misplaced = face.colour is not None and face.colour is not row
        if card in r.cashed or (misplaced and t is CardType.CHARACTER):
            wrong.append((card, row))
        elif t is CardType.CHARACTER:
            characters.append(card)
        elif t is CardType.DRAGON or t is CardType.FAIRY:
            wild.append(card)
        elif t is CardType.ANIMAL:
            animals.append(card)
        elif t is CardType.ANIMAL_JOKER:
            jokers.append(card)
        else:
            chest.append(card)
    removed = list(w.removed)
    if characters:
        values = [DECK[c].value for c in characters]
        w.award(
            seat,
            CardScoreItem(
                CHARACTERS,
                character_points(values),
                (f"{' + '.join(map(str, values))} = {sum(values)}", f"× {len(values)} cards"),
                tuple(DECK[c].code for c in characters),
                rnd,
            ),
            events,
        )
        removed += characters
    if wrong:
        w.award(
            seat,
            CardScoreItem(
                WRONG_ROW,
                WRONG_ROW_POINTS * len(wrong),
                tuple(
                    f"{DECK[c].code} in the {row.value} row {WRONG_ROW_POINTS}" for c, row in wrong
                ),
                tuple(DECK[c].code for c, _ in wrong),
                rnd,
            ),
            events,
        )
        removed += [c for c, _ in wrong]
    if wild:
        w.award(
            seat,
            CardScoreItem(
                WILD_JOKER,
                WILD_JOKER_POINTS * len(wild),
                tuple(f"{DECK[c].code} {WILD_JOKER_POINTS}" for c in wild),
                tuple(DECK[c].code for c in wild),
                rnd,
            ),
            events,
        )
        removed += wild
    w.removed = tuple(removed)
    _score_animals(w, r, animals, jokers, events)
    if chest:
        w.chests[seat] = (*w.chests[seat], *chest)
        events.append(CardsToChest(seat, len(chest)))


def _score_animals(
    w: _Work, r: Receipt, animals: list[int], jokers: list[int], events: list[CardEvent]
) -> None:
    """Animals score the new total of every kind that grew; a lone joker scores 3 (§17.4)."""
    seat = r.seat
    held = w.animals[seat]
    before: dict[str, int] = {}
    for a in held:
        if a.kind is not None:
            before[a.kind] = before.get(a.kind, 0) + 1
    assigned = dict(r.assigned)
    new_held = [HeldAnimal(a.card, assigned.get(a.card, a.kind)) for a in held]
    new_held += [HeldAnimal(c, DECK[c].kind) for c in animals]
    lone = [c for c in jokers if c not in assigned]
    new_held += [HeldAnimal(c, assigned.get(c)) for c in jokers]
    w.animals[seat] = new_held
    after: dict[str, int] = {}
    for a in new_held:
        if a.kind is not None:
            after[a.kind] = after.get(a.kind, 0) + 1
    for kind in sorted(after):
        total = after[kind]
        if total <= before.get(kind, 0):
            continue
        points = animal_points(total)
        note = "" if total in _KNOWN_ANIMAL else " (assumed table value)"
        cards = tuple(DECK[a.card].code for a in new_held if a.kind == kind and a not in held)
        w.award(
            seat,
            CardScoreItem(
                ANIMALS,
                points,
                (f"now {total} {kind} animals → {points}{note}",),
                cards,
                w.round,
            ),
            events,
        )
    if lone:
        w.award(
            seat,
            CardScoreItem(
                LONE_JOKER,
                LONE_JOKER_POINTS * len(lone),
                tuple(f"animal joker with no animal in front {LONE_JOKER_POINTS}" for _ in lone),
                tuple(DECK[c].code for c in lone),
                w.round,
            ),
            events,
        )


def _final_scoring(w: _Work, events: list[CardEvent]) -> None:
    """Cards left on the table leave; building sets score; most points wins, then most
    building cards, then a shared win (§17.5, OQ-CARD-4)."""
    left = [item.card for row in w.rows for item in row if isinstance(item, RowCard)]
    w.removed = (*w.removed, *left)
    w.rows = [[] for _ in ROWS]
    for seat in range(w.n):
        chest = w.chests[seat]
        if not chest:
            continue
        kinds = [DECK[c].kind for c in chest if DECK[c].type is CardType.BUILDING]
        jokers = len(chest) - len(kinds)
        points, sets = best_building_sets(kinds, jokers)
        w.award(
            Seat(seat),
            CardScoreItem(
                BUILDINGS,
                points,
                tuple(f"set of {s.describe()}" for s in sets),
                tuple(DECK[c].code for c in chest),
                0,
                True,
            ),
            events,
        )
    best = max(w.scores)
    tied = [s for s in range(w.n) if w.scores[s] == best]
    most = max(len(w.chests[s]) for s in tied)
    w.winners = tuple(Seat(s) for s in tied if len(w.chests[s]) == most)
    w.step = STEP_OVER
    w.awaiting = set()
    events.append(GameEnded(tuple(w.scores), w.winners, tuple(len(c) for c in w.chests)))


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
        raise GameOverError("The game is over.")
    if seat not in state.awaiting:
        raise NotYourTurnError(_not_your_turn(state))
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
