"""Die Kornkreise: the expansion's words in German (Kornkreis, Option A / B)."""

from __future__ import annotations

from engine.core import messages

messages.register_lang(
    "de",
    {
        "cc.choose": (
            "Kornkreis ({symbol}): wähle Option A (jeder Spieler darf einen {who} neben einen "
            "eigenen stellen) oder B (jeder Spieler muss einen seiner {whos} zurücknehmen)."
        ),
        "cc.choose.a": "A: einen {who} dazustellen",
        "cc.choose.b": "B: einen {who} zurücknehmen",
        "cc.chose.a": (
            "{seat} wählt Option A ({symbol}): jeder Spieler darf der Reihe nach einen {who} "
            "dazustellen."
        ),
        "cc.chose.b": (
            "{seat} wählt Option B ({symbol}): jeder Spieler nimmt der Reihe nach einen {who} "
            "zurück."
        ),
        "cc.err.answer_first": "Beantworte zuerst den Kornkreis.",
        "cc.err.choose": "'{value}' ist keine Option: wähle a oder b.",
        "cc.err.choose_first": "Wähle zuerst Option A oder B für den Kornkreis.",
        "cc.err.must_remove": "Option B ist Pflicht: nimm einen deiner {whos} zurück.",
        "cc.err.not_offered": (
            "'{value}' ist keiner deiner {whos}, mit denen du antworten darfst; wähle einen von "
            "{names}."
        ),
        "cc.passed": "{seat} stellt keinen Gefolgsmann dazu.",
        "cc.round.a": (
            "Kornkreis, Option A: du darfst eine Figur aus deinem Vorrat neben einen deiner "
            "{whos} stellen."
        ),
        "cc.round.b": "Kornkreis, Option B: nimm einen deiner {whos} in deinen Vorrat zurück.",
        "cc.skipped.a": (
            "{seat} hat keinen {who}, neben den er einen stellen könnte (oder keinen "
            "Gefolgsmann mehr), und wird übersprungen."
        ),
        "cc.skipped.b": "{seat} hat keinen {who} auf dem Spielplan und wird übersprungen.",
        "cc.strip.a": (
            "Kornkreis ({symbol}), Option A: jeder Spieler darf der Reihe nach einen neben seine "
            "{whos} stellen"
        ),
        "cc.strip.b": (
            "Kornkreis ({symbol}), Option B: jeder Spieler nimmt der Reihe nach einen seiner "
            "{whos} zurück"
        ),
        "cc.strip.choose": "Kornkreis ({symbol}): Option A (dazustellen) oder B (zurücknehmen) für {whos}?",
        "cc.took_back": "{seat} nimmt seinen {figure} auf {cell} zurück.",
        "cc.who.club": "Wegelagerer",
        "cc.who.pitchfork": "Bauern",
        "cc.who.shield": "Ritter",
        "cc.whos.club": "Wegelagerer",
        "cc.whos.pitchfork": "Bauern",
        "cc.whos.shield": "Ritter",
        "exp.crop_circles": "Die Kornkreise",
        "help.cc.set_i": (
            "die sechs Karten der Ausgabe 2010 im Stapel (mit denen von 2012, wenn beide an sind)"
        ),
        "help.cc.set_ii": (
            "die sechs Karten der Ausgabe 2012, eine aus jeder kleinen Erweiterung (auch, wenn "
            "keine Ausgabe gewählt ist)"
        ),
        "open.cc.choose": "A oder B wählen",
        "open.cc.round": "Auf den Kornkreis antworten",
        "opt.cc.set_i": "Kornkreis-Karten von 2010",
        "opt.cc.set_ii": "Kornkreis-Karten von 2012",
        "symbol.crop_circle": "Kornkreis",
        "symbol.crop_circle.club": "Keule",
        "symbol.crop_circle.pitchfork": "Heugabel",
        "symbol.crop_circle.shield": "Wappen",
    },
)
