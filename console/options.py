"""The local table's options: what ``carcabot local`` was asked for (:class:`LocalOptions`),
checked before any saved match is touched, and turned into the tile game's match options, in the
table's language. The table itself plays in :mod:`console.table`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.matches import MatchOptions, ServiceError, validate_options
from app.options import Rule, find_rule, parse_rule, rules_for
from app.settings import DEFAULT_LOCAL_DATABASE
from console.i18n import tl

LOCAL_GUILD = 0
LOCAL_CHANNEL = 1


@dataclass(frozen=True, slots=True)
class LocalOptions:
    players: int = 2
    humans: int = 1
    seed: int | None = None
    out: Path = Path("out")
    db: Path = DEFAULT_LOCAL_DATABASE
    resume: bool = False
    names: tuple[str, ...] = ()
    farm_scoring: str = "per_farm"
    tiny_city: int = 2
    expansions: tuple[str, ...] = ()
    #: expansion rule values as ``KEY=VALUE`` texts (see ``app.options.parse_rule``)
    rules: tuple[str, ...] = ()
    #: ``--plugin`` modules the caller loaded (named again in the hint to resume)
    plugins: tuple[str, ...] = ()
    #: the table's language: ``en`` or ``es``
    lang: str = "en"
    #: whether ``lang`` was chosen (``--lang``): if not, a resumed match keeps its own language
    lang_chosen: bool = True
    #: ``tiles`` (Carcassonne) or ``cards`` (the card game)
    game: str = "tiles"
    #: who plays the seats nobody types for: ``random`` moves, or an AI level (``easy``,
    #: ``normal``, ``strong``: app.seats.LEVELS)
    opponents: str = "random"

    def resume_hint(self) -> str:
        """The command that continues the match (its game and language are stored with it;
        a plug-in must be loaded again)."""
        extra = "".join(f" --plugin {m}" for m in self.plugins)
        return f"carcabot local --resume{extra}"


def seats_range(game: str) -> tuple[int, int]:
    """The seats a game is played with: the card game 2-5, the tile game 2-6."""
    return (2, 5) if game == "cards" else (2, 6)


def check_options(opts: LocalOptions, low: int = 2, high: int = 6) -> str | None:
    """What is wrong with the arguments, in the table's language: the table size
    (``low``-``high`` seats), the names, the output folder, the expansions' rules."""
    if not low <= opts.players <= high:
        return tl(opts.lang, "bad_players", low=low, high=high)
    if not 0 <= opts.humans <= opts.players:
        return tl(opts.lang, "bad_humans", n=opts.players)
    if len(opts.names) > opts.humans:
        return tl(opts.lang, "bad_names", n=len(opts.names), humans=opts.humans)
    if opts.out.exists() and not opts.out.is_dir():
        return tl(opts.lang, "out_not_folder", path=opts.out)
    if opts.game == "cards":
        if opts.expansions or opts.rules:
            return tl(opts.lang, "cards_no_expansions")
        return None
    found = tile_options(opts)
    return found if isinstance(found, str) else None


def tile_options(opts: LocalOptions) -> MatchOptions | str:
    """The tile game's options from the arguments, or what is wrong with them (in the
    table's language): each ``--rule KEY=VALUE`` must name a rule of a chosen expansion and
    one of its values (``on``/``off`` for a yes-or-no rule)."""
    lang = opts.lang
    options = MatchOptions(
        players=opts.players,
        farm_scoring=opts.farm_scoring,
        tiny_city=opts.tiny_city,
        lang=opts.lang,
    ).with_expansions(opts.expansions)
    chosen = rules_for(opts.expansions)
    listed = ", ".join(f"{r.key}={rule_values(r, '|')}" for r in chosen)
    valid = tl(lang, "rules_valid", rules=listed) if chosen else tl(lang, "rules_none")
    for assignment in opts.rules:
        key, sep, typed = (part.strip() for part in assignment.partition("="))
        if not sep or not key:
            return tl(lang, "rule_form", rule=assignment, valid=valid)
        rule = next((r for r in chosen if r.key == key), None)
        if rule is None:
            other = find_rule(key)
            if other is not None:
                return tl(lang, "rule_needs", rule=key, expansion=other.expansion)
            return tl(lang, "rule_unknown", rule=key, valid=valid)
        try:
            options = options.with_rule(*parse_rule(f"{key}={typed}"))
        except ServiceError:
            values = rule_values(rule, tl(lang, "or"), lang)
            return tl(lang, "rule_value", rule=key, values=values, value=typed)
    try:
        validate_options(options)
    except ServiceError as e:
        return error_words(e, lang)
    return options


def rule_values(rule: Rule, sep: str, lang: str = "en") -> str:
    """What a rule takes, as typed: ``on`` and ``off`` for a yes-or-no rule; joined by
    ``sep``, or listed as "a, b or c" when ``sep`` is a word (the Spanish "o" is "u" before
    an o: "on u off"; no other shipped language writes its "or" as "o")."""
    words = ["on" if c is True else "off" if c is False else str(c) for c in rule.choices]
    if sep.strip() and len(words) > 1:
        if sep.strip() == "o" and words[-1].startswith("o"):
            sep = " u "
        return ", ".join(words[:-1]) + sep + words[-1]
    return sep.join(words)


def error_words(err: ServiceError, lang: str) -> str:
    """A refusal in the table's language: an illegal move's reason, else the bot's text for
    the error (the English message when neither has words for it)."""
    if err.key == "illegal":
        return err.reason(lang)
    text = tl(lang, err.key, **err.params)
    return str(err) if text == err.key or "{" in text else text


def players_of(opts: LocalOptions) -> list[tuple[int, str]]:
    """(user_id, name): humans get ids 1, 2, ...; the seats nobody types for -1, -2, ... (with
    humans at the table, AI opponents are added by the service instead)."""
    out = []
    for i in range(opts.humans):
        name = opts.names[i] if i < len(opts.names) else tl(opts.lang, "human", n=i + 1)
        out.append((i + 1, name))
    if opts.opponents != "random" and opts.humans > 0:
        return out  # AI seats are added by the service (app.seats), named "AI 1" ...
    for j in range(opts.players - opts.humans):
        out.append((-(j + 1), f"Bot {j + 1}"))
    return out
