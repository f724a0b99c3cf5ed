"""``carcabot replay FILE``: replay a game record (.json; the tile or the card game's) or a
JCloisterZone save (.jcz).

JCloisterZone saves are told apart from records, and 4.x from 5.x saves, by their content
(:func:`engine.carcassonne.jcz5.jcz_version`), whatever the file is called.

Prints each player's score and every scored feature with who got it (``--json`` for one JSON
object instead); ``--png`` / ``--gif`` draw the final board / an animation of the game.
Everything is checked before anything is printed: a bad file gives one line on stderr,
``carcabot replay: FILE: move N: reason``, and exit code 2 — whatever is wrong with it
(nesting thousands deep, numbers with thousands of digits, control characters, text without
end, or a bug it runs into): the line is printable (control characters escaped) and short.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cli.args import ArgsError, picture_path
from cli.plugins import PluginError, add_plugin_argument, load_plugins
from engine.carcassonne.jcz5 import import_save, jcz_version
from engine.carcassonne.record import GameRecord, ReplayResult, replay
from engine.carcassonne.scoring import Award, ScoreItem
from engine.carcassonne.view import PublicView, public_view
from engine.cardgame.record import CardRecord, is_card_record
from engine.cardgame.state import CardState
from engine.core.errors import EngineError, one_line
from words.places import part_words

PROG = "carcabot replay"
#: the largest file replay reads (a long JCloisterZone save is well under 1 MiB)
MAX_FILE = 32 * 1024 * 1024
#: the deepest nesting of arrays and objects a record or save has (far fewer in practice)
MAX_DEPTH = 64
#: the most digits a number in a record or save has (ids and seeds fit in 64 bits)
MAX_DIGITS = 40
ANIMATION_FORMATS = {".gif": "gif", ".webp": "webp"}
CATEGORY_ORDER = {"road": 0, "city": 1, "cloister": 2, "farm": 3}


class ReplayFailed(Exception):
    """One line for stderr; the command exits 2."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", metavar="FILE", help="a carcabot record (.json, either game) or a .jcz save"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--png", metavar="OUT.png", help="draw the final board to this file")
    parser.add_argument(
        "--gif", metavar="OUT.gif|OUT.webp", help="draw the game turn by turn as an animation"
    )
    add_plugin_argument(parser)


def load_record(path: Path) -> tuple[GameRecord | CardRecord, str]:
    """Read a carcabot record (of either game) or a JCloisterZone save; returns the record
    and its kind.

    Raises:
        ReplayFailed: the file cannot be read, or is not JSON a record or save can be.
        RecordError: the file is not a valid record or save.
    """
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_FILE + 1)
    except OSError as e:
        raise ReplayFailed(f"cannot read the file: {e.strerror or e}") from None
    if len(raw) > MAX_FILE:
        raise ReplayFailed(f"the file is larger than {MAX_FILE // (1024 * 1024)} MiB")
    data = parse_json(raw)
    version = jcz_version(data)
    if version is None and path.suffix.lower() == ".jcz" and not _is_record(data):
        return import_save(data).record, "jcz"  # says why it is not a save
    if version is None and is_card_record(data):
        return CardRecord.from_json(data), "cards"
    if version is None:
        return GameRecord.from_json(data), "record"
    return import_save(data).record, "jcz" if version == 4 else "jcz5"


def parse_json(raw: bytes) -> Any:
    """The JSON value of ``raw``, refusing what no record or save holds: nesting deeper than
    :data:`MAX_DEPTH`, numbers longer than :data:`MAX_DIGITS` digits, NaN and Infinity.

    Raises:
        ReplayFailed: not such JSON (the reason in one line).
    """
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ReplayFailed(f"not valid JSON: not UTF-8 text ({e.reason})") from None
    try:
        data = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except ReplayFailed:
        raise
    except RecursionError:
        raise ReplayFailed(f"not valid JSON: nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as e:
        raise ReplayFailed(f"not valid JSON: {e}") from None
    if _depth(data) > MAX_DEPTH:
        raise ReplayFailed(f"not valid JSON: nested deeper than {MAX_DEPTH} levels")
    return data


def _depth(data: Any) -> int:
    """How deep arrays and objects nest in ``data`` (without recursion)."""
    deepest = 0
    todo = [(data, 1)]
    while todo:
        value, depth = todo.pop()
        if isinstance(value, dict | list):
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                break
            items = value.values() if isinstance(value, dict) else value
            todo.extend((v, depth + 1) for v in items)
    return deepest


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ReplayFailed(f"not valid JSON: a number has more than {MAX_DIGITS} digits")
    return int(text)


def _float(text: str) -> float:
    if len(text) > 2 * MAX_DIGITS:
        raise ReplayFailed(f"not valid JSON: a number has more than {MAX_DIGITS} digits")
    return float(text)


def _constant(text: str) -> float:
    raise ReplayFailed(f"not valid JSON: {text} is not a number JSON allows")


def _is_record(data: Any) -> bool:
    return isinstance(data, dict) and "format" in data


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        load_plugins(getattr(args, "plugins", ()))
    except PluginError as e:
        return _fail(args.file, str(e), with_file=False)
    try:
        png = picture_path(args.png) if args.png else None
        record, kind = load_record(path)
        if isinstance(record, CardRecord):
            if png is not None or args.gif:
                raise ReplayFailed("--png and --gif draw the tile game; this is a card game")
            state = record.replay()
            print(
                json.dumps(card_summary(record, state), ensure_ascii=False)
                if args.json
                else card_report(record, state)
            )
            return 0
        result = replay(record, keep_states=bool(args.gif))
        if png is not None:
            _render_png(result, png)
        if args.gif:
            _render_animation(result, Path(args.gif))
        report = (
            json.dumps(summary(result, kind), ensure_ascii=False)
            if args.json
            else text_report(result)
        )
    except (ReplayFailed, EngineError, ArgsError) as e:
        return _fail(args.file, str(e))
    except RecursionError:
        return _fail(args.file, "not a record or save: nested too deeply")
    except MemoryError:
        return _fail(args.file, "not a record or save: too large to replay")
    except Exception as e:  # a bug, not a bad file: still one line, never a traceback
        return _fail(args.file, f"cannot replay this file ({type(e).__name__}: {e})")
    print(report)
    return 0


def _fail(file: str, reason: str, *, with_file: bool = True) -> int:
    """Print the one error line (printable, short) on stderr; the exit code is 2."""
    where = f"{one_line(file, 200)}: " if with_file else ""
    print(f"{PROG}: {where}{one_line(reason)}", file=sys.stderr)
    return 2


def summary(result: ReplayResult, kind: str = "record") -> dict[str, Any]:
    """The ``--json`` object: scores in seat order, names, whether over, every award."""
    return {
        "source": kind,
        "players": list(result.record.player_names()),
        "scores": list(result.scores),
        "over": result.over,
        "moves": len(result.record.actions),
        "tiles_placed": len(result.state.board.cells) - 1,
        "awards": [
            {
                "seat": int(a.seat),
                "points": a.points,
                "category": a.item.category,
                "complete": a.item.complete,
                "final": a.item.final,
                "parts": list(a.item.parts),
            }
            for a in result.awards
        ],
    }


def text_report(result: ReplayResult) -> str:
    """Scores, then every scored feature in order with who got the points."""
    names = [one_line(n, 40) for n in result.record.player_names()]
    width = max(len(n) for n in names)
    state = result.state
    tiles = len(state.board.cells) - 1
    head = (
        f"Final scores after {tiles} tiles:"
        if result.over
        else f"Scores so far after {tiles} tiles (the game is not over):"
    )
    lines = [head]
    for seat, (name, score) in enumerate(zip(names, result.scores, strict=True)):
        by_kind: dict[str, int] = {}
        for a in result.awards:
            if a.seat == seat:
                by_kind[a.item.category] = by_kind.get(a.item.category, 0) + a.points
        kinds = sorted(by_kind, key=lambda k: (CATEGORY_ORDER.get(k, len(CATEGORY_ORDER)), k))
        detail = ", ".join(f"{k} {by_kind[k]}" for k in kinds)
        lines.append(f"  {name:<{width}}  {score:>4}" + (f"   ({detail})" if detail else ""))
    lines.append("")
    lines.append("Scoring:")
    scored = result.scored()
    if not scored:
        lines.append("  (nothing scored)")
    for event in scored:
        if not event.awards:
            continue
        lines.append(f"  {_describe(event.item)}  → {_who(event.awards, names)}")
    return "\n".join(lines)


def card_summary(record: CardRecord, state: CardState) -> dict[str, Any]:
    """The ``--json`` object of a card game: scores in seat order, names, winners, awards."""
    return {
        "source": "cards",
        "game": "cardgame",
        "players": list(record.player_names()),
        "scores": list(state.scores),
        "over": state.over,
        "rounds": state.round,
        "winners": [int(s) for s in state.winners],
        "moves": len(record.actions),
        "awards": [
            {
                "seat": int(a.seat),
                "points": a.points,
                "category": a.item.category,
                "round": a.item.round,
                "parts": [str(p) for p in a.item.parts],
            }
            for a in state.awards
        ],
    }


def card_report(record: CardRecord, state: CardState) -> str:
    """A card game's scores, then every scoring in order with who got the points."""
    names = [one_line(n, 40) for n in record.player_names()]
    width = max(len(n) for n in names)
    head = (
        f"Card game, final scores after {state.round} rounds:"
        if state.over
        else f"Card game, scores so far in round {state.round} (the game is not over):"
    )
    lines = [head]
    for seat, (name, score) in enumerate(zip(names, state.scores, strict=True)):
        by_kind: dict[str, int] = {}
        for a in state.awards:
            if a.seat == seat:
                by_kind[a.item.category] = by_kind.get(a.item.category, 0) + a.points
        detail = ", ".join(f"{k} {v}" for k, v in by_kind.items())
        mark = "  winner" if state.over and seat in state.winners else ""
        lines.append(f"  {name:<{width}}  {score:>4}" + (f"   ({detail})" if detail else "") + mark)
    lines += ["", "Scoring:"]
    if not state.awards:
        lines.append("  (nothing scored)")
    for a in state.awards:
        when = f"round {a.item.round}" if a.item.round else "end"
        lines.append(f"  {when}: {a.item.text('en')}  → {names[a.seat]}")
    return "\n".join(lines)


def _describe(item: ScoreItem) -> str:
    """A scoring in words: ``city completed: 3 tiles × 2 = 6`` (a tile a part names is
    named by what is printed on it, never by its id)."""
    state = "completed" if item.complete else ("at game end" if item.final else "")
    detail = " + ".join(part_words(p) for p in item.parts)
    head = f"{item.category} {state}".strip()
    return f"{head}: {detail} = {item.points}" if detail else f"{head}: {item.points}"


def _who(awards: Sequence[Award], names: Sequence[str]) -> str:
    """Who got the points: ``Alice and Bob`` when they scored the same, else each with their
    own (``Carol -11, Dave +11``: a payment says who paid whom; ``Carol -3``: to the bank)."""
    if len({a.points for a in awards}) == 1 and awards[0].points > 0:
        return " and ".join(names[a.seat] for a in awards)
    return ", ".join(f"{names[a.seat]} {a.points:+d}" for a in awards)


def _turn_views(result: ReplayResult) -> list[PublicView]:
    """One view per finished turn (and the start): frames for the animation."""
    return [public_view(s) for i, s in enumerate(result.states) if i == 0 or s.step != "deploy"]


def _renderer(name: str) -> Any:
    try:
        import rendering
    except ImportError as e:
        raise ReplayFailed(f"drawing is not available: {e}") from None
    fn = getattr(rendering, name, None)
    if fn is None:
        raise ReplayFailed(f"drawing is not available yet (rendering.{name} is missing)")
    return fn


def _render_png(result: ReplayResult, out: Path) -> None:
    last = result.move_events[-1] if result.move_events else ()
    data = _renderer("render_board")(
        public_view(result.state), whole=True, events=last, awards=result.state.awards
    )
    _write(out, data)


def _render_animation(result: ReplayResult, out: Path) -> None:
    fmt = ANIMATION_FORMATS.get(out.suffix.lower())
    if fmt is None:
        raise ReplayFailed(f"--gif needs a .gif or .webp file name, not '{out.name}'")
    last = result.move_events[-1] if result.move_events else ()
    data = _renderer("render_animation")(_turn_views(result), fmt=fmt, events=last)
    _write(out, data)


def _write(out: Path, data: bytes) -> None:
    try:
        out.write_bytes(data)
    except OSError as e:
        raise ReplayFailed(f"cannot write {out}: {e.strerror or e}") from None
