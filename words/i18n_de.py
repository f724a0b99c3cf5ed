"""German texts for everything the bot says (:mod:`words.i18n`'s catalogue) and the German
slash-command names and descriptions (Discord locale ``de``).

The terms are the German rulebooks': Gefolgsleute, Wegelagerer, Ritter, Mönch, Bauer,
Landschaftskarte, Wertung, Zählleiste."""

from __future__ import annotations

#: key -> German (same keys as :data:`words.i18n.TEXTS`)
TEXTS: dict[str, str] = {
    # ---------------------------------------------------------------- errors (ServiceError.key)
    "match_exists": (
        "In diesem Kanal läuft schon eine Partie Carcassonne{where}. Beende sie (oder "
        "`/carcassonne abbrechen`, englisch `abandon`), bevor du eine neue beginnst."
    ),
    "no_match": (
        "In diesem Kanal gibt es keine Partie Carcassonne. Beginne eine mit "
        "`/carcassonne neu` (englisch `new`)."
    ),
    "other_game": (
        "In diesem Kanal läuft ein anderes Spiel (`/{game}`): spiele es dort oder eröffne "
        "einen Tisch in einem anderen Kanal."
    ),
    "not_seated": "Du spielst in dieser Partie nicht mit.",
    "not_your_turn": "Du bist nicht am Zug: {current} ist dran.",
    "lobby_full": "Der Tisch ist voll.",
    "already_joined": "Du bist schon beigetreten.",
    "not_in_lobby": "Du sitzt nicht an diesem Tisch.",
    "not_host": "Das darf nur, wer den Tisch eröffnet hat (oder diesen Kanal verwalten darf).",
    "too_few_players": "Mindestens 2 Personen müssen beitreten, bevor die Partie beginnt.",
    "busy": (
        "Carcabot ist gerade sehr beschäftigt: dein Zug wurde **nicht** ausgeführt. "
        "Versuch es gleich noch einmal."
    ),
    "busy_wait": (
        "⏳ Carcabot ist beschäftigt: dein Zug wartet, bis er dran ist ({ahead} warten). "
        "Er wird ausgeführt: du musst ihn nicht noch einmal senden."
    ),
    "stale": "Diese Wahl ist veraltet.{link}",
    "illegal": "Dieser Zug ist nicht erlaubt: {reason}",
    "no_undo": "Gerade kannst du nichts zurücknehmen.",
    "already_started": "Die Partie hat schon begonnen.",
    "generic_error": (
        "Bei uns ist etwas schiefgegangen; die Partie ist unverändert. Bitte versuche es noch "
        "einmal."
    ),
    "missing_perms": (
        "Hier kann ich keine Partie leiten: Mir fehlen diese Kanalberechtigungen: {perms}."
    ),
    "bad_cell": (
        "Feld {cell} ist kein erlaubter Platz für diese Karte. Wähle eine Zahl aus dem Bild "
        "des Spielplans."
    ),
    "bad_rotation": "Die Karte passt bei {rotation}° nicht auf Feld {cell}.",
    "bad_spot": "Auf '{spot}' kannst du hier keinen Gefolgsmann setzen.",
    "no_tile_choice": (
        "Du hast gerade keine Karte zu legen: beantworte deine offene Wahl "
        "(`/carcassonne waehlen`)."
    ),
    "nothing_to_pass": "Bei keiner deiner offenen Wahlen kannst du passen.",
    "bad_choice": "'{choice}' ist keine deiner offenen Wahlen: nimm eine aus der Liste.",
    "bad_number": "Gib eine ganze Zahl von {min} bis {max} ein.",
    "nothing_secret": "Du hast gerade keine geheime Wahl zu treffen.",
    "dm_closed": (
        "{who}, ich kann dir keine Direktnachrichten schicken: Drücke **Entscheiden** an der "
        "Zugnachricht, um deine geheimen Wahlen zu treffen."
    ),
    "guild_only": "Carcassonne wird in Serverkanälen gespielt.",
    "lobby_title": "Carcassonne — neue Partie",
    "lobby_body": (
        "{host} hat einen Tisch für {players} Personen eröffnet.\n"
        "Beigetreten ({count}/{players}): {names}\n"
        "Drücke **Beitreten**, dann drückt der Gastgeber **Starten**."
    ),
    "lobby_closed": "Dieser Tisch ist geschlossen.",
    "joined": "{name} ist der Partie beigetreten.",
    "left": "{name} hat die Partie verlassen.",
    "btn_join": "Beitreten",
    "btn_leave": "Verlassen",
    "btn_start": "Starten",
    "abandoned": "Die Partie wurde von {name} abgebrochen.",
    "resigned": "{name} hat aufgegeben.",
    "opt_per_farm": "je Wiese (aktuelle Regeln)",
    "opt_city_supply_1st_ed": "je versorgter Stadt (1. Auflage)",
    "rules_title": "Regeln dieser Partie",
    "defaults_title": "Die Voreinstellungen dieses Servers für neue Tische",
    "defaults_saved": "✅ Gespeichert: die Voreinstellungen dieses Servers für neue Tische",
    "defaults_how": (
        "/carcassonne neu beginnt mit diesen; seine eigenen Optionen und die Menüs am Tisch "
        "ändern einen Tisch. Wer den Server verwaltet, ändert sie mit /carcassonne standard."
    ),
    "not_server_manager": (
        "Nur wer diesen Server verwalten darf (Server verwalten), kann seine "
        "Voreinstellungen ändern."
    ),
    "no_such_expansion": "Es gibt keine Erweiterung {name}: wähle aus der Liste.",
    "rules_body": (
        "Spielende: {players}\nWiesenwertung: {farm}\nFertige Stadt aus 2 Karten: {tiny}\n"
        "Erinnerung am Zug: {reminder}\nGefolgsleute je Person: {followers}"
    ),
    "rules_expansions": "Erweiterungen: {names}",
    "lobby_expansions": "Erweiterungen (der Gastgeber wählt)",
    "ai_pick": "KI-Spieler (der Gastgeber fügt sie hinzu)",
    "ai_add_easy": "Eine leichte KI hinzufügen",
    "ai_add_normal": "Eine normale KI hinzufügen",
    "ai_add_strong": "Eine starke KI hinzufügen",
    "ai_remove": "Die letzte KI entfernen",
    "thinking_line": "{who} denkt nach…",
    "ai_moved": "{who}: {move}",
    "away_done": "Eine KI spielt deinen Platz, bis du zurückkommst: `/carcassonne zurueck`.",
    "back_done": "Dein Platz gehört wieder dir.",
    "deadline_line": "⏰ Zug fällig {when}.",
    "pings_on": "Du wirst erwähnt, wenn du dran bist.",
    "pings_off": "Du wirst nicht mehr erwähnt, wenn du dran bist (die Zugnachricht nennt dich weiter).",
    "vote_counted": (
        "Stimme gezählt: {votes} von {needed} nötigen, damit eine KI diesen Platz spielt."
    ),
    "clock_warning": "⏰ {mention}, dein Zug ist fällig {when}.",
    "timed_out": "⏰ {who} ist die Zeit abgelaufen; eine KI spielte für sie: {move}",
    "handed_to_ai": (
        "🤖 {who} hat {n} Züge in Folge verpasst: eine KI spielt den Platz, bis sie "
        "zurückkommen (`/carcassonne zurueck`)."
    ),
    "clock_live": "Zuguhr: {minutes} Min. pro Zug",
    "clock_async": "Zuguhr: {hours} Std. pro Zug",
    "lobby_rules": "Regeln der gewählten Erweiterungen (der Gastgeber wählt)",
    "rules_more": "Weitere Regeln… (Seite {page} von {pages})",
    "rule_on": "an",
    "rule_off": "aus",
    "rule_pick": "**{name}** ({expansion}): {help}\nJetzt: **{value}**. Wähle:",
    "rule_set": "{name}: **{value}**.",
    "no_rule": "Diese Regel gehört zu keiner Erweiterung dieses Tisches.",
    "exp_none": "keine (Grundspiel)",
    "fig.follower": "Gefolgsmann",
    "field_figures": "Figuren im Vorrat",
    "tiny_2": "2 Punkte + 1 je Wappen",
    "tiny_4": "4 Punkte + 2 je Wappen",
    "reminder_off": "aus",
    "reminder_on": "nach {minutes} Min.",
    "turn_title": "Carcassonne — Zug {turn}",
    "decision_line": "{mention}, du bist dran: {prompt}",
    "secret_line": (
        "🤫 {mentions}: eine geheime Wahl — antworte in deinen Direktnachrichten oder drücke "
        "**Entscheiden**."
    ),
    "secret_answer": "🤫 eine geheime Wahl",
    "secret_answered": "✅ Schon geheim beantwortet: {names}.",
    "private_title": "**Carcassonne**{where} — nur du siehst das:",
    "field_tile": "Gezogene Karte",
    "field_left": "Verbleibende Karten",
    "field_scores": "Punkte",
    "field_followers": "Gefolgsleute im Vorrat",
    "btn_choose": "Wählen",
    "btn_pass": "Passen",
    "btn_decide": "Entscheiden",
    "open.core.place": "Karte legen",
    "open.core.deploy": "Gefolgsmann",
    "pass.core.deploy": "Kein Gefolgsmann",
    "btn_undo": "Zurücknehmen",
    "btn_tiles": "Verbleibende Karten",
    "btn_confirm": "Bestätigen",
    "btn_back": "Zurück",
    "btn_prev": "Vorige",
    "btn_next": "Nächste",
    "picker_marked": ("Wähle {what} ({count} möglich): Die Beschriftungen im Bild zeigen, wo."),
    "picker_pick": "Wähle {what} ({count} möglich).",
    "picker_option_word": "Möglichkeit",
    "picker_nothing": "Hier gibt es nichts zu wählen: drücke **{passing}**, um weiterzumachen.",
    "picker_range": "{first}–{last} von {count}",
    "picker_so_far": "Bisher: {choice}",
    "picker_confirm": "Deine Wahl: **{choice}**. Bestätigen?",
    "enter_number": "Gib eine Zahl ein ({min}–{max})",
    "number_label": "Eine Zahl von {min} bis {max}",
    "cell_option": "Feld {cell}",
    "cell_answer": "Feld {cell} ({where})",
    "at_cell": "x {x}, y {y}",
    "at_corner": "Ecke von x {x}, y {y}",
    "at_track": "Zählleiste {n}",
    "done": "Erledigt.",
    "moved": "{name} hat gespielt: {move}",
    "undone": "{name} hat das Anlegen zurückgenommen.",
    "points_line": "{who} — {reason}",
    "no_points_line": "{reason} (niemand punktet)",
    "discarded": "Eine Karte passte nirgends und wurde abgelegt: {tile}.",
    "reminder": "{mention}: Du bist in Carcassonne{where} noch am Zug.",
    "here_link": " — [der Spielplan]({url})",
    "stale_link": " Der aktuelle Zug: {url}",
    "final_title": "Carcassonne — Schlusswertung",
    "winner": "Sieg: {names} mit {points} {points:Punkt|Punkten}!",
    "winners": "Geteilter Sieg: {names} mit {points} {points:Punkt|Punkten}!",
    "final_scoring": "Schlusswertung",
    "final_table": "Endstand",
    "record_note": (
        "Das Spielprotokoll (`{file}`) spielt diese Partie mit `carcabot replay` nach."
    ),
    "match_over": "Diese Partie ist vorbei.",
    "replay_ready": "🎞️ Die ganze Partie, Zug für Zug.",
    "score_title": "Punkte",
    "tiles_title": "Noch nicht gezogene Karten ({count})",
    "board_title": "Spielplan — Zug {turn}",
    "help_title": "So spielst du hier Carcassonne",
    "help_body": (
        "`/carcassonne neu` eröffnet einen Tisch; der Gastgeber wählt in den Menüs des Tisches "
        "Erweiterungen und ihre Regeln; die Mitspielenden drücken **Beitreten**; der Gastgeber "
        "drückt **Starten**.\nDie Zugnachricht nennt, wer was entscheiden muss; drücke ihre "
        "Knöpfe (**Karte legen**: ein nummeriertes Feld, eine Drehung, dann ein Platz für den "
        "Gefolgsmann oder **Kein Gefolgsmann**). Geheime Wahlen kommen per Direktnachricht (oder "
        "drücke **Entscheiden**). Oder tippe `/carcassonne waehlen` (jede Wahl) oder "
        "`/carcassonne legen feld: drehung: gefolgsmann:` — die Menüs bieten nur erlaubte "
        "Werte an.\n`spielplan`, `punkte`, `karten` und `regeln` zeigen die Partie; "
        "`zuruecknehmen` nimmt dein Anlegen zurück, bevor du einen Gefolgsmann wählst; "
        "`aufgeben` verlässt die Partie; `abbrechen` beendet sie (Gastgeber oder wer den Kanal "
        "verwaltet). `standard` zeigt die Voreinstellungen des Servers für neue Tische (wer "
        "den Server verwaltet, ändert sie). `bestenliste`, `statistik` und `verlauf` zeigen "
        "die Wertungen des Servers, die Statistik einer Person und die beendeten Partien.\n"
        "KI-Spieler: das Menü **KI-Spieler** des Tisches, oder `neu ki_gegner: stufe:`, um "
        "sofort zu spielen; `abwesend` lässt eine KI deinen Platz spielen, bis du `zurueck` "
        "kommst; `ki_abstimmung` gibt den Platz einer stillen Person an eine KI; `neu uhr:` "
        "gibt jedem Zug eine Frist; `erwaehnungen` schaltet deine Zug-Erwähnungen ab."
    ),
    "kind_city": "Stadt",
    "kind_road": "Straße",
    "kind_field": "Wiese",
    "kind_farm": "Wiese",
    "kind_cloister": "Kloster",
    "side_N": "Norden",
    "side_E": "Osten",
    "side_S": "Süden",
    "side_W": "Westen",
    "middle": "Mitte",
    "completed": "fertig",
    "completed_city": "fertig",
    "at_end": "bei Spielende",
    "perm_view_channel": "Kanal ansehen",
    "perm_send_messages": "Nachrichten senden",
    "perm_send_messages_in_threads": "Nachrichten in Threads senden",
    "perm_attach_files": "Dateien anhängen",
    "perm_embed_links": "Links einbetten",
}

#: English command/option names -> German names (Discord: lower-case, ≤ 32 chars).
NAMES: dict[str, str] = {
    "carcassonne": "carcassonne",
    "new": "neu",
    "join": "beitreten",
    "leave": "verlassen",
    "start": "starten",
    "place": "legen",
    "choose": "waehlen",
    "option": "moeglichkeit",
    "follower": "gefolgsmann",
    "pass": "passen",
    "board": "spielplan",
    "tiles": "karten",
    "score": "punkte",
    "undo": "zuruecknehmen",
    "resign": "aufgeben",
    "away": "abwesend",
    "back": "zurueck",
    "opponents": "ki_gegner",
    "level": "stufe",
    "clock": "uhr",
    "vote_out": "ki_abstimmung",
    "pings": "erwaehnungen",
    "on": "an",
    "player": "person",
    "abandon": "abbrechen",
    "help": "hilfe",
    "rules": "regeln",
    "players": "spielende",
    "farm_scoring": "wiesenwertung",
    "tiny_city": "kleine_stadt",
    "reminder_minutes": "erinnerung_minuten",
    "cell": "feld",
    "rotation": "drehung",
    "defaults": "standard",
    "expansions": "erweiterungen",
    "reset": "zuruecksetzen",
}

#: English descriptions and choice names -> German (≤ 100 chars).
DESCRIPTIONS: dict[str, str] = {
    "Play Carcassonne in this channel": "Spiele Carcassonne in diesem Kanal",
    "Open a new Carcassonne table in this channel": (
        "Eröffne einen neuen Carcassonne-Tisch in diesem Kanal"
    ),
    "Join the table in this channel": "Tritt dem Tisch in diesem Kanal bei",
    "Leave the table before it starts": "Verlasse den Tisch, bevor es losgeht",
    "Start the match (host)": "Starte die Partie (Gastgeber)",
    "Place your tile (and optionally a follower)": (
        "Lege deine Karte an (und auf Wunsch einen Gefolgsmann)"
    ),
    "Answer one of your open choices": "Beantworte eine deiner offenen Wahlen",
    "What you choose (the list shows your open choices)": (
        "Was du wählst (die Liste zeigt deine offenen Wahlen)"
    ),
    "Pass on your open choice (e.g. no follower)": (
        "Passe bei deiner offenen Wahl (z. B. kein Gefolgsmann)"
    ),
    "Show the board": "Zeige den Spielplan",
    "Tiles not drawn yet, by type": "Noch nicht gezogene Karten, nach Art",
    "Show the scores": "Zeige die Punkte",
    "Take back your placement (before choosing a follower)": (
        "Nimm dein Anlegen zurück (bevor du einen Gefolgsmann wählst)"
    ),
    "Resign from the match": "Gib die Partie auf",
    "Let an AI play your seat until you come back": "Lass eine KI deinen Platz spielen, bis du zurückkommst",
    "Play your seat again after /carcassonne away": "Spiele deinen Platz wieder nach /carcassonne abwesend",
    "Play at once against this many AI players": "Spiele sofort gegen so viele KI-Spieler",
    "How well the AI players play": "Wie gut die KI-Spieler spielen",
    "Turn clock: off, live (2 min a move) or async (24 h a move)": (
        "Zuguhr: aus, live (2 Min. pro Zug) oder asynchron (24 Std. pro Zug)"
    ),
    "off": "aus",
    "Vote to let an AI play a silent seat": "Stimme ab, damit eine KI einen stillen Platz spielt",
    "Be pinged when it is your turn, or not": "Werde erwähnt, wenn du dran bist, oder nicht",
    "Ping me on my turn": "Erwähne mich, wenn ich dran bin",
    "The player who has not moved": "Die Person, die nicht gezogen hat",
    "live: 2 min a move": "live: 2 Min. pro Zug",
    "async: 24 h a move": "asynchron: 24 Std. pro Zug",
    "easy": "leicht",
    "normal": "normal",
    "strong": "stark",
    "End the match in this channel (host or channel managers)": (
        "Beende die Partie in diesem Kanal (Gastgeber oder Kanalverwaltung)"
    ),
    "How to play here": "So wird hier gespielt",
    "The rule options of this match": "Die Regeloptionen dieser Partie",
    "Number of players (2-6)": "Anzahl der Spielenden (2-6)",
    "How farms score at the end": "Wie Wiesen am Ende gewertet werden",
    "Points for a completed 2-tile city": "Punkte für eine fertige Stadt aus 2 Karten",
    "Remind the player after this many minutes (0 = never)": (
        "Nach so vielen Minuten erinnern (0 = nie)"
    ),
    "Cell number from the board image": "Feldnummer aus dem Bild des Spielplans",
    "Clockwise rotation in degrees": "Drehung im Uhrzeigersinn in Grad",
    "Where to put a follower ('none' for no follower)": (
        "Wohin ein Gefolgsmann kommt ('none' für keinen)"
    ),
    "per farm (current rules)": "je Wiese (aktuelle Regeln)",
    "per city supplied (1st edition)": "je versorgter Stadt (1. Auflage)",
    "2 points + 1 per shield": "2 Punkte + 1 je Wappen",
    "4 points + 2 per shield": "4 Punkte + 2 je Wappen",
    "The server's default options for new tables (managers)": (
        "Die Voreinstellungen des Servers für neue Tische (Verwaltung)"
    ),
    "Expansions, separated by commas ('none' for the base game)": (
        "Erweiterungen, durch Kommas getrennt ('none' für das Grundspiel)"
    ),
    "Go back to the built-in defaults": "Zurück zu den eingebauten Voreinstellungen",
}
