"""The README for the people who run the bot (issue 21): its first two commands stay as they
are, every setting the bot reads is in ``.env.example`` and explained in the README, and the
README says what an admin needs (Python version, the server id for ``sync --guild``,
``DEV_GUILD_ID`` and ``--dev``, a service unit, that restarts are safe, how languages are
chosen, the server defaults command, that a new local match sets the unfinished one aside).
The commands it names exist with the options it names."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from app.settings import Settings
from cli.main import build_parser

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
ENV_EXAMPLE = (ROOT / ".env.example").read_text(encoding="utf-8")


def _env_example() -> dict[str, str]:
    out = {}
    for line in ENV_EXAMPLE.splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, value = line.partition("=")
            out[name.strip()] = value.strip()
    return out


def test_the_first_two_commands_are_unchanged() -> None:
    blocks = re.findall(r"```sh\n(.*?)\n```", README, flags=re.S)
    assert blocks[:2] == [
        "python3 -m venv .venv && . .venv/bin/activate && pip install -e . && carcabot",
        "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[dev]' && pytest",
    ]


def test_every_setting_is_in_env_example_and_explained() -> None:
    settings = set(re.findall(r"\b([A-Z][A-Z_]+[A-Z])\b", Settings.__doc__ or ""))
    assert {"DISCORD_TOKEN", "DRAW_WORKERS", "DEV_GUILD_ID"} <= settings
    example = _env_example()
    assert set(example) == settings, (set(example), settings)
    for name in settings:
        assert re.search(rf"^\| `{name}` \|", README, flags=re.M), f"{name} not in the table"
    # the example is a valid settings file as it stands (empty values count as unset)
    parsed = Settings.from_env(example)
    assert parsed.discord_token is None and parsed.draw_workers >= 1


def test_the_readme_says_what_an_admin_needs() -> None:
    python = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert python == ">=3.11" and "Python 3.11 or newer" in README
    for words in (
        "Copy Server ID",  # the server id for sync --guild
        "carcabot sync --guild ID",
        "carcabot sync --dev",
        "[Service]",  # a systemd unit
        "Restart=on-failure",
        "Restarts are safe",
        "Discord language",
        "/carcassonne defaults",
        "Manage Server",
        "sets the unfinished one aside",
    ):
        assert words in README, words


def test_the_commands_the_readme_names_exist() -> None:
    parser = build_parser()
    subs = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    for command, options in {
        "sync": ("--guild", "--dev"),
        "run": ("--env-file",),
        "local": ("--resume", "--names", "--rule", "--lang", "--game", "--out"),
        "simulate": ("--record", "--game"),
    }.items():
        flags = {f for a in subs[command]._actions for f in a.option_strings}
        assert set(options) <= flags, (command, set(options) - flags)
