"""Die Räuber: the expansion's words in German (Räuber, Zählstein, Zählleiste)."""

from __future__ import annotations

from engine.core import messages

messages.register_lang(
    "de",
    {
        "choice.robbers.offer.each": "jeder andere Spieler",
        "choice.robbers.offer.next": "der nächste Spieler",
        "exp.robbers": "Die Räuber",
        "fig.robber": "Räuber",
        "help.robbers.offer": (
            "nach dem aktiven Spieler darf nur der nächste Spieler mit seinem Räuber vor sich "
            "ihn einsetzen (Regelheft 001), oder jeder andere Spieler der Reihe nach "
            "(englische Regeln)"
        ),
        "open.robbers.follow": "Räuber mitziehen",
        "open.robbers.place": "Räuber einsetzen",
        "open.robbers.steal": "Wähle, was dein Räuber stiehlt",
        "opt.robbers.offer": "Räuber-Angebot",
        "part.robber": "die Hälfte der {of} von {victim_seat}, aufgerundet: {n}",
        "robbers.err.choice": "'{value}' ist keine der Möglichkeiten; wähle eine von {names}.",
        "robbers.err.first": "Entscheide zuerst über deinen Räuber.",
        "robbers.err.space": (
            "Auf Feld '{space}' steht kein Zählstein eines anderen Spielers; "
            "wähle eines von {names}."
        ),
        "robbers.follow": "Dein Räuber zieht mit: wähle, welchem Zählstein er folgt.",
        "robbers.followed": (
            "Der Räuber von {seat} zieht mit dem Zählstein von {victim_seat} auf Feld {space}."
        ),
        "robbers.marker": "Zählstein",
        "robbers.on_track": "Räuber auf Feld {space}",
        "robbers.place": (
            "Stelle deinen Räuber neben den Zählstein eines anderen Spielers, oder passe."
        ),
        "robbers.removed": (
            "{n} {n:Räuber|Räuber} auf der Zählleiste {n:kehrt|kehren} zu "
            "{n:seinem Besitzer|ihren Besitzern} zurück."
        ),
        "robbers.space": "Feld {space}",
        "robbers.steal": (
            "Dein Räuber stiehlt einmal: wähle, von welcher Wertung er die Hälfte nimmt."
        ),
        "robbers.stole": "Der Räuber von {seat} nimmt {n} der {of} Punkte von {victim_seat}.",
        "robbers.supply": "Räuber vor sich",
        "robbers.take": "die Hälfte der {of} von {victim_seat}: {n}",
        "robbers.take_with": "die Hälfte der {of} von {victim_seat}: {n}, mit deinem {figure}",
        "score.robber": "Räuber",
        "symbol.robber": "Räubersymbol",
    },
)
