"""English and Spanish texts of the local table (``carcabot local``), same shape as
:mod:`words.i18n`.

:func:`tl` looks a key up here first, then in the bot's and the engine's catalogues
(:func:`words.i18n.t`), so game words (prompts, figures, features) are written once. What a
player types stays the same in both languages ('pass', 'back', 'place X,Y r90'); the Spanish
words are accepted too (:data:`WORDS_ES`).
"""

from __future__ import annotations

from typing import Any

from console import i18n_de as i18n_local_de
from engine.core import messages
from words.i18n import Lang, lang_of, t

# key -> (English, Spanish)
TEXTS: dict[str, tuple[str, str]] = {
    # ------------------------------------------------------------------ the table
    "help": (
        "Answer each question with its number or letter ('pass' when you may pass, 'back' to go "
        "back), or several at once ('3 r90 a'); or type the move itself: 'place X,Y r90', "
        "'deploy city:N', 'pass'. Also: 'board' (list again), 'undo', 'resign', 'quit'.",
        "Responde a cada pregunta con su número o su letra ('pasar' cuando puedas pasar, "
        "'atrás' para volver), o varias a la vez ('3 r90 a'); o escribe la jugada en notación: "
        "'place X,Y r90', 'deploy city:N', 'pass'. Además: 'tablero' (volver a listar), "
        "'deshacer', 'rendirse', 'salir'. Las palabras en inglés también valen.",
    ),
    "help_cards": (
        "Answer each question with its number or letter ('back' to go back); or type the move "
        "itself: 'play CARD ROW', 'follower ROW', 'keep CARD', 'cash CARD', 'assign KIND'. "
        "Also: 'hand' (your hand again), 'board' (list again), 'quit'.",
        "Responde a cada pregunta con su número o su letra ('atrás' para volver); o escribe la "
        "jugada en notación: 'play CARTA FILA', 'follower FILA', 'keep CARTA', 'cash CARTA', "
        "'assign TIPO'. Además: 'mano' (ver otra vez tu mano), 'tablero' (volver a listar), "
        "'salir'. Las palabras en inglés también valen.",
    ),
    "stopped": (
        "Stopped. The match is stored; continue it with '{hint}'.",
        "Detenida. La partida está guardada; continúala con '{hint}'.",
    ),
    "no_database": (
        "Cannot open the match database {db}: {error}",
        "No se puede abrir la base de datos de la partida {db}: {error}",
    ),
    "bad_players": ("--players must be {low} to {high}.", "--players debe ir de {low} a {high}."),
    "bad_humans": ("--humans must be 0 to {n}.", "--humans debe ir de 0 a {n}."),
    "bad_names": (
        "--names gives {n} {n:name|names} for {humans} human {humans:seat|seats}: give as many "
        "--humans as names (the other seats play randomly).",
        "--names da {n} {n:nombre|nombres} para {humans} {humans:jugador humano|jugadores "
        "humanos}: indica tantos --humans como nombres (los demás asientos juegan al azar).",
    ),
    "out_not_folder": (
        "--out must be a folder for the pictures: {path} is a file.",
        "--out debe ser una carpeta para las imágenes: {path} es un archivo.",
    ),
    "bad_out": (
        "Cannot write the pictures to {path}: {error}",
        "No se pueden guardar las imágenes en {path}: {error}",
    ),
    "cards_no_expansions": (
        "--expansions and --rule belong to the tile game, not the card game ('--game cards').",
        "--expansions y --rule son del juego de piezas, no del de cartas ('--game cards').",
    ),
    "rules_valid": (
        "The rules of the chosen expansions: {rules}.",
        "Las reglas de las expansiones elegidas: {rules}.",
    ),
    "rules_none": (
        "Rules belong to expansions: choose one with --expansions first.",
        "Las reglas son de las expansiones: elige antes una con --expansions.",
    ),
    "rule_form": (
        "--rule takes KEY=VALUE, not '{rule}'. {valid}",
        "--rule se escribe CLAVE=VALOR, no '{rule}'. {valid}",
    ),
    "rule_unknown": (
        "There is no rule '{rule}'. {valid}",
        "No existe la regla '{rule}'. {valid}",
    ),
    "rule_needs": (
        "The rule {rule} belongs to {expansion}: add --expansions {expansion}.",
        "La regla {rule} es de {expansion}: añade --expansions {expansion}.",
    ),
    "rule_value": (
        "{rule} is {values}, not '{value}'.",
        "{rule} admite {values}, no '{value}'.",
    ),
    "stuck": (
        "Nobody has anything to decide: the match cannot go on.",
        "Nadie tiene nada que decidir: la partida no puede seguir.",
    ),
    "no_decision": (
        "No open decision for {name}: stopping.",
        "{name} no tiene ninguna decisión abierta: se detiene la partida.",
    ),
    "unused": (
        "  (The rest of the line was not used: {rest})",
        "  (El resto de la línea no se ha usado: {rest})",
    ),
    "input_ended": (
        "Input ended: the match is stored. Continue it with '{hint}'.",
        "Fin de la entrada: la partida está guardada. Continúala con '{hint}'.",
    ),
    "cannot_resume": (
        "The unfinished local match cannot be loaded: {error}",
        "No se puede cargar la partida local sin terminar: {error}",
    ),
    "resume_plugin": (
        "If it was played with --plugin MODULE, resume with the same one.",
        "Si se jugó con --plugin MÓDULO, reanúdala con el mismo.",
    ),
    "nothing_to_resume": (
        "There is no unfinished local match to resume; starting a new one.",
        "No hay ninguna partida local sin terminar; empieza una nueva.",
    ),
    "resuming": (
        "Resuming local match {id} at turn {turn}.",
        "Se reanuda la partida local {id} en el turno {turn}.",
    ),
    "set_aside": (
        "(An unfinished local match {id} was set aside.)",
        "(Se ha apartado una partida local sin terminar, la {id}.)",
    ),
    "started": (
        "Carcassonne, local match {id} (seed {seed}). Seat order: {order}.",
        "Carcassonne, partida local {id} (semilla {seed}). Orden de juego: {order}.",
    ),
    "started_cards": (
        "Carcassonne – the card game, local match {id} (seed {seed}). Seat order: {order}.",
        "Carcassonne – el juego de cartas, partida local {id} (semilla {seed}). Orden de "
        "juego: {order}.",
    ),
    "expansions": ("Expansions: {names}.", "Expansiones: {names}."),
    "private": (
        "{name}, your private choice — others look away.",
        "{name}, tu elección privada — los demás, no miréis.",
    ),
    "hand_private": (
        "{name}, your hand — others look away.",
        "{name}, tu mano — los demás, no miréis.",
    ),
    "taken_back": (
        "  Placement taken back: place the tile again.",
        "  Colocación deshecha: vuelve a colocar la pieza.",
    ),
    "resigns": ("  {name} resigns.", "  {name} se rinde."),
    "kept_secret": ("  {name} has chosen (kept secret).", "  {name} ha elegido (en secreto)."),
    "places": (
        "{name} places {tile} at {pos}, turned {degrees}°.",
        "{name} coloca {tile} en {pos}, girada {degrees}°.",
    ),
    "places_tile": ("the tile ({tile})", "la pieza ({tile})"),
    "deploys": ("{name} puts a {figure} on the {spot}.", "{name} pone su {figure} en: {spot}."),
    "deploys_as": (
        "{name} puts a {figure} on the {spot} as a {role}.",
        "{name} pone su {figure} como {role} en: {spot}.",
    ),
    "cell_at": ("cell {n} ({pos})", "la casilla {n} ({pos})"),
    "passes": ("{name} passes{what}.", "{name} pasa{what}."),
    "chooses": ("{name} chooses {what}{about}.", "{name} elige {what}{about}."),
    "turn": ("\n— Turn {n}: {who}{draws}", "\n— Turno {n}: {who}{draws}"),
    "draws": (
        " draws {tile} ({left} left in the pile)",
        " roba {tile} (quedan {left} en la pila)",
    ),
    "drawn_tile": ("a tile: {tile}", "una pieza: {tile}"),
    "scored": ("  * {reason} -> {who}", "  * {reason} -> {who}"),
    "nobody": ("nobody", "nadie"),
    "discarded": (
        "  * a tile fits nowhere and is discarded: {tile}",
        "  * una pieza no encaja en ningún sitio y se descarta: {tile}",
    ),
    "scores": ("  Scores: {scores}", "  Puntuación: {scores}"),
    "no_images": (
        "  (No board images: the renderer is not available.)",
        "  (Sin imágenes del tablero: el dibujante no está disponible.)",
    ),
    "board_file": ("  Board: {path}", "  Tablero: {path}"),
    "table_file": ("  Table: {path}", "  Mesa: {path}"),
    "hand_file": ("  Your hand: {path}", "  Tu mano: {path}"),
    "record_file": (
        "Record: {path}  (replay it: carcabot replay {path})",
        "Registro: {path}  (para reproducirlo: carcabot replay {path})",
    ),
    "animation_file": ("Replay animation: {path}", "Animación de la partida: {path}"),
    "final": ("\nFinal scores:", "\nPuntuación final:"),
    "winner": ("  winner", "  ganador"),
    "resigned": ("  (resigned)", "  (se rindió)"),
    "human": ("Human {n}", "Jugador {n}"),
    "round": ("\n— Round {round} of {rounds}", "\n— Ronda {round} de {rounds}"),
    "which_decision": ("What do you do?", "¿Qué haces?"),
    # ------------------------------------------------------------------ asking
    "passing": ("  Nothing can be chosen here: passing.", "  Aquí no se puede elegir nada: paso."),
    "only_fits": ("  Only {what} fits{at}.", "  Solo vale {what}{at}."),
    "for": (" for {context}", " para {context}"),
    "numbered_board": (
        " (numbered as on the board image)",
        " (numeradas como en la imagen del tablero)",
    ),
    "numbered_on": (" (numbered as on {path})", " (numeradas como en {path})"),
    "lettered_on": (" (lettered as on {path})", " (con las letras de {path})"),
    "choose_about": ("  Choose a {about}{where}:", "  Elige — {about}{where}:"),
    "choose": ("  Choose{where}:", "  Elige{where}:"),
    "or_pass": ("    or 'pass'", "    o 'pasar'"),
    "inline": ("  {about}: {listed} (or {more})> ", "  {about}: {listed} (o {more})> "),
    "q_pass": ("'pass'", "'pasar'"),
    "q_back": ("'back'", "'atrás'"),
    "or": (" or ", " o "),
    "word_choice": ("choice", "opción"),
    "asking": ("{who}: {parts} or a move> ", "{who}: {parts} o una jugada> "),
    "asking_yes_no": (
        "{who}: {choice} or 'pass' (yes/no), or a move> ",
        "{who}: {choice} o 'pasar' (sí/no), o una jugada> ",
    ),
    "type_key": ("  Type {choice}{passing}.", "  Escribe {choice}{passing}."),
    "preview": (
        "  The tile turned each offered way: {path}",
        "  La pieza girada de cada forma posible: {path}",
    ),
    "pick_number": (
        "  Pick a {what} from 1 to {last}{passing}.",
        "  Elige un número de 1 a {last} ({what}){passing}.",
    ),
    "pick_letter": (
        "  Pick a letter from a to {last}{passing}.",
        "  Elige una letra de la a a la {last}{passing}.",
    ),
    "or_passing": (", or pass", ", o pasa"),
    "span_to": ("from {min} to {max}", "de {min} a {max}"),
    "span_up": ("of {min} or more", "de {min} o más"),
    "number_prompt": ("{who}: a number {span}{extra}> ", "{who}: un número {span}{extra}> "),
    "type_number": ("  Type a number {span}.", "  Escribe un número {span}."),
    "pick_a_number": ("  Pick a number {span}.", "  Elige un número {span}."),
    "not_a_number": (
        "  That is not a number: type a number {span}{passing}.",
        "  Eso no es un número: escribe un número {span}{passing}.",
    ),
    "no_pass_number": (
        "  You cannot pass here: type a number {span}.",
        "  Aquí no se puede pasar: escribe un número {span}.",
    ),
    "no_pass_choice": (
        "  You cannot pass here: choose {span}.",
        "  Aquí no se puede pasar: elige {span}.",
    ),
    "not_understood": (
        "  I did not understand that ({error}). Type 'help' for the choices.",
        "  No lo he entendido ({error}). Escribe 'ayuda' para ver las opciones.",
    ),
    "hidden": ("(hidden)", "(oculto)"),
    # ------------------------------------------------------------------ words
    "neutral": ("neutral", "neutral"),
    "owned": (
        "{owner}'s {figure} on the {spot} at {x},{y}",
        "{figure} de {owner} en {spot}, {x},{y}",
    ),
    "neutral_figure": (
        "neutral {figure} on the {spot} at {x},{y}",
        "{figure} neutral en {spot}, {x},{y}",
    ),
    "at": (" at {x},{y}", " en {x},{y}"),
    "corner": ("the corner north-west of {x},{y}", "la esquina noroeste de {x},{y}"),
    "track": ("space {n} of the score track", "casilla {n} del marcador"),
    "tile": ("tile {tile}", "pieza: {tile}"),
    "card": ("card {code}", "carta {code}"),
    "a_number": ("a number {min}{hi}", "un número {min}{hi}"),
    "rotation": ("turned {degrees}°", "girada {degrees}°"),
    "colour.red": ("red", "rojo"),
    "colour.blue": ("blue", "azul"),
    "colour.yellow": ("yellow", "amarillo"),
    "colour.green": ("green", "verde"),
    "colour.black": ("black", "negro"),
    "colour.pink": ("pink", "rosa"),
}

#: Spanish words a player may type, and the English command each stands for
WORDS_ES: dict[str, str] = {
    "pasar": "pass",
    "paso": "pass",
    "ninguno": "pass",
    "atrás": "back",
    "atras": "back",
    "volver": "back",
    "tablero": "board",
    "lista": "list",
    "deshacer": "undo",
    "rendirse": "resign",
    "ayuda": "help",
    "salir": "quit",
    "mano": "hand",
    "sí": "yes",
    "si": "yes",
    "s": "yes",
}

#: the local table's catalogue by language (German in :mod:`console.i18n_de`)
CATALOGUE = messages.Catalogue("local", TEXTS)
CATALOGUE.register_lang("de", i18n_local_de.TEXTS)
WORDS_DE = i18n_local_de.WORDS


def tl(lang: str | Lang, key: str, **params: Any) -> str:
    """The local-table text ``key`` in ``lang`` (else the bot's or the engine's) with
    ``params`` filled in."""
    found = CATALOGUE.fill(key, lang, params)
    return t(lang_of(lang), key, **params) if found is None else found


def command(word: str) -> str:
    """The English command a typed word stands for (Spanish words are read as their English)."""
    low = word.lower()
    return WORDS_ES.get(low) or WORDS_DE.get(low, low)


__all__ = ["TEXTS", "WORDS_DE", "WORDS_ES", "command", "tl"]
