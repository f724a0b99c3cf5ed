"""Arguments the command-line tools share, so that ``local`` and ``simulate`` read them alike.

* ``--expansions``: ids separated by commas or spaces or both (``--expansions a,b``,
  ``--expansions a b``, ``--expansions a --expansions b``); an unknown id is refused in one line
  that lists the playable ones. Checked after ``--plugin`` modules are loaded, so a plug-in's
  expansion counts.
* ``--farm-scoring`` and ``--tiny-city``: the base game's two rule editions, with help.
* :func:`picture_path`: an output file for a PNG must end in ``.png`` (writing PNG bytes under
  another name would mislead every viewer).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from pathlib import Path

from engine.carcassonne.registry import all_expansions


class ArgsError(Exception):
    """An argument that cannot be used: one line for stderr (exit code 2)."""


def add_expansions_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """``--expansions ID ...`` (commas or spaces); read it with :func:`expansion_ids`."""
    ids = ", ".join(cls.id for cls in all_expansions())
    parser.add_argument(
        "--expansions",
        nargs="*",
        action="extend",
        default=[],
        metavar="ID",
        help=f"{what}: ids separated by spaces or commas, among {ids}",
    )


def expansion_ids(values: Sequence[str]) -> tuple[str, ...]:
    """The expansion ids given (each once, in order), every one of them playable.

    Raises:
        ArgsError: an id no registered expansion has (the message lists the playable ones).
    """
    out: list[str] = []
    for value in values:
        for part in re.split(r"[\s,]+", value):
            if part and part not in out:
                out.append(part)
    known = [cls.id for cls in all_expansions()]
    for part in out:
        if part not in known:
            raise ArgsError(
                f"the expansion '{part}' is not playable yet; "
                f"choose among: {', '.join(known) or '(none)'}"
            )
    return tuple(out)


def add_rule_edition_arguments(parser: argparse.ArgumentParser) -> None:
    """``--farm-scoring`` and ``--tiny-city`` (RULES.md §3.2–3.3, §3.1), with help."""
    parser.add_argument(
        "--farm-scoring",
        choices=("per_farm", "city_supply_1st_ed"),
        default="per_farm",
        dest="farm_scoring",
        help="how farms score at the end: per_farm (each farm's owners score 3 per completed "
        "city it touches; current rules) or city_supply_1st_ed (each completed city pays 3 "
        "once, to whoever has the most farmers in the farms around it; 1st edition); "
        "default per_farm",
    )
    parser.add_argument(
        "--tiny-city",
        type=int,
        choices=(2, 4),
        default=2,
        dest="tiny_city",
        help="points for a completed 2-tile city: 2 (2 + 1 per shield; current rules) or 4 "
        "(2 per tile + 2 per shield; 1st edition, JCloisterZone 4.x); default 2",
    )


def picture_path(text: str, option: str = "--png") -> Path:
    """The file a PNG is written to. Raises ArgsError unless it ends in ``.png``."""
    path = Path(text)
    if path.suffix.lower() != ".png":
        raise ArgsError(f"{option} writes a PNG picture: name the file *.png, not '{path.name}'")
    return path
