"""Inns & Cathedrals and Traders & Builders through the real discord.py stack (tests/fakediscord.py):
the lobby options, every figure kind in the follower step (pickers, slash commands,
autocomplete), the builder's optional second tile (taken by a button, declined by Pass), goods
announced, figures and goods in /score, Spanish labels. The bot knows neither expansion: it
shows their decisions and figures as it shows any.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from app import matches
from bot.ui import presenters as ui
from engine import PlaceTile, Position, Rotation, Seat
from engine.carcassonne.expansions.traders_builders import BuilderBonus, GoodsTaken
from engine.core.decisions import Decision, FeatureRef
from rendering import render_targets, spot_letter
from tests.bot.pickers import Answerer, components, turn_posts, verb
from tests.bot.tiletable import (
    ALICE,
    BOB,
    Table,
    assert_final,
    choose_expansions,
    labelled,
    score_lines,
    start_match,
    whose_turn,
)
from tests.fakediscord import DEFAULT_CHANNEL, FakeDiscord, Request, User
from words.i18n import Lang

BOTH = ("inns_cathedrals", "traders_builders")
FIGURES = ("large follower", "builder", "pig")
#: a match seed whose game (with the choices below) gives builder bonuses and goods (3
#: since identical rotations are offered once: seed 1's game changed)
SEED = 3
#: the match seed and the choices' seed of the builder test (two bonuses come early)
BONUS_SEED, BONUS_RNG = 6, 2
SO_FAR = re.compile(r"So far: cell \d+ \(x (-?\d+), y (-?\d+)\) · (\d+)°")


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> int:
    """/carcassonne new draws the match seed from ``secrets``: pin it so the game is known."""
    monkeypatch.setattr(matches.secrets, "randbelow", lambda n: SEED)
    return SEED


class FigureLover(Answerer):
    """Answers pickers like :class:`Answerer`, but puts an expansion's figure when offered,
    and checks the first follower steps against the real state (:func:`check_follower_step`)."""

    table: Table | None = None
    checked: int = 0

    async def inspect(self, user: User, picker: Request) -> None:
        text = picker.content
        first = "Put a figure" in text and "So far: cell" in text and "the figure" not in text
        if self.table is not None and self.checked < 8 and first:
            await check_follower_step(self.table, user, picker)
            self.checked += 1

    bonuses: int = 0

    def pick(self, msg: dict[str, Any]) -> tuple[str, list[str] | None]:
        if "second tile" in msg["content"]:  # the builder's bonus: take it, then decline it
            self.bonuses += 1
            take = self.bonuses % 2 == 1
            for c in components(msg):
                if c.get("label") == ("Play the second tile" if take else "Pass"):
                    return c["custom_id"], None
        if "Put a figure" in msg["content"] and self.rng.random() < 0.7:
            for c in components(msg):
                if c["type"] == 2 and any(f in (c.get("label") or "") for f in FIGURES):
                    return c["custom_id"], None
                if c["type"] == 3:
                    liked = [
                        o["value"] for o in c["options"] if any(f in o["label"] for f in FIGURES)
                    ]
                    if liked:
                        return c["custom_id"], [self.rng.choice(liked)]
        return super().pick(msg)


def offered(msg: dict[str, Any]) -> list[str]:
    """The labels of a picker's choices (buttons, or the select's options)."""
    out = []
    for c in components(msg):
        if c["type"] == 3:
            out += [o["label"] for o in c["options"]]
        elif c["type"] == 2 and re.match(r"[A-Z]+ · ", c.get("label") or ""):
            out.append(c["label"])
    return out


async def check_follower_step(table: Table, user: User, picker: Request) -> None:
    """The follower step's choices are exactly the real state's options after the placement
    the picker names, lettered as on its picture, which draws each at its spot."""
    m = SO_FAR.search(picker.content)
    assert m, picker.content
    place = PlaceTile(Position(int(m[1]), int(m[2])), Rotation(int(m[3]) // 90))
    seen = await table.service.preview(DEFAULT_CHANNEL, user.id, place)
    assert seen is not None
    decisions, view = seen
    (deploy,) = [d for d in decisions if d.kind == "core.deploy"]
    labels = offered(table.fake.message(picker.message_id or 0))
    assert [lbl.split(" · ", 1)[0] for lbl in labels] == [
        spot_letter(i) for i in range(len(labels))
    ]
    if len(deploy.options) <= 5:  # every figure placement at once, lettered
        assert len(labels) == len(deploy.options)
        for label, o in zip(labels, deploy.options, strict=True):
            figure = o.facet("figure")
            if figure != "follower":
                assert label.endswith(ui.figure_label(str(figure), Lang.EN)), (label, o)
        targets = [o.target for o in deploy.options]
        figures: list[str | None] | None = [o.facet("figure") for o in deploy.options]
    else:  # the spot first, then its figures
        spots = deploy.facet_values("spot")
        assert len(labels) == len(spots)
        targets = [deploy.narrow(spot=s)[0].target for s in spots]
        figures = None
    assert all(isinstance(t, FeatureRef) for t in targets)
    marks = [spot_letter(i) for i in range(len(targets))]
    # every mark of a figure placement shows its figure (a spot offered twice: two figures)
    drawn = render_targets(view, targets, marks, seat=deploy.seat, figures=figures)
    assert picker.file("choices.png") == drawn


async def test_lobby_and_rules_list_the_expansions(table: Table) -> None:
    fake = table.fake
    new = await fake.slash(ALICE, "new")
    picked = await choose_expansions(fake, ALICE, new.callback.message_id or 0, ["inns_cathedrals"])
    text = picked.callback.text()
    assert "Expansions: Inns & Cathedrals" in text and "Traders" not in text
    rules = await fake.slash(BOB, "rules")
    assert "Expansions: Inns & Cathedrals" in rules.last.text()
    info = await table.service.lobby(DEFAULT_CHANNEL)
    assert info.options.expansions == ("inns_cathedrals",)


async def test_base_lobby_says_no_expansion(table: Table) -> None:
    new = await table.fake.slash(ALICE, "new")
    assert "Expansions: none (base game)" in new.callback.text()


async def test_whole_game_with_both_expansions_through_buttons(
    table: Table, fixed_seed: int
) -> None:
    fake = table.fake
    answer = FigureLover(fake, random.Random(7), pass_rate=0.3, page_rate=0.2)
    answer.table = table
    turn = await start_match(fake, expansions=BOTH)
    assert (
        "Expansions: Inns & Cathedrals, Traders & Builders"
        in (await fake.slash(BOB, "rules")).last.text()
    )
    score = (await fake.slash(BOB, "score")).last.text()
    assert "Figures in supply" in score
    assert "large follower 1" in score and "builder 1" in score and "pig 1" in score
    assert "Traders & Builders" in score and "0 wine, 0 grain, 0 cloth" in score
    announced: dict[str, int] = {}
    figures_used: dict[str, int] = {}
    taken = declined = goods_seen = 0
    for _ in range(400):
        if "🏁" in turn.content:
            break
        user = whose_turn(turn)
        opener = [c for c in components(turn) if verb(c) == "o"]
        assert opener, turn.content
        before = len(answer.seen)
        res = await answer.play(user, turn.message_id or 0, opener[0]["custom_id"])
        (turn,) = turn_posts(res)
        text = turn.text()
        headline = turn.content.splitlines()[0]
        for figure in FIGURES:
            if headline.endswith(f"· {figure}") or f"· {figure} ·" in headline:
                figures_used[figure] = figures_used.get(figure, 0) + 1
        for name, pts in score_lines(text).items():
            announced[name] = announced.get(name, 0) + pts
        if headline.endswith("· Play the second tile"):
            taken += 1
            if "🏁" not in turn.content:
                assert whose_turn(turn) == user, "the builder's owner plays again"
        elif "Your builder earns you a second tile" in " ".join(
            p.content for p in answer.seen[before:]
        ):
            declined += 1
        goods = re.findall(r"(\w+) takes goods: (\d+) wine, (\d+) grain, (\d+) cloth\.", text)
        if goods and "🏁" not in turn.content:
            goods_seen += 1
            score = (await fake.slash(BOB, "score")).last.text()
            now = await table.service.current(DEFAULT_CHANNEL, render=False)
            held = now.view.ext["traders_builders"].goods
            for p in now.view.players:
                # the expansion's public counters, per player, read generically from its model
                wine, grain, cloth = held[p.seat]
                want = f"{wine} wine, {grain} grain, {cloth} cloth"
                assert f"{p.name}: {want}" in score, (want, score)
    else:
        pytest.fail("the game did not end")
    assert set(figures_used) == set(FIGURES), figures_used
    checked = answer.checked
    assert taken and declined and goods_seen and checked, (taken, declined, goods_seen, checked)
    outcome = await table.service.match(1)
    assert outcome.finished
    assert_final(res.channel_sends, announced, {p.name: p.score for p in outcome.view.players})


async def test_builder_second_tile_is_taken_by_a_button_and_declined_by_pass(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The builder's second tile is a decision of its owner (the rulebook's "may"): the turn
    message offers it with a button of its own and Pass."""
    monkeypatch.setattr(matches.secrets, "randbelow", lambda n: BONUS_SEED)
    fake = table.fake
    rng = random.Random(BONUS_RNG)
    turn = await start_match(fake, expansions=["traders_builders"])
    taken = declined = 0
    for _ in range(200):
        if "🏁" in turn.content or (taken and declined):
            break
        user = whose_turn(turn)
        if "Your builder earns you a second tile: play it?" in turn.content:
            labels = [c.get("label") for c in components(turn) if verb(c)]
            assert labels == ["Play the second tile", "Pass"], labels
            other = BOB if user is ALICE else ALICE
            res = await fake.click(other, turn.message_id or 0, labelled(turn, "Pass"))
            assert "not your turn" in res.last.text() and not res.channel_sends
            take = not taken
            res = await fake.click(
                user,
                turn.message_id or 0,
                labelled(turn, "Play the second tile" if take else "Pass"),
            )
            assert res.callback.ephemeral and "Done" in res.text()
            (turn,) = turn_posts(res)
            if take:
                taken += 1
                assert turn.content.startswith(f"{user.name} played: Play the second tile")
                assert f"<@{user.id}>, your turn: Place your tile" in turn.content
            else:
                declined += 1
                assert turn.content.startswith(f"{user.name} played: Pass")
                assert whose_turn(turn) is not user
            continue
        cells = await fake.autocomplete(user, "place", "cell", cell="")
        cell = rng.choice(cells)["value"]
        rots = await fake.autocomplete(user, "place", "rotation", cell=cell, rotation="")
        rot = rng.choice(rots)["value"]
        fols = await fake.autocomplete(
            user, "place", "follower", cell=cell, rotation=rot, follower=""
        )
        # builders first, else a follower on a road or a city (where a builder may go next)
        liked = [f["value"] for f in fols if f["value"].startswith("builder ")] or [
            f["value"] for f in fols if f["value"].startswith(("road", "city"))
        ]
        follower = rng.choice(liked) if liked and rng.random() < 0.9 else "none"
        res = await fake.slash(user, "place", cell=cell, rotation=rot, follower=follower)
        (turn,) = turn_posts(res)
    assert taken and declined, (taken, declined)


async def _deploys_logged(table: Table) -> list[str]:
    """The deploy moves in the match's action log (a figure may be scored and back already)."""
    rows = await table.service.storage.actions.entries(1)
    return [r.action for r in rows if r.action.startswith("deploy")]


async def _first_place_offering(fake: FakeDiscord, user: User, figure: str) -> tuple[int, int]:
    """A cell and rotation (from autocomplete) after which ``figure`` may be deployed."""
    for c in await fake.autocomplete(user, "place", "cell", cell=""):
        for r in await fake.autocomplete(user, "place", "rotation", cell=c["value"], rotation=""):
            fols = await fake.autocomplete(
                user, "place", "follower", cell=c["value"], rotation=r["value"], follower=""
            )
            if any(f["value"].startswith(f"{figure} ") for f in fols):
                return c["value"], r["value"]
    raise AssertionError(f"no placement offers a {figure}")


async def test_slash_place_and_choose_offer_every_figure_kind(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a fixed match seed: with some seeds the second player's tile can only join features the
    # first player's large follower holds, and no placement offers a large follower at all
    monkeypatch.setattr(matches.secrets, "randbelow", lambda n: 0x5EED % n)
    fake = table.fake
    turn = await start_match(fake, expansions=BOTH)
    user = whose_turn(turn)
    cell, rot = await _first_place_offering(fake, user, "large")
    fols = await fake.autocomplete(user, "place", "follower", cell=cell, rotation=rot, follower="")
    assert fols[-1]["value"] == "none" and fols[-1]["name"] == "No follower"
    large = [f for f in fols if f["value"].startswith("large ")]
    assert all("large follower" in f["name"] for f in large)
    plain = [f for f in fols if " " not in f["value"] and f["value"] != "none"]
    assert plain and all("large" not in f["name"] for f in plain)
    # typing narrows to the large follower placements
    typed = await fake.autocomplete(
        user, "place", "follower", cell=cell, rotation=rot, follower="large"
    )
    assert [f["value"] for f in typed[:-1]] == [f["value"] for f in large]
    res = await fake.slash(user, "place", cell=cell, rotation=rot, follower=large[0]["value"])
    turn = res.channel_sends[0]
    assert "large follower" in turn.content, turn.content
    assert await _deploys_logged(table) == [f"deploy {large[0]['value']}"]

    # the other player: place without a follower, then /carcassonne choose with autocomplete
    other = whose_turn(turn)
    cell, rot = await _first_place_offering(fake, other, "large")
    res = await fake.slash(other, "place", cell=cell, rotation=rot)
    turn = res.channel_sends[0]
    choices = await fake.autocomplete(other, "choose", "option", option="large")
    assert choices and all("large follower" in c["name"] for c in choices)
    assert all("Put a figure on the tile you placed" in c["name"] for c in choices)
    res = await fake.slash(other, "choose", option=choices[0]["value"])
    assert len(res.channel_sends) == 1, res.text()
    logged = await _deploys_logged(table)
    assert len(logged) == 2 and logged[1].startswith("deploy large ")
    # the first player's only large follower, while on the board, is not offered and refused
    user = whose_turn(res.channel_sends[0])
    cell = (await fake.autocomplete(user, "place", "cell", cell=""))[0]["value"]
    rot = (await fake.autocomplete(user, "place", "rotation", cell=cell, rotation=""))[0]["value"]
    fols = await fake.autocomplete(user, "place", "follower", cell=cell, rotation=rot, follower="")
    outcome = await table.service.current(DEFAULT_CHANNEL, render=False)
    spent = outcome.view.players[outcome.view.current].supply["large"] == 0
    offered_large = [f for f in fols if f["value"].startswith("large ")]
    if spent:
        assert not offered_large, "a large follower is offered only while in the supply"
    spot = fols[0]["value"].rpartition(" ")[2]
    for bad in (f"large {spot}", "dragon city:N") if spent else ("dragon city:N",):
        res = await fake.slash(user, "place", cell=cell, rotation=rot, follower=bad)
        assert f"You cannot put a follower on '{bad}'" in res.last.text()
        assert not res.channel_sends


async def test_follower_picker_names_the_figures(table: Table) -> None:
    fake = table.fake
    turn = await start_match(fake, expansions=("inns_cathedrals",))
    user = whose_turn(turn)
    cell, rot = await _first_place_offering(fake, user, "large")
    res = await fake.slash(user, "place", cell=cell, rotation=rot)
    turn = res.channel_sends[0]
    opened = await fake.click(user, turn.message_id or 0, labelled(turn, "Follower"))
    picker = opened.followups[0]
    outcome, mine = await table.service.decisions_for(DEFAULT_CHANNEL, user.id)
    (deploy,) = mine
    assert isinstance(deploy, Decision) and deploy.kind == "core.deploy"
    msg = fake.message(picker.message_id or 0)
    choices = offered(msg)
    if len(deploy.options) <= 5:
        assert len(choices) == len(deploy.options)
        assert any(lbl.endswith("· large follower") for lbl in choices)
    else:  # a spot first (a select), then its figures
        spots = {o.facet("spot") for o in deploy.options}
        assert len(choices) == len(spots)
    targets = [o.target for o in deploy.options]
    if len(deploy.options) <= 5:
        marks = [spot_letter(i) for i in range(len(targets))]
        figures = [o.facet("figure") for o in deploy.options]
        assert picker.file("choices.png") == render_targets(
            outcome.view, targets, marks, seat=deploy.seat, figures=figures
        )
    answer = Answerer(fake, random.Random(1), pass_rate=0)
    for _ in range(5):
        msg = fake.message(picker.message_id or 0)
        large = [c for c in components(msg) if "large follower" in (c.get("label") or "")]
        if large:
            res = await fake.click(user, picker.message_id or 0, large[0]["custom_id"])
            break
        cid, values = answer.pick(msg)
        res = await fake.click(user, picker.message_id or 0, cid, values=values)
        if res.channel_sends:
            break
    assert len(res.channel_sends) == 1
    logged = await _deploys_logged(table)
    assert len(logged) == 1 and logged[0].startswith("deploy ")


async def test_spanish_labels(table: Table) -> None:
    fake = table.fake
    ana = User(404, "Ana", locale="es-ES")
    luis = User(505, "Luis", locale="es-419")
    new = await fake.slash(ana, "new")
    picked = await choose_expansions(fake, ana, new.callback.message_id or 0, list(BOTH))
    assert "Expansiones: Posadas y Catedrales, Constructores y Comerciantes" in (
        picked.callback.text()
    )
    await fake.slash(luis, "join")
    start = await fake.slash(ana, "start")
    turn = start.channel_sends[0]
    current = int(re.findall(r"<@(\d+)>", turn.content)[-1])
    player = ana if current == ana.id else luis
    cell, rot = await _first_place_offering(fake, player, "large")
    fols = await fake.autocomplete(
        player, "place", "follower", cell=cell, rotation=rot, follower=""
    )
    assert any(f["name"].startswith("ciudad") or "seguidor grande" in f["name"] for f in fols)
    assert all("seguidor grande" in f["name"] for f in fols if f["value"].startswith("large "))
    assert fols[-1]["name"] == "Sin seguidor"
    score = (await fake.slash(player, "score")).last.text()
    assert "Figuras en reserva" in score and "seguidor grande 1" in score
    assert "constructor 1" in score and "cerdo 1" in score
    assert "Constructores y Comerciantes" in score
    seats = (await table.service.current(DEFAULT_CHANNEL, render=False)).seats
    # an expansion's events are worded by the engine's catalogue; seats become names
    lines = ui.event_lines([BuilderBonus(Seat(0)), GoodsTaken(Seat(1), (1, 0, 2))], seats, Lang.ES)
    assert lines == [
        f"El constructor de {seats[0].name} le da una segunda pieza este turno.",
        f"{seats[1].name} recibe fichas de mercancía: 1 de vino, 0 de grano, 2 de tela.",
    ]
