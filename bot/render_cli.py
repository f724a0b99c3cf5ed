"""``carcabot render-tiles OUT.png``: a contact sheet of every tile type, to check the art."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("out", metavar="OUT.png", type=Path, help="where to write the PNG")


def run(args: argparse.Namespace) -> int:
    from rendering import render_tile_sheet

    out: Path = args.out
    data = render_tile_sheet()
    out.write_bytes(data)
    print(f"wrote {out} ({len(data) // 1024} KiB): every tile type with its id and count")
    return 0
