"""German texts of the local table (``carcabot local --lang de``): :mod:`console.i18n`'s
catalogue, and the German words a player may type for the commands."""

from __future__ import annotations

#: key -> German (same keys as :data:`console.i18n.TEXTS`)
TEXTS: dict[str, str] = {
    "help": (
        "Beantworte jede Frage mit ihrer Zahl oder ihrem Buchstaben ('passen', wenn du passen "
        "darfst, 'zurück', um zurückzugehen) oder mehrere auf einmal ('3 r90 a'); oder tippe "
        "den Zug selbst: 'place X,Y r90', 'deploy city:N', 'pass'. Außerdem: 'spielplan' "
        "(neu auflisten), 'rücknahme', 'aufgeben', 'ende'. Die englischen Wörter gelten auch."
    ),
    "help_cards": (
        "Beantworte jede Frage mit ihrer Zahl oder ihrem Buchstaben ('zurück', um "
        "zurückzugehen); oder tippe den Zug selbst: 'play CARD ROW', 'follower ROW', "
        "'keep CARD', 'cash CARD', 'assign KIND'. Außerdem: 'hand' (deine Hand erneut), "
        "'spielplan' (neu auflisten), 'ende'."
    ),
    "stopped": "Angehalten. Die Partie ist gespeichert; setze sie fort mit '{hint}'.",
    "no_database": "Die Partiedatenbank {db} lässt sich nicht öffnen: {error}",
    "bad_players": "--players muss {low} bis {high} sein.",
    "bad_humans": "--humans muss 0 bis {n} sein.",
    "bad_names": (
        "--names nennt {n} {n:Namen|Namen} für {humans} {humans:Menschenplatz|Menschenplätze}: "
        "gib so viele --humans wie Namen an (die anderen Plätze spielen zufällig)."
    ),
    "out_not_folder": "--out muss ein Ordner für die Bilder sein: {path} ist eine Datei.",
    "bad_out": "Die Bilder lassen sich nicht nach {path} schreiben: {error}",
    "cards_no_expansions": (
        "--expansions und --rule gehören zum Legespiel, nicht zum Kartenspiel ('--game cards')."
    ),
    "rules_valid": "Die Regeln der gewählten Erweiterungen: {rules}.",
    "rules_none": "Regeln gehören zu Erweiterungen: wähle zuerst eine mit --expansions.",
    "rule_form": "--rule nimmt SCHLÜSSEL=WERT, nicht '{rule}'. {valid}",
    "rule_unknown": "Es gibt keine Regel '{rule}'. {valid}",
    "rule_needs": "Die Regel {rule} gehört zu {expansion}: füge --expansions {expansion} hinzu.",
    "rule_value": "{rule} ist {values}, nicht '{value}'.",
    "stuck": "Niemand hat etwas zu entscheiden: Die Partie kann nicht weitergehen.",
    "no_decision": "Keine offene Entscheidung für {name}: Halt.",
    "unused": "  (Der Rest der Zeile wurde nicht verwendet: {rest})",
    "input_ended": "Eingabe beendet: Die Partie ist gespeichert. Setze sie fort mit '{hint}'.",
    "cannot_resume": "Die unfertige lokale Partie lässt sich nicht laden: {error}",
    "resume_plugin": "Wurde sie mit --plugin MODUL gespielt, setze sie mit demselben fort.",
    "nothing_to_resume": (
        "Es gibt keine unfertige lokale Partie zum Fortsetzen; eine neue beginnt."
    ),
    "resuming": "Lokale Partie {id} wird bei Zug {turn} fortgesetzt.",
    "set_aside": "(Eine unfertige lokale Partie {id} wurde beiseitegelegt.)",
    "started": "Carcassonne, lokale Partie {id} (Startwert {seed}). Reihenfolge: {order}.",
    "started_cards": (
        "Carcassonne – Das Kartenspiel, lokale Partie {id} (Startwert {seed}). "
        "Reihenfolge: {order}."
    ),
    "expansions": "Erweiterungen: {names}.",
    "private": "{name}, deine geheime Wahl — die anderen schauen weg.",
    "hand_private": "{name}, deine Hand — die anderen schauen weg.",
    "taken_back": "  Anlegen zurückgenommen: lege die Karte erneut.",
    "resigns": "  {name} gibt auf.",
    "kept_secret": "  {name} hat gewählt (geheim).",
    "places": "{name} legt {tile} auf {pos}, gedreht um {degrees}°.",
    "places_tile": "die Karte ({tile})",
    "deploys": "{name} setzt {figure} auf {spot}.",
    "deploys_as": "{name} setzt {figure} auf {spot}, als {role}.",
    "cell_at": "Feld {n} ({pos})",
    "passes": "{name} passt{what}.",
    "chooses": "{name} wählt {what}{about}.",
    "turn": "\n— Zug {n}: {who}{draws}",
    "draws": " zieht {tile} (noch {left} im Stapel)",
    "drawn_tile": "eine Karte: {tile}",
    "scored": "  * {reason} -> {who}",
    "nobody": "niemand",
    "discarded": "  * eine Karte passt nirgends und wird abgelegt: {tile}",
    "scores": "  Punkte: {scores}",
    "no_images": "  (Keine Bilder des Spielplans: Das Zeichenmodul fehlt.)",
    "board_file": "  Spielplan: {path}",
    "table_file": "  Tisch: {path}",
    "hand_file": "  Deine Hand: {path}",
    "record_file": "Protokoll: {path}  (nachspielen: carcabot replay {path})",
    "animation_file": "Animation der Partie: {path}",
    "final": "\nSchlusswertung:",
    "winner": "  Sieg",
    "resigned": "  (aufgegeben)",
    "human": "Mensch {n}",
    "round": "\n— Runde {round} von {rounds}",
    "which_decision": "Was tust du?",
    "passing": "  Hier gibt es nichts zu wählen: passen.",
    "only_fits": "  Nur {what} passt{at}.",
    "for": " für {context}",
    "numbered_board": " (nummeriert wie im Bild des Spielplans)",
    "numbered_on": " (nummeriert wie in {path})",
    "lettered_on": " (mit Buchstaben wie in {path})",
    "choose_about": "  Wähle: {about}{where}:",
    "choose": "  Wähle{where}:",
    "or_pass": "    oder 'passen'",
    "inline": "  {about}: {listed} (oder {more})> ",
    "q_pass": "'passen'",
    "q_back": "'zurück'",
    "or": " oder ",
    "word_choice": "Wahl",
    "asking": "{who}: {parts} oder ein Zug> ",
    "asking_yes_no": "{who}: {choice} oder 'passen' (ja/nein), oder ein Zug> ",
    "type_key": "  Tippe {choice}{passing}.",
    "preview": "  Die Karte in jeder angebotenen Drehung: {path}",
    "pick_number": "  Wähle {what} von 1 bis {last}{passing}.",
    "pick_letter": "  Wähle einen Buchstaben von a bis {last}{passing}.",
    "or_passing": " oder passe",
    "span_to": "von {min} bis {max}",
    "span_up": "ab {min}",
    "number_prompt": "{who}: eine Zahl {span}{extra}> ",
    "type_number": "  Tippe eine Zahl {span}.",
    "pick_a_number": "  Wähle eine Zahl {span}.",
    "not_a_number": "  Das ist keine Zahl: tippe eine Zahl {span}{passing}.",
    "no_pass_number": "  Hier kannst du nicht passen: tippe eine Zahl {span}.",
    "no_pass_choice": "  Hier kannst du nicht passen: wähle {span}.",
    "not_understood": "  Das habe ich nicht verstanden ({error}). Tippe 'hilfe' für die Wahlen.",
    "hidden": "(verdeckt)",
    "neutral": "neutral",
    "owned": "{figure} von {owner} auf {spot} bei {x},{y}",
    "neutral_figure": "neutrale Figur {figure} auf {spot} bei {x},{y}",
    "at": " bei {x},{y}",
    "corner": "die Ecke nordwestlich von {x},{y}",
    "track": "Feld {n} der Zählleiste",
    "tile": "Karte {tile}",
    "card": "Karte {code}",
    "a_number": "eine Zahl {min}{hi}",
    "rotation": "gedreht um {degrees}°",
    "colour.red": "rot",
    "colour.blue": "blau",
    "colour.yellow": "gelb",
    "colour.green": "grün",
    "colour.black": "schwarz",
    "colour.pink": "rosa",
}

#: German words a player may type, and the English command each stands for
WORDS: dict[str, str] = {
    "passen": "pass",
    "passe": "pass",
    "keiner": "pass",
    "zurück": "back",
    "zurueck": "back",
    "spielplan": "board",
    "liste": "list",
    "rücknahme": "undo",
    "ruecknahme": "undo",
    "aufgeben": "resign",
    "hilfe": "help",
    "ende": "quit",
    "beenden": "quit",
    "ja": "yes",
    "j": "yes",
    "nein": "no",
}
