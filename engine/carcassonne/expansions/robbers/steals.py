"""Stealing points (RULES.md §11.3, OQ-ROB-2, OQ-ROB-6), per tile placement:

1. **Noting** (:func:`note`, ``Expansion.on_track_moved``): from the start of the placement's
   scoring (:class:`OpenStep`, first in slot ``SCORE``) until its robbers are collected, every
   award of more than 0 points (not robber points, not final scoring) that moves a figure of
   another player away from a robber's space is noted. Points moved to another figure after
   the fact (``track.transfer``) take their note with them: the figure that went back no longer
   left the space. Robbers do not move meanwhile.
2. **Stealing** (:class:`StealStep`, last in slot ``AFTER_SCORE``: after scoring, gold and
   messages): each robber with a note steals once, half rounded up of the noted award its
   owner picks (a decision when the picks differ, with the owner's scoring figure that takes
   the loot). All steals are chosen first; then the stealing robbers go home; then the points
   are paid, in turn order from the active seat.
3. **Moving along**: a robber still on the track whose space a figure of another player left
   by these robber points moves along with it, unless a figure of another player still stands
   there; if several left to different spaces, its owner picks which to follow.

A Message-7 tile is a placement inside the message step: its own collection settles every note
pending then (OQ-ROB-6 step 4), so the noting is a count of placements, not a flag.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.carcassonne.actions import Action, Choose, register_action
from engine.carcassonne.events import Event
from engine.carcassonne.flow import Ask, Frame, Result, Step, new_ask, seats_from
from engine.carcassonne.scoring import MAIN, Award, Part, ScoreItem, give
from engine.carcassonne.state import GameState
from engine.carcassonne.track import (
    TrackFigure,
    TrackMove,
    at_space,
    figures,
    find,
    put,
    space,
    take,
    value,
)
from engine.core.decisions import Decision, Option, Prompt, TrackSpace
from engine.core.errors import IllegalActionError
from engine.core.seats import Seat

from .model import (
    CATEGORY,
    FOLLOW,
    ID,
    OPEN_STEP,
    QUIET,
    ROBBER,
    STEAL_STEP,
    Note,
    RobberFollowed,
    RobbersModel,
    RobberStole,
    half,
    model_of,
)

#: a pick: (the robber's owner, the note's index, the owner's figure taking the loot)
Pick = tuple[Seat, int, str]


def note(s: GameState, move: TrackMove) -> Iterable[Award]:
    """Note the steals a figure's move gives rise to (it never pays anything itself)."""
    m = model_of(s.ext)
    item = move.award.item
    if m.noting <= 0 or item.category == CATEGORY or item.final or move.award.points <= 0:
        return ()
    if move.after < move.before:  # the award moved to another figure: this one went back
        kept = tuple(n for n in m.notes if not (n.award == move.award and n.figure == move.figure))
        s.ext[ID] = RobbersModel(kept, m.noting)
        return ()
    left = space(move.before)
    new = tuple(
        Note(r.seat, move.seat, move.figure, move.award.points, move.award)
        for r in figures(s, kind=ROBBER)
        if r.value == left and r.seat != move.seat
    )
    if new:
        s.ext[ID] = RobbersModel(m.notes + new, m.noting)
    return ()


class OpenStep(Step):
    """First in the scoring slot: this placement's awards are noted from now on."""

    id = OPEN_STEP

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        m = s.ext[ID]  # every placement: a shared model when nothing is noted
        n = m.noting + 1
        s.ext[ID] = QUIET[n] if not m.notes and n < len(QUIET) else RobbersModel(m.notes, n)
        return None


def scoring_figures(s: GameState, seat: Seat) -> tuple[str, ...]:
    """``seat``'s scoring figures: its marker, then any scoring figure on the track."""
    return (MAIN, *(f.kind for f in figures(s, seat=seat) if f.scoring))


def choices(s: GameState, seat: Seat) -> tuple[Pick, ...]:
    """What ``seat``'s robber may steal: each distinct noted award (victim, figure, points),
    taken by each of the seat's scoring figures."""
    seen: set[tuple[Seat, str, int]] = set()
    out: list[Pick] = []
    figs = scoring_figures(s, seat)
    for i, n in model_of(s.ext).of(seat):
        key = (n.victim, n.figure, n.points)
        if key in seen:
            continue
        seen.add(key)
        out.extend((seat, i, f) for f in figs)
    return tuple(out)


def _pick_id(pick: Pick, many_figures: bool) -> str:
    return f"{pick[1]}:{pick[2] or 'marker'}" if many_figures else str(pick[1])


class StealStep(Step):
    """Last after scoring: the robbers are collected (steals chosen, robbers home, points
    paid, the others move along)."""

    id = STEAL_STEP
    accepts = (Choose,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        m = s.ext[ID]  # every placement: no call for the model
        n = m.noting - 1 if m.noting > 0 else 0
        if not m.notes:
            s.ext[ID] = QUIET[n] if n < len(QUIET) else RobbersModel((), n)
            return None
        s.ext[ID] = RobbersModel(m.notes, n)
        owners = tuple(o for o in seats_from(s, frame.seat) if m.of(o))
        return self._steal(s, depth, frame.seat, owners, (), events)

    def _steal(
        self,
        s: GameState,
        depth: int,
        active: Seat,
        owners: tuple[Seat, ...],
        picks: tuple[Pick, ...],
        events: list[Event],
    ) -> Result:
        """Pick for each owner (asking when there is a choice), then pay and move along."""
        for i, o in enumerate(owners):
            opts = choices(s, o)
            if len(opts) > 1:
                return (
                    new_ask(
                        s, self, depth, o, phase="steal", active=active,
                        rest=owners[i + 1 :], picks=picks,
                    ),
                )  # fmt: skip
            picks = (*picks, opts[0])
        follows = pay(s, active, picks, events)
        return self._follow(s, depth, follows, events)

    def _follow(
        self,
        s: GameState,
        depth: int,
        follows: tuple[tuple[Seat, tuple[tuple[Seat, int], ...]], ...],
        events: list[Event],
    ) -> Result:
        """Move each robber along (asking its owner when several figures left its space)."""
        for i, (owner, gone) in enumerate(follows):
            if len({sp for _, sp in gone}) > 1:
                rest = follows[i + 1 :]
                return (new_ask(s, self, depth, owner, phase="follow", gone=gone, rest=rest),)
            follow(s, owner, gone[0], events)
        return None

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        assert isinstance(action, Choose)
        if ask.get("phase") == "follow":
            gone: tuple[tuple[Seat, int], ...] = ask.get("gone")
            ids = [_follow_id(g) for g in gone]
            if action.head != FOLLOW or action.value not in ids:
                raise _bad(action.value, ids)
            follow(s, ask.seat, gone[ids.index(action.value)], events)
            return self._follow(s, ask.depth, ask.get("rest"), events)
        opts = choices(s, ask.seat)
        many = len(scoring_figures(s, ask.seat)) > 1
        ids = [_pick_id(p, many) for p in opts]
        if action.head != STEAL_STEP or action.value not in ids:
            raise _bad(action.value, ids)
        picks = (*ask.get("picks"), opts[ids.index(action.value)])
        return self._steal(s, ask.depth, ask.get("active"), ask.get("rest"), picks, events)

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("robbers.err.first")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        if ask.get("phase") == "follow":
            gone: tuple[tuple[Seat, int], ...] = ask.get("gone")
            fopts = tuple(
                Option(
                    _follow_id(g),
                    Choose(FOLLOW, _follow_id(g)),
                    TrackSpace(g[1]),
                    (("space", str(g[1])),),
                    Prompt.of("robbers.space", space=g[1]),
                )
                for g in gone
            )
            return Decision(ask.key, ask.seat, FOLLOW, Prompt.of(FOLLOW), fopts)
        notes = model_of(s.ext).notes
        here = find(s, ask.seat, ROBBER)
        assert here is not None  # a robber with notes stands until it is settled
        many = len(scoring_figures(s, ask.seat)) > 1
        opts = []
        for p in choices(s, ask.seat):
            n = notes[p[1]]
            pid = _pick_id(p, many)
            params = {"victim_seat": n.victim, "of": n.points, "n": half(n.points)}
            facets: tuple[tuple[str, str], ...] = (("steal", str(p[1])),)
            if many:
                fig = Prompt.of(f"fig.{p[2]}") if p[2] else Prompt.of("robbers.marker")
                label = Prompt.of("robbers.take_with", figure=fig, **params)
                facets += (("figure", p[2] or "marker"),)
            else:
                label = Prompt.of("robbers.take", **params)
            where = TrackSpace(here.value)  # the robber's space, which the victims left
            opts.append(Option(pid, Choose(STEAL_STEP, pid), where, facets, label))
        return Decision(ask.key, ask.seat, STEAL_STEP, Prompt.of(STEAL_STEP), tuple(opts))


def _follow_id(gone: tuple[Seat, int]) -> str:
    return f"{int(gone[0]) + 1}:{gone[1]}"


def _bad(value: str, ids: list[str]) -> IllegalActionError:
    names = ", ".join(f"'{i}'" for i in ids)
    return IllegalActionError.keyed("robbers.err.choice", value=value, names=names)


def pay(
    s: GameState, active: Seat, picks: tuple[Pick, ...], events: list[Event]
) -> tuple[tuple[Seat, tuple[tuple[Seat, int], ...]], ...]:
    """Send the stealing robbers home, pay the stolen points, and return the robbers that
    must move along: (owner, ((seat of a figure that left its space, the space it went to),
    ...)) in turn order from ``active``."""
    notes = model_of(s.ext).notes
    for owner, _, _ in picks:
        take(s, owner, ROBBER, events)
    moved: list[tuple[Seat, int, int]] = []  # (seat, space left, space reached)
    for owner, i, fig in picks:
        n = notes[i]
        pts = half(n.points)
        events.append(RobberStole(owner, n.victim, pts, n.points))
        before = value(s, owner, fig)
        parts = (Part("part.robber", victim_seat=n.victim, of=n.points, n=pts),)
        item = ScoreItem(CATEGORY, pts, False, False, parts=parts, winners=(owner,))
        give(s, (Award(owner, pts, item, figure=fig),), item, events)
        moved.append((owner, space(before), space(before + pts)))
    s.ext[ID] = RobbersModel((), model_of(s.ext).noting)
    out = []
    for seat in seats_from(s, active):
        robber = find(s, seat, ROBBER)
        if robber is None:
            continue
        gone = tuple((w, to) for w, left, to in moved if w != seat and left == robber.value)
        if gone and not any(who != seat for who, _ in at_space(s, robber.value)):
            out.append((seat, gone))
    return tuple(out)


def follow(s: GameState, owner: Seat, gone: tuple[Seat, int], events: list[Event]) -> None:
    """Move ``owner``'s robber along with the figure that went to ``gone``."""
    put(s, replace_value(s, owner, gone[1]), events)
    events.append(RobberFollowed(owner, gone[0], gone[1]))


def replace_value(s: GameState, owner: Seat, where: int) -> TrackFigure:
    """``owner``'s robber, standing on ``where``."""
    robber = find(s, owner, ROBBER)
    assert robber is not None
    return robber._replace(value=where)


STEAL = StealStep()
OPEN = OpenStep()
register_action(STEAL_STEP)
register_action(FOLLOW)
