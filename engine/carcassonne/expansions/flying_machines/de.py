"""Die Fluggeräte: the expansion's words in German."""

from __future__ import annotations

from engine.core import messages

messages.register_lang(
    "de",
    {
        "exp.flying_machines": "Die Fluggeräte",
        "symbol.flier": "Fluggerät",
        "opt.flier.figures": "Wer fliegen darf",
        "help.flier.figures": (
            "ein normaler oder großer Gefolgsmann (Spielregel) oder jede Gefolgsfigur, die "
            "nur landet, wo sie stehen darf (wie JCloisterZone spielt: Bürgermeister, Wagen)"
        ),
        "choice.flier.figures.followers": "normale und große Gefolgsleute",
        "choice.flier.figures.all": "jede Gefolgsfigur",
        "opt.flier.after_failed": "Nach einem gescheiterten Flug",
        "help.flier.after_failed": (
            "der Gefolgsmann geht in den Vorrat zurück und kein anderer kommt auf diese Karte "
            "(Vorschlag), oder keiner mehr in diesem Zug, die zweite Karte des Baumeisters "
            "eingeschlossen («durante ese turno»)"
        ),
        "choice.flier.after_failed.placement": "keiner auf dieser Karte",
        "choice.flier.after_failed.turn": "keiner im ganzen Zug",
        "kind_flier": "Fluggerät",
        "place.kind.flier": "Fluggerät",
        "flier.land": (
            "Der Würfel zeigt {n}: {figure} fliegt auf {cell}. Wähle die unfertige Straße, "
            "Stadt oder das Kloster, auf dem er landet."
        ),
        "open.flier.land": "Landeplatz wählen",
        "flier.boarded": (
            "{seat} setzt {figure} auf das Fluggerät auf {cell}, Richtung {direction}, und "
            "würfelt mit dem Spezialwürfel."
        ),
        "flier.flew.one": "{figure} von {seat} fliegt 1 Karte nach {direction}, auf {cell}.",
        "flier.flew.many": "{figure} von {seat} fliegt {n} Karten nach {direction}, auf {cell}.",
        "flier.home.no_tile.one": (
            "{figure} von {seat} fliegt 1 Karte nach {direction}, auf {cell}, aber dort liegt "
            "keine Karte: zurück in den Vorrat."
        ),
        "flier.home.no_tile.many": (
            "{figure} von {seat} fliegt {n} Karten nach {direction}, auf {cell}, aber dort "
            "liegt keine Karte: zurück in den Vorrat."
        ),
        "flier.home.nowhere.one": (
            "{figure} von {seat} fliegt 1 Karte nach {direction}, auf {cell}, wo nur fertige "
            "Gebiete und Wiesen sind: zurück in den Vorrat."
        ),
        "flier.home.nowhere.many": (
            "{figure} von {seat} fliegt {n} Karten nach {direction}, auf {cell}, wo nur "
            "fertige Gebiete und Wiesen sind: zurück in den Vorrat."
        ),
        "flier.landed": "{figure} von {seat} landet auf {cell}: {where}.",
        "flier.where.road": "Straße",
        "flier.where.city": "Stadt",
        "flier.where.cloister": "Kloster",
        "flier.dir.N": "Norden",
        "flier.dir.NE": "Nordosten",
        "flier.dir.E": "Osten",
        "flier.dir.SE": "Südosten",
        "flier.dir.S": "Süden",
        "flier.dir.SW": "Südwesten",
        "flier.dir.W": "Westen",
        "flier.dir.NW": "Nordwesten",
        "flier.err.land_first": "Dein Gefolgsmann ist in der Luft: wähle zuerst den Landeplatz.",
        "flier.err.not_a_landing": "'{spot}' ist kein Landeplatz; er kann landen auf {names}.",
        "flier.err.grounded": (
            "Dein Flug ist diesen Zug gescheitert: kein weiterer Gefolgsmann bis zum Zugende."
        ),
    },
)
