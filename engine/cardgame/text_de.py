"""The card game's rules summary in German (:mod:`engine.cardgame.text`)."""

from __future__ import annotations

SUMMARY = """\
**Carcassonne – Das Kartenspiel** (2–5 Spielende)
**Reihen:** gelb = Kloster, rot = Straße, grün = Wiese, blau = Stadt. 130 Karten: je Farbe \
Personen 8×1, 5×2, 3×3, 5 Gebäude, 9 Tiere; Drache, Fee, 4 Tier-Joker, 4 Gebäude-Joker. \
Wer gibt, legt 10 Karten in ihre Reihen (Joker in eine Reihe nach Wahl).
**Verteilung (Spielende: Karten × Runden):** {deal}. Links vom Geber wird begonnen; gespielt \
wird im Uhrzeigersinn.
**Dein Zug — eines von beiden:**
• Lege eine Karte an das Ende einer Reihe, nie zwischen zwei Karten. Deine **erste Karte der \
Runde kommt verdeckt** in eine beliebige Reihe. Spätere Karten kommen offen in **die Reihe ihrer \
Farbe**; Joker in jede Reihe.
• Stelle deinen **großen Gefolgsmann** an das Ende einer Reihe: Er sichert die Karten bis zum \
Spielbrett oder bis zum vorigen Gefolgsmann. Wer den letzten Gefolgsmann der Runde stellt, gibt \
als Nächstes.
Die Runde endet, wenn alle Hände leer sind und alle Gefolgsleute stehen.
**Wertung der Runde** (gesicherte verdeckte Karten werden aufgedeckt):
• Personen: Summe der Werte × Anzahl der Personen, dann abgelegt.
• Tiere bleiben vor dir liegen; jedes Mal, wenn du welche erhältst, zählt der Tabellenwert der \
neuen Gesamtzahl jeder Art, die gewachsen ist: {animals}. Ein einzelner Tier-Joker (kein Tier \
vor dir) bringt {lone}; später schließt er sich einer Art an.
• Gebäude und Gebäude-Joker kommen unter deine Truhe, ungesehen bis zum Schluss.
• Drache / Fee: je {wild}.
• Eine verdeckte Karte in der falschen Reihe: eine Person bringt {wrong}; ein Tier oder \
Gebäude: {wrong} Punkte (Karte abgelegt) **oder** du behältst sie — du wählst.
**Spielende:** Sätze verschiedener Gebäude (Joker beliebig), die beste Aufteilung wird für dich \
gesucht: {sets}. Die meisten Punkte gewinnen; bei Gleichstand die meisten Gebäudekarten, \
sonst wird der Sieg geteilt.
{footnote}"""

FOOTNOTE = (
    "\\* angenommener Wert: Die gedruckte Tiertabelle liegt noch nicht vor; der Regeltext "
    "nennt nur {known}."
)
