"""The card game's rules summary in English, Spanish and German (for ``/cardgame rules``).

The numbers come from the data tables in :mod:`engine.cardgame.cards`, so correcting the
animal table there corrects this text too. Assumed animal values are marked with ``*``.
"""

from __future__ import annotations

from engine.cardgame import text_de
from engine.cardgame.cards import (
    ANIMAL_TABLE,
    BUILDING_SET_POINTS,
    DEAL,
    LONE_JOKER_POINTS,
    WILD_JOKER_POINTS,
    WRONG_ROW_POINTS,
)
from engine.core import messages

LANGUAGES = messages.LANGS


def animal_table_line(lang: str = "en") -> str:
    """``1→3* · 2→6 · …`` with ``*`` on every value not printed in the rulebook text."""
    return " · ".join(f"{r.cards}→{r.points}{'' if r.known else '*'}" for r in ANIMAL_TABLE)


def assumed_animal_counts() -> tuple[int, ...]:
    """Card counts whose animal points are assumed (not from the rulebook text)."""
    return tuple(r.cards for r in ANIMAL_TABLE if not r.known)


def rules_summary(lang: str = "en") -> str:
    """A short rules summary (Discord markdown) in ``lang`` (English for a language without
    one)."""
    deal = " · ".join(f"{d.players}: {d.cards}×{d.rounds}" for d in DEAL.values())
    sets = " · ".join(f"{n}→{p}" for n, p in sorted(BUILDING_SET_POINTS.items()))
    animals = animal_table_line(lang)
    known = ", ".join(f"{r.cards}→{r.points}" for r in ANIMAL_TABLE if r.known)
    foot = RULES.template("footnote", lang) or ""
    footnote = foot.format(known=known) if assumed_animal_counts() else ""
    return (RULES.template("summary", lang) or "").format(
        footnote=footnote,
        deal=deal,
        sets=sets,
        animals=animals,
        lone=LONE_JOKER_POINTS,
        wild=WILD_JOKER_POINTS,
        wrong=WRONG_ROW_POINTS,
    )


_EN = """\
**Carcassonne – the card game** (2–5 players)
**Rows:** yellow = cloister, red = road, green = field, blue = city. 130 cards: per colour \
characters 8×1, 5×2, 3×3, 5 buildings, 9 animals; dragon, fairy, 4 animal jokers, \
4 building jokers. The dealer lays 10 cards into their rows (jokers into a row of their choice).
**Deal (players: cards × rounds):** {deal}. The dealer's left starts; play goes clockwise.
**Your turn — do one:**
• Play a card at the end of a row, never between two cards. Your **first card of the round \
goes face down**, into any row. Later cards go face up into **their colour's row**; jokers into \
any row.
• Stand your **large follower** at the end of a row: it secures the cards back to the board or \
to the previous follower. Whoever places the round's last follower deals next.
The round ends when every hand is empty and every follower stands.
**Round scoring** (secured face-down cards are turned up):
• Characters: sum of values × number of characters, then discarded.
• Animals stay in front of you; each time you receive some, score the table value of the new \
total of each kind that grew: {animals}. A lone animal joker (no animal in front of you) \
scores {lone}; later it joins a kind.
• Buildings and building jokers go under your chest, unseen until the end.
• Dragon / fairy: {wild} each.
• A face-down card in the wrong row: a character scores {wrong}; an animal or building: \
{wrong} points (card discarded) **or** keep it — your choice.
**End:** building sets of different buildings (jokers wild), best grouping found for you: \
{sets}. Most points wins; a tie goes to the most building cards, then the win is shared.
{footnote}"""

_ES = """\
**Carcassonne – El juego de cartas** (2–5 jugadores)
**Filas:** amarillo = claustro, rojo = camino, verde = campo, azul = ciudad. 130 cartas: por \
color personajes 8×1, 5×2, 3×3, 5 edificios, 9 animales; dragón, hada, 4 comodines de animal, \
4 comodines de edificio. El repartidor coloca 10 cartas en sus filas (los comodines, en la fila \
que elija).
**Reparto (jugadores: cartas × rondas):** {deal}. Empieza el jugador a la izquierda del \
repartidor; se juega en sentido horario.
**En tu turno, una de dos:**
• Coloca una carta al final de una fila, nunca entre dos cartas. Tu **primera carta de la \
ronda va boca abajo**, en cualquier fila. Las siguientes van boca arriba en **la fila de su \
color**; los comodines, en cualquier fila.
• Coloca tu **seguidor grande** al final de una fila: asegura las cartas hasta el tablero o \
hasta el seguidor anterior. Quien coloca el último seguidor de la ronda reparte la siguiente.
La ronda termina cuando nadie tiene cartas y todos los seguidores están colocados.
**Puntuación de la ronda** (las cartas boca abajo aseguradas se giran):
• Personajes: suma de los números × cantidad de personajes; después se retiran.
• Los animales se quedan delante de ti; cada vez que recibes animales, puntúas el valor de la \
tabla del nuevo total de cada clase que creció: {animals}. Un comodín de animal sin animales \
delante da {lone}; más adelante se asigna a una clase.
• Edificios y comodines de edificio van bajo tu cofre, sin mirarlos hasta el final.
• Dragón / hada: {wild} cada uno.
• Carta boca abajo en una fila de otro color: un personaje da {wrong}; un animal o edificio: \
{wrong} puntos (se retira) **o** quedártelo, a tu elección.
**Final:** series de edificios diferentes (los comodines sustituyen a cualquiera), con la mejor \
agrupación calculada para ti: {sets}. Gana quien tenga más puntos; en empate, quien tenga más \
cartas de edificio; si sigue el empate, comparten la victoria.
{footnote}"""

_FOOT_EN = (
    "\\* assumed value: the printed animal table is not available yet; the rulebook text "
    "gives only {known}."
)
_FOOT_ES = (
    "\\* valor supuesto: la tabla de animales impresa aún no está disponible; el reglamento "
    "solo da {known}."
)


#: the summary and its footnote by language (German in :mod:`engine.cardgame.text_de`)
RULES = messages.Catalogue(
    "cardgame.rules", {"summary": (_EN, _ES), "footnote": (_FOOT_EN, _FOOT_ES)}
)
RULES.register_lang("de", {"summary": text_de.SUMMARY, "footnote": text_de.FOOTNOTE})
