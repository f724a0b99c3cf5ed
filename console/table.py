"""``carcabot local``: play a match in the terminal through the same MatchService as Discord.

Every choice the engine opens is asked of its seat generically (:mod:`console.ask`): placing
a tile is a numbered cell (as on the board image), then a rotation; a follower is a lettered
spot or ``pass``; an expansion's choice is its prompt and its options, a number, or ``pass``;
raw notation such as ``place 1,0 r90`` works too. When several seats decide at once, each
human is asked in turn, and a private choice is announced so the others look away; the other
seats are AI players of ``--opponents``' level (app.seats), or the engine's random player. The match lives in a real SQLite file; after
every turn the board PNG is written to ``OUT/local-<match>/turn-NNN.png`` (and a picture of
the choices, ``choice-NNN-K.png``, when a question's options are places on the board), and at
the end the record (``record.json``).

Every line is in the table's language (``--lang es``: Spanish); tiles are named by what is
printed on them and features by where they lie (:mod:`words.places`); every move is echoed,
the human's too; the drawn tile turned each offered way at the chosen cell is drawn to
``rotations-NNN-K.png`` as Discord shows it. ``--game cards`` plays the card game instead
(:mod:`console.cards`).

With ``--humans 0`` a whole match of ``--opponents`` plays unattended (the newcomer demo: AI
players; the tests: random ones, the default).
End of input stops cleanly (the match stays stored: ``--resume`` continues it).
``--plugin MODULE`` loads an extra expansion first (``--plugin tests.expansions.<name>
--expansions <id>``: see :mod:`cli.plugins`).
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from app.matches import (
    ERR_NO_MATCH,
    MatchService,
    Outcome,
    ServiceError,
)
from app.picking import PickerSessions
from app.seats import AiController, Controller, RandomMover
from console.ask import Answer, Asker, Console, EndOfInput, Words
from console.i18n import tl
from console.options import (
    LOCAL_CHANNEL,
    LOCAL_GUILD,
    LocalOptions,
    check_options,
    error_words,
    players_of,
    seats_range,
    tile_options,
)
from console.words import figure_words
from engine import Action, Position, PublicView, Rotation
from engine.carcassonne.events import FigureDeployed, PointsScored, TileDiscarded, TilePlaced
from engine.carcassonne.figures import is_follower
from engine.core import messages
from engine.core.decisions import Cell, Decision, Target
from engine.core.rng import Rng
from storage import MigrationError, Storage, StorageError
from words.i18n import lang_of
from words.phrases import reason
from words.places import role_words, tile_words

log = logging.getLogger(__name__)

_BOT_SALT = 0xB07B07


_UNSET: Any = object()


async def play_local(
    opts: LocalOptions,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    renderer: Any = _UNSET,
    animator: Any = _UNSET,
) -> int:
    """Play (or resume) one local match to its end or to the end of input; return an exit code.

    Every argument is checked before the database is touched, so a mistyped one never sets
    the unfinished match aside. ``--resume`` continues the unfinished match of either game,
    in its own language unless ``--lang`` was given."""
    out_stream = stdout or sys.stdout

    def say(text: str) -> None:
        print(text, file=out_stream, flush=True)

    problem = check_options(opts, *seats_range(opts.game))
    if problem:
        say(problem)
        return 2
    try:
        opts.out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        say(tl(opts.lang, "bad_out", path=opts.out, error=e.strerror or e))
        return 2
    try:
        storage = await Storage.open(opts.db, writer=True)
    except (OSError, sqlite3.Error, MigrationError, StorageError) as e:
        say(tl(opts.lang, "no_database", db=opts.db, error=e))
        return 2
    try:
        opts = await _resumed(storage, opts)
    except BaseException:
        await storage.close()
        raise
    if opts.game == "cards":
        from console.cards import play_local_cards

        drawn = {} if renderer is _UNSET else {"renderer": renderer}
        return await play_local_cards(opts, storage, stdin=stdin, stdout=stdout, **drawn)
    table = _Table(stdin or sys.stdin, out_stream, pictures=renderer is not None, lang=opts.lang)
    kwargs: dict[str, Any] = {}
    if renderer is not _UNSET:
        kwargs["renderer"] = renderer
    if animator is not _UNSET:
        kwargs["animator"] = animator
    svc = MatchService(storage, **kwargs)
    svc.pictures.default_lang = opts.lang  # the pictures speak the table's language too
    try:
        return await table.play(svc, opts)
    finally:
        await svc.close()


async def _resumed(storage: Storage, opts: LocalOptions) -> LocalOptions:
    """``opts`` for the unfinished match ``--resume`` continues: its game (whichever
    ``--game`` says) and, unless ``--lang`` chose one, its language."""
    if not opts.resume:
        return opts
    row = await storage.matches.open_in_channel(LOCAL_CHANNEL)
    if row is None:
        return opts
    game = "cards" if row.game == "cardgame" else "tiles"
    stored = str(row.options.get("lang") or "")
    lang = opts.lang if opts.lang_chosen or stored not in messages.LANGS else stored
    return replace(opts, game=game, lang=lang)


class _Table:
    """The console: prints the game, asks each human seat its open decisions (private ones
    announced so the others look away), and answers for the random seats."""

    def __init__(
        self, stdin: TextIO, stdout: TextIO, *, pictures: bool = True, lang: str = "en"
    ) -> None:
        self.lang = lang
        self.con = Console(stdin, stdout, lang)
        self.folder: Path | None = None
        self.warned_no_images = False
        self.pictures = pictures
        self.picture_count = 0
        self.words = Words((), lang)
        self.view: PublicView | None = None

    def tl(self, key: str, **params: Any) -> str:
        return tl(self.lang, key, **params)

    def say(self, text: str = "") -> None:
        self.con.say(text)

    # ------------------------------------------------------------------ flow
    async def play(self, svc: MatchService, opts: LocalOptions) -> int:
        self.sessions = PickerSessions(svc, 4)
        out = await self._begin(svc, opts)
        if out is None:
            return 2
        self.folder = opts.out / f"local-{out.match_id}"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:  # the match stays stored: --resume continues it
            self.say(self.tl("bad_out", path=self.folder, error=e.strerror or e))
            return 2
        self.words = Words([s.name for s in out.seats], self.lang)
        rng = Rng((opts.seed if opts.seed is not None else out.match_id) ^ _BOT_SALT)
        # the seats nobody types for: AI players of the opponents' level (one seat of each
        # level is its own match's program, app.seats), or random ones; a seed replays them
        mover: Controller = (
            RandomMover(rng)
            if opts.opponents == "random"
            else AiController(opts.opponents, seed=out.match_id if opts.seed is None else opts.seed)
        )
        for s in out.seats:
            if s.user_id <= 0 and s.controller is None:  # an AI seat's own is stored
                svc.controllers.set(out.match_id, s.user_id, mover)
        self._write_turn(out)
        self._announce_turn(out)
        try:
            while not out.finished:
                if not out.awaiting:
                    self.say(self.tl("stuck"))
                    return 1
                seat = out.awaiting[0]
                self.view = out.view
                decisions = await self._decisions(svc, out, seat)
                if not decisions:
                    self.say(self.tl("no_decision", name=out.seats[seat].name))
                    return 1
                if out.user_of(seat) > 0:
                    nxt = await self._human(svc, out, decisions[0])
                else:
                    nxt = await self._program(svc, out, seat)
                turn_changed = nxt.view.turn != out.view.turn or nxt.finished
                self._report_events(nxt)
                if self.con.queue and (turn_changed or seat not in nxt.awaiting):
                    self.say(self.tl("unused", rest=" ".join(self.con.queue)))
                    self.con.queue.clear()
                out = nxt
                if turn_changed:
                    self._write_turn(out)
                    if not out.finished:
                        self._scores(out)
                        self._announce_turn(out)
        except EndOfInput:
            self.say(self.tl("input_ended", hint=opts.resume_hint()))
            return 0
        # the replay animation is drawn once the final board is shown (never with a move)
        self._finish(replace(out, animation=await svc.animation(out.match_id)))
        return 0

    async def _decisions(self, svc: MatchService, out: Outcome, seat: int) -> tuple[Decision, ...]:
        """The seat's open decisions: public ones from the outcome, private ones asked for."""
        if seat in out.private_seats:
            _, mine = await svc.decisions_for(LOCAL_CHANNEL, out.user_of(seat))
            return tuple(d for d in mine if d.seat == seat)
        return tuple(d for d in out.decisions if d.seat == seat)

    async def _begin(self, svc: MatchService, opts: LocalOptions) -> Outcome | None:
        if opts.resume:
            try:
                out = await svc.current(LOCAL_CHANNEL)
            except ServiceError as e:
                if e.key != ERR_NO_MATCH:  # stored, but it does not load: never set it aside
                    self.say(self.tl("cannot_resume", error=error_words(e, self.lang)))
                    self.say(self.tl("resume_plugin"))
                    return None
                self.say(self.tl("nothing_to_resume"))
            else:
                self.say(self.tl("resuming", id=out.match_id, turn=out.view.turn + 1))
                return out
        found = tile_options(opts)
        if isinstance(found, str):  # checked before the database was opened
            self.say(found)
            return None
        from console.cards import set_aside

        await set_aside(svc.storage, LOCAL_CHANNEL, self.say, self.lang)
        seed = opts.seed if opts.seed is not None else secrets.randbelow(1 << 31)
        players = players_of(opts)
        options = found
        (host_id, host_name), *rest = players
        await svc.create_lobby(LOCAL_GUILD, LOCAL_CHANNEL, host_id, host_name, options, seed=seed)
        for uid, name in rest:
            await svc.join(LOCAL_CHANNEL, uid, name)
        for _ in range(opts.players - len(players)):  # AI opponents (app.seats)
            await svc.add_ai(LOCAL_CHANNEL, host_id, opts.opponents)
        out = await svc.start(LOCAL_CHANNEL, host_id)
        order = ", ".join(self._who(out, s.seat) for s in out.seats)
        self.say(self.tl("started", id=out.match_id, seed=seed, order=order))
        if out.view.setup.expansions:
            names = ", ".join(self._expansion_name(e) for e in out.view.setup.expansions)
            self.say(self.tl("expansions", names=names))
        if any(s.user_id > 0 for s in out.seats):
            self.say(self.tl("help"))
        return out

    # ------------------------------------------------------------------ humans
    async def _human(self, svc: MatchService, out: Outcome, d: Decision) -> Outcome:
        """Ask the seat's decision until an answer is accepted; return its outcome."""
        user = out.user_of(d.seat)
        name = out.seats[d.seat].name
        if d.private:
            self.con.queue.clear()  # a line typed in the open never answers a secret
            self.say("\n  " + self.tl("private", name=name))
        asker = Asker(
            self.con,
            self.words,
            self._picture if self.pictures else None,
            self._preview if self.pictures else None,
            parse=Action.from_notation,
        )
        mine = await self._decisions(svc, out, d.seat)
        while True:
            self.sessions.forget(out.match_id)
            walker = self.sessions.seat(out, user, mine)
            reply = await asker.decide(d, self._who(out, d.seat), out.view, walker, name=name)
            try:
                if reply == "undo":
                    result = await svc.undo(LOCAL_CHANNEL, user)
                    self.say(self.tl("taken_back"))
                elif reply == "resign":
                    result = await svc.resign(LOCAL_CHANNEL, user)
                    self.say(self.tl("resigns", name=name))
                else:
                    assert isinstance(reply, Answer)
                    result = await svc.submit(LOCAL_CHANNEL, user, list(reply.actions), key=d.key)
            except ServiceError as e:
                self.con.queue.clear()
                self.say(f"  {error_words(e, self.lang)}")
                continue
            if d.private:
                self.say(self.tl("kept_secret", name=name))
            elif isinstance(reply, Answer):
                self._echo(d, reply.actions, result, name)
            return result

    # ------------------------------------------------------------------ random seats
    async def _program(self, svc: MatchService, out: Outcome, seat: int) -> Outcome:
        """Let the program that plays ``seat`` answer (app.seats), and say what it did."""
        played = await svc.play_controlled(out.match_id, seat)
        if played is None:
            return await svc.current(LOCAL_CHANNEL)
        d, action = played.decision, played.action
        nxt: Outcome = played.outcome
        name = out.seats[d.seat].name
        if d.private:
            self.say(self.tl("kept_secret", name=name))
            return nxt
        self._echo(d, (action,), nxt, name)
        return nxt

    def _echo(self, d: Decision, actions: Sequence[Action], nxt: Outcome, name: str) -> None:
        """Say what a seat just did, in words: the tile it placed (as placed) and where, the
        figure it put and on what, or the option it chose or that it passed."""
        said = False
        self.words.view = nxt.view
        for e in nxt.events:
            if isinstance(e, TilePlaced) and e.seat == d.seat:
                tile = self.tl("places_tile", tile=tile_words(e.tile, self.lang, e.rotation))
                degrees = Rotation(e.rotation).degrees
                pos = e.pos.notation()
                cells = d.facet_values("cell")
                if pos in cells:  # the cell as the question numbered it
                    pos = self.tl("cell_at", n=cells.index(pos) + 1, pos=pos)
                self.say(self.tl("places", name=name, tile=tile, pos=pos, degrees=degrees))
                said = True
            elif isinstance(e, FigureDeployed) and e.seat == d.seat:
                spot = self.words.spot(e.spot, e.pos.x, e.pos.y)
                figure = figure_words(e.figure, self.lang)
                role = role_words(e.spot, self.lang) if is_follower(e.figure) else None
                key = "deploys" if role is None else "deploys_as"
                self.say(self.tl(key, name=name, figure=figure, spot=spot, role=role))
                said = True
        if said or not actions:
            return
        action = actions[0]
        if d.optional and action == d.pass_action:
            said_pass = _known(f"pass.{d.kind}", self.lang)
            what = f" ({_lower_first(said_pass)})" if said_pass else ""
            self.say(self.tl("passes", name=name, what=what))
        else:
            chosen = next((o for o in d.options if o.action == action), None)
            what = self.words.option(chosen) if chosen else _numbered(self.words, d, action)
            about = _known(f"open.{d.kind}", self.lang)
            about = f" ({_lower_first(about)})" if about else ""
            self.say(self.tl("chooses", name=name, what=what, about=about))

    # ------------------------------------------------------------------ output
    def _who(self, out: Outcome, seat: int) -> str:
        s = out.seats[seat]
        key = f"colour.{s.colour}"
        colour = self.tl(key)
        return f"{s.name} ({s.colour if colour == key else colour})"

    def _expansion_name(self, expansion_id: str) -> str:
        key = f"exp.{expansion_id}"
        return messages.text(key, self.lang) if messages.has(key) else expansion_id

    def _announce_turn(self, out: Outcome) -> None:
        v = out.view
        draws = ""
        if v.drawn:
            tile = self.tl("drawn_tile", tile=tile_words(v.drawn, self.lang))
            draws = self.tl("draws", tile=tile, left=v.tiles_left)
        self.say(self.tl("turn", n=v.turn + 1, who=self._who(out, v.current), draws=draws))

    def _report_events(self, out: Outcome) -> None:
        names = [s.name for s in out.seats]
        lang = lang_of(self.lang)
        for e in out.events:
            if isinstance(e, PointsScored):
                who = ", ".join(f"{names[a.seat]} {a.points:+d}" for a in e.awards)
                self.say(
                    self.tl(
                        "scored",
                        reason=reason(e.item, lang, dict(enumerate(names))),
                        who=who or self.tl("nobody"),
                    )
                )
            elif isinstance(e, TileDiscarded):
                self.say(self.tl("discarded", tile=tile_words(e.tile, self.lang)))
            else:
                prompt = e.prompt()
                if prompt is not None:
                    self.say(f"  * {self.words.prompt(prompt)}")

    def _scores(self, out: Outcome) -> None:
        parts = [f"{p.name} {p.score}" for p in out.view.players]
        self.say(self.tl("scores", scores=" · ".join(parts)))

    def _picture(
        self,
        d: Decision,
        targets: Sequence[Target | None],
        labels: Sequence[str],
        view: PublicView | None,
    ) -> Path | None:
        """The targets of a question drawn on ``view`` (the board as the question finds it:
        with the tile just placed, for its follower), labelled as listed (if rendering is
        available); the file written, or None."""
        view = view if view is not None else self.view
        if self.folder is None or view is None:
            return None
        try:
            from rendering import render_targets

            png = render_targets(
                view, targets, labels, title=self.words.prompt(d.prompt), seat=d.seat
            )
        except Exception:  # a picture is a help, never a reason to stop the game
            log.debug("drawing the choices failed", exc_info=True)
            return None
        return self._write_picture("choice", png)

    def _preview(self, cell: Cell, rotations: Sequence[str]) -> Path | None:
        """The drawn tile turned each offered way at ``cell``, as Discord's rotation picker
        shows it (numbered in the order listed); the file written, or None."""
        if self.folder is None or self.view is None or self.view.drawn is None:
            return None
        try:
            from rendering import render_placement_preview

            rots = [Rotation.parse(r) for r in rotations]
            png = render_placement_preview(self.view, Position(cell.x, cell.y), rots)
        except Exception:  # a picture is a help, never a reason to stop the game
            log.debug("drawing the rotations failed", exc_info=True)
            return None
        return self._write_picture("rotations", png)

    def _write_picture(self, kind: str, png: bytes) -> Path | None:
        assert self.folder is not None and self.view is not None
        self.picture_count += 1
        path = self.folder / f"{kind}-{self.view.turn + 1:03d}-{self.picture_count}.png"
        path.write_bytes(png)
        return path

    def _write_turn(self, out: Outcome) -> None:
        assert self.folder is not None
        if out.png is None:
            if not self.warned_no_images:
                self.say(self.tl("no_images"))
                self.warned_no_images = True
            return
        name = "final.png" if out.finished else f"turn-{out.view.turn + 1:03d}.png"
        path = self.folder / name
        path.write_bytes(out.png)
        self.say(self.tl("board_file", path=path))

    def _finish(self, out: Outcome) -> None:
        assert self.folder is not None
        self._report_final(out)
        if out.record_json is not None:
            record = self.folder / "record.json"
            record.write_text(out.record_json, encoding="utf-8")
            self.say(self.tl("record_file", path=record))
        if out.animation is not None:
            anim = self.folder / "replay.gif"
            anim.write_bytes(out.animation)
            self.say(self.tl("animation_file", path=anim))

    def _report_final(self, out: Outcome) -> None:
        self.say(self.tl("final"))
        ranked = sorted(
            out.view.players, key=lambda p: (p.seat not in out.winners, -p.score, p.seat)
        )
        for rank, p in enumerate(ranked, 1):
            seat = out.seats[p.seat]
            mark = self.tl("winner") if p.seat in out.winners else ""
            flag = self.tl("resigned") if seat.resigned else ""
            self.say(f"  {rank}. {p.name:<12} {p.score:>4}{mark}{flag}")


__all__ = ["LocalOptions", "play_local"]


def _known(key: str, lang: str) -> str | None:
    """The catalogue's words for ``key`` (a decision kind's button: ``open.<kind>``,
    ``pass.<kind>``), or ``None`` when nobody named it."""
    text = tl(lang, key)
    return None if text == key else text


def _lower_first(text: str) -> str:
    """``No follower`` -> ``no follower`` inside a sentence (an acronym keeps its capitals)."""
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


def _numbered(words: Words, d: Decision, action: Action) -> str:
    """A numeric option's answer in words (``Tile A (BA/C): 3``), else the action's notation."""
    for o in d.options:
        if o.number is None or o.make is None or o.number.max is None:
            continue
        for n in range(o.number.min, o.number.max + 1):
            if o.make(n) == action:
                return f"{words.option(o)}: {n}" if o.label is not None else str(n)
    return action.notation()
