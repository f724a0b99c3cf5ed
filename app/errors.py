"""The services' one error type, its keys, and the words of their own messages.

A :class:`ServiceError` is a user-caused problem the front end shows as a friendly ephemeral
message; ``key`` picks its localised text (words/i18n.py).
"""

from __future__ import annotations

from typing import Any

from engine.core import messages
from engine.core.errors import EngineError
from engine.core.messages import Phrase


class ServiceError(Exception):
    """A user-caused problem the front end shows as a friendly ephemeral message.

    ``key`` picks the localised text (words/i18n.py); ``params`` fill it in; ``str()`` is English.
    """

    def __init__(self, key: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.key = key
        self.params = params

    def reason(self, lang: str = "en") -> str:
        """The ``reason`` of an ERR_ILLEGAL in ``lang``: an engine error's words or a
        :class:`~engine.core.messages.Phrase` in that language, else the English text."""
        error = self.params.get("error")
        if isinstance(error, EngineError):
            return error.text(lang)
        reason = self.params.get("reason", str(self))
        return reason.text(lang) if isinstance(reason, Phrase) else str(reason)


# keys used with ServiceError (each has an English and a Spanish text in words/i18n.py)
ERR_MATCH_EXISTS = "match_exists"  # a lobby or match already runs here (params: url?, game)
ERR_NO_MATCH = "no_match"  # nothing running in this channel
ERR_OTHER_GAME = "other_game"  # the other game runs in this channel (params: game)
ERR_NOT_SEATED = "not_seated"  # user is not a player of this match
ERR_NOT_YOUR_TURN = "not_your_turn"  # params: current_user_id
ERR_LOBBY_FULL = "lobby_full"
ERR_ALREADY_JOINED = "already_joined"
ERR_NOT_IN_LOBBY = "not_in_lobby"  # the user is not one of the lobby's players
ERR_NOT_HOST = "not_host"
ERR_TOO_FEW = "too_few_players"
ERR_STALE = "stale"  # params: message_url (link to the current turn message) if known
ERR_ILLEGAL = "illegal"  # params: reason (English), error (the EngineError): see .reason(lang)
ERR_NO_UNDO = "no_undo"
ERR_ALREADY_STARTED = "already_started"
# ERR_BAD_INPUT (app/guard.py): a call whose arguments do not fit the service's types


def message_url(guild_id: int, channel_id: int, message_id: int | None) -> str | None:
    if message_id is None:
        return None
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


def illegal(reason: str | EngineError) -> ServiceError:
    """ERR_ILLEGAL: an engine error travels with it (``params["error"]``) and a
    :class:`~engine.core.messages.Phrase` stays one, so a front end shows either in the
    player's language (:meth:`ServiceError.reason`); ``params["reason"]`` is English."""
    if isinstance(reason, EngineError):
        return ServiceError(ERR_ILLEGAL, str(reason), reason=str(reason), error=reason)
    return ServiceError(ERR_ILLEGAL, reason, reason=reason)


messages.register(
    {
        "svc.joined_already": (
            "{n} players have joined already.",
            "Ya se han unido {n} jugadores.",
        ),
        "svc.no_action": ("No action given.", "No se ha indicado ninguna acción."),
        "svc.game_over": ("The game is over.", "La partida ha terminado."),
        "svc.no_replay": (
            "This match can no longer be replayed ({error}); abandon it to start anew.",
            "Esta partida ya no se puede reproducir ({error}); abandónala para empezar otra.",
        ),
        "svc.card_players": (
            "The card game needs {low}–{high} players.",
            "El juego de cartas necesita de {low} a {high} jugadores.",
        ),
        "svc.card_clock": (
            "The clock must be one of {clocks}, and the missed moves 1-99.",
            "El reloj debe ser uno de {clocks}, y las jugadas perdidas de 1 a 99.",
        ),
        "svc.ai_level": (
            "An AI plays at one of these levels: {levels}.",
            "Una IA juega en uno de estos niveles: {levels}.",
        ),
        "svc.vote_who": (
            "That player is not playing their own seat in this match.",
            "Ese jugador no está jugando su propio asiento en esta partida.",
        ),
        "svc.vote_self": (
            "You cannot vote yourself out: use `/carcassonne away`.",
            "No puedes votarte a ti mismo: usa `/carcassonne ausente` (en inglés `away`).",
        ),
        "svc.vote_not_turn": (
            "It is not that player's move: only a silent player can be voted out.",
            "No es el turno de ese jugador: solo se puede votar a quien no juega.",
        ),
        "svc.vote_soon": (
            "Give them {minutes} minutes on their move before voting.",
            "Dale {minutes} minutos en su jugada antes de votar.",
        ),
    }
)
messages.register_lang(
    "de",
    {
        "svc.joined_already": "Es sind schon {n} Spielende beigetreten.",
        "svc.no_action": "Kein Zug angegeben.",
        "svc.game_over": "Das Spiel ist vorbei.",
        "svc.no_replay": (
            "Diese Partie lässt sich nicht mehr nachspielen ({error}); brich sie ab und "
            "beginne neu."
        ),
        "svc.card_players": "Das Kartenspiel braucht {low}–{high} Spielende.",
        "svc.ai_level": "Eine KI spielt auf einer dieser Stufen: {levels}.",
        "svc.card_clock": "Die Uhr muss eine von {clocks} sein, die verpassten Züge 1-99.",
        "svc.vote_who": "Diese Person spielt in dieser Partie nicht ihren eigenen Platz.",
        "svc.vote_self": "Du kannst dich nicht selbst abwählen: nutze `/carcassonne abwesend`.",
        "svc.vote_not_turn": (
            "Diese Person ist nicht am Zug: nur wer schweigt, kann abgewählt werden."
        ),
        "svc.vote_soon": "Gib ihr {minutes} Minuten für ihren Zug, bevor ihr abstimmt.",
    },
)
