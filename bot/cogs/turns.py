"""The turn's components of the tile game: the ephemeral cell -> rotation -> spot pickers,
the deploy-step buttons, and the checks both they and the slash commands make.

A mixin of the :class:`~bot.cogs.carcassonne.Carcassonne` cog. Every path ends in the same
:meth:`MatchService.submit` call (via :meth:`TurnPickers._submit`), then the new turn message.
Phase 2 of issue 9 replaces these hand-made pickers with one presenter for any decision.
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from bot.cogs.base import GameCog, channel_id
from bot.i18n import Lang, lang_of, t
from bot.services.matches import (
    ERR_NO_MATCH,
    ERR_NOT_SEATED,
    ERR_NOT_YOUR_TURN,
    ERR_STALE,
    MatchService,
    Outcome,
    ServiceError,
)
from bot.ui import images, legal
from bot.ui import presenters as ui
from bot.ui.components import Click
from engine import Action, Deploy, Pass, PlaceTile, Rotation

Interaction = discord.Interaction[Any]
ROTATIONS = {r.degrees: r for r in Rotation}


def _uid(interaction: Interaction) -> int:
    return interaction.user.id


class TurnPickers(GameCog):
    """The turn's clicks and checks (see the module docstring)."""

    service: MatchService

    def _remember_lang(self, match_id: int, interaction: Interaction) -> Lang:
        raise NotImplementedError

    async def _undo(self, interaction: Interaction) -> None:
        raise NotImplementedError

    async def _tiles(self, interaction: Interaction) -> None:
        raise NotImplementedError

    def _require_turn(self, outcome: Outcome, user_id: int) -> None:
        seated = [s for s in outcome.seats if s.user_id == user_id and not s.resigned]
        if not seated:
            raise ServiceError(ERR_NOT_SEATED, "You are not playing in this match.")
        if outcome.current_user_id != user_id:
            raise ServiceError(
                ERR_NOT_YOUR_TURN, "It is not your turn.", current_user_id=outcome.current_user_id
            )

    async def post_outcome(
        self, outcome: Outcome, lang: Lang, *, headline: str | None = None
    ) -> discord.Message:
        """Post the turn message (or the final scoring) in the match's channel."""
        png = outcome.png
        if png is None:
            png = await images.cells_png(outcome.view, outcome.placements)
        msg = ui.outcome_message(outcome, lang, png, headline=headline)
        channel = self.bot.get_partial_messageable(
            outcome.channel_id, guild_id=outcome.guild_id or None
        )
        sent = await channel.send(**msg.kwargs())
        if not (outcome.finished or outcome.view.over):
            await self.service.set_turn_message(outcome.match_id, outcome.version, sent.id)
        return sent

    async def _fresh(
        self, interaction: Interaction, click: Click, *, render: bool = False
    ) -> Outcome:
        """The current match, if ``click`` was made on its current version (else ERR_STALE)."""
        try:
            outcome = await self.service.current(channel_id(interaction), render=render)
        except ServiceError as e:
            if e.key == ERR_NO_MATCH:
                raise ServiceError("match_over", "This match is over.") from None
            raise
        if outcome.match_id != click.match_id or outcome.version != click.version:
            url = ui.board_link(outcome.guild_id, outcome.channel_id, outcome.turn_message_id)
            raise ServiceError(ERR_STALE, "This board is out of date.", message_url=url)
        return outcome

    async def _submit(
        self,
        interaction: Interaction,
        actions: list[Action],
        expected_version: int,
        *,
        match_id: int,
    ) -> Outcome:
        lang = self._remember_lang(match_id, interaction)
        outcome = await self.service.submit(
            channel_id(interaction), _uid(interaction), actions, expected_version=expected_version
        )
        moved = " · ".join(_move_text(a, lang) for a in actions)
        name = interaction.user.display_name
        await self.post_outcome(outcome, lang, headline=t(lang, "moved", name=name, move=moved))
        return outcome

    async def _click_place(self, interaction: Interaction, click: Click) -> None:
        """Turn message "Place tile": open the ephemeral cell picker."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await self._fresh(interaction, click, render=True)
        self._require_turn(outcome, _uid(interaction))
        await self._send_cells(interaction, outcome, 0, new_message=True)

    async def _send_cells(
        self, interaction: Interaction, outcome: Outcome, page: int, *, new_message: bool
    ) -> None:
        lang = lang_of(interaction.locale)
        cells = legal.cells(outcome)
        png = outcome.png or await images.cells_png(outcome.view, outcome.placements)
        text = t(lang, "picker_cells", tile=outcome.view.drawn, count=len(cells))
        view = ui.cells_picker(outcome.match_id, outcome.version, cells, page, lang)
        file = discord.File(_buf(png), filename="cells.png")
        if new_message:
            await interaction.followup.send(text, file=file, view=view, ephemeral=True)
        else:
            await interaction.edit_original_response(content=text, attachments=[file], view=view)

    async def _click_page(self, interaction: Interaction, click: Click) -> None:
        await interaction.response.defer()
        outcome = await self._fresh(interaction, click, render=True)
        self._require_turn(outcome, _uid(interaction))
        await self._send_cells(interaction, outcome, _int(click.arg) or 0, new_message=False)

    async def _click_cell(self, interaction: Interaction, click: Click) -> None:
        """Cell chosen in the select: show the legal rotations with the preview image."""
        await interaction.response.defer()
        outcome = await self._fresh(interaction, click)
        self._require_turn(outcome, _uid(interaction))
        number = _int(click.values[0]) if click.values else None
        await self._show_rotations(interaction, outcome, number, None)

    async def _show_rotations(
        self,
        interaction: Interaction,
        outcome: Outcome,
        number: int | None,
        chosen: Rotation | None,
    ) -> None:
        lang = lang_of(interaction.locale)
        c = legal.cell(outcome, number) if number is not None else None
        if c is None:
            raise ServiceError("bad_cell", "Not a legal cell.", cell=number)
        if chosen is None and len(c.rotations) == 1:
            chosen = c.rotations[0]
        shown = (chosen,) if chosen is not None else c.rotations
        png = await images.preview_png(outcome.view, c.pos, shown)
        key = "picker_rotation_chosen" if chosen is not None else "picker_rotation"
        text = t(lang, key, cell=c.number, rotation=chosen.degrees if chosen is not None else "")
        view = ui.rotation_picker(outcome.match_id, outcome.version, c, chosen, lang)
        file = discord.File(_buf(png), filename="preview.png")
        await interaction.edit_original_response(content=text, attachments=[file], view=view)

    async def _click_rot(self, interaction: Interaction, click: Click) -> None:
        await interaction.response.defer()
        outcome = await self._fresh(interaction, click)
        self._require_turn(outcome, _uid(interaction))
        number, degrees = (_int(a) for a in (click.args + ["", ""])[:2])
        rot = ROTATIONS.get(degrees) if degrees is not None else None
        await self._show_rotations(interaction, outcome, number, rot)

    async def _click_ok(self, interaction: Interaction, click: Click) -> None:
        """Rotation confirmed: show the labelled spots and "No follower"."""
        await interaction.response.defer()
        outcome = await self._fresh(interaction, click)
        self._require_turn(outcome, _uid(interaction))
        lang = lang_of(interaction.locale)
        number, degrees = (_int(a) for a in (click.args + ["", ""])[:2])
        c = legal.cell(outcome, number) if number is not None else None
        rot = ROTATIONS.get(degrees) if degrees is not None else None
        if c is None or rot is None or rot not in c.rotations:
            raise ServiceError("bad_rotation", "Illegal rotation.", cell=number, rotation=degrees)
        place = PlaceTile(c.pos, rot)
        deploys = list(await self.service.candidate(channel_id(interaction), place))
        after = await self.service.candidate_view(channel_id(interaction), place)
        deploys = deploys[: ui.MAX_SPOT_BUTTONS]  # the picture letters what the buttons offer
        png = await images.spots_png(after, [d.spot for d in deploys])
        text = t(lang, "picker_spots" if deploys else "picker_no_spots")
        view = ui.spots_picker(
            outcome.match_id, outcome.version, deploys, lang, cell=c, rotation=rot
        )
        file = discord.File(_buf(png), filename="spots.png")
        await interaction.edit_original_response(content=text, attachments=[file], view=view)

    async def _click_dep(self, interaction: Interaction, click: Click) -> None:
        """Spot (or "No follower") chosen: place and deploy in one service call."""
        await interaction.response.defer()
        args = click.args
        outcome = await self._fresh(interaction, click)
        self._require_turn(outcome, _uid(interaction))
        number, degrees = _int(args[0]) if args else None, _int(args[1]) if len(args) > 1 else None
        spot = ":".join(args[2:]) or legal.NONE_SPOT
        actions = await self._place_actions(interaction, outcome, number, degrees, spot)
        await self._finish_picker(interaction, actions, click)

    async def _finish_picker(
        self, interaction: Interaction, actions: list[Action], click: Click
    ) -> None:
        lang = lang_of(interaction.locale)
        await self._submit(interaction, actions, click.version, match_id=click.match_id)
        await interaction.edit_original_response(content=t(lang, "done"), attachments=[], view=None)

    async def _click_spots(self, interaction: Interaction, click: Click) -> None:
        """Turn message "Follower" (deploy step): the labelled-spot picker."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await self._fresh(interaction, click)
        self._require_turn(outcome, _uid(interaction))
        lang = lang_of(interaction.locale)
        deploys = legal.deploys_now(outcome)[: ui.MAX_SPOT_BUTTONS]
        png = await images.spots_png(outcome.view, [d.spot for d in deploys])
        text = t(lang, "picker_spots" if deploys else "picker_no_spots")
        view = ui.spots_picker(outcome.match_id, outcome.version, deploys, lang)
        file = discord.File(_buf(png), filename="spots.png")
        await interaction.followup.send(text, file=file, view=view, ephemeral=True)

    async def _click_fol(self, interaction: Interaction, click: Click) -> None:
        await interaction.response.defer()
        outcome = await self._fresh(interaction, click)
        self._require_turn(outcome, _uid(interaction))
        action = _deploy_action(outcome, click.arg or legal.NONE_SPOT)
        await self._finish_picker(interaction, [action], click)

    async def _click_pass(self, interaction: Interaction, click: Click) -> None:
        await interaction.response.defer()
        outcome = await self._fresh(interaction, click)
        self._require_turn(outcome, _uid(interaction))
        if outcome.view.step != "deploy":
            raise ServiceError("not_deploy_step", "Place your tile first.")
        await self._submit(interaction, [Pass()], click.version, match_id=click.match_id)

    async def _click_undo(self, interaction: Interaction, click: Click) -> None:
        await interaction.response.defer()
        await self._fresh(interaction, click)
        await self._undo(interaction)

    async def _place_actions(
        self,
        interaction: Interaction,
        outcome: Outcome,
        cell: int | None,
        degrees: int | None,
        follower: str | None,
    ) -> list[Action]:
        """The actions of ``place cell rotation [follower]``, checked against the legal values.

        ``follower`` is a spot (a follower) or ``figure+spot`` (see ``legal.choice_key``).

        Raises:
            ServiceError: not_place_step, bad_cell, bad_rotation, bad_spot.
        """
        if outcome.view.step != "place":
            raise ServiceError("not_place_step", "You have already placed your tile.")
        c = legal.cell(outcome, cell) if cell is not None else None
        if c is None:
            raise ServiceError("bad_cell", f"Cell {cell} is not legal.", cell=cell)
        rot = ROTATIONS.get(degrees) if degrees is not None else None
        if rot is None or rot not in c.rotations:
            raise ServiceError("bad_rotation", "Illegal rotation.", cell=cell, rotation=degrees)
        place = PlaceTile(c.pos, rot)
        actions: list[Action] = [place]
        if follower is None or not follower.strip():
            return actions
        if follower.strip().lower() == legal.NONE_SPOT:
            actions.append(Pass())
            return actions
        deploys = list(await self.service.candidate(channel_id(interaction), place))
        found = legal.find_choice(follower, deploys)
        if found is None:
            raise ServiceError("bad_spot", "Illegal spot.", spot=follower)
        actions.append(found)
        return actions

    async def _click_tiles(self, interaction: Interaction, click: Click) -> None:
        await self._tiles(interaction)


# ====================================================================== parsing helpers
def _int(value: object) -> int | None:
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def _buf(data: bytes) -> io.BytesIO:
    return io.BytesIO(data)


def _deploy_action(outcome: Outcome, spot: str) -> Action:
    if outcome.view.step != "deploy":
        raise ServiceError("not_deploy_step", "Place your tile first.")
    if spot.strip().lower() == legal.NONE_SPOT:
        return Pass()
    found = legal.find_choice(spot, legal.deploys_now(outcome))
    if found is None:
        raise ServiceError("bad_spot", "Illegal spot.", spot=spot)
    return found


def _spot_choices(
    deploys: list[Deploy], current: str, lang: Lang
) -> list[app_commands.Choice[str]]:
    """Autocomplete choices: every legal figure placement, then "none" (always offered)."""
    typed = current.strip().lower()
    out = []
    for d in deploys:
        key = legal.choice_key(d)
        label = ui.deploy_label(d, lang)
        if typed and typed not in key.lower() and typed not in label.lower():
            continue
        out.append(app_commands.Choice(name=f"{label} — {key}"[:100], value=key))
    none = app_commands.Choice(name=ui.spot_label(legal.NONE_SPOT, lang), value=legal.NONE_SPOT)
    return [*out[:24], none]


def _move_text(action: Action, lang: Lang) -> str:
    if isinstance(action, PlaceTile):
        return f"🧩 {action.pos.notation()} {ui.rotation_label(action.rotation)}"
    if isinstance(action, Deploy):
        return f"🧍 {ui.deploy_label(action, lang)}"
    return f"🚫 {t(lang, 'btn_no_follower').lower()}"
