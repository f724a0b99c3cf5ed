"""The card game's open choices as :class:`engine.core.decisions.Decision` (ARCHITECTURE.md §5.8).

:func:`pending` lists every choice the game awaits, of every awaited seat, so that the tile game
and the card game share one presenter, one private-delivery path and one service skeleton:

* ``cards.lay_joker`` (setup): the dealer lays a joker turned up into a row; public.
* ``cards.play``: which card from the hand, then which row (facets ``card`` → ``row``; the
  first card of a round goes face down into any row). PRIVATE: its options are the hand.
* ``cards.follower``: stand the large follower at the end of a row; public. While a seat still
  has cards and its follower, both decisions are open and answering either closes both.
* ``cards.wrong_row`` (scoring): keep a secured wrong-row card or cash it for 10 (facets
  ``card`` → ``choice``); public, since the secured cards lie face up.
* ``cards.joker`` (scoring): give an animal joker one of the kinds the seat holds; public.

Keys come from the round, the turn or answer count, and the seat (``cards.play#3.7.1``): never
from the global version, so one seat's answer leaves another seat's key valid, while the seat's
own answer closes its key for good (a second click on an old button is out of date). Scoring
choices of all seats are answered independently and resolved together: they share a ``group``.
No card-game decision may be passed. Option ids are short and hold no ``:`` (they travel in
button ids after the key): ``blue-2 yellow`` (play), the row (follower, setup joker),
``keep blue-animal`` / ``cash blue-animal``, the kind (animal joker).

>>> from engine.cardgame.rules import new_game
>>> from engine.cardgame.state import CardSetup
>>> state = new_game(CardSetup(players=2, dealer=1, stack=("blue-1",) * 8), seed=1)
>>> [(d.key, d.kind, d.visibility.value) for d in pending(state)]
[('cards.play#1.0.0', 'cards.play', 'private'), ('cards.follower#1.0.0', 'cards.follower', 'public')]
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import getitem

from engine.cardgame.actions import (
    AssignJoker,
    CardAction,
    ChooseWrongRow,
    LayJoker,
    PlaceFollower,
    PlayCard,
)
from engine.cardgame.cards import (
    DECK,
    DECK_SIZE,
    FACES,
    ROW_INDEX,
    ROWS,
    CardFace,
    Colour,
    face_name,
)
from engine.cardgame.catalogue import (
    ASK_FOLLOWER,
    ASK_JOKER,
    ASK_LAY_JOKER,
    ASK_PLAY,
    ASK_PLAY_DOWN,
    ASK_WRONG_ROW,
    OPT_CASH,
    OPT_KEEP,
    assign_label,
    follower_label,
    lay_label,
    play_label,
)
from engine.cardgame.queries import joker_options, secured_by
from engine.cardgame.state import STEP_CHOOSE, STEP_PLAY, STEP_SETUP, CardState
from engine.core.decisions import CardRef, Decision, Option, Prompt, Visibility
from engine.core.seats import Seat

KIND_LAY_JOKER = "cards.lay_joker"
KIND_PLAY = "cards.play"
KIND_FOLLOWER = "cards.follower"
KIND_WRONG_ROW = "cards.wrong_row"
KIND_JOKER = "cards.joker"
#: Every decision kind of the card game.
KINDS = (KIND_LAY_JOKER, KIND_PLAY, KIND_FOLLOWER, KIND_WRONG_ROW, KIND_JOKER)
#: The group of a round's scoring choices (all seats answer them at once): ``cards.scoring#R``.
SCORING_GROUP = "cards.scoring"

# Options and prompts are immutable: build them once (pending runs in every random move).
_FACE_ID = tuple(FACES.index(f) for f in DECK)


def _play(face: CardFace, row: Colour) -> Option:
    code = face.code
    return Option(
        f"{code} {row.value}",
        PlayCard(code, row),
        CardRef(code),
        (("card", code), ("row", row.value)),
        Prompt(play_label(row), (("card", face_name(code)),)),
    )


#: by face index: options playing that card into any row (face down, or a joker) ...
_PLAY_ANY = tuple(tuple(_play(f, r) for r in ROWS) for f in FACES)
#: ... and face up (a coloured card goes into its own row only)
_PLAY_UP = tuple(
    opts if f.colour is None else (opts[ROW_INDEX[f.colour]],)
    for f, opts in zip(FACES, _PLAY_ANY, strict=True)
)
_LAY = tuple(
    Option(r.value, LayJoker(r), None, (("row", r.value),), Prompt(lay_label(r))) for r in ROWS
)
_WRONG_ROW: dict[str, tuple[Option, Option]] = {}
_ASSIGN: dict[str, Option] = {}
_ASK_PLAY = Prompt(ASK_PLAY)
_ASK_PLAY_DOWN = Prompt(ASK_PLAY_DOWN)
_ASK_FOLLOWER = Prompt(ASK_FOLLOWER)
_ASK_JOKER = Prompt(ASK_JOKER)
_PRIVATE = Visibility.PRIVATE


def _follow(r: Colour, n: int) -> Option:
    """Stand the follower in row ``r``, where it secures ``n`` cards."""
    return Option(
        r.value, PlaceFollower(r), None, (("row", r.value),), Prompt(follower_label(r), (("n", n),))
    )


#: ``_FOLLOW[i][n]``: the follower option for row ``i`` securing ``n`` cards (no row holds more
#: cards than the deck)
_FOLLOW = tuple(tuple(_follow(r, n) for n in range(DECK_SIZE + 1)) for r in ROWS)


def _wrong_row(code: str) -> tuple[Option, Option]:
    """Keep or cash a card ``code`` (cached)."""
    opts = _WRONG_ROW.get(code)
    if opts is None:
        card, target = (("card", face_name(code)),), CardRef(code)
        keep = Option(
            f"keep {code}",
            ChooseWrongRow(code, keep=True),
            target,
            (("card", code), ("choice", "keep")),
            Prompt(OPT_KEEP, card),
        )
        cash = Option(
            f"cash {code}",
            ChooseWrongRow(code, keep=False),
            target,
            (("card", code), ("choice", "cash")),
            Prompt(OPT_CASH, card),
        )
        opts = _WRONG_ROW[code] = (keep, cash)
    return opts


def _assign(kind: str) -> Option:
    """Give an animal joker the kind ``kind`` (cached)."""
    opt = _ASSIGN.get(kind)
    if opt is None:
        opt = _ASSIGN[kind] = Option(
            kind, AssignJoker(kind), None, (("kind", kind),), Prompt(assign_label(kind))
        )
    return opt


# ---------------------------------------------------------------------------------- queries
def pending(state: CardState) -> tuple[Decision, ...]:
    """Every open decision of every awaited seat, lowest seat first (nothing once over)."""
    if len(state.awaiting) == 1:
        return seat_pending(state, next(iter(state.awaiting)))
    return tuple(d for s in sorted(state.awaiting) for d in seat_pending(state, s))


def seat_pending(state: CardState, seat: Seat) -> tuple[Decision, ...]:
    """The open decisions of ``seat`` (empty when the game does not wait for it)."""
    if seat not in state.awaiting:
        return ()
    step = state.step
    if step == STEP_PLAY:
        return _turn(state, seat)
    if step == STEP_CHOOSE:
        return _scoring_choice(state, seat)
    if step == STEP_SETUP:
        card = face_name(DECK[state.pile[state.pile_pos]].code)
        key = f"{KIND_LAY_JOKER}#{state.round}.{state.pile_pos}.{seat}"
        return (Decision(key, seat, KIND_LAY_JOKER, Prompt.of(ASK_LAY_JOKER, card=card), _LAY),)
    return ()


def actions_of(decisions: Iterable[Decision]) -> tuple[CardAction, ...]:
    """Every action answering one of ``decisions``, in their order (pass actions included)."""
    return tuple(a for d in decisions for a in d.actions())


def find(state: CardState, seat: Seat, key: str) -> Decision | None:
    """The open decision of ``seat`` named ``key``, if there is one."""
    for d in seat_pending(state, seat):
        if d.key == key:
            return d
    return None


# ---------------------------------------------------------------------------------- builders
def _turn(state: CardState, seat: Seat) -> tuple[Decision, ...]:
    """A turn of a round: play a card (private), stand the follower (public), or either."""
    placed = state.follower_row
    standing = len(placed) - placed.count(None)
    tag = f"#{state.round}.{sum(state.played) + standing}.{seat}"
    follow = None
    if placed[seat] is None:
        # A follower stands only in a row some seat's follower_row names (they all go back at
        # the end of a round): any other row's cards are all open, no need to look.
        if not standing:
            options = tuple(map(getitem, _FOLLOW, map(len, state.rows)))
        else:
            options = tuple(
                [
                    rows_opts[secured_by(row) if colour in placed else len(row)]
                    for rows_opts, row, colour in zip(_FOLLOW, state.rows, ROWS, strict=True)
                ]
            )
        follow = Decision(KIND_FOLLOWER + tag, seat, KIND_FOLLOWER, _ASK_FOLLOWER, options)
    hand = state.hands[seat]
    if not hand:
        return () if follow is None else (follow,)
    down = state.played[seat] == 0
    table = _PLAY_ANY if down else _PLAY_UP
    plays: list[Option] = []
    seen: set[int] = set()
    for card in hand:
        face = _FACE_ID[card]
        if face not in seen:
            seen.add(face)
            plays += table[face]
    play = Decision(
        KIND_PLAY + tag,
        seat,
        KIND_PLAY,
        _ASK_PLAY_DOWN if down else _ASK_PLAY,
        tuple(plays),
        visibility=_PRIVATE,
    )
    return (play,) if follow is None else (play, follow)


def _scoring_choice(state: CardState, seat: Seat) -> tuple[Decision, ...]:
    """A seat's next scoring choice: its wrong-row cards first, then one animal joker at a time.

    The key counts the seat's own answers in this scoring, so it changes only when this seat
    answers."""
    r = state.receipts[seat]
    answered = len(r.kept) + len(r.cashed) + len(r.assigned)
    tag = f"#{state.round}.{answered}.{seat}"
    group = f"{SCORING_GROUP}#{state.round}"
    if r.undecided:
        codes = [DECK[c].code for c in r.undecided]
        options = tuple(o for code in dict.fromkeys(codes) for o in _wrong_row(code))
        prompt = Prompt.of(ASK_WRONG_ROW, cards=tuple(face_name(c) for c in codes))
        return (Decision(KIND_WRONG_ROW + tag, seat, KIND_WRONG_ROW, prompt, options, group=group),)
    if r.jokers:
        kinds = joker_options(state.animals[seat], r)
        options = tuple(_assign(k) for k in kinds)
        return (Decision(KIND_JOKER + tag, seat, KIND_JOKER, _ASK_JOKER, options, group=group),)
    return ()
