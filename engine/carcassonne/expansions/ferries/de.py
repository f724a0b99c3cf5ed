"""Die Fähren: the expansion's words in German (Fähre, See, Straßenenden)."""

from __future__ import annotations

from engine.core import messages

messages.register_lang(
    "de",
    {
        "choice.ferries.moves.placement": "für dieses Anlegen",
        "choice.ferries.moves.turn": "für den ganzen Zug",
        "exp.ferries": "Die Fähren",
        "facet.ferry": "Fährenzug",
        "facet.pair": "Paar von Straßenenden",
        "ferries.ends.ES": "Osten und Süden",
        "ferries.ends.EW": "Osten und Westen",
        "ferries.ends.NE": "Norden und Osten",
        "ferries.ends.NS": "Norden und Süden",
        "ferries.ends.NW": "Norden und Westen",
        "ferries.ends.SW": "Süden und Westen",
        "ferries.err.bad_pair": (
            "'{pair}' sind nicht zwei Straßenenden des Sees auf {cell}; wähle eines von {names}."
        ),
        "ferries.err.move_first": "Verschiebe zuerst eine Fähre oder passe.",
        "ferries.err.not_movable": (
            "'{value}' ist kein Fährenzug, den du jetzt machen darfst; wähle einen von {names} "
            "oder passe."
        ),
        "ferries.err.place_first": "Setze zuerst die Fähre auf den neuen See.",
        "ferries.move": (
            "Du darfst eine Fähre an einer Straße verschieben, die du verlängert hast: wähle "
            "ihren See und die zwei Straßenenden, die sie jetzt verbindet, oder passe."
        ),
        "ferries.moved": (
            "{seat} verschiebt die Fähre auf {cell}: sie verband die Straßenenden {before}, "
            "jetzt {after}."
        ),
        "ferries.place": (
            "Setze die Fähre auf den See auf {cell}: wähle die zwei Straßenenden, die sie "
            "verbindet."
        ),
        "ferries.placed": (
            "{seat} setzt die Fähre auf den See auf {cell} und verbindet die Straßenenden {pair}."
        ),
        "help.ferries.moves": (
            "für den ganzen Zug (Regelheft, auch die zweite Karte des Baumeisters) oder nur für "
            "dieses Anlegen einer Karte (JCloisterZone)"
        ),
        "open.ferries.move": "Fähre verschieben",
        "open.ferries.place": "Fähre setzen",
        "opt.ferries.moves": "Eine verschobene Fähre bleibt liegen",
        "symbol.lake": "See",
    },
)
