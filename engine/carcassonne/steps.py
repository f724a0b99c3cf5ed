"""The base game's steps: draw, place, react, deploy, score, end (RULES.md §2).

Each is a :class:`~engine.carcassonne.flow.Step` registered in its slot; expansions add theirs
around them (``Expansion.steps``). The place and deploy steps are the base game's two
decisions: ``core.place`` (facets cell → rotation) and ``core.deploy`` (facets spot → figure,
optional: passing deploys nothing).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.carcassonne.actions import Action, Deploy, Pass, PlaceTile
from engine.carcassonne.board import Meeple, PlacedTile, north_first
from engine.carcassonne.events import (
    Event,
    FigureDeployed,
    TileDiscarded,
    TileDrawn,
    TilePlaced,
)
from engine.carcassonne.expansion import guard_passes
from engine.carcassonne.featurescore import final_scoring, score_completed
from engine.carcassonne.fits import ROTATIONS_OF_MASK, fits_table, offered_masks
from engine.carcassonne.flow import (
    Ask,
    Frame,
    Result,
    Slot,
    Step,
    StepSpec,
    new_ask,
    register_core,
)
from engine.carcassonne.geometry import Position, Rotation
from engine.carcassonne.placement import (
    CORNER_SPOTS,
    can_place,
    deploy_allowed,
    deploy_refused,
    deploy_target,
    extra_deploys,
    extra_masks,
    legal_deploys,
    parse_spot,
    placement_masks,
    refuse_placement,
    spot_name,
)
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import tile
from engine.core import messages
from engine.core.decisions import Cell, Decision, Option, Prompt
from engine.core.errors import IllegalActionError
from engine.core.seats import Seat

messages.register(
    {
        "core.place": ("Place your tile: {tile}.", "Coloca tu pieza: {tile}."),
        "core.deploy": (
            "Put a figure on the tile you placed, or pass.",
            "Pon una figura en la pieza que has colocado, o pasa.",
        ),
        "facet.cell": ("cell", "casilla"),
        "facet.rotation": ("rotation", "giro"),
        "facet.spot": ("spot", "lugar"),
        "facet.figure": ("figure", "figura"),
        "fig.follower": ("follower", "seguidor"),
        "err.placement": ("That placement is not allowed.", "Esa colocación no está permitida."),
        "err.place_first": ("Place your tile first.", "Primero coloca tu pieza."),
        "err.deploy_or_pass": (
            "You have already placed your tile: deploy a figure or pass.",
            "Ya has colocado tu pieza: pon una figura o pasa.",
        ),
    }
)


_ROT_NAMES = tuple(r.notation() for r in Rotation)


class _Actions(dict[Position, tuple[tuple[PlaceTile, ...], ...]]):
    """For each cell, for each 4-bit rotation mask, the ``PlaceTile`` of those rotations:
    shared values (the place decision's answers are rebuilt on every turn; the actions are
    immutable)."""

    def __missing__(self, pos: Position) -> tuple[tuple[PlaceTile, ...], ...]:
        if len(self) > 50_000:
            self.clear()
        one = tuple(PlaceTile(pos, r) for r in Rotation)
        acts = self[pos] = tuple(tuple(one[r] for r in rots) for rots in ROTATIONS_OF_MASK)
        return acts


_AT = _Actions()


class DrawStep(Step):
    """Draw the next tile that fits somewhere; discard those that fit nowhere (§2.4.4).
    An empty pile ends the game with final scoring."""

    id = "core.draw"
    changes_flow = True

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        held = s.drawn
        if held is not None:  # an expansion handed the seat a tile (a market's): play that one
            s.placed = None
            if can_place(s, tile(held)):
                events.append(TileDrawn(frame.seat, held))
                return None
            s.drawn = None
            s.discarded = s.discarded + (held,)
            events.append(TileDiscarded(frame.seat, held))
        limit = s.setup.draw_limit
        while s.pile_pos < len(s.pile) and (limit is None or s.pile_pos < limit):
            tid = s.pile[s.pile_pos]
            s.pile_pos += 1
            if can_place(s, tile(tid)):
                s.drawn = tid
                s.placed = None
                events.append(TileDrawn(frame.seat, tid))
                return None
            s.discarded = s.discarded + (tid,)
            events.append(TileDiscarded(frame.seat, tid))
        s.drawn = None
        s.placed = None
        s.step = "over"
        s.flow = ()
        s.asks = ()
        final_scoring(s, events)
        return None


class PlaceStep(Step):
    """The seat places the drawn tile."""

    id = "core.place"
    name = "place"
    accepts = (PlaceTile,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        return (new_ask(s, self, depth, frame.seat),)

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        assert isinstance(action, PlaceTile) and s.drawn is not None
        t = tile(s.drawn)
        pos = action.pos if type(action.pos) is Position else Position(*action.pos)
        rot = action.rotation
        if type(rot) is not Rotation:
            rot = Rotation(rot)
        code = s.board.frontier.get(pos)
        if code is None or rot not in fits_table(t)[code]:
            extra = extra_masks(s, t) if s.setup.expansions else {}
            if not extra.get(pos, 0) >> rot & 1:
                raise refuse_placement(s.board, t, pos, rot) or IllegalActionError.keyed(
                    "err.placement"
                )
        placed = s.board.place(pos, t.rotated(rot))
        s.placed = pos
        s.drawn = None
        s.last_placed[ask.seat] = pos
        events.append(TilePlaced(ask.seat, t.id, pos, rot))
        for e in s.hooks.settle_placement:
            events.extend(e.settle_placement(s, placed))
        return None

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("err.place_first")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        drawn = s.drawn

        def answers() -> tuple[PlaceTile, ...]:
            if s.step != "place" or drawn is None:
                return ()
            t = tile(drawn)
            masks = offered_masks(t)
            board = s.board
            frontier = board.frontier
            at = _AT
            out: list[PlaceTile] = []
            extra = extra_masks(s, t) if s.setup.expansions else None
            if extra:
                if not extra.keys() <= frontier.keys():  # off the frontier: no order kept
                    cells = placement_masks(s)
                    for pos in sorted(cells, key=north_first):
                        out += at[pos][cells[pos]]
                    return tuple(out)
                for pos in board.order:  # ``in`` and a lookup: no call per cell
                    m = masks[frontier[pos]]
                    if pos in extra:
                        m |= extra[pos]
                    if m:
                        out += at[pos][m]
            else:
                for pos in board.order:
                    m = masks[frontier[pos]]
                    if m:
                        out += at[pos][m]
            return tuple(out)

        def options() -> tuple[Option, ...]:
            out = []
            for act in answers():
                x, y = act.pos
                cell, r = f"{x},{y}", _ROT_NAMES[act.rotation]
                facets = (("cell", cell), ("rotation", r))
                out.append(Option(f"{cell} {r}", act, Cell(x, y), facets))
            return tuple(out)

        return Decision(
            ask.key, ask.seat, self.id, Prompt.of(self.id, tile=drawn), options, answers=answers
        )


class PlacedStep(Step):
    """Expansions react to the tile just placed (``Expansion.on_placed``)."""

    id = "core.placed"

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        if s.setup.expansions and s.placed is not None:
            placed = s.board.cells[s.placed]
            for e, guard in s.hooks.on_placed_guarded:
                if guard is None or guard_passes(s, guard, placed):
                    events.extend(e.on_placed(s, placed))
        return None


class DeployStep(Step):
    """The seat may put one figure on a feature of the tile it placed, or pass."""

    id = "core.deploy"
    name = "deploy"
    accepts = (Deploy,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        if s.placed is None:
            return None
        return (new_ask(s, self, depth, frame.seat),)

    def optional(self, s: GameState, ask: Ask) -> bool:
        return True

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        if isinstance(action, Pass):
            return None
        assert isinstance(action, Deploy) and s.placed is not None
        seat = ask.seat
        placed = s.board.cells[s.placed]
        # what the expansions offer beside the tile's features (a figure on a corner), found once
        extras = _extra_deploys(s, seat, placed) if s.setup.expansions else ()
        if extras and action in extras:
            done = _deploy_extra(s, seat, placed, action)
            if done is not None:
                events.extend(done)
                return None
        if action.spot in CORNER_SPOTS or any(d.spot == action.spot for d in extras):
            raise deploy_refused(s, placed, None, action.figure)  # a spot, not for this figure
        index = parse_spot(placed.rt, action.spot)
        spot = spot_name(placed.rt, index)
        # the named feature's own test first; the whole list only for a deploy it refuses
        if not deploy_allowed(s, index, action.figure):
            legal = {(d.spot, d.figure) for d in legal_deploys(s)}
            if (spot, action.figure) not in legal:
                raise deploy_refused(s, placed, index, action.figure)
        s.board.add_meeple(Meeple(seat, action.figure, placed.segs[index], placed.pos))
        s.player(seat).supply[action.figure] -= 1
        events.append(FigureDeployed(seat, action.figure, placed.pos, spot))
        return None

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("err.deploy_or_pass")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        pos = s.placed
        assert pos is not None

        def options() -> tuple[Option, ...]:
            out = []
            for d in legal_deploys(s):
                out.append(
                    Option(
                        d.notation().removeprefix("deploy "),
                        d,
                        deploy_target(pos, d.spot),
                        (("spot", d.spot), ("figure", d.figure)),
                    )
                )
            return tuple(out)

        def answers() -> tuple[Deploy, ...]:
            return tuple(legal_deploys(s))

        return self.passable(ask, options, answers=answers)


def _extra_deploys(s: GameState, seat: Seat, placed: PlacedTile) -> list[Deploy]:
    """What the expansions offer ``seat`` beside the tile's features (a corner, a printed
    machine): naming another figure on such a spot is refused for that figure, not the spot."""
    return extra_deploys(s, seat, placed)


def _deploy_extra(
    s: GameState, seat: Seat, placed: PlacedTile, action: Deploy
) -> Iterable[Event] | None:
    """Carry out ``action``, which an expansion offers beside the tile's features (``None``:
    none carried it out)."""
    for e in s.exps:
        done = e.deploy_extra(s, seat, placed, action)
        if done is not None:
            return done
    return None  # pragma: no cover - an offered deploy is always carried out


class ScoreStep(Step):
    """Score every road, city and cloister the placed tile completed; figures return."""

    id = "core.score"

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        if s.placed is not None:
            score_completed(s, s.board.cells[s.placed], events)
        return None


class EndStep(Step):
    """The turn passes to the next seat (root frame only: sub-turns stop before it)."""

    id = "core.end"
    changes_flow = True

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        nxt = (frame.seat + 1) % s.setup.players
        # the next seat's frame (not ``_replace``, which is slow: this runs every turn)
        s.flow = (Frame(frame[0], frame[1], Seat(nxt), frame[3]),) + s.flow[1:]
        s.turn += 1
        return None


for _spec in (
    StepSpec(Slot.DRAW, DrawStep(), 0),
    StepSpec(Slot.PLACE, PlaceStep(), 0),
    StepSpec(Slot.AFTER_PLACE, PlacedStep(), 0),
    StepSpec(Slot.DEPLOY, DeployStep(), 0),
    StepSpec(Slot.SCORE, ScoreStep(), 0),
    StepSpec(Slot.END, EndStep(), 0),
):
    register_core(_spec)
