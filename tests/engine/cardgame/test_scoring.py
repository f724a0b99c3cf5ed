"""Round scoring (§17.4) and final scoring (§17.5): every example and table of seed 002."""

from __future__ import annotations

import pytest

from engine.cardgame.actions import AssignJoker, ChooseWrongRow
from engine.cardgame.cards import DECK, Colour
from engine.cardgame.events import CardsToChest, ChoiceNeeded, GameEnded, PointsScored
from engine.cardgame.rules import legal_actions
from engine.cardgame.scoring import Award
from engine.cardgame.state import STEP_CHOOSE, STEP_OVER, STEP_PLAY, CardState, HeldAnimal
from engine.cardgame.view import CardPublicView, public_view
from engine.core.errors import IllegalActionError, NotYourTurnError
from engine.core.seats import Seat
from tests.engine.cardgame.helpers import Cards, act, down, follower, of_type, table, up


def _awards(events: list[object] | tuple[object, ...], seat: int = 0) -> list[Award]:
    return [e.award for e in events if isinstance(e, PointsScored) and e.award.seat == seat]


def _secure(c: Cards, row: Colour, items: list[object], **kw: object) -> CardState:
    """Seat 0 is about to stand its follower at the end of ``row`` (holding ``items``); seat 1
    has finished (follower in the empty yellow row unless told otherwise)."""
    rows = {row: items}
    extra = kw.pop("rows", None)
    if isinstance(extra, dict):
        rows.update(extra)
    return table(
        rows=rows,  # type: ignore[arg-type]
        hands={0: ()},
        followers=kw.pop("followers", {1: Colour.YELLOW}),  # type: ignore[arg-type]
        **kw,  # type: ignore[arg-type]
    )


def test_characters_sum_times_count_then_leave_the_game() -> None:
    """Seed 002: 3 + 1 + 1 = 5; 3 character cards → 5 × 3 = 15."""
    c = Cards()
    s = _secure(c, Colour.BLUE, [up(c, "blue-3"), up(c, "blue-1"), up(c, "blue-1")])
    s, events = act(s, 0, "follower blue")
    (a,) = _awards(events)
    assert a.points == 15 and a.item.category == "characters"
    assert a.item.parts == ("3 + 1 + 1 = 5", "× 3 cards")
    assert s.scores == (15, 0)
    assert {DECK[x].code for x in s.removed} == {"blue-3", "blue-1"}
    assert len(s.removed) == 3


def test_animal_example_one_two_sheep_score_six() -> None:
    """① Red receives 2 sheep and records 6 at once; the animals stay in front of red."""
    c = Cards()
    s = _secure(c, Colour.RED, [up(c, "red-animal"), up(c, "red-animal")])
    s, events = act(s, 0, "follower red")
    (a,) = _awards(events)
    assert (a.points, a.item.category) == (6, "animals")
    assert [h.kind for h in s.animals[0]] == ["red", "red"]
    pile = public_view(s).players[0].animals
    assert [(p.kind, p.cards, p.jokers) for p in pile] == [("red", 2, 0)]


def test_animal_example_two_five_sheep_with_a_joker_score_fourteen() -> None:
    """② Holding 2 sheep, red receives 2 more and an animal joker: 5 sheep → 14 at once."""
    c = Cards()
    held = [HeldAnimal(c("red-animal"), "red"), HeldAnimal(c("red-animal"), "red")]
    s = _secure(
        c,
        Colour.RED,
        [up(c, "red-animal"), up(c, "animal-joker"), up(c, "red-animal")],
        animals={0: held},
        scores=(6, 0),
    )
    s, events = act(s, 0, "follower red")
    (a,) = _awards(events)
    assert a.points == 14 and "now 5 red animals" in a.item.parts[0]
    assert s.scores == (20, 0)
    assert sorted(str(h.kind) for h in s.animals[0]) == ["red"] * 5


def test_a_lone_animal_joker_scores_three_then_joins_the_next_animals() -> None:
    c = Cards()
    s = _secure(c, Colour.YELLOW, [up(c, "animal-joker")], followers={1: Colour.RED})
    s, events = act(s, 0, "follower yellow")
    (a,) = _awards(events)
    assert (a.points, a.item.category) == (3, "animal-joker")
    assert [h.kind for h in s.animals[0]] == [None]  # waiting for a kind
    assert public_view(s).players[0].unassigned_jokers == 1
    # next round: one field animal arrives; the joker must join it → 2 green animals → 6
    s2 = _secure(c, Colour.GREEN, [up(c, "green-animal")], animals={0: s.animals[0]})
    s2, events = act(s2, 0, "follower green")
    (a,) = _awards(events)
    assert a.points == 6 and "now 2 green animals" in a.item.parts[0]
    assert [h.kind for h in s2.animals[0]] == ["green", "green"]


def test_a_joker_with_two_possible_kinds_waits_for_its_owner() -> None:
    c = Cards()
    held = [HeldAnimal(c("blue-animal"), "blue")]
    s = _secure(c, Colour.RED, [up(c, "red-animal"), up(c, "animal-joker")], animals={0: held})
    s, events = act(s, 0, "follower red")
    assert s.step == STEP_CHOOSE and s.awaiting == {0}
    assert of_type(events, ChoiceNeeded) == [
        ChoiceNeeded(Seat(0), "joker", "animal-joker", ("blue", "red"))
    ]
    assert not _awards(events)  # nothing scored until the choice is made
    assert legal_actions(s, Seat(0)) == (AssignJoker("blue"), AssignJoker("red"))
    assert legal_actions(s, Seat(1)) == ()
    view = public_view(s)
    assert [(p.seat, p.what, p.options) for p in view.pending] == [(0, "joker", ("blue", "red"))]
    assert [(seat, [f.code for f in faces]) for seat, faces in view.collected] == [
        (0, ["red-animal", "animal-joker"]),
        (1, []),
    ]
    with pytest.raises(NotYourTurnError, match="scoring choices"):
        act(s, 1, "assign red")
    with pytest.raises(IllegalActionError, match="blue, red"):
        act(s, 0, "assign green")
    to_blue, ev_blue = act(s, 0, "assign blue")  # blue 2 → 6, red 1 → 3
    to_red, ev_red = act(s, 0, "assign red")  # red 2 → 6, blue unchanged
    assert sorted(a.points for a in _awards(ev_blue)) == [3, 6] and to_blue.scores[0] == 9
    assert [a.points for a in _awards(ev_red)] == [6] and to_red.scores[0] == 6
    assert to_blue.step == STEP_PLAY and to_blue.round == 2
    assert public_view(to_blue).collected == ()


def test_buildings_go_under_the_chest_unseen_until_the_end() -> None:
    """Seed 002: red receives a building joker and two building cards and keeps them."""
    c = Cards()
    s = _secure(
        c,
        Colour.GREEN,
        [up(c, "green-building"), up(c, "building-joker"), up(c, "green-building")],
    )
    s, events = act(s, 0, "follower green")
    assert not _awards(events)
    assert of_type(events, CardsToChest) == [CardsToChest(Seat(0), 3)]
    me = public_view(s).players[0]
    assert me.chest_size == 3 and me.chest == ()  # nobody may look, not even the owner
    assert s.building_cards(Seat(0)) == 3


@pytest.mark.parametrize("wild", ["dragon", "fairy"])
def test_dragon_and_fairy_score_ten_and_leave(wild: str) -> None:
    c = Cards()
    s = _secure(c, Colour.BLUE, [up(c, wild)])
    s, events = act(s, 0, "follower blue")
    (a,) = _awards(events)
    assert (a.points, a.item.category) == (10, "wild-joker")
    assert [DECK[x].code for x in s.removed] == [wild]


def test_a_wrong_row_character_scores_ten_outside_the_multiplication() -> None:
    c = Cards()
    s = _secure(
        c, Colour.RED, [up(c, "red-1"), down(c, "blue-3", 1), down(c, "red-2", 1)]
    )  # the face-down red-2 lies in its own row: an ordinary character
    s, events = act(s, 0, "follower red")
    by_cat = {a.item.category: a for a in _awards(events)}
    assert by_cat["characters"].points == (1 + 2) * 2
    assert by_cat["wrong-row"].points == 10
    assert by_cat["wrong-row"].item.parts == ("blue character 3 in the red row 10",)
    assert s.scores[0] == 16


@pytest.mark.parametrize("card", ["blue-animal", "blue-building"])
def test_a_wrong_row_animal_or_building_cashed_scores_ten(card: str) -> None:
    c = Cards()
    s = _secure(c, Colour.RED, [down(c, card, 1), up(c, "red-1")])
    s, events = act(s, 0, "follower red")
    assert s.step == STEP_CHOOSE and s.awaiting == {0}
    assert of_type(events, ChoiceNeeded) == [
        ChoiceNeeded(Seat(0), "wrong-row", card, ("keep", "cash"))
    ]
    assert legal_actions(s, Seat(0)) == (ChooseWrongRow(card, True), ChooseWrongRow(card, False))
    s, events = act(s, 0, f"cash {card}")
    assert {a.item.category: a.points for a in _awards(events)} == {
        "characters": 1,
        "wrong-row": 10,
    }
    assert card in {DECK[x].code for x in s.removed}
    assert not s.animals[0] and not s.chests[0]


def test_a_wrong_row_animal_kept_scores_as_an_animal_of_its_own_kind() -> None:
    c = Cards()
    held = [HeldAnimal(c("blue-animal"), "blue")]
    s = _secure(c, Colour.RED, [down(c, "blue-animal", 1)], animals={0: held})
    s, _ = act(s, 0, "follower red")
    s, events = act(s, 0, "keep blue-animal")
    (a,) = _awards(events)
    assert (a.points, a.item.category) == (6, "animals")  # 2 blue animals now
    assert [h.kind for h in s.animals[0]] == ["blue", "blue"]


def test_a_wrong_row_building_kept_goes_under_the_chest() -> None:
    c = Cards()
    s = _secure(c, Colour.YELLOW, [down(c, "red-building", 1)], followers={1: Colour.RED})
    s, _ = act(s, 0, "follower yellow")
    with pytest.raises(IllegalActionError, match="red building"):
        act(s, 0, "keep blue-building")
    s, events = act(s, 0, "keep red-building")
    assert not _awards(events)
    assert [DECK[x].code for x in s.chests[0]] == ["red-building"]


def test_choices_of_several_seats_are_awaited_together() -> None:
    c = Cards()
    s = table(
        rows={
            Colour.RED: [down(c, "blue-animal", 1), follower(1)],
            Colour.BLUE: [down(c, "green-building", 1)],
        },
        hands={0: ()},
        followers={1: Colour.RED},
    )
    s, _ = act(s, 0, "follower blue")
    assert s.awaiting == {0, 1}
    s, events = act(s, 1, "cash blue-animal")
    assert s.awaiting == {0} and not _awards(events, 1)  # scored together once all chose
    s, events = act(s, 0, "keep green-building")
    assert _awards(events, 1)[0].points == 10
    assert s.step == STEP_PLAY and s.round == 2


def _last_round(c: Cards, chests: dict[int, list[str]], scores: tuple[int, int]) -> CardState:
    return _secure(
        c,
        Colour.BLUE,
        [],
        rows={Colour.RED: [up(c, "red-1")]},  # left over: removed at the end
        chests={s: c.many(codes) for s, codes in chests.items()},
        scores=scores,
        round=10,
    )


def test_final_building_sets_rulebook_example_scores_65() -> None:
    """Seed 002: red's sets score 30 + 30 + 5 + 0 = 65."""
    c = Cards()
    chest = ["blue-building"] * 4 + ["red-building"] * 3 + ["green-building"] * 2
    chest += ["yellow-building"] * 2
    s = _last_round(c, {0: chest}, (0, 0))
    s, events = act(s, 0, "follower blue")
    (a,) = _awards(events)
    assert a.points == 65 and a.item.category == "buildings" and a.item.final
    assert [p.split(" (")[0] for p in a.item.parts] == [
        "set of 4",
        "set of 4",
        "set of 2",
        "set of 1",
    ]
    assert s.step == STEP_OVER and s.awaiting == frozenset()
    assert not any(s.rows)  # cards still on the table are removed
    assert "red-1" in {DECK[x].code for x in s.removed}
    view = public_view(s)
    assert isinstance(view, CardPublicView) and len(view.players[0].chest) == 11


def test_building_jokers_stand_in_for_any_building() -> None:
    c = Cards()
    s = _last_round(
        c, {0: ["blue-building", "building-joker", "building-joker", "red-building"]}, (0, 0)
    )
    s, events = act(s, 0, "follower blue")
    assert _awards(events)[0].points == 30


def test_most_points_wins_then_most_building_cards_then_shared() -> None:
    c = Cards()
    s = _last_round(c, {0: ["blue-building"], 1: []}, (20, 20))
    s, events = act(s, 0, "follower blue")
    assert s.scores == (20, 20) and s.winners == (0,)
    (end,) = of_type(events, GameEnded)
    assert end == GameEnded((20, 20), (Seat(0),), (1, 0))
    c = Cards()
    s = _last_round(c, {0: ["blue-building"], 1: ["red-building"]}, (20, 20))
    s, _ = act(s, 0, "follower blue")
    assert s.winners == (0, 1)
    c = Cards()
    s = _last_round(c, {0: ["blue-building"] * 2}, (20, 21))
    s, _ = act(s, 0, "follower blue")
    assert s.winners == (1,)  # 20 + 0 (one kind twice: no set) < 21
