"""English and Spanish texts for everything the bot says, and the slash commands' names.

Users get the language of their Discord client (``interaction.locale``): ``es-ES`` and ``es-419``
read Spanish, everyone else English. Public messages use the locale of the player whose action
produced them. Command names, option names, descriptions and choice names reach Discord through
:class:`bot.translators.CarcTranslator` when the commands are synced. Nothing here imports
Discord: the console and the command-line tools read these words too.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from engine.core import messages
from words import i18n_de, i18n_stats


class Lang(StrEnum):
    EN = "en"
    ES = "es"
    DE = "de"


def lang_of(locale: object) -> Lang:
    """The language for a Discord locale or a language code (Spanish for es-ES / es-419,
    German for de, ...; English for every language not shipped)."""
    if locale is None:
        return Lang.EN
    code = messages.lang_code(locale)
    return Lang(code) if code in Lang._value2member_map_ else Lang.EN


# key -> (English, Spanish); ``{name}`` placeholders are filled by :func:`t`.
TEXTS: dict[str, tuple[str, str]] = {
    # ---------------------------------------------------------------- errors (ServiceError.key)
    "match_exists": (
        "A Carcassonne match is already running in this channel{where}. "
        "Finish it (or `/carcassonne abandon`) before starting another.",
        "Ya hay una partida de Carcassonne en este canal{where}. "
        "Termínala (o usa `/carcassonne abandonar`, en inglés `abandon`) antes de empezar otra.",
    ),
    "no_match": (
        "There is no Carcassonne match in this channel. Start one with `/carcassonne new`.",
        "No hay ninguna partida de Carcassonne en este canal. Crea una con `/carcassonne nueva` "
        "(en inglés `new`).",
    ),
    "other_game": (
        "Another game is running in this channel (`/{game}`): play it there, or open a table "
        "in another channel.",
        "En este canal hay otro juego en marcha (`/{game}`): juega allí o abre una mesa en otro "
        "canal.",
    ),
    "not_seated": (
        "You are not a player in this match.",
        "No eres jugador de esta partida.",
    ),
    "not_your_turn": (
        "It is not your turn: it is {current}'s turn.",
        "No es tu turno: le toca a {current}.",
    ),
    "lobby_full": ("The lobby is full.", "La mesa ya está completa."),
    "already_joined": ("You have already joined.", "Ya te has unido."),
    "not_in_lobby": ("You are not in this lobby.", "No estás en esta mesa."),
    "not_host": (
        "Only the host (or someone who can manage this channel) may do that.",
        "Solo el anfitrión (o quien pueda gestionar este canal) puede hacer eso.",
    ),
    "too_few_players": (
        "At least 2 players must join before the match can start.",
        "Hacen falta al menos 2 jugadores para empezar la partida.",
    ),
    "busy": (
        "The bot is very busy right now: your move was **not** made. Please try again in a minute.",
        "Carcabot está muy ocupado ahora mismo: tu jugada **no** se ha hecho. "
        "Inténtalo de nuevo en un minuto.",
    ),
    "busy_wait": (
        "⏳ The bot is busy: your move waits its turn ({ahead} waiting). "
        "It will be made: no need to send it again.",
        "⏳ Carcabot está ocupado: tu jugada espera su turno ({ahead} en espera). "
        "Se hará: no hace falta enviarla otra vez.",
    ),
    "stale": (
        "This choice is out of date.{link}",
        "Esta elección está desactualizada.{link}",
    ),
    "illegal": ("That move is not allowed: {reason}", "Esa jugada no está permitida: {reason}"),
    "no_undo": (
        "There is nothing you can take back now.",
        "Ahora no hay nada que puedas deshacer.",
    ),
    "already_started": ("The match has already started.", "La partida ya ha empezado."),
    "generic_error": (
        "Something went wrong on our side; the match is unchanged. Please try again.",
        "Algo ha fallado por nuestra parte; la partida no ha cambiado. Inténtalo de nuevo.",
    ),
    "missing_perms": (
        "I cannot run a match here: I am missing these channel permissions: {perms}.",
        "No puedo llevar una partida aquí: me faltan estos permisos del canal: {perms}.",
    ),
    "bad_cell": (
        "Cell {cell} is not a legal place for this tile. Pick a number from the board image.",
        "La casilla {cell} no es válida para esta pieza. Elige un número de la imagen.",
    ),
    "bad_rotation": (
        "The tile does not fit in cell {cell} at {rotation}°.",
        "La pieza no encaja en la casilla {cell} con {rotation}°.",
    ),
    "bad_spot": (
        "You cannot put a follower on '{spot}' here.",
        "No puedes poner un seguidor en '{spot}' aquí.",
    ),
    "no_tile_choice": (
        "You have no tile to place now: answer your open choice (`/carcassonne choose`).",
        "Ahora no tienes pieza que colocar: responde a tu elección (`/carcassonne elegir`, en "
        "inglés `choose`).",
    ),
    "nothing_to_pass": (
        "None of your open choices can be passed.",
        "Ninguna de tus elecciones abiertas se puede pasar.",
    ),
    "bad_choice": (
        "'{choice}' is none of your open choices: pick one from the list.",
        "'{choice}' no es ninguna de tus elecciones: elige una de la lista.",
    ),
    "bad_number": (
        "Enter a whole number from {min} to {max}.",
        "Escribe un número entero de {min} a {max}.",
    ),
    "nothing_secret": (
        "You have no secret choice to make now.",
        "Ahora no tienes ninguna elección secreta.",
    ),
    "dm_closed": (
        "{who}, I cannot send you direct messages: press **Decide** on the turn message to "
        "make your secret choices.",
        "{who}, no puedo enviarte mensajes directos: pulsa **Decidir** en el mensaje del turno "
        "para hacer tus elecciones secretas.",
    ),
    "guild_only": (
        "Carcassonne is played in server channels.",
        "Carcassonne se juega en canales de un servidor.",
    ),
    # ---------------------------------------------------------------- lobby
    "lobby_title": ("Carcassonne — new match", "Carcassonne — partida nueva"),
    "lobby_body": (
        "{host} opened a table for {players} players.\nJoined ({count}/{players}): {names}\n"
        "Press **Join**, then the host presses **Start**.",
        "{host} ha abierto una mesa para {players} jugadores.\nApuntados ({count}/{players}): "
        "{names}\nPulsa **Unirse** y después el anfitrión pulsa **Empezar**.",
    ),
    "lobby_closed": ("This lobby is closed.", "Esta mesa está cerrada."),
    "joined": ("{name} joined the match.", "{name} se ha unido a la partida."),
    "left": ("{name} left the match.", "{name} ha salido de la partida."),
    "btn_join": ("Join", "Unirse"),
    "btn_leave": ("Leave", "Salir"),
    "btn_start": ("Start", "Empezar"),
    "abandoned": ("The match was abandoned by {name}.", "{name} ha abandonado la partida."),
    "resigned": ("{name} resigned.", "{name} se ha rendido."),
    # ---------------------------------------------------------------- options / rules
    "opt_per_farm": ("per farm (current rules)", "por granja (reglas actuales)"),
    "opt_city_supply_1st_ed": (
        "per city supplied (1st edition)",
        "por ciudad abastecida (1.ª edición)",
    ),
    "rules_title": ("Rules of this match", "Reglas de esta partida"),
    "defaults_title": (
        "This server's defaults for new tables",
        "Opciones predeterminadas del servidor para mesas nuevas",
    ),
    "defaults_saved": (
        "✅ Saved: this server's defaults for new tables",
        "✅ Guardado: opciones predeterminadas del servidor para mesas nuevas",
    ),
    "defaults_how": (
        "/carcassonne new starts from these; its own options and the lobby's menus change a "
        "table. Server managers change them with /carcassonne defaults.",
        "/carcassonne nueva parte de estas; sus propias opciones y los menús de la mesa la "
        "cambian. Quien gestiona el servidor las cambia con /carcassonne predeterminados.",
    ),
    "not_server_manager": (
        "Only members who can manage this server (Manage Server) may change its defaults.",
        "Solo quien puede gestionar este servidor (Gestionar servidor) puede cambiar sus "
        "opciones predeterminadas.",
    ),
    "no_such_expansion": (
        "There is no expansion {name}: choose from the list.",
        "No existe la expansión {name}: elige una de la lista.",
    ),
    "rules_body": (
        "Players: {players}\nFarm scoring: {farm}\nCompleted 2-tile city: {tiny}\n"
        "Turn reminders: {reminder}\nFollowers each: {followers}",
        "Jugadores: {players}\nPuntuación de granjas: {farm}\nCiudad completa de 2 piezas: "
        "{tiny}\nRecordatorios de turno: {reminder}\nSeguidores por jugador: {followers}",
    ),
    "rules_expansions": ("Expansions: {names}", "Expansiones: {names}"),
    "lobby_expansions": ("Expansions (the host chooses)", "Expansiones (elige el anfitrión)"),
    "ai_pick": ("AI players (the host adds them)", "Jugadores IA (los añade el anfitrión)"),
    "ai_add_easy": ("Add an easy AI", "Añadir una IA fácil"),
    "ai_add_normal": ("Add a normal AI", "Añadir una IA normal"),
    "ai_add_strong": ("Add a strong AI", "Añadir una IA fuerte"),
    "ai_remove": ("Take the last AI out", "Quitar la última IA"),
    "thinking_line": ("{who} is thinking…", "{who} está pensando…"),
    "ai_moved": ("{who}: {move}", "{who}: {move}"),
    "away_done": (
        "An AI plays your seat until you come back: `/carcassonne back`.",
        "Una IA juega por ti hasta que vuelvas: `/carcassonne volver` (en inglés `back`).",
    ),
    "back_done": ("Your seat is yours again.", "Vuelves a jugar tu asiento."),
    "deadline_line": ("⏰ Move due {when}.", "⏰ La jugada vence {when}."),
    "pings_on": ("You will be pinged when it is your turn.", "Te avisaremos cuando te toque."),
    "pings_off": (
        "You will not be pinged any more when it is your turn (the turn message still names you).",
        "Ya no te avisaremos cuando te toque (el mensaje del turno aún te nombra).",
    ),
    "vote_counted": (
        "Vote counted: {votes} of {needed} needed to let an AI play that seat.",
        "Voto contado: {votes} de {needed} necesarios para que una IA juegue ese asiento.",
    ),
    "clock_warning": (
        "⏰ {mention}, your move is due {when}.",
        "⏰ {mention}, tu jugada vence {when}.",
    ),
    "timed_out": (
        "⏰ {who} ran out of time; an AI played for them: {move}",
        "⏰ A {who} se le acabó el tiempo; una IA jugó por él: {move}",
    ),
    "handed_to_ai": (
        "🤖 {who} missed {n} moves in a row: an AI plays their seat until they come back "
        "(`/carcassonne back`).",
        "🤖 {who} no jugó {n} veces seguidas: una IA juega por él hasta que vuelva "
        "(`/carcassonne volver`).",
    ),
    "clock_live": ("Turn clock: {minutes} min a move", "Reloj: {minutes} min por jugada"),
    "clock_async": ("Turn clock: {hours} h a move", "Reloj: {hours} horas por jugada"),
    "lobby_rules": (
        "Rules of the chosen expansions (the host chooses)",
        "Reglas de las expansiones elegidas (elige el anfitrión)",
    ),
    "rules_more": (
        "More rules… (page {page} of {pages})",
        "Más reglas… (página {page} de {pages})",
    ),
    "rule_on": ("on", "sí"),
    "rule_off": ("off", "no"),
    "rule_pick": (
        "**{name}** ({expansion}): {help}\nNow: **{value}**. Choose:",
        "**{name}** ({expansion}): {help}\nAhora: **{value}**. Elige:",
    ),
    "rule_set": ("{name}: **{value}**.", "{name}: **{value}**."),
    "no_rule": (
        "That rule belongs to no expansion of this lobby.",
        "Esa regla no es de ninguna expansión de esta mesa.",
    ),
    "exp_none": ("none (base game)", "ninguna (juego básico)"),
    # base-game words the engine catalogue may also name (expansions bring their own there)
    "fig.follower": ("follower", "seguidor"),
    "field_figures": ("Figures in supply", "Figuras en reserva"),
    "tiny_2": ("2 points + 1 per shield", "2 puntos + 1 por escudo"),
    "tiny_4": ("4 points + 2 per shield", "4 puntos + 2 por escudo"),
    "reminder_off": ("off", "desactivados"),
    "reminder_on": ("after {minutes} min", "a los {minutes} min"),
    # ---------------------------------------------------------------- turn
    "turn_title": ("Carcassonne — turn {turn}", "Carcassonne — turno {turn}"),
    "decision_line": ("{mention}, your turn: {prompt}", "{mention}, te toca: {prompt}"),
    "secret_line": (
        "🤫 {mentions}: a secret choice — answer in your direct messages, or press **Decide**.",
        "🤫 {mentions}: una elección secreta — responde en tus mensajes directos o pulsa "
        "**Decidir**.",
    ),
    "secret_answer": ("🤫 a secret choice", "🤫 una elección secreta"),
    "secret_answered": (
        "✅ Already answered in secret: {names}.",
        "✅ Ya han respondido en secreto: {names}.",
    ),
    "private_title": (
        "**Carcassonne**{where} — only you see this:",
        "**Carcassonne**{where} — solo tú ves esto:",
    ),
    "field_tile": ("Tile drawn", "Pieza robada"),
    "field_left": ("Tiles left", "Piezas restantes"),
    "field_scores": ("Scores", "Puntuación"),
    "field_followers": ("Followers in supply", "Seguidores en reserva"),
    "btn_choose": ("Choose", "Elegir"),
    "btn_pass": ("Pass", "Pasar"),
    "btn_decide": ("Decide", "Decidir"),
    # the core decisions' buttons (any other kind: "Choose" / "Pass", or its own
    # ``open.<kind>`` / ``pass.<kind>`` in the engine's catalogue)
    "open.core.place": ("Place tile", "Colocar pieza"),
    "open.core.deploy": ("Follower", "Seguidor"),
    "pass.core.deploy": ("No follower", "Sin seguidor"),
    "btn_undo": ("Undo", "Deshacer"),
    "btn_tiles": ("Tiles left", "Piezas restantes"),
    "btn_confirm": ("Confirm", "Confirmar"),
    "btn_back": ("Back", "Atrás"),
    "btn_prev": ("Previous", "Anterior"),
    "btn_next": ("Next", "Siguiente"),
    "picker_marked": (
        "Choose the {what} ({count} possible): the labels on the image show where.",
        "Elige {what} ({count} posibles): las etiquetas de la imagen muestran dónde.",
    ),
    "picker_pick": (
        "Choose the {what} ({count} possible).",
        "Elige {what} ({count} posibles).",
    ),
    "picker_option_word": ("option", "una opción"),
    "picker_nothing": (
        "Nothing can be chosen here: press **{passing}** to go on.",
        "Aquí no se puede elegir nada: pulsa **{passing}** para seguir.",
    ),
    "picker_range": ("{first}–{last} of {count}", "{first}–{last} de {count}"),
    "picker_so_far": ("So far: {choice}", "Hasta ahora: {choice}"),
    "picker_confirm": (
        "Your choice: **{choice}**. Confirm?",
        "Tu elección: **{choice}**. ¿Confirmas?",
    ),
    "enter_number": ("Enter a number ({min}–{max})", "Escribe un número ({min}–{max})"),
    "number_label": ("A number from {min} to {max}", "Un número de {min} a {max}"),
    "cell_option": ("Cell {cell}", "Casilla {cell}"),
    "cell_answer": ("cell {cell} ({where})", "casilla {cell} ({where})"),
    "at_cell": ("x {x}, y {y}", "x {x}, y {y}"),
    "at_corner": ("corner of x {x}, y {y}", "esquina de x {x}, y {y}"),
    "at_track": ("score track {n}", "marcador {n}"),
    "done": ("Done.", "Hecho."),
    "moved": ("{name} played: {move}", "{name} ha jugado: {move}"),
    "undone": ("{name} took back the placement.", "{name} ha deshecho la colocación."),
    "points_line": ("{who} — {reason}", "{who} — {reason}"),
    "no_points_line": ("{reason} (nobody scores)", "{reason} (nadie puntúa)"),
    "discarded": (
        "A tile fitted nowhere and was discarded: {tile}.",
        "Una pieza no encajaba en ningún sitio y se ha descartado: {tile}.",
    ),
    "reminder": (
        "{mention}: it is still your turn in Carcassonne{where}.",
        "{mention}: sigue siendo tu turno en Carcassonne{where}.",
    ),
    "here_link": (" — [the board]({url})", " — [el tablero]({url})"),
    "stale_link": (" The current turn: {url}", " El turno actual: {url}"),
    # ---------------------------------------------------------------- end
    "final_title": ("Carcassonne — final scores", "Carcassonne — puntuación final"),
    "winner": (
        "Winner: {names} with {points} {points:point|points}!",
        "¡Gana {names} con {points} {points:punto|puntos}!",
    ),
    "winners": (
        "Shared victory: {names} with {points} {points:point|points}!",
        "¡Victoria compartida: {names} con {points} {points:punto|puntos}!",
    ),
    "final_scoring": ("Final scoring", "Puntuación final"),
    "final_table": ("Final table", "Clasificación"),
    "record_note": (
        "The game record (`{file}`) replays this match with `carcabot replay`.",
        "El registro (`{file}`) reproduce esta partida con `carcabot replay`.",
    ),
    "match_over": ("This match is over.", "Esta partida ha terminado."),
    "replay_ready": ("🎞️ The whole match, turn by turn.", "🎞️ La partida entera, turno a turno."),
    # ---------------------------------------------------------------- score / tiles / board
    "score_title": ("Scores", "Puntuación"),
    "tiles_title": (
        "Tiles not yet drawn ({count})",
        "Piezas sin robar ({count})",
    ),
    "board_title": ("Board — turn {turn}", "Tablero — turno {turn}"),
    "help_title": ("How to play Carcassonne here", "Cómo jugar a Carcassonne aquí"),
    "help_body": (
        "`/carcassonne new` opens a table; the host picks expansions and their rules in the "
        "lobby's menus; players press **Join**; the host presses **Start**.\n"
        "The turn message names who must decide what; press its buttons (**Place tile**: a "
        "numbered cell, a rotation, then a follower spot or **No follower**). Secret choices "
        "come by direct message (or press **Decide**). Or type `/carcassonne choose` (any "
        "choice) or `/carcassonne place cell: rotation: follower:` — the menus only offer "
        "legal values.\n"
        "`board`, `score`, `tiles` and `rules` show the match; `undo` takes back your "
        "placement before you choose a follower; `resign` leaves the match; `abandon` ends it "
        "(host or channel managers). `defaults` shows the server's defaults for new tables "
        "(server managers change them). `leaderboard`, `stats` and `history` show the "
        "server's ratings, a player's stats and the finished games.\n"
        "AI players: the lobby's **AI players** menu, or `new opponents: level:` to play at "
        "once; `away` lets an AI play your seat until you come `back`; `vote_out` hands a "
        "silent player's seat to an AI; `new clock:` gives each move a deadline; `pings off` "
        "stops your turn pings.",
        "`/carcassonne nueva` (en inglés `new`) abre una mesa; el anfitrión elige expansiones y "
        "sus reglas en los menús de la mesa; los jugadores pulsan **Unirse**; el anfitrión "
        "pulsa **Empezar**.\n"
        "El mensaje del turno dice quién decide qué; pulsa sus botones (**Colocar pieza**: una "
        "casilla numerada, un giro y luego un lugar para el seguidor o **Sin seguidor**). Las "
        "elecciones secretas llegan por mensaje directo (o pulsa **Decidir**). O escribe "
        "`/carcassonne elegir` (`choose`: cualquier elección) o `/carcassonne colocar casilla: "
        "rotacion: seguidor:` (`place cell: rotation: follower:`) — los menús solo ofrecen "
        "valores válidos.\n"
        "`tablero` (`board`), `puntos` (`score`), `piezas` (`tiles`) y `reglas` (`rules`) "
        "muestran la partida; `deshacer` (`undo`) retira tu colocación antes de elegir "
        "seguidor; `rendirse` (`resign`) te retira; `abandonar` (`abandon`) la termina "
        "(anfitrión o gestores del canal). `predeterminados` (`defaults`) muestra las opciones "
        "del servidor para mesas nuevas (quien gestiona el servidor las cambia). Si tu "
        "Discord está en inglés, los comandos se llaman como indica el paréntesis. "
        "`historial` (`history`), `clasificacion` (`leaderboard`) y `estadisticas` (`stats`) "
        "muestran las partidas terminadas, las puntuaciones del servidor y las estadísticas de "
        "un jugador.\n"
        "Jugadores IA: el menú **Jugadores IA** de la mesa, o `nueva rivales_ia: nivel:` para "
        "jugar ya; `ausente` (`away`) deja que una IA juegue por ti hasta que vuelvas con "
        "`volver` (`back`); `votar_ia` (`vote_out`) da a una IA el asiento de quien no juega; "
        "`nueva reloj:` pone plazo a cada jugada; `avisos` (`pings`) quita tus avisos de turno.",
    ),
    # ---------------------------------------------------------------- spots / features
    "kind_city": ("city", "ciudad"),
    "kind_road": ("road", "camino"),
    "kind_field": ("field", "campo"),
    "kind_farm": ("farm", "granja"),
    "kind_cloister": ("cloister", "claustro"),
    "side_N": ("north", "norte"),
    "side_E": ("east", "este"),
    "side_S": ("south", "sur"),
    "side_W": ("west", "oeste"),
    "middle": ("middle", "centro"),
    "completed": ("completed", "completado"),
    # Spanish agrees with the feature: la ciudad completada, el camino completado
    "completed_city": ("completed", "completada"),
    "at_end": ("at game end", "al final"),
    "perm_view_channel": ("View Channel", "Ver canal"),
    "perm_send_messages": ("Send Messages", "Enviar mensajes"),
    "perm_send_messages_in_threads": ("Send Messages in Threads", "Enviar mensajes en hilos"),
    "perm_attach_files": ("Attach Files", "Adjuntar archivos"),
    "perm_embed_links": ("Embed Links", "Insertar enlaces"),
}

#: the bot's catalogue by language (the pairs above fill English and Spanish; German in
#: :mod:`words.i18n_de`)
TEXTS.update(i18n_stats.TEXTS)  # leaderboard, stats, history
CATALOGUE = messages.Catalogue("bot", TEXTS)


def t(lang: Lang, key: str, **params: Any) -> str:
    """The text ``key`` in ``lang`` with ``params`` filled in.

    Keys the bot does not know are looked up in the engine's message catalogue
    (:mod:`engine.core.messages`), where the rules and every expansion register the words of
    their own prompts, events, figures (``fig.<kind>``), expansions (``exp.<id>``) and options
    (``opt.<key>``, ``help.<key>``); a key nobody knows shows as itself."""
    found = CATALOGUE.fill(key, lang, params)
    return messages.text(key, lang, **params) if found is None else found


# ------------------------------------------------------------------ slash-command translations
#: English command/option names -> Spanish names (Discord: lower-case, ≤ 32 chars).
NAMES_ES: dict[str, str] = {
    "carcassonne": "carcassonne",
    "new": "nueva",
    "join": "unirse",
    "leave": "salir",
    "start": "empezar",
    "place": "colocar",
    "choose": "elegir",
    "option": "opcion",
    "follower": "seguidor",
    "pass": "pasar",
    "board": "tablero",
    "tiles": "piezas",
    "score": "puntos",
    "undo": "deshacer",
    "resign": "rendirse",
    "away": "ausente",
    "back": "volver",
    "opponents": "rivales_ia",
    "level": "nivel",
    "clock": "reloj",
    "vote_out": "votar_ia",
    "pings": "avisos",
    "on": "activar",
    "player": "jugador",
    "abandon": "abandonar",
    "help": "ayuda",
    "rules": "reglas",
    "players": "jugadores",
    "farm_scoring": "granjas",
    "tiny_city": "ciudad_pequena",
    "reminder_minutes": "recordatorio_minutos",
    "cell": "casilla",
    "rotation": "rotacion",
    "defaults": "predeterminados",
    "expansions": "expansiones",
    "reset": "restablecer",
}

#: English descriptions and choice names -> Spanish (≤ 100 chars).
DESCRIPTIONS_ES: dict[str, str] = {
    "Play Carcassonne in this channel": "Juega a Carcassonne en este canal",
    "Open a new Carcassonne table in this channel": "Abre una mesa nueva de Carcassonne en este canal",
    "Join the table in this channel": "Únete a la mesa de este canal",
    "Leave the table before it starts": "Sal de la mesa antes de que empiece",
    "Start the match (host)": "Empieza la partida (anfitrión)",
    "Place your tile (and optionally a follower)": "Coloca tu pieza (y, si quieres, un seguidor)",
    "Answer one of your open choices": "Responde a una de tus elecciones abiertas",
    "What you choose (the list shows your open choices)": "Lo que eliges (la lista muestra tus elecciones)",
    "Pass on your open choice (e.g. no follower)": "Pasa en tu elección abierta (p. ej. sin seguidor)",
    "Show the board": "Muestra el tablero",
    "Tiles not drawn yet, by type": "Piezas que quedan por robar, por tipo",
    "Show the scores": "Muestra la puntuación",
    "Take back your placement (before choosing a follower)": "Deshaz tu colocación (antes de elegir seguidor)",
    "Resign from the match": "Retírate de la partida",
    "Let an AI play your seat until you come back": "Deja que una IA juegue por ti hasta que vuelvas",
    "Play your seat again after /carcassonne away": "Vuelve a jugar tu asiento tras /carcassonne ausente",
    "Play at once against this many AI players": "Juega ya contra este número de jugadores IA",
    "How well the AI players play": "Lo bien que juegan las IA",
    "Turn clock: off, live (2 min a move) or async (24 h a move)": (
        "Reloj: sin, en vivo (2 min por jugada) o diferido (24 h por jugada)"
    ),
    "off": "sin reloj",
    "Vote to let an AI play a silent seat": "Vota para que una IA juegue un asiento callado",
    "Be pinged when it is your turn, or not": "Recibe o no un aviso cuando te toque",
    "Ping me on my turn": "Avisarme cuando me toque",
    "The player who has not moved": "El jugador que no ha jugado",
    "live: 2 min a move": "en vivo: 2 min por jugada",
    "async: 24 h a move": "diferido: 24 h por jugada",
    "easy": "fácil",
    "normal": "normal",
    "strong": "fuerte",
    "End the match in this channel (host or channel managers)": "Termina la partida del canal (anfitrión o gestores)",
    "How to play here": "Cómo se juega aquí",
    "The rule options of this match": "Las opciones de reglas de esta partida",
    "Number of players (2-6)": "Número de jugadores (2-6)",
    "How farms score at the end": "Cómo puntúan las granjas al final",
    "Points for a completed 2-tile city": "Puntos de una ciudad completa de 2 piezas",
    "Remind the player after this many minutes (0 = never)": "Recordar al jugador tras estos minutos (0 = nunca)",
    "Cell number from the board image": "Número de casilla de la imagen del tablero",
    "Clockwise rotation in degrees": "Giro en grados, en sentido horario",
    "Where to put a follower ('none' for no follower)": "Dónde poner un seguidor ('none' para ninguno)",
    "per farm (current rules)": "por granja (reglas actuales)",
    "per city supplied (1st edition)": "por ciudad abastecida (1.ª edición)",
    "2 points + 1 per shield": "2 puntos + 1 por escudo",
    "4 points + 2 per shield": "4 puntos + 2 por escudo",
    "The server's default options for new tables (managers)": (
        "Las opciones predeterminadas del servidor para mesas nuevas (gestores)"
    ),
    "Expansions, separated by commas ('none' for the base game)": (
        "Expansiones, separadas por comas ('none' para el juego base)"
    ),
    "Go back to the built-in defaults": "Volver a las opciones de fábrica",
}


NAMES_ES.update(i18n_stats.NAMES_ES)
DESCRIPTIONS_ES.update(i18n_stats.DESCRIPTIONS_ES)
i18n_de.NAMES.update(i18n_stats.NAMES_DE)
i18n_de.DESCRIPTIONS.update(i18n_stats.DESCRIPTIONS_DE)

#: slash-command names and descriptions by language (English: none, the commands' own)
NAMES: dict[Lang, dict[str, str]] = {Lang.ES: NAMES_ES, Lang.DE: i18n_de.NAMES}
DESCRIPTIONS: dict[Lang, dict[str, str]] = {Lang.ES: DESCRIPTIONS_ES, Lang.DE: i18n_de.DESCRIPTIONS}
CATALOGUE.register_lang(Lang.DE, {**i18n_de.TEXTS, **i18n_stats.DE})
