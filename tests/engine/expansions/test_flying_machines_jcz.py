"""Flying Machines in JCloisterZone saves: 4.x rolls the flier's die with ``java.util.Random``
seeded by the save's ``initialSeed`` (shared/jcz/README.md §5.1), 5.x records each roll
(shared/jcz5/README.md §3.10); both replay exactly.

Java's numbers below were printed by Java itself (OpenJDK, ``new java.util.Random(seed)``):
``nextInt(3)`` twelve times from 703001 gives 0, 2, 1, 1, 2, 1, 1, 2, 2, 0, 1, 1.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine.carcassonne.expansions.flying_machines import DIE, FIGURES, FlierFlew, FlierLanded
from engine.carcassonne.expansions.flying_machines.jcz import (
    JavaRandom,
    java_rem,
    rolls_4x,
    rolls_5x,
    salted,
)
from engine.carcassonne.geometry import Position
from engine.carcassonne.jcz import import_jcz
from engine.carcassonne.jcz5 import import_jcz5
from engine.carcassonne.record import dumps, loads, replay
from engine.carcassonne.rules import pending
from engine.core.errors import RecordError
from tests.engine.jcz5saves import load_save

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SAMPLE = "jcz/random/flier-3p-02.jcz"
#: JCloisterZone 4.x's final scores of the sample (shared/jcz/random/expected.json)
SAMPLE_SCORES = (8, 25, 9)
#: the replay messages (1-based) of the sample's three DEPLOY_FLIER
FLIGHTS = (53, 59, 104)


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


# ------------------------------------------------------------------------- Java's generator
def test_java_random_gives_what_java_gives() -> None:
    r = JavaRandom(703001)
    assert [r.next_int(3) for _ in range(12)] == [0, 2, 1, 1, 2, 1, 1, 2, 2, 0, 1, 1]
    q = JavaRandom(-8497610715639962093)  # a 4.x COMMIT salt used as a seed
    bounds = (79, 78, 3, 77, 3, 64, 5, 3)
    assert [q.next_int(b) for b in bounds] == [67, 45, 0, 40, 2, 60, 2, 2]
    z = JavaRandom(1)
    assert (z.next_int(), z.next_int(1 << 30), z.next_int(3)) == (-1155869325, 107882294, 1)
    assert (JavaRandom(0).next_int(), JavaRandom(42).next_int()) == (-1155484576, -1170105035)


def test_a_salt_shifts_the_roll_with_javas_remainder() -> None:
    """``(nextInt(3) + (int)(salt % 3)) % 3`` with Java's signed remainder: a salt of 4 adds 1;
    −8497610715639962093 % 3 is −2 in Java, so a raw 0 becomes −2 (a flight of −1)."""
    assert [salted(v, 4, 3) for v in (0, 1, 2)] == [1, 2, 0]
    salt = -8497610715639962093
    assert java_rem(salt, 3) == -2 and salted(0, salt, 3) == -2 and salted(2, salt, 3) == 0


# ------------------------------------------------------------------------- the 4.x sample
def test_the_4x_sample_rolls_from_its_seed_and_reaches_jcloisterzones_scores() -> None:
    """Three flights, rolled 0, 2, 1 + 1 = 1, 3, 2 from ``Random(703001)`` (salts 0, every tile
    forced, so nothing else draws from it); none can land, as the save shows (a COMMIT follows
    each DEPLOY_FLIER): 1 NW of (-2,3) is (-3,2), empty; 3 S of (-2,0) (FL.RFr.NS.o at R270:
    printed W, turned S) is (-2,3), fields only; 2 SW of (4,-1) is (2,1), empty."""
    data = load(SAMPLE)
    assert rolls_4x(data) == (1, 3, 2)
    game = import_jcz(data)
    assert game.record.setup.forced == ((DIE, (1, 3, 2)),)
    result = replay(game.record)
    assert result.scores == SAMPLE_SCORES and result.over
    flew = [e for e in result.events if isinstance(e, FlierFlew)]
    assert [(e.seat, e.origin, e.heading, e.distance, e.target, e.reason) for e in flew] == [
        (2, Position(-2, 3), "NW", 1, Position(-3, 2), "no_tile"),
        (1, Position(-2, 0), "S", 3, Position(-2, 3), "nowhere"),
        (1, Position(4, -1), "SW", 2, Position(2, 1), "no_tile"),
    ]
    assert replay(loads(dumps(game.record))).scores == SAMPLE_SCORES


def test_another_roll_would_not_fit_the_save() -> None:
    """The second flight with a 2 would reach (-2,2), whose city is open: JCloisterZone would
    have asked where it lands, and the save has no answer. A salt of 2 on that DEPLOY_FLIER
    turns its raw 2 into (2 + 2) % 3 = 1, a flight of 2: the save no longer converts."""
    data = load(SAMPLE)
    data["replay"][FLIGHTS[1] - 1]["payload"]["salt"] = 2
    assert rolls_4x(data) == (1, 2, 2)
    with pytest.raises(RecordError) as err:
        import_jcz(data)
    assert "\n" not in str(err.value)
    data["replay"][FLIGHTS[1] - 1]["payload"]["salt"] = 1  # (2 + 1) % 3 = 0: a 1, no tile
    assert rolls_4x(data) == (1, 1, 2)
    assert replay(import_jcz(data).record).scores == SAMPLE_SCORES


def test_a_missing_salt_reads_as_zero_and_a_commits_salt_does_not_reach_the_flight() -> None:
    """Each salted message sets the salt before it is applied (a missing one reads as 0 in
    Java): a COMMIT's salt before a DEPLOY_FLIER is replaced by the flight's own."""
    data = load(SAMPLE)
    del data["replay"][FLIGHTS[0] - 1]["payload"]["salt"]
    data["replay"][FLIGHTS[0] - 2 - 1]["payload"]["salt"] = 1  # the COMMIT before its tile
    assert rolls_4x(data) == (1, 3, 2)


def test_a_negative_salt_jcloisterzone_flew_backwards_is_refused_in_one_line() -> None:
    data = load(SAMPLE)
    data["replay"][FLIGHTS[0] - 1]["payload"]["salt"] = -8497610715639962093
    with pytest.raises(RecordError) as err:
        import_jcz(data)
    message = str(err.value)
    assert message.startswith(f"move {FLIGHTS[0]}: DEPLOY_FLIER: JCloisterZone rolled a flight")
    assert "\n" not in message


def test_tiles_drawn_past_the_forced_order_use_the_generator_first() -> None:
    """Past the forced ``drawOrder`` JCloisterZone draws each tile with ``nextInt(tiles left)``
    from the same generator (79 tiles: 71 of the base game without its start tile, 8 fliers).
    With the first 10 tiles forced, placements 11 to 18 draw with 69 … 62 tiles left before the
    first flight's ``nextInt(3)`` (placement 18 is the first flier tile); placements 19 and 20
    draw with 61 and 60 left before the second flight's (placement 20). (Each of these calls
    takes one step of the generator: Java rejects a value only within the bound of 2³¹.)"""
    data = load(SAMPLE)
    order = data["annotations"]["tilePack"]["params"]["drawOrder"]
    data["annotations"]["tilePack"]["params"]["drawOrder"] = order[:10]
    r = JavaRandom(703001)
    for bound in range(69, 61, -1):
        r.next_int(bound)
    first = r.next_int(3) + 1
    r.next_int(61)
    r.next_int(60)
    second = r.next_int(3) + 1
    assert (first, second) != (1, 3)  # not the rolls of the fully forced save
    assert rolls_4x(data)[:2] == (first, second)


# ------------------------------------------------------------------------- 5.x
def test_the_5x_fixture_rolls_what_it_recorded_and_the_landing_cannot_be_passed() -> None:
    """placement-is-mandatory: the machine of FL/RFr.WE.o at (3,0) heads west; ``random`` 0.0
    gives (int)(0.0 × 3) + 1 = 1: (2,0), whose road is free. The save ends on JCloisterZone's
    "Player can't pass": ours awaits the landing, not optional, on that road only."""
    data = load_save("flying-machines/placement-is-mandatory.jcz")
    assert rolls_5x(data) == (1,)
    state = replay(import_jcz5(data).record).state
    (d,) = pending(state)
    assert (d.kind, d.optional, [o.id for o in d.options]) == ("flier.land", False, ["road:EW"])
    assert d.options[0].target is not None


@pytest.mark.parametrize(("random", "distance"), [(0.0, 1), (0.33, 1), (0.34, 2), (0.99, 3)])
def test_5x_rolls_are_the_recorded_random_times_three(random: float, distance: int) -> None:
    data = load_save("flying-machines/placement-is-mandatory.jcz")
    data["replay"][-1]["payload"]["random"] = random
    assert rolls_5x(data) == (distance,)


def test_a_5x_landing_and_commit_complete_the_turn() -> None:
    """The landing is a second DEPLOY_MEEPLE on the landing tile, then the COMMIT."""
    data = load_save("flying-machines/placement-is-mandatory.jcz")
    land = {
        "type": "DEPLOY_MEEPLE",
        "payload": {
            "pointer": {"position": [2, 0], "feature": "Road", "location": "WE"},
            "meepleId": "0.small.1",
        },
    }
    data["replay"] += [land, {"type": "COMMIT", "payload": {"random": 0.0}}]
    result = replay(import_jcz5(data).record)
    (landed,) = [e for e in result.events if isinstance(e, FlierLanded)]
    assert (landed.pos, landed.spot) == (Position(2, 0), "road:EW")
    assert result.state.step == "place" and result.state.current == 1
    wrong = copy.deepcopy(data)
    wrong["replay"][-2]["payload"]["pointer"]["position"] = [1, 0]
    with pytest.raises(RecordError) as err:
        import_jcz5(wrong)
    assert "the flying follower lands on 2,0" in str(err.value)


def test_a_5x_flight_that_finds_nowhere_to_land_is_followed_by_its_commit() -> None:
    """The machine turned 180° heads east: 1 east of (3,0) is (4,0), empty; the COMMIT that
    follows ends the turn."""
    data = load_save("flying-machines/placement-is-mandatory.jcz")
    data["replay"][-2]["payload"]["rotation"] = "R180"
    data["replay"].append({"type": "COMMIT", "payload": {"random": 0.0}})
    result = replay(import_jcz5(data).record)
    (flew,) = [e for e in result.events if isinstance(e, FlierFlew)]
    assert (flew.heading, flew.target, flew.reason) == ("E", Position(4, 0), "no_tile")
    assert result.state.step == "place" and result.state.current == 1
    data["replay"].append(data["replay"][-1])  # a second COMMIT answers nothing
    with pytest.raises(RecordError):
        import_jcz5(data)


def test_a_5x_save_missing_the_rolls_random_is_refused() -> None:
    data = load_save("flying-machines/placement-is-mandatory.jcz")
    del data["replay"][-1]["payload"]["random"]
    with pytest.raises(RecordError) as err:
        import_jcz5(data)
    assert str(err.value) == (
        'move 8: DEPLOY_MEEPLE on the flying machine needs the roll\'s "random" (0 to 1)'
    )


def test_a_mayor_that_flies_converts_the_save_with_every_follower_figure_flying() -> None:
    """JCloisterZone lets a mayor fly (OQ-FM-1 does not): the save is converted again with
    ``flier.figures`` = ``all``; the mayor reaches (2,0), a road, where it may not stand: it
    goes home."""
    data = load_save("flying-machines/placement-is-mandatory.jcz")
    data["setup"]["sets"]["abbey-and-mayor:1"] = 1
    data["setup"]["elements"]["mayor"] = 1
    data["replay"][-1]["payload"]["meepleId"] = "0.mayor.1"
    record = import_jcz5(data).record
    assert dict(record.setup.options)[FIGURES] == "all"
    result = replay(record)
    (flew,) = [e for e in result.events if isinstance(e, FlierFlew)]
    assert (flew.figure, flew.reason) == ("mayor", "nowhere")
