"""The card game's steps: how one action moves a :class:`~engine.cardgame.work.Work` on.

Setup (the dealer lays jokers turned up), the turns of a round (a card or the large follower;
seats with nothing left to do are skipped, OQ-CARD-2), the end of the round (collect the
secured cards) and the scoring choices (wrong-row cards, animal jokers) that wait for their
owners before :mod:`engine.cardgame.tally` scores the round.
"""

from __future__ import annotations

from dataclasses import replace

from engine.cardgame.actions import AssignJoker, ChooseWrongRow, LayJoker, PlaceFollower, PlayCard
from engine.cardgame.cards import (
    DECK,
    FACE_BY_CODE,
    ROW_INDEX,
    ROWS,
    SETUP_CARDS,
    CardFace,
    CardType,
    Colour,
    face_name,
)
from engine.cardgame.events import (
    CardEvent,
    CardPlayed,
    CardsCollected,
    ChoiceMade,
    ChoiceNeeded,
    FollowerPlaced,
    JokerTurnedUp,
    RoundStarted,
    SetupCardLaid,
)
from engine.cardgame.queries import joker_options, real_kinds, secured_by
from engine.cardgame.state import (
    STEP_CHOOSE,
    STEP_PLAY,
    STEP_SETUP,
    Receipt,
    RowCard,
    RowFollower,
    RowItem,
)
from engine.cardgame.tally import score_round
from engine.cardgame.work import Work
from engine.core import messages
from engine.core.errors import IllegalActionError
from engine.core.messages import Phrase
from engine.core.seats import Seat

messages.register(
    {
        "err.cards.not_in_hand": (
            "You have no {card} card in your hand.",
            "No tienes esa carta en la mano: {card}.",
        ),
        "err.cards.wrong_row": (
            "A face-up {card} card must go in the {row} row; only your first card of a round "
            "(played face down) and jokers may go in any row.",
            "Una carta boca arriba ({card}) debe ir en la fila de color {row}; solo tu primera carta de "
            "la ronda (boca abajo) y los comodines pueden ir en cualquier fila.",
        ),
        "err.cards.follower_stands": (
            "Your large follower already stands in the {row} row this round.",
            "Tu seguidor grande ya está en la fila de color {row} esta ronda.",
        ),
        "err.cards.choose_wrong_row": (
            "Choose for one of your wrong-row cards: {cards}.",
            "Elige para una de tus cartas en fila equivocada: {cards}.",
        ),
        "err.cards.no_wrong_row": (
            "You have no wrong-row card to decide on.",
            "No tienes ninguna carta en fila equivocada sobre la que decidir.",
        ),
        "err.cards.wrong_row_first": (
            "Decide on your wrong-row cards first.",
            "Primero decide sobre tus cartas en fila equivocada.",
        ),
        "err.cards.no_joker": (
            "You have no animal joker to assign.",
            "No tienes ningún comodín de animal que asignar.",
        ),
        "err.cards.joker_kind": (
            "An animal joker joins a kind you hold or just received: {kinds}.",
            "Un comodín de animal se une a una clase que tienes o acabas de recibir: {kinds}.",
        ),
    }
)


_COLOURS = frozenset(c.value for c in Colour)


def _row(colour: Colour) -> Phrase:
    return Phrase(f"cards.rowname.{colour.value}")


def continue_setup(w: Work, events: list[CardEvent]) -> None:
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


def lay_joker(w: Work, action: LayJoker, events: list[CardEvent]) -> None:
    card = w.pile[w.pile_pos]
    w.row(ROW_INDEX[action.row]).append(RowCard(card))
    w.pile_pos += 1
    events.append(SetupCardLaid(DECK[card].code, action.row))
    continue_setup(w, events)


def _start_round(w: Work, events: list[CardEvent]) -> None:
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


def play_card(w: Work, seat: Seat, action: PlayCard, events: list[CardEvent]) -> None:
    face = FACE_BY_CODE.get(action.card) or CardFace.parse(action.card)
    for card in w.hands[seat]:
        if DECK[card] is face:
            break
    else:
        raise IllegalActionError.keyed("err.cards.not_in_hand", card=face_name(face.code))
    face_down = w.played[seat] == 0
    if not face_down and face.colour is not None and face.colour is not action.row:
        raise IllegalActionError.keyed(
            "err.cards.wrong_row", card=face_name(face.code), row=_row(face.colour)
        )
    w.hand(seat).remove(card)
    w.row(ROW_INDEX[action.row]).append(RowCard(card, face_down, seat))
    w.played[seat] += 1
    events.append(CardPlayed(seat, action.row, None if face_down else face.code, face_down))
    _next_turn(w, events)


def place_follower(w: Work, seat: Seat, action: PlaceFollower, events: list[CardEvent]) -> None:
    where = w.follower_row[seat]
    if where is not None:
        raise IllegalActionError.keyed(
            "err.cards.follower_stands", row=Phrase(f"cards.colour.{where.value}")
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


def _next_turn(w: Work, events: list[CardEvent]) -> None:
    """Pass the turn clockwise to the next seat with something left to do, or end the round."""
    for k in range(1, w.n + 1):
        s = Seat((w.current + k) % w.n)
        if w.hands[s] or w.follower_row[s] is None:
            w.current = s
            w.awaiting = {s}
            return
    _end_round(w, events)


def _end_round(w: Work, events: list[CardEvent]) -> None:
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


def _settle_jokers(w: Work, seat: Seat, events: list[CardEvent]) -> None:
    """Once the wrong-row choices are made: animal jokers waiting for a kind (held ones and new
    ones) must join one if the seat now has animals. One possible kind: assigned at once."""
    r = w.receipts[seat]
    kinds = real_kinds(w.animals[seat], r)
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


def choose_wrong_row(w: Work, seat: Seat, action: ChooseWrongRow, events: list[CardEvent]) -> None:
    r = w.receipts[seat]
    card = next((c for c in r.undecided if DECK[c].code == action.card), None)
    if card is None:
        if r.undecided:
            codes = sorted({DECK[c].code for c in r.undecided})
            raise IllegalActionError.keyed(
                "err.cards.choose_wrong_row", cards=tuple(face_name(c) for c in codes)
            )
        raise IllegalActionError.keyed("err.cards.no_wrong_row")
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


def assign_joker(w: Work, seat: Seat, action: AssignJoker, events: list[CardEvent]) -> None:
    r = w.receipts[seat]
    if r.undecided:
        raise IllegalActionError.keyed("err.cards.wrong_row_first")
    if not r.jokers:
        raise IllegalActionError.keyed("err.cards.no_joker")
    options = joker_options(w.animals[seat], r)
    if action.animal not in options:
        kinds = tuple(Phrase(f"cards.colour.{k}") if k in _COLOURS else k for k in options)
        raise IllegalActionError.keyed("err.cards.joker_kind", kinds=kinds)
    joker = r.jokers[0]
    w.receipts[seat] = replace(
        r, jokers=r.jokers[1:], assigned=(*r.assigned, (joker, action.animal))
    )
    events.append(ChoiceMade(seat, "joker", action.animal, action.animal))
    _advance(w, events)


def _advance(w: Work, events: list[CardEvent]) -> None:
    """Wait for the seats with open choices; once there are none, score the round."""
    w.awaiting = {Seat(s) for s, r in enumerate(w.receipts) if r.pending}
    if w.awaiting:
        w.current = min(w.awaiting)
        return
    if score_round(w, events):
        _start_round(w, events)
