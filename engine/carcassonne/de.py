"""The base game's words in German (the rules modules register their English and Spanish
pairs; these are the same keys), in the terms of the German rulebook: Landschaftskarte,
Gefolgsmann, Stadt, Straße, Kloster, Wiese, Wappen, Zählleiste."""

from __future__ import annotations

from engine.core import messages

messages.register_lang(
    "de",
    {
        "err.bad_rotation": "'{text}' ist keine Drehung; nimm 0, 90, 180 oder 270",
        "err.bad_position": "'{text}' ist kein Feld des Spielplans; schreibe es als x,y (z. B. 2,-1)",
        "err.empty_action": "leerer Zug",
        "err.unknown_figure": "unbekannte Figur '{figure}'",
        "err.action_usage": "schreibe '{usage}'",
        "err.not_an_action": (
            "'{text}' ist kein Zug; schreibe 'place X,Y r90', 'deploy SPOT' oder 'pass'"
        ),
        "part.tiles.one": "1 Karte × {k}",
        "part.tiles.many": "{n} Karten × {k}",
        "part.shields.one": "1 Wappen × {k}",
        "part.shields.many": "{n} Wappen × {k}",
        "part.tiny_city": "Stadt aus 2 Karten: 2",
        "part.cloister": "Kloster 1",
        "part.around.one": "1 Karte rundherum × 1",
        "part.around.many": "{n} Karten rundherum × 1",
        "part.cities.one": "1 fertige Stadt × {k}",
        "part.cities.many": "{n} fertige Städte × {k}",
        "part.supplies": "versorgt eine fertige Stadt aus {n} Karten: 3",
        "event.die_rolled": "{seat} würfelt eine {value}.",
        "event.track_moved": "{figure} von {seat} zieht auf der Zählleiste auf {space}.",
        "event.track_left": "{figure} von {seat} verlässt die Zählleiste.",
        "err.players": "Carcassonne braucht {low}–{high} Spielende",
        "err.option_count": "{option} muss eine ganze Zahl von 0 bis 99 sein",
        "err.option_bool": "{option} muss wahr oder falsch sein",
        "err.option_value": "{option} muss eines von {values} sein",
        "err.no_answer_now": "Diese Wahl nimmt gerade keine Antwort an.",
        "err.not_an_answer": "'{action}' beantwortet die offene Wahl nicht.",
        "err.stale": "Diese Wahl ist veraltet: nimm die neueste.",
        "err.not_your_turn": "Du bist nicht am Zug: Platz {who} ist dran.",
        "core.side.north": "Norden",
        "core.side.east": "Osten",
        "core.side.south": "Süden",
        "core.side.west": "Westen",
        "core.edge.city": "Stadt",
        "core.edge.road": "Straße",
        "core.edge.field": "Wiese",
        "err.tile_there": "Auf {pos} liegt schon eine Karte.",
        "err.not_adjacent": (
            "{pos} berührt keine Karte: Eine neue Karte muss eine ganze Kante mit einer teilen."
        ),
        "err.edge_mismatch": (
            "Bei {degrees}° ist die Kante im {side} der Karte {have}, aber die Karte auf {npos} "
            "hat dort {need}."
        ),
        "err.no_figure_left": "{figure}: Davon ist in deinem Vorrat keine Figur mehr.",
        "err.no_farmers": "In dieser Partie gibt es keine Bauern.",
        "err.occupied.city": (
            "Diese Stadt ist schon besetzt (sie hängt an einer Stadt mit einer Figur darauf)."
        ),
        "err.occupied.road": (
            "Diese Straße ist schon besetzt (sie hängt an einer Straße mit einer Figur darauf)."
        ),
        "err.occupied.field": (
            "Diese Wiese ist schon besetzt (sie hängt an einer Wiese mit einer Figur darauf)."
        ),
        "err.occupied.cloister": (
            "Dieses Kloster ist schon besetzt (es hängt an einem Kloster mit einer Figur darauf)."
        ),
        "err.cannot_deploy": "Dort kannst du die Figur {figure} nicht einsetzen.",
        "err.bad_spot": "'{spot}' ist kein Platz dieser Karte; ihre Plätze sind {names}",
        "err.unknown_expansion": "die Erweiterung '{id}' ist noch nicht spielbar",
        "core.place": "Lege deine Karte an: {tile}.",
        "core.deploy": "Setze eine Figur auf die gelegte Karte oder passe.",
        "facet.cell": "Feld",
        "facet.rotation": "Drehung",
        "facet.spot": "Platz",
        "facet.figure": "Figur",
        "fig.follower": "Gefolgsmann",
        "err.placement": "Diese Platzierung ist nicht erlaubt.",
        "err.place_first": "Lege zuerst deine Karte an.",
        "err.game_over": "Das Spiel ist vorbei.",
        "err.deploy_or_pass": "Du hast deine Karte schon gelegt: setze eine Figur ein oder passe.",
    },
)
