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
    ``sig`` and its type ``hints``: the reference the compiled check (:class:`CompiledCheck`,
    what :func:`guarded` runs) is tested against."""
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


#: a compiled check of one value: whether it fits (``None`` in its place: anything fits)
Fits = Callable[[Any], bool]


def _is_none(v: Any) -> bool:
    return v is None


def _is_int(v: Any) -> bool:
    return type(v) is int and MIN_INT <= v <= MAX_INT


def _is_float(v: Any) -> bool:
    return type(v) in (int, float) and MIN_INT <= v <= MAX_INT and math.isfinite(v)


def _is_str(v: Any) -> bool:
    return isinstance(v, str) and len(v) <= MAX_TEXT


def _is_bool(v: Any) -> bool:
    return isinstance(v, bool)


def _anything(v: Any) -> bool:
    return True


def compile_fits(hint: Any, depth: int = 0) -> Fits | None:
    """:func:`_fits` for one ``hint``, decided once: a function of the value alone that
    answers as ``_fits(value, hint, depth)`` does, or ``None`` when every value fits. Every
    branch of ``_fits`` depends only on the hint and the depth, so they are taken here, in
    the same order, and only the value's own tests are left for the call."""
    if hint is Any or isinstance(hint, TypeVar) or depth > 4:
        return None
    if hint is None or hint is type(None):
        return _is_none
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        parts = [compile_fits(a, depth + 1) for a in args]
        if any(p is None for p in parts):
            return None
        fits = tuple(p for p in parts if p is not None)
        if len(fits) == 2:
            a, b = fits
            if b is _is_none:  # X | None, the usual optional argument
                return lambda v: v is None or a(v)
            return lambda v: a(v) or b(v)
        return lambda v: any(f(v) for f in fits)
    if origin is typing.Literal:
        return lambda v: v in args
    if origin is typing.Annotated:
        return compile_fits(args[0], depth + 1)
    if hint is int:
        return _is_int
    if hint is float:
        return _is_float
    if hint is str:
        return _is_str
    if hint is bool:
        return _is_bool
    if origin in (list, tuple, collections.abc.Sequence):
        want = {list: list, tuple: tuple}.get(origin, collections.abc.Sequence)

        exact = {list: (list,), tuple: (tuple,)}.get(origin, (list, tuple))

        def shaped(v: Any) -> bool:
            if type(v) in exact:  # the usual case, without an abstract class's isinstance
                return len(v) <= MAX_TEXT
            return isinstance(v, want) and not isinstance(v, str | bytes) and len(v) <= MAX_TEXT

        if origin is tuple and args and args[-1] is not Ellipsis:
            items = tuple(compile_fits(a, depth + 1) or _anything for a in args)
            n = len(items)
            return lambda v: (
                shaped(v) and len(v) == n and all(f(x) for f, x in zip(items, v, strict=True))
            )
        inner = compile_fits(args[0] if args else Any, depth + 1)
        if inner is None:
            return shaped
        each = inner
        return lambda v: shaped(v) and all(each(x) for x in v)
    if origin in (set, frozenset, collections.abc.Iterable, collections.abc.Collection):
        kind = origin
        return lambda v: isinstance(v, kind) and not isinstance(v, str | bytes)
    if origin in (dict, collections.abc.Mapping):
        k, v = args if len(args) == 2 else (Any, Any)
        key = compile_fits(k, depth + 1) or _anything
        val = compile_fits(v, depth + 1) or _anything
        return lambda m: (
            isinstance(m, collections.abc.Mapping) and all(key(a) and val(b) for a, b in m.items())
        )
    if origin is collections.abc.Callable or hint is collections.abc.Callable:
        return callable
    if isinstance(hint, type):
        cls = hint
        return lambda v: isinstance(v, cls)
    return None  # a hint this guard does not read: the method checks it itself


_MISSING = object()


class CompiledCheck:
    """One method's argument check, built once from its signature and type hints: the
    refusals of :func:`check` (the same arguments refused, with the same words), without
    binding the signature or reading the hints on each call.

    A call that plainly fits the signature's shape — no more positional arguments than
    there are positional parameters, keywords that name parameters not already given, every
    required one present — is checked parameter by parameter in the signature's order (the
    order :func:`check` reports the first misfit in). Anything else (a missing or unknown
    argument, ``*args``/``**kwargs`` or positional-only parameters) goes through
    :meth:`inspect.Signature.bind`, as before, for its exact complaint."""

    __slots__ = ("sig", "hints", "fits", "fast", "positional", "names", "required", "least")

    def __init__(self, sig: inspect.Signature, hints: dict[str, Any]) -> None:
        self.sig = sig
        self.hints = hints
        params = list(sig.parameters.values())
        self.fits: dict[str, Fits | None] = {
            p.name: None if p.name == "self" or p.name not in hints else compile_fits(hints[p.name])
            for p in params
        }
        P = inspect.Parameter
        self.fast = all(p.kind in (P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY) for p in params)
        #: positional parameters in order: (name, check or None)
        self.positional = tuple(
            (p.name, self.fits[p.name]) for p in params if p.kind is P.POSITIONAL_OR_KEYWORD
        )
        #: every parameter's name -> its position (keyword-only ones: past every position)
        big = len(params) + 1
        self.names = {
            p.name: (i if p.kind is P.POSITIONAL_OR_KEYWORD else big) for i, p in enumerate(params)
        }
        self.required = tuple((p.name, self.names[p.name]) for p in params if p.default is P.empty)
        #: the fewest positional arguments that leave no required parameter out
        self.least = max((i + 1 for _, i in self.required), default=0)

    def __call__(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Raise :class:`BadInput` when ``(*args, **kwargs)`` does not fit."""
        n = len(args)
        if self.fast and n <= len(self.positional):
            if not kwargs:
                if n >= self.least:
                    for (name, fits), value in zip(self.positional, args, strict=False):
                        if fits is not None and not fits(value):
                            self._refuse(name)
                    return
            elif self._shaped(n, kwargs):
                for i, (name, fits) in enumerate(self.fits.items()):
                    if fits is None:
                        continue
                    value = args[i] if i < n else kwargs.get(name, _MISSING)
                    if value is not _MISSING and not fits(value):
                        self._refuse(name)
                return
        self._slow(args, kwargs)

    def _shaped(self, n: int, kwargs: dict[str, Any]) -> bool:
        """Whether keywords ``kwargs`` after ``n`` positional arguments bind without error."""
        names = self.names
        for key in kwargs:
            i = names.get(key)
            if i is None or i < n:
                return False
        return all(i < n or name in kwargs for name, i in self.required)

    def _refuse(self, name: str) -> None:
        raise BadInput(f"{name} is not a valid {_hint_name(self.hints[name])}")

    def _slow(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        sig = self.sig
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as e:
            raise BadInput(str(e)) from None
        for name, value in bound.arguments.items():
            fits = self.fits.get(name)
            if fits is None:
                continue
            param = sig.parameters[name]
            if param.kind is param.VAR_POSITIONAL:
                bad = [v for v in value if not fits(v)]
            elif param.kind is param.VAR_KEYWORD:
                bad = [v for v in value.values() if not fits(v)]
            else:
                bad = [] if fits(value) else [value]
            if bad:
                self._refuse(name)


def guarded(fn: F) -> F:
    """``fn`` (a service's public coroutine method) with its arguments checked first: a call
    that does not fit its type hints raises ServiceError ``bad_input`` (English text).

    The check is compiled on the first call (:class:`CompiledCheck`; the hints are resolved
    then, when every name they use is defined) and reused by every later call."""
    if getattr(fn, "__guarded__", False):
        return fn
    sig = inspect.signature(fn)
    compiled: CompiledCheck | None = None

    @functools.wraps(fn)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        nonlocal compiled
        if compiled is None:
            compiled = CompiledCheck(sig, _hints(fn))
        try:
            compiled(args, kwargs)
        except BadInput as e:
            from app.base import ServiceError

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
