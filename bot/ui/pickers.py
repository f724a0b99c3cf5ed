"""The ephemeral pickers of a turn: numbered cells (paged select), rotations, figure spots.

Today's "cell -> rotation -> spot" cascade; phase 2 of issue 9 generalises it into one
presenter for any decision's facets.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import Lang, t
from bot.ui.components import CarcButton, CarcSelect
from bot.ui.legal import NONE_SPOT, Cell, choice_key
from bot.ui.words import deploy_label, rotation_label
from engine import Deploy, Rotation
from rendering import spot_letter

PAGE = 25  # options per select (Discord's limit)
#: spot buttons in a picker (4 rows of 5; the last row holds "No follower" and "Back")
MAX_SPOT_BUTTONS = 20


def cells_picker(
    match_id: int, version: int, cells: Sequence[Cell], page: int, lang: Lang
) -> discord.ui.View:
    """A select of the numbered cells (25 per page) with page buttons when there are more."""
    pages = max(1, (len(cells) + PAGE - 1) // PAGE)
    page = min(max(page, 0), pages - 1)
    chunk = cells[page * PAGE : (page + 1) * PAGE]
    options = [
        discord.SelectOption(
            label=t(lang, "cell_option", cell=c.number),
            value=str(c.number),
            description=t(
                lang,
                "cell_desc",
                x=c.pos.x,
                y=c.pos.y,
                rotations=", ".join(rotation_label(r) for r in c.rotations),
            )[:100],
        )
        for c in chunk
    ]
    view = discord.ui.View(timeout=None)
    first, last = (chunk[0].number, chunk[-1].number) if chunk else (0, 0)
    view.add_item(
        CarcSelect(
            match_id,
            version,
            "cell",
            page,
            options=options,
            placeholder=t(lang, "picker_page", first=first, last=last),
            row=0,
        )
    )
    if pages > 1:
        view.add_item(
            CarcButton(
                match_id,
                version,
                "page",
                page - 1,
                label=t(lang, "btn_prev"),
                row=1,
                disabled=page == 0,
            )
        )
        view.add_item(
            CarcButton(
                match_id,
                version,
                "page",
                page + 1,
                label=t(lang, "btn_next"),
                row=1,
                disabled=page >= pages - 1,
            )
        )
    return view


def rotation_picker(
    match_id: int, version: int, cell: Cell, chosen: Rotation | None, lang: Lang
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for r in cell.rotations:
        style = discord.ButtonStyle.success if r == chosen else discord.ButtonStyle.secondary
        view.add_item(
            CarcButton(
                match_id,
                version,
                "rot",
                cell.number,
                r.degrees,
                label=rotation_label(r),
                style=style,
                emoji="🔄",
                row=0,
            )
        )
    if chosen is not None:
        view.add_item(
            CarcButton(
                match_id,
                version,
                "ok",
                cell.number,
                chosen.degrees,
                label=t(lang, "btn_confirm"),
                style=discord.ButtonStyle.primary,
                row=1,
            )
        )
    view.add_item(
        CarcButton(
            match_id, version, "page", (cell.number - 1) // PAGE, label=t(lang, "btn_back"), row=1
        )
    )
    return view


def spots_picker(
    match_id: int,
    version: int,
    spots: Sequence[Deploy | str],
    lang: Lang,
    *,
    cell: Cell | None = None,
    rotation: Rotation | None = None,
) -> discord.ui.View:
    """Figure-placement buttons (lettered like the spots image) plus "No follower".

    A plain string is a follower spot. With ``cell`` it finishes place+deploy in one call."""
    view = discord.ui.View(timeout=None)
    prefix: tuple[object, ...] = ()
    action = "fol"
    if cell is not None and rotation is not None:
        action = "dep"
        prefix = (cell.number, rotation.degrees)
    for i, spot in enumerate(spots[:MAX_SPOT_BUTTONS]):
        view.add_item(
            CarcButton(
                match_id,
                version,
                action,
                *prefix,
                spot if isinstance(spot, str) else choice_key(spot),
                label=f"{spot_letter(i)} · {deploy_label(spot, lang)}"[:80],
                style=discord.ButtonStyle.primary,
                emoji="🧍",
                row=i // 5,
            )
        )
    row = min(4, (min(len(spots), MAX_SPOT_BUTTONS) + 4) // 5)
    view.add_item(
        CarcButton(
            match_id, version, action, *prefix, NONE_SPOT, label=t(lang, "btn_no_follower"), row=row
        )
    )
    if cell is not None and rotation is not None:
        view.add_item(
            CarcButton(
                match_id,
                version,
                "rot",
                cell.number,
                rotation.degrees,
                label=t(lang, "btn_back"),
                row=row,
            )
        )
    return view
