"""Engine errors are one printable line whatever text they quote."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.core.errors import MAX_MESSAGE, IllegalActionError, RecordError, one_line


def test_control_characters_are_escaped_not_printed() -> None:
    e = RecordError("unknown tile '\n\x1b[2J\u202e'", move=4)
    assert str(e) == "move 4: unknown tile '\\n\\x1b[2J\\u202e'"


def test_long_quoted_text_is_cut() -> None:
    e = IllegalActionError("no spot " + "x" * 10_000)
    assert len(str(e)) == MAX_MESSAGE and str(e).endswith("…")


@given(st.text())
def test_any_text_becomes_one_printable_line(text: str) -> None:
    line = one_line(text)
    assert "\n" not in line and "\r" not in line and "\x1b" not in line
    assert len(line) <= MAX_MESSAGE


def test_keyed_error_speaks_the_players_language() -> None:
    from engine.core.messages import register

    register({"test.err.occupied": ("The {feature} is taken.", "La {feature} está ocupada.")})
    e = IllegalActionError.keyed("test.err.occupied", feature="city")
    assert str(e) == "The city is taken." and e.key == "test.err.occupied"
    assert e.text("es") == "La city está ocupada." and e.text("en") == str(e)
    assert IllegalActionError("plain").text("es") == "plain"
