"""Static check of everything the bot sends against Discord's limits (ECOSYSTEM.md §1.2).

discord.py accepts a 101-character description or a 26th choice locally and only fails at sync
time (HTTP 400), and it does not truncate autocomplete answers, so these limits are walked
here: every command, option, choice and localisation, every component the presenters build
(with worst-case ids), every text in both languages, and the biggest messages of a 6-player game.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from app.choices import ROOT, Path, extend, walk
from app.matches import LobbyInfo, MatchOptions, Outcome, SeatInfo
from bot.app import CarcBot
from bot.translators import CarcTranslator
from bot.ui import presenters as ui
from bot.ui.decisions import choices_of, picker
from engine import GameSetup, Pass, Position, apply, new_game
from engine.carcassonne.events import Event
from engine.carcassonne.randomplay import choose_action
from engine.carcassonne.view import public_view
from engine.core.decisions import Decision, FeatureRef, IntRange, Prompt
from engine.core.decisions import Option as DOption
from engine.core.rng import Rng
from tests.fakediscord import FakeDiscord
from words.i18n import DESCRIPTIONS_ES, NAMES_ES, TEXTS, Lang

NAME_RE = re.compile(r"^[-_\w]{1,32}$")
BIG_MATCH, BIG_VERSION = 10**12, 10**6


@pytest.fixture
async def payloads() -> list[dict[str, Any]]:
    bot = CarcBot(None, background_tasks=False)
    fake = FakeDiscord(bot)
    await fake.start()
    try:
        translator = CarcTranslator()
        return [
            await cmd.get_translated_payload(bot.tree, translator)
            for cmd in bot.tree.get_commands()
        ]
    finally:
        await fake.close()


def _walk(payload: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield payload
    for o in payload.get("options", []):
        yield from _walk(o)


def _check_name(name: str) -> None:
    assert NAME_RE.fullmatch(name) and name == name.lower(), name


def _command_chars(payload: dict[str, Any]) -> int:
    """Discord's 8000-character budget: names, descriptions and choice values of a command."""
    total = 0
    for node in _walk(payload):
        total += len(node["name"]) + len(node.get("description", ""))
        for c in node.get("choices", []):
            total += len(c["name"]) + len(str(c["value"]))
    return total


async def test_commands_fit_discords_limits(payloads: list[dict[str, Any]]) -> None:
    assert [p["name"] for p in payloads] == ["carcassonne", "cardgame"]
    group = payloads[0]
    subs = {o["name"] for o in group["options"]}
    assert subs == {
        "new", "join", "leave", "start", "choose", "place", "pass", "board", "tiles",
        "score", "undo", "resign", "abandon", "help", "rules", "defaults", "away", "back",
        "vote_out", "pings",
        "leaderboard", "stats", "history",
    }  # fmt: skip
    assert len(group["options"]) <= 25
    assert _command_chars(group) <= 8000
    for node in _walk(group):
        _check_name(node["name"])
        assert 1 <= len(node["description"]) <= 100, node["description"]
        assert len(node.get("options", [])) <= 25
        choices = node.get("choices", [])
        assert len(choices) <= 25
        for c in choices:
            assert 1 <= len(c["name"]) <= 100
            assert len(str(c["value"])) <= 100
        for loc_name in node.get("name_localizations", {}).values():
            _check_name(loc_name)
        for loc_desc in node.get("description_localizations", {}).values():
            assert 1 <= len(loc_desc) <= 100
        for c in choices:
            for loc in c.get("name_localizations", {}).values():
                assert 1 <= len(loc) <= 100


async def test_every_command_option_and_choice_has_spanish(payloads: list[dict[str, Any]]) -> None:
    for node in _walk(payloads[0]):
        for locale in ("es-ES", "es-419"):
            assert node["name_localizations"].get(locale), (node["name"], locale)
            assert node["description_localizations"].get(locale), (node["name"], locale)
        for c in node.get("choices", []):
            assert c.get("name_localizations", {}).get("es-ES"), c
    # localised option names stay unique within each command
    for sub in payloads[0]["options"]:
        names = [o["name_localizations"]["es-ES"] for o in sub.get("options", [])]
        assert len(names) == len(set(names)), names


def test_translation_tables_are_valid() -> None:
    for en, es in NAMES_ES.items():
        _check_name(en)
        _check_name(es)
    for en, es in DESCRIPTIONS_ES.items():
        assert len(en) <= 100 and 1 <= len(es) <= 100, (en, es)


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_text_has_both_languages_with_the_same_placeholders() -> None:
    for key, (en, es) in TEXTS.items():
        assert en and es, key
        assert _fields(en) == _fields(es), key
        assert len(en) <= 2000 and len(es) <= 2000


# ------------------------------------------------------------------------------ components
def _check_view(view: discord.ui.View | None) -> int:
    """Assert Discord's component limits on a legacy view; returns its custom_id count."""
    if view is None:
        return 0
    rows = view.to_components()
    assert len(rows) <= 5
    ids = []
    for row in rows:
        comps = row["components"]
        assert 1 <= len(comps) <= 5
        for c in comps:
            cid = c["custom_id"]
            ids.append(cid)
            assert 1 <= len(cid) <= 100, cid
            if c["type"] == 2:
                assert len(c.get("label") or "") <= 80
            if c["type"] == 3:
                assert len(comps) == 1, "a select fills its row"
                assert 1 <= len(c["options"]) <= 25
                assert len(c.get("placeholder") or "") <= 150
                for o in c["options"]:
                    assert len(o["label"]) <= 100 and len(o["value"]) <= 100
                    assert len(o.get("description") or "") <= 100
    assert len(ids) == len(set(ids)), "custom_ids are unique per message"
    return len(ids)


def _big_game(players: int = 6, seed: int = 5) -> tuple[list[Outcome], Outcome]:
    """Every turn's outcome (place step) and the final one of a random game."""
    state = new_game(GameSetup(players=players), seed=seed)
    rng = Rng(seed)
    seats = tuple(SeatInfo(i, 10**18 + i, f"Player-{'x' * 24}-{i}") for i in range(players))
    turns: list[Outcome] = []
    events: tuple[Event, ...] = ()
    while not state.over:
        if state.step == "place":
            turns.append(_outcome(state, seats, events))
        tr = apply(state, state.current, choose_action(state, rng))
        state, events = tr.state, tr.events
    final = _outcome(state, seats, events, finished=True)
    return turns, final


def _outcome(
    state: Any, seats: tuple[SeatInfo, ...], events: Any, finished: bool = False
) -> Outcome:
    from app.matches import numbered_cells
    from engine import legal_placements

    return Outcome(
        match_id=BIG_MATCH,
        version=BIG_VERSION,
        view=public_view(state),
        seats=seats,
        events=tuple(events),
        finished=finished,
        record_json="{}" if finished else None,
        animation=b"GIF89a" if finished else None,
        placements=numbered_cells(legal_placements(state)) if not finished else {},
        channel_id=1,
        guild_id=1,
        undo_seat=None if finished else 0,
    )


def _pickers(
    o: Outcome, decision: Decision, path: Path, lang: Lang, view: Any = None
) -> list[discord.ui.View]:
    """The picker views of a decision at ``path``: every page, and one level deeper for a
    few of its choices."""
    step = walk(decision, path[-1])
    items = choices_of(step, o.seats, lang)
    out = []
    for page in range(max(1, -(-len(items) // 25))):
        p = picker(BIG_MATCH, decision, path, step, view or o.view, o.seats, lang, page=page)
        out.append(p.view)
        assert len(p.content) <= 2000
    for c in items[:3]:
        deeper = extend(path, c.token)
        if not walk(decision, deeper[-1]).complete:
            out += _pickers(o, decision, deeper, lang, view)
    return out


@pytest.mark.parametrize("lang", list(Lang))
def test_every_component_and_message_fits(lang: Lang) -> None:
    turns, final = _big_game()
    most_cells = max(turns, key=lambda o: len(o.placements))
    assert len(most_cells.placements) > 25, "the pager is exercised"
    for o in turns[::7] + [most_cells]:
        msg = ui.turn_message(o, lang, b"png")
        _check_message(msg)
        (place,) = o.decisions
        for view in _pickers(o, place, ROOT, lang):
            _check_view(view)
    # a decision with many options of long words, numeric and optional, from another seat
    o = turns[-1]
    long = [f"field:inner{i}" for i in range(2, 40)] + ["field:Nw.Ne.En.Es.Se.Sw.Ws", "city:NESW"]
    options = tuple(
        DOption(
            f"o{i}",
            Pass(),
            FeatureRef(-36, -36, spot),
            (("spot", spot), ("figure", "large")),
        )
        for i, spot in enumerate(long)
    ) + (DOption("n", None, number=IntRange(1, 10**9), make=lambda n: Pass()),)
    several = [
        Decision(
            f"some.expansion.decision#{n}" + "9" * 12,
            o.view.current,
            "some.expansion.decision",
            Prompt.of("x" * 300),
            options,
            optional=True,
            pass_action=Pass(),
        )
        for n in range(6)
    ]
    for view in _pickers(o, several[0], ROOT, lang):
        assert _check_view(view) <= 25
    private = ui.private_message(o, several, lang, where="<#1>")
    _check_message(private)
    _check_message(ui.final_message(final, lang, b"png"))
    options_ = MatchOptions(
        players=6, farm_scoring="city_supply_1st_ed", tiny_city=4, reminder_minutes=10080
    )
    lobby = LobbyInfo(BIG_MATCH, 1, 10**18, options_, final.seats, "lobby")
    _check_message(ui.lobby_message(lobby, lang))
    _check_message(
        ui.Message(embed=ui.tiles_embed({"BA/X": 3} | {f"T{i}": 2 for i in range(30)}, lang))
    )
    _check_message(ui.Message(embed=ui.help_embed(lang)))
    _check_message(ui.Message(embed=ui.score_embed(final, lang)))
    _check_message(ui.Message(embed=ui.rules_embed(options_, lang)))


def _check_message(msg: ui.Message) -> None:
    assert len(msg.content or "") <= 2000
    assert len(msg.files) <= 10
    if msg.embed is not None:
        e = msg.embed
        assert len(e.title or "") <= 256
        assert len(e.description or "") <= 4096
        assert len(e.fields) <= 25
        for f in e.fields:
            assert 1 <= len(f.name or "") <= 256 and 1 <= len(f.value or "") <= 1024, f
        assert len(e.footer.text or "") <= 2048
        assert len(e) <= 6000
    _check_view(msg.view)


def test_cell_numbers_match_the_numbers_drawn_on_the_board() -> None:
    """The pickers and autocomplete number cells exactly as rendering labels them."""
    from rendering import placement_order

    turns, _ = _big_game(players=3, seed=9)
    for o in turns:
        (place,) = o.decisions
        cells = [Position(*(int(v) for v in c.split(","))) for c in place.facet_values("cell")]
        assert cells == placement_order(o.placements)
        items = choices_of(walk(place, ()), o.seats, Lang.EN)
        if len(cells) > 1 and items[0].target is not None:
            assert [c.mark for c in items] == [str(i + 1) for i in range(len(items))]
