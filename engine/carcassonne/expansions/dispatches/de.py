"""Die Botschaften: the expansion's words in German (Botin, Botschaft, Siegel)."""

from __future__ import annotations

from engine.core import messages

messages.register_lang(
    "de",
    {
        "choice.dispatches.choice.ask": "jedes Mal fragen",
        "choice.dispatches.choice.dark": "Zählstein, außer die Botin erreicht ein dunkles Feld",
        "choice.dispatches.choice.main": "immer der Zählstein",
        "choice.dispatches.choice.messenger": "immer die Botin",
        "exp.dispatches": "Die Botschaften",
        "fig.dispatches.messenger": "Botin",
        "help.dispatches.choice": (
            "ob jeder Spieler bei jeder Wertung gefragt wird, welche Figur zieht, oder eine feste "
            "Wahl gilt, bis er sie ändert"
        ),
        "dispatches.act.feature": "{kind} auf {cell} werten: {n} {n:Punkt|Punkte}",
        "dispatches.act.nothing": "Ausführen: bringt jetzt nichts (die 2 Punkte sind vielleicht besser)",
        "dispatches.act.points": "Ausführen: {n} {n:Punkt|Punkte}",
        "dispatches.act.remove": "{figure} auf {cell} entfernen: {n} {n:Punkt|Punkte}",
        "dispatches.act.tile": "Eine weitere Karte legen",
        "dispatches.always.dark": (
            "Ab jetzt: Zählstein, außer die Botin erreicht ein dunkles Feld"
        ),
        "dispatches.card.1": "Botschaft 1, «Die kürzeste Straße werten» («Puntuar el camino más corto»)",
        "dispatches.card.2": "Botschaft 2, «Die kleinste Stadt werten» («Puntuar la ciudad más pequeña»)",
        "dispatches.card.3": (
            "Botschaft 3, «Das kleinste Kloster werten» («Puntuar el claustro más pequeño»)"
        ),
        "dispatches.card.4": "Botschaft 4, «2 Punkte je Wappen» («Por cada escudo 2 puntos»)",
        "dispatches.card.5": "Botschaft 5, «2 Punkte je Ritter» («Por cada caballero 2 puntos»)",
        "dispatches.card.6": "Botschaft 6, «2 Punkte je Bauer» («Por cada granjero 2 puntos»)",
        "dispatches.card.7": "Botschaft 7, «Eine weitere Karte legen» («Colocar una pieza más»)",
        "dispatches.card.8": (
            "Botschaft 8, «Einen Gefolgsmann werten und entfernen» "
            "(«Puntuar un seguidor y quitarlo del tablero»)"
        ),
        "dispatches.counter": "Botin {n}",
        "dispatches.drawn": "{seat} zieht {card}.",
        "dispatches.err.figure": "'{value}' ist keine Figurenwahl; antworte mit einer von {names}.",
        "dispatches.err.first": "Sage zuerst, welche Wertungsfigur zieht, oder nutze die Botschaft.",
        "dispatches.err.message": (
            "'{value}' ist keine Möglichkeit dieser Botschaft; antworte mit einer von {names}."
        ),
        "dispatches.figure": "{seat}: {n} {n:Punkt|Punkte} ({what}). Welche Wertungsfigur zieht?",
        "dispatches.kind.city": "Stadt",
        "dispatches.kind.cloister": "Kloster",
        "dispatches.kind.road": "Straße",
        "dispatches.main": "Zählstein",
        "dispatches.message": ("{seat} zieht {card}. Ausführen oder 2 Punkte nehmen (das Siegel)?"),
        "dispatches.moved": "{seat} zieht {figure} {n} {n:Feld|Felder} weiter auf {space}.",
        "dispatches.moved.dark": (
            "{seat} zieht {figure} {n} {n:Feld|Felder} weiter auf {space}, ein dunkles Feld."
        ),
        "dispatches.seal": "2 Punkte nehmen",
        "dispatches.to.main": "Zählstein → {space}",
        "dispatches.to.main.dark": "Zählstein → {space} (dunkel: eine Botschaft)",
        "dispatches.to.messenger": "Botin → {space}",
        "dispatches.to.messenger.dark": "Botin → {space} (dunkel: eine Botschaft)",
        "dispatches.used.act": "{seat} führt Botschaft {n} aus; sie kommt unter den Stapel.",
        "dispatches.used.seal": (
            "{seat} nimmt 2 Punkte für Botschaft {n}; sie kommt unter den Stapel."
        ),
        "dispatches.what.city": "Stadt",
        "dispatches.what.cloister": "Kloster",
        "dispatches.what.farm": "Wiese",
        "dispatches.what.road": "Straße",
        "open.dispatches.figure": "Wertungsfigur ziehen",
        "open.dispatches.message": "Botschaft nutzen",
        "opt.dispatches.choice": "Welche Wertungsfigur zieht",
        "part.dispatches.farmers.many": "{n} Bauern × 2",
        "part.dispatches.farmers.one": "1 Bauer × 2",
        "part.dispatches.knights.many": "{n} Ritter × 2",
        "part.dispatches.knights.one": "1 Ritter × 2",
        "part.dispatches.no_majority": "keine Mehrheit: 0",
        "part.dispatches.seal": "Siegel 2",
        "part.dispatches.shields.many": "{n} Wappen × 2",
        "part.dispatches.shields.one": "1 Wappen × 2",
        "score.dispatches": "Botschaft",
    },
)
