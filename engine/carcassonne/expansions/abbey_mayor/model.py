"""Abbey & Mayor: option keys, the expansion's model, its events and its words (EN/ES).

The model (``state.ext["abbey_mayor"]``) is public: abbey tiles still held, the barns on the
board and the wagons waiting to move after a scoring. It is replaced, never changed in place
(clones share it).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.carcassonne.events import Event
from engine.carcassonne.geometry import Position
from engine.core import messages
from engine.core.decisions import Prompt
from engine.core.seats import Seat

ID = "abbey_mayor"

#: the four parts, switched separately as JCloisterZone's elements (all on by default)
ABBEY = "am.abbey"
MAYOR = "am.mayor"
BARN = "am.barn"
WAGON = "am.wagon"
#: where a wagon may move after its feature scores: ``road`` (RULES.md OQ-WAG-1: a feature
#: linked to it by a road) or ``near`` (JCloisterZone 5's default: any feature on the wagon's
#: tile or the 8 around it)
WAGON_MOVE = "am.wagon_move"
WAGON_MOVES = ("road", "near")
#: RULES.md §14.1 rule 6 (off by default, JCloisterZone plays it): once the last tile's turn is
#: over, each seat in turn order from the next one may play its abbey into a hole
FINAL_ABBEYS = "am.final_abbeys"

#: figure kinds
MAYOR_FIG, BARN_FIG, WAGON_FIG = "mayor", "barn", "wagon"
#: the abbey tile (held by the players, never in the pile)
ABBEY_TILE = "AM/A"

#: points per completed city: the barn placed (its farm's farmers), a farm joined to a barn
#: farm (its farmers), each barn at the end (its owner) — RULES.md §14.3
BARN_PLACED_RATE, BARN_JOINED_RATE, BARN_FINAL_RATE = 3, 1, 4


messages.register(
    {
        "exp.abbey_mayor": ("Abbey & Mayor", "La Abadía y el Alcalde"),
        f"opt.{ABBEY}": ("Abbey", "Abadía"),
        f"help.{ABBEY}": (
            "each player has an abbey tile to fill a hole instead of drawing",
            "cada jugador tiene una abadía para rellenar un hueco en vez de robar",
        ),
        f"opt.{MAYOR}": ("Mayor", "Alcalde"),
        f"help.{MAYOR}": (
            "each player has a mayor (counts the city's pennants)",
            "cada jugador tiene un alcalde (cuenta los pendones de la ciudad)",
        ),
        f"opt.{BARN}": ("Barn", "Establo"),
        f"help.{BARN}": (
            "each player has a barn for a corner where four fields meet",
            "cada jugador tiene un establo para una esquina donde se juntan cuatro campos",
        ),
        f"opt.{WAGON}": ("Wagon", "Carromato"),
        f"help.{WAGON}": (
            "each player has a wagon that may move on after its feature scores",
            "cada jugador tiene un carromato que puede seguir tras puntuar",
        ),
        f"opt.{WAGON_MOVE}": ("Wagon moves", "Movimiento del carromato"),
        f"help.{WAGON_MOVE}": (
            "along a road: to a feature linked by a road (rulebook); to a nearby tile: to any "
            "feature on the same or an adjacent tile (as JCloisterZone plays)",
            "por un camino: a una zona unida por un camino (reglamento); a una pieza cercana: a "
            "cualquier zona de la misma pieza o de una vecina (como juega JCloisterZone)",
        ),
        f"opt.{FINAL_ABBEYS}": ("Abbeys after the last tile", "Abadías tras la última pieza"),
        f"help.{FINAL_ABBEYS}": (
            "after the last tile each player in turn may still play their abbey into a hole, "
            "then the game is scored (as JCloisterZone plays)",
            "tras la última pieza cada jugador por turno aún puede colocar su abadía en un "
            "hueco, y luego se puntúa la partida (como juega JCloisterZone)",
        ),
        f"choice.{WAGON_MOVE}.road": ("along a road", "por un camino"),
        f"choice.{WAGON_MOVE}.near": ("to a nearby tile", "a una pieza cercana"),
        "fig.mayor": ("mayor", "alcalde"),
        "fig.barn": ("barn", "establo"),
        "fig.wagon": ("wagon", "carromato"),
        "kind_corner": ("corner", "esquina"),
        # decisions
        "am.abbey": (
            "Play your abbey into a hole instead of drawing a tile, or pass to draw.",
            "Coloca tu abadía en un hueco en vez de robar una pieza, o pasa para robar.",
        ),
        "am.abbey.final": (
            "The last tile is placed: play your abbey into a hole, or pass.",
            "Ya se ha colocado la última pieza: coloca tu abadía en un hueco, o pasa.",
        ),
        "am.wagon": (
            "Your wagon comes back from {feature}: move it on to a connected unfinished road, "
            "city or cloister, or pass to keep it.",
            "Tu carromato vuelve de {feature}: llévalo a un camino, ciudad o claustro sin "
            "terminar conectado, o pasa para quedártelo.",
        ),
        "am.where.road": ("the road", "el camino"),
        "am.where.city": ("the city", "la ciudad"),
        "am.where.cloister": ("the cloister", "el claustro"),
        # events and counters
        "am.abbey_played": (
            "{seat} plays their abbey at {cell}.",
            "{seat} coloca su abadía en {cell}.",
        ),
        "am.wagon_moved": (
            "{seat}'s wagon moves on to {kind} at {cell}.",
            "El carromato de {seat} avanza hasta {kind} en {cell}.",
        ),
        "am.abbeys_held": ("abbey: {n}", "abadía: {n}"),
        # score parts
        "part.barn_placed.one": (
            "barn placed: 1 completed city × {k}",
            "establo colocado: 1 ciudad completada × {k}",
        ),
        "part.barn_placed.many": (
            "barn placed: {n} completed cities × {k}",
            "establo colocado: {n} ciudades completadas × {k}",
        ),
        "part.barn_joined.one": (
            "joined to a barn's farm: 1 completed city × {k}",
            "unida a la granja de un establo: 1 ciudad completada × {k}",
        ),
        "part.barn_joined.many": (
            "joined to a barn's farm: {n} completed cities × {k}",
            "unida a la granja de un establo: {n} ciudades completadas × {k}",
        ),
        "part.barn_final.one": (
            "barn: 1 completed city × {k}",
            "establo: 1 ciudad completada × {k}",
        ),
        "part.barn_final.many": (
            "barn: {n} completed cities × {k}",
            "establo: {n} ciudades completadas × {k}",
        ),
        "part.mayor_no_pennants": (
            "a mayor in a city without pennants counts 0: 0",
            "un alcalde en una ciudad sin pendones cuenta 0: 0",
        ),
        # refusals
        "am.err.no_abbey": ("You have no abbey left.", "No te queda ninguna abadía."),
        "am.err.not_a_hole": (
            "The abbey only goes into an empty cell with tiles on all four sides; {cell} is not "
            "one.",
            "La abadía solo va en una casilla vacía con piezas en sus cuatro lados; {cell} no "
            "lo es.",
        ),
        "am.err.abbey_answer": (
            "Answer with a cell, as in 'am.abbey 2,-1', or pass to draw a tile.",
            "Responde con una casilla, como 'am.abbey 2,-1', o pasa para robar una pieza.",
        ),
        "am.err.wagon_target": (
            "Your wagon cannot move to {target}: it must be an unfinished road, city or "
            "cloister with no figure, connected to the feature just scored.",
            "Tu carromato no puede ir a {target}: debe ser un camino, ciudad o claustro sin "
            "terminar, sin figuras y conectado con la zona recién puntuada.",
        ),
        "am.err.wagon_answer": (
            "Answer with a spot on a tile, as in 'am.wagon 2,-1@road:EW', or pass.",
            "Responde con un lugar de una pieza, como 'am.wagon 2,-1@road:EW', o pasa.",
        ),
        "am.err.barn_corner": (
            "The barn goes only on a corner of the tile you placed where four fields meet, in "
            "a farm without a barn.",
            "El establo solo va en una esquina de la pieza que has colocado donde se juntan "
            "cuatro campos, en una granja sin establo.",
        ),
        "am.err.mayor_city": (
            "The mayor goes only into a city.",
            "El alcalde solo va en una ciudad.",
        ),
        "am.err.wagon_field": (
            "The wagon never goes on a field.",
            "El carromato nunca va en un campo.",
        ),
        "am.err.barn_farm": (
            "No figure may go into a farm with a barn.",
            "No se puede poner ninguna figura en una granja con establo.",
        ),
        "am.err.wait_abbey": (
            "Play your abbey or pass to draw a tile first.",
            "Primero coloca tu abadía o pasa para robar una pieza.",
        ),
        "am.err.wait_wagon": (
            "Move your wagon or pass first.",
            "Primero mueve tu carromato o pasa.",
        ),
    }
)


@dataclass(frozen=True, slots=True)
class Barn:
    """A barn on the board: its owner, the corner it stands on (the north-west corner of cell
    ``corner``) and a segment of its farm (the farm is ``board.root[seg]``)."""

    seat: Seat
    corner: tuple[int, int]
    seg: int


@dataclass(frozen=True, slots=True)
class WagonWaiting:
    """A wagon whose feature just scored: its owner, a segment of that feature and the tile it
    stood on; its owner may move it on (RULES.md §14.4.3)."""

    seat: Seat
    seg: int
    pos: Position


@dataclass(frozen=True, slots=True)
class AbbeyMayorModel:
    """Abbey tiles each seat still holds, the barns on the board (``fresh``: the barn placed by
    the tile being played, scored in its scoring step), the wagons waiting to move and where
    the end-of-game abbey round ends."""

    abbeys: tuple[int, ...]
    barns: tuple[Barn, ...] = ()
    fresh: Barn | None = None
    wagons: tuple[WagonWaiting, ...] = ()
    #: the end-of-game abbey round (``am.final_abbeys``): once it has begun, the seat that
    #: placed the last tile, who is asked last
    round_end: int | None = None


@dataclass(frozen=True, slots=True)
class AbbeyPlayed(Event):
    """A seat played its abbey into a hole instead of drawing."""

    seat: Seat
    pos: Position

    def prompt(self) -> Prompt:
        return Prompt.of("am.abbey_played", seat=self.seat, cell=self.pos.notation())


@dataclass(frozen=True, slots=True)
class WagonMoved(Event):
    """A wagon moved on after its feature scored (``kind``: road, city or cloister)."""

    seat: Seat
    pos: Position
    spot: str
    kind: str

    def prompt(self) -> Prompt:
        return Prompt.of(
            "am.wagon_moved",
            seat=self.seat,
            cell=self.pos.notation(),
            kind=Prompt.of(f"am.where.{self.kind}"),
        )


def model_of(state_ext: dict[str, object]) -> AbbeyMayorModel:
    """The expansion's model in a state's ``ext``."""
    m = state_ext[ID]
    assert isinstance(m, AbbeyMayorModel)
    return m
