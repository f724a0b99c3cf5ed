"""``carcabot local --game cards``: Carcassonne – the card game in the terminal.

The same service as Discord's ``/cardgame`` (:class:`app.cardgame.CardMatchService`)
on the same SQLite file, the same event lines (:func:`bot.ui.cardgame.event_lines`, in the
table's language) and the same generic asker as the tile table (:mod:`console.ask`): a
seat's open decisions are asked one at a time (which card, then which row; or the row of the
large follower), its hand shown first. With several humans at one screen, a hand is announced
so the others look away and a card is typed without echo; the seats nobody types for are AI
players at ``--opponents``' level (or the engine's random player with ``random``). The table
picture is written to ``OUT/cards-<match>/table-NNN.png`` after every move and each human's
hand to ``hand-<seat>.png``.
"""

from __future__ import annotations

import re
import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from app.base import ERR_NO_MATCH, ERR_OTHER_GAME, ServiceError
from app.cardgame import CardMatchService, CardOutcome
from app.seats import AiController
from console.ask import Answer, Asker, Console, EndOfInput, Words
from console.i18n import command, tl
from engine.carcassonne.randomplay import choose_answer
from engine.cardgame import CardAction, CardSeatView
from engine.cardgame.events import RoundEnded
from engine.core.decisions import Decision
from engine.core.rng import Rng
from storage import Storage
from storage.port import Store
from words import cards as cui
from words.i18n import lang_of
from words.labels import open_text

if TYPE_CHECKING:
    from console.options import LocalOptions

LOCAL_GUILD = 0
LOCAL_CHANNEL = 1
_BOT_SALT = 0xCA4D5
_UNSET: Any = object()
_MARKDOWN = re.compile(r"\*\*|`")


async def play_local_cards(
    opts: LocalOptions,
    storage: Storage,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    renderer: Any = _UNSET,
) -> int:
    """Play (or resume) one local card game on ``storage`` (closed at the end) to its end or
    to the end of input; the arguments were checked by :func:`console.table.play_local`."""
    table = _CardTable(stdin or sys.stdin, stdout or sys.stdout, opts)
    kwargs: dict[str, Any] = {} if renderer is _UNSET else {"renderer": renderer}
    svc = CardMatchService(storage, **kwargs)
    try:
        return await table.play(svc)
    finally:
        await svc.close()


def card_action(action: object) -> CardAction:
    """``action`` as the card game's action, checked.

    The engine's random player (:func:`~engine.carcassonne.randomplay.choose_answer`) answers
    any game's decision but is annotated with the tile game's ``Action``; the card game's
    decisions hold :class:`CardAction` options, so this holds at run time and lets the type
    checker know it. (``isinstance`` on the ``Action`` value itself would not: mypy sees the
    two classes as incompatible and the branch as unreachable.)

    Raises:
        TypeError: for anything else (a decision of the other game).
    """
    if not isinstance(action, CardAction):
        raise TypeError(f"not a card-game action: {action!r}")
    return action


def plain(text: str) -> str:
    """A Discord line for the console: no bold, no code marks."""
    return _MARKDOWN.sub("", text)


class _CardTable:
    def __init__(self, stdin: TextIO, stdout: TextIO, opts: LocalOptions) -> None:
        self.opts = opts
        self.lang = opts.lang
        self.ui_lang = lang_of(opts.lang)
        self.con = Console(stdin, stdout, opts.lang)
        self.words = Words((), opts.lang)
        self.folder: Path | None = None
        self.humans = 0
        self.shown_round = 0

    def say(self, text: str = "") -> None:
        self.con.say(text)

    def tl(self, key: str, **params: Any) -> str:
        return tl(self.lang, key, **params)

    # ------------------------------------------------------------------ flow
    async def play(self, svc: CardMatchService) -> int:
        out = await self._begin(svc)
        if out is None:
            return 2
        self.folder = self.opts.out / f"cards-{out.match_id}"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:  # the match stays stored: --resume continues it
            self.say(self.tl("bad_out", path=self.folder, error=e.strerror or e))
            return 2
        self.words = Words([s.name for s in out.seats], self.lang)
        self.humans = sum(1 for s in out.seats if s.user_id > 0)
        rng = Rng((self.opts.seed if self.opts.seed is not None else out.match_id) ^ _BOT_SALT)
        if self.opts.opponents != "random":  # the seats nobody types for: AI players
            seed = out.match_id if self.opts.seed is None else self.opts.seed
            for s in out.seats:
                if s.user_id <= 0 and s.controller is None:
                    svc.controllers.set(
                        out.match_id, s.user_id, AiController(self.opts.opponents, seed=seed)
                    )
        self._report(out)
        try:
            while not out.finished:
                if not out.view.awaiting:
                    self.say(self.tl("stuck"))
                    return 1
                seat = min(out.view.awaiting)
                user = out.seats[seat].user_id
                _, sv = await svc.private_view(out.match_id, user)
                decisions = sv.own_decisions
                if not decisions:
                    self.say(self.tl("no_decision", name=out.seats[seat].name))
                    return 1
                if user > 0:
                    out = await self._human(svc, out, sv)
                elif (  # an AI seat, or one nobody types for (app.seats)
                    out.seats[seat].controller is not None
                    or svc.controllers.of(out.match_id, user) is not None
                ):
                    played = await svc.play_controlled(out.match_id, seat)
                    if played is None:
                        self.say(self.tl("no_decision", name=out.seats[seat].name))
                        return 1
                    out = played.outcome
                else:
                    d = decisions[rng.below(len(decisions))]
                    action = card_action(choose_answer(d, rng))
                    out = await svc.submit(out.match_id, user, action, key=d.key)
                self._report(out)
        except EndOfInput:
            self.say(self.tl("input_ended", hint=self.opts.resume_hint()))
            return 0
        self._finish(out)
        await self._write_record(svc, out)
        return 0

    async def _begin(self, svc: CardMatchService) -> CardOutcome | None:
        if self.opts.resume:
            try:
                out = await svc.current(LOCAL_CHANNEL)
            except ServiceError as e:
                if e.key not in (ERR_NO_MATCH, ERR_OTHER_GAME):
                    self.say(self.tl("cannot_resume", error=str(e)))
                    return None
                self.say(self.tl("nothing_to_resume"))
            else:
                self.say(self.tl("resuming", id=out.match_id, turn=out.version + 1))
                return out
        await set_aside(svc.storage, LOCAL_CHANNEL, self.say, self.lang)
        from console.options import players_of

        seed = self.opts.seed if self.opts.seed is not None else secrets.randbelow(1 << 31)
        (host_id, host_name), *rest = players_of(self.opts)
        await svc.create_lobby(
            LOCAL_GUILD,
            LOCAL_CHANNEL,
            host_id,
            host_name,
            self.opts.players,
            lang=self.lang,
            seed=seed,
        )
        for uid, name in rest:
            await svc.join(LOCAL_CHANNEL, uid, name)
        for _ in range(self.opts.players - 1 - len(rest)):  # AI opponents (app.seats)
            await svc.add_ai(LOCAL_CHANNEL, host_id, self.opts.opponents)
        out = await svc.start(LOCAL_CHANNEL, host_id)
        order = ", ".join(s.name for s in out.seats)
        self.say(self.tl("started_cards", id=out.match_id, seed=seed, order=order))
        if any(s.user_id > 0 for s in out.seats):
            self.say(self.tl("help_cards"))
        return out

    # ------------------------------------------------------------------ humans
    async def _human(
        self, svc: CardMatchService, out: CardOutcome, sv: CardSeatView
    ) -> CardOutcome:
        """Show the seat its hand, then ask its decisions until one answer is accepted."""
        user = out.seats[sv.seat].user_id
        name = out.seats[sv.seat].name
        if self.humans > 1:
            self.con.queue.clear()  # a line typed in the open never answers a secret
            self.say("\n  " + self.tl("hand_private", name=name))
        self._show_hand(out, sv)
        asker = Asker(
            self.con,
            self.words,
            help_key="help_cards",
            parse=CardAction.from_notation,
            hidden_private=self.humans > 1,
            commands=("hand",),
        )
        who = name
        while True:
            d = self._which(sv.own_decisions, who)
            if d is None:
                continue
            reply = await asker.decide(d, who, None)
            if not isinstance(reply, Answer):
                if reply == "hand":
                    self._show_hand(out, sv)
                continue  # undo/resign/back: not in the card game
            try:
                return await svc.submit(out.match_id, user, reply.actions[0], key=d.key)
            except ServiceError as e:
                self.con.queue.clear()
                reason = (
                    e.reason(self.lang) if e.key == "illegal" else cui.error_text(e, self.ui_lang)
                )
                self.say(f"  {plain(reason)}")

    def _which(self, decisions: tuple[Decision, ...], who: str) -> Decision | None:
        """The decision to answer: the only one, or the one the player picks by letter."""
        if len(decisions) == 1:
            return decisions[0]
        self.say("  " + self.tl("which_decision"))
        keys = "abcdefghij"
        for key, d in zip(keys, decisions, strict=False):
            self.say(f"    {key:>2}) {open_text(d, self.ui_lang)}")
        word = self.con.ask(f"{who}: {keys[0]}-{keys[len(decisions) - 1]}> ")
        low = command(word)
        if low in ("hand", "board", "list", "help", "?", ""):
            if low in ("help", "?"):
                self.say(self.tl("help_cards"))
            return None
        for key, d in zip(keys, decisions, strict=False):
            if low == key or low == open_text(d, self.ui_lang).lower():
                return d
        return None

    def _show_hand(self, out: CardOutcome, sv: CardSeatView) -> None:
        if not sv.hand and not sv.face_down:
            return  # the dealer laying a setup joker holds no cards yet
        for line in cui.hand_text(sv, self.ui_lang).splitlines():
            self.say(f"  {plain(line)}")
        if self.folder is None or not sv.hand:
            return
        try:
            from rendering.cardgame import render_hand

            path = self.folder / f"hand-{sv.seat + 1}.png"
            path.write_bytes(render_hand(sv))
        except Exception:  # a picture is a help, never a reason to stop the game
            return
        self.say(self.tl("hand_file", path=path))

    # ------------------------------------------------------------------ output
    def _report(self, out: CardOutcome) -> None:
        view = out.view
        if view.round != self.shown_round and not view.over:
            self.shown_round = view.round
            self.say(self.tl("round", round=max(view.round, 1), rounds=view.rounds))
        for line in cui.event_lines(out.events, out.seats, self.ui_lang):
            self.say(f"  * {plain(line)}")
        human_next = any(out.seats[s].user_id > 0 for s in view.awaiting)
        round_over = any(isinstance(e, RoundEnded) for e in out.events)
        if not (human_next or round_over or out.finished):
            return  # the picture when someone looks: a human's turn, a round's end, the end
        if out.png is not None and self.folder is not None:
            name = "final.png" if out.finished else f"table-{out.version:03d}.png"
            path = self.folder / name
            path.write_bytes(out.png)
            self.say(self.tl("table_file", path=path))

    async def _write_record(self, svc: CardMatchService, out: CardOutcome) -> None:
        """The game's record, which ``carcabot replay`` reads (as the tile table writes)."""
        if self.folder is None:
            return
        from engine.cardgame.record import dumps

        path = self.folder / "record.json"
        try:
            path.write_text(dumps(await svc.record(out.match_id)) + "\n", encoding="utf-8")
        except OSError as e:
            self.say(self.tl("bad_out", path=path, error=e.strerror or e))
            return
        self.say(self.tl("record_file", path=path))

    def _finish(self, out: CardOutcome) -> None:
        view = out.view
        self.say(self.tl("final"))
        ranked = sorted(view.players, key=lambda p: (p.seat not in view.winners, -p.score, p.seat))
        for rank, p in enumerate(ranked, 1):
            mark = self.tl("winner") if p.seat in view.winners else ""
            name = out.seats[p.seat].name
            self.say(f"  {rank}. {name:<12} {p.score:>4}  🏠 {len(p.chest)}{mark}")


async def set_aside(storage: Store, channel: int, say: Any, lang: str) -> None:
    """Abandon whatever unfinished local match holds ``channel`` (of either game), saying so."""
    from app.matches import MatchService

    for svc in (
        CardMatchService(storage, renderer=None),
        MatchService(storage, renderer=None, animator=None),
    ):
        try:
            stale = await svc.lobby(channel)
        except ServiceError:
            continue
        await svc.abandon(channel, stale.host_id, can_manage=True)
        say(tl(lang, "set_aside", id=stale.match_id))
        return


__all__ = ["card_action", "play_local_cards", "plain", "set_aside"]
