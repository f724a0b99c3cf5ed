"""The lobby's expansion and rule pickers through the real discord.py stack.

The lobby message offers every expansion of the engine's registry (also one registered by a
test, which the bot has never heard of) in a multi-select, and the options of the chosen
expansions in a Rules select whose ephemeral picker sets a value; only the host may change
them; the values are validated, persisted with the lobby (and the guild defaults), shown in
the lobby and ``/rules``, and reach the started game's setup.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
import pytest

from app.matches import ERR_ILLEGAL, ERR_NOT_HOST, MatchOptions, ServiceError
from app.options import rules_for
from engine.carcassonne import registry
from engine.carcassonne.expansion import Expansion, Option
from engine.carcassonne.registry import all_expansions
from engine.core import messages
from engine.core.messages import text
from tests.bot.tiletable import (
    ALICE,
    BOB,
    Table,
    choose_expansions,
    choose_rule,
    cid,
    start_match,
)
from tests.fakediscord import DEFAULT_CHANNEL, FakeDiscord, User, walk_components

TB = "traders_builders"
IC = "inns_cathedrals"


class Lanterns(Expansion):
    """A test-only expansion with many options: the bot must offer it unchanged."""

    id = "test_lanterns"
    options = tuple(Option(f"tl.opt{i}", i % 3, (0, 1, 2), f"option {i}") for i in range(30)) + (
        Option("tl.mode", "slow", ("slow", "fast"), "how lanterns move"),
    )


@pytest.fixture
def lanterns() -> Iterator[type[Expansion]]:
    messages.register(
        {
            "exp.test_lanterns": ("Lanterns", "Farolillos"),
            "opt.tl.mode": ("Lantern speed", "Velocidad de farolillos"),
            "choice.tl.mode.fast": ("fast", "rápido"),
        }
    )
    registry.register(Lanterns)
    try:
        yield Lanterns
    finally:
        registry.unregister(Lanterns.id)


def _select(msg: dict[str, Any], action: str) -> dict[str, Any]:
    for c in walk_components(msg.get("components") or []):
        if c["type"] == 3 and c["custom_id"].split(":")[3] == action:
            return c
    raise AssertionError(f"no {action!r} select")


async def _lobby(fake: FakeDiscord) -> int:
    new = await fake.slash(ALICE, "new")
    join = await fake.click(BOB, new.callback.message_id or 0, cid(new.callback, "join"))
    assert join.callback.callback_type == 7
    return new.callback.message_id or 0


# ------------------------------------------------------------------------------ offered
async def test_the_lobby_offers_every_registered_expansion(
    table: Table, lanterns: type[Expansion]
) -> None:
    fake = table.fake
    lobby = await _lobby(fake)
    select = _select(fake.message(lobby), "exps")
    ids = [cls.id for cls in all_expansions()]
    assert [o["value"] for o in select["options"]] == ids
    assert [o["label"] for o in select["options"]] == [text(f"exp.{i}") for i in ids]
    assert "Lanterns" in [o["label"] for o in select["options"]]
    assert select["min_values"] == 0 and select["max_values"] == len(ids)
    assert not any(o.get("default") for o in select["options"])
    # no rules select while no chosen expansion has options
    with pytest.raises(AssertionError):
        _select(fake.message(lobby), "rule")
    # the slash command has no option per expansion any more (Discord allows 25)
    new = fake.bot.tree.get_command("carcassonne").get_command("new")  # type: ignore[union-attr]
    names = [p.name for p in new.parameters]  # type: ignore[union-attr]
    assert names == [
        "players", "farm_scoring", "tiny_city", "reminder_minutes", "clock", "opponents",
        "level",
    ]  # fmt: skip


async def test_choosing_expansions_shows_their_rules(table: Table) -> None:
    fake = table.fake
    lobby = await _lobby(fake)
    res = await choose_expansions(fake, ALICE, lobby, [TB, IC])
    assert res.callback.callback_type == 7, "the lobby message itself changes"
    msg = fake.message(lobby)
    chosen = [o["value"] for o in _select(msg, "exps")["options"] if o.get("default")]
    assert chosen == [IC, TB], "registry order, and the select shows what is chosen"
    rules = _select(msg, "rule")["options"]
    assert [o["value"] for o in rules] == [r.key for r in rules_for([IC, TB])]
    pig = next(o for o in rules if o["value"] == "tb.pig")
    assert pig["label"] == "Traders & Builders · Pig: on"
    assert pig["description"] == text("help.tb.pig")
    lobby_text = res.callback.text()
    assert "Expansions: Inns & Cathedrals, Traders & Builders" in lobby_text
    assert "• Traders & Builders — Builder: on · Pig: on · Goods: on" in lobby_text
    info = await table.service.lobby(DEFAULT_CHANNEL)
    assert info.options.expansions == (IC, TB) and info.options.rules == ()


async def test_the_rule_picker_sets_a_value_everywhere(table: Table) -> None:
    fake = table.fake
    lobby = await _lobby(fake)
    await choose_expansions(fake, ALICE, lobby, [TB])
    opened = await fake.click(ALICE, lobby, cid(fake.message(lobby), "rule"), values=["tb.pig"])
    picker = opened.callback
    assert picker.ephemeral
    assert "**Pig** (Traders & Builders)" in picker.content and "Now: **on**" in picker.content
    buttons = [
        c for c in walk_components(picker.data["components"]) if ":ruleset:" in c["custom_id"]
    ]
    assert [b["label"] for b in buttons] == ["on", "off"]
    res = await fake.click(ALICE, picker.message_id or 0, buttons[1]["custom_id"])
    assert "Pig: **off**" in fake.message(picker.message_id or 0)["content"]
    # the lobby message was edited in place (a REST edit of the stored lobby message)
    edits = [r for r in res.requests if r.method == "PATCH" and str(lobby) in r.path]
    assert edits, res.requests
    assert "Pig: off" in fake.message(lobby)["embeds"][0]["fields"][0]["value"]
    pig = next(o for o in _select(fake.message(lobby), "rule")["options"] if o["value"] == "tb.pig")
    assert pig["label"].endswith("Pig: off")
    info = await table.service.lobby(DEFAULT_CHANNEL)
    assert info.options.rules == (("tb.pig", False),)
    assert "Pig: off" in (await fake.slash(BOB, "rules")).last.text()
    # dropping the expansion forgets its rules
    await choose_expansions(fake, ALICE, lobby, [IC])
    info = await table.service.lobby(DEFAULT_CHANNEL)
    assert info.options.expansions == (IC,) and info.options.rules == ()


async def test_only_the_host_changes_expansions_and_rules(table: Table) -> None:
    fake = table.fake
    lobby = await _lobby(fake)
    res = await choose_expansions(fake, BOB, lobby, [TB])
    assert res.callback.ephemeral and "Only the host" in res.callback.content
    await choose_expansions(fake, ALICE, lobby, [TB])
    before = fake.message(lobby)
    res = await fake.click(BOB, lobby, cid(before, "rule"), values=["tb.pig"])
    assert res.callback.ephemeral and "Only the host" in res.callback.content
    info = await table.service.lobby(DEFAULT_CHANNEL)
    assert info.options.expansions == (TB,) and info.options.rules == ()


async def test_a_chosen_rule_reaches_the_game(table: Table) -> None:
    """``tb.pig`` off: no pig in anyone's supply, none offered, none in /score."""
    fake = table.fake
    turn = await start_match(fake, expansions=[TB], rules={"tb.pig": False})
    outcome = await table.service.current(DEFAULT_CHANNEL, render=False)
    assert outcome.view.setup.option("tb.pig") is False
    for p in outcome.view.players:
        assert "pig" not in p.supply and p.supply.get("builder") == 1
    score = (await fake.slash(BOB, "score")).last.text()
    assert "builder 1" in score and "pig" not in score
    row = await table.service.storage.matches.get(outcome.match_id)
    assert row is not None and row.setup is not None
    assert row.setup["options"] == {"tb.pig": False}
    assert turn.custom_ids()


async def test_default_rules_reach_the_game_untouched(table: Table) -> None:
    await start_match(table.fake, expansions=[TB])
    outcome = await table.service.current(DEFAULT_CHANNEL, render=False)
    assert all(p.supply.get("pig") == 1 for p in outcome.view.players)


async def test_many_rules_are_paged_and_choices_use_catalogue_words(
    table: Table, lanterns: type[Expansion]
) -> None:
    fake = table.fake
    lobby = await _lobby(fake)
    await choose_expansions(fake, ALICE, lobby, [Lanterns.id])
    rules = _select(fake.message(lobby), "rule")["options"]
    assert len(rules) == 25 and rules[-1]["value"] == "more1"
    assert rules[-1]["label"] == "More rules… (page 2 of 2)"
    res = await fake.click(ALICE, lobby, cid(fake.message(lobby), "rule"), values=["more1"])
    assert res.callback.callback_type == 7
    page2 = _select(fake.message(lobby), "rule")["options"]
    assert [o["value"] for o in page2[:-1]] == [f"tl.opt{i}" for i in range(24, 30)] + ["tl.mode"]
    assert page2[-2]["label"] == "Lanterns · Lantern speed: slow"
    await choose_rule(fake, ALICE, lobby, "tl.mode", "fast")
    assert (await table.service.lobby(DEFAULT_CHANNEL)).options.rule("tl.mode") == "fast"
    assert "Lantern speed: fast" in fake.message(lobby)["embeds"][0]["fields"][0]["value"]


# ------------------------------------------------------------------------------ service
async def test_rules_are_validated(table: Table) -> None:
    svc = table.service
    await svc.create_lobby(1, DEFAULT_CHANNEL, ALICE.id, "Alice", MatchOptions())

    async def refused(key: str, coro: Any) -> ServiceError:
        with pytest.raises(ServiceError) as e:
            await coro
        assert e.value.key == key, e.value
        return e.value

    err = await refused(ERR_ILLEGAL, svc.set_rule(DEFAULT_CHANNEL, ALICE.id, "tb.pig", False))
    assert "no chosen expansion" in err.params["reason"]
    await svc.set_expansions(DEFAULT_CHANNEL, ALICE.id, [TB])
    err = await refused(ERR_ILLEGAL, svc.set_rule(DEFAULT_CHANNEL, ALICE.id, "tb.pig", 1))
    assert "must be one of True, False" in err.params["reason"]
    await refused(ERR_ILLEGAL, svc.set_rule(DEFAULT_CHANNEL, ALICE.id, "tb.dragon", True))
    await refused(ERR_ILLEGAL, svc.set_expansions(DEFAULT_CHANNEL, ALICE.id, ["dragons"]))
    await refused(ERR_NOT_HOST, svc.set_rule(DEFAULT_CHANNEL, BOB.id, "tb.pig", False))
    info = await svc.set_rule(DEFAULT_CHANNEL, ALICE.id, "tb.pig", False)
    assert info.options.rule("tb.pig") is False and info.options.rule("tb.goods") is True
    await refused(
        ERR_ILLEGAL,
        svc.set_guild_defaults(1, MatchOptions(expansions=(IC,), rules=(("tb.pig", False),))),
    )


async def test_guild_defaults_with_rules_open_new_lobbies(table: Table) -> None:
    wanted = MatchOptions(players=3, expansions=(TB,), rules=(("tb.goods", False),))
    await table.service.set_guild_defaults(table.fake.guild_id, wanted)
    assert await table.service.guild_defaults(table.fake.guild_id) == wanted
    new = await table.fake.slash(ALICE, "new", tiny_city=4)
    assert "Goods: off" in new.callback.text() and "for 3 players" in new.callback.text()
    info = await table.service.lobby(DEFAULT_CHANNEL)
    assert info.options.rules == (("tb.goods", False),) and info.options.tiny_city == 4


# ------------------------------------------------------------------------------ defaults
MOD = User(707, "Mod", permissions=discord.Permissions(manage_guild=True, view_channel=True).value)


async def test_server_managers_set_the_defaults_new_tables_start_from(table: Table) -> None:
    """``/carcassonne defaults`` shows the server's defaults to anyone, and changes them for
    members who can manage the server; ``/carcassonne new`` starts from them."""
    fake, guild = table.fake, table.fake.guild_id
    shown = await fake.slash(ALICE, "defaults")
    assert shown.last.ephemeral and "defaults for new tables" in shown.last.text()
    assert "Players: 2" in shown.last.text()
    # a member who cannot manage the server changes nothing
    refused = await fake.slash(ALICE, "defaults", players=4)
    assert refused.last.ephemeral and "Manage Server" in refused.last.text()
    assert await table.service.guild_defaults(guild) == MatchOptions()
    # a manager does; expansions by name or id, separated by commas
    saved = await fake.slash(
        MOD, "defaults", players=4, tiny_city=4, expansions="Inns & Cathedrals, traders_builders"
    )
    assert saved.last.ephemeral and "Saved" in saved.last.text()
    stored = await table.service.guild_defaults(guild)
    assert (stored.players, stored.tiny_city) == (4, 4)
    assert stored.expansions == (IC, TB)
    # a new table starts from them, and its own options still win
    new = await fake.slash(BOB, "new", players=3)
    text = new.callback.text()
    assert "for 3 players" in text and "4 points + 2 per shield" in text
    assert "Inns & Cathedrals" in text and "Traders & Builders" in text
    await fake.slash(BOB, "abandon")
    # 'none' is the base game; a name that is no expansion is refused kindly
    await fake.slash(MOD, "defaults", expansions="none")
    assert (await table.service.guild_defaults(guild)).expansions == ()
    bad = await fake.slash(MOD, "defaults", expansions="dragons")
    assert bad.last.ephemeral and "no expansion" in bad.last.text().lower()
    # reset: the built-in defaults again
    await fake.slash(MOD, "defaults", reset=True)
    assert await table.service.guild_defaults(guild) == MatchOptions()
    # Spanish words for a Spanish manager; the expansions autocomplete lists names
    es = await fake.slash(
        User(909, "Mar", locale="es-ES", permissions=MOD.permissions), "defaults", players=5
    )
    assert "Guardado" in es.last.text() and "Jugadores: 5" in es.last.text()
    choices = await fake.autocomplete(MOD, "defaults", "expansions", expansions="inns")
    assert choices and choices[0]["value"] == IC and "Inns & Cathedrals" in choices[0]["name"]
    more = await fake.autocomplete(MOD, "defaults", "expansions", expansions=f"{IC}, tra")
    assert [c["value"] for c in more] == [f"{IC}, {TB}"]
