"""Spanish everywhere (issue 14): every catalogue entry has its own Spanish words; every refusal
of either engine is a keyed error with Spanish words; and whole matches of both games played
through the services, shown by the Discord presenters in Spanish, contain no English word of
the catalogues (:mod:`tests.bot.spanish`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import discord
import pytest

from app.base import ServiceError
from app.cardgame import CardMatchService
from app.matches import MatchOptions, MatchService
from bot.ui import cardgame as cui
from bot.ui import presenters
from bot.ui.lobby import lobby_message
from bot.ui.message import Message
from engine import Deploy, Pass, PlaceTile, Position, Rotation
from engine.carcassonne.actions import Action
from engine.carcassonne.geometry import Rotation as Rot
from engine.carcassonne.randomplay import choose_answer
from engine.carcassonne.rules import apply, new_game, pending
from engine.carcassonne.state import GameSetup
from engine.cardgame import (
    AssignJoker,
    CardAction,
    ChooseWrongRow,
    Colour,
    LayJoker,
    PlaceFollower,
    PlayCard,
)
from engine.cardgame.cards import FACES
from engine.cardgame.rules import apply as card_apply
from engine.cardgame.rules import legal_actions as card_legal_actions
from engine.cardgame.rules import new_game as new_card_game
from engine.cardgame.state import CardSetup
from engine.core.errors import EngineError
from engine.core.rng import Rng
from engine.core.seats import Seat
from tests.bot.spanish import SHARED, english_in, english_words, entries, words
from words.i18n import Lang
from words.labels import option_text

BOTH = ("inns_cathedrals", "traders_builders")
_PLACEHOLDER = re.compile(r"\{(\w+)")


# ----------------------------------------------------------------------------- catalogues
def test_the_check_finds_english_in_a_spanish_line() -> None:
    english = english_words()
    assert english_in("ciudad completed: 3 piezas", english=english) == ["completed"]
    assert english_in("goods al final", english=english) == ["goods"]
    assert english_in("3 piezas × 2 (cathedral)", english=english) == ["cathedral"]
    # code, notation, names and links are not prose
    assert english_in("usa `/carcassonne new` o 'pass' (Bob)", ["Bob"], english=english) == []


def test_every_catalogue_entry_has_its_own_spanish_words() -> None:
    """Both texts are there with the same placeholders, and the Spanish is a translation:
    it differs from the English unless only numbers, placeholders or shared words remain."""
    problems = []
    for cat, key, en, es in entries():
        if not en.strip() or not es.strip():
            problems.append(f"{cat} {key}: an empty text")
        if set(_PLACEHOLDER.findall(en)) != set(_PLACEHOLDER.findall(es)):
            problems.append(f"{cat} {key}: placeholders differ: {en!r} / {es!r}")
        if en == es and set(words(en)) - SHARED:
            problems.append(f"{cat} {key}: the Spanish is the English: {en!r}")
    assert not problems, "\n".join(problems)


def test_no_spanish_catalogue_text_contains_an_english_word() -> None:
    english = english_words()
    found = [
        f"{cat} {key}: {bad} in {es!r}"
        for cat, key, _, es in entries()
        if (bad := english_in(es, english=english))
    ]
    assert not found, "\n".join(found)


def test_the_rulebooks_words_are_used() -> None:
    """RULES.md §1: claustro (not monasterio), pieza, ladrón…; one word for the lobby."""
    spanish = "\n".join(es for _, _, _, es in entries()).lower()
    assert "monasterio" not in spanish and "claustro" in spanish
    assert "loseta" not in spanish and "pieza" in spanish
    assert not re.search(r"\bsalas?\b", spanish), "the lobby is 'mesa', never 'sala'"
    assert "trigo" not in spanish and "de grano" in spanish and "de tela" in spanish


# ----------------------------------------------------------------------------- refusals
def _assert_spanish_refusal(e: EngineError, english: frozenset[str]) -> None:
    assert e.key is not None, f"an engine refusal without a message key: {e}"
    es = e.text("es")
    names = ("Ana", "Ben", "Cy")
    assert es != str(e) and not english_in(es, names, english=english), (str(e), es)


def _tile_refusals(state: object, rng: Rng) -> Iterable[tuple[int, Action, str | None]]:
    """Moves a player could try that the rules refuse (and a few they accept)."""
    d = pending(state)[0]  # type: ignore[arg-type]
    other = Seat((d.seat + 1) % 3)
    yield other, Pass(), None  # not your turn
    yield d.seat, Pass(), "no.such.key"  # out of date
    yield d.seat, PlaceTile(Position(rng.below(9) - 4, rng.below(9) - 4), Rot(rng.below(4))), None
    yield d.seat, PlaceTile(Position(0, 0), Rot.R0), None  # a tile is there
    yield d.seat, PlaceTile(Position(40, 40), Rot.R0), None  # touches nothing
    for spot in ("city:N", "road:EW", "field:Nw.Ne", "cloister", "road:S"):
        yield d.seat, Deploy(spot, "follower"), None
        yield d.seat, Deploy(spot, "large"), None
    yield d.seat, Pass(), None


def test_every_tile_game_refusal_is_keyed_and_reads_spanish() -> None:
    english = english_words()
    rng = Rng(3)
    refused: set[str] = set()
    state = new_game(GameSetup(players=3, expansions=BOTH), seed=11)
    for _ in range(150):
        if state.over:
            break
        for seat, action, key in _tile_refusals(state, rng):
            try:
                apply(state, seat, action, key=key)
            except EngineError as e:
                _assert_spanish_refusal(e, english)
                refused.add(e.key or "")
        d = pending(state)[0]
        state = apply(state, d.seat, choose_answer(d, rng), key=d.key).state
    for text in ("frobnicate", "place 1", "deploy wizard city:N", "place 1,0 r45", "place a,b r0"):
        with pytest.raises(EngineError) as err:
            Action.from_notation(text)
        _assert_spanish_refusal(err.value, english)
        refused.add(err.value.key or "")
    # the reasons a player meets most are all among them
    assert {"err.not_your_turn", "err.stale", "err.tile_there", "err.not_adjacent"} <= refused
    assert {"err.edge_mismatch", "err.place_first", "err.deploy_or_pass"} <= refused
    assert len(refused) >= 12, refused


def _card_moves() -> list[CardAction]:
    out: list[CardAction] = []
    for face in FACES:
        out += [PlayCard(face.code, c) for c in Colour]
        out += [ChooseWrongRow(face.code, keep=True), ChooseWrongRow(face.code, keep=False)]
    out += [PlaceFollower(c) for c in Colour] + [LayJoker(c) for c in Colour]
    out += [AssignJoker(c.value) for c in Colour]
    return out


def test_every_card_game_refusal_is_keyed_and_reads_spanish() -> None:
    english = english_words()
    rng = Rng(5)
    moves = _card_moves()
    refused: set[str] = set()
    state = new_card_game(CardSetup(players=3, names=("Ana", "Ben", "Cy")), seed=4)
    for _ in range(400):
        if state.over:
            break
        seat = Seat(min(state.awaiting))
        for action in (moves[rng.below(len(moves))] for _ in range(12)):
            for who in (seat, Seat((seat + 1) % 3)):
                try:
                    card_apply(state, who, action)
                except EngineError as e:
                    _assert_spanish_refusal(e, english)
                    refused.add(e.key or "")
        options = card_legal_actions(state, seat)
        state = card_apply(state, seat, options[rng.below(len(options))]).state
    assert {"err.cards.not_in_hand", "err.cards.not_your_turn"} <= refused
    assert len(refused) >= 6, refused


# ----------------------------------------------------------------------------- whole matches
def message_text(m: Message) -> str:
    """Everything a player reads in a message: text, embed, buttons and menus."""
    out = [m.content or ""]
    if m.embed is not None:
        out += [m.embed.title or "", m.embed.description or ""]
        out += [m.embed.footer.text or ""] if m.embed.footer else []
        for f in m.embed.fields:
            out += [f.name, f.value]
    if m.view is not None:
        for item in m.view.children:
            out.append(getattr(item, "label", None) or "")
            for o in getattr(item, "options", None) or []:
                out += [o.label, o.description or ""]
    return "\n".join(x for x in out if x)


def embed_text(e: discord.Embed) -> str:
    return "\n".join(
        [e.title or "", e.description or ""] + [f"{f.name}\n{f.value}" for f in e.fields]
    )


def _assert_reads_spanish(texts: list[str], names: Iterable[str]) -> None:
    english = english_words()
    names = tuple(names)
    bad = [
        f"{english_in(t, names, english)} in {t!r}" for t in texts if english_in(t, names, english)
    ]
    assert not bad, "\n".join(bad[:20])


async def test_a_spanish_tile_match_reads_spanish_from_lobby_to_final_scores(
    tmp_path: Path,
) -> None:
    svc = await MatchService.open(tmp_path / "m.sqlite3", renderer=None, animator=None)
    es = Lang.ES
    texts: list[str] = []
    try:
        options = MatchOptions(players=3).with_expansions(BOTH)
        info = await svc.create_lobby(1, 5, 10, "Ana", options, seed=7)
        await svc.join(5, 11, "Ben")
        await svc.join(5, 12, "Cy")
        info = await svc.lobby(5)
        texts += [
            message_text(lobby_message(info, es)),
            embed_text(presenters.rules_embed(info.options, es)),
        ]
        out = await svc.start(5, 10)
        rng = Rng(3)  # a game that completes a city with a knight and ends with a cloister
        scored = set()
        while not out.finished:
            texts.append(message_text(presenters.outcome_message(out, es, b"")))
            d = out.decisions[0]
            texts += [option_text(o, out.seats, es, among=d.options) for o in d.options[:40]]
            if out.view.turn % 25 == 0:
                texts.append(embed_text(presenters.score_embed(out, es)))
                texts.append(
                    embed_text(presenters.tiles_embed(presenters.remaining_tiles(out.view), es))
                )
            with pytest.raises(ServiceError) as refused:  # a move the rules refuse, shown
                await svc.submit(5, out.user_of(d.seat), [PlaceTile(Position(40, 40), Rotation.R0)])
            texts.append(presenters.error_text(refused.value, es))
            out = await svc.submit(5, out.user_of(d.seat), [choose_answer(d, rng)], key=d.key)
            scored |= {type(e).__name__ for e in out.events}
        final = message_text(presenters.outcome_message(out, es, b""))
        texts += [final, embed_text(presenters.help_embed(es))]
    finally:
        await svc.close()
    assert "PointsScored" in scored and "puntuación final" in final.lower()
    joined = "\n".join(texts)
    assert "ciudad completada" in joined and "claustro" in final
    _assert_reads_spanish(texts, ("Ana", "Ben", "Cy"))


async def test_a_spanish_card_match_reads_spanish(tmp_path: Path) -> None:
    svc = await CardMatchService.open(tmp_path / "c.sqlite3", renderer=None)
    es = Lang.ES
    texts: list[str] = []
    try:
        await svc.create_lobby(1, 6, 20, "Ana", 3, lang="es", seed=3)
        await svc.join(6, 21, "Ben")
        await svc.join(6, 22, "Cy")
        out = await svc.start(6, 20)
        rng = Rng(3)  # a game that completes a city with a knight and ends with a cloister
        while not out.finished:
            texts.append(message_text(cui.table_message(out, es, None)))
            seat = min(out.view.awaiting)
            user = out.seats[seat].user_id
            _, sv = await svc.private_view(out.match_id, user)
            texts.append(cui.hand_text(sv, es, where="#mesa"))
            d = sv.own_decisions[rng.below(len(sv.own_decisions))]
            texts += [option_text(o, out.seats, es, among=d.options) for o in d.options]
            try:
                await svc.submit(out.match_id, user, PlaceFollower(Colour.BLUE), key="cards.x")
            except ServiceError as e:
                texts.append(cui.error_text(e, es))
            out = await svc.submit(out.match_id, user, choose_answer(d, rng), key=d.key)
        texts.append(message_text(cui.table_message(out, es, None)))
    finally:
        await svc.close()
    joined = "\n".join(texts)
    assert "personajes:" in joined and "edificios:" in joined and "Gana" in joined
    _assert_reads_spanish(texts, ("Ana", "Ben", "Cy"))


def test_a_discarded_tile_is_named_by_what_is_printed_on_it() -> None:
    from app.base import SeatInfo
    from engine.carcassonne.events import TileDiscarded
    from words.phrases import event_lines

    seats = (SeatInfo(0, 1, "Ana"), SeatInfo(1, 2, "Ben"))
    (line,) = event_lines([TileDiscarded(Seat(0), "BA/LR")], seats, Lang.ES)
    assert (
        line
        == "Una pieza no encajaba en ningún sitio y se ha descartado: claustro · camino hacia el sur."
    )
    (line,) = event_lines([TileDiscarded(Seat(0), "BA/LR")], seats, Lang.EN)
    assert line == "A tile fitted nowhere and was discarded: cloister · road to the south."
