"""``carcabot local``: play a match in the terminal through the same MatchService as Discord.

Every choice the engine opens is asked of its seat generically (:mod:`bot.local_ask`): placing
a tile is a numbered cell (as on the board image), then a rotation; a follower is a lettered
spot or ``pass``; an expansion's choice is its prompt and its options, a number, or ``pass``;
raw notation such as ``place 1,0 r90`` works too. When several seats decide at once, each
human is asked in turn, and a private choice is announced so the others look away; random
seats answer with the engine's random player. The match lives in a real SQLite file; after
every turn the board PNG is written to ``OUT/local-<match>/turn-NNN.png`` (and a picture of
the choices, ``choice-NNN-K.png``, when a question's options are places on the board), and at
the end the record (``record.json``).

With ``--humans 0`` a whole random match plays unattended (the newcomer demo and the tests).
End of input stops cleanly (the match stays stored: ``--resume`` continues it).
``--plugin MODULE`` loads an extra expansion first (``--plugin tests.expansions.<name>
--expansions <id>``: see :mod:`bot.plugins`).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import secrets
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from bot.local_ask import (
    HELP,
    Answer,
    Asker,
    Console,
    EndOfInput,
    Words,
    figure_words,
    spot_words,
)
from bot.plugins import PluginError, add_plugin_argument, load_plugins
from bot.services.matches import (
    ERR_NO_MATCH,
    MatchOptions,
    MatchService,
    Outcome,
    ServiceError,
    validate_options,
)
from bot.services.options import expansion_ids, parse_rule, rules_for
from bot.settings import DEFAULT_LOCAL_DATABASE
from engine import PublicView
from engine.carcassonne.events import FigureDeployed, PointsScored, TileDiscarded, TilePlaced
from engine.carcassonne.randomplay import choose_answer
from engine.core import messages
from engine.core.decisions import Decision, Target
from engine.core.rng import Rng
from storage import MigrationError, Storage, StorageError

log = logging.getLogger(__name__)

LOCAL_GUILD = 0
LOCAL_CHANNEL = 1
_BOT_SALT = 0xB07B07


@dataclass(frozen=True, slots=True)
class LocalOptions:
    players: int = 2
    humans: int = 1
    seed: int | None = None
    out: Path = Path("out")
    db: Path = DEFAULT_LOCAL_DATABASE
    resume: bool = False
    names: tuple[str, ...] = ()
    farm_scoring: str = "per_farm"
    tiny_city: int = 2
    expansions: tuple[str, ...] = ()
    #: expansion rule values as ``KEY=VALUE`` texts (see ``bot.services.options.parse_rule``)
    rules: tuple[str, ...] = ()
    #: ``--plugin`` modules the caller loaded (named again in the hint to resume)
    plugins: tuple[str, ...] = ()

    def resume_hint(self) -> str:
        extra = "".join(f" --plugin {m}" for m in self.plugins)
        return f"carcabot local --resume{extra}"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=2, help="seats at the table (2-6)")
    p.add_argument(
        "--humans",
        type=int,
        default=1,
        help="how many seats type their moves (the rest play randomly)",
    )
    p.add_argument(
        "--seed", type=int, default=None, help="fixes the tile order and the random seats"
    )
    p.add_argument("--out", type=Path, default=Path("out"), help="folder for board images")
    p.add_argument(
        "--db", type=Path, default=DEFAULT_LOCAL_DATABASE, help="SQLite file for the match"
    )
    p.add_argument("--resume", action="store_true", help="continue the unfinished local match")
    p.add_argument("--names", nargs="*", default=[], help="names of the human players")
    p.add_argument("--farm-scoring", choices=("per_farm", "city_supply_1st_ed"), default="per_farm")
    p.add_argument("--tiny-city", type=int, choices=(2, 4), default=2)
    p.add_argument(
        "--expansions",
        nargs="*",
        default=[],
        metavar="ID",
        help=f"expansions to play with: {', '.join(expansion_ids())}",
    )
    p.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        dest="rules",
        help="a rule of a chosen expansion (repeatable; on/off for yes-or-no rules); "
        f"rules: {', '.join(r.key for r in rules_for(expansion_ids()))}",
    )
    add_plugin_argument(p)


def run(args: argparse.Namespace) -> int:
    try:
        load_plugins(getattr(args, "plugins", ()))
    except PluginError as e:
        print(f"carcabot local: {e}", file=sys.stderr)
        return 2
    opts = LocalOptions(
        players=args.players,
        humans=args.humans,
        seed=args.seed,
        out=args.out,
        db=args.db,
        resume=args.resume,
        names=tuple(args.names),
        farm_scoring=args.farm_scoring,
        tiny_city=args.tiny_city,
        expansions=tuple(args.expansions),
        rules=tuple(args.rules),
        plugins=tuple(getattr(args, "plugins", ())),
    )
    try:
        return asyncio.run(play_local(opts))
    except KeyboardInterrupt:
        print(f"\nStopped. The match is stored; continue it with '{opts.resume_hint()}'.")
        return 130


_UNSET: Any = object()


async def play_local(
    opts: LocalOptions,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    renderer: Any = _UNSET,
    animator: Any = _UNSET,
) -> int:
    """Play (or resume) one local match to its end or to the end of input; return an exit code."""
    table = _Table(stdin or sys.stdin, stdout or sys.stdout, pictures=renderer is not None)
    problem = _check(opts)
    if problem:
        table.say(problem)
        return 2
    kwargs: dict[str, Any] = {}
    if renderer is not _UNSET:
        kwargs["renderer"] = renderer
    if animator is not _UNSET:
        kwargs["animator"] = animator
    try:
        svc = MatchService(await Storage.open(opts.db, writer=True), **kwargs)
    except (OSError, sqlite3.Error, MigrationError, StorageError) as e:
        table.say(f"Cannot open the match database {opts.db}: {e}")
        return 2
    try:
        return await table.play(svc, opts)
    finally:
        await svc.close()


def _check(opts: LocalOptions) -> str | None:
    if not 2 <= opts.players <= 6:
        return "--players must be 2 to 6."
    if not 0 <= opts.humans <= opts.players:
        return f"--humans must be 0 to {opts.players}."
    return None


class _Table:
    """The console: prints the game, asks each human seat its open decisions (private ones
    announced so the others look away), and answers for the random seats."""

    def __init__(self, stdin: TextIO, stdout: TextIO, *, pictures: bool = True) -> None:
        self.con = Console(stdin, stdout)
        self.folder: Path | None = None
        self.warned_no_images = False
        self.pictures = pictures
        self.picture_count = 0
        self.words = Words(())
        self.view: PublicView | None = None

    def say(self, text: str = "") -> None:
        self.con.say(text)

    # ------------------------------------------------------------------ flow
    async def play(self, svc: MatchService, opts: LocalOptions) -> int:
        out = await self._begin(svc, opts)
        if out is None:
            return 2
        self.folder = opts.out / f"local-{out.match_id}"
        self.folder.mkdir(parents=True, exist_ok=True)
        self.words = Words([s.name for s in out.seats])
        rng = Rng((opts.seed if opts.seed is not None else out.match_id) ^ _BOT_SALT)
        self._write_turn(out)
        self._announce_turn(out)
        try:
            while not out.finished:
                if not out.awaiting:
                    self.say("Nobody has anything to decide: the match cannot go on.")
                    return 1
                seat = out.awaiting[0]
                self.view = out.view
                decisions = await self._decisions(svc, out, seat)
                if not decisions:
                    self.say(f"No open decision for {out.seats[seat].name}: stopping.")
                    return 1
                if out.user_of(seat) > 0:
                    nxt = await self._human(svc, out, decisions[0])
                else:
                    nxt = await self._bot(svc, out, decisions[0], rng)
                turn_changed = nxt.view.turn != out.view.turn or nxt.finished
                self._report_events(nxt)
                if self.con.queue and (turn_changed or seat not in nxt.awaiting):
                    self.say(f"  (The rest of the line was not used: {' '.join(self.con.queue)})")
                    self.con.queue.clear()
                out = nxt
                if turn_changed:
                    self._write_turn(out)
                    if not out.finished:
                        self._scores(out)
                        self._announce_turn(out)
        except EndOfInput:
            self.say(f"Input ended: the match is stored. Continue it with '{opts.resume_hint()}'.")
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
                    self.say(f"The unfinished local match cannot be loaded: {e}")
                    self.say("If it was played with --plugin MODULE, resume with the same one.")
                    return None
                self.say("There is no unfinished local match to resume; starting a new one.")
            else:
                self.say(f"Resuming local match {out.match_id} at turn {out.view.turn + 1}.")
                return out
        try:
            stale = await svc.lobby(LOCAL_CHANNEL)
        except ServiceError:
            pass
        else:
            await svc.abandon(LOCAL_CHANNEL, stale.host_id, can_manage=True)
            self.say(f"(An unfinished local match {stale.match_id} was set aside.)")
        seed = opts.seed if opts.seed is not None else secrets.randbelow(1 << 31)
        players = _players(opts)
        try:
            options = MatchOptions(
                players=opts.players,
                farm_scoring=opts.farm_scoring,
                tiny_city=opts.tiny_city,
            ).with_expansions(opts.expansions)
            for assignment in opts.rules:
                options = options.with_rule(*parse_rule(assignment))
            validate_options(options)
        except ServiceError as e:
            self.say(str(e))
            return None
        (host_id, host_name), *rest = players
        await svc.create_lobby(LOCAL_GUILD, LOCAL_CHANNEL, host_id, host_name, options, seed=seed)
        for uid, name in rest:
            await svc.join(LOCAL_CHANNEL, uid, name)
        out = await svc.start(LOCAL_CHANNEL, host_id)
        order = ", ".join(f"{s.name} ({s.colour})" for s in out.seats)
        self.say(f"Carcassonne, local match {out.match_id} (seed {seed}). Seat order: {order}.")
        if out.view.setup.expansions:
            self.say(
                f"Expansions: {', '.join(_expansion_name(e) for e in out.view.setup.expansions)}."
            )
        if any(s.user_id > 0 for s in out.seats):
            self.say(HELP)
        return out

    # ------------------------------------------------------------------ humans
    async def _human(self, svc: MatchService, out: Outcome, d: Decision) -> Outcome:
        """Ask the seat's decision until an answer is accepted; return its outcome."""
        user = out.user_of(d.seat)
        name = out.seats[d.seat].name
        if d.private:
            self.con.queue.clear()  # a line typed in the open never answers a secret
            self.say(f"\n  {name}, your private choice — others look away.")
        asker = Asker(self.con, self.words, self._picture if self.pictures else None)
        while True:
            reply = asker.decide(d, self._who(out, d.seat), out.view)
            try:
                if reply == "undo":
                    result = await svc.undo(LOCAL_CHANNEL, user)
                    self.say("  Placement taken back: place the tile again.")
                elif reply == "resign":
                    result = await svc.resign(LOCAL_CHANNEL, user)
                    self.say(f"  {name} resigns.")
                else:
                    assert isinstance(reply, Answer)
                    result = await svc.submit(LOCAL_CHANNEL, user, list(reply.actions), key=d.key)
            except ServiceError as e:
                self.con.queue.clear()
                self.say(f"  {e}")
                continue
            if d.private:
                self.say(f"  {name} has chosen (kept secret).")
            return result

    # ------------------------------------------------------------------ random seats
    async def _bot(self, svc: MatchService, out: Outcome, d: Decision, rng: Rng) -> Outcome:
        action = choose_answer(d, rng)
        nxt = await svc.submit(LOCAL_CHANNEL, out.user_of(d.seat), [action], key=d.key)
        name = out.seats[d.seat].name
        if d.private:
            self.say(f"  {name} has chosen (kept secret).")
            return nxt
        said = False
        for e in nxt.events:
            if isinstance(e, TilePlaced) and e.seat == d.seat:
                self.say(f"{name} places {e.tile} at {e.pos.notation()} {e.rotation.notation()}.")
                said = True
            elif isinstance(e, FigureDeployed) and e.seat == d.seat:
                self.say(f"{name} puts a {figure_words(e.figure)} on the {spot_words(e.spot)}.")
                said = True
        if said:
            return nxt
        if d.optional and action == d.pass_action:
            self.say(f"{name} passes — {self.words.prompt(d.prompt)}")
        else:
            chosen = next((o for o in d.options if o.action == action), None)
            what = self.words.option(chosen) if chosen else action.notation()
            self.say(f"{name} chooses {what} — {self.words.prompt(d.prompt)}")
        return nxt

    # ------------------------------------------------------------------ output
    def _who(self, out: Outcome, seat: int) -> str:
        s = out.seats[seat]
        return f"{s.name} ({s.colour})"

    def _announce_turn(self, out: Outcome) -> None:
        v = out.view
        draws = f" draws {v.drawn} ({v.tiles_left} left in the pile)" if v.drawn else ""
        self.say(f"\n— Turn {v.turn + 1}: {self._who(out, v.current)}{draws}")

    def _report_events(self, out: Outcome) -> None:
        names = [s.name for s in out.seats]
        for e in out.events:
            if isinstance(e, PointsScored):
                who = ", ".join(f"{names[a.seat]} +{a.points}" for a in e.awards) or "nobody"
                self.say(f"  * {e.item.describe()} -> {who}")
            elif isinstance(e, TileDiscarded):
                self.say(f"  * tile {e.tile} fits nowhere and is discarded")
            else:
                prompt = e.prompt()
                if prompt is not None:
                    self.say(f"  * {self.words.prompt(prompt)}")

    def _scores(self, out: Outcome) -> None:
        parts = [f"{p.name} {p.score}" for p in out.view.players]
        self.say("  Scores: " + " · ".join(parts))

    def _picture(
        self, d: Decision, targets: Sequence[Target | None], labels: Sequence[str]
    ) -> Path | None:
        """The targets of a question drawn on the board, labelled as listed (if rendering is
        available); the file written, or None."""
        if self.folder is None or self.view is None:
            return None
        try:
            from rendering import render_targets

            png = render_targets(self.view, targets, labels, title=self.words.prompt(d.prompt))
        except Exception:  # a picture is a help, never a reason to stop the game
            log.debug("drawing the choices failed", exc_info=True)
            return None
        self.picture_count += 1
        path = self.folder / f"choice-{self.view.turn + 1:03d}-{self.picture_count}.png"
        path.write_bytes(png)
        return path

    def _write_turn(self, out: Outcome) -> None:
        assert self.folder is not None
        if out.png is None:
            if not self.warned_no_images:
                self.say("  (No board images: the renderer is not available.)")
                self.warned_no_images = True
            return
        name = "final.png" if out.finished else f"turn-{out.view.turn + 1:03d}.png"
        path = self.folder / name
        path.write_bytes(out.png)
        self.say(f"  Board: {path}")

    def _finish(self, out: Outcome) -> None:
        assert self.folder is not None
        self._report_final(out)
        if out.record_json is not None:
            record = self.folder / "record.json"
            record.write_text(out.record_json, encoding="utf-8")
            self.say(f"Record: {record}  (replay it: carcabot replay {record})")
        if out.animation is not None:
            anim = self.folder / "replay.gif"
            anim.write_bytes(out.animation)
            self.say(f"Replay animation: {anim}")

    def _report_final(self, out: Outcome) -> None:
        self.say("\nFinal scores:")
        ranked = sorted(
            out.view.players, key=lambda p: (p.seat not in out.winners, -p.score, p.seat)
        )
        for rank, p in enumerate(ranked, 1):
            seat = out.seats[p.seat]
            mark = "  winner" if p.seat in out.winners else ""
            flag = "  (resigned)" if seat.resigned else ""
            self.say(f"  {rank}. {p.name:<12} {p.score:>4}{mark}{flag}")


def _expansion_name(expansion_id: str) -> str:
    key = f"exp.{expansion_id}"
    return messages.text(key) if messages.has(key) else expansion_id


def _players(opts: LocalOptions) -> list[tuple[int, str]]:
    """(user_id, name): humans get ids 1, 2, ...; random seats -1, -2, ..."""
    out = []
    for i in range(opts.humans):
        name = opts.names[i] if i < len(opts.names) else f"Human {i + 1}"
        out.append((i + 1, name))
    for j in range(opts.players - opts.humans):
        out.append((-(j + 1), f"Bot {j + 1}"))
    return out


__all__ = ["LocalOptions", "add_arguments", "play_local", "run"]
