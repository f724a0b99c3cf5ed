"""A loaded tile-game match as the front ends get it: an :class:`~app.results.Outcome` with
its picture drawn (after the match's lock is released), and the replay animation of a finished
match. A collaborator of :class:`app.matches.MatchService`."""

from __future__ import annotations

import json
import logging
from functools import partial

from app.clocks import deadline_of
from app.options import MatchOptions
from app.painters import Painter, replay_animation
from app.pictures import Pictures, picture_inputs
from app.replay import Game
from app.results import SEAT_COLOURS, Animator, BoardRenderer, Outcome, numbered_cells
from app.store import MatchStore
from app.types import Loaded
from engine import PlaceTile, Position, Rotation, Seat, legal_placements, revealed
from engine.carcassonne.events import Event

log = logging.getLogger(__name__)


class Outcomes:
    """Outcomes and animations of one service's matches (see the module docstring)."""

    def __init__(
        self,
        store: MatchStore[Game],
        pictures: Pictures,
        *,
        renderer: BoardRenderer | None,
        animator: Animator | None,
        animation_painter: Painter,
    ) -> None:
        self.store = store
        self.pictures = pictures
        self.renderer = renderer
        self.animator = animator
        self.animation_painter = animation_painter

    async def outcome(
        self, loaded: Loaded[Game], *, events: tuple[Event, ...] = (), render: bool
    ) -> Outcome:
        row, game = loaded.row, loaded.game
        st = game.state
        view = game.public()
        seats = loaded.seat_infos(SEAT_COLOURS)
        finished = row.status == "finished"
        placements = _placements(game) if not finished else {}
        png = None
        opened_in = MatchOptions.of_row(row).lang
        renderer, lang = self.renderer, self.pictures.lang_of_match(row.id, opened_in)
        shown, awards = picture_inputs(game, events, finished)
        if render and renderer is not None:
            # a module-level function and a view pickle: a worker process draws it
            drawable = view.for_pictures()
            png = await self.pictures.picture(
                (row.id, game.version, lang, False),
                partial(
                    renderer,
                    drawable,
                    placements=placements or None,
                    lang=lang,
                    events=shown,
                    awards=awards,
                ),
                f"the board of match {row.id}",
            )
        record_json = None
        if finished:
            record_json = json.dumps(game.record_json([s.name for s in seats]), indent=1)
        winners = tuple((row.snapshot or {}).get("winners", ())) if finished else ()
        msg = row.turn_message_id if row.turn_message_version == row.version else None
        return Outcome(
            match_id=row.id,
            version=game.version,
            view=view,
            seats=seats,
            events=events,
            png=png,
            png_lang=lang,
            lang=lang,
            picture_events=shown,
            awards=awards,
            finished=finished,
            record_json=record_json,
            turn_message_id=msg,
            placements=placements,
            winners=winners,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            awaiting=() if finished else tuple(sorted({int(a.seat) for a in st.asks})),
            undo_seat=None if finished else undo_seat(game),
            deadline=None if finished else deadline_of(row, loaded.seats, game),
            private_seats=()
            if finished
            else tuple(sorted({int(d.seat) for d in game.decisions() if d.private})),
            answered_seats=()
            if finished
            else tuple(sorted({int(a) for d in game.decisions() if d.private for a in d.answered})),
        )

    async def animation(self, match_id: int) -> bytes | None:
        """The replay animation of a started match (one frame per turn, in the match's
        language, the last with the final figures put back), drawn now by the animation
        painter (a worker process replays the game and draws it) — the front end asks for it
        after it posted the final board, so no move waits for it. ``None`` without an
        animator, or when drawing fails (logged).

        Raises:
            ServiceError: ERR_NO_MATCH.
        """
        animator = self.animator
        if animator is None:
            return None
        loaded = await self.store.load(match_id)
        game = loaded.game
        shown, _ = picture_inputs(game, (), game.state.over)
        draw = partial(
            replay_animation,
            animator,
            game.setup,
            game.seed,
            tuple(game.moves),
            lang=self.pictures.lang_of_match(match_id, MatchOptions.of_row(loaded.row).lang),
            events=shown,
        )
        try:
            return await self.animation_painter.paint(draw)
        except Exception:
            log.exception("rendering the replay animation of match %s failed", match_id)
            return None


def _placements(game: Game) -> dict[Position, tuple[Rotation, ...]]:
    """The numbered legal cells of the game's state, worked out once per state (each read of
    the match presents it: the autocompletes, the move, the turn message)."""
    memo = game.memo()
    found: dict[Position, tuple[Rotation, ...]] | None = memo.get("numbered_cells")
    if found is None:
        found = memo["numbered_cells"] = numbered_cells(legal_placements(game.state))
    return found


def undo_seat(game: Game) -> Seat | None:
    """The seat that may take back its tile placement now (it placed, and the open choices
    since are its own — the follower step, a bridge — with nothing drawn or rolled: nothing was
    revealed since), if any."""
    st = game.state
    last = game.moves[-1] if game.moves else None
    prev = game.previous
    if (
        last is None
        or prev is None
        or not isinstance(last.action, PlaceTile)
        or st.over
        or not st.asks
        or any(a.seat != last.seat for a in st.asks)
        or revealed(prev, st)
    ):
        return None
    return last.seat
