"""The Oracle's use of every capability the expansions still to come need (issue 20).

Each part is switched on by its own match option, off by default, so a plain Oracle game is
the game it always was. The die is the core's public die (``chance.roll_die``, forcible with
``GameSetup.forced``); most parts wake on one face of it:

* ``oracle.links`` — **features re-routed** (the ferries): after the follower step the seat may
  link two road ends of a junction it placed, or re-link (or unlink) a junction linked before
  anywhere on the board (``Board.reconnect``); roads a re-link completes away from the new tile
  score in the scoring slot (``featurescore.score_features``);
* ``oracle.ravens`` — **figures on the scoring track** (robbers, the messenger): each seat has a
  *shadow*, a second scoring figure that takes the points of its right guesses; after a 6 the
  roller may put its *raven* on a space holding another seat's scoring figure; when such a
  figure leaves the raven's space, the raven's owner scores 1 and the raven goes home (ravens'
  points feed no raven);
* ``oracle.acorns`` — **tokens on tiles** (gold): after a 5 an acorn goes on the tile just
  placed; a completed feature's winners share the acorns on the tiles it covers, one at a time
  from the active seat in turn order; without winners they stay;
* ``oracle.round`` — **a decision of every seat in turn order** (crop circles): after a 3, each
  seat from the roller's left round to the roller may add a follower from its supply beside
  one of its own on an unscored road, or pass; a seat with nothing to do is skipped;
* ``oracle.omens`` — **a pile of cards other than tiles** (messages): a hidden deck of six
  omens shuffled at the start; after a 4 the roller draws the top one, shown to everyone (the
  sun scores 2), and puts it under the deck.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from engine.carcassonne.actions import Action, Choose, register_action
from engine.carcassonne.board import Feature, Meeple
from engine.carcassonne.chance import draw, new_pile, put_under
from engine.carcassonne.events import Event, FigureDeployed
from engine.carcassonne.featurescore import score_features
from engine.carcassonne.flow import Ask, Frame, Result, SeatByTurnStep, Step, new_ask, seats_from
from engine.carcassonne.geometry import Position
from engine.carcassonne.placement import spot_name
from engine.carcassonne.scoring import Award, ScoreItem, award
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind
from engine.carcassonne.tokens import CellTokens, feature_area, share_out
from engine.carcassonne.track import TrackFigure, TrackMove, at_space, figures, put, space, take
from engine.core import messages
from engine.core.decisions import Cell, Decision, FeatureRef, Prompt, TrackSpace
from engine.core.decisions import Option as Answer
from engine.core.errors import IllegalActionError
from engine.core.seats import Seat

ID = "oracle"
LINKS, RAVENS, ACORNS, ROUND, OMENS = (
    "oracle.links",
    "oracle.ravens",
    "oracle.acorns",
    "oracle.round",
    "oracle.omens",
)
DIE = "oracle.die"
DECK = "oracle.deck"
SHADOW, RAVEN = "oracle.shadow", "oracle.raven"
OMEN_CARDS = ("sun", "moon", "star", "comet", "rain", "wind")

messages.register(
    {
        "oracle.link": ("Link two road ends of a junction, or pass.", "Une dos caminos, o pasa."),
        "oracle.linked": ("{seat} re-links the junction at {cell}.", "{seat} une en {cell}."),
        "oracle.raven": (
            "Put your raven beside another player's figure on the score track, or pass.",
            "Pon tu cuervo junto a la figura de otro jugador en el marcador, o pasa.",
        ),
        "oracle.join": (
            "Add a follower beside one of yours on a road, or pass.",
            "Añade un seguidor junto a uno tuyo en un camino, o pasa.",
        ),
        "oracle.omen": ("{seat} draws the omen: {card}.", "{seat} roba el presagio: {card}."),
        "oracle.acorns": ("{n} {n:acorn|acorns}", "{n} {n:bellota|bellotas}"),
        "fig.oracle.shadow": ("shadow", "sombra"),
        "fig.oracle.raven": ("raven", "cuervo"),
    }
)


@dataclass(frozen=True, slots=True)
class MoreModel:
    """What the capability parts keep: all public."""

    #: segments re-routed this turn, scored in the scoring slot
    relinked: tuple[int, ...] = ()
    acorns: CellTokens = CellTokens()
    #: acorns each seat holds
    held: tuple[int, ...] = ()
    #: the last omen drawn
    omen: str | None = None


@dataclass(frozen=True, slots=True)
class Relinked(Event):
    seat: Seat
    pos: Position
    groups: tuple[tuple[int, ...], ...]

    def prompt(self) -> Prompt:
        return Prompt.of("oracle.linked", seat=self.seat, cell=f"{self.pos.x},{self.pos.y}")


@dataclass(frozen=True, slots=True)
class OmenDrawn(Event):
    seat: Seat
    card: str

    def prompt(self) -> Prompt:
        return Prompt.of("oracle.omen", seat=self.seat, card=self.card)


@dataclass(frozen=True, slots=True)
class AcornsTaken(Event):
    taken: tuple[tuple[Seat, int], ...]


def on(s: GameState, option: str) -> bool:
    return bool(s.setup.option(option, False))


def more(s: GameState) -> MoreModel:
    m = s.ext[ID].more
    assert isinstance(m, MoreModel)
    return m


def _set(s: GameState, **changes: Any) -> None:
    m = s.ext[ID]
    s.ext[ID] = replace(m, more=replace(m.more, **changes))


def _rolled(s: GameState, face: int) -> bool:
    return int(s.ext[ID].last_roll) == face


# ---------------------------------------------------------------------- start of the game
def start(s: GameState) -> None:
    """``Expansion.on_start``: shadows on the track, the omens' deck."""
    if on(s, RAVENS):
        for seat in range(s.setup.players):
            put(s, TrackFigure(Seat(seat), SHADOW, 0, scoring=True))
    if on(s, ACORNS):
        _set(s, held=(0,) * s.setup.players)
    if on(s, OMENS):
        new_pile(s, DECK, OMEN_CARDS)


# ---------------------------------------------------------------------- links (re-routing)
def _junction(s: GameState, pos: Position) -> tuple[int, ...]:
    feats = s.board.cells[pos].rt.tile.features
    ends = tuple(f.index for f in feats if f.kind is FeatureKind.ROAD and f.ends == "junction")
    return ends if len(ends) >= 3 else ()


def _link_choices(s: GameState) -> Iterator[tuple[str, Position, tuple[tuple[int, ...], ...]]]:
    """(value, tile, new groups): link two ends of the new junction, or re-link one before."""
    tiles = [s.placed] if s.placed is not None and s.placed not in s.board.links else []
    tiles += sorted(s.board.links, key=lambda p: (p.y, p.x))
    for pos in tiles:
        if pos is None:
            continue
        ends = _junction(s, pos)
        now = s.board.links.get(pos, ())
        if now:
            yield f"{pos.x},{pos.y}:-", pos, ()
        for a in ends:
            for b in ends:
                if a < b and ((a, b),) != now:
                    yield f"{pos.x},{pos.y}:{a}+{b}", pos, ((a, b),)


class LinkStep(Step):
    id = "oracle.link"
    accepts = (Choose,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        if not on(s, LINKS) or next(_link_choices(s), None) is None:
            return None
        return (new_ask(s, self, depth, frame.seat),)

    def optional(self, s: GameState, ask: Ask) -> bool:
        return True

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        if not isinstance(action, Choose):
            return None
        chosen = next((c for c in _link_choices(s) if c[0] == action.value), None)
        if chosen is None:
            raise IllegalActionError("That is no link you may make.")
        _, pos, groups = chosen
        reps = s.board.reconnect(pos, groups)
        segs = tuple(sg for r in reps for sg in s.board.features[r].segs)
        _set(s, relinked=more(s).relinked + segs)
        events.append(Relinked(ask.seat, pos, groups))
        return None

    def decision(self, s: GameState, ask: Ask) -> Decision:
        def options() -> tuple[Answer, ...]:
            return tuple(
                Answer(v, Choose(self.id, v), Cell(p.x, p.y), (("tile", v.split(":")[0]),))
                for v, p, _ in _link_choices(s)
            )

        return self.passable(ask, options)


class LinkScoreStep(Step):
    """Roads a re-link completed (away from the new tile too) score with the turn's scoring."""

    id = "oracle.link_score"

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        if on(s, LINKS) and more(s).relinked:
            score_features(s, more(s).relinked, events)
            _set(s, relinked=())
        return None


# ---------------------------------------------------------------------- ravens (the track)
def _raven_spaces(s: GameState, seat: Seat) -> tuple[int, ...]:
    return tuple(sp for sp in range(50) if any(who != seat for who, _ in at_space(s, sp)))


class RavenStep(Step):
    id = "oracle.raven"
    accepts = (Choose,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        if not on(s, RAVENS) or not _rolled(s, 6) or not _raven_spaces(s, frame.seat):
            return None
        return (new_ask(s, self, depth, frame.seat),)

    def optional(self, s: GameState, ask: Ask) -> bool:
        return True

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        if not isinstance(action, Choose):
            return None
        if not action.value.isdigit() or int(action.value) not in _raven_spaces(s, ask.seat):
            raise IllegalActionError("A raven goes beside another player's figure.")
        put(s, TrackFigure(ask.seat, RAVEN, int(action.value)), events)
        return None

    def decision(self, s: GameState, ask: Ask) -> Decision:
        def options() -> tuple[Answer, ...]:
            return tuple(
                Answer(str(sp), Choose(self.id, str(sp)), TrackSpace(sp), (("space", str(sp)),))
                for sp in _raven_spaces(s, ask.seat)
            )

        return self.passable(ask, options)


def raven_steals(s: GameState, move: TrackMove) -> list[Award]:
    """``Expansion.on_track_moved``: a figure leaving a raven's space feeds the raven."""
    if not on(s, RAVENS) or move.after <= move.before or move.award.item.category == RAVEN:
        return []
    out = []
    for raven in figures(s, kind=RAVEN):
        if raven.seat != move.seat and raven.value == space(move.before):
            take(s, raven.seat, RAVEN)
            item = ScoreItem(RAVEN, 1, False, False, parts=("raven 1",), winners=(raven.seat,))
            out.append(Award(raven.seat, 1, item))
    return out


def shadow_awards(item: ScoreItem) -> tuple[Award, ...]:
    """Right guesses go to each winner's shadow."""
    return tuple(Award(seat, item.points, item, figure=SHADOW) for seat in item.winners)


# ---------------------------------------------------------------------- acorns (tokens)
class AcornStep(Step):
    id = "oracle.acorn"

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        if on(s, ACORNS) and _rolled(s, 5) and s.placed is not None:
            _set(s, acorns=more(s).acorns.add(s.placed))
        return None


def share_acorns(s: GameState, seat: Seat, feature: Feature) -> list[Event]:
    """``Expansion.on_completed``: the winners take the acorns on the feature's tiles."""
    winners = feature.winners()
    m = more(s)
    if not on(s, ACORNS) or not winners or not m.acorns.total:
        return []
    n, rest = m.acorns.take(feature_area(s.board, feature))
    if not n:
        return []
    order = tuple(w for w in seats_from(s, seat) if w in winners)
    got = share_out(n, order)
    held = tuple(h + got.get(Seat(i), 0) for i, h in enumerate(m.held))
    _set(s, acorns=rest, held=held)
    return [AcornsTaken(tuple(sorted(got.items())))]


# ---------------------------------------------------------------------- round (turn order)
def _own_road_spots(s: GameState, seat: Seat) -> tuple[tuple[str, Meeple], ...]:
    out = {}
    for f in s.board.live_features():
        if f.kind is not FeatureKind.ROAD or f.done:
            continue
        for m in f.meeples:
            if m.seat == seat and m.figure == "follower":
                placed = s.board.cells[m.pos]
                spot = spot_name(placed.rt, placed.segs.index(m.seg))
                out[f"{m.pos.x},{m.pos.y}@{spot}"] = m
    return tuple(sorted(out.items()))


class JoinRoundStep(SeatByTurnStep):
    id = "oracle.join"
    accepts = (Choose,)

    def round_seats(self, s: GameState, frame: Frame) -> tuple[Seat, ...]:
        if not on(s, ROUND) or not _rolled(s, 3):
            return ()
        return super().round_seats(s, frame)

    def wants(self, s: GameState, seat: Seat) -> bool:
        return s.players[seat].supply.get("follower", 0) > 0 and bool(_own_road_spots(s, seat))

    def optional(self, s: GameState, ask: Ask) -> bool:
        return True

    def answer(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> None:
        if not isinstance(action, Choose):
            return
        spots = dict(_own_road_spots(s, ask.seat))
        beside = spots.get(action.value)
        if beside is None:
            raise IllegalActionError("Add a follower beside one of yours on a road.")
        s.board.add_meeple(Meeple(ask.seat, "follower", beside.seg, beside.pos))
        s.player(ask.seat).supply["follower"] -= 1
        spot = action.value.partition("@")[2]
        events.append(FigureDeployed(ask.seat, "follower", beside.pos, spot))

    def decision(self, s: GameState, ask: Ask) -> Decision:
        def options() -> tuple[Answer, ...]:
            out = []
            for v, m in _own_road_spots(s, ask.seat):
                target = FeatureRef(m.pos.x, m.pos.y, v.partition("@")[2])
                out.append(Answer(v, Choose(self.id, v), target, (("feature", v),)))
            return tuple(out)

        return self.passable(ask, options)


# ---------------------------------------------------------------------- omens (a pile)
class OmenStep(Step):
    id = "oracle.omen"

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        if not on(s, OMENS) or not _rolled(s, 4):
            return None
        card = draw(s, DECK)
        assert isinstance(card, str)
        events.append(OmenDrawn(frame.seat, card))
        _set(s, omen=card)
        if card == "sun":
            item = ScoreItem(
                "oracle.omen", 2, False, False, parts=("sun 2",), winners=(frame.seat,)
            )
            award(s, item, events)
        put_under(s, DECK, card)
        return None


register_action(LinkStep.id)
register_action(RavenStep.id)
register_action(JoinRoundStep.id)
