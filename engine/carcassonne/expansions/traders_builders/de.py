"""Händler und Baumeister: the expansion's words in German (Baumeister, Schwein, Waren:
Wein, Getreide, Stoff)."""

from __future__ import annotations

from engine.core import messages

messages.register_lang(
    "de",
    {
        "exp.traders_builders": "Händler und Baumeister",
        "opt.tb.builder": "Baumeister",
        "opt.tb.pig": "Schwein",
        "opt.tb.goods": "Waren",
        "help.tb.builder": "alle haben einen Baumeister (eine zweite Karte)",
        "help.tb.pig": "alle haben ein Schwein (+1 je Stadt an seiner Wiese)",
        "opt.tb.builder_bonus": "Zweite Karte des Baumeisters",
        "help.tb.builder_bonus": (
            "fragen: wer ihn besitzt, darf die zweite Karte ablehnen; automatisch: wird immer "
            "gespielt"
        ),
        "choice.ask": "fragen",
        "choice.auto": "automatisch",
        "tb.bonus": "Dein Baumeister bringt dir eine zweite Karte: spielen?",
        "opt.tb.bonus.take": "Die zweite Karte spielen",
        "help.tb.goods": "Warenplättchen für fertige Städte",
        "tb.builder_bonus": "Der Baumeister von {seat} bringt diesen Zug eine zweite Karte.",
        "tb.goods_taken": "{seat} nimmt Waren: {wine} Wein, {grain} Getreide, {cloth} Stoff.",
        "tb.goods_held": "{wine} Wein, {grain} Getreide, {cloth} Stoff",
        "fig.builder": "Baumeister",
        "part.most_wine.one": "meister Wein (1 Plättchen): 10",
        "part.most_wine.many": "meister Wein ({n} Plättchen): 10",
        "part.most_grain.one": "meistes Getreide (1 Plättchen): 10",
        "part.most_grain.many": "meistes Getreide ({n} Plättchen): 10",
        "part.most_cloth.one": "meister Stoff (1 Plättchen): 10",
        "part.most_cloth.many": "meister Stoff ({n} Plättchen): 10",
        "part.pig": "Schwein +{n}",
        "symbol.goods.wine": "Wein",
        "symbol.goods.grain": "Getreide",
        "symbol.goods.cloth": "Stoff",
        "score.goods": "Waren",
        "tb.err.take_or_pass": "Antworte 'tb.bonus take' oder passe.",
        "tb.err.bonus_first": (
            "Dein Baumeister bietet zuerst eine zweite Karte an: nimm sie oder passe."
        ),
        "fig.pig": "Schwein",
    },
)
