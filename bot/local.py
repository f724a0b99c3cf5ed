"""``carcabot local``: play a match in the terminal through the same MatchService as Discord.

Hot-seat humans type their moves (a numbered cell, then a rotation, then a lettered spot or
``none`` — the Discord picker's choices — or raw notation such as ``place 1,0 r90``); random
seats play themselves. The match lives in a real SQLite file; after every turn the board PNG is
written to ``OUT/local-<match>/turn-NNN.png``, and at the end the record (``record.json``).

With ``--humans 0`` a whole random match plays unattended (the newcomer demo and the tests).
End of input stops cleanly (the match stays stored: ``--resume`` continues it).
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from bot.services.matches import (
    MatchOptions,
    MatchService,
    Outcome,
    ServiceError,
    validate_options,
)
from bot.services.options import expansion_ids, parse_rule, rules_for
from bot.settings import DEFAULT_LOCAL_DATABASE
from engine import Action, InvalidActionError, Pass, PlaceTile, Position, Rotation
from engine.carcassonne.events import FigureDeployed, PointsScored, TileDiscarded, TilePlaced
from engine.carcassonne.rules import describe_spot
from engine.core.rng import Rng
from storage import MigrationError

LOCAL_GUILD = 0
LOCAL_CHANNEL = 1
_BOT_SALT = 0xB07B07
_HELP = (
    "Type a cell number, then a rotation; or the move itself: 'place X,Y r90', "
    "'deploy city:N', 'pass'. Also: 'board' (list again), 'undo', 'resign', 'quit'."
)


class _EndOfInput(Exception):
    """stdin ended (or the player typed quit)."""


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


def run(args: argparse.Namespace) -> int:
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
    )
    try:
        return asyncio.run(play_local(opts))
    except KeyboardInterrupt:
        print("\nStopped. The match is stored; continue it with --resume.")
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
    table = _Table(stdin or sys.stdin, stdout or sys.stdout)
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
        svc = await MatchService.open(opts.db, **kwargs)
    except (OSError, sqlite3.Error, MigrationError) as e:
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
    """The console: prints the game and asks humans for moves."""

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.folder: Path | None = None
        self.warned_no_images = False

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def ask(self, prompt: str) -> str:
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say()
            raise _EndOfInput
        text = line.strip()
        if text.lower() in ("quit", "exit", "q"):
            raise _EndOfInput
        return text

    # ------------------------------------------------------------------ flow
    async def play(self, svc: MatchService, opts: LocalOptions) -> int:
        out = await self._begin(svc, opts)
        if out is None:
            return 2
        self.folder = opts.out / f"local-{out.match_id}"
        self.folder.mkdir(parents=True, exist_ok=True)
        rng = Rng((opts.seed if opts.seed is not None else out.match_id) ^ _BOT_SALT)
        self._write_turn(out)
        self._announce_turn(out)
        try:
            while not out.finished:
                uid = out.current_user_id
                if uid > 0:
                    nxt = await self._human_turn(svc, out)
                else:
                    nxt = await svc.submit(
                        LOCAL_CHANNEL, uid, self._bot_move(out, rng), out.version
                    )
                    self._describe_bot(out, nxt)
                turn_changed = nxt.view.turn != out.view.turn or nxt.finished
                self._report_events(nxt)
                out = nxt
                if turn_changed:
                    self._write_turn(out)
                    if not out.finished:
                        self._scores(out)
                        self._announce_turn(out)
        except _EndOfInput:
            self.say(
                "Input ended: the match is stored. Continue it with 'carcabot local --resume'."
            )
            return 0
        self._finish(out)
        return 0

    async def _begin(self, svc: MatchService, opts: LocalOptions) -> Outcome | None:
        if opts.resume:
            try:
                out = await svc.current(LOCAL_CHANNEL)
            except ServiceError:
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
        if any(s.user_id > 0 for s in out.seats):
            self.say(_HELP)
        return out

    # ------------------------------------------------------------------ humans
    async def _human_turn(self, svc: MatchService, out: Outcome) -> Outcome:
        """Ask the current human until one move is accepted; return its outcome."""
        while True:
            actions = self._ask_move(out)
            if actions == "undo":
                call = svc.undo(LOCAL_CHANNEL, out.current_user_id)
            elif actions == "resign":
                call = svc.resign(LOCAL_CHANNEL, out.current_user_id)
            elif isinstance(actions, list):
                call = svc.submit(LOCAL_CHANNEL, out.current_user_id, actions, out.version)
            else:
                continue
            try:
                result = await call
            except ServiceError as e:
                self.say(f"  {e}")
                continue
            if actions == "undo":
                self.say("  Placement taken back: place the tile again.")
            elif actions == "resign":
                self.say(f"  {out.seats[out.view.current].name} resigns.")
            return result

    def _ask_move(self, out: Outcome) -> list[Action] | str:
        if out.view.step == "place":
            return self._ask_place(out)
        return self._ask_deploy(out)

    def _ask_place(self, out: Outcome) -> list[Action] | str:
        cells = list(out.placements.items())
        self._list_cells(out)
        while True:
            text = self.ask(f"{self._who(out)}: cell number (1-{len(cells)}) or a move> ")
            special = self._special(text, out)
            if special is not None:
                if special == "board":
                    self._list_cells(out)
                    continue
                return special
            if text.isdigit():
                n = int(text)
                if not 1 <= n <= len(cells):
                    self.say(f"  Pick a cell from 1 to {len(cells)}.")
                    continue
                pos, rots = cells[n - 1]
                rot = self._ask_rotation(out, pos, rots)
                if rot is None:
                    self._list_cells(out)
                    continue
                return [PlaceTile(pos, rot)]
            parsed = self._parse(text)
            if parsed is not None:
                return parsed

    def _ask_rotation(
        self, out: Outcome, pos: Position, rots: tuple[Rotation, ...]
    ) -> Rotation | None:
        if len(rots) == 1:
            self.say(f"  Only {rots[0].notation()} fits at {pos.notation()}.")
            return rots[0]
        names = " ".join(f"{i}) {r.notation()}" for i, r in enumerate(rots, 1))
        while True:
            text = self.ask(f"  Rotation at {pos.notation()}: {names} (or 'back')> ").lower()
            if text == "back":
                return None
            if text.isdigit() and 1 <= int(text) <= len(rots):
                return rots[int(text) - 1]
            for r in rots:
                if text in (r.notation(), str(r.degrees)):
                    return r
            self.say(f"  Choose one of: {' '.join(r.notation() for r in rots)}.")

    def _ask_deploy(self, out: Outcome) -> list[Action] | str:
        spots = list(out.deploys)
        self._list_spots(out)
        while True:
            text = self.ask(f"{self._who(out)}: spot letter, 'none' or a move> ")
            special = self._special(text, out)
            if special is not None:
                if special == "board":
                    self._list_spots(out)
                    continue
                return special
            low = text.lower()
            if low in ("none", "n", "pass", "-"):
                return [Pass()]
            if len(low) == 1 and low.isalpha():
                i = ord(low) - ord("a")
                if 0 <= i < len(spots):
                    return [spots[i]]
                self.say(f"  Pick a letter from a to {chr(ord('a') + len(spots) - 1)}, or none.")
                continue
            parsed = self._parse(text)
            if parsed is not None:
                return parsed

    def _special(self, text: str, out: Outcome) -> str | None:
        low = text.lower()
        if low in ("help", "?"):
            self.say(_HELP)
            return "board"
        if low in ("board", "list", ""):
            return "board"
        if low in ("undo", "resign"):
            return low
        return None

    def _parse(self, text: str) -> list[Action] | None:
        """Raw notation; several actions may be joined with ';' (``place 1,0 r0; pass``)."""
        try:
            return [Action.from_notation(part) for part in text.split(";") if part.strip()]
        except (InvalidActionError, ValueError) as e:
            self.say(f"  I did not understand that ({e}). Type 'help' for the choices.")
            return None

    def _list_cells(self, out: Outcome) -> None:
        self.say(f"  Tile {out.view.drawn} — legal cells (numbered as on the board image):")
        for i, (pos, rots) in enumerate(out.placements.items(), 1):
            turns = " ".join(r.notation() for r in rots)
            self.say(f"    {i:>2}) {pos.notation():<8} {turns}")

    def _list_spots(self, out: Outcome) -> None:
        self.say("  Put a figure on the tile you placed?")
        for i, d in enumerate(out.deploys):
            figure = "" if d.figure == "follower" else f"{d.figure} "
            self.say(f"    {chr(ord('a') + i)}) {figure}{describe_spot(d.spot)}  [{d.spot}]")
        self.say("    none) no figure")

    # ------------------------------------------------------------------ random seats
    def _bot_move(self, out: Outcome, rng: Rng) -> list[Action]:
        if out.view.step == "place":
            options: list[Action] = [
                PlaceTile(pos, r) for pos, rots in out.placements.items() for r in rots
            ]
        else:
            options = [*out.deploys, Pass()]
        return [options[rng.below(len(options))]]

    def _describe_bot(self, before: Outcome, after: Outcome) -> None:
        name = before.seats[before.view.current].name
        for e in after.events:
            if isinstance(e, TilePlaced):
                self.say(f"{name} places {e.tile} at {e.pos.notation()} {e.rotation.notation()}.")
            elif isinstance(e, FigureDeployed):
                figure = "follower" if e.figure == "follower" else e.figure
                self.say(f"{name} puts a {figure} on the {describe_spot(e.spot)}.")
        if before.view.step == "deploy" and not any(
            isinstance(e, FigureDeployed) for e in after.events
        ):
            self.say(f"{name} puts no figure.")

    # ------------------------------------------------------------------ output
    def _who(self, out: Outcome) -> str:
        s = out.seats[out.view.current]
        return f"{s.name} ({s.colour})"

    def _announce_turn(self, out: Outcome) -> None:
        v = out.view
        self.say(
            f"\n— Turn {v.turn + 1}: {self._who(out)} draws {v.drawn} "
            f"({v.tiles_left} left in the pile)"
        )

    def _report_events(self, out: Outcome) -> None:
        names = [s.name for s in out.seats]
        for e in out.events:
            if isinstance(e, PointsScored):
                who = ", ".join(f"{names[a.seat]} +{a.points}" for a in e.awards) or "nobody"
                self.say(f"  * {e.item.describe()} -> {who}")
            elif isinstance(e, TileDiscarded):
                self.say(f"  * tile {e.tile} fits nowhere and is discarded")

    def _scores(self, out: Outcome) -> None:
        parts = [f"{p.name} {p.score}" for p in out.view.players]
        self.say("  Scores: " + " · ".join(parts))

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
