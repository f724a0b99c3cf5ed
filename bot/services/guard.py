"""The services' boundary: every public call's arguments are checked against its type hints.

A front end (the cogs, the local table, a future web page) hands the services ids, names and
actions; a wrong type or an id SQLite cannot store (≥ 2⁶³) used to surface deep inside as a
raw ``TypeError``, ``AttributeError`` or ``OverflowError``. :func:`guarded` wraps a service
method so that such a call is answered with the services' own :class:`ServiceError`
(``bad_input``) before anything is read or written. :class:`Guarded` applies it to every public
coroutine method of a class and of its subclasses, so a new method is guarded without anyone
remembering to.

Checked: ``int`` (not ``bool``; within SQLite's signed 64 bits), ``float`` (finite; an ``int``
too), ``str`` (at most :data:`MAX_TEXT` characters), ``bool``, classes (``isinstance``),
unions and ``X | None``, ``list``/``Sequence``/``tuple`` of a checked type, ``dict`` (keys and
values), ``Callable`` (callable); ``Any`` and type variables pass.
"""

from __future__ import annotations

import collections.abc
import functools
import inspect
import math
import types
import typing
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

#: SQLite's INTEGER range (Discord ids are below 2⁶³ too)
MIN_INT, MAX_INT = -(1 << 63), (1 << 63) - 1
#: the longest text a service takes (a name, a key, a rule value)
MAX_TEXT = 1000
#: ServiceError key of a call whose arguments do not fit the service's types
ERR_BAD_INPUT = "bad_input"

F = TypeVar("F", bound=Callable[..., Coroutine[Any, Any, Any]])


class BadInput(Exception):
    """Why an argument does not fit (internal: :func:`guarded` turns it into a ServiceError)."""


def _fits(value: Any, hint: Any, depth: int = 0) -> bool:
    """Whether ``value`` fits the type hint ``hint`` (see the module docstring)."""
    if hint is Any or isinstance(hint, TypeVar) or depth > 4:
        return True
    if hint is None or hint is type(None):
        return value is None
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        return any(_fits(value, a, depth + 1) for a in args)
    if origin is typing.Literal:
        return value in args
    if origin is typing.Annotated:
        return _fits(value, args[0], depth + 1)
    if hint is int:
        return type(value) is int and MIN_INT <= value <= MAX_INT
    if hint is float:
        return type(value) in (int, float) and MIN_INT <= value <= MAX_INT and math.isfinite(value)
    if hint is str:
        return isinstance(value, str) and len(value) <= MAX_TEXT
    if hint is bool:
        return isinstance(value, bool)
    if origin in (list, tuple, collections.abc.Sequence):
        want = {list: list, tuple: tuple}.get(origin, collections.abc.Sequence)
        if not isinstance(value, want) or isinstance(value, str | bytes) or len(value) > MAX_TEXT:
            return False
        if origin is tuple and args and args[-1] is not Ellipsis:
            return len(value) == len(args) and all(
                _fits(v, a, depth + 1) for v, a in zip(value, args, strict=True)
            )
        inner = args[0] if args else Any
        return all(_fits(v, inner, depth + 1) for v in value)
    if origin in (set, frozenset, collections.abc.Iterable, collections.abc.Collection):
        return isinstance(value, origin) and not isinstance(value, str | bytes)
    if origin in (dict, collections.abc.Mapping):
        if not isinstance(value, collections.abc.Mapping):
            return False
        k, v = args if len(args) == 2 else (Any, Any)
        return all(_fits(a, k, depth + 1) and _fits(b, v, depth + 1) for a, b in value.items())
    if origin is collections.abc.Callable or hint is collections.abc.Callable:
        return callable(value)
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True  # a hint this guard does not read: the method checks it itself


def check(sig: inspect.Signature, hints: dict[str, Any], *args: Any, **kwargs: Any) -> None:
    """Raise :class:`BadInput` when the call ``(*args, **kwargs)`` does not fit the signature
    ``sig`` and its type ``hints``."""
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError as e:
        raise BadInput(str(e)) from None
    for name, value in bound.arguments.items():
        if name == "self" or name not in hints:
            continue
        param = sig.parameters[name]
        if param.kind is param.VAR_POSITIONAL:
            bad = [v for v in value if not _fits(v, hints[name])]
        elif param.kind is param.VAR_KEYWORD:
            bad = [v for v in value.values() if not _fits(v, hints[name])]
        else:
            bad = [] if _fits(value, hints[name]) else [value]
        if bad:
            raise BadInput(f"{name} is not a valid {_hint_name(hints[name])}")


def _hint_name(hint: Any) -> str:
    return getattr(hint, "__name__", None) or str(hint).replace("typing.", "")


def _hints(fn: Callable[..., Any]) -> dict[str, Any]:
    """The parameters' type hints (one that cannot be resolved is left to the method)."""
    try:
        hints = typing.get_type_hints(fn)
    except NameError:
        hints = {}
        for name, ann in getattr(fn, "__annotations__", {}).items():
            try:
                hints[name] = typing.get_type_hints(
                    types.SimpleNamespace(__annotations__={name: ann}), fn.__globals__
                )[name]
            except NameError:
                continue
    hints.pop("return", None)
    return hints


def guarded(fn: F) -> F:
    """``fn`` (a service's public coroutine method) with its arguments checked first: a call
    that does not fit its type hints raises ServiceError ``bad_input`` (English text)."""
    if getattr(fn, "__guarded__", False):
        return fn
    sig = inspect.signature(fn)
    hints: dict[str, Any] | None = None

    @functools.wraps(fn)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        nonlocal hints
        if hints is None:
            hints = _hints(fn)
        try:
            check(sig, hints, *args, **kwargs)
        except BadInput as e:
            from bot.services.base import ServiceError

            raise ServiceError(ERR_BAD_INPUT, f"Bad request: {e}.") from None
        return await fn(*args, **kwargs)

    wrapper.__guarded__ = True  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


def guard_class(cls: type) -> None:
    """Guard every public coroutine method ``cls`` itself defines."""
    for name, member in list(vars(cls).items()):
        if name.startswith("_") or not inspect.iscoroutinefunction(member):
            continue
        setattr(cls, name, guarded(member))


class Guarded:
    """A base class whose subclasses' public coroutine methods are all :func:`guarded`."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        guard_class(cls)
