"""Castles (RULES.md §13.3, OQ-CAS-1 … OQ-CAS-4).

* Building: when the seat to move completes a city of exactly 2 segments holding its own
  follower and no other player's, it may build a castle instead of scoring it (``bcb.castle``,
  optional: passing scores the city). One follower stays on the token (a normal one when there
  is a choice), any other figure of the seat in the city goes home. The city is then neither
  scored nor completed for castles; it still splits fields and counts for farms (4, 5 with a
  pig). Goods in it still go to the seat (OQ-TB-4).
* Scoring: the first feature completed with a part on one of the castle's 6 surrounding tiles
  (a cloister only when its own tile is one of them) gives the castle's owner that feature's
  full points, whether or not anyone owns the feature; the follower goes home. Several at
  once: the owner chooses one (``bcb.castle_pick``). A castle that scores counts as a completed
  feature for the next castle around it (chains), each castle scoring once. A castle that never
  scores gives 0 at the end.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from engine.carcassonne.actions import Action, Choose, Pass, register_action
from engine.carcassonne.board import Feature
from engine.carcassonne.events import Event, FiguresReturned
from engine.carcassonne.featurescore import feature_item
from engine.carcassonne.figures import is_follower
from engine.carcassonne.flow import Ask, Frame, Result, Step, new_ask
from engine.carcassonne.geometry import Position
from engine.carcassonne.placement import spot_name
from engine.carcassonne.scoring import Part, ScoreItem, award
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind
from engine.core.decisions import Decision, FeatureRef, Option, Prompt
from engine.core.errors import IllegalActionError
from engine.core.seats import Seat

from .model import Candidate, Castle, CastleBuilt, model, put
from .texts import ID


def eligible(s: GameState, seat: Seat) -> list[int]:
    """The small cities the tile just placed completed that ``seat`` may turn into castles:
    2 segments, its own follower there and nobody else's (OQ-CAS-1)."""
    if s.placed is None:
        return []
    board = s.board
    placed = board.cells[s.placed]
    out: list[int] = []
    for index in placed.rt.closables:  # its roads and cities
        rep = board.root[placed.segs[index]]
        feat = board.features[rep]
        if feat.kind is not FeatureKind.CITY:
            continue
        if rep in out or feat.open or feat.done or len(feat.segs) != 2 or len(feat.tiles) != 2:
            continue
        followers = [m for m in feat.meeples if m.seat >= 0 and is_follower(m.figure)]
        if followers and all(m.seat == seat for m in followers):
            out.append(rep)
    return out


def _spot_of(s: GameState, rep: int, pos: Position) -> str:
    """The spot name of the feature ``rep`` on the tile at ``pos``."""
    cell = s.board.cells[pos]
    for i, seg in enumerate(cell.segs):
        if s.board.root[seg] == rep:
            return spot_name(cell.rt, i)
    return ""


def build(s: GameState, seat: Seat, rep: int, events: list[Event]) -> None:
    """Turn the completed small city ``rep`` into ``seat``'s castle."""
    board = s.board
    feat = board.features[rep]
    mine = [m for m in feat.meeples if m.seat == seat]
    followers = [m for m in mine if is_follower(m.figure)]
    stays = next((m for m in followers if m.figure == "follower"), followers[0])
    removed = board.remove_meeples(rep, mine)
    home: dict[str, int] = {}
    for fig in removed:
        if fig is not stays:
            home[fig.figure] = home.get(fig.figure, 0) + 1
    player = s.player(seat)
    for figure, n in sorted(home.items()):
        player.supply[figure] = player.supply.get(figure, 0) + n
        events.append(FiguresReturned(seat, figure, n))
    done = board.features[rep].copy()
    done.done = True
    board.set_feature(rep, done)
    a, b = sorted(feat.tiles)
    m = model(s)
    left = list(m.castles_left)
    left[seat] -= 1
    castle = Castle(seat, (a, b), rep, stays.figure)
    put(s, castles_left=tuple(left), castles=(*m.castles, castle))
    events.append(CastleBuilt(seat, a))
    for e in s.exps:  # goods and the like still go to the seat who closed the walls
        if e.id != ID:
            events.extend(e.on_completed(s, seat, board.features[rep]))


class CastleStep(Step):
    """Before scoring: the seat may turn each small city of its own it completed into a castle."""

    id = "bcb.castle"
    accepts = (Choose,)

    def _next(self, s: GameState, seat: Seat, depth: int, skip: tuple[int, ...]) -> Result:
        if s.ext[ID].castles_left[seat] <= 0:  # every placement: no call for the model
            return None
        for rep in eligible(s, seat):
            if rep not in skip:
                return (new_ask(s, self, depth, seat, city=rep, skip=skip),)
        return None

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        # every placement (the step runs only when castles are played): ``_next`` inline
        if s.placed is None or s.ext[ID].castles_left[frame.seat] <= 0:
            return None
        board = s.board
        placed = board.cells[s.placed]
        root, features, segs = board.root, board.features, placed.segs
        for index in placed.rt.closables:  # a city of the tile closed? (read first: no calls)
            feat = features[root[segs[index]]]
            if not feat.open and feat.kind is FeatureKind.CITY:
                break
        else:
            return None
        for rep in eligible(s, frame.seat):
            return (new_ask(s, self, depth, frame.seat, city=rep, skip=()),)
        return None

    def optional(self, s: GameState, ask: Ask) -> bool:
        return True

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        rep = int(ask.get("city"))
        skip: tuple[int, ...] = ask.get("skip", ())
        if isinstance(action, Choose):
            if action.value != "build":
                raise IllegalActionError.keyed("bcb.err.castle")
            build(s, ask.seat, rep, events)
        elif not isinstance(action, Pass):
            raise IllegalActionError.keyed("bcb.err.castle")
        return self._next(s, ask.seat, ask.depth, (*skip, rep))

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("bcb.err.castle_first")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        rep = int(ask.get("city"))
        pos = s.placed
        assert pos is not None
        spot = _spot_of(s, rep, pos)
        build_it = Option(
            "build",
            Choose(self.id, "build"),
            FeatureRef(pos.x, pos.y, spot),
            label=Prompt.of("opt.bcb.castle"),
        )
        return self.passable(ask, (build_it,), n=model(s).castles_left[ask.seat])


# ------------------------------------------------------------------------------ scoring
def _cloister_pos(feature: Feature) -> Position | None:
    if feature.kind is FeatureKind.CLOISTER:
        (pos,) = feature.tiles
        return Position(*pos)
    return None


def note_completed(s: GameState, feature: Feature) -> None:
    """A feature completed in this scoring: a candidate for every waiting castle around it."""
    m = model(s)
    if not any(c.points is None for c in m.castles):
        return
    cpos = _cloister_pos(feature)
    tiles = frozenset((cpos,)) if cpos is not None else feature.tiles
    rep = s.board.root[feature.segs[0]]
    found: list[Candidate] = []
    points: int | None = None
    for i, castle in enumerate(m.castles):
        if castle.points is not None:
            continue
        near = sorted(tiles & castle.vicinity)
        if not near:
            continue
        if points is None:
            item = feature_item(s, feature, complete=True, final=False, cloister_pos=cpos)
            points = item.points
        pos = Position(*near[0])
        found.append(Candidate(i, points, feature.kind.value, pos, _spot_of(s, rep, pos)))
    if found:
        put(s, candidates=(*m.candidates, *found))


def _score(s: GameState, index: int, cand: Candidate, events: list[Event]) -> None:
    """Castle ``index`` scores ``cand``; the follower goes home; castles around it get it as a
    completed feature (chains, OQ-CAS-2)."""
    m = model(s)
    castle = m.castles[index]
    item = ScoreItem(
        "castle",
        cand.points,
        True,
        False,
        tiles=2,
        parts=(Part(f"part.castle.{cand.kind}", points=cand.points),),
        winners=(castle.owner,),
        where=tuple(castle.tiles),
    )
    award(s, item, events)
    player = s.player(castle.owner)
    player.supply[castle.figure] = player.supply.get(castle.figure, 0) + 1
    events.append(FiguresReturned(castle.owner, castle.figure, 1))
    m = model(s)
    castles = list(m.castles)
    castles[index] = replace(castle, figure="", points=cand.points)
    rest = [c for c in m.candidates if c.castle != index]
    for j, other in enumerate(castles):
        if j == index or other.points is not None or any(c.castle == j for c in rest):
            continue
        near = sorted(set(castle.tiles) & other.vicinity)
        if near:
            pos = near[0]
            rest.append(Candidate(j, cand.points, "castle", pos, _spot_of(s, castle.seg, pos)))
    put(s, castles=tuple(castles), candidates=tuple(rest))


def _choices(s: GameState, index: int) -> list[Candidate]:
    """The distinct features castle ``index`` may score now."""
    out: list[Candidate] = []
    for c in model(s).candidates:
        if c.castle == index and all((c.pos, c.spot) != (o.pos, o.spot) for o in out):
            out.append(c)
    return out


class CastleScoreStep(Step):
    """After scoring: every castle with a completed feature around it scores (its owner picks
    when several completed at once), then castles around it in turn (chains)."""

    id = "bcb.castle_pick"
    idle_unless = (ID, "candidates")
    accepts = (Choose,)

    def _resolve(self, s: GameState, depth: int, events: list[Event]) -> Result:
        while True:
            m = model(s)
            waiting = sorted({c.castle for c in m.candidates})
            if not waiting:
                return None
            index = waiting[0]
            choices = _choices(s, index)
            if len(choices) > 1:
                owner = m.castles[index].owner
                return (new_ask(s, self, depth, owner, castle=index),)
            _score(s, index, choices[0], events)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        if ID not in s.ext or not model(s).candidates:
            return None
        return self._resolve(s, depth, events)

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        assert isinstance(action, Choose)
        index = int(ask.get("castle"))
        choices = _choices(s, index)
        try:
            cand = choices[int(action.value)]
        except (ValueError, IndexError):
            raise IllegalActionError.keyed("bcb.err.castle_pick") from None
        _score(s, index, cand, events)
        return self._resolve(s, ask.depth, events)

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("bcb.err.castle_pick_first")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        index = int(ask.get("castle"))
        castle = model(s).castles[index]
        opts = tuple(
            Option(
                str(i),
                Choose(self.id, str(i)),
                FeatureRef(c.pos.x, c.pos.y, c.spot),
                label=Prompt.of(
                    "bcb.castle_pick.option", kind=Prompt.of(f"bcb.kind.{c.kind}"), points=c.points
                ),
            )
            for i, c in enumerate(_choices(s, index))
        )
        a = castle.tiles[0]
        return Decision(ask.key, ask.seat, self.id, Prompt.of(self.id, x=a.x, y=a.y), opts)


# ------------------------------------------------------------------------------ farms, end
def castle_reps(s: GameState) -> set[int]:
    return {s.board.root[c.seg] for c in model(s).castles}


def adjust_farm(s: GameState, feature: Feature, item: ScoreItem) -> ScoreItem:
    """A castle in a farm is worth one more than a city (4; 5 with a pig: the pig's +1 per
    city counts it too)."""
    castles = castle_reps(s)
    if not castles:
        return item
    root = s.board.root
    n = len({root[c] for c in feature.cities} & castles)
    if not n:
        return item
    parts = (*item.parts, Part.plural("part.castles", n))
    return replace(item, points=item.points + n, parts=parts)


def first_edition_bonus(s: GameState, item: ScoreItem) -> tuple[int, str] | None:
    """Edition A pays per city: a castle's line pays 4 (OQ-FARM-2)."""
    if item.units != 1 or not model(s).castles:
        return None
    where = tuple(item.where)
    if any(tuple(c.tiles) == where for c in model(s).castles):
        return 1, Part.plural("part.castles", 1)
    return None


def final(s: GameState) -> Iterable[Event]:
    """Castles that never scored: 0 points each (rule 12); their followers go home."""
    events: list[Event] = []
    m = model(s)
    castles = list(m.castles)
    for i, c in enumerate(castles):
        if c.points is not None:
            continue
        item = ScoreItem(
            "castle",
            0,
            False,
            True,
            tiles=2,
            parts=(Part("part.castle_unfinished"),),
            winners=(c.owner,),
            where=tuple(c.tiles),
        )
        award(s, item, events)
        player = s.player(c.owner)
        player.supply[c.figure] = player.supply.get(c.figure, 0) + 1
        events.append(FiguresReturned(c.owner, c.figure, 1))
        castles[i] = replace(c, figure="", points=0)
    put(s, castles=tuple(castles))
    return events


register_action(CastleStep.id, ("build",))
register_action(CastleScoreStep.id)
