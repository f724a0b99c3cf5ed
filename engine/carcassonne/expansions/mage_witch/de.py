"""Magier und Hexe: the expansion's words in German (Magier, Hexe, Zauberkarte)."""

from __future__ import annotations

from engine.core import messages

messages.register_lang(
    "de",
    {
        "exp.mage_witch": "Magier und Hexe",
        "fig.mage": "Magier",
        "fig.witch": "Hexe",
        "mw.err.answer": (
            "Antworte mit einer Figur und einem Platz, wie in 'mw.move mage@2,-1@road:EW'."
        ),
        "mw.err.first": "Setze oder ziehe zuerst den Magier oder die Hexe.",
        "mw.err.off": (
            "Eine Figur darf nur vom Spielplan genommen werden, wenn keine der beiden "
            "irgendwohin kann."
        ),
        "mw.err.target": (
            "{figure} kann nicht auf {target}: wähle eine unfertige Straße oder Stadt auf einer "
            "anderen Karte, getrennt von der anderen Figur."
        ),
        "mw.join": "Magier und Hexe stehen im selben Gebiet: ziehe eine der beiden weg.",
        "mw.left": "{figure} verlässt den Spielplan.",
        "mw.move": (
            "Zauberkarte: setze oder ziehe den Magier oder die Hexe auf eine unfertige Straße "
            "oder Stadt."
        ),
        "mw.moved": "{seat} zieht {figure} auf {kind} auf {cell}.",
        "mw.obj.mage": "den Magier",
        "mw.obj.witch": "die Hexe",
        "mw.off": "{figure} vom Spielplan nehmen",
        "mw.placed": "{seat} stellt {figure} auf {kind} auf {cell}.",
        "mw.subj.mage": "Der Magier",
        "mw.subj.witch": "Die Hexe",
        "mw.taken_off": (
            "{seat} nimmt {figure} vom Spielplan: keine der beiden Figuren kann irgendwohin."
        ),
        "mw.where.city": "die Stadt",
        "mw.where.road": "die Straße",
        "open.mw.join": "Magier oder Hexe wegziehen",
        "open.mw.move": "Magier oder Hexe setzen",
        "part.mage": "+{n} Magier",
        "part.witch": "½ Hexe",
        "symbol.mage": "Zauberportal",
    },
)
