"""English and Spanish texts of the card game (``/cardgame``), same shape as :mod:`words.i18n`.

:func:`tc` looks a key up here first and falls back to the tile game's texts, so shared words
(``done``, ``generic_error``) are written once.
"""

from __future__ import annotations

from typing import Any

from engine.cardgame import CardFace, Colour
from engine.core import messages
from words import i18n_cards_de
from words.i18n import Lang, t

# key -> (English, Spanish)
TEXTS: dict[str, tuple[str, str]] = {
    # ------------------------------------------------------------------ errors
    "match_exists": (
        "A match is already open in this channel. Finish or abandon it first.",
        "Ya hay una partida abierta en este canal. Termínala o abandónala antes.",
    ),
    "other_game": (
        "This channel is running a tile game; use `/carcassonne` here, or play the card game "
        "in another channel.",
        "En este canal hay una partida de Carcassonne con piezas de territorio; usa "
        "`/carcassonne` o juega a las cartas en otro canal.",
    ),
    "no_match": (
        "There is no card game in this channel. Start one with `/cardgame new`.",
        "No hay partida de cartas en este canal. Crea una con `/cartas nueva` (en inglés "
        "`/cardgame new`).",
    ),
    "match_over": ("This match is over.", "Esta partida ha terminado."),
    "not_seated": ("You are not a player in this match.", "No eres jugador de esta partida."),
    "not_your_turn": (
        "Not now: the game is waiting for {current}.",
        "Ahora no: la partida espera a {current}.",
    ),
    "lobby_full": ("The table is full.", "La mesa está completa."),
    "already_joined": ("You have already joined.", "Ya te has unido."),
    "not_in_lobby": ("You are not at this table.", "No estás en esta mesa."),
    "already_started": ("The match has already started.", "La partida ya ha empezado."),
    "not_host": (
        "Only the host (or a channel manager) may do that.",
        "Solo el anfitrión (o quien gestione el canal) puede hacer eso.",
    ),
    "too_few_players": (
        "At least {minimum} players are needed.",
        "Hacen falta al menos {minimum} jugadores.",
    ),
    "stale": (
        "This table is out of date: use the latest message.",
        "Esta mesa está desactualizada: usa el último mensaje.",
    ),
    "illegal": ("Not allowed: {reason}", "No está permitido: {reason}"),
    "bad_card": (
        "You cannot play `{card}` now. Pick a card from the list.",
        "Ahora no puedes jugar `{card}`. Elige una carta de la lista.",
    ),
    "bad_row": (
        "{card} cannot go in the {row} row now.",
        "{card} no puede ir ahora en la fila {row}.",
    ),
    "not_the_joker": (
        "Lay the {joker} first (not `{card}`): it came up while the rows were laid out; "
        "choose the row it goes into.",
        "Primero coloca el {joker} (no `{card}`): salió al preparar las filas; elige la fila "
        "donde va.",
    ),
    "lobby_closed": ("This table has closed.", "Esta mesa ya está cerrada."),
    # ------------------------------------------------------------------ lobby
    "lobby_title": ("Carcassonne – the card game", "Carcassonne – el juego de cartas"),
    "lobby_body": (
        "Host: {host}\nPlayers ({count}/{players}): {names}\nPress **Join**, then the host "
        "presses **Start**.",
        "Anfitrión: {host}\nJugadores ({count}/{players}): {names}\nPulsa **Unirse**; después "
        "el anfitrión pulsa **Empezar**.",
    ),
    "btn_join": ("Join", "Unirse"),
    "btn_leave": ("Leave", "Salir"),
    "btn_start": ("Start", "Empezar"),
    "joined": ("{name} joined.", "{name} se ha unido."),
    "left": ("{name} left.", "{name} se ha ido."),
    "abandoned": ("{name} ended the card game.", "{name} ha terminado la partida de cartas."),
    # ------------------------------------------------------------------ table message
    "table_title": ("Round {round}/{rounds}", "Ronda {round}/{rounds}"),
    "waiting_play": (
        "{who}: your turn — play a card or stand your follower.",
        "{who}: te toca — juega una carta o coloca tu seguidor.",
    ),
    "waiting_setup": (
        "{who}: a joker came up — choose its row.",
        "{who}: ha salido un comodín — elige su fila.",
    ),
    "waiting_choose": ("Scoring choices owed by {who}.", "Elecciones pendientes de {who}."),
    "scores_field": ("Scores", "Puntos"),
    "final_title": ("Final scoring", "Puntuación final"),
    "final_table": (
        "Standings (🏠 = building cards, the tie-break)",
        "Clasificación (🏠 = cartas de edificio, el desempate)",
    ),
    "winners": ("🏆 Winner: {names}", "🏆 Gana: {names}"),
    "winners_many": ("🏆 Shared win: {names}", "🏆 Victoria compartida: {names}"),
    "btn_hand": ("My hand", "Mi mano"),
    # ------------------------------------------------------------------ events
    "ev_setup_laid": ("Setup: {card} laid in {row}.", "Preparación: {card} en {row}."),
    "ev_joker_up": (
        "Setup: {card} came up; the dealer {who} chooses its row.",
        "Preparación: ha salido {card}; el repartidor {who} elige su fila.",
    ),
    "ev_round": (
        "Round {round}: {dealer} dealt {cards} cards each; {first} starts.",
        "Ronda {round}: {dealer} reparte {cards} cartas a cada uno; empieza {first}.",
    ),
    "ev_played_up": ("{who} played {card} in {row}.", "{who} jugó {card} en {row}."),
    "ev_played_down": (
        "{who} played a card face down in {row}.",
        "{who} jugó una carta boca abajo en {row}.",
    ),
    "ev_follower": (
        "{who} stood their follower in {row}, securing {n} {n:card|cards}.",
        "{who} colocó su seguidor en {row} y asegura {n} {n:carta|cartas}.",
    ),
    "ev_collected": ("{who} takes from {row}: {cards}", "{who} se lleva de {row}: {cards}"),
    "ev_choice_needed": (
        "{who} must choose: {what}.",
        "{who} debe elegir: {what}.",
    ),
    "ev_choice_made": ("{who} chose: {what}.", "{who} eligió: {what}."),
    "ev_points": ("{who} +{points} — {reason}", "{who} +{points} — {reason}"),
    "ev_chest": (
        "{who} puts {n} building {n:card|cards} under the chest.",
        "{who} guarda {n} {n:carta|cartas} de edificio bajo el cofre.",
    ),
    "ev_last_round_end": (
        "Round {round} scored, the last: {left} {left:card leaves|cards leave} the game from the "
        "rows.",
        "Ronda {round} puntuada, la última: {left:sale|salen} del juego {left} "
        "{left:carta|cartas} de las filas.",
    ),
    "ev_round_end": (
        "Round {round} scored; {who} deals next. {left} {left:card stays|cards stay} in the rows.",
        "Ronda {round} puntuada; reparte {who}. {left:Queda|Quedan} {left} {left:carta|cartas} "
        "en las filas.",
    ),
    "ev_game_end": ("The game is over.", "La partida ha terminado."),
    "card_timed_out": (
        "⏰ {who} ran out of time; an AI played for them.",
        "⏰ A {who} se le acabó el tiempo; una IA jugó por él.",
    ),
    "what_wrong_row": ("keep {card} or cash it for 10", "quedarse {card} o cobrar 10"),
    "what_joker": ("give an animal joker a kind", "asignar un comodín de animal"),
    "choice_keep": ("kept {card}", "se queda {card}"),
    "choice_cash": ("cashed {card} for 10", "cobra 10 por {card}"),
    "choice_assign": ("animal joker → {kind}", "comodín de animal → {kind}"),
    # ------------------------------------------------------------------ private
    "hand_title": ("Your hand — {channel}", "Tu mano — {channel}"),
    "hand_cards": ("**Hand:** {cards}", "**Mano:** {cards}"),
    "hand_empty": ("**Hand:** empty", "**Mano:** vacía"),
    "hand_next_down": (
        "Your next card goes **face down** (any row).",
        "Tu próxima carta va **boca abajo** (en cualquier fila).",
    ),
    "hand_next_up": (
        "Your next cards go face up into their colour's row (jokers: any row).",
        "Tus próximas cartas van boca arriba en la fila de su color (comodines: cualquiera).",
    ),
    "hand_face_down": ("Your face-down cards: {cards}", "Tus cartas boca abajo: {cards}"),
    "hand_owed": ("You must choose: {what}", "Debes elegir: {what}"),
    "hand_turn": ("It is your turn.", "Te toca."),
    "dm_closed": (
        "{who}, I cannot send you direct messages; press **My hand** on the table message to "
        "see your cards.",
        "{who}, no puedo enviarte mensajes directos; pulsa **Mi mano** en el mensaje de la "
        "mesa para ver tus cartas.",
    ),
    "played_private": ("Done: {move}", "Hecho: {move}"),
    # ------------------------------------------------------------------ rows
    "row_yellow": ("🟨 cloister", "🟨 claustro"),
    "row_red": ("🟥 road", "🟥 camino"),
    "row_green": ("🟩 field", "🟩 campo"),
    "row_blue": ("🟦 city", "🟦 ciudad"),
}

#: the words the shared decision presenter (bot/ui/decisions.py) looks up in the engine's
#: catalogue for the card game's decisions: its buttons (``open.<kind>``), facets and values
DECISION_WORDS: dict[str, tuple[str, str]] = {
    "open.cards.play": ("Play a card", "Jugar carta"),
    "open.cards.follower": ("Stand my follower", "Colocar mi seguidor"),
    "open.cards.lay_joker": ("Lay the joker", "Colocar el comodín"),
    "open.cards.wrong_row": ("Keep or cash", "Quedarme o cobrar"),
    "open.cards.joker": ("Joker kind", "Tipo del comodín"),
    "facet.card": ("card", "carta"),
    "facet.row": ("row", "fila"),
    "facet.choice": ("choice", "elección"),
    "facet.kind": ("kind", "tipo"),
    "facet.choice.keep": ("keep", "quedármela"),
    "facet.choice.cash": ("cash for 10", "cobrar 10"),
    **{f"facet.row.{c}": TEXTS[f"row_{c}"] for c in ("yellow", "red", "green", "blue")},
}
messages.register(DECISION_WORDS)
#: a card named in a refusal: its name, then what to type for it
messages.register({"cards.typed": ("{name} (`{code}`)", "{name} (`{code}`)")})

#: the card game's interface catalogue by language (German in :mod:`words.i18n_cards_de`)
CATALOGUE = messages.Catalogue("cards", TEXTS)
CATALOGUE.register_lang("de", i18n_cards_de.TEXTS)
messages.register_lang("de", i18n_cards_de.DECISION_WORDS)

_ROW_EMOJI = {Colour.YELLOW: "🟨", Colour.RED: "🟥", Colour.GREEN: "🟩", Colour.BLUE: "🟦"}


def tc(lang: Lang, key: str, **params: Any) -> str:
    """The card-game text ``key`` (else the tile game's) in ``lang`` with ``params`` filled."""
    found = CATALOGUE.fill(key, lang, params)
    return t(lang, key, **params) if found is None else found


def row_name(colour: Colour, lang: Lang) -> str:
    return tc(lang, f"row_{colour.value}")


def card_text(face: CardFace, lang: Lang = Lang.EN) -> str:
    """A card in words, with its row colour: ``🟦 blue character 2`` / ``🟦 personaje azul 2``
    (what players type — ``blue-2``, ``azul-2`` — is offered by the autocomplete)."""
    mark = _ROW_EMOJI[face.colour] if face.colour is not None else "🃏"
    return f"{mark} {messages.text(f'cards.name.{face.code}', lang.value)}"


# ------------------------------------------------------------------ slash-command translations
#: ``/cardgame`` command and option names -> Spanish (lower-case, ≤ 32 chars).
NAMES_ES: dict[str, str] = {
    "cardgame": "cartas",
    "new": "nueva",
    "join": "unirse",
    "leave": "salir",
    "start": "empezar",
    "abandon": "abandonar",
    "play": "jugar",
    "claim": "asegurar",
    "hand": "mano",
    "score": "puntos",
    "rules": "reglas",
    "players": "jugadores",
    "card": "carta",
    "row": "fila",
}

#: ``/cardgame`` descriptions -> Spanish (≤ 100 chars).
DESCRIPTIONS_ES: dict[str, str] = {
    "Play Carcassonne – the card game in this channel": (
        "Juega a Carcassonne – el juego de cartas en este canal"
    ),
    "Open a card-game table in this channel": "Abre una mesa del juego de cartas en este canal",
    "Number of players (2-5)": "Número de jugadores (2-5)",
    "Join the card-game table in this channel": "Únete a la mesa de cartas de este canal",
    "Leave the card-game table before it starts": "Sal de la mesa de cartas antes de empezar",
    "Deal the cards (host)": "Reparte las cartas (anfitrión)",
    "End the card game (host or managers)": "Termina la partida de cartas (anfitrión o gestores)",
    "Play a card from your hand into a row": "Juega una carta de tu mano en una fila",
    "A card from your hand": "Una carta de tu mano",
    "The row to play it in": "La fila en la que la juegas",
    "Stand your large follower at a row's end": "Coloca tu seguidor grande al final de una fila",
    "The row whose open cards your follower secures": (
        "La fila cuyas cartas abiertas asegura tu seguidor"
    ),
    "Show your hand (only you see it)": "Muestra tu mano (solo la ves tú)",
    "Show the card-game scores": "Muestra la puntuación de las cartas",
    "The card game's rules in short": "Las reglas del juego de cartas, en breve",
}

#: ``/cardgame`` names and descriptions by language
NAMES: dict[Lang, dict[str, str]] = {Lang.ES: NAMES_ES, Lang.DE: i18n_cards_de.NAMES}
DESCRIPTIONS: dict[Lang, dict[str, str]] = {
    Lang.ES: DESCRIPTIONS_ES,
    Lang.DE: i18n_cards_de.DESCRIPTIONS,
}
