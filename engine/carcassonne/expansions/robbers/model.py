"""Robbers: the model, the events and the words (English and Spanish, with the rulebook's
terms: *ladrón*, *marcador de puntuación*, *robar puntos*).

A robber is a standing figure on the scoring track (``state.track``, kind :data:`ROBBER`, its
value a space 0–49); in the seat's supply when it is not there. The model
(``state.ext["robbers"]``) is public and holds only what the track does not: the steals noted
during the current tile placement (RULES.md OQ-ROB-6 step 1) and how many placements are
noting (a Message-7 tile is a placement inside a placement). It is replaced, never changed in
place (clones share it).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.carcassonne.events import Event
from engine.carcassonne.scoring import Award
from engine.core import messages
from engine.core.decisions import Prompt
from engine.core.seats import Seat

ID = "robbers"
#: the tile symbol and the figure on the track
SYMBOL = "robber"
ROBBER = "robber"
#: the steps: placing (a decision), opening the noting, settling (decisions: which award to
#: take half of, which figure to follow)
PLACE_STEP = "robbers.place"
OPEN_STEP = "robbers.open"
STEAL_STEP = "robbers.steal"
FOLLOW = "robbers.follow"
#: the score category of robber points
CATEGORY = "robber"
#: the option: who may place a robber after the active player (OQ-ROB-5)
OFFER = "robbers.offer"
OFFERS = ("next", "each")


def half(points: int) -> int:
    """A robber's share: half, rounded up (RULES.md §11.3 rule 1).

    >>> [half(p) for p in (1, 2, 3, 4, 5, 6, 13)]
    [1, 1, 2, 2, 3, 3, 7]
    """
    return (points + 1) // 2


@dataclass(frozen=True, slots=True)
class Note:
    """An award that moved ``victim``'s scoring figure ``figure`` away from the space of
    ``robber``'s robber (the robber's owner), noted until the robbers are collected."""

    robber: Seat
    victim: Seat
    figure: str
    points: int
    award: Award


@dataclass(frozen=True, slots=True)
class RobbersModel:
    """The steals noted in this tile placement, and how many placements are noting."""

    notes: tuple[Note, ...] = ()
    noting: int = 0

    def of(self, seat: Seat) -> tuple[tuple[int, Note], ...]:
        """``seat``'s robber's notes with their indices."""
        return tuple((i, n) for i, n in enumerate(self.notes) if n.robber == seat)


#: the models without notes, by how many placements are noting: the open and collect steps
#: of every placement change only the count, and take one of these (no constructor call)
QUIET = tuple(RobbersModel((), n) for n in range(4))


def model_of(ext: dict[str, object]) -> RobbersModel:
    m = ext[ID]
    assert isinstance(m, RobbersModel)
    return m


@dataclass(frozen=True, slots=True)
class RobberStole(Event):
    """``seat``'s robber took ``points`` of the ``of`` points ``victim_seat`` scored."""

    seat: Seat
    victim_seat: Seat
    points: int
    of: int

    def prompt(self) -> Prompt:
        return Prompt.of(
            "robbers.stole", seat=self.seat, victim_seat=self.victim_seat, n=self.points, of=self.of
        )


@dataclass(frozen=True, slots=True)
class RobberFollowed(Event):
    """``seat``'s robber moved along with ``victim_seat``'s figure, which only took robber
    points, to ``space`` (RULES.md §11.3 rule 3)."""

    seat: Seat
    victim_seat: Seat
    space: int

    def prompt(self) -> Prompt:
        return Prompt.of(
            "robbers.followed", seat=self.seat, victim_seat=self.victim_seat, space=self.space
        )


@dataclass(frozen=True, slots=True)
class RobbersRemoved(Event):
    """Before final scoring every robber still on the track goes home (OQ-ROB-1)."""

    n: int

    def prompt(self) -> Prompt:
        return Prompt.of("robbers.removed", n=self.n)


messages.register(
    {
        "exp.robbers": ("Robbers", "Ladrones"),
        # the rulebook's «símbolo de ladrón»: kept apart from the base game's thief (ladrón)
        "symbol.robber": ("robber", "símbolo de ladrón"),
        "fig.robber": ("robber", "ladrón"),
        "score.robber": ("robber", "ladrón"),
        "part.robber": (
            "half of {victim_seat}'s {of}, rounded up: {n}",
            "la mitad de los {of} de {victim_seat}, redondeando hacia arriba: {n}",
        ),
        f"opt.{OFFER}": ("Robber offer", "Oferta de ladrón"),
        f"help.{OFFER}": (
            "after the active player, only the next player with a robber in front of them may "
            "place it (rulebook 001), or each other player in turn (English rules)",
            "tras el jugador activo, solo el siguiente jugador con su ladrón delante puede "
            "colocarlo (reglamento 001), o cada uno de los demás por turno (reglas inglesas)",
        ),
        f"choice.{OFFER}.next": ("the next player", "el siguiente jugador"),
        f"choice.{OFFER}.each": ("each other player", "cada uno de los demás"),
        "robbers.supply": ("robber in front", "ladrón delante"),
        "robbers.on_track": ("robber on space {space}", "ladrón en la casilla {space}"),
        # the decisions
        PLACE_STEP: (
            "Put your robber next to another player's scoring marker, or pass.",
            "Coloca tu ladrón junto al marcador de puntuación de otro jugador, o pasa.",
        ),
        f"open.{PLACE_STEP}": ("Place your robber", "Coloca tu ladrón"),
        "robbers.space": ("space {space}", "casilla {space}"),
        STEAL_STEP: (
            "Your robber steals once: choose which score to take half of.",
            "Tu ladrón roba una vez: elige de qué puntuación tomar la mitad.",
        ),
        f"open.{STEAL_STEP}": ("Choose what your robber steals", "Elige qué roba tu ladrón"),
        "robbers.take": (
            "half of {victim_seat}'s {of}: {n}",
            "la mitad de los {of} de {victim_seat}: {n}",
        ),
        "robbers.take_with": (
            "half of {victim_seat}'s {of}: {n}, on your {figure}",
            "la mitad de los {of} de {victim_seat}: {n}, con tu {figure}",
        ),
        "robbers.marker": ("scoring marker", "marcador de puntuación"),
        FOLLOW: (
            "Your robber moves along: choose which figure it follows.",
            "Tu ladrón se mueve: elige a qué figura sigue.",
        ),
        f"open.{FOLLOW}": ("Move your robber along", "Mueve tu ladrón"),
        # events
        "robbers.stole": (
            "{seat}'s robber takes {n} of {victim_seat}'s {of}.",
            "El ladrón de {seat} roba {n} de los {of} de {victim_seat}.",
        ),
        "robbers.followed": (
            "{seat}'s robber moves along with {victim_seat}'s figure to space {space}.",
            "El ladrón de {seat} se mueve con la figura de {victim_seat} a la casilla {space}.",
        ),
        "robbers.removed": (
            "{n} {n:robber|robbers} left on the scoring track {n:goes|go} home.",
            "{n} {n:ladrón vuelve|ladrones vuelven} del marcador de puntuación.",
        ),
        # refusals (one line each)
        "robbers.err.space": (
            "Space '{space}' holds no other player's scoring figure; choose one of {names}.",
            "La casilla '{space}' no tiene ninguna figura de puntuación de otro jugador; elige "
            "una de {names}.",
        ),
        "robbers.err.choice": (
            "'{value}' is not one of the choices; choose one of {names}.",
            "'{value}' no es una de las opciones; elige una de {names}.",
        ),
        "robbers.err.first": (
            "Decide about your robber first.",
            "Primero decide sobre tu ladrón.",
        ),
    }
)
