"""The contact sheet: every tile type of every expansion with its id and count."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from engine.carcassonne import registry
from engine.carcassonne.tiles import load_tile_set, tile_set, tile_sets
from engine.core import messages
from engine.core.errors import TileDataError
from rendering import style as st
from rendering.fonts import fit_text, font
from rendering.tiles import tile_image


def set_title(set_id: str) -> str:
    """The name of a tile set: its expansion's name in the engine's message catalogue
    (``exp.<id>``), else the ``name`` written in the set's tile data, else the id."""
    registry.all_expansions()  # the expansions register their names when imported
    key = f"exp.{set_id}"
    if messages.has(key):
        return messages.text(key)
    try:
        return tile_set(set_id).name
    except TileDataError:
        return set_id


def tile_sheet_image(tile_px: int = 128, columns: int = 12) -> Image.Image:
    """Every tile type, grouped by expansion, labelled ``id ×count``."""
    gap = max(8, tile_px // 10)
    label_h = max(14, tile_px // 6)
    head_h = label_h + gap
    cell_w, cell_h = tile_px + gap, tile_px + 2 * label_h + gap
    rows: list[tuple[str, list[tuple[str, str, str]]]] = []
    for info in tile_sets():
        set_id = info.id
        entries = []
        for t in load_tile_set(set_id):
            count = f"×{t.count}" + ("" if t.in_pile else " held")
            edges = "".join(e.value for e in t.edges)
            entries.append((t.id, count, f"NESW {edges}"))
        rows.append((set_title(set_id), entries))
    height = gap
    for _title, entries in rows:
        height += head_h + -(-len(entries) // columns) * cell_h
    width = gap + columns * cell_w
    img = Image.new("RGB", (width, height), st.TABLE)
    d = ImageDraw.Draw(img)
    small = font(int(label_h * 0.8))
    head = font(int(label_h), bold=True)
    y = gap
    for title, entries in rows:
        d.text((gap, y), title, font=head, fill=st.TEXT)
        y += head_h
        for i, (tid, count, edges) in enumerate(entries):
            x = gap + (i % columns) * cell_w
            yy = y + (i // columns) * cell_h
            img.paste(tile_image(tid, 0, tile_px), (x, yy))
            text = fit_text(f"{tid} {count}", cell_w - 2, int(label_h * 0.8))
            d.text((x, yy + tile_px + 1), text, font=small, fill=st.TEXT)
            d.text((x, yy + tile_px + label_h), edges, font=small, fill=st.TEXT_DIM)
        y += -(-len(entries) // columns) * cell_h
    return img


def render_tile_sheet() -> bytes:
    """PNG of every tile type of every expansion, with its id and count."""
    buf = io.BytesIO()
    tile_sheet_image().save(buf, "PNG", compress_level=6)
    return buf.getvalue()
