"""Legal choices for the pickers and autocomplete, asked of the engine.

Cells come from ``Outcome.placements`` and figure placements from ``Outcome.deploys`` or
:meth:`MatchService.candidate` (the real state, so expansion figures are included). As a
fallback for an outcome without placements, this module rebuilds a *shadow* game state from
the public view: the board (tiles in placement order, then
the figures), the seats' supplies, the step and the drawn tile. The pile is left empty — the
shadow never draws — so nothing hidden is needed. Cell numbers follow
the service's ``Outcome.placements`` so they match the numbers drawn on the board image.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from bot.services.matches import Outcome, numbered_cells
from engine import Deploy, GameState, PlaceTile, Position, PublicView, Rotation, apply
from engine.carcassonne import rules
from engine.carcassonne.board import Board, Meeple
from engine.carcassonne.flow import Ask, Frame, Slot, program_of
from engine.carcassonne.state import PlayerState
from engine.carcassonne.tiles import load_tile_set, tile

NONE_SPOT = "none"
FIGURE_SEP = "+"


@dataclass(frozen=True, slots=True)
class Cell:
    """A numbered legal cell: its number on the image, position and legal rotations."""

    number: int
    pos: Position
    rotations: tuple[Rotation, ...]


def shadow_state(view: PublicView) -> GameState:
    """A state equal to the real one in everything the rules read for placing and deploying."""
    board = Board()
    for tv in view.tiles:
        board.place(tv.pos, tile(tv.tile).rotated(int(tv.rotation)))
    for fig in view.figures:
        placed = board.cells[fig.pos]
        board.add_meeple(Meeple(fig.seat, fig.figure, placed.segs[fig.feature], fig.pos))
    players = [PlayerState(p.score, dict(p.supply)) for p in view.players]
    state = GameState(
        setup=view.setup,
        seed=0,
        board=board,
        players=players,
        pile=(),
        version=view.version,
        turn=view.turn,
        current=view.current,
        step=view.step,
        drawn=view.drawn,
        placed=view.placed,
        discarded=view.discarded,
        last_placed=dict(view.last_placed),
        ext=dict(view.ext),
    )
    # TEMPORARY (issue 9 phase 2 replaces the shadow state with the engine's preview)
    prog = program_of(view.setup)
    step = "core.place" if view.step == "place" else "core.deploy"
    slot = Slot.PLACE if view.step == "place" else Slot.DEPLOY
    state.flow = (Frame(prog.first(slot), len(prog.steps), view.current),)
    state.asks = (Ask("shadow", view.current, step, 0),)
    return state


def cells(outcome: Outcome) -> list[Cell]:
    """Every legal cell for the drawn tile, numbered as on the board image (1-based).

    The service lists them in numbering order (``Outcome.placements``); the shadow state is
    the fallback for an outcome without them.
    """
    view = outcome.view
    if view.step != "place" or view.drawn is None:
        return []
    placements = outcome.placements or numbered_cells(rules.legal_placements(shadow_state(view)))
    return [Cell(i + 1, pos, tuple(rots)) for i, (pos, rots) in enumerate(placements.items())]


def cell(outcome: Outcome, number: int) -> Cell | None:
    for c in cells(outcome):
        if c.number == number:
            return c
    return None


def spots_after(view: PublicView, pos: Position, rotation: Rotation) -> list[str]:
    """Follower spots legal after placing the drawn tile (base game only, from the shadow).

    The front end asks the service instead (:meth:`MatchService.candidate`), which knows
    every figure kind; this stays for checks that only have a public view."""
    state = shadow_state(view)
    tr = apply(state, view.current, PlaceTile(pos, rotation))
    return [d.spot for d in rules.legal_deploys(tr.state) if d.figure == "follower"]


def deploys_now(outcome: Outcome) -> list[Deploy]:
    """Figure placements legal now (the deploy step of the current turn), in engine order."""
    if outcome.view.step != "deploy":
        return []
    return list(outcome.deploys)


def choice_key(deploy: Deploy) -> str:
    """The value of a deploy in a button or an autocomplete: ``city:N`` for a follower,
    ``large+city:N`` for another figure (``+`` is allowed in custom ids)."""
    if deploy.figure == "follower":
        return deploy.spot
    return f"{deploy.figure}{FIGURE_SEP}{deploy.spot}"


def find_choice(text: str, deploys: list[Deploy]) -> Deploy | None:
    """The legal deploy a typed or clicked value names (a bare spot means a follower)."""
    want = text.strip().lower()
    for d in deploys:
        if choice_key(d).lower() == want:
            return d
    return None


def remaining_tiles(view: PublicView) -> dict[str, int]:
    """Tiles not yet drawn, by type: the tile data minus placed, discarded and drawn tiles."""
    total: Counter[str] = Counter()
    for set_id in rules.tile_sets_of(view.setup):
        for td in load_tile_set(set_id):
            if td.in_pile:
                total[td.id] += td.count
    used = Counter(tv.tile for tv in view.tiles)
    used.update(view.discarded)
    if view.drawn is not None:
        used[view.drawn] += 1
    out = {tid: n - used.get(tid, 0) for tid, n in total.items()}
    return {tid: n for tid, n in sorted(out.items()) if n > 0}
