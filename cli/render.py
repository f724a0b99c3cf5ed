"""``carcabot render-tiles OUT.png``: a contact sheet of every tile type, to check the art.

A file name that is not ``.png`` or a folder that cannot be written is one line on stderr and
exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys

from cli.args import ArgsError, picture_path
from engine.core.errors import one_line

PROG = "carcabot render-tiles"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("out", metavar="OUT.png", help="where to write the PNG")


def run(args: argparse.Namespace) -> int:
    try:
        out = picture_path(args.out, "render-tiles")
    except ArgsError as e:
        print(f"{PROG}: {one_line(str(e))}", file=sys.stderr)
        return 2
    from rendering import render_tile_sheet

    data = render_tile_sheet()
    try:
        out.write_bytes(data)
    except OSError as e:
        print(f"{PROG}: cannot write {one_line(str(out))}: {e.strerror or e}", file=sys.stderr)
        return 2
    print(f"wrote {out} ({len(data) // 1024} KiB): every tile type with its id and count")
    return 0
