"""The Discord bot process: ``CarcBot`` (cogs, persistent components, translator) and ``run_bot``.

``run_bot(settings)`` opens the match database, builds the bot around one :class:`MatchService`,
and runs until stopped. Commands are never synced here (ECOSYSTEM.md R-01): ``carcabot sync``
does that. The token is handed to discord.py only; it is never logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from concurrent.futures import Executor
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from app.matches import MatchService
from app.painters import Painter, start_painter, start_thinkers
from app.settings import Settings
from app.store import on_shards
from bot import eventloop, gcpause, logs
from bot.translators import CarcTranslator
from bot.ui.components import DYNAMIC_ITEMS
from bot.workload import WorkGate
from rendering import warm_up
from rendering.worker import warm
from storage import StorageError
from storage.backends import describe, is_postgres, open_store
from storage.port import Store
from words.i18n import lang_of, t

log = logging.getLogger(__name__)

EXTENSIONS = ("bot.cogs.carcassonne", "bot.cogs.cardgame")
#: games the service keeps in memory: one per active match, so a busy bot never replays a
#: match's log on each click (the service's own default, 64, thrashes beyond 64 live matches;
#: BENCHMARKS.md "Tables" runs 1,000 tables)
GAME_CACHE = 4096
#: ... and at most about this many bytes of them (a 72-tile game is about 150 KB)
GAME_CACHE_BYTES = 384 * 1024 * 1024
#: the replay animation's worker runs at this lower priority: boards go first
ANIMATION_NICE = 10


def release_response(interaction: discord.Interaction[Any]) -> None:
    """Break the interaction's cycle with its response (``Interaction.response`` is cached
    on the interaction, and the response keeps its interaction), so reference counting frees
    both at once instead of the cyclic collector later."""
    with contextlib.suppress(AttributeError):
        del interaction._cs_response  # type: ignore[attr-defined]


class CarcTree(app_commands.CommandTree[Any]):
    """The command tree with one error handler: an ephemeral, localised answer, never a
    traceback; and slash commands and autocompletes let go of their response once served."""

    async def _call(self, interaction: discord.Interaction[Any]) -> None:
        await super()._call(interaction)
        # An interaction and its response refer to each other, so each one (four a move:
        # three autocompletes and the command) waited for the cyclic collector with its
        # member, user, channel, namespace and payload (~80 objects a move, issue 33).
        # Served, nothing asks the response again (an error goes to on_error with it kept).
        release_response(interaction)

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        lang = lang_of(interaction.locale)
        if isinstance(error, app_commands.NoPrivateMessage):
            text = t(lang, "guild_only")
        else:
            log.error("command error in %s", interaction.command, exc_info=error)
            text = t(lang, "generic_error")
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.exception("could not report a command error")


class CarcBot(commands.Bot):
    """The bot: slash commands only, no privileged intents (ECOSYSTEM.md §1.9)."""

    def __init__(
        self,
        service: MatchService | None,
        *,
        dev_guild_id: int | None = None,
        background_tasks: bool = True,
        draw_workers: int = 0,
        ai_workers: int = 0,
        **gateway: Any,
    ) -> None:
        """``service`` may be None only for ``carcabot sync`` (no interaction is served);
        ``background_tasks=False`` leaves the reminder loop off (tests drive it directly);
        ``draw_workers`` processes draw the pictures once logged in (0: the service's own
        painter, threads unless it was given one); ``ai_workers`` processes are where AI
        players think (0: threads of the bot process)."""
        # no secret reaches any log, whoever set the logging up (bot.logs)
        logs.install_redaction()
        # the bot never joins a voice channel: no warning that voice is not supported
        for flag in ("warn_nacl", "warn_dave"):
            if hasattr(discord.VoiceClient, flag):
                setattr(discord.VoiceClient, flag, False)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            tree_cls=CarcTree,
            # nothing pings unless a message names whom it may ping (bot.ui.message.pinging)
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            **gateway,  # shard_ids and shard_count of a ShardedCarcBot
        )
        self.service = service
        self.dev_guild_id = dev_guild_id
        self.background_tasks = background_tasks
        self.draw_workers = draw_workers
        self.ai_workers = ai_workers
        self._painters: list[Painter] = []
        self._thinkers: Executor | None = None
        #: the moves worked on at once (acknowledgements never wait behind them)
        self.work = WorkGate()

    async def setup_hook(self) -> None:
        # after a successful login, before the gateway and the cogs (the card game's service
        # shares the tile game's painter): a start that fails costs no processes
        if self.service is not None and self.draw_workers > 0:
            painter, animations = await start_painters(self.draw_workers)
            self.service.painter = painter
            self.service.animation_painter = animations
            self._painters = [painter] if animations is painter else [painter, animations]
        if self.service is not None and self.ai_workers > 0:
            self._thinkers = start_thinkers(self.ai_workers)
            self.service.ai_executor = self._thinkers
        await self.tree.set_translator(CarcTranslator())
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        self.add_dynamic_items(*DYNAMIC_ITEMS)

    async def close(self) -> None:
        """Close the connection, then stop the drawing workers."""
        try:
            await super().close()
        finally:
            painters, self._painters = self._painters, []
            for p in painters:
                await p.close()
            if self._thinkers is not None:
                self._thinkers.shutdown(wait=False, cancel_futures=True)
                self._thinkers = None

    async def sync_commands(self, guild_id: int | None = None) -> list[app_commands.AppCommand]:
        """Register the slash commands globally, or in one guild (instant, for development)."""
        if guild_id is None:
            return await self.tree.sync()
        guild = discord.Object(id=guild_id)
        self.tree.copy_global_to(guild=guild)
        return await self.tree.sync(guild=guild)


class ShardedCarcBot(CarcBot, commands.AutoShardedBot):
    """The bot on some of Discord's shards (``shard_ids`` of ``shard_count``): one process of
    several sharing one PostgreSQL database. Direct messages reach shard 0's process; what it
    posts in a channel goes by the channel's id (``get_partial_messageable``), whichever
    process holds that channel's guild."""


def make_bot(
    service: MatchService | None,
    *,
    shard_ids: tuple[int, ...] | None = None,
    shard_count: int | None = None,
    **options: Any,
) -> CarcBot:
    """The bot: unsharded (one gateway connection) unless ``shard_count`` is given."""
    if shard_count is None:
        return CarcBot(service, **options)
    return ShardedCarcBot(
        service, shard_ids=list(shard_ids or range(shard_count)), shard_count=shard_count,
        **options,
    )  # fmt: skip


def setup_logging(level: int) -> None:
    """The console log at ``level``, once, with no secret in it (:func:`bot.logs.setup`)."""
    logs.setup(level)


async def run_bot(settings: Settings) -> None:
    """Open the database, start the bot and run until it is closed.

    Raises:
        ValueError: when ``settings`` has no Discord token.
    """
    if not settings.discord_token:
        raise ValueError("DISCORD_TOKEN is not set")
    setup_logging(settings.log_level_number)
    target = settings.database_target
    log.info("starting the Discord bot; opening match database %s", describe(target))
    if not is_postgres(target):
        settings.database_path.parent.mkdir(parents=True, exist_ok=True)
    # writer=True: a second bot process on the same SQLite file refuses to start
    # (DatabaseInUse); PostgreSQL is shared by every process (moves serialise per match)
    storage = await open_store(target, writer=True)
    service = MatchService(storage, cache_size=GAME_CACHE, cache_bytes=GAME_CACHE_BYTES)
    if settings.shard_count is not None and settings.shard_ids is not None:
        # at start, each process recovers the matches of its own shards' servers
        service.store.serves = on_shards(settings.shard_ids, settings.shard_count)
    pruner = asyncio.create_task(prune_daily(storage))
    if settings.draw_workers <= 0:  # this process draws: warm it up before the first turn
        await asyncio.to_thread(warm)
    # short collector pauses with many matches cached (bot/gcpause.py)
    gcpause.freeze_survivors()
    collector = asyncio.create_task(gcpause.full_collections())
    switches = eventloop.short_switches()  # SQLite's threads get the interpreter sooner
    try:
        bot = make_bot(
            service,
            dev_guild_id=settings.dev_guild_id,
            draw_workers=settings.draw_workers,
            ai_workers=settings.ai_workers,
            shard_ids=settings.shard_ids,
            shard_count=settings.shard_count,
        )
        async with bot:
            await bot.start(settings.discord_token)
    finally:
        collector.cancel()
        gcpause.release()
        sys.setswitchinterval(switches)
        # the pruner ends before the database closes (else it fails on a closed connection)
        pruner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await pruner
        await service.close()


async def start_painters(workers: int) -> tuple[Painter, Painter]:
    """The boards' painter (``workers`` processes, warmed up: every expansion's tiles and the
    font sizes in use) and the replay animations' (one process at a lower priority); threads
    when ``workers`` is 0 or processes are unavailable (then this process is warmed up)."""
    painter = await start_painter(workers, warm=warm, name="boards")
    log.info("pictures are drawn in %d worker process(es)", painter.processes)
    if not painter.processes:
        await asyncio.to_thread(warm)
        return painter, painter
    animations = await start_painter(1, warm=warm_up, nice=ANIMATION_NICE, name="animations")
    return painter, animations


#: how often the database is pruned of what only grows (sent reminders, abandoned lobbies)
PRUNE_EVERY = 24 * 3600.0


async def prune_daily(storage: Store) -> None:
    """Prune at start and then once a day; a failure is logged and retried next time."""
    while True:
        try:
            report = await storage.prune(lobby_days=7, match_days=30)
            if report.total:
                log.info("pruned the database: %s", report)
        except StorageError:
            log.exception("pruning the database failed; trying again tomorrow")
        await asyncio.sleep(PRUNE_EVERY)
