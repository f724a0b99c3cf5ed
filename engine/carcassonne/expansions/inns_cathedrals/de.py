"""Wirtshäuser und Kathedralen: the expansion's words in German."""

from __future__ import annotations

from engine.core import messages

messages.register_lang(
    "de",
    {
        "exp.inns_cathedrals": "Wirtshäuser und Kathedralen",
        "opt.ic.large_follower": "Großer Gefolgsmann",
        "fig.large": "großer Gefolgsmann",
        "symbol.inn": "Wirtshaus",
        "symbol.cathedral": "Kathedrale",
        "part.inn.one": "1 Karte × 2 (Wirtshaus)",
        "part.inn.many": "{n} Karten × 2 (Wirtshaus)",
        "part.inn_unfinished": "unfertige Straße mit Wirtshaus: 0",
        "part.cathedral.one": "1 Karte × 3 (Kathedrale)",
        "part.cathedral.many": "{n} Karten × 3 (Kathedrale)",
        "part.cathedral_unfinished": "unfertige Stadt mit Kathedrale: 0",
        "opt.ic.inns": "Wirtshäuser",
        "opt.ic.cathedrals": "Kathedralen",
        "help.ic.large_follower": "alle haben einen großen Gefolgsmann (zählt 2)",
        "help.ic.inns": "Wirtshäuser verdoppeln eine fertige Straße, eine unfertige zählt 0",
        "help.ic.cathedrals": "Kathedralen: fertige Stadt 3 je Karte/Wappen",
    },
)
