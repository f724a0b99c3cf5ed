"""Flying Machines: option keys, the model, the events and the words (English and Spanish, with
the rulebook's terms: *máquina voladora*, *dado especial*, *aterrizar*).

The model (``state.ext["flying_machines"]``) is public: the flight of the tile being played, or
the last one, kept until the next tile is placed so every player sees it on the turn's picture
(the machine's heading, the die, the path and the landing tile), and the seat whose followers a
failed flight keeps off the board until its turn ends (option ``flier.after_failed`` = ``turn``). It is replaced,
never changed in place (clones share it).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.carcassonne.events import Event
from engine.carcassonne.geometry import Position
from engine.core import messages
from engine.core.decisions import Prompt
from engine.core.seats import Seat

ID = "flying_machines"
#: the tile symbol: the machine and its heading in the tile's reference orientation
SYMBOL = "flier"
#: the special die (RULES.md §6.1): faces 1, 1, 2, 2, 3, 3, rolled in public
DIE = "flier.die"
FACES = (1, 1, 2, 2, 3, 3)
#: the spot of a figure put on the machine: ``flier:<heading on the board>`` (``flier:NW``)
SPOT = "flier"

#: who may fly (OQ-FM-1): ``followers`` — a normal or a large follower, as the rulebook's turn
#: summary lists (default); ``all`` — every follower figure, each landing only where it may
#: stand (the mayor in a city, the wagon off fields), as JCloisterZone plays
FIGURES = "flier.figures"
FIGURE_CHOICES = ("followers", "all")
#: the figures the rulebook lets fly (option ``followers``)
FLYING = ("follower", "large")
#: "Durante ese turno, el jugador no puede colocar ningún otro seguidor más" (OQ-FM-5):
#: ``placement`` — a failed flight ends that tile's follower step only (proposal, default);
#: ``turn`` — no other follower for the rest of that turn (the builder's second tile too)
AFTER_FAILED = "flier.after_failed"
AFTER_FAILED_CHOICES = ("placement", "turn")

#: headings, clockwise from north, as unit steps on the board (y grows to the south)
HEADINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
STEP: dict[str, tuple[int, int]] = {
    "N": (0, -1),
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (1, 1),
    "S": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}

#: where a flight stands
BOARDED, LANDING, LANDED, HOME = "boarded", "landing", "landed", "home"
#: why a follower went home: no tile on the landing square; only completed features and fields
NO_TILE, NOWHERE = "no_tile", "nowhere"


def turned(heading: str, rotation: int) -> str:
    """The heading of a machine printed heading ``heading`` on a tile turned clockwise by
    ``rotation`` quarter turns (``turned("NW", 1) == "NE"``)."""
    return HEADINGS[(HEADINGS.index(heading) + 2 * rotation) % 8]


def landing_square(origin: Position, heading: str, distance: int) -> Position:
    """The square ``distance`` tiles from ``origin`` towards ``heading``: on a diagonal, as many
    columns as rows (OQ-FM-6)."""
    dx, dy = STEP[heading]
    return Position(origin.x + dx * distance, origin.y + dy * distance)


@dataclass(frozen=True, slots=True)
class Flight:
    """A follower on a flying machine: whose, which figure, the machine's tile and heading (on
    the board), the die (``0`` before the roll), the landing square, where it stands (boarded,
    landing, landed, home), the spot it landed on and why it went home."""

    seat: Seat
    figure: str
    origin: Position
    heading: str
    roll: int = 0
    target: Position | None = None
    status: str = BOARDED
    spot: str = ""
    reason: str = ""


@dataclass(frozen=True, slots=True)
class FlierModel:
    """The flight of the tile being played or the last one (until the next tile is placed),
    and the seat a failed flight grounded until its turn ends (``flier.after_failed=turn``)."""

    flight: Flight | None = None
    grounded: Seat | None = None


def model_of(ext: dict[str, object]) -> FlierModel:
    """The expansion's model in a state's ``ext``."""
    m = ext[ID]
    assert isinstance(m, FlierModel)
    return m


def _figure(kind: str) -> Prompt | str:
    return Prompt.of(f"fig.{kind}") if messages.has(f"fig.{kind}") else kind


def _direction(heading: str) -> Prompt:
    return Prompt.of(f"flier.dir.{heading}")


@dataclass(frozen=True, slots=True)
class FlierBoarded(Event):
    """A seat put a figure on the flying machine of the tile it placed (it leaves the supply)."""

    seat: Seat
    figure: str
    pos: Position
    heading: str

    def prompt(self) -> Prompt:
        return Prompt.of(
            "flier.boarded",
            seat=self.seat,
            figure=_figure(self.figure),
            cell=self.pos.notation(),
            direction=_direction(self.heading),
        )


@dataclass(frozen=True, slots=True)
class FlierFlew(Event):
    """The die sent the figure ``distance`` tiles towards ``heading`` to ``target``; ``reason``
    says why it goes home (``no_tile``, ``nowhere``), empty when it may land there."""

    seat: Seat
    figure: str
    origin: Position
    heading: str
    distance: int
    target: Position
    reason: str = ""

    def prompt(self) -> Prompt:
        n = "one" if self.distance == 1 else "many"
        key = f"flier.flew.{n}" if not self.reason else f"flier.home.{self.reason}.{n}"
        return Prompt.of(
            key,
            seat=self.seat,
            figure=_figure(self.figure),
            n=self.distance,
            direction=_direction(self.heading),
            cell=self.target.notation(),
        )


@dataclass(frozen=True, slots=True)
class FlierLanded(Event):
    """The figure landed on a road, city or cloister of the landing tile (``kind``)."""

    seat: Seat
    figure: str
    pos: Position
    spot: str
    kind: str

    def prompt(self) -> Prompt:
        return Prompt.of(
            "flier.landed",
            seat=self.seat,
            figure=_figure(self.figure),
            where=Prompt.of(f"flier.where.{self.kind}"),
            cell=self.pos.notation(),
        )


messages.register(
    {
        "exp.flying_machines": ("Flying Machines", "Máquinas voladoras"),
        "symbol.flier": ("flying machine", "máquina voladora"),  # a tile in words
        # the lobby: rule variants in the rulebook's terms
        f"opt.{FIGURES}": ("Who may fly", "Quién puede volar"),
        f"help.{FIGURES}": (
            "a normal or large follower (rulebook), or every follower figure, each landing "
            "only where it may stand (as JCloisterZone plays: mayor, wagon)",
            "un seguidor normal o grande (reglamento), o cualquier figura que sea seguidor, "
            "que solo aterriza donde puede estar (como juega JCloisterZone: alcalde, carromato)",
        ),
        f"choice.{FIGURES}.followers": (
            "normal and large followers",
            "seguidores normales y grandes",
        ),
        f"choice.{FIGURES}.all": ("every follower figure", "toda figura seguidor"),
        f"opt.{AFTER_FAILED}": ("After a failed flight", "Tras un vuelo fallido"),
        f"help.{AFTER_FAILED}": (
            "the follower goes back to the supply and no other follower goes on that tile "
            "(proposal), or none for the rest of the turn, the builder's second tile included "
            "(«durante ese turno»)",
            "el seguidor vuelve a la reserva y no se coloca ningún otro seguidor en esa pieza "
            "(propuesta), o ninguno durante el resto del turno, segunda pieza del constructor "
            "incluida («durante ese turno»)",
        ),
        f"choice.{AFTER_FAILED}.placement": ("none on that tile", "ninguno en esa pieza"),
        f"choice.{AFTER_FAILED}.turn": ("none all turn", "ninguno en todo el turno"),
        # the machine as a spot (``flier:NW``): Discord and the console word it by its kind
        "kind_flier": ("flying machine", "máquina voladora"),
        "place.kind.flier": ("flying machine", "máquina voladora"),
        # the decision
        "flier.land": (
            "The die shows {n}: your {figure} flies to {cell}. Choose the unfinished road, "
            "city or cloister it lands on.",
            "El dado marca {n}: tu {figure} vuela hasta {cell}. Elige el camino, la ciudad o "
            "el claustro sin completar donde aterriza.",
        ),
        "open.flier.land": ("Choose where it lands", "Elige dónde aterriza"),
        # events
        "flier.boarded": (
            "{seat} puts a {figure} on the flying machine at {cell}, heading {direction}, and "
            "rolls the special die.",
            "{seat} coloca un {figure} sobre la máquina voladora de {cell}, rumbo {direction}, "
            "y tira el dado especial.",
        ),
        "flier.flew.one": (
            "{seat}'s {figure} flies 1 tile {direction}, to {cell}.",
            "El {figure} de {seat} vuela 1 pieza hacia el {direction}, hasta {cell}.",
        ),
        "flier.flew.many": (
            "{seat}'s {figure} flies {n} tiles {direction}, to {cell}.",
            "El {figure} de {seat} vuela {n} piezas hacia el {direction}, hasta {cell}.",
        ),
        "flier.home.no_tile.one": (
            "{seat}'s {figure} flies 1 tile {direction}, to {cell}, but there is no tile there: "
            "it goes back to the supply.",
            "El {figure} de {seat} vuela 1 pieza hacia el {direction}, hasta {cell}, pero ahí "
            "no hay ninguna pieza: vuelve a la reserva.",
        ),
        "flier.home.no_tile.many": (
            "{seat}'s {figure} flies {n} tiles {direction}, to {cell}, but there is no tile "
            "there: it goes back to the supply.",
            "El {figure} de {seat} vuela {n} piezas hacia el {direction}, hasta {cell}, pero "
            "ahí no hay ninguna pieza: vuelve a la reserva.",
        ),
        "flier.home.nowhere.one": (
            "{seat}'s {figure} flies 1 tile {direction}, to {cell}, which has only completed "
            "features and fields: it goes back to the supply.",
            "El {figure} de {seat} vuela 1 pieza hacia el {direction}, hasta {cell}, donde solo "
            "hay construcciones completadas y campos: vuelve a la reserva.",
        ),
        "flier.home.nowhere.many": (
            "{seat}'s {figure} flies {n} tiles {direction}, to {cell}, which has only "
            "completed features and fields: it goes back to the supply.",
            "El {figure} de {seat} vuela {n} piezas hacia el {direction}, hasta {cell}, donde "
            "solo hay construcciones completadas y campos: vuelve a la reserva.",
        ),
        "flier.landed": (
            "{seat}'s {figure} lands on {where} at {cell}.",
            "El {figure} de {seat} aterriza en {where} de {cell}.",
        ),
        "flier.where.road": ("the road", "el camino"),
        "flier.where.city": ("the city", "la ciudad"),
        "flier.where.cloister": ("the cloister", "el claustro"),
        **{
            f"flier.dir.{h}": words
            for h, words in zip(
                HEADINGS,
                (
                    ("north", "norte"),
                    ("north-east", "noreste"),
                    ("east", "este"),
                    ("south-east", "sureste"),
                    ("south", "sur"),
                    ("south-west", "suroeste"),
                    ("west", "oeste"),
                    ("north-west", "noroeste"),
                ),
                strict=True,
            )
        },
        # refusals (one line each)
        "flier.err.land_first": (
            "Your follower is in the air: choose where it lands first.",
            "Tu seguidor está en el aire: primero elige dónde aterriza.",
        ),
        "flier.err.not_a_landing": (
            "'{spot}' is not where it may land; it may land on {names}.",
            "'{spot}' no es un lugar de aterrizaje; puede aterrizar en {names}.",
        ),
        "flier.err.grounded": (
            "Your flight failed this turn: no other follower until your turn ends.",
            "Tu vuelo ha fallado en este turno: ningún otro seguidor hasta que acabe tu turno.",
        ),
    }
)
