"""``/carcassonne ...`` slash commands and the game's buttons and selects.

Every handler is parse → :class:`MatchService` call → present (``bot.ui.presenters``). The
two ways to play a turn — the slash command ``place`` with autocomplete and the Place button's
ephemeral picker (:mod:`bot.cogs.turns`) — both end in the same ``service.submit`` call. The
lobby (shared with the card game in :mod:`bot.cogs.base`) also carries the host's pickers of
expansions and their rules. Every error a user can cause becomes a short ephemeral answer in
their language; anything else is logged and answered with a generic apology, never a traceback.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Sequence
from typing import Any, NoReturn

import discord
from discord import app_commands
from discord.ext import commands

from app.base import LobbyInfo
from app.cache import Lru
from app.choices import Step, Token, walk
from app.matches import (
    ERR_NOT_YOUR_TURN,
    MatchService,
    Outcome,
    ServiceError,
)
from app.picking import Chain, PickerSessions
from bot.cogs import table_options as opts
from bot.cogs.base import channel_id, shown_user
from bot.cogs.info_commands import InfoCommands
from bot.cogs.lobby_pickers import LobbyPickers
from bot.cogs.seat_commands import SeatCommands
from bot.cogs.stats import StatsCommands
from bot.cogs.suggestions import Suggestions
from bot.cogs.turns import MATCH_MEMORY, TurnPickers, move_text
from bot.cogs.upkeep import Upkeep
from bot.ui import lobby as lobby_ui
from bot.ui import presenters as ui
from bot.ui import typed
from bot.ui.message import Message, TextOption
from engine.core.decisions import Decision
from words.i18n import Lang, lang_of, t

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]


def _uid(interaction: Interaction) -> int:
    return interaction.user.id


def _int(value: object) -> int | None:
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


@app_commands.guild_only()
class Carcassonne(
    TurnPickers,
    commands.GroupCog,
    group_name="carcassonne",
    group_description="Play Carcassonne in this channel",
):
    """The tile game: lobby, turns, information commands and the component handler."""

    def __init__(self, bot: commands.Bot, service: MatchService) -> None:
        self.bot = bot
        self.service = service
        # per match, bounded, forgotten when the match ends (see TurnPickers.forget)
        self._lang: Lru[int, Lang] = Lru(MATCH_MEMORY)  # the language of its public messages
        self._dm_sent: Lru[int, set[str]] = Lru(MATCH_MEMORY)  # secret decisions sent by DM
        self._sessions = PickerSessions(service, MATCH_MEMORY)  # decisions read once per version
        self._suggestions = Suggestions(self._read_my_decisions)  # autocomplete's reads, kept
        self._background: set[asyncio.Task[None]] = set()
        self._driving: set[int] = set()
        self.upkeep = Upkeep(bot, service, self.post_outcome, self._lang, self.drive)
        self.pickers = LobbyPickers(self)  # the lobby message's selects
        self.seat_commands = SeatCommands(self)  # away, back, vote_out
        self.info = InfoCommands(self)  # board, tiles, score, rules
        self.boards = StatsCommands(bot, service)  # leaderboard, stats, history
        super().__init__()

    async def cog_unload(self) -> None:
        self.upkeep.stop()
        for task in list(self._background):
            task.cancel()

    # ================================================================== the game's parts
    @property
    def lobby_service(self) -> MatchService:
        return self.service

    def text(self, lang: Lang, key: str, **params: Any) -> str:
        return t(lang, key, **params)

    def error_text(self, err: ServiceError, lang: Lang) -> str:
        return ui.error_text(err, lang)

    def lobby_message(self, info: LobbyInfo[Any], lang: Lang) -> Message:
        return ui.lobby_message(info, lang)

    def lang_for(self, match_id: int, interaction: Interaction) -> Lang:
        return self._remember_lang(match_id, interaction)

    async def after_start(self, outcome: Any, lang: Lang) -> None:
        await self.post_outcome(outcome, lang)

    def _remember_lang(self, match_id: int, interaction: Interaction) -> Lang:
        lang = lang_of(interaction.locale)
        self._lang[match_id] = lang
        self.service.note_lang(match_id, lang.value)  # the match's pictures speak it too
        return lang

    # ================================================================== lobby commands
    @app_commands.command(name="new", description="Open a new Carcassonne table in this channel")
    @app_commands.describe(
        **opts.DESCRIBE,
        opponents="Play at once against this many AI players",
        level="How well the AI players play",
    )
    @app_commands.choices(level=opts.AI_LEVEL, clock=opts.CLOCK)
    @app_commands.choices(farm_scoring=opts.FARM_SCORING)
    @app_commands.choices(tiny_city=opts.TINY_CITY)
    async def new(
        self,
        interaction: Interaction,
        players: app_commands.Range[int, 2, 6] | None = None,
        farm_scoring: str | None = None,
        tiny_city: int | None = None,
        reminder_minutes: app_commands.Range[int, 0, 10080] | None = None,
        clock: str | None = None,
        opponents: app_commands.Range[int, 1, 5] | None = None,
        level: str = "normal",
    ) -> None:
        """Open a lobby with the guild's default options, changed by those given here; the
        expansions and their rules are chosen on the lobby message itself. With
        ``opponents``, the table gets that many AI players at ``level`` and starts at once."""

        async def body() -> None:
            await self.defer_if_busy(interaction)
            given = opts.with_given(
                await self.service.guild_defaults(interaction.guild_id or 0),
                opts.given_options(
                    players=players,
                    farm_scoring=farm_scoring,
                    tiny_city=tiny_city,
                    reminder_minutes=reminder_minutes,
                    clock=clock,
                ),
            )
            # the table speaks its opener's language, also after a restart
            options = dataclasses.replace(given, lang=lang_of(interaction.locale).value)
            if opponents:
                options = dataclasses.replace(options, players=1 + opponents)
            cid, uid = channel_id(interaction), _uid(interaction)
            info = await self.service.create_lobby(
                interaction.guild_id or 0, cid, uid, interaction.user.display_name, options
            )
            for _ in range(opponents or 0):
                info = await self.service.add_ai(cid, uid, level)
            edit = await self._post_lobby(interaction, info)
            if opponents:  # a game against AIs starts at once: the lobby message closes
                await self.work_slot(interaction)
                outcome = await self.service.start(cid, uid)
                lang = self._remember_lang(info.match_id, interaction)
                closed = ui.lobby_message(await self.service.lobby(cid), lang)
                await edit(**closed.kwargs(edit=True))
                await self.after_start(outcome, lang)

        await self._run(interaction, body)

    @app_commands.command(
        name="defaults", description="The server's default options for new tables (managers)"
    )
    @app_commands.describe(
        **opts.DESCRIBE,
        expansions="Expansions, separated by commas ('none' for the base game)",
        reset="Go back to the built-in defaults",
    )
    @app_commands.choices(farm_scoring=opts.FARM_SCORING, clock=opts.CLOCK)
    @app_commands.choices(tiny_city=opts.TINY_CITY)
    async def defaults(
        self,
        interaction: Interaction,
        players: app_commands.Range[int, 2, 6] | None = None,
        farm_scoring: str | None = None,
        tiny_city: int | None = None,
        reminder_minutes: app_commands.Range[int, 0, 10080] | None = None,
        clock: str | None = None,
        expansions: app_commands.Range[str, 1, 100] | None = None,
        reset: bool = False,
    ) -> None:
        """Show the server's defaults for ``/carcassonne new`` (options left unset there come
        from them), or change them: managers of the server only (Manage Server). The
        expansions' rule variants keep being chosen in each lobby."""

        changes = opts.given_options(
            players=players,
            farm_scoring=farm_scoring,
            tiny_city=tiny_city,
            reminder_minutes=reminder_minutes,
            clock=clock,
        )
        await self._run(
            interaction,
            lambda: opts.defaults_command(self.service, interaction, changes, expansions, reset),
        )

    @defaults.autocomplete("expansions")
    async def _expansions_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        lang = lang_of(interaction.locale)
        return [
            app_commands.Choice(name=name[:100], value=value[:100])
            for name, value in lobby_ui.expansion_entries(current, lang)
        ][:25]

    @app_commands.command(name="join", description="Join the table in this channel")
    async def join(self, interaction: Interaction) -> None:
        await self._run(interaction, lambda: self._join_command(interaction))

    @app_commands.command(name="leave", description="Leave the table before it starts")
    async def leave(self, interaction: Interaction) -> None:
        await self._run(interaction, lambda: self._leave_command(interaction))

    @app_commands.command(name="start", description="Start the match (host)")
    async def start(self, interaction: Interaction) -> None:
        await self._run(interaction, lambda: self._start_command(interaction))

    # ================================================================== turn commands
    @app_commands.command(name="choose", description="Answer one of your open choices")
    @app_commands.describe(option="What you choose (the list shows your open choices)")
    async def choose(self, interaction: Interaction, option: TextOption) -> None:
        """The typed path to any decision: an option from autocomplete, its words, a number
        (a numeric option) or "pass"."""

        async def body() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.work_slot(interaction)
            lang = lang_of(interaction.locale)
            outcome, mine = await self.service.decisions_for(
                channel_id(interaction), _uid(interaction)
            )
            if not mine:
                self._nothing_to_do(outcome)
            step = typed.parse_choice(option, mine, outcome.seats, lang)
            await self._typed_answer(interaction, outcome, step.decision, [step])

        await self._run(interaction, body)

    @choose.autocomplete("option")
    async def _choose_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = await self._my_decisions(interaction)
        if found is None:
            return []
        outcome, mine = found
        lang = lang_of(interaction.locale)
        return [
            app_commands.Choice(name=e.name, value=e.value)
            for e in typed.choice_entries(mine, outcome.seats, lang, current)
        ]

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
        follower: TextOption | None = None,
    ) -> None:
        """The tile shortcut: cell and rotation, and the follower step's answer with it."""

        async def body() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.work_slot(interaction)
            outcome, mine = await self.service.decisions_for(
                channel_id(interaction), _uid(interaction)
            )
            decision = typed.tile_decision(mine)
            if decision is None:
                if mine:
                    raise ServiceError("no_tile_choice", "You have no tile to place now.")
                self._nothing_to_do(outcome)
            steps = [typed.place_step(decision, cell, rotation)]
            if follower is not None and follower.strip():
                nxt = await self._after_tile(interaction, outcome, mine, steps[0])
                if nxt is not None or follower.strip().lower() != typed.NONE:
                    steps.append(typed.follower_step(nxt, follower))
            await self._typed_answer(interaction, outcome, decision, steps)

        await self._run(interaction, body)

    @place.autocomplete("cell")
    async def _cell_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        found = await self._my_decisions(interaction)
        decision = typed.tile_decision(found[1]) if found is not None else None
        if decision is None:
            return []
        lang = lang_of(interaction.locale)
        return [
            app_commands.Choice(name=name, value=number)
            for name, number in typed.cell_entries(decision, lang, current)
        ]

    @place.autocomplete("rotation")
    async def _rotation_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        found = await self._my_decisions(interaction)
        decision = typed.tile_decision(found[1]) if found is not None else None
        if decision is None:
            return []
        cell = _int(getattr(interaction.namespace, "cell", None))
        return [
            app_commands.Choice(name=f"{d}°", value=d)
            for d in typed.rotations_at(decision, cell)
            if str(d).startswith(current.strip())
        ]

    @place.autocomplete("follower")
    async def _follower_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        lang = lang_of(interaction.locale)
        found = await self._my_decisions(interaction)
        decision = typed.tile_decision(found[1]) if found is not None else None
        nxt: Decision | None = None
        if found is not None and decision is not None:
            cell = _int(getattr(interaction.namespace, "cell", None))
            degrees = _int(getattr(interaction.namespace, "rotation", None))
            try:
                if cell is not None and degrees is not None:
                    step = typed.place_step(decision, cell, degrees)
                    nxt = await self._after_tile(interaction, found[0], found[1], step)
            except ServiceError:
                nxt = None
        seats = found[0].seats if found is not None else ()
        return [
            app_commands.Choice(name=e.name, value=e.value)
            for e in typed.follower_entries(nxt, seats, lang, current)
        ]

    @app_commands.command(name="pass", description="Pass on your open choice (e.g. no follower)")
    async def pass_(self, interaction: Interaction) -> None:
        async def body() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.work_slot(interaction)
            outcome, mine = await self.service.decisions_for(
                channel_id(interaction), _uid(interaction)
            )
            optional = [d for d in mine if d.optional and d.pass_action is not None]
            if not optional:
                if mine:
                    raise ServiceError("nothing_to_pass", "You cannot pass now.")
                self._nothing_to_do(outcome)
            step = walk(optional[0], (Token("p"),))
            await self._typed_answer(interaction, outcome, step.decision, [step])

        await self._run(interaction, body)

    async def _my_decisions(
        self, interaction: Interaction
    ) -> tuple[Outcome, tuple[Decision, ...]] | None:
        """The caller's open decisions for autocomplete, or None (no match, not seated ...):
        kept a few seconds, until the board changes (:mod:`bot.cogs.suggestions`)."""
        found: tuple[Outcome, tuple[Decision, ...]] | None = await self._suggestions.get(
            channel_id(interaction), _uid(interaction)
        )
        return found

    async def _read_my_decisions(
        self, channel: int, user_id: int
    ) -> tuple[Outcome, tuple[Decision, ...]] | None:
        try:
            return await self.service.decisions_for(channel, user_id)
        except ServiceError:
            return None
        except Exception:
            log.exception("autocomplete failed")
            return None

    def _nothing_to_do(self, outcome: Outcome) -> NoReturn:
        """The caller has no open decision: say whose turn it is."""
        waiting = [int(d.seat) for d in outcome.decisions] or list(outcome.awaiting)
        uid = outcome.user_of(waiting[0]) if waiting else 0
        raise ServiceError(ERR_NOT_YOUR_TURN, "It is not your turn.", current_user_id=uid)

    async def _after_tile(
        self,
        interaction: Interaction,
        outcome: Outcome,
        mine: Sequence[Decision],
        step: Step,
    ) -> Decision | None:
        """The caller's next decision after placing the tile (the follower step), if any."""
        chain = Chain(outcome, _uid(interaction), [step], [], outcome.view, {d.key for d in mine})
        nxt = await self._sessions.following(chain)
        return nxt[0].decision if nxt is not None else None

    async def _typed_answer(
        self,
        interaction: Interaction,
        outcome: Outcome,
        decision: Decision,
        steps: list[Step],
    ) -> None:
        """Submit the answers of a typed command, post the turn message, say "Done"."""
        done = await self.service.submit(
            channel_id(interaction),
            _uid(interaction),
            [s.action() for s in steps],
            key=decision.key,
            match_id=outcome.match_id,  # read with the decisions: not looked up again
        )
        lang = self._remember_lang(done.match_id, interaction)
        moved = move_text(steps, outcome.seats, lang)
        name = shown_user(interaction)
        await self.post_outcome(done, lang, headline=t(lang, "moved", name=name, move=moved))
        await interaction.followup.send(t(lang_of(interaction.locale), "done"), ephemeral=True)

    @app_commands.command(
        name="undo", description="Take back your placement (before choosing a follower)"
    )
    async def undo(self, interaction: Interaction) -> None:
        async def body() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.work_slot(interaction)
            await self._undo(interaction)
            await interaction.followup.send(t(lang_of(interaction.locale), "done"), ephemeral=True)

        await self._run(interaction, body)

    async def _undo(self, interaction: Interaction) -> None:
        outcome = await self.service.undo(channel_id(interaction), _uid(interaction))
        lang = self._remember_lang(outcome.match_id, interaction)
        await self.post_outcome(
            outcome, lang, headline=t(lang, "undone", name=shown_user(interaction))
        )

    @app_commands.command(name="resign", description="Resign from the match")
    async def resign(self, interaction: Interaction) -> None:
        async def body() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.work_slot(interaction)
            outcome = await self.service.resign(channel_id(interaction), _uid(interaction))
            lang = self._remember_lang(outcome.match_id, interaction)
            headline = t(lang, "resigned", name=shown_user(interaction))
            await self.post_outcome(outcome, lang, headline=headline)
            await interaction.followup.send(t(lang, "done"), ephemeral=True)

        await self._run(interaction, body)

    @app_commands.command(name="away", description="Let an AI play your seat until you come back")
    async def away(self, interaction: Interaction) -> None:
        await self._run(interaction, lambda: self.seat_commands.stand_in(interaction, away=True))

    @app_commands.command(name="back", description="Play your seat again after /carcassonne away")
    async def back(self, interaction: Interaction) -> None:
        await self._run(interaction, lambda: self.seat_commands.stand_in(interaction, away=False))

    @app_commands.command(name="pings", description="Be pinged when it is your turn, or not")
    @app_commands.describe(on="Ping me on my turn")
    async def pings(self, interaction: Interaction, on: bool) -> None:
        async def body() -> None:
            await self.service.set_pings(_uid(interaction), on)
            text = t(lang_of(interaction.locale), "pings_on" if on else "pings_off")
            await interaction.response.send_message(text, ephemeral=True)

        await self._run(interaction, body)

    @app_commands.command(name="vote_out", description="Vote to let an AI play a silent seat")
    @app_commands.describe(player="The player who has not moved")
    async def vote_out(self, interaction: Interaction, player: discord.User) -> None:
        await self._run(interaction, lambda: self.seat_commands.vote_out(interaction, player.id))

    @app_commands.command(
        name="abandon", description="End the match in this channel (host or channel managers)"
    )
    async def abandon(self, interaction: Interaction) -> None:
        async def body() -> None:
            perms = interaction.permissions
            can_manage = bool(perms.manage_channels or perms.administrator)
            info = await self.service.abandon(
                channel_id(interaction), _uid(interaction), can_manage=can_manage
            )
            lang = self._remember_lang(info.match_id, interaction)
            self.forget(info.match_id)
            await interaction.response.send_message(
                t(lang, "abandoned", name=shown_user(interaction)),
                allowed_mentions=ui.QUIET,
            )

        await self._run(interaction, body)

    # ================================================================== information
    @app_commands.command(name="board", description="Show the board")
    async def board(self, interaction: Interaction) -> None:
        await self._run(interaction, lambda: self.info.board(interaction))

    @app_commands.command(name="tiles", description="Tiles not drawn yet, by type")
    async def tiles(self, interaction: Interaction) -> None:
        await self._run(interaction, lambda: self.info.tiles(interaction))

    async def _tiles(self, interaction: Interaction) -> None:
        await self.info.tiles(interaction)

    @app_commands.command(name="score", description="Show the scores")
    async def score(self, interaction: Interaction) -> None:
        await self._run(interaction, lambda: self.info.score(interaction))

    @app_commands.command(name="rules", description="The rule options of this match")
    async def rules(self, interaction: Interaction) -> None:
        await self._run(interaction, lambda: self.info.rules(interaction))

    @app_commands.command(name="help", description="How to play here")
    async def help(self, interaction: Interaction) -> None:
        async def body() -> None:
            lang = lang_of(interaction.locale)
            await interaction.response.send_message(embed=ui.help_embed(lang), ephemeral=True)

        await self._run(interaction, body)

    @app_commands.command(name="leaderboard", description="The best players of this server")
    async def leaderboard(self, interaction: Interaction) -> None:
        await self._run(interaction, lambda: self.boards.leaderboard(interaction))

    @app_commands.command(name="stats", description="A player's games, wins, scores and rating")
    @app_commands.describe(player="Whose stats (you when left out)")
    async def stats(self, interaction: Interaction, player: discord.Member | None = None) -> None:
        await self._run(interaction, lambda: self.boards.stats(interaction, player))

    @app_commands.command(
        name="history", description="Finished games here, with their final tables"
    )
    @app_commands.describe(
        server="The whole server instead of this channel", game="A game's number: its record file"
    )
    async def history(
        self, interaction: Interaction, server: bool = False, game: int | None = None
    ) -> None:
        await self._run(interaction, lambda: self.boards.history(interaction, server, game))

    # ================================================================== background
    @commands.Cog.listener()
    async def on_ready(self) -> None:
        self.upkeep.start()
        await self.upkeep.recover()


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the bot must carry ``bot.service`` (a MatchService)."""
    service: MatchService = getattr(bot, "service")  # noqa: B009
    cog = Carcassonne(bot, service)
    await bot.add_cog(cog)
    bot.component_handler = cog  # type: ignore[attr-defined]
