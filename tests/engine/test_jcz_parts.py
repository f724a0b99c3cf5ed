"""The JCloisterZone importers know no expansion (issue 20): each brings its part
(``Expansion.jcz``, engine/carcassonne/jczparts.py), and a name nobody plays is refused naming the
box of the tile file that claims it. Saves: tests/fixtures/jcz, tests/fixtures/jcz5.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.carcassonne.expansion import Expansion, Option
from engine.carcassonne.jcz import import_jcz
from engine.carcassonne.jcz5 import import_jcz5
from engine.carcassonne.jczparts import JczImport, JczSwitch, on
from engine.carcassonne.record import replay
from engine.carcassonne.registry import all_expansions, register, unregister
from engine.core.errors import RecordError
from tests.engine.jcz5saves import load_save

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "jcz"


def _load4(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


@pytest.fixture
def registry_restored() -> Iterator[None]:
    """Tests change the registry; it is put back as it was, in its order."""
    saved = all_expansions()
    yield
    for cls in all_expansions():
        unregister(cls.id)
    for cls in saved:
        register(cls)


# ---------------------------------------------------------------------------- plug-in parts
class _Lanterns(Expansion):
    """A test expansion: its JCloisterZone part is all the importers learn of it."""

    id = "lanterns"
    name = "Lanterns"
    options = (Option("ln.lit", True, (True, False), "lanterns are lit"),)
    jcz = JczImport(
        capabilities={"Lantern": JczSwitch(on("ln.lit"))},
        expansions={"LANTERNS": JczSwitch()},
        elements={"lantern": JczSwitch(on("ln.lit"))},
    )


def test_a_registered_part_is_read_by_both_importers(registry_restored: None) -> None:
    register(_Lanterns)
    four = _load4("basic/scoring.jcz")
    four["setup"]["capabilities"].append("Lantern")
    setup = import_jcz(four).record.setup
    assert setup.expansions == ("lanterns",) and dict(setup.options) == {"ln.lit": True}
    four["setup"]["capabilities"].remove("Lantern")
    four["setup"]["expansions"]["LANTERNS"] = 1  # the box, but not the capability: off
    assert dict(import_jcz(four).record.setup.options) == {"ln.lit": False}
    five = load_save("basic/field-scoring.jcz")
    five["setup"]["elements"]["lantern"] = True
    setup = import_jcz5(five).record.setup
    assert setup.expansions == ("lanterns",) and dict(setup.options) == {"ln.lit": True}
    assert replay(import_jcz5(five).record).scores == (9, 0)
    unregister("lanterns")
    with pytest.raises(RecordError, match="^unknown JCloisterZone element 'lantern'$"):
        import_jcz5(five)


def test_an_expansion_removed_is_refused_by_its_tile_files_box(registry_restored: None) -> None:
    unregister("abbey_mayor")
    with pytest.raises(RecordError) as err:
        import_jcz(_load4("random/am-3p-02.jcz"))
    assert str(err.value) == "JCloisterZone capability 'Abbey' (Abbey & Mayor) is not built yet"
    with pytest.raises(RecordError) as err:
        import_jcz5(load_save("abbey-and-mayor/barn-scoring.jcz"))
    assert str(err.value) == (
        "JCloisterZone tile set 'abbey-and-mayor:1' (Abbey & Mayor) is not built yet"
    )


@pytest.mark.parametrize(
    ("where", "name", "message"),
    [
        ("capabilities", "Flier", "JCloisterZone capability 'Flier' (Flying Machines)"),
        ("expansions", "FLIER", "JCloisterZone expansion 'FLIER' (Flying Machines)"),
        ("expansions", "CORN_CIRCLES_II", "expansion 'CORN_CIRCLES_II' (Crop Circles II (2012))"),
        ("capabilities", "Ferries", "JCloisterZone capability 'Ferries' (Ferries)"),
    ],
)
def test_4x_names_of_expansions_to_come_are_refused_naming_the_box(
    where: str, name: str, message: str
) -> None:
    data = _load4("basic/scoring.jcz")
    if where == "capabilities":
        data["setup"]["capabilities"].append(name)
    else:
        data["setup"]["expansions"][name] = 1
    with pytest.raises(RecordError) as err:
        import_jcz(data)
    assert str(err.value).endswith(f"{message} is not built yet")


def test_5x_elements_of_expansions_to_come_are_refused_naming_the_box() -> None:
    data = load_save("basic/field-scoring.jcz")
    data["setup"]["elements"]["ferry"] = True
    with pytest.raises(RecordError) as err:
        import_jcz5(data)
    assert str(err.value) == "JCloisterZone element 'ferry' (Ferries) is not built yet"
