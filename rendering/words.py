"""Every word drawn in a picture, in English, Spanish and German (the engine's catalogue).

Pictures take the match language (``lang``: ``"en"``, ``"es"`` or ``"de"``) and look their words up
here, so a Spanish table never shows "Turn" or "BUILD". The keys live in
:mod:`engine.core.messages` under ``pic.``, registered the same way the engine and its
expansions register theirs; a score category an expansion adds is named by its own
``score.<category>`` key (e.g. goods), so this module names no expansion.

>>> word("pic.turn", "es", n=3)
'Turno 3'
>>> category_word("city", "es")
'Ciudades'
"""

from __future__ import annotations

from typing import Any

from engine.core import messages

TEXTS: dict[str, tuple[str, str]] = {
    "pic.turn": ("Turn {n}", "Turno {n}"),
    "pic.tiles_left": ("{n} {n:tile|tiles} left", "{n:Queda|Quedan} {n} {n:pieza|piezas}"),
    "pic.current_tile": ("Current tile", "Pieza actual"),
    "pic.game_over": ("Game over", "Fin de la partida"),
    "pic.total": ("Total", "Total"),
    "pic.points": ("+{n}", "+{n}"),
    "pic.colour.red": ("red", "rojo"),
    "pic.colour.blue": ("blue", "azul"),
    "pic.colour.yellow": ("yellow", "amarillo"),
    "pic.colour.green": ("green", "verde"),
    "pic.colour.black": ("black", "negro"),
    "pic.colour.pink": ("pink", "rosa"),
    "pic.colour.neutral": ("neutral", "neutral"),
    # the final board's breakdown: one column per score category
    "pic.cat.road": ("Roads", "Caminos"),
    "pic.cat.city": ("Cities", "Ciudades"),
    "pic.cat.cloister": ("Cloisters", "Claustros"),
    "pic.cat.farm": ("Farms", "Granjas"),
    "pic.cat.other": ("Other", "Otros"),
    # the card game's table and hands
    "pic.cards.round": (
        "Round {round}/{rounds} · pile: {pile}",
        "Ronda {round}/{rounds} · mazo: {pile}",
    ),
    "pic.cards.row.yellow": ("cloister", "claustro"),
    "pic.cards.row.red": ("road", "camino"),
    "pic.cards.row.green": ("field", "campo"),
    "pic.cards.row.blue": ("city", "ciudad"),
    "pic.cards.counts": (
        "hand {hand} · animals {animals} · chest {chest} · follower: {row}",
        "mano {hand} · animales {animals} · cofre {chest} · seguidor: {row}",
    ),
    "pic.cards.winner": (
        "Game over · {name} wins with {score} points",
        "Fin de la partida · gana {name} con {score} puntos",
    ),
    "pic.cards.winners": (
        "Game over · {names} win with {score} points",
        "Fin de la partida · ganan {names} con {score} puntos",
    ),
    "pic.cards.and": (" and ", " y "),
    "pic.cards.rows_cleared": (
        "The cards left in the rows leave the game at the end.",
        "Las cartas que quedan en las filas salen del juego al final.",
    ),
    "pic.cards.animal": ("ANIMAL", "ANIMAL"),
    "pic.cards.building": ("BUILDING", "EDIFICIO"),
    "pic.cards.animal_joker": ("JOKER\nANIMAL", "COMODÍN\nANIMAL"),
    "pic.cards.building_joker": ("JOKER\nBUILDING", "COMODÍN\nEDIFICIO"),
    "pic.cards.dragon": ("DRAGON", "DRAGÓN"),
    "pic.cards.fairy": ("FAIRY", "HADA"),
}
messages.register(TEXTS)
messages.register_lang(
    "de",
    {
        "pic.turn": "Zug {n}",
        "pic.tiles_left": "noch {n} {n:Karte|Karten}",
        "pic.current_tile": "Aktuelle Karte",
        "pic.game_over": "Spielende",
        "pic.total": "Summe",
        "pic.points": "+{n}",
        "pic.colour.red": "rot",
        "pic.colour.blue": "blau",
        "pic.colour.yellow": "gelb",
        "pic.colour.green": "grün",
        "pic.colour.black": "schwarz",
        "pic.colour.pink": "rosa",
        "pic.colour.neutral": "neutral",
        "pic.cat.road": "Straßen",
        "pic.cat.city": "Städte",
        "pic.cat.cloister": "Klöster",
        "pic.cat.farm": "Wiesen",
        "pic.cat.other": "Sonstiges",
        "pic.cards.round": "Runde {round}/{rounds} · Stapel: {pile}",
        "pic.cards.row.yellow": "Kloster",
        "pic.cards.row.red": "Straße",
        "pic.cards.row.green": "Wiese",
        "pic.cards.row.blue": "Stadt",
        "pic.cards.counts": "Hand {hand} · Tiere {animals} · Truhe {chest} · Gefolgsmann: {row}",
        "pic.cards.winner": "Spielende · {name} gewinnt mit {score} Punkten",
        "pic.cards.winners": "Spielende · {names} gewinnen mit {score} Punkten",
        "pic.cards.and": " und ",
        "pic.cards.rows_cleared": "Die Karten in den Reihen verlassen am Ende das Spiel.",
        "pic.cards.animal": "TIER",
        "pic.cards.building": "GEBÄUDE",
        "pic.cards.animal_joker": "JOKER\nTIER",
        "pic.cards.building_joker": "JOKER\nGEBÄUDE",
        "pic.cards.dragon": "DRACHE",
        "pic.cards.fairy": "FEE",
    },
)

#: the base game's score categories, in the breakdown's order (others follow by name)
BASE_CATEGORIES = ("road", "city", "cloister", "farm")


def word(key: str, lang: str = "en", **params: Any) -> str:
    """The text of ``key`` in ``lang`` with ``params`` filled in."""
    return messages.text(key, lang, **params)


def colour_word(colour_name: str, lang: str = "en") -> str:
    """A seat colour's name (``red`` -> ``rojo``)."""
    key = f"pic.colour.{colour_name}"
    return word(key, lang) if messages.has(key) else colour_name


def category_word(category: str, lang: str = "en") -> str:
    """A score category's column title: the base ones from this catalogue, an expansion's
    from its own ``score.<category>`` key (capitalised), else the category itself."""
    key = f"pic.cat.{category}"
    if messages.has(key):
        return word(key, lang)
    key = f"score.{category}"
    text = word(key, lang) if messages.has(key) else category
    return text[:1].upper() + text[1:]
