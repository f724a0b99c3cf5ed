"""Mage & Witch: names, the model, events and words (English and Spanish, with the
rulebook's terms: *mago*, *bruja*, *pieza mágica*).

Both figures stand on the board as neutral figures (``Meeple`` with seat ``NEUTRAL``, kinds
:data:`MAGE` and :data:`WITCH`); the model (``state.ext["mage_witch"]``, public) remembers
where each stands, so a step finds them without searching the board; a figure not on the
board is set aside beside it, ready for the next magic tile.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.carcassonne.board import Meeple
from engine.carcassonne.events import Event
from engine.carcassonne.geometry import Position
from engine.core import messages
from engine.core.decisions import Prompt
from engine.core.seats import Seat

ID = "mage_witch"
#: the tile symbol (the magic portal)
SYMBOL = "mage"
#: the two neutral figures, in the order they are offered
MAGE = "mage"
WITCH = "witch"
FIGURES = (MAGE, WITCH)
#: the decision of a magic tile (place or move a figure), the one forced by a tile joining
#: them, and the step setting aside figures whose feature was completed
MOVE_STEP = "mw.move"
JOIN_STEP = "mw.join"
LEAVE_STEP = "mw.leave"
#: the value answering "take this figure off the board" (RULES.md §10.2 rule 5)
OFF = "off"


@dataclass(frozen=True, slots=True)
class MageWitchModel:
    """Where the mage and the witch stand (``None``: set aside). Replaced, never changed in
    place (clones share it)."""

    mage: Meeple | None = None
    witch: Meeple | None = None

    def of(self, figure: str) -> Meeple | None:
        return self.mage if figure == MAGE else self.witch

    def put(self, figure: str, m: Meeple | None) -> MageWitchModel:
        if figure == MAGE:
            return MageWitchModel(m, self.witch)
        return MageWitchModel(self.mage, m)


def model_of(ext: dict[str, object]) -> MageWitchModel:
    m = ext[ID]
    assert isinstance(m, MageWitchModel)
    return m


def other(figure: str) -> str:
    """The other figure: the mage for the witch and the witch for the mage."""
    return WITCH if figure == MAGE else MAGE


@dataclass(frozen=True, slots=True)
class FigurePlaced(Event):
    """``seat`` put the mage or the witch on ``kind`` (road or city) at ``pos``; ``moved``: it
    came from another tile of the board rather than from beside it."""

    seat: Seat
    figure: str
    pos: Position
    spot: str
    kind: str
    moved: bool

    def prompt(self) -> Prompt:
        key = "mw.moved" if self.moved else "mw.placed"
        return Prompt.of(
            key,
            seat=self.seat,
            figure=Prompt.of(f"mw.obj.{self.figure}"),
            kind=Prompt.of(f"mw.where.{self.kind}"),
            cell=self.pos.notation(),
        )


@dataclass(frozen=True, slots=True)
class FigureSetAside(Event):
    """The mage or the witch left the board: its feature was completed (``completed``), or
    ``seat`` took it off because no figure had anywhere to go (RULES.md §10.2 rule 5)."""

    figure: str
    completed: bool
    seat: Seat | None = None

    def prompt(self) -> Prompt:
        if self.completed or self.seat is None:
            return Prompt.of("mw.left", figure=Prompt.of(f"mw.subj.{self.figure}"))
        return Prompt.of("mw.taken_off", seat=self.seat, figure=Prompt.of(f"mw.obj.{self.figure}"))


messages.register(
    {
        "exp.mage_witch": ("Mage & Witch", "Mago y Bruja"),
        "symbol.mage": ("magic portal", "portal mágico"),
        "fig.mage": ("mage", "mago"),
        "fig.witch": ("witch", "bruja"),
        # the figures as subject and as object (Spanish: "al mago", "a la bruja")
        "mw.subj.mage": ("The mage", "El mago"),
        "mw.subj.witch": ("The witch", "La bruja"),
        "mw.obj.mage": ("the mage", "al mago"),
        "mw.obj.witch": ("the witch", "a la bruja"),
        "mw.where.road": ("the road", "el camino"),
        "mw.where.city": ("the city", "la ciudad"),
        # the score lines
        "part.mage": ("+{n} mage", "+{n} mago"),
        "part.witch": ("½ witch", "½ bruja"),
        # the decisions
        MOVE_STEP: (
            "Magic tile: place or move the mage or the witch onto an unfinished road or city.",
            "Pieza mágica: coloca o mueve al mago o a la bruja a un camino o una ciudad sin "
            "terminar.",
        ),
        f"open.{MOVE_STEP}": ("Place the mage or the witch", "Coloca al mago o a la bruja"),
        JOIN_STEP: (
            "The mage and the witch share a feature: move one of them away.",
            "El mago y la bruja están en la misma construcción: mueve a uno de ellos.",
        ),
        f"open.{JOIN_STEP}": ("Move the mage or the witch", "Mueve al mago o a la bruja"),
        "mw.off": ("Take {figure} off the board", "Retira {figure} del tablero"),
        # events
        "mw.placed": (
            "{seat} puts {figure} on {kind} at {cell}.",
            "{seat} coloca {figure} en {kind} en {cell}.",
        ),
        "mw.moved": (
            "{seat} moves {figure} to {kind} at {cell}.",
            "{seat} mueve {figure} hasta {kind} en {cell}.",
        ),
        "mw.left": (
            "{figure} leaves the board.",
            "{figure} sale del tablero.",
        ),
        "mw.taken_off": (
            "{seat} takes {figure} off the board: neither figure has anywhere to go.",
            "{seat} retira {figure} del tablero: ninguna figura tiene adónde ir.",
        ),
        # refusals (one line each)
        "mw.err.answer": (
            "Answer with a figure and a spot, as in 'mw.move mage@2,-1@road:EW'.",
            "Responde con una figura y un lugar, como 'mw.move mage@2,-1@road:EW'.",
        ),
        "mw.err.target": (
            "{figure} cannot go to {target}: choose an unfinished road or city on another "
            "tile, away from the other figure.",
            "{figure} no puede ir a {target}: elige un camino o una ciudad sin terminar en "
            "otra pieza, lejos de la otra figura.",
        ),
        "mw.err.off": (
            "A figure may be taken off the board only when neither can go anywhere.",
            "Solo se retira una figura del tablero si ninguna de las dos puede ir a ningún sitio.",
        ),
        "mw.err.first": (
            "Place or move the mage or the witch first.",
            "Primero coloca o mueve al mago o a la bruja.",
        ),
    }
)
