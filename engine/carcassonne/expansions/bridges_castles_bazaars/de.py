"""Brücken, Burgen und Basare: the expansion's words in German."""

from __future__ import annotations

from engine.core import messages

messages.register_lang(
    "de",
    {
        "exp.bridges_castles_bazaars": "Brücken, Burgen und Basare",
        "opt.bcb.bridges": "Brücken",
        "help.bcb.bridges": "Holzbrücken führen Straßen über Wiesen (je 3, 2 bei 5–6 Spielenden)",
        "opt.bcb.castles": "Burgen",
        "help.bcb.castles": "eine eigene fertige kleine Stadt kann eine Burg werden (je 3, 2 bei 5–6)",
        "opt.bcb.markets": "Basare",
        "help.bcb.markets": "eine Basarkarte deckt je Person eine Karte auf, die alle erwerben können",
        "opt.bcb.bidding": "Gebote im Basar",
        "help.bcb.bidding": (
            "verdeckte Gebote: geheim per Direktnachricht, gemeinsam aufgedeckt; offene Gebote: "
            "reihum je ein Gebot; ohne Versteigerung: reihum nimmt jede Person eine Karte und "
            "legt sie"
        ),
        "choice.sealed": "verdeckte Gebote",
        "choice.open": "offene Gebote",
        "choice.no_auction": "ohne Versteigerung",
        "bcb.left": "noch {bridges} {bridges:Brücke|Brücken}, {castles} {castles:Burg|Burgen}",
        "bcb.bridges_left": "noch {n} {n:Brücke|Brücken}",
        "bcb.castles_left": "noch {n} {n:Burg|Burgen}",
        "bcb.bridge": (
            "Du darfst eine Brücke auf oder neben der gelegten Karte bauen (noch {n}) oder passen."
        ),
        "open.bcb.bridge": "Brücke bauen",
        "pass.bcb.bridge": "Keine Brücke",
        "facet.axis": "Richtung",
        "facet.axis.NS": "Nord–Süd",
        "facet.axis.WE": "West–Ost",
        "bcb.bridge_built": "{seat} baut eine Brücke auf x {x}, y {y} ({axis}).",
        "bcb.axis.NS": "Nord–Süd",
        "bcb.axis.WE": "West–Ost",
        "bcb.err.no_bridge": (
            "Dort kannst du keine Brücke bauen: Eine Brücke führt gerade über zwei Wiesenkanten "
            "der gelegten oder einer Nachbarkarte, jedes Ende auf einer Straße oder einem "
            "leeren Feld."
        ),
        "bcb.err.bridge_form": "Nenne eine Brücke als x,y:NS oder x,y:WE.",
        "part.bridge_extra.one": "1 Brücke über die eigene Straße +1",
        "part.bridge_extra.many": "{n} Brücken über die eigene Straße +{n}",
        "bcb.castle": (
            "Du hast eine eigene kleine Stadt fertiggestellt: baue darauf eine Burg (noch {n}) "
            "oder werte sie jetzt."
        ),
        "open.bcb.castle": "Burg oder Wertung",
        "pass.bcb.castle": "Die Stadt werten",
        "opt.bcb.castle": "Eine Burg bauen",
        "bcb.castle_built": "{seat} baut eine Burg auf x {x}, y {y}; der Gefolgsmann steht darauf.",
        "bcb.castle_pick": (
            "Mehrere Gebiete um deine Burg auf x {x}, y {y} sind fertig: welches wertet sie?"
        ),
        "open.bcb.castle_pick": "Für die Burg wählen",
        "bcb.castle_pick.option": "{kind}: {points} {points:Punkt|Punkte}",
        "bcb.kind.road": "Straße",
        "bcb.kind.city": "Stadt",
        "bcb.kind.cloister": "Kloster",
        "bcb.kind.castle": "Burg",
        "score.castle": "Burg",
        "part.castle.road": "erstes fertiges Gebiet daneben, eine Straße: {points}",
        "part.castle.city": "erstes fertiges Gebiet daneben, eine Stadt: {points}",
        "part.castle.cloister": "erstes fertiges Gebiet daneben, ein Kloster: {points}",
        "part.castle.castle": "erstes fertiges Gebiet daneben, eine Burg: {points}",
        "part.castle_unfinished": "nie fertig: 0",
        "part.castles.one": "1 Burg +1",
        "part.castles.many": "{n} Burgen je +1",
        "bcb.err.castle": "Antworte 'bcb.castle build' oder passe, um die Stadt zu werten.",
        "bcb.err.castle_pick": "Wähle eines der fertigen Gebiete um deine Burg.",
        "bcb.market_opened": "Basar! {seat} deckt {n} Karten auf: {tiles}.",
        "bcb.market_skipped": "Kein Basar: Es liegen weniger Karten bereit, als es Spielende gibt.",
        "bcb.offer": "Basar: Wähle eine Karte und gib ein Eröffnungsgebot ab (0 oder mehr).",
        "open.bcb.offer": "Basarkarte wählen",
        "bcb.tile": "Karte {letter} ({tile})",
        "bcb.offered": "{seat} wählt Karte {tile} und eröffnet mit {price}.",
        "bcb.sealed": (
            "Verdecktes Gebot für Karte {tile}, eröffnet von {chooser_seat} mit {price}: biete "
            "mehr als {price} oder passe. Du hast {score} {score:Punkt|Punkte}."
        ),
        "open.bcb.sealed": "Bieten",
        "bcb.bid": (
            "Gebot für Karte {tile}: Das höchste Gebot ist {price} ({leader_seat}); biete mehr "
            "oder passe. Du hast {score} {score:Punkt|Punkte}."
        ),
        "open.bcb.bid": "Bieten",
        "bcb.bid.option": "dein Gebot (wenn du es zahlst: {score} − Gebot)",
        "bcb.bid_made": "{seat} bietet {price}.",
        "bcb.bid_passed": "{seat} passt.",
        "bcb.bid_sealed": "Verdecktes Gebot von {seat}: {price}.",
        "bcb.bid_sealed_pass": "Verdecktes Gebot von {seat}: passt.",
        "bcb.deal": (
            "Das höchste Gebot für Karte {tile} ist {price} von {leader_seat}: die Karte kaufen "
            "(du zahlst {leader_seat} {price}) oder verkaufen ({leader_seat} zahlt dir {price})?"
        ),
        "open.bcb.deal": "Kaufen oder verkaufen",
        "opt.bcb.buy": "Kaufen: {price} an {leader_seat} zahlen",
        "opt.bcb.sell": "Verkaufen: {leader_seat} zahlt dir {price}",
        "bcb.bought": "{seat} kauft Karte {tile} und zahlt {price} an {leader_seat}.",
        "bcb.sold": "{seat} verkauft Karte {tile} an {leader_seat}, der {price} zahlt.",
        "bcb.bank": (
            "Niemand überbietet {seat}: {seat} nimmt Karte {tile} und zahlt {price} an die Bank."
        ),
        "bcb.free": "{seat} nimmt die letzte Karte, {tile}, umsonst.",
        "bcb.pick": "Basar: Wähle die Karte, die du jetzt legst.",
        "open.bcb.pick": "Basarkarte wählen",
        "bcb.picked": "{seat} nimmt Karte {tile}.",
        "bcb.hand": "{seat} legt die Basarkarte {tile}.",
        "score.market": "Basar",
        "bcb.strip": "Basar",
        "bcb.strip_hidden": "Basar: {n} Karten verdeckt beiseitegelegt",
        "bcb.strip_lot": "im Angebot: Karte {letter}, zu überbieten {price} ({name})",
        "part.market_buy": "wer kauft, zahlt dem Höchstbietenden für die Karte ({tile}): {price}",
        "part.market_sell": (
            "der Höchstbietende zahlt dem Verkäufer für die Karte ({tile}): {price}"
        ),
        "part.market_bank": "an die Bank gezahlt für die Karte ({tile}): {price}",
        "bcb.err.offer": (
            "Wähle eine der Basarkarten im Angebot, mit einem Gebot von 0 bis {max}."
        ),
        "bcb.err.bid": "Biete mehr als {price} (höchstens {max}) oder passe.",
        "bcb.err.deal": "Antworte kaufen oder verkaufen.",
        "bcb.err.pick": "Wähle eine der Basarkarten im Angebot.",
        "bcb.err.bridge_first": "Baue zuerst eine Brücke ('bcb.bridge x,y:NS') oder passe.",
        "bcb.err.castle_first": (
            "Baue zuerst eine Burg ('bcb.castle build') oder passe, um die Stadt zu werten."
        ),
        "bcb.err.castle_pick_first": "Wähle zuerst das Gebiet, das deine Burg wertet.",
        "bcb.err.pick_first": "Wähle zuerst deine Basarkarte.",
        "bcb.err.market_first": "Zuerst der Basar: beantworte seine offene Wahl.",
    },
)
