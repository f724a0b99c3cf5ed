"""What leaves the card engine: the public view, and each seat's own view.

Channel messages and images take a :class:`CardPublicView`: hand *sizes* only, face-down cards
as backs, chests as counts (nobody may look under a chest during the game, not even its owner;
they open at the final scoring). A :class:`CardSeatView` adds that seat's hand and the faces of
the face-down cards it played. :func:`view_for` is the only projection.

Both carry the open decisions (:mod:`engine.cardgame.decisions`) their reader may see: the
public view only PUBLIC ones, a seat's view those and the seat's own PRIVATE ones (which card
to play lists its hand), never another seat's private decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cardgame.actions import CardAction
from engine.cardgame.cards import DECK, ROWS, CardFace, Colour
from engine.cardgame.decisions import actions_of, pending
from engine.cardgame.queries import joker_options
from engine.cardgame.scoring import Award
from engine.cardgame.state import STEP_OVER, CardSetup, CardState, RowCard
from engine.core.decisions import Decision, decisions_of
from engine.core.errors import InvalidActionError
from engine.core.seats import Seat


@dataclass(frozen=True, slots=True)
class CardView:
    """A card lying in a row; ``face`` is ``None`` when it lies face down (a card back)."""

    face: CardFace | None
    face_down: bool
    by: Seat | None


@dataclass(frozen=True, slots=True)
class FollowerView:
    """A large follower standing in a row."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class RowView:
    colour: Colour
    items: tuple[CardView | FollowerView, ...]

    @property
    def open_cards(self) -> int:
        """Cards a follower stood at the end now would secure."""
        n = 0
        for item in reversed(self.items):
            if isinstance(item, FollowerView):
                break
            n += 1
        return n


@dataclass(frozen=True, slots=True)
class AnimalPile:
    """Animal cards of one kind in front of a player (``jokers`` of them are animal jokers)."""

    kind: str
    cards: int
    jokers: int


@dataclass(frozen=True, slots=True)
class PendingChoice:
    """A scoring choice a seat still owes: ``wrong-row`` (keep or cash ``card``) or ``joker``
    (give an animal joker one of ``options``)."""

    seat: Seat
    what: str
    card: str
    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardPlayerView:
    seat: Seat
    name: str
    score: int
    hand_size: int
    cards_played: int
    follower_row: Colour | None
    animals: tuple[AnimalPile, ...]
    unassigned_jokers: int
    chest_size: int
    #: the chest's cards, shown only once the game is over
    chest: tuple[CardFace, ...] = ()


@dataclass(frozen=True, slots=True)
class CardPublicView:
    """Everything every player may see."""

    setup: CardSetup
    version: int
    round: int
    rounds: int
    step: str
    dealer: Seat
    current: Seat
    awaiting: frozenset[Seat]
    rows: tuple[RowView, ...]
    players: tuple[CardPlayerView, ...]
    pile_left: int
    last_follower: Seat | None
    pending: tuple[PendingChoice, ...]
    awards: tuple[Award, ...]
    winners: tuple[Seat, ...]
    #: the joker the dealer must lay during setup, if any
    setup_joker: CardFace | None = None
    #: during scoring choices: what each seat took from the rows this round (all face up now)
    collected: tuple[tuple[Seat, tuple[CardFace, ...]], ...] = ()
    #: the open PUBLIC decisions of every seat (left out of ``==``: a Decision compares by
    #: identity, and the decisions follow from the rest of the view)
    decisions: tuple[Decision, ...] = field(default=(), compare=False)

    @property
    def over(self) -> bool:
        return self.step == STEP_OVER

    def row(self, colour: Colour) -> RowView:
        return self.rows[ROWS.index(colour)]


@dataclass(frozen=True, slots=True)
class FaceDownCard:
    """A face-down card the viewer played: where it lies and what it is."""

    row: Colour
    index: int
    face: CardFace


@dataclass(frozen=True, slots=True)
class CardSeatView:
    """A seat's view: the public view, its hand (sorted), the faces of its own face-down cards,
    whether its next card goes face down, and what it may do now: ``decisions`` are the
    public ones and its own private ones (``legal`` answers those that are its own)."""

    public: CardPublicView
    seat: Seat
    hand: tuple[CardFace, ...]
    face_down: tuple[FaceDownCard, ...]
    next_card_face_down: bool
    legal: tuple[CardAction, ...]
    #: left out of ``==`` like :attr:`CardPublicView.decisions`
    decisions: tuple[Decision, ...] = field(default=(), compare=False)

    @property
    def own_decisions(self) -> tuple[Decision, ...]:
        """This seat's open decisions, public and private."""
        return tuple(d for d in self.decisions if d.seat == self.seat)


def view_for(state: CardState, viewer: Seat | None = None) -> CardPublicView | CardSeatView:
    """Project ``state`` for ``viewer`` (``None`` = the public / channel view)."""
    decisions = pending(state)
    pub = public_view(state, decisions)
    if viewer is None:
        return pub
    return seat_view(state, viewer, pub, decisions)


def seat_view(
    state: CardState,
    seat: Seat,
    pub: CardPublicView | None = None,
    decisions: tuple[Decision, ...] | None = None,
) -> CardSeatView:
    """The private view of ``seat`` (``pub`` and ``decisions``: already computed for ``state``).

    Raises:
        InvalidActionError: ``seat`` does not play in this game.
    """
    if not 0 <= seat < state.players:
        raise InvalidActionError.keyed("err.cards.no_seat", seat=seat + 1)
    own: list[FaceDownCard] = []
    for colour, row in zip(ROWS, state.rows, strict=True):
        for i, item in enumerate(row):
            if isinstance(item, RowCard) and item.face_down and item.by == seat:
                own.append(FaceDownCard(colour, i, DECK[item.card]))
    if decisions is None:
        decisions = pending(state)
    visible = decisions_of(decisions, seat)
    return CardSeatView(
        public=pub or public_view(state, decisions),
        seat=seat,
        hand=tuple(DECK[c] for c in state.hands[seat]),
        face_down=tuple(own),
        next_card_face_down=state.played[seat] == 0,
        legal=actions_of(d for d in visible if d.seat == seat),
        decisions=visible,
    )


def public_view(state: CardState, decisions: tuple[Decision, ...] | None = None) -> CardPublicView:
    """The view every player may see (``decisions``: :func:`pending` of ``state``, if known)."""
    if decisions is None:
        decisions = pending(state)
    over = state.step == STEP_OVER
    rows = tuple(
        RowView(
            colour,
            tuple(
                (CardView(None if i.face_down else DECK[i.card], i.face_down, i.by))
                if isinstance(i, RowCard)
                else FollowerView(i.seat)
                for i in row
            ),
        )
        for colour, row in zip(ROWS, state.rows, strict=True)
    )
    players = []
    for s in range(state.players):
        seat = Seat(s)
        piles: dict[str, list[int]] = {}
        loose = 0
        for a in state.animals[s]:
            if a.kind is None:
                loose += 1
                continue
            pile = piles.setdefault(a.kind, [0, 0])
            pile[0] += 1
            pile[1] += DECK[a.card].colour is None
        players.append(
            CardPlayerView(
                seat=seat,
                name=state.setup.name(seat),
                score=state.scores[s],
                hand_size=len(state.hands[s]),
                cards_played=state.played[s],
                follower_row=state.follower_row[s],
                animals=tuple(AnimalPile(k, v[0], v[1]) for k, v in sorted(piles.items())),
                unassigned_jokers=loose,
                chest_size=len(state.chests[s]),
                chest=tuple(DECK[c] for c in state.chests[s]) if over else (),
            )
        )
    owed: list[PendingChoice] = []
    for r in state.receipts:
        for c in r.undecided:
            owed.append(PendingChoice(r.seat, "wrong-row", DECK[c].code, ("keep", "cash")))
        for _ in r.jokers:
            options = joker_options(state.animals[r.seat], r)
            owed.append(PendingChoice(r.seat, "joker", "animal-joker", options))
    setup_joker = None
    if state.step == "setup" and state.pile_pos < len(state.pile):
        setup_joker = DECK[state.pile[state.pile_pos]]
    collected = tuple((r.seat, tuple(DECK[c] for c, _ in r.cards)) for r in state.receipts)
    return CardPublicView(
        setup=state.setup,
        version=state.version,
        round=state.round,
        rounds=state.rounds,
        step=state.step,
        dealer=state.dealer,
        current=state.current,
        awaiting=state.awaiting,
        rows=rows,
        players=tuple(players),
        pile_left=state.pile_left,
        last_follower=state.last_follower,
        pending=tuple(owed),
        awards=state.awards,
        winners=state.winners,
        setup_joker=setup_joker,
        collected=collected,
        decisions=decisions_of(decisions, None),
    )
