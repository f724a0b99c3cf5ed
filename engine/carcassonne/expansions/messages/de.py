"""Die Botschaften: the expansion's words in German (Botin, Botschaft, Siegel)."""

from __future__ import annotations

from engine.core import messages

messages.register_lang(
    "de",
    {
        "choice.messages.choice.ask": "jedes Mal fragen",
        "choice.messages.choice.dark": "Zählstein, außer die Botin erreicht ein dunkles Feld",
        "choice.messages.choice.main": "immer der Zählstein",
        "choice.messages.choice.messenger": "immer die Botin",
        "exp.messages": "Die Botschaften",
        "fig.messages.messenger": "Botin",
        "help.messages.choice": (
            "ob jeder Spieler bei jeder Wertung gefragt wird, welche Figur zieht, oder eine feste "
            "Wahl gilt, bis er sie ändert"
        ),
        "messages.act.feature": "{kind} auf {cell} werten: {n} {n:Punkt|Punkte}",
        "messages.act.nothing": "Ausführen: bringt jetzt nichts (die 2 Punkte sind vielleicht besser)",
        "messages.act.points": "Ausführen: {n} {n:Punkt|Punkte}",
        "messages.act.remove": "{figure} auf {cell} entfernen: {n} {n:Punkt|Punkte}",
        "messages.act.tile": "Eine weitere Karte legen",
        "messages.always.dark": ("Ab jetzt: Zählstein, außer die Botin erreicht ein dunkles Feld"),
        "messages.card.1": "Botschaft 1, «Die kürzeste Straße werten» («Puntuar el camino más corto»)",
        "messages.card.2": "Botschaft 2, «Die kleinste Stadt werten» («Puntuar la ciudad más pequeña»)",
        "messages.card.3": (
            "Botschaft 3, «Das kleinste Kloster werten» («Puntuar el claustro más pequeño»)"
        ),
        "messages.card.4": "Botschaft 4, «2 Punkte je Wappen» («Por cada escudo 2 puntos»)",
        "messages.card.5": "Botschaft 5, «2 Punkte je Ritter» («Por cada caballero 2 puntos»)",
        "messages.card.6": "Botschaft 6, «2 Punkte je Bauer» («Por cada granjero 2 puntos»)",
        "messages.card.7": "Botschaft 7, «Eine weitere Karte legen» («Colocar una pieza más»)",
        "messages.card.8": (
            "Botschaft 8, «Einen Gefolgsmann werten und entfernen» "
            "(«Puntuar un seguidor y quitarlo del tablero»)"
        ),
        "messages.counter": "Botin {n}",
        "messages.drawn": "{seat} zieht {card}.",
        "messages.err.figure": "'{value}' ist keine Figurenwahl; antworte mit einer von {names}.",
        "messages.err.first": "Sage zuerst, welche Wertungsfigur zieht, oder nutze die Botschaft.",
        "messages.err.message": (
            "'{value}' ist keine Möglichkeit dieser Botschaft; antworte mit einer von {names}."
        ),
        "messages.figure": "{seat}: {n} {n:Punkt|Punkte} ({what}). Welche Wertungsfigur zieht?",
        "messages.kind.city": "Stadt",
        "messages.kind.cloister": "Kloster",
        "messages.kind.road": "Straße",
        "messages.main": "Zählstein",
        "messages.message": ("{seat} zieht {card}. Ausführen oder 2 Punkte nehmen (das Siegel)?"),
        "messages.moved": "{seat} zieht {figure} {n} {n:Feld|Felder} weiter auf {space}.",
        "messages.moved.dark": (
            "{seat} zieht {figure} {n} {n:Feld|Felder} weiter auf {space}, ein dunkles Feld."
        ),
        "messages.seal": "2 Punkte nehmen",
        "messages.to.main": "Zählstein → {space}",
        "messages.to.main.dark": "Zählstein → {space} (dunkel: eine Botschaft)",
        "messages.to.messenger": "Botin → {space}",
        "messages.to.messenger.dark": "Botin → {space} (dunkel: eine Botschaft)",
        "messages.used.act": "{seat} führt Botschaft {n} aus; sie kommt unter den Stapel.",
        "messages.used.seal": (
            "{seat} nimmt 2 Punkte für Botschaft {n}; sie kommt unter den Stapel."
        ),
        "messages.what.city": "Stadt",
        "messages.what.cloister": "Kloster",
        "messages.what.farm": "Wiese",
        "messages.what.road": "Straße",
        "open.messages.figure": "Wertungsfigur ziehen",
        "open.messages.message": "Botschaft nutzen",
        "opt.messages.choice": "Welche Wertungsfigur zieht",
        "part.messages.farmers.many": "{n} Bauern × 2",
        "part.messages.farmers.one": "1 Bauer × 2",
        "part.messages.knights.many": "{n} Ritter × 2",
        "part.messages.knights.one": "1 Ritter × 2",
        "part.messages.no_majority": "keine Mehrheit: 0",
        "part.messages.seal": "Siegel 2",
        "part.messages.shields.many": "{n} Wappen × 2",
        "part.messages.shields.one": "1 Wappen × 2",
        "score.messages": "Botschaft",
    },
)
