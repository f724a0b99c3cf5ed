"""State clones share the seats' scores and supplies until one side changes them (copy on
write through ``GameState.player``): a change never shows in the other state."""

from __future__ import annotations

from engine import GameSetup, new_game
from engine.core.seats import Seat


def _seats(state: object) -> list[tuple[int, dict[str, int]]]:
    return [(p.score, dict(p.supply)) for p in state.players]  # type: ignore[attr-defined]


def test_changing_a_clones_player_leaves_the_parent_as_it_was() -> None:
    parent = new_game(GameSetup(players=3, expansions=("traders_builders",)), seed=1)
    before = _seats(parent)
    child = parent.clone()
    child.player(Seat(1)).score += 5
    child.player(Seat(1)).supply["follower"] -= 1
    child.player(Seat(2)).supply["builder"] -= 1
    assert _seats(parent) == before
    assert child.players[1].score == before[1][0] + 5
    assert child.players[0] is parent.players[0]  # untouched seats stay shared


def test_changing_the_parent_after_cloning_leaves_the_clone_as_it_was() -> None:
    parent = new_game(GameSetup(players=2), seed=2)
    child = parent.clone()
    before = _seats(child)
    parent.player(Seat(0)).score += 3
    parent.player(Seat(0)).supply["follower"] -= 2
    assert _seats(child) == before
    grandchild = child.clone()
    grandchild.player(Seat(0)).score += 1
    assert _seats(child) == before and parent.players[0].score == 3
