"""The services' argument guard, compiled once per method (issue 15), refuses exactly what the
reference check refuses.

``compile_fits(hint)`` must answer as ``_fits(value, hint)`` for every value, and a method's
:class:`CompiledCheck` must refuse a call exactly when :func:`check` (``Signature.bind`` and
the hints walked on every call) does, with the same words: property tests over hints of every
kind the guard reads and over calls of every shape (positional, keywords, missing, unknown or
doubled arguments, ``*args``/``**kwargs``, positional-only parameters).
"""

from __future__ import annotations

import asyncio
import collections.abc
import inspect
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Literal, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.base import ERR_BAD_INPUT, ServiceError
from app.guard import (
    MAX_INT,
    MAX_TEXT,
    MIN_INT,
    BadInput,
    CompiledCheck,
    Guarded,
    _fits,
    _hints,
    check,
    compile_fits,
)

T = TypeVar("T")


class Thing:
    pass


class SubThing(Thing):
    pass


HINTS: list[Any] = [
    int,
    float,
    str,
    bool,
    None,
    type(None),
    Any,
    T,
    Thing,
    int | None,
    str | None,
    int | str,
    int | str | None,
    int | Any,
    typing.Optional[float],  # noqa: UP045 - the typing spelling is a different object
    typing.Union[int, str, bool],  # noqa: UP007
    Literal["a", "b", 3],
    Annotated[int, "id"],
    list[int],
    list[Any],
    list,
    tuple[int, str],
    tuple[int, ...],
    tuple,
    Sequence[int],
    Sequence[Thing],
    Thing | Sequence[Thing],
    set[int],
    frozenset[str],
    collections.abc.Iterable[int],
    collections.abc.Collection[int],
    dict[str, int],
    Mapping[int, list[int]],
    dict,
    Callable[[int], int],
    collections.abc.Callable,
    list[list[list[list[list[list[int]]]]]],  # deeper than the guard reads
    dict[str, list[tuple[int, Sequence[int | None]]]],
    type[int],
    "NotAName",
    bytes,
]

VALUES = st.recursive(
    st.one_of(
        st.integers(min_value=-(1 << 70), max_value=1 << 70),
        st.sampled_from([MIN_INT, MAX_INT, MIN_INT - 1, MAX_INT + 1, 0]),
        st.floats(allow_nan=True, allow_infinity=True),
        st.booleans(),
        st.none(),
        st.text(max_size=4),
        st.text(min_size=MAX_TEXT, max_size=MAX_TEXT + 1),
        st.binary(max_size=4),
        st.sampled_from(["a", "b", 3, Thing(), SubThing(), len, object()]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.sets(st.integers(max_value=9) | st.text(max_size=2), max_size=3),
        st.frozensets(st.integers(max_value=9), max_size=3),
        st.dictionaries(st.text(max_size=2) | st.integers(max_value=9), inner, max_size=3),
    ),
    max_leaves=12,
)


@settings(max_examples=600, deadline=None)
@given(hint=st.sampled_from(HINTS), value=VALUES)
def test_compiled_fits_answers_as_the_reference(hint: Any, value: Any) -> None:
    fits = compile_fits(hint)
    assert (True if fits is None else fits(value)) is _fits(value, hint)


def test_compiled_fits_refuses_what_the_reference_refuses() -> None:
    """Named examples, so a broken compiler fails loudly without hypothesis' luck."""
    cases = [
        (int, MAX_INT + 1, False),
        (int, True, False),
        (int, 5, True),
        (float, float("nan"), False),
        (float, 2, True),
        (str, "x" * (MAX_TEXT + 1), False),
        (int | None, None, True),
        (int | None, "1", False),
        (Sequence[int], "12", False),
        (Sequence[int], [1, 2], True),
        (Sequence[int], [1, None], False),
        (tuple[int, str], (1, "a"), True),
        (tuple[int, str], (1, 2), False),
        (tuple[int, str], (1,), False),
        (dict[str, int], {"a": 1}, True),
        (dict[str, int], {"a": "1"}, False),
        (Literal["a"], "b", False),
        (Callable[[int], int], len, True),
        (Callable[[int], int], 3, False),
        (Thing, SubThing(), True),
        (Thing, object(), False),
    ]
    for hint, value, want in cases:
        fits = compile_fits(hint)
        assert fits is not None and fits(value) is want, (hint, value)
    for always in (Any, T, "NotAName", int | Any):
        got = compile_fits(always)
        assert got is None or all(got(v) for v in (1, None, "x")), always
    deep = compile_fits(list[list[list[list[list[list[int]]]]]])  # beyond depth 4: not read
    assert deep is not None and deep([[[[[["not an int"]]]]]]) and not deep([["x"]])


# ---------------------------------------------------------------------------- call shapes
async def plain(
    self: Any, a: int, b: str, c: int | None = None, *, d: bool, e: float = 1.0
) -> None:
    pass


async def varargs(self: Any, a: int, *rest: int, k: str = "", **more: bool) -> None:
    pass


async def posonly(self: Any, a: int, /, b: Sequence[int], c: Thing | None = None) -> None:
    pass


async def loose(self: Any, a: int, b: Any, c: Undefined, d: dict[str, int] = {}) -> None:  # type: ignore[name-defined]  # noqa: B006, F821
    pass


FUNCTIONS = [plain, varargs, posonly, loose]
NAMES = ["self", "a", "b", "c", "d", "e", "k", "rest", "zz"]
ARG = st.sampled_from(
    [
        0,
        5,
        MAX_INT + 1,
        "s",
        "x" * (MAX_TEXT + 1),
        None,
        True,
        1.5,
        [1, 2],
        [1, "2"],
        {"a": 1},
        {"a": "b"},
        Thing(),
        b"b",
    ]
)


def _outcome(fn: Callable[[], None]) -> str | None:
    try:
        fn()
    except BadInput as e:
        return str(e)
    return None


@settings(max_examples=800, deadline=None)
@given(
    fn=st.sampled_from(FUNCTIONS),
    args=st.lists(ARG, max_size=7),
    kwargs=st.dictionaries(st.sampled_from(NAMES), ARG, max_size=5),
)
def test_a_compiled_check_refuses_exactly_what_check_refuses(
    fn: Callable[..., Any], args: list[Any], kwargs: dict[str, Any]
) -> None:
    sig = inspect.signature(fn)
    hints = _hints(fn)
    compiled = CompiledCheck(sig, hints)
    call = (object(), *args)
    want = _outcome(lambda: check(sig, hints, *call, **kwargs))
    got = _outcome(lambda: compiled(call, kwargs))
    assert got == want


def test_named_call_shapes() -> None:
    sig = inspect.signature(plain)
    c = CompiledCheck(sig, _hints(plain))
    me = object()
    c((me, 1, "b"), {"d": True})  # positional and keyword
    c((me, 1, "b", None), {"d": False, "e": 2})
    c((me,), {"a": 1, "b": "x", "d": True})
    for args, kwargs, words in [
        ((me, MAX_INT + 1, "b"), {"d": True}, "a is not a valid int"),
        ((me, 1, "b", "c"), {"d": True}, "c is not a valid int | None"),
        ((me, 1, "b"), {"d": 1}, "d is not a valid bool"),
        ((me, 1, "b"), {"e": "x", "d": 0}, "d is not a valid bool"),  # the signature's order
        ((me, 1, "b"), {}, "missing a required argument: 'd'"),
        ((me, 1), {"d": True}, "missing a required argument: 'b'"),
        ((me, 1, "b"), {"d": True, "a": 2}, "multiple values for argument 'a'"),
        ((me, 1, "b"), {"d": True, "zz": 2}, "got an unexpected keyword argument 'zz'"),
        ((me, 1, "b", None, True), {"d": True}, "too many positional arguments"),
    ]:
        with pytest.raises(BadInput) as e:
            c(args, kwargs)
        assert str(e.value) == words, (args, kwargs)


def test_the_hints_are_read_once_on_the_first_call_not_at_decoration() -> None:
    """A hint may name a class defined after the service's class (resolved on first use)."""

    class Late(Guarded):
        async def put(self, item: LaterThing, count: int = 1) -> int:  # noqa: F821
            return count

    globals()["LaterThing"] = SubThing  # defined only after the class was guarded
    try:
        runner = asyncio.Runner()
        svc = Late()
        assert runner.run(svc.put(SubThing(), 2)) == 2
        assert runner.run(svc.put(SubThing(), count=3)) == 3
        for bad in (lambda: svc.put(Thing()), lambda: svc.put(SubThing(), MAX_INT + 1)):
            with pytest.raises(ServiceError) as e:
                runner.run(bad())
            assert e.value.key == ERR_BAD_INPUT
        runner.close()
    finally:
        del globals()["LaterThing"]
