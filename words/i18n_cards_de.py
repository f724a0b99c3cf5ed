"""German texts of the card game (``/cardgame``): :mod:`words.i18n_cards`'s catalogue, its
decision words and the German slash-command names and descriptions."""

from __future__ import annotations

#: key -> German (same keys as :data:`words.i18n_cards.TEXTS`)
TEXTS: dict[str, str] = {
    "match_exists": "In diesem Kanal ist schon eine Partie offen. Beende sie oder brich sie ab.",
    "other_game": (
        "In diesem Kanal läuft das Legespiel; nimm hier `/carcassonne` oder spiele das "
        "Kartenspiel in einem anderen Kanal."
    ),
    "no_match": (
        "In diesem Kanal gibt es kein Kartenspiel. Beginne eines mit `/karten neu` "
        "(englisch `/cardgame new`)."
    ),
    "match_over": "Diese Partie ist vorbei.",
    "not_seated": "Du spielst in dieser Partie nicht mit.",
    "not_your_turn": "Jetzt nicht: Das Spiel wartet auf {current}.",
    "lobby_full": "Der Tisch ist voll.",
    "already_joined": "Du bist schon beigetreten.",
    "not_in_lobby": "Du sitzt nicht an diesem Tisch.",
    "already_started": "Die Partie hat schon begonnen.",
    "not_host": "Das darf nur der Gastgeber (oder wer den Kanal verwaltet).",
    "too_few_players": "Es braucht mindestens {minimum} Spielende.",
    "stale": "Dieser Tisch ist veraltet: nimm die neueste Nachricht.",
    "illegal": "Nicht erlaubt: {reason}",
    "bad_card": "Du kannst `{card}` jetzt nicht spielen. Wähle eine Karte aus der Liste.",
    "bad_row": "{card} kann jetzt nicht in Reihe {row}.",
    "not_the_joker": (
        "Lege zuerst {joker} aus (nicht `{card}`): Er kam beim Auslegen der Reihen auf; wähle "
        "die Reihe, in die er kommt."
    ),
    "lobby_closed": "Dieser Tisch ist geschlossen.",
    "lobby_title": "Carcassonne – Das Kartenspiel",
    "lobby_body": (
        "Gastgeber: {host}\nSpielende ({count}/{players}): {names}\nDrücke **Beitreten**, dann "
        "drückt der Gastgeber **Starten**."
    ),
    "btn_join": "Beitreten",
    "btn_leave": "Verlassen",
    "btn_start": "Starten",
    "joined": "{name} ist beigetreten.",
    "left": "{name} ist gegangen.",
    "abandoned": "{name} hat das Kartenspiel beendet.",
    "table_title": "Runde {round}/{rounds}",
    "waiting_play": "{who}: du bist dran — spiele eine Karte oder stelle deinen Gefolgsmann.",
    "waiting_setup": "{who}: ein Joker ist aufgetaucht — wähle seine Reihe.",
    "waiting_choose": "Wertungswahlen offen bei {who}.",
    "scores_field": "Punkte",
    "final_title": "Schlusswertung",
    "final_table": "Endstand (🏠 = Gebäudekarten, entscheiden bei Gleichstand)",
    "winners": "🏆 Sieg: {names}",
    "winners_many": "🏆 Geteilter Sieg: {names}",
    "btn_hand": "Meine Hand",
    "ev_setup_laid": "Aufbau: {card} liegt in {row}.",
    "ev_joker_up": "Aufbau: {card} ist aufgetaucht; der Geber {who} wählt seine Reihe.",
    "ev_round": "Runde {round}: {dealer} hat je {cards} Karten gegeben; {first} beginnt.",
    "ev_played_up": "{who} hat {card} in {row} gespielt.",
    "ev_played_down": "{who} hat eine Karte verdeckt in {row} gespielt.",
    "ev_follower": (
        "{who} hat den Gefolgsmann in {row} gestellt und sichert {n} {n:Karte|Karten}."
    ),
    "ev_collected": "{who} nimmt aus {row}: {cards}",
    "ev_choice_needed": "{who} muss wählen: {what}.",
    "ev_choice_made": "{who} hat gewählt: {what}.",
    "ev_points": "{who} +{points} — {reason}",
    "ev_chest": "{who} legt {n} {n:Gebäudekarte|Gebäudekarten} unter die Truhe.",
    "ev_last_round_end": (
        "Runde {round} gewertet, die letzte: {left} {left:Karte verlässt|Karten verlassen} "
        "das Spiel aus den Reihen."
    ),
    "ev_round_end": (
        "Runde {round} gewertet; {who} gibt als Nächstes. {left} {left:Karte bleibt|Karten "
        "bleiben} in den Reihen."
    ),
    "ev_game_end": "Das Spiel ist vorbei.",
    "card_timed_out": "⏰ {who} ist die Zeit abgelaufen; eine KI spielte für sie.",
    "what_wrong_row": "{card} behalten oder für 10 kassieren",
    "what_joker": "einem Tier-Joker eine Art geben",
    "choice_keep": "{card} behalten",
    "choice_cash": "{card} für 10 kassiert",
    "choice_assign": "Tier-Joker → {kind}",
    "hand_title": "Deine Hand — {channel}",
    "hand_cards": "**Hand:** {cards}",
    "hand_empty": "**Hand:** leer",
    "hand_next_down": "Deine nächste Karte kommt **verdeckt** (in jede Reihe).",
    "hand_next_up": (
        "Deine nächsten Karten kommen offen in die Reihe ihrer Farbe (Joker: jede Reihe)."
    ),
    "hand_face_down": "Deine verdeckten Karten: {cards}",
    "hand_owed": "Du musst wählen: {what}",
    "hand_turn": "Du bist am Zug.",
    "dm_closed": (
        "{who}, ich kann dir keine Direktnachrichten schicken; drücke **Meine Hand** an der "
        "Tischnachricht, um deine Karten zu sehen."
    ),
    "played_private": "Erledigt: {move}",
    "row_yellow": "🟨 Kloster",
    "row_red": "🟥 Straße",
    "row_green": "🟩 Wiese",
    "row_blue": "🟦 Stadt",
}

#: the decision words (same keys as :data:`words.i18n_cards.DECISION_WORDS`)
DECISION_WORDS: dict[str, str] = {
    "open.cards.play": "Karte spielen",
    "open.cards.follower": "Meinen Gefolgsmann stellen",
    "open.cards.lay_joker": "Joker auslegen",
    "open.cards.wrong_row": "Behalten oder kassieren",
    "open.cards.joker": "Art des Jokers",
    "facet.card": "Karte",
    "facet.row": "Reihe",
    "facet.choice": "Wahl",
    "facet.kind": "Art",
    "facet.choice.keep": "behalten",
    "facet.choice.cash": "für 10 kassieren",
    "facet.row.yellow": "🟨 Kloster",
    "facet.row.red": "🟥 Straße",
    "facet.row.green": "🟩 Wiese",
    "facet.row.blue": "🟦 Stadt",
    "cards.typed": "{name} (`{code}`)",
}

#: ``/cardgame`` command and option names -> German (lower-case, ≤ 32 chars).
NAMES: dict[str, str] = {
    "cardgame": "karten",
    "new": "neu",
    "join": "beitreten",
    "leave": "verlassen",
    "start": "starten",
    "abandon": "abbrechen",
    "play": "spielen",
    "claim": "sichern",
    "hand": "hand",
    "score": "punkte",
    "rules": "regeln",
    "players": "spielende",
    "card": "karte",
    "row": "reihe",
}

#: ``/cardgame`` descriptions -> German (≤ 100 chars).
DESCRIPTIONS: dict[str, str] = {
    "Play Carcassonne – the card game in this channel": (
        "Spiele Carcassonne – Das Kartenspiel in diesem Kanal"
    ),
    "Open a card-game table in this channel": "Eröffne einen Kartenspiel-Tisch in diesem Kanal",
    "Number of players (2-5)": "Anzahl der Spielenden (2-5)",
    "Join the card-game table in this channel": "Tritt dem Kartenspiel-Tisch in diesem Kanal bei",
    "Leave the card-game table before it starts": (
        "Verlasse den Kartenspiel-Tisch, bevor es losgeht"
    ),
    "Deal the cards (host)": "Gib die Karten (Gastgeber)",
    "End the card game (host or managers)": "Beende das Kartenspiel (Gastgeber oder Verwaltung)",
    "Play a card from your hand into a row": "Spiele eine Karte von deiner Hand in eine Reihe",
    "A card from your hand": "Eine Karte von deiner Hand",
    "The row to play it in": "Die Reihe, in die sie kommt",
    "Stand your large follower at a row's end": (
        "Stelle deinen großen Gefolgsmann an ein Reihenende"
    ),
    "The row whose open cards your follower secures": (
        "Die Reihe, deren offene Karten dein Gefolgsmann sichert"
    ),
    "Show your hand (only you see it)": "Zeige deine Hand (nur du siehst sie)",
    "Show the card-game scores": "Zeige die Punkte des Kartenspiels",
    "The card game's rules in short": "Die Regeln des Kartenspiels in Kürze",
}
