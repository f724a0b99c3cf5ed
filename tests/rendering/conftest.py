"""Real games for the renderer: views come from the engine's public API only."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from engine import (
    GameSetup,
    GameState,
    Pass,
    PlaceTile,
    PublicView,
    apply,
    legal_deploys,
    legal_placements,
    new_game,
    pending,
    public_view,
)
from engine.carcassonne.randomplay import choose_answer
from engine.core.rng import Rng

NAMES = ("Ana", "Борис", "Ελένη", "Zoë", "Max", "Olaf")


def play(
    turns: int,
    *,
    seed: int = 1,
    players: int = 4,
    expansions: Sequence[str] = (),
    deploy_p: float = 0.7,
    stop_at_deploy: bool = False,
) -> tuple[GameState, list[PublicView]]:
    """Play ``turns`` random legal turns; return the state and one public view per turn."""
    state = new_game(
        GameSetup(players=players, expansions=tuple(expansions), names=NAMES[:players]), seed=seed
    )
    rnd = random.Random(seed)
    views = [public_view(state)]
    choices = Rng(seed)
    for n in range(turns):
        state = _other_decisions(state, choices)
        if state.step == "over":
            break
        pl = legal_placements(state)
        if pl:
            pos = sorted(pl)[rnd.randrange(len(pl))]
            rot = pl[pos][rnd.randrange(len(pl[pos]))]
            state = apply(state, state.current, PlaceTile(pos, rot)).state
        else:  # the tile fits only as an expansion allows (a bridge laid with it)
            d = pending(state)[0]
            state = apply(state, d.seat, choose_answer(d, choices), key=d.key).state
        state = _other_decisions(state, choices)
        if state.step == "deploy":
            if stop_at_deploy and n == turns - 1:
                return state, views
            ds = legal_deploys(state)
            if ds and rnd.random() < deploy_p:
                state = apply(state, state.current, ds[rnd.randrange(len(ds))]).state
            else:
                state = apply(state, state.current, Pass()).state
        state = _other_decisions(state, choices)
        views.append(public_view(state))
    return state, views


def _other_decisions(state: GameState, rng: Rng) -> GameState:
    """Answer at random every open decision other than placing a tile or deploying (an
    expansion's: a bridge, a castle, a market's bids ...)."""
    while not state.over:
        d = pending(state)[0]
        if d.kind in ("core.place", "core.deploy"):
            break
        state = apply(state, d.seat, choose_answer(d, rng), key=d.key).state
    return state


@pytest.fixture(scope="session")
def midgame() -> tuple[GameState, list[PublicView]]:
    return play(30)
