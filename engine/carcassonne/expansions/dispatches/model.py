"""Messages: ids, the public model, the events and the words (English and Spanish, with the
rulebook's terms: *despacho*, *seguidora*, *sello de lacre*).

The model (``state.ext["dispatches"]``) is public and replaced, never changed in place (clones
share it). The pile's order is hidden: it lives in ``state.piles`` (:mod:`engine.carcassonne.
chance`); the model only holds what everyone may see: the message in play, the awards still
waiting for their seat to say which figure takes them, and each seat's standing choice.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter

from engine.carcassonne.events import Event
from engine.carcassonne.scoring import Award
from engine.carcassonne.state import GameState
from engine.core import messages
from engine.core.decisions import Prompt
from engine.core.seats import Seat

ID = "dispatches"
#: the hidden pile of message tokens (``GameSetup.forced["dispatches.deck"]`` puts cards on top)
DECK = "dispatches.deck"
#: the second scoring figure of every seat (RULES.md §7.1: *seguidora*)
MESSENGER = "dispatches.messenger"
#: the steps: the start of a placement's scoring, the figure/message decisions, the settling
#: of awards given outside a scoring step (gold shared, a market paid)
MARK_STEP = "dispatches.mark"
FIGURE_STEP = "dispatches.figure"
MESSAGE_STEP = "dispatches.message"
SETTLE_STEP = "dispatches.settle"
#: the match option: each seat's standing choice at the start
CHOICE = "dispatches.choice"
#: the score category of a message's points
CATEGORY = "dispatches"
#: the sub-turn parameter of message 7's extra tile
EXTRA_TILE = "dispatches.extra_tile"

#: the eight messages, by their number on the token (RULES.md §7.3)
CARDS = ("1", "2", "3", "4", "5", "6", "7", "8")
#: the points of the wax seal (option b)
SEAL = 2

#: standing choices: ask every time, always the main figure, always the messenger, or the
#: main figure unless the messenger reaches a dark space
ASK, MAIN_FIGURE, MESSENGER_FIGURE, DARK = "ask", "main", "messenger", "dark"
STANDING = (ASK, MAIN_FIGURE, MESSENGER_FIGURE, DARK)


def dark(points: int) -> bool:
    """Whether a figure with ``points`` stands on a dark space (0, 5, 10 …; floor-mod 50).

    >>> [dark(n) for n in (0, 3, 5, 50, 55, -5, -3)]
    [True, False, True, True, True, True, False]
    """
    return points % 5 == 0


class Pending(tuple[Award, bool]):
    """An award waiting for its seat's figure choice, and whether it came in a scoring step
    (only those may earn a message, RULES.md OQ-MSG-2)."""

    __slots__ = ()

    def __new__(cls, award: Award, scoring: bool) -> Pending:
        return super().__new__(cls, (award, scoring))

    def __getnewargs__(self) -> tuple[Award, bool]:
        """Pickled as its two fields (a view goes to a drawing worker whole)."""
        return (self[0], self[1])

    @property
    def award(self) -> Award:
        return self[0]

    @property
    def scoring(self) -> bool:
        return self[1]


@dataclass(frozen=True, slots=True)
class MessagesModel:
    """What everyone sees of the expansion."""

    #: awards given to a seat's main figure and not yet placed (in the order given)
    pending: tuple[Pending, ...] = ()
    #: inside a placement's scoring step (from the mark step to the end of its messages)
    scoring: bool = False
    #: whose scoring it is (the active player: only they receive messages, §7.2.7)
    active: Seat = Seat(0)
    #: one of the active player's figures landed on a dark space in this scoring
    landed: bool = False
    #: the message drawn and not yet used (at most one is ever out, OQ-MSG-6)
    card: str | None = None
    #: each seat's standing choice (:data:`STANDING`)
    standing: tuple[str, ...] = ()
    #: the points on each seat's messenger, as the track shows them (for the words of the
    #: score lines; empty once the figures are added up at the end)
    messengers: tuple[int, ...] = ()

    def standing_of(self, seat: Seat) -> str:
        return self.standing[seat] if 0 <= seat < len(self.standing) else ASK


def model_of(s: GameState) -> MessagesModel:
    m = s.ext[ID]
    assert isinstance(m, MessagesModel)
    return m


#: the model's fields in constructor order (:func:`update` builds the new model directly:
#: ``dataclasses.replace`` costs several times more, and the model changes every scoring)
_FIELDS = tuple(f.name for f in fields(MessagesModel))
_INDEX = {n: i for i, n in enumerate(_FIELDS)}
_ALL_FIELDS = attrgetter(*_FIELDS)


def update(s: GameState, **changes: object) -> MessagesModel:
    """Replace the model with ``changes`` and return the new one.

    Raises:
        TypeError: ``changes`` names no field of the model.
    """
    old = s.ext[ID]  # every scoring: no call for the model
    args = list(_ALL_FIELDS(old))  # every field in one C call, no comprehension
    for name, value in changes.items():
        i = _INDEX.get(name)
        if i is None:
            unknown = ", ".join(n for n in changes if n not in _INDEX)
            raise TypeError(f"MessagesModel has no field {unknown}")
        args[i] = value
    m = MessagesModel(*args)
    s.ext[ID] = m
    return m


# ------------------------------------------------------------------------------ events
@dataclass(frozen=True, slots=True)
class FigureChosen(Event):
    """A seat put an award's points on one of its two figures, which now stands on ``space``
    (``dark``: a dark space)."""

    seat: Seat
    figure: str
    points: int
    space: int
    dark: bool

    def prompt(self) -> Prompt:
        key = "dispatches.moved.dark" if self.dark else "dispatches.moved"
        return Prompt.of(key, seat=self.seat, n=self.points, space=self.space, figure=fig(self))


def fig(e: FigureChosen) -> messages.Phrase:
    return messages.Phrase("fig." + MESSENGER if e.figure == MESSENGER else "dispatches.main")


@dataclass(frozen=True, slots=True)
class MessageDrawn(Event):
    """The active player drew message ``card``: everyone sees it, in both languages."""

    seat: Seat
    card: str

    def prompt(self) -> Prompt:
        return Prompt.of("dispatches.drawn", seat=self.seat, card=card_prompt(self.card))


@dataclass(frozen=True, slots=True)
class MessageUsed(Event):
    """A message was used (``how``: ``act`` or ``seal``) and went under the pile."""

    seat: Seat
    card: str
    how: str

    def prompt(self) -> Prompt:
        key = "dispatches.used.seal" if self.how == "seal" else "dispatches.used.act"
        return Prompt.of(key, seat=self.seat, n=int(self.card))


def card_prompt(card: str) -> messages.Phrase:
    """A message's number, name and what it does, in the reader's language followed by the
    other one (a drawn message is shown to everyone in both languages)."""
    return messages.Phrase(f"dispatches.card.{card}")


#: each message's name in English and Spanish (the token's wording, RULES.md §7.3)
NAMES = {
    "1": ("Score the smallest road", "Puntuar el camino más corto"),
    "2": ("Score the smallest city", "Puntuar la ciudad más pequeña"),
    "3": ("Score the smallest cloister", "Puntuar el claustro más pequeño"),
    "4": ("2 points per shield", "Por cada escudo 2 puntos"),
    "5": ("2 points per knight", "Por cada caballero 2 puntos"),
    "6": ("2 points per farmer", "Por cada granjero 2 puntos"),
    "7": ("Place one more tile", "Colocar una pieza más"),
    "8": ("Score a follower and remove it", "Puntuar un seguidor y quitarlo del tablero"),
}


def _both(card: str) -> tuple[str, str]:
    en, es = NAMES[card]
    return f"message {card}, «{en}» («{es}»)", f"despacho {card}, «{es}» («{en}»)"


messages.register(
    {
        "exp.dispatches": ("Messages", "Despachos"),
        "score.dispatches": ("message", "despacho"),
        "fig.dispatches.messenger": ("messenger", "seguidora"),
        "dispatches.main": ("main figure", "ficha principal"),
        "dispatches.counter": ("messenger {n}", "seguidora {n}"),
        **{f"dispatches.card.{c}": _both(c) for c in CARDS},
        # the lobby
        f"opt.{CHOICE}": ("Which scoring figure moves", "Qué ficha de puntuación avanza"),
        f"help.{CHOICE}": (
            "whether each player is asked which figure takes each award, or a standing choice "
            "applies until they change it",
            "si se pregunta a cada jugador qué ficha avanza con cada puntuación, o se aplica "
            "una elección fija",
        ),
        f"choice.{CHOICE}.ask": ("ask every time", "preguntar cada vez"),
        f"choice.{CHOICE}.main": ("always the main figure", "siempre la ficha principal"),
        f"choice.{CHOICE}.messenger": ("always the messenger", "siempre la seguidora"),
        f"choice.{CHOICE}.dark": (
            "main figure unless the messenger reaches a dark space",
            "ficha principal salvo que la seguidora llegue a una casilla oscura",
        ),
        # the figure decision
        FIGURE_STEP: (
            "{seat}: {n} {n:point|points} ({what}). Which scoring figure moves?",
            "{seat}: {n} {n:punto|puntos} ({what}). ¿Qué ficha de puntuación avanza?",
        ),
        f"open.{FIGURE_STEP}": ("Move a scoring figure", "Avanza una ficha de puntuación"),
        "dispatches.to.main": ("Main figure → {space}", "Ficha principal → {space}"),
        "dispatches.to.messenger": ("Messenger → {space}", "Seguidora → {space}"),
        "dispatches.to.main.dark": (
            "Main figure → {space} (dark: a message)",
            "Ficha principal → {space} (oscura: despacho)",
        ),
        "dispatches.to.messenger.dark": (
            "Messenger → {space} (dark: a message)",
            "Seguidora → {space} (oscura: despacho)",
        ),
        "dispatches.always.dark": (
            "From now on: main figure unless the messenger reaches a dark space",
            "A partir de ahora: ficha principal salvo que la seguidora llegue a una casilla oscura",
        ),
        # the message decision
        MESSAGE_STEP: (
            "{seat} draws {card}. Carry it out, or take 2 points (the wax seal)?",
            "{seat} roba el {card}. ¿Ejecutar su acción o recibir 2 puntos (el sello de lacre)?",
        ),
        f"open.{MESSAGE_STEP}": ("Use the message", "Usa el despacho"),
        "dispatches.seal": ("Take 2 points", "Recibir 2 puntos"),
        "dispatches.act.points": (
            "Carry it out: {n} {n:point|points}",
            "Ejecutar: {n} {n:punto|puntos}",
        ),
        "dispatches.act.feature": (
            "Score the {kind} at {cell}: {n} {n:point|points}",
            "Puntuar {kind} en {cell}: {n} {n:punto|puntos}",
        ),
        "dispatches.act.remove": (
            "Remove the {figure} at {cell}: {n} {n:point|points}",
            "Retirar {figure} en {cell}: {n} {n:punto|puntos}",
        ),
        "dispatches.act.tile": ("Place one more tile", "Colocar una pieza más"),
        "dispatches.act.nothing": (
            "Carry it out: it does nothing now (the 2 points may be better)",
            "Ejecutar: ahora no hace nada (quizá convengan más los 2 puntos)",
        ),
        "dispatches.kind.road": ("road", "el camino"),
        "dispatches.kind.city": ("city", "la ciudad"),
        "dispatches.kind.cloister": ("cloister", "el claustro"),
        "dispatches.what.road": ("road", "camino"),
        "dispatches.what.city": ("city", "ciudad"),
        "dispatches.what.cloister": ("cloister", "claustro"),
        "dispatches.what.farm": ("farm", "granja"),
        # score parts
        "part.dispatches.seal": ("wax seal 2", "sello de lacre 2"),
        "part.dispatches.shields.one": ("1 shield × 2", "1 escudo × 2"),
        "part.dispatches.shields.many": ("{n} shields × 2", "{n} escudos × 2"),
        "part.dispatches.knights.one": ("1 knight × 2", "1 caballero × 2"),
        "part.dispatches.knights.many": ("{n} knights × 2", "{n} caballeros × 2"),
        "part.dispatches.farmers.one": ("1 farmer × 2", "1 granjero × 2"),
        "part.dispatches.farmers.many": ("{n} farmers × 2", "{n} granjeros × 2"),
        "part.dispatches.no_majority": ("no majority: 0", "sin mayoría: 0"),
        # events
        "dispatches.moved": (
            "{seat} moves the {figure} {n} {n:space|spaces} to {space}.",
            "{seat} avanza la {figure} {n} {n:casilla|casillas} hasta la {space}.",
        ),
        "dispatches.moved.dark": (
            "{seat} moves the {figure} {n} {n:space|spaces} to {space}, a dark space.",
            "{seat} avanza la {figure} {n} {n:casilla|casillas} hasta la {space}, una casilla "
            "oscura.",
        ),
        "dispatches.drawn": ("{seat} draws {card}.", "{seat} roba el {card}."),
        "dispatches.used.act": (
            "{seat} carries out message {n}; it goes under the pile.",
            "{seat} ejecuta el despacho {n}; va debajo de la pila.",
        ),
        "dispatches.used.seal": (
            "{seat} takes 2 points for message {n}; it goes under the pile.",
            "{seat} recibe 2 puntos por el despacho {n}; va debajo de la pila.",
        ),
        # refusals
        "dispatches.err.figure": (
            "'{value}' is not a figure choice; answer one of {names}.",
            "'{value}' no es una elección de ficha; responde una de {names}.",
        ),
        "dispatches.err.message": (
            "'{value}' is not an option of this message; answer one of {names}.",
            "'{value}' no es una opción de este despacho; responde una de {names}.",
        ),
        "dispatches.err.first": (
            "First say which scoring figure moves, or use the message.",
            "Primero di qué ficha de puntuación avanza, o usa el despacho.",
        ),
    }
)
