"""The card game's decisions (engine/cardgame/decisions.py): what ``pending`` publishes, that it
agrees with ``legal_actions`` in whole random games, that keys survive other seats' answers and
refuse stale ones, that views never carry another seat's private decision, and that every
prompt and label has English and Spanish words."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.cardgame as cardgame
from engine.cardgame.actions import ChooseWrongRow, LayJoker, PlaceFollower, PlayCard
from engine.cardgame.cards import DECK, ROWS, Colour
from engine.cardgame.catalogue import TEXTS
from engine.cardgame.decisions import (
    KIND_FOLLOWER,
    KIND_JOKER,
    KIND_LAY_JOKER,
    KIND_PLAY,
    KIND_WRONG_ROW,
    KINDS,
    actions_of,
    pending,
    seat_pending,
)
from engine.cardgame.queries import secured_by
from engine.cardgame.rules import answer, apply, auto_action, legal_actions, new_game, replay
from engine.cardgame.sim import random_game
from engine.cardgame.state import STEP_CHOOSE, STEP_OVER, CardSetup, CardState, HeldAnimal
from engine.cardgame.view import CardPublicView, CardSeatView, public_view, seat_view, view_for
from engine.core import messages
from engine.core.decisions import CardRef, Decision, Prompt, Visibility
from engine.core.errors import GameOverError, IllegalActionError, StaleStateError
from engine.core.rng import Rng
from engine.core.seats import Seat
from tests.engine.cardgame.helpers import Cards, act, down, follower, table, up


def _keys(decisions: Iterable[Decision], seat: int | None = None) -> list[str]:
    return [d.key for d in decisions if seat is None or d.seat == seat]


def _content(d: Decision) -> tuple[object, ...]:
    """A decision as plain data (a Decision itself compares by identity)."""
    return (d.key, d.seat, d.kind, d.prompt, d.options, d.optional, d.visibility, d.group)


def _scoring_for_three() -> CardState:
    """Seat 0 stands the round's last follower; every seat then owes wrong-row choices: seat 0
    one, seat 1 one (then an animal joker with two kinds to choose from), seat 2 two."""
    c = Cards()
    return table(
        3,
        rows={
            Colour.RED: [down(c, "blue-building", 2)],
            Colour.GREEN: [down(c, "blue-animal", 0), up(c, "animal-joker"), follower(1)],
            Colour.YELLOW: [down(c, "red-building", 1), down(c, "green-animal", 0), follower(2)],
        },
        followers={1: Colour.GREEN, 2: Colour.YELLOW},
        animals={1: [HeldAnimal(c("red-animal"), "red"), HeldAnimal(c("yellow-animal"), "yellow")]},
        current=0,
        dealer=2,
    )


# ------------------------------------------------------------------------------- what it says
def test_a_turn_offers_a_private_card_choice_and_a_public_follower_choice() -> None:
    c = Cards()
    s = table(
        2,
        rows={Colour.BLUE: [up(c, "blue-1"), up(c, "blue-2")]},
        hands={0: c.many(["red-1", "red-1", "dragon"])},
        played={0: 0},
        round=3,
    )
    play, fol = pending(s)
    assert (play.kind, play.seat, play.visibility) == (KIND_PLAY, 0, Visibility.PRIVATE)
    assert (fol.kind, fol.seat, fol.visibility) == (KIND_FOLLOWER, 0, Visibility.PUBLIC)
    assert play.group is None and not play.optional and play.pass_action is None
    # first card of the round: face down, any row; the two red-1 give one set of options
    assert play.prompt == Prompt("cards.ask.play_down")
    assert play.facet_names() == ("card", "row")
    assert play.facet_values("card") == ("red-1", "dragon")
    assert play.facet_values("row", card="red-1") == tuple(r.value for r in ROWS)
    (opt,) = play.narrow(card="dragon", row="blue")
    assert opt.action == PlayCard("dragon", Colour.BLUE) and opt.target == CardRef("dragon")
    assert opt.label == Prompt("cards.opt.play.blue", (("card", "dragon"),))
    assert messages.text(opt.label.key, "es", **opt.label.kwargs) == "dragón → 🟦 ciudad"
    # the follower labels say how many cards each row would secure
    assert [o.action for o in fol.options] == [PlaceFollower(r) for r in ROWS]
    blue = fol.option("blue")
    assert blue is not None and blue.label is not None
    assert messages.text(blue.label.key, "en", **blue.label.kwargs) == "Follower → 🟦 city (2)"
    assert len({o.id for o in play.options}) == len(play.options)
    assert play.key != fol.key and play.key.startswith("cards.play#3.")


def test_face_up_cards_offer_only_their_own_row_jokers_every_row() -> None:
    c = Cards()
    s = table(2, hands={0: c.many(["red-1", "fairy"])}, followers={0: Colour.RED})
    (play,) = pending(s)  # the follower stands: only the card choice is left
    assert play.prompt == Prompt("cards.ask.play")
    assert play.facet_values("row", card="red-1") == ("red",)
    assert play.facet_values("row", card="fairy") == tuple(r.value for r in ROWS)


def test_the_setup_joker_is_a_public_decision_of_the_dealer() -> None:
    stack = ("red-1", "dragon", "green-2")
    s = new_game(CardSetup(players=3, dealer=1, stack=stack), seed=0)
    (d,) = pending(s)
    assert (d.kind, d.seat, d.visibility) == (KIND_LAY_JOKER, 1, Visibility.PUBLIC)
    assert d.prompt == Prompt.of("cards.ask.lay_joker", card="dragon")
    assert tuple(d.actions()) == tuple(LayJoker(r) for r in ROWS)
    assert messages.text(d.prompt.key, "es", card="dragon") == "Ha salido dragon — elige su fila."


def test_scoring_choices_of_every_seat_are_open_at_once_in_one_group() -> None:
    s, _ = act(_scoring_for_three(), 0, "follower red")
    assert s.step == STEP_CHOOSE and s.awaiting == {0, 1, 2}
    ds = pending(s)
    assert [(d.seat, d.kind) for d in ds] == [(0, KIND_WRONG_ROW), (1, KIND_WRONG_ROW), (2, KIND_WRONG_ROW)]  # fmt: skip
    assert len({d.group for d in ds}) == 1 and ds[0].group == f"cards.scoring#{s.round}"
    assert all(d.visibility is Visibility.PUBLIC for d in ds)
    two = ds[2]
    assert two.prompt == Prompt.of("cards.ask.wrong_row", cards=("red building", "green animal"))
    words = messages.text(two.prompt.key, "es", **two.prompt.kwargs)
    assert "edificio rojo, animal verde" in words
    assert two.facet_names() == ("card", "choice")
    assert two.facet_values("card") == ("red-building", "green-animal")
    (cash,) = two.narrow(card="green-animal", choice="cash")
    assert cash.action == ChooseWrongRow("green-animal", keep=False)
    assert cash.target == CardRef("green-animal")
    assert cash.label is not None
    assert messages.text(cash.label.key, "es", **cash.label.kwargs) == "Cobrar 10 por animal verde"


# ----------------------------------------------------------------------------- keys and answers
def test_keys_survive_other_seats_answers_and_close_with_their_own() -> None:
    s, _ = act(_scoring_for_three(), 0, "follower red")
    before = {int(d.seat): _content(d) for d in pending(s)}
    k0, k1, k2 = (before[i][0] for i in range(3))
    assert isinstance(k0, str) and isinstance(k1, str) and isinstance(k2, str)

    s = answer(s, Seat(0), k0, ChooseWrongRow("blue-building", keep=False)).state
    assert seat_pending(s, Seat(0)) == ()
    assert {int(d.seat): _content(d) for d in pending(s)} == {1: before[1], 2: before[2]}

    # seat 1 keeps its animal: now it holds three kinds and must give its joker one
    s = answer(s, Seat(1), k1, ChooseWrongRow("blue-animal", keep=True)).state
    (joker,) = seat_pending(s, Seat(1))
    assert joker.kind == KIND_JOKER and joker.key != k1
    assert joker.group == before[2][7]
    assert [o.id for o in joker.options] == ["blue", "red", "yellow"]
    assert _content(seat_pending(s, Seat(2))[0]) == before[2]
    with pytest.raises(StaleStateError, match="out of date"):
        answer(s, Seat(1), k1, ChooseWrongRow("blue-animal", keep=True))

    # seat 2 answers one of its two cards: its key moves on, the old one is refused
    s = answer(s, Seat(2), k2, ChooseWrongRow("red-building", keep=True)).state
    (left,) = seat_pending(s, Seat(2))
    assert left.kind == KIND_WRONG_ROW and left.key != k2
    assert left.facet_values("card") == ("green-animal",)
    with pytest.raises(StaleStateError):
        answer(s, Seat(2), k2, ChooseWrongRow("green-animal", keep=True))
    assert _content(seat_pending(s, Seat(1))[0]) == _content(joker)

    s = answer(s, Seat(2), left.key, ChooseWrongRow("green-animal", keep=True)).state
    s = answer(s, Seat(1), joker.key, joker.options[0].action).state
    assert s.step != STEP_CHOOSE  # every choice made: the round was scored


def test_answer_refuses_other_seats_keys_wrong_answers_and_finished_games() -> None:
    s, _ = act(_scoring_for_three(), 0, "follower red")
    mine, theirs = seat_pending(s, Seat(0))[0], seat_pending(s, Seat(1))[0]
    with pytest.raises(StaleStateError):
        answer(s, Seat(0), theirs.key, ChooseWrongRow("blue-animal", keep=True))
    with pytest.raises(StaleStateError):
        answer(s, Seat(0), "cards.play#1.0.0", ChooseWrongRow("blue-building", keep=True))
    with pytest.raises(IllegalActionError, match="not an answer"):
        answer(s, Seat(0), mine.key, ChooseWrongRow("blue-animal", keep=True))
    # the turn's two decisions: an answer to one is not taken under the other's key
    c = Cards()
    t = table(2, hands={0: c.many(["red-1"])})
    play, fol = pending(t)
    with pytest.raises(IllegalActionError):
        answer(t, Seat(0), fol.key, PlayCard("red-1", Colour.RED))
    after = answer(t, Seat(0), play.key, PlayCard("red-1", Colour.RED)).state
    with pytest.raises(StaleStateError):  # answering one closed both
        answer(after, Seat(0), fol.key, PlaceFollower(Colour.RED))
    state, _ = random_game(2, 3)
    assert state.step == STEP_OVER and pending(state) == ()
    with pytest.raises(GameOverError):
        answer(state, Seat(0), "cards.play#1.0.0", PlaceFollower(Colour.RED))


# -------------------------------------------------------------------------- whole random games
def _check_views(state: CardState, decisions: tuple[Decision, ...]) -> None:
    pub = public_view(state, decisions)
    assert all(not d.private for d in pub.decisions)
    assert _keys(pub.decisions) == [d.key for d in decisions if not d.private]
    for s in range(state.players):
        sv = seat_view(state, Seat(s), pub, decisions)
        assert all(not d.private or d.seat == s for d in sv.decisions)
        assert _keys(sv.own_decisions) == _keys(decisions, s)
        assert sv.legal == legal_actions(state, Seat(s))
        for d in sv.own_decisions:
            if d.private:  # a private choice lists the seat's own cards, nobody else's
                hand = {f.code for f in sv.hand}
                assert {o.target.code for o in d.options if isinstance(o.target, CardRef)} <= hand


def _check_texts(decisions: Iterable[Decision]) -> None:
    for d in decisions:
        assert d.kind in KINDS
        prompts = [d.prompt, *(o.label for o in d.options)]
        for p in prompts:
            assert p is not None
            for lang in ("en", "es"):
                assert messages.has(p.key)
                words = messages.text(p.key, lang, **p.kwargs)
                assert words != p.key and "{" not in words, (p, lang, words)


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_random_games_answered_through_pending_keep_every_promise(players: int, seed: int) -> None:
    """Any awaited seat (not only the lowest) answers a random option under its key. At every
    step: legal_actions is exactly the actions of that seat's decisions, every awaited seat
    and only those has a decision, keys are unique and never reopen once closed, other seats'
    decisions survive an answer unchanged, and no view shows another seat's private one."""
    state = new_game(CardSetup(players=players), seed=seed)
    rng = Rng(seed)
    closed: set[str] = set()
    log = []
    while True:
        ds = pending(state)
        keys = _keys(ds)
        assert len(set(keys)) == len(keys) and not closed & set(keys)
        assert {d.seat for d in ds} == state.awaiting
        for s in range(players):
            assert legal_actions(state, Seat(s)) == actions_of(d for d in ds if d.seat == s)
        for d in ds:
            assert len({o.id for o in d.options}) == len(d.options)
            assert all(":" not in o.id and len(o.id) <= 24 for o in d.options)
            if d.kind == KIND_FOLLOWER:  # labels count what a follower would secure, row by row
                counts = [o.label.param("n") for o in d.options if o.label is not None]
                assert counts == [secured_by(row) for row in state.rows]
            assert d.private == (d.kind == KIND_PLAY)
            assert (d.group is not None) == (state.step == STEP_CHOOSE)
        _check_views(state, ds)
        _check_texts(ds)
        if not ds:
            break
        seat = sorted(state.awaiting)[rng.below(len(state.awaiting))]
        mine = [d for d in ds if d.seat == seat]
        d = mine[rng.below(len(mine))]
        action = d.options[rng.below(len(d.options))].action
        assert auto_action(state, seat) in legal_actions(state, seat)
        after = answer(state, seat, d.key, action).state
        assert after == apply(state, seat, action).state
        log.append((seat, action))
        now = pending(after)
        closed |= set(_keys(mine)) - set(_keys(now))
        assert d.key not in _keys(now)
        if after.step == STEP_CHOOSE and state.step == STEP_CHOOSE:
            others = [_content(x) for x in ds if x.seat != seat]
            assert [_content(x) for x in now if x.seat != seat] == others
        state = after
    assert state.step == STEP_OVER
    assert replay(state.setup, seed, log) == state


def test_the_simulator_chooses_through_pending() -> None:
    """Every move of a random game answered an open decision of the lowest seat with one."""
    for players in (2, 5):
        final, log = random_game(players, 42)
        state = new_game(CardSetup(players=players), seed=42)
        for seat, action in log:
            ds = pending(state)
            assert seat == ds[0].seat
            assert action in actions_of(d for d in ds if d.seat == seat)
            state = apply(state, seat, action).state
        assert state == final


def test_views_carry_public_decisions_and_only_their_own_private_ones() -> None:
    c = Cards()
    s = table(3, hands={1: c.many(["blue-2"])}, current=1)
    pub = view_for(s)
    assert isinstance(pub, CardPublicView)
    assert [d.kind for d in pub.decisions] == [KIND_FOLLOWER]
    mine, other = view_for(s, Seat(1)), view_for(s, Seat(0))
    assert isinstance(mine, CardSeatView) and isinstance(other, CardSeatView)
    assert [d.kind for d in mine.decisions] == [KIND_PLAY, KIND_FOLLOWER]
    assert [d.kind for d in other.decisions] == [KIND_FOLLOWER] and other.own_decisions == ()
    assert other.legal == () and mine.legal == legal_actions(s, Seat(1))


# ------------------------------------------------------------------------------------ words
def test_every_catalogue_key_has_english_and_spanish_words() -> None:
    assert TEXTS
    for key, (en, es) in TEXTS.items():
        assert key.startswith("cards.")
        assert en.strip() and es.strip()
        assert messages.MESSAGES[key] == (en, es)
    for colour in ROWS:  # every row and animal kind is named in both languages
        for prefix in ("row", "opt.play", "opt.follower", "opt.lay", "opt.assign"):
            assert f"cards.{prefix}.{colour.value}" in TEXTS
    animal_kinds = {f.kind for f in DECK if f.type.value == "animal"}
    assert {f"cards.opt.assign.{k}" for k in animal_kinds} <= set(TEXTS)


def test_the_package_exports_the_decision_api() -> None:
    for name in ("pending", "seat_pending", "answer", "KINDS"):
        assert name in cardgame.__all__ and hasattr(cardgame, name)
    assert set(KINDS) == {KIND_LAY_JOKER, KIND_PLAY, KIND_FOLLOWER, KIND_WRONG_ROW, KIND_JOKER}
