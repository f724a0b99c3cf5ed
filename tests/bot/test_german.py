"""German everywhere (issue 29): every German catalogue text uses German words only; the
refusals of both engines read German; a whole German game through the real Discord stack
(players whose Discord client speaks ``de``), the local console table with ``--lang de``, the
card game and the pictures contain no English and no Spanish word of the catalogues
(:mod:`tests.bot.german`)."""

from __future__ import annotations

import asyncio
import io
import random
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from app.base import ServiceError
from app.cardgame import CardMatchService
from app.matches import MatchService
from app.options import MatchOptions, problems
from bot.ui import cardgame as cui
from bot.ui import presenters
from bot.ui.lobby import lobby_message
from console.table import LocalOptions, play_local
from engine import PlaceTile, Position, Rotation
from engine.carcassonne.expansions import BUILTIN_IDS
from engine.carcassonne.randomplay import choose_answer
from engine.carcassonne.rules import apply, new_game, pending
from engine.carcassonne.state import GameSetup
from engine.cardgame import PlaceFollower
from engine.cardgame.cards import CardFace, Colour
from engine.cardgame.text import rules_summary
from engine.core.errors import EngineError
from engine.core.rng import Rng
from rendering.board import board_image
from rendering.header import header_layout
from rendering.words import category_word, word
from tests.bot.german import SHARED, entries, foreign_in, foreign_words, words
from tests.bot.matchservice import tiny_animator, tiny_renderer
from tests.bot.test_spanish import _tile_refusals, embed_text, message_text
from tests.bot.tiletable import Table
from tests.fakediscord import Request, User
from words.i18n import Lang, lang_of
from words.labels import option_text

ANNA = User(404, "Anna", locale="de")
LUKAS = User(505, "Lukas", locale="de")
PLAYERS = {u.id: u for u in (ANNA, LUKAS)}
NAMES = ("Anna", "Lukas", "Bot 1", "Bot 2")
BOTH = ("inns_cathedrals", "traders_builders")


def _assert_reads_german(texts: Iterable[str], names: Iterable[str] = NAMES) -> None:
    foreign = foreign_words()
    names = tuple(names)
    bad = [f"{found} in {t!r}" for t in texts if (found := foreign_in(t, names, foreign))]
    assert not bad, "\n".join(bad[:20])


# ----------------------------------------------------------------------------- catalogues
def test_the_check_finds_english_and_spanish_in_a_german_line() -> None:
    foreign = foreign_words()
    assert foreign_in("Stadt completed: 3 Karten", foreign=foreign) == ["completed"]
    assert foreign_in("Waren am Ende (ciudad)", foreign=foreign) == ["ciudad"]
    assert foreign_in("nutze `/carcassonne new` oder 'pass' (Bob)", ["Bob"], foreign=foreign) == []
    assert {"the", "follower", "seguidor", "pieza"} <= foreign


def test_no_german_catalogue_text_contains_an_english_or_spanish_word() -> None:
    foreign = foreign_words()
    found = [
        f"{cat} {key}: {bad} in {text!r}"
        for cat, key, text in entries("de")
        if (bad := foreign_in(text, foreign=foreign))
    ]
    assert not found, "\n".join(found)


def test_the_german_rulebooks_words_are_used() -> None:
    german = "\n".join(text for _, _, text in entries("de"))
    for term in ("Gefolgsmann", "Gefolgsleute", "Wegelagerer", "Ritter", "Mönch", "Bauer"):
        assert term in german, term
    for term in ("Kloster", "Wiese", "Straße", "Stadt", "Wappen", "Zählleiste", "Wertung"):
        assert term in german, term
    for term in ("Wirtshäuser und Kathedralen", "Händler und Baumeister", "Die Fluggeräte"):
        assert term in german, term
    for term in ("Die Goldminen", "Brücken, Burgen und Basare", "Abtei und Bürgermeister"):
        assert term in german, term
    for term in ("Schwein", "Wein", "Getreide", "Stoff", "Goldbarren", "Scheune", "Wagen"):
        assert term in german, term
    assert "Kloster" in rules_summary("de") and "Gefolgsmann" in rules_summary("de")


def test_german_is_a_shipped_language_that_follows_the_discord_locale() -> None:
    assert lang_of("de") is Lang.DE and lang_of("de-AT") is Lang.DE
    assert lang_of("es-419") is Lang.ES and lang_of("fr") is Lang.EN
    assert not problems(MatchOptions(lang="de")) and problems(MatchOptions(lang="fr"))
    assert CardFace.parse("blau-2") == CardFace.parse("blue-2")
    assert Colour.parse("Straße") is Colour.RED and Colour.parse("grün") is Colour.GREEN
    assert "lang must be en, es or de" in problems(MatchOptions(lang="fr"))


# ----------------------------------------------------------------------------- refusals
def test_every_tile_game_refusal_reads_german() -> None:
    foreign = foreign_words()
    rng = Rng(3)
    refused: set[str] = set()
    state = new_game(GameSetup(players=3, expansions=BOTH), seed=11)
    for _ in range(60):
        if state.over:
            break
        for seat, action, key in _tile_refusals(state, rng):
            try:
                apply(state, seat, action, key=key)
            except EngineError as e:
                text = e.text("de")
                assert e.key is not None and text != str(e), text
                assert not foreign_in(text, ("Ana", "Ben", "Cy"), foreign), text
                refused.add(e.key)
        d = pending(state)[0]
        state = apply(state, d.seat, choose_answer(d, rng), key=d.key).state
    assert {"err.not_your_turn", "err.stale", "err.tile_there", "err.not_adjacent"} <= refused


# ----------------------------------------------------------------------------- Discord
def _everything(req: Request) -> str:
    """What a player reads in a request: content, embeds, and every component's words."""
    out = [req.text()]

    def walk(items: Iterable[Any]) -> None:
        for c in items:
            if not isinstance(c, dict):
                continue
            out.extend(str(c[k]) for k in ("label", "placeholder") if c.get(k))
            for o in c.get("options") or []:
                out.extend(str(o[k]) for k in ("label", "description") if o.get(k))
            for key in ("components", "accessory", "component"):
                inner = c.get(key)
                walk(inner if isinstance(inner, list) else [inner] if inner else [])

    walk(req.data.get("components") or [])
    return "\n".join(x for x in out if x)


def _whose_turn(turn: Request) -> User:
    ids = re.findall(r"<@(\d+)>", turn.content)
    assert ids, turn.content
    return PLAYERS[int(ids[-1])]


async def test_a_german_game_through_discord_reads_german_and_draws_german_pictures(
    table: Table,
) -> None:
    fake, service = table.fake, table.service
    texts: list[str] = []
    start_at = len(fake.requests)
    lobby = await fake.slash(ANNA, "new")
    await fake.slash(LUKAS, "join")
    start = await fake.slash(ANNA, "start")
    turn = start.channel_sends[0]
    assert "du bist dran" in turn.content, turn.content
    rng = random.Random(3)
    for n in range(200):
        if n in (0, 15):  # the picture's words are German: the strip drawn in German
            outcome = await service.match(1)
            posted = Image.open(io.BytesIO(turn.file("board.png"))).convert("RGB")
            strip = (0, 0, posted.size[0], header_layout(outcome.view, posted.size[0]).height)
            for lang, same in (("de", True), ("en", False), ("es", False)):
                drawn = board_image(outcome.view, lang=lang, whole=posted.size[0] != 960)
                assert (drawn.crop(strip).tobytes() == posted.crop(strip).tobytes()) is same
        if "🏁" in turn.content:
            break
        user = _whose_turn(turn)
        if n == 10:
            for command in ("score", "tiles", "rules", "help", "board"):
                await fake.slash(user, command)
            await fake.slash(user, "place", cell="999", rotation="0", follower="none")
        cells = await fake.autocomplete(user, "place", "cell", cell="")
        cell = rng.choice(cells)["value"]
        rots = await fake.autocomplete(user, "place", "rotation", cell=cell, rotation="")
        rot = rng.choice(rots)["value"]
        fols = await fake.autocomplete(
            user, "place", "follower", cell=cell, rotation=rot, follower=""
        )
        texts += [str(c["name"]) for c in cells[:25] + rots + fols]
        res = await fake.slash(
            user, "place", cell=cell, rotation=rot, follower=rng.choice(fols)["value"]
        )
        turn = res.channel_sends[0]
    else:
        raise AssertionError("the game did not end")
    texts += [_everything(r) for r in fake.requests[start_at:] if r.payload is not None]
    joined = "\n".join(texts)
    assert lobby.callback.text() and "Schlusswertung" in joined and "Punkte" in joined
    assert "Kein Gefolgsmann" in joined and "Feld" in joined
    assert service.lang_of_match(1) == "de"
    _assert_reads_german(texts)


# ----------------------------------------------------------------------------- the console
async def test_the_local_table_plays_a_whole_match_in_german(tmp_path: Path) -> None:
    lines = ["hallo", "place 50,50 r0", "1"] + [("1", "1", "a")[i % 3] for i in range(3000)]
    out = io.StringIO()
    langs: list[str] = []

    def recording(view: Any, **kw: Any) -> bytes:
        langs.append(kw.get("lang", "en"))
        return tiny_renderer(view, **kw)

    opts = LocalOptions(
        players=2,
        humans=1,
        names=("Anna",),
        seed=4,
        out=tmp_path / "out",
        db=tmp_path / "t.sqlite3",
        expansions=BOTH,
        lang="de",
    )
    code = await play_local(
        opts,
        stdin=io.StringIO("\n".join(lines) + "\n"),
        stdout=out,
        renderer=recording,
        animator=tiny_animator,
    )
    assert code == 0
    text = out.getvalue()
    assert "Traceback" not in text and "Schlusswertung:" in text
    assert "Das habe ich nicht verstanden" in text  # 'hallo'
    assert "50,50 berührt keine Karte" in text  # the engine's reason, in German
    assert re.search(
        r"(^|> )Anna setzt .+ auf .+, als (Wegelagerer|Ritter|Mönch|Bauer)\.", text, re.M
    )
    prose = [line for line in text.splitlines() if "/" not in line]
    _assert_reads_german(prose)
    assert langs and set(langs) == {"de"}


def test_the_local_card_game_reads_german(tmp_path: Path) -> None:
    lines = [("a", "1")[i % 2] for i in range(3000)]
    out = io.StringIO()
    opts = LocalOptions(
        players=3,
        humans=1,
        names=("Anna",),
        seed=5,
        out=tmp_path / "out",
        db=tmp_path / "c.sqlite3",
        lang="de",
        game="cards",
    )
    script = io.StringIO("\n".join(lines) + "\n")
    assert asyncio.run(play_local(opts, stdin=script, stdout=out)) == 0
    text = out.getvalue()
    assert "Traceback" not in text and "Schlusswertung:" in text
    assert "Welche Karte spielst du?" in text
    prose = [line for line in text.splitlines() if "/" not in line]
    _assert_reads_german(prose)


# ----------------------------------------------------------------------------- the card game
async def test_a_german_card_match_reads_german(tmp_path: Path) -> None:
    svc = await CardMatchService.open(tmp_path / "c.sqlite3", renderer=None)
    de = Lang.DE
    texts: list[str] = [rules_summary("de")]
    try:
        await svc.create_lobby(1, 6, 20, "Anna", 3, lang="de", seed=3)
        await svc.join(6, 21, "Ben")
        await svc.join(6, 22, "Cy")
        out = await svc.start(6, 20)
        rng = Rng(3)
        while not out.finished:
            texts.append(message_text(cui.table_message(out, de, None)))
            seat = min(out.view.awaiting)
            user = out.seats[seat].user_id
            _, sv = await svc.private_view(out.match_id, user)
            texts.append(cui.hand_text(sv, de, where="#tisch"))
            d = sv.own_decisions[rng.below(len(sv.own_decisions))]
            texts += [option_text(o, out.seats, de, among=d.options) for o in d.options]
            try:
                await svc.submit(out.match_id, user, PlaceFollower(Colour.BLUE), key="cards.x")
            except ServiceError as e:  # a refusal, shown in German
                texts.append(cui.error_text(e, de))
            out = await svc.submit(out.match_id, user, choose_answer(d, rng), key=d.key)
        texts.append(message_text(cui.table_message(out, de, None)))
    finally:
        await svc.close()
    joined = "\n".join(texts)
    assert "Personen" in joined and "Gebäude" in joined and "Sieg" in joined
    _assert_reads_german(texts, ("Anna", "Ben", "Cy"))


# ----------------------------------------------------------------------------- pictures
def test_the_pictures_words_are_german() -> None:
    foreign = foreign_words()
    assert word("pic.turn", "de", n=3) == "Zug 3"
    assert category_word("city", "de") == "Städte"
    assert category_word("goods", "de") == "Waren"
    keys = [key for _, key, _ in entries("de") if key.startswith("pic.")]
    assert len(keys) >= 30
    drawn = [word(k, "de", n=2, round=1, rounds=3, pile=4, hand=1, animals=2, chest=0, row="x",
                  name="Anna", names="Anna", score=3) for k in keys]  # fmt: skip
    assert not [d for d in drawn if foreign_in(d, ("Anna",), foreign)]
    assert set(words("Spielende · Anna gewinnt")) - SHARED == {"spielende", "gewinnt", "anna"}


# ----------------------------------------------------------------------------- expansions
async def test_a_german_match_with_every_expansion_reads_german(tmp_path: Path) -> None:
    """The presenters show a match with every built expansion in German: prompts, options,
    events, scores, refusals, the lobby, the rules and the final table."""
    svc = await MatchService.open(tmp_path / "m.sqlite3", renderer=None, animator=None)
    de = Lang.DE
    texts: list[str] = []
    try:
        options = MatchOptions(players=3).with_expansions(BUILTIN_IDS)
        options = options.with_rule("bcb.bidding", "open")  # every choice is public
        info = await svc.create_lobby(1, 5, 10, "Anna", options, seed=7)
        await svc.join(5, 11, "Ben")
        await svc.join(5, 12, "Cy")
        info = await svc.lobby(5)
        texts += [
            message_text(lobby_message(info, de)),
            embed_text(presenters.rules_embed(info.options, de)),
        ]
        out = await svc.start(5, 10)
        rng = Rng(3)
        while not out.finished:
            texts.append(message_text(presenters.outcome_message(out, de, b"")))
            d = out.decisions[0]
            texts += [option_text(o, out.seats, de, among=d.options) for o in d.options[:40]]
            if out.view.turn % 20 == 0:
                texts.append(embed_text(presenters.score_embed(out, de)))
            if isinstance(d.options[0].action, PlaceTile):
                with pytest.raises(ServiceError) as refused:
                    where = [PlaceTile(Position(40, 40), Rotation.R0)]
                    await svc.submit(5, out.user_of(d.seat), where)
                texts.append(presenters.error_text(refused.value, de))
            out = await svc.submit(5, out.user_of(d.seat), [choose_answer(d, rng)], key=d.key)
        texts += [message_text(presenters.outcome_message(out, de, b""))]
        texts.append(embed_text(presenters.help_embed(de)))
    finally:
        await svc.close()
    joined = "\n".join(texts)
    assert "Schlusswertung" in joined and "Händler und Baumeister" in joined
    _assert_reads_german(texts, ("Anna", "Ben", "Cy"))


# ----------------------------------------------------------------------------- slash commands
async def test_every_slash_command_option_and_choice_has_german() -> None:
    """Discord shows German names and descriptions to ``de`` clients: every node of both
    commands has them, valid for Discord, and option names stay unique per command."""
    from bot.app import CarcBot
    from bot.translators import CarcTranslator, CardTranslator
    from tests.bot.test_discord_limits import _check_name, _walk
    from tests.fakediscord import FakeDiscord

    bot = CarcBot(None, background_tasks=False)
    fake = FakeDiscord(bot)
    await fake.start()
    try:
        translator = CardTranslator(CarcTranslator())
        payloads = [
            await cmd.get_translated_payload(bot.tree, translator)
            for cmd in bot.tree.get_commands()
        ]
    finally:
        await fake.close()
    assert [p["name"] for p in payloads] == ["carcassonne", "cardgame"]
    for payload in payloads:
        for node in _walk(payload):
            name = node["name_localizations"].get("de")
            assert name, node["name"]
            _check_name(name)
            assert 1 <= len(node["description_localizations"].get("de", "")) <= 100, node
            for c in node.get("choices", []):
                assert c.get("name_localizations", {}).get("de"), c
        for sub in payload.get("options", []):
            names = [o["name_localizations"]["de"] for o in sub.get("options", [])]
            assert len(names) == len(set(names)), names
    assert payloads[1]["name_localizations"]["de"] == "karten"
