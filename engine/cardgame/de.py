"""The card game's words in German (Carcassonne – Das Kartenspiel): its prompts, refusals,
scores, rows and cards, under the keys the card game's modules register in English and
Spanish. German players may type German card codes (``blau-2``, ``rot-tier``, ``drache``) and
row names (``blau``, ``stadt``)."""

from __future__ import annotations

from engine.cardgame.cards import (
    FACES,
    ROWS,
    CardType,
    Colour,
    add_colour_names,
    add_language,
)
from engine.cardgame.catalogue import (
    ASK_FOLLOWER,
    ASK_JOKER,
    ASK_LAY_JOKER,
    ASK_PLAY,
    ASK_PLAY_DOWN,
    ASK_WRONG_ROW,
    OPT_CASH,
    OPT_KEEP,
    assign_label,
    follower_label,
    lay_label,
    play_label,
    row_name,
)
from engine.core import messages

COLOUR = {Colour.YELLOW: "gelb", Colour.RED: "rot", Colour.GREEN: "grün", Colour.BLUE: "blau"}
FEATURE = {"cloister": "Kloster", "road": "Straße", "field": "Wiese", "city": "Stadt"}
ROW = {
    Colour.YELLOW: "🟨 Kloster",
    Colour.RED: "🟥 Straße",
    Colour.GREEN: "🟩 Wiese",
    Colour.BLUE: "🟦 Stadt",
}
_TYPE_NAME = {
    CardType.CHARACTER: "Person",
    CardType.ANIMAL: "Tier",
    CardType.BUILDING: "Gebäude",
    CardType.ANIMAL_JOKER: "Tier-Joker",
    CardType.BUILDING_JOKER: "Gebäude-Joker",
    CardType.DRAGON: "Drache",
    CardType.FAIRY: "Fee",
}


def _name(face_type: CardType, colour: Colour | None, value: int) -> str:
    if colour is None:
        return _TYPE_NAME[face_type]
    if face_type is CardType.CHARACTER:
        return f"{COLOUR[colour]}e Person {value}"
    return f"{_TYPE_NAME[face_type]} ({COLOUR[colour]})"


def _code(face_type: CardType, colour: Colour | None, value: int) -> str:
    if colour is None:
        return _TYPE_NAME[face_type].lower()
    if face_type is CardType.CHARACTER:
        return f"{COLOUR[colour]}-{value}"
    return f"{COLOUR[colour]}-{_TYPE_NAME[face_type].lower()}"


add_language(
    "de",
    {f.code: _code(f.type, f.colour, f.value) for f in FACES},
    {f.code: _name(f.type, f.colour, f.value) for f in FACES},
)
add_colour_names({COLOUR[c]: c for c in Colour})
add_colour_names({FEATURE[c.feature].lower(): c for c in Colour})
add_colour_names({"gruen": Colour.GREEN, "strasse": Colour.RED})

_TEXTS: dict[str, str] = {
    ASK_LAY_JOKER: "{card} ist aufgetaucht — wähle seine Reihe.",
    ASK_PLAY: "Welche Karte spielst du?",
    ASK_PLAY_DOWN: "Welche Karte spielst du? Sie kommt verdeckt (in jede Reihe).",
    ASK_FOLLOWER: "Stelle deinen Gefolgsmann: in welche Reihe?",
    ASK_WRONG_ROW: "Deine Wahl: {cards} behalten oder je 10 kassieren.",
    ASK_JOKER: "Deine Wahl: gib einem Tier-Joker eine Art.",
    OPT_KEEP: "{card} behalten",
    OPT_CASH: "{card} für 10 kassieren",
    # cards.py
    "err.cards.players": "Das Kartenspiel braucht {low}–{high} Spielende, nicht {n}.",
    "err.cards.dealer": "Der erste Geber muss Platz 1–{n} sein.",
    "err.cards.bad_row": (
        "'{text}' ist keine Reihe; nimm gelb (Kloster), rot (Straße), grün (Wiese) oder "
        "blau (Stadt)"
    ),
    "err.cards.bad_card": (
        "'{text}' ist keine Karte; nimm z. B. blau-2, rot-tier, grün-gebäude, tier-joker, "
        "gebäude-joker, drache oder fee"
    ),
    # actions.py
    "err.cards.empty_action": (
        "leerer Zug; schreibe 'play CARD ROW', 'follower ROW', 'keep CARD', 'cash CARD', "
        "'assign KIND' oder 'lay ROW'"
    ),
    "err.cards.not_an_action": (
        "'{text}' ist kein Zug; schreibe 'play CARD ROW', 'follower ROW', 'keep CARD', "
        "'cash CARD', 'assign KIND' oder 'lay ROW'"
    ),
    "err.cards.which_row": "sag, in welche Reihe {card} kommt",
    # flow.py
    "err.cards.not_in_hand": "Du hast keine Karte {card} auf der Hand.",
    "err.cards.wrong_row": (
        "Eine offene Karte {card} muss in die Reihe {row}; nur deine erste Karte einer Runde "
        "(verdeckt gespielt) und Joker dürfen in jede Reihe."
    ),
    "err.cards.follower_stands": "Dein großer Gefolgsmann steht diese Runde schon in Reihe {row}.",
    "err.cards.choose_wrong_row": "Entscheide für eine deiner Karten in falscher Reihe: {cards}.",
    "err.cards.no_wrong_row": "Du hast keine Karte in falscher Reihe zu entscheiden.",
    "err.cards.wrong_row_first": "Entscheide zuerst über deine Karten in falscher Reihe.",
    "err.cards.no_joker": "Du hast keinen Tier-Joker zuzuordnen.",
    "err.cards.joker_kind": (
        "Ein Tier-Joker schließt sich einer Art an, die du hast oder gerade erhalten hast: {kinds}."
    ),
    # state.py
    "err.game_over": "Das Spiel ist vorbei.",
    "err.cards.stack": "Der Stapel nennt mehr Karten {card}, als die Schachtel enthält.",
    # rules.py
    "err.cards.no_seat": "In diesem Spiel gibt es keinen Platz {seat}.",
    "err.cards.no_choice_now": "Gerade ist keine Wertungswahl zu treffen.",
    "err.cards.dealer_lays": "Joker legt nur der Geber beim Aufbau aus.",
    "err.cards.unknown_action": "unbekannter Zug {action}",
    "err.cards.stale": "Diese Wahl ist veraltet.",
    "err.cards.not_an_answer": "Das ist keine Antwort auf diese Wahl.",
    "err.cards.wait_choices": "Warten, bis {names} die Wertungswahl getroffen hat.",
    "err.cards.wait_dealer": "Warten auf den Geber, {names}, der den Joker auslegt.",
    "err.cards.not_your_turn": "Du bist nicht am Zug: {names} ist dran.",
    "err.cards.setting_up": "Der Geber legt noch die ersten Karten aus.",
    "err.cards.scoring": "Die Runde wird gewertet: triff zuerst deine Wertungswahl.",
    # scoring.py
    "cards.score.characters": "Personen",
    "cards.score.animals": "Tiere",
    "cards.score.animal-joker": "Tier-Joker",
    "cards.score.wild-joker": "Drache/Fee",
    "cards.score.wrong-row": "falsche Reihe",
    "cards.score.buildings": "Gebäude",
    "cards.part.sum": "{expr} = {total}",
    "cards.part.count": "× {n} {n:Karte|Karten}",
    "cards.part.wrong_row": "{card} in Reihe {row} {points}",
    "cards.part.wild": "{card} {points}",
    "cards.part.animals": "jetzt {total} {total:Tier|Tiere} {kind} → {points}",
    "cards.part.lone_joker": "Tier-Joker ohne Tier vor dir {points}",
    "cards.part.set": "Satz aus {size} ({names}) {points}",
    "cards.joker": "Joker",
}
for _colour in Colour:
    _TEXTS[f"cards.colour.{_colour.value}"] = COLOUR[_colour]
    _TEXTS[f"cards.rowname.{_colour.value}"] = f"{COLOUR[_colour]} ({FEATURE[_colour.feature]})"
for _colour in ROWS:
    _TEXTS[row_name(_colour)] = ROW[_colour]
    _TEXTS[play_label(_colour)] = f"{{card}} → {ROW[_colour]}"
    _TEXTS[follower_label(_colour)] = f"Gefolgsmann → {ROW[_colour]} ({{n}})"
    _TEXTS[lay_label(_colour)] = f"Joker → {ROW[_colour]}"
for _face in FACES:
    if _face.type is CardType.ANIMAL and _face.colour is not None:
        _TEXTS[assign_label(_face.kind)] = f"Joker → {ROW[_face.colour]}"
messages.register_lang("de", _TEXTS)
