"""``/carcassonne ...`` slash commands and the game's buttons and selects.

Every handler is parse → :class:`MatchService` call → present (``bot.ui.presenters``). The two
ways to play a turn — the slash command ``place`` with autocomplete and the Place button's
ephemeral picker — both end in the same ``service.submit`` call. Every error a user can cause
becomes a short ephemeral answer in their language; anything else is logged and answered with
a generic apology, never a traceback.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.i18n import Lang, lang_of, t
from bot.services.matches import (
    ERR_NO_MATCH,
    ERR_NOT_SEATED,
    ERR_NOT_YOUR_TURN,
    ERR_STALE,
    MatchOptions,
    MatchService,
    Outcome,
    ServiceError,
)
from bot.ui import images, legal
from bot.ui import presenters as ui
from bot.ui.components import Click
from engine import Action, Deploy, EngineError, Pass, PlaceTile, Rotation

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
REMINDER_POLL_SECONDS = 30.0
ROTATIONS = {r.degrees: r for r in Rotation}


def _uid(interaction: Interaction) -> int:
    return interaction.user.id


def _channel_id(interaction: Interaction) -> int:
    cid = interaction.channel_id
    if cid is None:  # pragma: no cover - Discord always sends it for guild interactions
        raise ServiceError(ERR_NO_MATCH, "No channel.")
    return cid


def required_permissions(interaction: Interaction) -> list[str]:
    """Names (i18n keys) of the channel permissions the bot needs here and lacks."""
    have = interaction.app_permissions
    in_thread = isinstance(interaction.channel, discord.Thread)
    needed = [
        "view_channel",
        "send_messages_in_threads" if in_thread else "send_messages",
        "attach_files",
        "embed_links",
    ]
    return [p for p in needed if not getattr(have, p)]


@app_commands.guild_only()
class Carcassonne(
    commands.GroupCog,
    group_name="carcassonne",
    group_description="Play Carcassonne in this channel",
):
    """The tile game: lobby, turns, information commands and the component handler."""

    def __init__(self, bot: commands.Bot, service: MatchService) -> None:
        self.bot = bot
        self.service = service
        self._lang: dict[int, Lang] = {}  # match id -> language of its public messages
        super().__init__()

    async def cog_unload(self) -> None:
        self.reminders.cancel()

    # ================================================================== plumbing
    async def _run(self, interaction: Interaction, body: Callable[[], Awaitable[None]]) -> None:
        """Run a handler; turn every failure into an ephemeral answer in the user's language."""
        lang = lang_of(interaction.locale)
        try:
            await body()
        except ServiceError as e:
            await self._say(interaction, ui.error_text(e, lang))
        except EngineError as e:
            await self._say(interaction, t(lang, "illegal", reason=str(e)))
        except discord.Forbidden:
            log.warning("missing permissions in channel %s", interaction.channel_id)
            missing = [t(lang, f"perm_{p}") for p in required_permissions(interaction)]
            await self._say(interaction, t(lang, "missing_perms", perms=", ".join(missing) or "?"))
        except Exception:
            log.exception("error handling %s", _describe(interaction))
            await self._say(interaction, t(lang, "generic_error"))

    async def _say(self, interaction: Interaction, text: str, **kw: Any) -> None:
        """An ephemeral answer, whether or not the interaction was already acknowledged."""
        try:
            if not interaction.response.is_done():
                await interaction.response.send_message(text, ephemeral=True, **kw)
            elif not interaction.is_expired():
                await interaction.followup.send(text, ephemeral=True, **kw)
        except discord.HTTPException:
            log.exception("could not answer %s", _describe(interaction))

    def _remember_lang(self, match_id: int, interaction: Interaction) -> Lang:
        lang = lang_of(interaction.locale)
        self._lang[match_id] = lang
        return lang

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
            outcome = await self.service.current(_channel_id(interaction), render=render)
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
            _channel_id(interaction), _uid(interaction), actions, expected_version=expected_version
        )
        moved = " · ".join(_move_text(a, lang) for a in actions)
        name = interaction.user.display_name
        await self.post_outcome(outcome, lang, headline=t(lang, "moved", name=name, move=moved))
        return outcome

    # ================================================================== lobby commands
    @app_commands.command(name="new", description="Open a new Carcassonne table in this channel")
    @app_commands.describe(
        players="Number of players (2-6)",
        farm_scoring="How farms score at the end",
        tiny_city="Points for a completed 2-tile city",
        reminder_minutes="Remind the player after this many minutes (0 = never)",
        inns_cathedrals="Add the Inns & Cathedrals expansion",
        traders_builders="Add the Traders & Builders expansion",
    )
    @app_commands.choices(
        farm_scoring=[
            app_commands.Choice(name="per farm (current rules)", value="per_farm"),
            app_commands.Choice(name="per city supplied (1st edition)", value="city_supply_1st_ed"),
        ]
    )
    @app_commands.choices(
        tiny_city=[
            app_commands.Choice(name="2 points + 1 per shield", value=2),
            app_commands.Choice(name="4 points + 2 per shield", value=4),
        ],
    )
    async def new(
        self,
        interaction: Interaction,
        players: app_commands.Range[int, 2, 6] = 2,
        farm_scoring: str = "per_farm",
        tiny_city: int = 2,
        reminder_minutes: app_commands.Range[int, 0, 10080] = 0,
        inns_cathedrals: bool = False,
        traders_builders: bool = False,
    ) -> None:
        async def body() -> None:
            chosen = {"inns_cathedrals": inns_cathedrals, "traders_builders": traders_builders}
            options = MatchOptions(
                players=players,
                farm_scoring=farm_scoring,
                tiny_city=tiny_city,
                reminder_minutes=reminder_minutes,
                expansions=tuple(x for x, on in chosen.items() if on),
            )
            info = await self.service.create_lobby(
                interaction.guild_id or 0,
                _channel_id(interaction),
                _uid(interaction),
                interaction.user.display_name,
                options,
            )
            lang = self._remember_lang(info.match_id, interaction)
            msg = ui.lobby_message(info, lang)
            resp = await interaction.response.send_message(**msg.kwargs())
            if resp.message_id is not None:
                await self.service.set_lobby_message(info.match_id, resp.message_id)

        await self._run(interaction, body)

    @app_commands.command(name="join", description="Join the table in this channel")
    async def join(self, interaction: Interaction) -> None:
        async def body() -> None:
            info = await self.service.join(
                _channel_id(interaction), _uid(interaction), interaction.user.display_name
            )
            lang = self._remember_lang(info.match_id, interaction)
            msg = ui.lobby_message(info, lang)
            msg.content = t(lang, "joined", name=interaction.user.display_name)
            resp = await interaction.response.send_message(**msg.kwargs())
            if resp.message_id is not None:
                await self.service.set_lobby_message(info.match_id, resp.message_id)

        await self._run(interaction, body)

    @app_commands.command(name="leave", description="Leave the table before it starts")
    async def leave(self, interaction: Interaction) -> None:
        async def body() -> None:
            info = await self.service.leave(_channel_id(interaction), _uid(interaction))
            lang = self._remember_lang(info.match_id, interaction)
            msg = ui.lobby_message(info, lang)
            msg.content = t(lang, "left", name=interaction.user.display_name)
            await interaction.response.send_message(**msg.kwargs())

        await self._run(interaction, body)

    @app_commands.command(name="start", description="Start the match (host)")
    async def start(self, interaction: Interaction) -> None:
        async def body() -> None:
            self._check_permissions(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            outcome = await self.service.start(_channel_id(interaction), _uid(interaction))
            lang = self._remember_lang(outcome.match_id, interaction)
            await self.post_outcome(outcome, lang)
            await interaction.followup.send(t(lang, "done"), ephemeral=True)

        await self._run(interaction, body)

    def _check_permissions(self, interaction: Interaction) -> None:
        missing = required_permissions(interaction)
        if missing:
            lang = lang_of(interaction.locale)
            names = ", ".join(t(lang, f"perm_{p}") for p in missing)
            raise ServiceError("missing_perms", f"Missing permissions: {names}", perms=names)

    # ================================================================== turn commands
    @app_commands.command(name="place", description="Place your tile (and optionally a follower)")
    @app_commands.describe(
        cell="Cell number from the board image",
        rotation="Clockwise rotation in degrees",
        follower="Where to put a follower ('none' for no follower)",
    )
    async def place(
        self,
        interaction: Interaction,
        cell: int,
        rotation: int,
        follower: str | None = None,
    ) -> None:
        async def body() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            outcome = await self.service.current(_channel_id(interaction), render=False)
            self._require_turn(outcome, _uid(interaction))
            actions = await self._place_actions(interaction, outcome, cell, rotation, follower)
            lang = lang_of(interaction.locale)
            await self._submit(interaction, actions, outcome.version, match_id=outcome.match_id)
            await interaction.followup.send(t(lang, "done"), ephemeral=True)

        await self._run(interaction, body)

    @place.autocomplete("cell")
    async def _cell_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        lang = lang_of(interaction.locale)
        outcome = await self._peek(interaction)
        if outcome is None:
            return []
        typed = current.strip()
        out = []
        for c in legal.cells(outcome):
            if typed and not str(c.number).startswith(typed):
                continue
            rots = ", ".join(ui.rotation_label(r) for r in c.rotations)
            name = f"{t(lang, 'cell_option', cell=c.number)} — x {c.pos.x}, y {c.pos.y} ({rots})"
            out.append(app_commands.Choice(name=name[:100], value=c.number))
        return out[:25]

    @place.autocomplete("rotation")
    async def _rotation_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        outcome = await self._peek(interaction)
        if outcome is None:
            return []
        number = _int(getattr(interaction.namespace, "cell", None))
        c = legal.cell(outcome, number) if number is not None else None
        rots: list[Rotation] = []
        if c is not None:
            rots = list(c.rotations)
        else:
            for other in legal.cells(outcome):
                rots.extend(r for r in other.rotations if r not in rots)
            rots.sort()
        return [
            app_commands.Choice(name=ui.rotation_label(r), value=r.degrees)
            for r in rots
            if str(r.degrees).startswith(current.strip())
        ][:25]

    @place.autocomplete("follower")
    async def _follower_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        lang = lang_of(interaction.locale)
        outcome = await self._peek(interaction)
        if outcome is None:
            return []
        number = _int(getattr(interaction.namespace, "cell", None))
        degrees = _int(getattr(interaction.namespace, "rotation", None))
        c = legal.cell(outcome, number) if number is not None else None
        rot = ROTATIONS.get(degrees) if degrees is not None else None
        deploys: list[Deploy] = []
        if c is not None and rot is not None and rot in c.rotations:
            place = PlaceTile(c.pos, rot)
            try:
                deploys = list(await self.service.candidate(_channel_id(interaction), place))
            except (ServiceError, EngineError):
                deploys = []
        return _spot_choices(deploys, current, lang)

    @app_commands.command(name="follower", description="Put a follower on the tile you just placed")
    @app_commands.describe(spot="Spot for the follower")
    async def follower(self, interaction: Interaction, spot: str) -> None:
        async def body() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            outcome = await self.service.current(_channel_id(interaction), render=False)
            self._require_turn(outcome, _uid(interaction))
            action = _deploy_action(outcome, spot)
            lang = lang_of(interaction.locale)
            await self._submit(interaction, [action], outcome.version, match_id=outcome.match_id)
            await interaction.followup.send(t(lang, "done"), ephemeral=True)

        await self._run(interaction, body)

    @follower.autocomplete("spot")
    async def _spot_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        lang = lang_of(interaction.locale)
        outcome = await self._peek(interaction)
        if outcome is None:
            return []
        return _spot_choices(legal.deploys_now(outcome), current, lang)

    @app_commands.command(name="pass", description="Place no follower this turn")
    async def pass_(self, interaction: Interaction) -> None:
        async def body() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            outcome = await self.service.current(_channel_id(interaction), render=False)
            self._require_turn(outcome, _uid(interaction))
            if outcome.view.step != "deploy":
                raise ServiceError("not_deploy_step", "Place your tile first.")
            lang = lang_of(interaction.locale)
            await self._submit(interaction, [Pass()], outcome.version, match_id=outcome.match_id)
            await interaction.followup.send(t(lang, "done"), ephemeral=True)

        await self._run(interaction, body)

    @app_commands.command(
        name="undo", description="Take back your placement (before choosing a follower)"
    )
    async def undo(self, interaction: Interaction) -> None:
        async def body() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self._undo(interaction)
            await interaction.followup.send(t(lang_of(interaction.locale), "done"), ephemeral=True)

        await self._run(interaction, body)

    async def _undo(self, interaction: Interaction) -> None:
        outcome = await self.service.undo(_channel_id(interaction), _uid(interaction))
        lang = self._remember_lang(outcome.match_id, interaction)
        await self.post_outcome(
            outcome, lang, headline=t(lang, "undone", name=interaction.user.display_name)
        )

    @app_commands.command(name="resign", description="Resign from the match")
    async def resign(self, interaction: Interaction) -> None:
        async def body() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            outcome = await self.service.resign(_channel_id(interaction), _uid(interaction))
            lang = self._remember_lang(outcome.match_id, interaction)
            headline = t(lang, "resigned", name=interaction.user.display_name)
            await self.post_outcome(outcome, lang, headline=headline)
            await interaction.followup.send(t(lang, "done"), ephemeral=True)

        await self._run(interaction, body)

    @app_commands.command(
        name="abandon", description="End the match in this channel (host or channel managers)"
    )
    async def abandon(self, interaction: Interaction) -> None:
        async def body() -> None:
            perms = interaction.permissions
            can_manage = bool(perms.manage_channels or perms.administrator)
            info = await self.service.abandon(
                _channel_id(interaction), _uid(interaction), can_manage=can_manage
            )
            lang = self._remember_lang(info.match_id, interaction)
            await interaction.response.send_message(
                t(lang, "abandoned", name=interaction.user.display_name),
                allowed_mentions=ui.QUIET,
            )

        await self._run(interaction, body)

    # ================================================================== information
    @app_commands.command(name="board", description="Show the board")
    async def board(self, interaction: Interaction) -> None:
        async def body() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            outcome = await self.service.current(_channel_id(interaction), render=True)
            lang = lang_of(interaction.locale)
            png = outcome.png or await images.cells_png(outcome.view, outcome.placements)
            await interaction.followup.send(
                embed=ui.score_embed(outcome, lang),
                file=discord.File(_buf(png), filename="board.png"),
                ephemeral=True,
            )

        await self._run(interaction, body)

    @app_commands.command(name="tiles", description="Tiles not drawn yet, by type")
    async def tiles(self, interaction: Interaction) -> None:
        async def body() -> None:
            await self._tiles(interaction)

        await self._run(interaction, body)

    async def _tiles(self, interaction: Interaction) -> None:
        outcome = await self.service.current(_channel_id(interaction), render=False)
        lang = lang_of(interaction.locale)
        embed = ui.tiles_embed(legal.remaining_tiles(outcome.view), lang)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="score", description="Show the scores")
    async def score(self, interaction: Interaction) -> None:
        async def body() -> None:
            outcome = await self.service.current(_channel_id(interaction), render=False)
            lang = lang_of(interaction.locale)
            await interaction.response.send_message(
                embed=ui.score_embed(outcome, lang), ephemeral=True
            )

        await self._run(interaction, body)

    @app_commands.command(name="rules", description="The rule options of this match")
    async def rules(self, interaction: Interaction) -> None:
        async def body() -> None:
            info = await self.service.lobby(_channel_id(interaction))
            lang = lang_of(interaction.locale)
            await interaction.response.send_message(
                embed=ui.rules_embed(info.options, lang), ephemeral=True
            )

        await self._run(interaction, body)

    @app_commands.command(name="help", description="How to play here")
    async def help(self, interaction: Interaction) -> None:
        async def body() -> None:
            lang = lang_of(interaction.locale)
            await interaction.response.send_message(embed=ui.help_embed(lang), ephemeral=True)

        await self._run(interaction, body)

    async def _peek(self, interaction: Interaction) -> Outcome | None:
        """The current match for autocomplete (no image), or None when there is none."""
        try:
            return await self.service.current(_channel_id(interaction), render=False)
        except ServiceError:
            return None
        except Exception:
            log.exception("autocomplete failed")
            return None

    # ================================================================== components
    async def on_click(self, interaction: Interaction, click: Click) -> None:
        """Entry point of every CarcButton / CarcSelect (see bot.ui.components)."""
        handler = self._CLICKS.get(click.action)
        if handler is None:
            await self._say(interaction, t(lang_of(interaction.locale), "generic_error"))
            return
        await self._run(interaction, lambda: handler(self, interaction, click))

    async def _click_lobby(self, interaction: Interaction, click: Click) -> None:
        cid, uid, name = _channel_id(interaction), _uid(interaction), interaction.user.display_name
        lang = self._remember_lang(click.match_id, interaction)
        try:
            current = await self.service.lobby(cid)
        except ServiceError:
            current = None
        if current is None or current.match_id != click.match_id or current.status != "lobby":
            await self._say(interaction, t(lang, "lobby_closed"))
            return
        if click.action == "start":
            self._check_permissions(interaction)
            await interaction.response.defer()
            outcome = await self.service.start(cid, uid)
            info = await self.service.lobby(cid)
            await interaction.edit_original_response(
                **ui.lobby_message(info, lang).kwargs(edit=True)
            )
            await self.post_outcome(outcome, lang)
            return
        if click.action == "join":
            info = await self.service.join(cid, uid, name)
        else:
            info = await self.service.leave(cid, uid)
        await interaction.response.edit_message(**ui.lobby_message(info, lang).kwargs(edit=True))

    async def _click_tiles(self, interaction: Interaction, click: Click) -> None:
        await self._tiles(interaction)

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
        deploys = list(await self.service.candidate(_channel_id(interaction), place))
        after = await self.service.candidate_view(_channel_id(interaction), place)
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
        deploys = list(await self.service.candidate(_channel_id(interaction), place))
        found = legal.find_choice(follower, deploys)
        if found is None:
            raise ServiceError("bad_spot", "Illegal spot.", spot=follower)
        actions.append(found)
        return actions

    _CLICKS: dict[str, Callable[[Carcassonne, Interaction, Click], Awaitable[None]]] = {
        "join": _click_lobby,
        "leave": _click_lobby,
        "start": _click_lobby,
        "tiles": _click_tiles,
        "place": _click_place,
        "page": _click_page,
        "cell": _click_cell,
        "rot": _click_rot,
        "ok": _click_ok,
        "dep": _click_dep,
        "spots": _click_spots,
        "fol": _click_fol,
        "pass": _click_pass,
        "undo": _click_undo,
    }

    # ================================================================== background
    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if getattr(self.bot, "background_tasks", True) and not self.reminders.is_running():
            self.reminders.start()
        await self.recover()

    async def recover(self) -> int:
        """Post the turn message of every active match whose current board was not posted."""
        posted = 0
        for outcome in await self.service.active_matches():
            if outcome.turn_message_id is not None:
                continue
            try:
                await self.post_outcome(outcome, self._lang.get(outcome.match_id, Lang.EN))
                posted += 1
            except Exception:
                log.exception("could not re-post match %s", outcome.match_id)
        return posted

    @tasks.loop(seconds=REMINDER_POLL_SECONDS)
    async def reminders(self) -> None:
        try:
            await self.send_reminders(time.time())
        except Exception:
            log.exception("turn reminders failed")

    async def send_reminders(self, now: float) -> int:
        """Mention every player whose turn reminder is due; returns how many were sent."""
        sent = 0
        for match_id, channel_id, user_id in await self.service.due_reminders(now):
            lang = self._lang.get(match_id, Lang.EN)
            where = ""
            try:
                outcome = await self.service.current(channel_id, render=False)
                url = ui.board_link(outcome.guild_id, channel_id, outcome.turn_message_id)
                where = t(lang, "here_link", url=url) if url else ""
            except ServiceError:
                continue
            channel = self.bot.get_partial_messageable(channel_id)
            try:
                await channel.send(
                    t(lang, "reminder", mention=f"<@{user_id}>", where=where),
                    allowed_mentions=ui.ALLOWED,
                )
                sent += 1
            except discord.HTTPException:
                log.warning("could not send a reminder in channel %s", channel_id)
        return sent


# ====================================================================== parsing helpers
def _int(value: object) -> int | None:
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def _buf(data: bytes) -> Any:
    import io

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


def _describe(interaction: Interaction) -> str:
    data: Any = interaction.data or {}
    what = data.get("custom_id") or data.get("name") or "?"
    return f"interaction {interaction.id} ({what}) in channel {interaction.channel_id}"


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the bot must carry ``bot.service`` (a MatchService)."""
    service: MatchService = getattr(bot, "service")  # noqa: B009
    cog = Carcassonne(bot, service)
    await bot.add_cog(cog)
    bot.component_handler = cog  # type: ignore[attr-defined]
