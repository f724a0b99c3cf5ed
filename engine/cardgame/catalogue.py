"""The words of the card game's decisions, in English and Spanish (``engine.core.messages``).

Decisions name these keys (:mod:`engine.cardgame.decisions`); a front end shows them with
``engine.core.messages.text(key, lang, **params)`` without knowing the card game. The wording
is the Discord front end's (``words/i18n_cards.py``), so both say the same.

Parameters: ``card`` is a card's name (``blue character 2``, ``dragon``: a
:func:`~engine.cardgame.cards.face_name`), ``cards`` a comma-separated list of names, ``n`` a number of cards. Rows and animal kinds are colours; since a parameter cannot
be translated, every text naming a row has one key per colour (``cards.opt.follower.blue``).

>>> from engine.core.messages import text
>>> text(follower_label(Colour.BLUE), "es", n=2)
'Seguidor → 🟦 ciudad (2)'
"""

from __future__ import annotations

from engine.cardgame.cards import FACES, ROWS, CardType, Colour
from engine.core import messages

#: Prompts (what a decision asks).
ASK_LAY_JOKER = "cards.ask.lay_joker"
ASK_PLAY = "cards.ask.play"
ASK_PLAY_DOWN = "cards.ask.play_down"
ASK_FOLLOWER = "cards.ask.follower"
ASK_WRONG_ROW = "cards.ask.wrong_row"
ASK_JOKER = "cards.ask.joker"
#: Option labels that name no row.
OPT_KEEP = "cards.opt.keep"
OPT_CASH = "cards.opt.cash"

#: colour -> (English, Spanish) name of its row (also the name of its animal kind)
_ROW_NAMES: dict[Colour, tuple[str, str]] = {
    Colour.YELLOW: ("🟨 cloister", "🟨 claustro"),
    Colour.RED: ("🟥 road", "🟥 camino"),
    Colour.GREEN: ("🟩 field", "🟩 campo"),
    Colour.BLUE: ("🟦 city", "🟦 ciudad"),
}


def row_name(colour: Colour) -> str:
    """Key of a row's name (``🟦 city``)."""
    return f"cards.row.{colour.value}"


def play_label(colour: Colour) -> str:
    """Key of a play option's label: ``{card} → 🟦 city``."""
    return f"cards.opt.play.{colour.value}"


def follower_label(colour: Colour) -> str:
    """Key of a follower option's label: ``Follower → 🟦 city ({n})``."""
    return f"cards.opt.follower.{colour.value}"


def lay_label(colour: Colour) -> str:
    """Key of a setup joker option's label: ``Joker → 🟦 city``."""
    return f"cards.opt.lay.{colour.value}"


def assign_label(kind: str) -> str:
    """Key of an animal-joker option's label, by animal kind: ``Joker → 🟦 city``."""
    return f"cards.opt.assign.{kind}"


def _texts() -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {
        ASK_LAY_JOKER: (
            "{card} came up — choose its row.",
            "Ha salido {card} — elige su fila.",
        ),
        ASK_PLAY: ("Which card do you play?", "¿Qué carta juegas?"),
        ASK_PLAY_DOWN: (
            "Which card do you play? It goes face down (any row).",
            "¿Qué carta juegas? Va boca abajo (en cualquier fila).",
        ),
        ASK_FOLLOWER: (
            "Stand your follower: which row?",
            "Coloca tu seguidor: ¿en qué fila?",
        ),
        ASK_WRONG_ROW: (
            "Your choice: keep {cards} or cash each for 10.",
            "Tu elección: quedarte {cards} o cobrar 10 por cada una.",
        ),
        ASK_JOKER: (
            "Your choice: give an animal joker a kind.",
            "Tu elección: asigna un comodín de animal.",
        ),
        OPT_KEEP: ("Keep {card}", "Quedarme {card}"),
        OPT_CASH: ("Cash {card} for 10", "Cobrar 10 por {card}"),
    }
    for colour in ROWS:
        en, es = _ROW_NAMES[colour]
        out[row_name(colour)] = (en, es)
        out[play_label(colour)] = (f"{{card}} → {en}", f"{{card}} → {es}")
        out[follower_label(colour)] = (f"Follower → {en} ({{n}})", f"Seguidor → {es} ({{n}})")
        out[lay_label(colour)] = (f"Joker → {en}", f"Comodín → {es}")
    for face in FACES:  # an animal kind is named after the row of its cards (OQ-CARD-1)
        if face.type is CardType.ANIMAL and face.colour is not None:
            en, es = _ROW_NAMES[face.colour]
            out[assign_label(face.kind)] = (f"Joker → {en}", f"Comodín → {es}")
    return out


TEXTS: dict[str, tuple[str, str]] = _texts()
messages.register(TEXTS)
# a card facet's value (the presenters' ``facet.<name>.<value>``): the card's name, in words
messages.register({f"facet.card.{f.code}": (f.describe(), f.describe_es()) for f in FACES})
