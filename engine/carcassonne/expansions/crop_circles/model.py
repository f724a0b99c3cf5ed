"""Crop Circles: the names, the round's model, the events and the words (English and Spanish,
with the rulebook's terms: *círculo en los cultivos*, *horca*, *maza*, *escudo*).

The model (``state.ext["crop_circles"]``) is public and says what the round under way asks
(the kind of feature of the tile's symbol and option A or B); it is ``CropModel()`` between
rounds. It is replaced, never changed in place (clones share it).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.carcassonne.events import Event
from engine.carcassonne.geometry import Position
from engine.carcassonne.tiles import FeatureKind
from engine.core import messages
from engine.core.decisions import Prompt
from engine.core.seats import Seat

ID = "crop_circles"
#: the tile symbol (``crop_circle = "shield"`` in the tile files)
SYMBOL = "crop_circle"
#: the active seat's choice of option A or B, and the round of every seat in turn order
CHOOSE_STEP = "cc.choose"
ROUND_STEP = "cc.round"
#: the lobby options: which of the two official tile sets go in the pile (RULES.md §12.1)
SET_I = "cc.set_i"
SET_II = "cc.set_ii"
#: the tile files of the two sets
FILE_I = "crop_circles_1"
FILE_II = "crop_circles_2"

#: option A adds a follower beside one of one's own; option B takes one back
ADD = "a"
REMOVE = "b"
MODES = (ADD, REMOVE)

#: the symbol's kind of feature (RULES.md §12.1: shield → knights, club → thieves,
#: pitchfork → farmers)
KINDS: dict[str, FeatureKind] = {
    "shield": FeatureKind.CITY,
    "club": FeatureKind.ROAD,
    "pitchfork": FeatureKind.FIELD,
}


@dataclass(frozen=True, slots=True)
class CropModel:
    """The round under way: the symbol of the crop circle and the option chosen (``""``
    while the active seat chooses or between rounds)."""

    symbol: str = ""
    mode: str = ""

    @property
    def kind(self) -> FeatureKind | None:
        return KINDS.get(self.symbol)


def model_of(ext: dict[str, object]) -> CropModel:
    m = ext[ID]
    assert isinstance(m, CropModel)
    return m


@dataclass(frozen=True, slots=True)
class OptionChosen(Event):
    """The active seat chose option A or B for the crop circle's symbol."""

    seat: Seat
    symbol: str
    mode: str

    def prompt(self) -> Prompt:
        return Prompt.of(
            f"cc.chose.{self.mode}",
            seat=self.seat,
            symbol=Prompt.of(f"symbol.{SYMBOL}.{self.symbol}"),
            who=Prompt.of(f"cc.who.{self.symbol}"),
            whos=Prompt.of(f"cc.whos.{self.symbol}"),
        )


@dataclass(frozen=True, slots=True)
class FollowerTakenBack(Event):
    """Option B: a seat took one of its figures back from ``spot`` of the tile at ``pos``."""

    seat: Seat
    figure: str
    pos: Position
    spot: str

    def prompt(self) -> Prompt:
        return Prompt.of(
            "cc.took_back",
            seat=self.seat,
            figure=Prompt.of(f"fig.{self.figure}"),
            cell=self.pos.notation(),
        )


@dataclass(frozen=True, slots=True)
class SeatSkipped(Event):
    """A seat had nothing to do in the round (no follower of the kind, or for option A an
    empty supply) and was skipped."""

    seat: Seat
    symbol: str
    mode: str

    def prompt(self) -> Prompt:
        return Prompt.of(
            f"cc.skipped.{self.mode}", seat=self.seat, who=Prompt.of(f"cc.who.{self.symbol}")
        )


@dataclass(frozen=True, slots=True)
class SeatPassed(Event):
    """Option A: a seat could add a follower and chose not to."""

    seat: Seat

    def prompt(self) -> Prompt:
        return Prompt.of("cc.passed", seat=self.seat)


messages.register(
    {
        "exp.crop_circles": ("Crop Circles", "Círculos en los cultivos"),
        "symbol.crop_circle": ("crop circle", "círculo en los cultivos"),
        "symbol.crop_circle.shield": ("shield", "escudo"),
        "symbol.crop_circle.club": ("club", "maza"),
        "symbol.crop_circle.pitchfork": ("pitchfork", "horca"),
        "cc.who.shield": ("knight", "caballero"),
        "cc.who.club": ("thief", "ladrón"),
        "cc.who.pitchfork": ("farmer", "granjero"),
        "cc.whos.shield": ("knights", "caballeros"),
        "cc.whos.club": ("thieves", "ladrones"),
        "cc.whos.pitchfork": ("farmers", "granjeros"),
        # the lobby
        f"opt.{SET_I}": (
            "Crop Circles tiles of 2010",
            "Piezas de Círculos en los cultivos de 2010",
        ),
        f"help.{SET_I}": (
            "the six tiles of the 2010 set in the pile (with the 2012 set too if both are on)",
            "las seis piezas de la edición de 2010 en la pila (con las de 2012 si ambas están)",
        ),
        f"opt.{SET_II}": (
            "Crop Circles tiles of 2012",
            "Piezas de Círculos en los cultivos de 2012",
        ),
        f"help.{SET_II}": (
            "the six tiles of the 2012 set, one from each mini expansion (also used when "
            "neither set is on)",
            "las seis piezas de la edición de 2012, una de cada miniexpansión (también si no "
            "se elige ninguna)",
        ),
        # the active seat's choice
        CHOOSE_STEP: (
            "Crop circle ({symbol}): choose option A (each player may add a {who} beside one "
            "of theirs) or B (each player must take one of their {whos} back).",
            "Círculo en los cultivos ({symbol}): elige la opción A (cada jugador puede colocar "
            "un {who} al lado de uno propio) o la B (cada jugador debe recuperar uno de sus "
            "{whos}).",
        ),
        f"open.{CHOOSE_STEP}": ("Choose A or B", "Elige A o B"),
        f"{CHOOSE_STEP}.{ADD}": ("A: add a {who}", "A: colocar un {who}"),
        f"{CHOOSE_STEP}.{REMOVE}": ("B: take a {who} back", "B: recuperar un {who}"),
        # every seat's answer
        f"{ROUND_STEP}.{ADD}": (
            "Crop circle, option A: you may put a figure from your supply beside one of your "
            "{whos}.",
            "Círculo en los cultivos, opción A: puedes colocar un seguidor de tu reserva al "
            "lado de uno de tus {whos}.",
        ),
        f"{ROUND_STEP}.{REMOVE}": (
            "Crop circle, option B: take one of your {whos} back to your supply.",
            "Círculo en los cultivos, opción B: recupera a tu reserva uno de tus {whos}.",
        ),
        f"open.{ROUND_STEP}": ("Answer the crop circle", "Responde al círculo en los cultivos"),
        # events
        f"cc.chose.{ADD}": (
            "{seat} chooses option A ({symbol}): every player in turn may add a {who}.",
            "{seat} elige la opción A ({symbol}): cada jugador por turno puede colocar un {who}.",
        ),
        f"cc.chose.{REMOVE}": (
            "{seat} chooses option B ({symbol}): every player in turn takes a {who} back.",
            "{seat} elige la opción B ({symbol}): cada jugador por turno recupera un {who}.",
        ),
        "cc.took_back": (
            "{seat} takes their {figure} on {cell} back.",
            "{seat} recupera su {figure} de {cell}.",
        ),
        f"cc.skipped.{ADD}": (
            "{seat} has no {who} to add one beside (or no follower left) and is skipped.",
            "{seat} no tiene ningún {who} junto al que colocar otro (o no le quedan "
            "seguidores) y se salta.",
        ),
        f"cc.skipped.{REMOVE}": (
            "{seat} has no {who} on the board and is skipped.",
            "{seat} no tiene ningún {who} sobre el tablero y se salta.",
        ),
        "cc.passed": ("{seat} adds no follower.", "{seat} no coloca ningún seguidor."),
        # the strip under the board while a round is under way
        "cc.strip.choose": (
            "Crop circle ({symbol}): option A (add) or B (take back) for {whos}?",
            "Círculo en los cultivos ({symbol}): ¿opción A (colocar) o B (recuperar) para {whos}?",
        ),
        f"cc.strip.{ADD}": (
            "Crop circle ({symbol}), option A: each player in turn may add one beside their {whos}",
            "Círculo en los cultivos ({symbol}), opción A: cada jugador por turno puede colocar "
            "uno al lado de sus {whos}",
        ),
        f"cc.strip.{REMOVE}": (
            "Crop circle ({symbol}), option B: each player in turn takes one of their {whos} back",
            "Círculo en los cultivos ({symbol}), opción B: cada jugador por turno recupera uno "
            "de sus {whos}",
        ),
        # refusals (one line each)
        "cc.err.choose": (
            "'{value}' is not an option: choose a or b.",
            "'{value}' no es una opción: elige a o b.",
        ),
        "cc.err.choose_first": (
            "Choose option A or B for the crop circle first.",
            "Primero elige la opción A o la B del círculo en los cultivos.",
        ),
        "cc.err.not_offered": (
            "'{value}' is not one of your {whos} you may answer with; choose one of {names}.",
            "'{value}' no es uno de tus {whos} con los que puedes responder; elige uno de {names}.",
        ),
        "cc.err.must_remove": (
            "Option B is not optional: take one of your {whos} back.",
            "La opción B es obligatoria: recupera uno de tus {whos}.",
        ),
        "cc.err.answer_first": (
            "Answer the crop circle first.",
            "Primero responde al círculo en los cultivos.",
        ),
    }
)
