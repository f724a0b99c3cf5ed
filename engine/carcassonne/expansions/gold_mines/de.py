"""Die Goldminen: the expansion's words in German (Goldbarren)."""

from __future__ import annotations

from engine.core import messages

messages.register_lang(
    "de",
    {
        "exp.gold_mines": "Die Goldminen",
        "symbol.gold": "Gold",
        "score.gold": "Gold",
        "gold.held": "{n} {n:Goldbarren|Goldbarren}",
        "part.gold.one": "1 Goldbarren × {k}",
        "part.gold.many": "{n} Goldbarren × {k}",
        "gold.bar": "Lege den zweiten Goldbarren auf eine Karte neben {cell} (auch diagonal).",
        "open.gold.bar": "Goldbarren legen",
        "gold.placed": "{seat} legt einen Goldbarren auf {cell}.",
        "gold.took": "{seat} nimmt {n} {n:Goldbarren|Goldbarren}.",
        "gold.removed": (
            "{n} {n:Goldbarren|Goldbarren}, die noch auf den Karten {n:liegt|liegen}, "
            "{n:wird|werden} entfernt."
        ),
        "gold.err.not_adjacent": (
            "'{cell}' ist keine Karte neben der Goldkarte; wähle eine von {names}."
        ),
        "gold.err.place_first": "Lege zuerst den zweiten Goldbarren.",
    },
)
