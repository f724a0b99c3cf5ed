"""``/cardgame ...``: Carcassonne – the card game in a channel, hands delivered privately.

Every handler is parse → :class:`CardMatchService` call → present (``bot.ui.cardgame``). The
channel gets the table image and the public events after every move; each player whose hand (or
owed choice) changed gets it by direct message (ARCHITECTURE.md decision 5). When a DM fails
with 403 the player is remembered as "DMs closed", told so once in the channel (without any
card), and from then on reads the hand through the ephemeral answer of the **My hand** button or
``/cardgame hand``. A failing DM is never retried.

Every choice is an engine decision (:mod:`engine.cardgame.decisions`) shown by the presenter
both games share (:mod:`bot.cogs.cardturns`): the public ones (the follower, the setup joker,
the scoring choices) on the table message, the private one (which card to play; the first goes
face down) in the hand DM and the ephemeral My hand reply. ``/cardgame play`` and ``claim`` do
the same by slash command, whose autocomplete answer is seen only by the typing user.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from app.base import ERR_NOT_YOUR_TURN, LobbyInfo, ServiceError, illegal
from app.cardgame import CardMatchService, CardOutcome
from bot.cogs.base import GameCog, channel_id, shown_user
from bot.cogs.card_timers import CardTimers
from bot.cogs.cardturns import CardPickers
from bot.cogs.private import reply_private, send_private
from bot.cogs.seat_commands import vote_out
from bot.cogs.table_options import AI_LEVEL, CLOCK
from bot.translators import CardTranslator
from bot.ui import cardgame as cui
from bot.ui.components import Click
from bot.ui.message import MAX_OPTION, Message, TextOption, quoted
from engine.cardgame import (
    CardAction,
    CardFace,
    CardSeatView,
    LayJoker,
    PlaceFollower,
    PlayCard,
    rules_summary,
)
from engine.cardgame.cards import FACE_BY_CODE, Colour, face_code, face_name
from engine.core import messages
from engine.core.errors import EngineError
from rendering.cardgame import render_hand
from words.i18n import Lang, lang_of
from words.i18n_cards import row_name, tc

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
RenderHand = Callable[[CardSeatView, str], bytes]


@app_commands.guild_only()
class CardGame(
    CardPickers,
    GameCog,
    commands.GroupCog,
    group_name="cardgame",
    group_description="Play Carcassonne – the card game in this channel",
):
    """The card game: lobby, moves, private hands and the component handler."""

    def __init__(self, bot: commands.Bot, service: CardMatchService | None) -> None:
        """``service`` is None only for ``carcabot sync`` (no interaction is served)."""
        self.bot = bot
        self._service = service
        self.hand_renderer: RenderHand = render_hand
        #: the AI seats' drivers (one per match at a time), kept until they end
        self._driving: set[int] = set()
        self._background: set[asyncio.Task[None]] = set()
        super().__init__()

    @property
    def service(self) -> CardMatchService:
        if self._service is None:  # pragma: no cover - only the sync tool runs without one
            raise RuntimeError("the card game has no service in this process")
        return self._service

    # ================================================================== the game's parts
    @property
    def lobby_service(self) -> CardMatchService:
        return self.service

    def text(self, lang: Lang, key: str, **params: Any) -> str:
        return tc(lang, key, **params)

    def error_text(self, err: ServiceError, lang: Lang) -> str:
        return cui.error_text(err, lang)

    def lobby_message(self, info: LobbyInfo[Any], lang: Lang) -> Message:
        return cui.lobby_message(info, lang)

    async def after_start(self, outcome: Any, lang: Lang) -> None:
        await self._after_move(outcome)

    # ================================================================== plumbing
    def _channel(self, outcome: CardOutcome) -> Any:
        return self.bot.get_partial_messageable(
            outcome.channel_id, guild_id=outcome.guild_id or None
        )

    async def post_table(self, outcome: CardOutcome, lang: Lang) -> discord.Message:
        """The table message in the match's channel (public view only)."""
        quiet = await self.service.quiet_players()
        msg = cui.table_message(outcome, lang, outcome.png, quiet=quiet)
        sent: discord.Message = await self._channel(outcome).send(**msg.kwargs())
        if not outcome.finished:
            await self.service.set_turn_message(outcome.match_id, outcome.version, sent.id)
        return sent

    async def deliver_hands(self, outcome: CardOutcome, lang: Lang) -> None:
        """DM the private view to every player whose hand or owed choice changed.

        Decision 5 (:mod:`bot.cogs.private`): a 403 marks the player "DMs closed" (said once in
        the channel, no secret) and is never retried; other failures are logged without any
        content.
        """
        for user_id in outcome.private_changed:
            if user_id <= 0 or await self.service.dm.is_closed(user_id):
                continue
            _, sv = await self.service.private_view(outcome.match_id, user_id)
            msg = await self._hand(outcome, sv, lang, where=f"<#{outcome.channel_id}>")
            await send_private(
                self.bot,
                self.service.dm,
                user_id,
                msg,
                channel=self._channel(outcome),
                closed_notice=tc(lang, "dm_closed", who=cui.mention(user_id)),
            )

    async def _hand(
        self, outcome: CardOutcome, sv: CardSeatView, lang: Lang, *, where: str = ""
    ) -> Message:
        """The hand picture and text with the seat's private decisions (for that seat only)."""
        # a worker process draws it when the hand pickles (app.painters), else a thread
        draw = partial(self.hand_renderer, sv, lang.value)
        png = await self.service.painter.paint(draw) if sv.hand else None
        return cui.hand_message(outcome.match_id, sv, outcome.seats, lang, png, where=where)

    async def _after_move(self, outcome: CardOutcome) -> None:
        """Channel table and DMs, in the match's language (not the clicker's); then the AI
        seats play theirs (in the background, one driver per match)."""
        lang = lang_of(outcome.lang)
        await self.post_table(outcome, lang)
        await self.deliver_hands(outcome, lang)
        self._drive(outcome)

    def _drive(self, outcome: CardOutcome) -> None:
        programs = {s.user_id for s in outcome.seats if s.program or s.user_id <= 0}
        if outcome.finished or outcome.match_id in self._driving:
            return
        if not programs & set(outcome.awaiting_users):
            return
        self._driving.add(outcome.match_id)
        task = asyncio.create_task(self._play_programs(outcome.match_id))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _play_programs(self, match_id: int) -> None:
        """Post each move of the match's AI seats until a person is to play."""
        try:
            while (played := await self.service.play_controlled(match_id)) is not None:
                out: CardOutcome = played.outcome
                lang = lang_of(out.lang)
                await self.post_table(out, lang)
                await self.deliver_hands(out, lang)
        except Exception:  # a failing program leaves its seat waiting, never the bot
            log.exception("the AI seats of card match %s could not play", match_id)
        finally:
            self._driving.discard(match_id)

    async def _submit(
        self,
        interaction: Interaction,
        match_id: int,
        action: CardAction,
        version: int | None,
        *,
        key: str | None = None,
    ) -> CardOutcome:
        """Apply a move (by the version of a command, or as the answer to decision ``key``),
        then post the table and the DMs."""
        outcome = await self.service.submit(match_id, interaction.user.id, action, version, key=key)
        await self._after_move(outcome)
        return outcome

    async def _match_here(self, interaction: Interaction) -> int:
        return await self.service.match_id_in(channel_id(interaction))

    # ================================================================== lobby
    @app_commands.command(name="new", description="Open a card-game table in this channel")
    @app_commands.describe(
        players="Number of players (2-5)",
        opponents="Play at once against this many AI players",
        level="How well the AI players play",
        clock="Turn clock: off, live (2 min a move) or async (24 h a move)",
    )
    @app_commands.choices(level=AI_LEVEL, clock=CLOCK)
    async def new(
        self,
        interaction: Interaction,
        players: app_commands.Range[int, 2, 5] = 2,
        opponents: app_commands.Range[int, 1, 4] | None = None,
        level: str = "normal",
        clock: str = "off",
    ) -> None:
        async def body() -> None:
            await self.defer_if_busy(interaction)
            lang = lang_of(interaction.locale)
            cid, uid = channel_id(interaction), interaction.user.id
            info = await self.service.create_lobby(
                interaction.guild_id or 0,
                cid,
                uid,
                interaction.user.display_name,
                1 + opponents if opponents else players,
                lang=lang.value,
                clock=clock,
            )
            for _ in range(opponents or 0):
                info = await self.service.add_ai(cid, uid, level)
            edit = await self._post_lobby(interaction, info)
            if opponents:  # against AIs alone the game is dealt at once
                await self.work_slot(interaction)
                outcome = await self.service.start(cid, uid)
                closed = cui.lobby_message(await self.service.lobby(cid), lang)
                await edit(**closed.kwargs(edit=True))
                await self.after_start(outcome, lang)

        await self._run(interaction, body)

    @app_commands.command(name="join", description="Join the card-game table in this channel")
    async def join(self, interaction: Interaction) -> None:
        await self._run(interaction, lambda: self._join_command(interaction))

    @app_commands.command(name="leave", description="Leave the card-game table before it starts")
    async def leave(self, interaction: Interaction) -> None:
        await self._run(interaction, lambda: self._leave_command(interaction))

    @app_commands.command(name="start", description="Deal the cards (host)")
    async def start(self, interaction: Interaction) -> None:
        await self._run(interaction, lambda: self._start_command(interaction))

    @app_commands.command(name="vote_out", description="Vote to let an AI play a silent seat")
    @app_commands.describe(player="The player who has not moved")
    async def vote_out(self, interaction: Interaction, player: discord.User) -> None:
        await self._run(
            interaction, lambda: vote_out(interaction, self.service, player.id, self._drive)
        )

    @app_commands.command(name="abandon", description="End the card game (host or managers)")
    async def abandon(self, interaction: Interaction) -> None:
        async def body() -> None:
            perms = interaction.permissions
            await self.service.abandon(
                channel_id(interaction),
                interaction.user.id,
                can_manage=bool(perms.manage_channels or perms.administrator),
            )
            lang = lang_of(interaction.locale)
            await interaction.response.send_message(
                tc(lang, "abandoned", name=shown_user(interaction)),
                allowed_mentions=discord.AllowedMentions.none(),
            )

        await self._run(interaction, body)

    # ================================================================== moves
    @app_commands.command(name="play", description="Play a card from your hand into a row")
    @app_commands.describe(card="A card from your hand", row="The row to play it in")
    async def play(
        self, interaction: Interaction, card: TextOption, row: TextOption | None = None
    ) -> None:
        async def body() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.work_slot(interaction)
            match_id = await self._match_here(interaction)
            outcome, sv = await self.service.private_view(match_id, interaction.user.id)
            action = _play_action(sv, outcome, card, row)
            lang = lang_of(interaction.locale)
            await self._submit(interaction, match_id, action, sv.public.version)
            done = cui.move_text(action, lang, secret_ok=True)
            await interaction.followup.send(tc(lang, "played_private", move=done), ephemeral=True)

        await self._run(interaction, body)

    @play.autocomplete("card")
    async def _card_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Only the typing user sees this answer: the legal cards of their own hand."""
        sv = await self._peek(interaction)
        if sv is None:
            return []
        typed = current.strip().lower()
        lang = lang_of(interaction.locale)
        codes: list[str] = []
        for a in sv.legal:
            code = a.card if isinstance(a, PlayCard) else None
            if isinstance(a, LayJoker) and sv.public.setup_joker is not None:
                code = sv.public.setup_joker.code
            if code is None or code in codes:
                continue
            if typed in code or typed in _shown(code, lang).lower():
                codes.append(code)
        return [app_commands.Choice(name=_shown(c, lang), value=c) for c in codes[:25]]

    @play.autocomplete("row")
    async def _row_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        sv = await self._peek(interaction)
        if sv is None:
            return []
        lang = lang_of(interaction.locale)
        code = str(getattr(interaction.namespace, "card", "") or "").strip().lower()
        rows: list[Colour] = []
        for a in sv.legal:
            if (
                isinstance(a, PlayCard)
                and (not code or a.card == _code(code))
                or isinstance(a, LayJoker)
            ) and a.row not in rows:
                rows.append(a.row)
        return _row_choices(rows, current, lang)

    @app_commands.command(name="claim", description="Stand your large follower at a row's end")
    @app_commands.describe(row="The row whose open cards your follower secures")
    async def claim(self, interaction: Interaction, row: TextOption) -> None:
        async def body() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.work_slot(interaction)
            match_id = await self._match_here(interaction)
            outcome, sv = await self.service.private_view(match_id, interaction.user.id)
            colour = _colour(row)
            action = PlaceFollower(colour)
            if action not in sv.legal:
                _refuse(sv, outcome)
                raise ServiceError("bad_row", "Not a legal row.", card="🧍", row=quoted(row))
            lang = lang_of(interaction.locale)
            await self._submit(interaction, match_id, action, sv.public.version)
            done = cui.move_text(action, lang, secret_ok=True)
            await interaction.followup.send(tc(lang, "played_private", move=done), ephemeral=True)

        await self._run(interaction, body)

    @claim.autocomplete("row")
    async def _claim_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        sv = await self._peek(interaction)
        if sv is None:
            return []
        rows = [a.row for a in sv.legal if isinstance(a, PlaceFollower)]
        return _row_choices(rows, current, lang_of(interaction.locale))

    # ================================================================== information
    @app_commands.command(name="hand", description="Show your hand (only you see it)")
    async def hand(self, interaction: Interaction) -> None:
        async def body() -> None:
            match_id = await self._match_here(interaction)
            await self._send_hand(interaction, match_id)

        await self._run(interaction, body)

    async def _send_hand(self, interaction: Interaction, match_id: int) -> None:
        """The ephemeral hand, with the buttons of the user's private decisions (the fallback
        of the hand DM)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.work_slot(interaction)
        lang = lang_of(interaction.locale)
        outcome, sv = await self.service.private_view(match_id, interaction.user.id)
        await reply_private(interaction, await self._hand(outcome, sv, lang))

    @app_commands.command(name="score", description="Show the card-game scores")
    async def score(self, interaction: Interaction) -> None:
        async def body() -> None:
            outcome = await self.service.current(channel_id(interaction), render=False)
            lang = lang_of(interaction.locale)
            embed = discord.Embed(
                title=tc(lang, "scores_field"),
                description=cui.scores_text(outcome.view, outcome.seats),
                colour=cui.COLOUR,
            )
            lines = [
                f"{cui.seat_name(outcome.seats, a.seat)} +{a.points} — {a.item.text(lang.value)}"
                for a in outcome.view.awards
            ]
            if lines:
                embed.add_field(name="—", value=cui._clip(lines, 1000), inline=False)
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await self._run(interaction, body)

    @app_commands.command(name="rules", description="The card game's rules in short")
    async def rules(self, interaction: Interaction) -> None:
        async def body() -> None:
            lang = lang_of(interaction.locale)
            embed = discord.Embed(description=rules_summary(lang.value)[:4000], colour=cui.COLOUR)
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await self._run(interaction, body)

    async def _peek(self, interaction: Interaction) -> CardSeatView | None:
        """The user's own view for autocomplete, or None."""
        try:
            match_id = await self._match_here(interaction)
            _, sv = await self.service.private_view(match_id, interaction.user.id)
            return sv
        except ServiceError:
            return None
        except Exception:
            log.exception("card game: autocomplete failed")
            return None

    # ================================================================== components
    async def _click_hand(self, interaction: Interaction, click: Click) -> None:
        """The persistent My hand button: never stale."""
        await self._send_hand(interaction, click.match_id)

    # ================================================================== restart
    @commands.Cog.listener()
    async def on_ready(self) -> None:
        await self.recover()

    async def recover(self) -> int:
        """Post the table of every active card match whose current version was not posted."""
        posted = 0
        for outcome in await self.service.active_matches():
            if outcome.turn_message_id is not None:
                continue
            try:
                lang = lang_of(outcome.lang)
                await self.post_table(outcome, lang)
                posted += 1
            except Exception:
                log.exception("card game: could not re-post match %s", outcome.match_id)
        return posted


# ====================================================================== helpers
def _code(text: str) -> str:
    """A card code from what a player typed (``city-2`` → ``blue-2``).

    Raises:
        ServiceError: bad_card (the reply quotes the typed text shortened).
    """
    try:
        return CardFace.parse(text[:MAX_OPTION]).code
    except EngineError:
        raise ServiceError("bad_card", "Not a card.", card=quoted(text, code=True)) from None


def _code_or_none(text: str) -> str | None:
    try:
        return _code(text)
    except ServiceError:
        return None


def typed_card(code: str) -> messages.Phrase:
    """A card named in a refusal: its name and what to type for it, in the reader's language
    (``building joker (`building-joker`)``)."""
    return messages.Phrase("cards.typed", name=face_name(code), code=face_code(code))


def _shown(code: str, lang: Lang) -> str:
    """A card as the autocomplete lists it: its name, then the code the player may type
    (``blue character 2 (blue-2)``; Spanish players: ``personaje azul 2 (azul-2)``; German:
    ``blaue Person 2 (blau-2)``), both from the catalogue of the reader's language."""
    if code not in FACE_BY_CODE:
        return code
    typed = messages.text(f"cards.code.{code}", lang)
    return f"{messages.text(f'cards.name.{code}', lang)} ({typed})"


def _colour(text: str) -> Colour:
    """A row from what a player typed (shortened first).

    Raises:
        ServiceError: illegal, carrying the engine's reason so each player reads it in their
        language (``'púrpura' no es una fila; usa …``).
    """
    try:
        return Colour.parse(text[:MAX_OPTION])
    except EngineError as e:
        raise illegal(e) from None


def _refuse(sv: CardSeatView, outcome: CardOutcome) -> None:
    """Raise ERR_NOT_YOUR_TURN unless the game waits for this seat."""
    if sv.seat not in sv.public.awaiting or not sv.legal:
        users = outcome.awaiting_users
        raise ServiceError(
            ERR_NOT_YOUR_TURN, "Not your turn.", current_user_id=users[0] if users else 0
        )


def _play_action(sv: CardSeatView, outcome: CardOutcome, card: str, row: str | None) -> CardAction:
    """The action of ``/cardgame play card [row]``, checked against the seat's legal moves.

    Raises:
        ServiceError: not_your_turn, bad_card, bad_row.
    """
    _refuse(sv, outcome)
    joker = sv.public.setup_joker
    if sv.public.step == "setup" and joker is not None:
        # the only card to lay now is the joker that came up: another card is refused, never
        # taken for the joker
        if _code_or_none(card) != joker.code:
            raise ServiceError(
                "not_the_joker",
                f"Lay {joker.code} first, in the row you choose.",
                card=quoted(card, code=True),
                joker=typed_card(joker.code),
            )
        if row is None:
            raise ServiceError("bad_row", "Say which row.", card=typed_card(joker.code), row="?")
        return LayJoker(_colour(row))
    code = _code(card)
    rows = [a.row for a in sv.legal if isinstance(a, PlayCard) and a.card == code]
    if not rows:
        raise ServiceError("bad_card", "Not a legal card.", card=quoted(card, code=True))
    colour = _colour(row) if row else (rows[0] if len(rows) == 1 else CardFace.parse(code).colour)
    if colour is None or colour not in rows:
        raise ServiceError(
            "bad_row", "Not a legal row.", card=typed_card(code), row=quoted(row or "?")
        )
    return PlayCard(code, colour)


def _row_choices(rows: list[Colour], current: str, lang: Lang) -> list[app_commands.Choice[str]]:
    typed = current.strip().lower()
    out = []
    for colour in rows:
        name = row_name(colour, lang)
        if typed and typed not in colour.value and typed not in name.lower():
            continue
        out.append(app_commands.Choice(name=name, value=colour.value))
    return out


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: uses ``bot.card_service`` if set, else opens a CardMatchService on
    the tile-game service's database (one storage, one per-channel rule, one record of
    closed DMs)."""
    service: CardMatchService | None = getattr(bot, "card_service", None)
    tile = getattr(bot, "service", None)
    if service is None and tile is not None:
        service = CardMatchService(tile.storage, dm=tile.dm, painter=tile.painter)
        service.store.serves = tile.store.serves  # the same shards' servers (bot/app.py)
        bot.card_service = service  # type: ignore[attr-defined]
    cog = CardGame(bot, service)
    tiles = bot.get_cog("Carcassonne")
    upkeep = getattr(tiles, "upkeep", None)
    if upkeep is not None and service is not None:  # one scheduler fires both games' timers
        upkeep.also.append(CardTimers(cog).fire)
        service.on_timers = upkeep.wake.set
    await bot.tree.set_translator(CardTranslator(bot.tree.translator))
    await bot.add_cog(cog)
    bot.add_dynamic_items(*cui.CARD_DYNAMIC_ITEMS)
    bot.card_handler = cog  # type: ignore[attr-defined]
