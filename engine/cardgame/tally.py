"""Scoring in the card game: a round's receipts (§17.4) and the final building sets (§17.5).

Called by :mod:`engine.cardgame.flow` once every scoring choice is made; every point goes
through :meth:`Work.award <engine.cardgame.work.Work.award>` with its itemised reason.
"""

from __future__ import annotations

from engine.cardgame.cards import (
    DECK,
    LONE_JOKER_POINTS,
    ROWS,
    WILD_JOKER_POINTS,
    WRONG_ROW_POINTS,
    CardType,
    Colour,
    animal_points,
    face_name,
)
from engine.cardgame.events import CardEvent, CardsToChest, GameEnded, RoundEnded
from engine.cardgame.scoring import (
    ANIMALS,
    BUILDINGS,
    CHARACTERS,
    LONE_JOKER,
    WILD_JOKER,
    WRONG_ROW,
    CardScoreItem,
    best_building_sets,
    character_points,
    kind_word,
)
from engine.cardgame.state import STEP_OVER, HeldAnimal, Receipt, RowCard
from engine.cardgame.work import Work
from engine.core.messages import Phrase
from engine.core.seats import Seat


def score_round(w: Work, events: list[CardEvent]) -> bool:
    """Score every seat's cards (§17.4); after the last round, the final scoring too.

    Returns whether another round follows (the caller deals it)."""
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
        return False
    return True


def _score_receipt(w: Work, r: Receipt, events: list[CardEvent]) -> None:
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
                (
                    Phrase("cards.part.sum", expr=" + ".join(map(str, values)), total=sum(values)),
                    Phrase("cards.part.count", n=len(values)),
                ),
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
                    Phrase(
                        "cards.part.wrong_row",
                        card=face_name(DECK[c].code),
                        row=kind_word(row.value),
                        points=WRONG_ROW_POINTS,
                    )
                    for c, row in wrong
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
                tuple(
                    Phrase(
                        "cards.part.wild", card=face_name(DECK[c].code), points=WILD_JOKER_POINTS
                    )
                    for c in wild
                ),
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
    w: Work, r: Receipt, animals: list[int], jokers: list[int], events: list[CardEvent]
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
        cards = tuple(DECK[a.card].code for a in new_held if a.kind == kind and a not in held)
        w.award(
            seat,
            CardScoreItem(
                ANIMALS,
                points,
                (Phrase("cards.part.animals", total=total, kind=kind_word(kind), points=points),),
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
                tuple(Phrase("cards.part.lone_joker", points=LONE_JOKER_POINTS) for _ in lone),
                tuple(DECK[c].code for c in lone),
                w.round,
            ),
            events,
        )


def _final_scoring(w: Work, events: list[CardEvent]) -> None:
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
                tuple(s.phrase() for s in sets),
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
