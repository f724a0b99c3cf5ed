"""The decision core (issue 9): pending, keys, sub-turns, private simultaneous decisions,
the hidden generator, neutral figures, namespaced notation and the points pipeline.

The test-only Oracle expansion (tests/expansions/oracle.py) supplies a die roll, an optional
decision with targets anywhere, a neutral figure and a private decision for every seat.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path

import pytest

from engine import Action, GameSetup, Seat, apply, new_game, play_random_game, view_for
from engine.carcassonne.actions import Choose, Deploy, Pass
from engine.carcassonne.events import PointsScored
from engine.carcassonne.expansion import Expansion
from engine.carcassonne.figures import strength
from engine.carcassonne.flow import program_of
from engine.carcassonne.randomplay import choose_answer
from engine.carcassonne.record import replay
from engine.carcassonne.registry import all_expansions, register, unregister
from engine.carcassonne.rules import legal_actions, lookahead, pending, preview, revealed
from engine.carcassonne.scoring import Award
from engine.carcassonne.state import GameState
from engine.carcassonne.view import PublicView, SeatView
from engine.core.decisions import Cell, FeatureRef, Visibility
from engine.core.errors import NotYourTurnError, StaleStateError
from engine.core.rng import Rng
from tests.expansions import oracle

ALL = ("inns_cathedrals", "traders_builders", "abbey_mayor")


@pytest.fixture
def with_oracle() -> Iterator[None]:
    oracle.install()
    yield
    oracle.uninstall()


def test_first_decision_is_a_public_place_with_cell_and_rotation_facets() -> None:
    s = new_game(GameSetup(), seed=3)
    (d,) = pending(s)
    assert (d.kind, d.seat, d.optional, d.visibility) == ("core.place", 0, False, Visibility.PUBLIC)
    assert d.prompt.key == "core.place" and d.prompt.param("tile") == s.drawn
    assert d.facet_names() == ("cell", "rotation")
    assert all(isinstance(o.target, Cell) for o in d.options)
    cell = d.facet_values("cell")[0]
    narrowed = d.narrow(cell=cell)
    assert narrowed and all(o.facet("cell") == cell for o in narrowed)
    assert [o.action for o in d.options] == list(legal_actions(s, Seat(0)))
    assert list(legal_actions(s, Seat(1))) == []


def test_deploy_decision_is_optional_with_spot_targets_on_the_placed_tile() -> None:
    s = new_game(GameSetup(), seed=3)
    place = pending(s)[0].options[0].action
    (d,) = preview(s, Seat(0), place) or ()
    after = apply(s, Seat(0), place).state
    (real,) = pending(after)
    assert d.kind == real.kind == "core.deploy" and d.optional and isinstance(d.pass_action, Pass)
    assert [o.id for o in d.options] == [o.id for o in real.options]
    pos = after.placed
    assert pos is not None
    for o in real.options:
        assert isinstance(o.target, FeatureRef) and (o.target.x, o.target.y) == (pos.x, pos.y)
        assert isinstance(o.action, Deploy) and o.facet("spot") == o.action.spot
    # passing draws the next tile: a preview must not reveal it
    assert preview(after, Seat(0), Pass()) is None


def test_a_sequence_of_answers_is_looked_past_until_something_is_revealed() -> None:
    """One rule for "reaching this reveals nothing" (issue 29): placing reveals nothing, so
    the deploy step is previewed; placing then passing draws the next tile, so it is not; the
    undo rule reads the same ``revealed``."""
    s = new_game(GameSetup(), seed=3)
    place = pending(s)[0].options[0].action
    after = lookahead(s, Seat(0), [place])
    assert after is not None and not revealed(s, after)
    assert [d.kind for d in preview(s, Seat(0), [place]) or ()] == ["core.deploy"]
    assert lookahead(s, Seat(0), [place, Pass()]) is None
    drawn = apply(after, Seat(0), Pass()).state
    assert revealed(after, drawn) and drawn.pile_pos != after.pile_pos
    # an answer of another seat's decision is refused as apply refuses it
    with pytest.raises(NotYourTurnError):
        lookahead(s, Seat(1), [place])


def test_no_front_end_reads_the_hidden_state_to_decide_what_is_revealed() -> None:
    """The rule lives in the engine only (``rules.revealed``): the services never compare
    the pile position or the hidden generator themselves."""
    for path in Path("bot").rglob("*.py"):
        text = path.read_text()
        assert "pile_pos" not in text and ".rng !=" not in text, path


@pytest.mark.parametrize("expansions", [(), ALL])
def test_legal_actions_agree_with_pending_over_whole_games(expansions: tuple[str, ...]) -> None:
    for seed in range(3):
        game = play_random_game(GameSetup(expansions=expansions), seed)
        state = new_game(game.record.setup, seed=seed)
        for move in game.record.actions:
            ds = pending(state)
            for seat in range(2):
                want = [a for d in ds if d.seat == seat for a in d.actions()]
                assert list(legal_actions(state, Seat(seat))) == want
            state = apply(state, move.seat, move.action()).state
        assert state.over and pending(state) == ()


def test_an_answer_names_its_decision_and_a_closed_one_is_out_of_date() -> None:
    s = new_game(GameSetup(), seed=5)
    (d,) = pending(s)
    nxt = apply(s, Seat(0), d.options[0].action, key=d.key).state
    with pytest.raises(StaleStateError, match="out of date"):
        apply(nxt, Seat(0), Pass(), key=d.key)
    (deploy,) = pending(nxt)
    assert deploy.key != d.key
    apply(nxt, Seat(0), Pass(), key=deploy.key)
    with pytest.raises(NotYourTurnError):
        apply(nxt, Seat(1), Pass())


def _at_guess_round(players: int = 3) -> GameState:
    setup = GameSetup(players=players, expansions=("oracle",))
    state = new_game(setup, seed=11)
    rng = Rng(4)
    while not any(d.kind == "oracle.guess" for d in pending(state)):
        d = pending(state)[0]
        state = apply(state, d.seat, choose_answer(d, rng)).state
    return state


def test_every_seat_guesses_privately_at_once_and_keys_survive_other_answers(
    with_oracle: None,
) -> None:
    s = _at_guess_round()
    ds = pending(s)
    assert sorted(d.seat for d in ds) == [0, 1, 2]
    assert {d.kind for d in ds} == {"oracle.guess"} and len({d.group for d in ds}) == 1
    assert all(d.private and d.options[0].number is not None for d in ds)
    # the public view shows none of them; each seat sees its own only
    pub = view_for(s)
    assert isinstance(pub, PublicView) and pub.decisions == ()
    for d in ds:
        sv = view_for(s, d.seat)
        assert isinstance(sv, SeatView) and [x.key for x in sv.decisions] == [d.key]
    # answer in reverse seat order: the others' keys stay open and valid
    by_seat = {d.seat: d for d in ds}
    s1 = apply(s, Seat(2), by_seat[Seat(2)].options[0].action_for(5), key=by_seat[Seat(2)].key)
    assert sorted(d.key for d in pending(s1.state)) == sorted(by_seat[Seat(i)].key for i in (0, 1))
    # the guess is hidden from the others (and the channel) until revealed
    own = view_for(s1.state, Seat(2))
    other = view_for(s1.state, Seat(0))
    assert isinstance(own, SeatView) and isinstance(other, SeatView)
    assert own.ext["oracle"].guesses[2] == 5 and other.ext["oracle"].guesses[2] is None
    assert view_for(s1.state).ext["oracle"].guesses[2] is None  # type: ignore[union-attr]
    with pytest.raises(StaleStateError):
        apply(s1.state, Seat(2), Choose("oracle.guess", "3"), key=by_seat[Seat(2)].key)
    s2 = apply(s1.state, Seat(1), Choose("oracle.guess", "2")).state
    s3 = apply(s2, Seat(0), Choose("oracle.guess", "5"), key=by_seat[Seat(0)].key)
    assert not any(d.kind == "oracle.guess" for d in pending(s3.state))
    assert any(type(e).__name__ == "GuessesRevealed" for e in s3.events)


def test_private_actions_have_a_public_notation_and_round_trip(with_oracle: None) -> None:
    guess = Action.from_notation("oracle.guess 4")
    assert guess == Choose("oracle.guess", "4")
    assert guess.notation() == "oracle.guess 4" and guess.public_notation() == "oracle.guess ?"
    bonus = Action.from_notation("tb.bonus take")
    assert bonus.public_notation() == "tb.bonus take" and not bonus.private


def test_die_rolls_come_from_the_hidden_generator_and_replay_exactly(with_oracle: None) -> None:
    setup = GameSetup(players=3, expansions=("oracle", *ALL))
    game = play_random_game(setup, 21)
    rolls = [
        e.value
        for e in replay(game.record).events
        if type(e).__name__ == "DieRolled"  # type: ignore[attr-defined]
    ]
    again = [
        e.value
        for e in replay(game.record).events
        if type(e).__name__ == "DieRolled"  # type: ignore[attr-defined]
    ]
    assert rolls == again and len(set(rolls)) > 1
    assert replay(game.record).scores == game.scores
    view_fields = {f.name for f in fields(PublicView)}
    assert "rng" not in view_fields and "pile" not in view_fields


def test_neutral_owl_never_occupies_and_never_returns_to_a_supply(with_oracle: None) -> None:
    for seed in range(4):
        game = play_random_game(GameSetup(expansions=("oracle",)), seed)
        owls = [f for f in view_for(game.state).figures if f.figure == "oracle.owl"]  # type: ignore[union-attr]
        assert len(owls) <= 1 and all(f.seat == -1 for f in owls)
        for p in game.state.players:
            assert "oracle.owl" not in p.supply
    assert strength("oracle.owl") == 0


def test_owl_move_is_optional_and_may_target_any_tile(with_oracle: None) -> None:
    setup = GameSetup(expansions=("oracle",))
    state = new_game(setup, seed=2)
    rng = Rng(9)
    seen_far = False
    for _ in range(400):
        ds = pending(state)
        if not ds:
            break
        d = ds[0]
        if d.kind == "oracle.owl":
            assert d.optional
            tiles = {
                (o.target.x, o.target.y) for o in d.options if isinstance(o.target, FeatureRef)
            }
            seen_far |= any((x, y) != state.placed for x, y in tiles)
        state = apply(state, d.seat, choose_answer(d, rng)).state
    assert seen_far


def test_steps_run_in_slot_order(with_oracle: None) -> None:
    prog = program_of(GameSetup(expansions=("oracle", "traders_builders")))
    ids = [s.id for s in prog.steps]
    assert ids == [
        "core.draw",
        "core.place",
        "core.placed",
        "core.deploy",
        "oracle.roll",
        "oracle.link",
        "oracle.raven",
        "oracle.acorn",
        "oracle.omen",
        "core.score",
        "oracle.link_score",
        "oracle.owl",
        "oracle.join",
        "tb.bonus",
        "oracle.guess",
        "core.end",
    ]
    assert list(prog.slots) == sorted(prog.slots)


class _Tithe(Expansion):
    """Each award of 2+ points makes its seat give 1 point to the next seat (a follow-up)."""

    id = "tithe"

    def on_points_awarded(self, state: GameState, award: Award, depth: int) -> list[Award]:
        if award.points < 2 or award.item.category == "tithe":
            return []
        from engine.carcassonne.scoring import ScoreItem

        nxt = Seat((award.seat + 1) % state.setup.players)
        item = ScoreItem("tithe", 1, False, False, parts=("tithe 1",), winners=(nxt,))
        return [Award(nxt, 1, item)]


def test_points_pipeline_lets_an_expansion_add_follow_up_awards() -> None:
    register(_Tithe)
    try:
        plain = play_random_game(GameSetup(), 4)
        tithe = play_random_game(GameSetup(expansions=("tithe",)), 4)
        scored = [e for e in replay(tithe.record).events if isinstance(e, PointsScored)]
    finally:
        unregister("tithe")
    assert "tithe" not in [c.id for c in all_expansions()]
    base = [a for a in plain.state.awards]
    extra = [a for a in tithe.state.awards if a.item.category == "tithe"]
    assert len(extra) == sum(1 for a in base if a.points >= 2)
    assert sum(tithe.scores) == sum(plain.scores) + len(extra)
    assert all(a.item.parts == ("tithe 1",) for a in extra)
    assert sum(len(e.awards) for e in scored) == len(tithe.state.awards)
