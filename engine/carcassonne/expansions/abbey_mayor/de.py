"""Abtei und Bürgermeister: the expansion's words in German (Abtei, Bürgermeister, Wagen,
Scheune)."""

from __future__ import annotations

from engine.core import messages

messages.register_lang(
    "de",
    {
        "exp.abbey_mayor": "Abtei und Bürgermeister",
        "opt.am.abbey": "Abtei",
        "help.am.abbey": "alle haben eine Abtei, die statt einer gezogenen Karte ein Loch füllt",
        "opt.am.mayor": "Bürgermeister",
        "help.am.mayor": "alle haben einen Bürgermeister (zählt die Wappen der Stadt)",
        "opt.am.barn": "Scheune",
        "help.am.barn": "alle haben eine Scheune für eine Ecke, an der vier Wiesen zusammentreffen",
        "opt.am.wagon": "Wagen",
        "help.am.wagon": "alle haben einen Wagen, der nach der Wertung seines Gebiets weiterfahren darf",
        "opt.am.wagon_move": "Wagen fährt",
        "help.am.wagon_move": (
            "entlang einer Straße: zu einem über eine Straße verbundenen Gebiet (Spielregel); "
            "zu einer nahen Karte: zu jedem Gebiet auf derselben oder einer angrenzenden Karte "
            "(wie JCloisterZone spielt)"
        ),
        "opt.am.final_abbeys": "Abteien nach der letzten Karte",
        "help.am.final_abbeys": (
            "nach der letzten Karte darf reihum noch jede Person ihre Abtei in ein Loch legen, "
            "dann wird gewertet (wie JCloisterZone spielt)"
        ),
        "choice.am.wagon_move.road": "entlang einer Straße",
        "choice.am.wagon_move.near": "zu einer nahen Karte",
        "fig.mayor": "Bürgermeister",
        "fig.barn": "Scheune",
        "fig.wagon": "Wagen",
        "kind_corner": "Ecke",
        "am.abbey": (
            "Lege deine Abtei in ein Loch, statt eine Karte zu ziehen, oder passe und ziehe."
        ),
        "am.abbey.final": "Die letzte Karte liegt: lege deine Abtei in ein Loch oder passe.",
        "am.wagon": (
            "Dein Wagen kehrt von {feature} zurück: fahre ihn weiter zu einer verbundenen "
            "unfertigen Straße, Stadt oder einem Kloster, oder passe und behalte ihn."
        ),
        "am.where.road": "der Straße",
        "am.where.city": "der Stadt",
        "am.where.cloister": "dem Kloster",
        "am.abbey_played": "{seat} legt die Abtei auf {cell}.",
        "am.wagon_moved": "Der Wagen von {seat} fährt weiter zu {kind} auf {cell}.",
        "am.abbeys_held": "Abtei: {n}",
        "part.barn_placed.one": "Scheune eingesetzt: 1 fertige Stadt × {k}",
        "part.barn_placed.many": "Scheune eingesetzt: {n} fertige Städte × {k}",
        "part.barn_joined.one": "an die Wiese einer Scheune angeschlossen: 1 fertige Stadt × {k}",
        "part.barn_joined.many": (
            "an die Wiese einer Scheune angeschlossen: {n} fertige Städte × {k}"
        ),
        "part.barn_final.one": "Scheune: 1 fertige Stadt × {k}",
        "part.barn_final.many": "Scheune: {n} fertige Städte × {k}",
        "part.mayor_no_pennants": "ein Bürgermeister in einer Stadt ohne Wappen zählt 0: 0",
        "am.err.no_abbey": "Du hast keine Abtei mehr.",
        "am.err.not_a_hole": (
            "Die Abtei kommt nur in ein leeres Feld mit Karten an allen vier Seiten; {cell} "
            "ist keines."
        ),
        "am.err.abbey_answer": (
            "Antworte mit einem Feld wie 'am.abbey 2,-1' oder passe, um eine Karte zu ziehen."
        ),
        "am.err.wagon_target": (
            "Dein Wagen kann nicht zu {target} fahren: Es muss eine unfertige Straße, Stadt "
            "oder ein Kloster ohne Figur sein, verbunden mit dem gerade gewerteten Gebiet."
        ),
        "am.err.wagon_answer": (
            "Antworte mit einem Platz auf einer Karte wie 'am.wagon 2,-1@road:EW' oder passe."
        ),
        "am.err.barn_corner": (
            "Die Scheune kommt nur auf eine Ecke der gelegten Karte, an der vier Wiesen "
            "zusammentreffen, in eine Wiese ohne Scheune."
        ),
        "am.err.mayor_city": "Der Bürgermeister kommt nur in eine Stadt.",
        "am.err.wagon_field": "Der Wagen kommt nie auf eine Wiese.",
        "am.err.barn_farm": "Auf eine Wiese mit Scheune darf keine Figur.",
        "am.err.wait_abbey": "Lege zuerst deine Abtei oder passe, um eine Karte zu ziehen.",
        "am.err.wait_wagon": "Fahre zuerst deinen Wagen weiter oder passe.",
    },
)
