"""The eight messages (RULES.md §7.3): what each offers the active player and what it does.

A message's options are ``act`` (or ``act.N``, one per feature or follower the player picks
among) and ``seal`` (2 points, option b). Final-scoring values (messages 1–3 and 8) come from
the core's own feature scoring (:func:`engine.carcassonne.featurescore.feature_item` with
``final=True``), so inns, cathedrals and every other expansion's scoring rule apply (§7.3).
Message 7 is played by the flow (:mod:`.steps`), not here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from engine.carcassonne.board import Feature, Meeple, has_follower
from engine.carcassonne.events import Event, FiguresReturned
from engine.carcassonne.featurescore import feature_item
from engine.carcassonne.figures import is_follower
from engine.carcassonne.placement import spot_name
from engine.carcassonne.scoring import Part, ScoreItem, award
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind
from engine.core import messages
from engine.core.decisions import FeatureRef, FigureRef, Prompt, Target
from engine.core.seats import Seat

from .model import CATEGORY, SEAL

#: the feature kind scored by messages 1, 2 and 3
SMALLEST = {"1": FeatureKind.ROAD, "2": FeatureKind.CITY, "3": FeatureKind.CLOISTER}
#: the feature kind counted by messages 5 (knights) and 6 (farmers)
COUNTED = {"5": FeatureKind.CITY, "6": FeatureKind.FIELD}


class Choice(NamedTuple):
    """One option of a message: its id, its words and, when it picks something on the board,
    where that is."""

    id: str
    label: Prompt
    target: Target | None = None


def _features(s: GameState) -> Iterator[tuple[int, Feature]]:
    return s.board.iter_features()


def final_value(s: GameState, feat: Feature) -> ScoreItem:
    """What ``feat`` (a road, city or cloister) would score in final scoring, whoever holds it
    (RULES.md OQ-MSG-9: the feature's own value, as if the player held the majority)."""
    cpos = next(iter(feat.tiles)) if feat.kind is FeatureKind.CLOISTER else None
    return feature_item(s, feat, complete=False, final=True, cloister_pos=cpos)


def smallest(s: GameState, seat: Seat, kind: FeatureKind) -> list[tuple[Feature, ScoreItem]]:
    """The features of ``kind`` where ``seat`` has a follower that would score fewest in final
    scoring (all of them on a tie: the player picks, OQ-MSG-9)."""
    found = [
        (f, final_value(s, f))
        for _, f in _features(s)
        if f.kind is kind and not f.done and has_follower(f, seat)
    ]
    if not found:
        return []
    low = min(item.points for _, item in found)
    return [(f, item) for f, item in found if item.points == low]


def own_followers(s: GameState, seat: Seat) -> list[Meeple]:
    """``seat``'s followers on the board, north to south, west to east (message 8)."""
    out = [m for m in s.board.meeples() if m.seat == seat and is_follower(m.figure)]
    out.sort(key=lambda m: (m.pos.y, m.pos.x, m.seg, m.figure))
    return out


def _spot(s: GameState, m: Meeple) -> str:
    cell = s.board.cells[m.pos]
    return spot_name(cell.rt, cell.segs.index(m.seg))


def _where(s: GameState, feat: Feature, seat: Seat) -> Target:
    """A feature named by one of ``seat``'s followers on it."""
    m = next(m for m in feat.meeples if m.seat == seat and is_follower(m.figure))
    return FeatureRef(m.pos.x, m.pos.y, _spot(s, m))


def count_shields(s: GameState, seat: Seat) -> int:
    """Shields of every city where ``seat`` has a follower (message 4)."""
    return sum(
        f.pennants
        for _, f in _features(s)
        if f.kind is FeatureKind.CITY and not f.done and has_follower(f, seat)
    )


def count_figures(s: GameState, seat: Seat, kind: FeatureKind) -> int:
    """``seat``'s follower figures on features of ``kind`` (knights: cities; farmers: fields;
    a large follower counts once, OQ-MSG-4)."""
    return sum(
        1
        for m in s.board.meeples()
        if m.seat == seat and is_follower(m.figure) and s.board.feature_of(m.seg).kind is kind
    )


def removal_item(s: GameState, seat: Seat, m: Meeple) -> tuple[ScoreItem, Feature]:
    """What message 8 scores for ``seat``'s follower ``m``: its feature for ``seat`` alone under
    final-scoring rules when ``seat`` holds the majority (a tie counts, OQ-MSG-4), else 0."""
    feat = s.board.feature_of(m.seg)
    if seat not in feat.winners():
        item = ScoreItem(CATEGORY, 0, False, False, parts=(Part("part.dispatches.no_majority"),))
        return item, feat
    if feat.kind is FeatureKind.FIELD:
        cities = {
            s.board.root[c] for c in feat.cities if s.board.features[s.board.root[c]].open == 0
        }
        n = len(cities)
        item = ScoreItem(
            "farm", 3 * n, False, True, parts=(Part.plural("part.cities", n, k=3),), units=n
        )
        for e in s.hooks.score_feature:
            item = e.score_feature(s, feat, item)
        return item, feat
    if feat.kind in (FeatureKind.ROAD, FeatureKind.CITY, FeatureKind.CLOISTER):
        return final_value(s, feat), feat
    return ScoreItem(CATEGORY, 0, False, False), feat  # a castle scores nothing (OQ-MSG-4)


def choices(s: GameState, seat: Seat, card: str) -> tuple[Choice, ...]:
    """The options of message ``card`` for ``seat``: its action(s), then the wax seal."""
    seal = Choice("seal", Prompt.of("dispatches.seal"))
    nothing = Choice("act", Prompt.of("dispatches.act.nothing"))
    acts: list[Choice] = []
    if card in SMALLEST:
        for i, (f, item) in enumerate(smallest(s, seat, SMALLEST[card])):
            where = _where(s, f, seat)
            assert isinstance(where, FeatureRef)
            label = Prompt.of(
                "dispatches.act.feature",
                kind=messages.Phrase(f"dispatches.kind.{f.kind.value}"),
                cell=f"{where.x},{where.y}",
                n=item.points,
            )
            acts.append(Choice(f"act.{i}", label, where))
    elif card == "4":
        n = 2 * count_shields(s, seat)
        acts.append(Choice("act", Prompt.of("dispatches.act.points", n=n)))
    elif card in COUNTED:
        n = 2 * count_figures(s, seat, COUNTED[card])
        acts.append(Choice("act", Prompt.of("dispatches.act.points", n=n)))
    elif card == "7":
        if s.tiles_left > 0:
            acts.append(Choice("act", Prompt.of("dispatches.act.tile")))
    elif card == "8":
        for i, m in enumerate(own_followers(s, seat)):
            item, _ = removal_item(s, seat, m)
            label = Prompt.of(
                "dispatches.act.remove",
                figure=messages.Phrase(f"fig.{m.figure}"),
                cell=m.pos.notation(),
                n=item.points,
            )
            target = FigureRef(m.pos.x, m.pos.y, _spot(s, m), m.figure, seat)
            acts.append(Choice(f"act.{i}", label, target))
    return (*(acts or [nothing]), seal)


def _give(s: GameState, seat: Seat, n: int, parts: tuple[str, ...], events: list[Event]) -> None:
    item = ScoreItem(CATEGORY, n, False, False, parts=parts, winners=(seat,))
    award(s, item, events)


def carry_out(s: GameState, seat: Seat, card: str, choice: str, events: list[Event]) -> None:
    """Do what option ``choice`` of message ``card`` says (message 7 excepted: the flow plays
    its tile). An action with nothing to do does nothing (OQ-MSG-3)."""
    if choice == "seal":
        _give(s, seat, SEAL, (Part("part.dispatches.seal"),), events)
        return
    index = int(choice.partition(".")[2] or 0)
    if card in SMALLEST:
        found = smallest(s, seat, SMALLEST[card])
        if found:
            _, item = found[index]
            if item.points:
                item = ScoreItem(
                    CATEGORY,
                    item.points,
                    False,
                    False,
                    tiles=item.tiles,
                    pennants=item.pennants,
                    parts=item.parts,
                    winners=(seat,),
                    where=item.where,
                )
                award(s, item, events)
    elif card == "4":
        n = count_shields(s, seat)
        if n:
            _give(s, seat, 2 * n, (Part.plural("part.dispatches.shields", n),), events)
    elif card in COUNTED:
        n = count_figures(s, seat, COUNTED[card])
        word = "knights" if card == "5" else "farmers"
        if n:
            _give(s, seat, 2 * n, (Part.plural(f"part.dispatches.{word}", n),), events)
    elif card == "8":
        followers = own_followers(s, seat)
        if followers:
            _remove(s, seat, followers[index], events)


def _remove(s: GameState, seat: Seat, m: Meeple, events: list[Event]) -> None:
    """Message 8: score the follower's feature for ``seat`` alone (with the majority), then the
    follower goes back to the supply, with or without the majority (§7.3)."""
    item, feat = removal_item(s, seat, m)
    if item.points:
        mine = ScoreItem(
            item.category,
            item.points,
            False,
            False,
            tiles=item.tiles,
            pennants=item.pennants,
            parts=item.parts,
            winners=(seat,),
            where=item.where,
            units=item.units,
        )
        award(s, mine, events, (feat,))
    s.board.remove_meeples(s.board.root[m.seg], (m,))
    p = s.player(seat)
    p.supply[m.figure] = p.supply.get(m.figure, 0) + 1
    events.append(FiguresReturned(seat, m.figure, 1))
