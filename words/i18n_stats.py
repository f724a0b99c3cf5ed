"""The words of ``/carcassonne leaderboard``, ``stats`` and ``history`` (English, Spanish, German),
merged into :mod:`words.i18n`'s catalogue and command names."""

from __future__ import annotations

#: key -> (English, Spanish)
TEXTS: dict[str, tuple[str, str]] = {
    "lb_title": ("🏆 Leaderboard of this server", "🏆 Clasificación de este servidor"),
    "lb_line": (
        "{place}. {player} — **{rating}** ({games} games)",
        "{place}. {player} — **{rating}** ({games} partidas)",
    ),
    "lb_empty": (
        "Nobody here has a rating yet: finish a game between people to get one.",
        "Aquí nadie tiene puntuación aún: termina una partida entre personas para tenerla.",
    ),
    "lb_page": ("Page {page} of {pages}", "Página {page} de {pages}"),
    "page_prev": ("◀ Previous", "◀ Anterior"),
    "page_next": ("Next ▶", "Siguiente ▶"),
    "st_title": ("📊 Stats of {player}", "📊 Estadísticas de {player}"),
    "st_games": ("Games", "Partidas"),
    "st_wins": ("Wins", "Victorias"),
    "st_mean": ("Mean score", "Puntuación media"),
    "st_pace": ("Time per move", "Tiempo por jugada"),
    "st_rating": ("Rating", "Puntuación de habilidad"),
    "st_rating_value": (
        "{rating} here ({trend} over the last games), {world} worldwide",
        "{rating} aquí ({trend} en las últimas partidas), {world} en total",
    ),
    "st_unrated": ("not rated yet", "sin puntuar aún"),
    "st_expansions": ("Favourite expansions", "Expansiones favoritas"),
    "st_base_only": ("the base game only", "solo el juego básico"),
    "st_last": ("Last games", "Últimas partidas"),
    "st_none": (
        "{player} has not finished a game on this server yet.",
        "{player} aún no ha terminado ninguna partida en este servidor.",
    ),
    "hi_title": ("📜 Finished games", "📜 Partidas terminadas"),
    "hi_title_server": ("📜 Finished games of this server", "📜 Partidas terminadas del servidor"),
    "hi_game": ("Game {id} · {game} · {date}", "Partida {id} · {game} · {date}"),
    "hi_empty": ("No finished games here yet.", "Aún no hay partidas terminadas aquí."),
    "hi_left": ("left", "se fue"),
    "hi_unrated": ("not rated (AI seats)", "sin puntuar (asientos de IA)"),
    "hi_record": (
        "The record of game {id}: `carcabot replay` reads it.",
        "El registro de la partida {id}: lo lee `carcabot replay`.",
    ),
    "hi_no_game": ("There is no finished game {id} here.", "Aquí no hay partida terminada {id}."),
    "game_carcassonne": ("Carcassonne", "Carcassonne"),
    "game_cardgame": ("card game", "juego de cartas"),
}

#: key -> German
DE: dict[str, str] = {
    "lb_title": "🏆 Bestenliste dieses Servers",
    "lb_line": "{place}. {player} — **{rating}** ({games} Partien)",
    "lb_empty": "Hier hat noch niemand eine Wertung: beendet eine Partie unter Menschen.",
    "lb_page": "Seite {page} von {pages}",
    "page_prev": "◀ Zurück",
    "page_next": "Weiter ▶",
    "st_title": "📊 Statistik von {player}",
    "st_games": "Partien",
    "st_wins": "Siege",
    "st_mean": "Mittlere Punktzahl",
    "st_pace": "Zeit pro Zug",
    "st_rating": "Wertung",
    "st_rating_value": "{rating} hier ({trend} in den letzten Partien), {world} weltweit",
    "st_unrated": "noch nicht gewertet",
    "st_expansions": "Lieblingserweiterungen",
    "st_base_only": "nur das Grundspiel",
    "st_last": "Letzte Partien",
    "st_none": "{player} hat auf diesem Server noch keine Partie beendet.",
    "hi_title": "📜 Beendete Partien",
    "hi_title_server": "📜 Beendete Partien dieses Servers",
    "hi_game": "Partie {id} · {game} · {date}",
    "hi_empty": "Hier gibt es noch keine beendeten Partien.",
    "hi_left": "ausgestiegen",
    "hi_unrated": "nicht gewertet (KI-Plätze)",
    "hi_record": "Das Protokoll von Partie {id}: `carcabot replay` liest es.",
    "hi_no_game": "Hier gibt es keine beendete Partie {id}.",
    "game_carcassonne": "Carcassonne",
    "game_cardgame": "Kartenspiel",
}

#: command and option names: English -> Spanish, English -> German
NAMES_ES: dict[str, str] = {
    "leaderboard": "clasificacion",
    "stats": "estadisticas",
    "player": "jugador",
    "history": "historial",
    "server": "servidor",
    "game": "partida",
}
NAMES_DE: dict[str, str] = {
    "leaderboard": "bestenliste",
    "stats": "statistik",
    "player": "spieler",
    "history": "verlauf",
    "server": "server",
    "game": "partie",
}

#: descriptions: English -> Spanish, English -> German
DESCRIPTIONS_ES: dict[str, str] = {
    "The best players of this server": "Los mejores jugadores de este servidor",
    "A player's games, wins, scores and rating": (
        "Partidas, victorias, puntos y puntuación de un jugador"
    ),
    "Whose stats (you when left out)": "De quién (tú si lo dejas vacío)",
    "Finished games here, with their final tables": (
        "Partidas terminadas aquí, con su clasificación final"
    ),
    "The whole server instead of this channel": "Todo el servidor en vez de este canal",
    "A game's number: its record file": "El número de una partida: su archivo de registro",
}
DESCRIPTIONS_DE: dict[str, str] = {
    "The best players of this server": "Die besten Spielenden dieses Servers",
    "A player's games, wins, scores and rating": "Partien, Siege, Punkte und Wertung",
    "Whose stats (you when left out)": "Wessen Statistik (ohne Angabe: deine)",
    "Finished games here, with their final tables": "Beendete Partien hier, mit Endstand",
    "The whole server instead of this channel": "Der ganze Server statt dieses Kanals",
    "A game's number: its record file": "Die Nummer einer Partie: ihr Protokoll",
}
