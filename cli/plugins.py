"""``--plugin MODULE``: load an extra expansion for development and tests.

``carcabot local`` and ``carcabot simulate`` take ``--plugin MODULE`` (repeatable): the module
is imported and its ``install()`` called when it has one, so an expansion that is not built in
(a test-only one under ``tests/expansions/``) can be played with ``--expansions ID``. The module
is found as Python finds it from the current folder, as ``python -m`` would.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Iterable
from types import ModuleType


class PluginError(Exception):
    """A plugin could not be loaded: one line for the player."""


def add_plugin_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--plugin",
        action="append",
        default=[],
        dest="plugins",
        metavar="MODULE",
        help="import MODULE and call its install(): an extra expansion for development and "
        "tests, e.g. a module of tests/expansions/ (repeatable)",
    )


def load_plugins(modules: Iterable[str]) -> list[ModuleType]:
    """Import each module and call its ``install()`` if it has one; return the modules.

    Raises:
        PluginError: when a module cannot be found or imported, or its ``install()`` fails.
    """
    loaded = []
    for name in modules:
        module = _import(name)
        install = getattr(module, "install", None)
        if callable(install):
            try:
                install()
            except Exception as e:
                raise PluginError(f"the plugin '{name}' failed to install: {_why(e)}") from None
        loaded.append(module)
    return loaded


def _import(name: str) -> ModuleType:
    try:
        return _import_once(name)
    except ModuleNotFoundError as e:
        here = os.getcwd()
        missing = e.name or name
        if here in sys.path or "" in sys.path or not name.startswith(missing):
            raise PluginError(_not_found(name, missing)) from None
    sys.path.append(here)  # the console script does not look in the current folder
    try:
        return _import_once(name)
    except ModuleNotFoundError as e:
        raise PluginError(_not_found(name, e.name or name)) from None


def _import_once(name: str) -> ModuleType:
    if not name or any(not part.isidentifier() for part in name.split(".")):
        raise PluginError(f"cannot load the plugin '{name}': not a module name such as pkg.mod")
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        raise
    except Exception as e:
        raise PluginError(f"cannot load the plugin '{name}': {_why(e)}") from None


def _not_found(name: str, missing: str) -> str:
    return f"cannot load the plugin '{name}': no module named '{missing}'"


def _why(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0]}" if text else type(e).__name__


__all__ = ["PluginError", "add_plugin_argument", "load_plugins"]
