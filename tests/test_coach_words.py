"""The coach's words for the statistics: every kind of decision a game has is named in the
reader's language, never shown as its id."""

from __future__ import annotations

import typing

import pytest

from app import i18n
from app.coach_words import decision_kind_words
from app.i18n import render
from rules import GAMES, Text
from rules.generala import Box
from rules.piratas import Piece


def action_kinds() -> set[str]:
    """Every kind `records.reviews.decision_kind` can give, from the games' action models."""
    kinds = set()
    for game in GAMES.values():
        annotated = type(game).action_adapter._type  # Annotated[A | B, Field(...)] or A | B
        union = (
            typing.get_args(annotated)[0]
            if typing.get_origin(annotated) is typing.Annotated
            else annotated
        )
        for model in typing.get_args(union) or (union,):
            kind = model.model_fields["kind"].default
            if "box" in model.model_fields:
                kinds |= {f"{kind}:{box.value}" for box in Box}
            elif "piece" in model.model_fields:
                kinds |= {f"{kind}:{piece.value}" for piece in Piece}
            else:
                kinds.add(kind)
    return kinds


def test_the_kinds_are_found():
    kinds = action_kinds()
    assert {"fill:libre", "fill:ones", "move:captain", "reroll", "stop", "keep"} <= kinds
    assert {"accept", "penalty_rethrow", "rethrow", "roll", "throw"} <= kinds


@pytest.mark.parametrize("code", ["en", "es", "pt"])
def test_every_kind_of_decision_has_words_in_every_language(code):
    i18n.use_language(code)
    try:
        for kind in sorted(action_kinds()):
            words = decision_kind_words(kind)
            assert isinstance(words, Text), kind
            shown = render(words)
            assert kind not in shown and ":" not in shown and "_" not in shown, (kind, shown)
    finally:
        i18n.use_language("en")


def test_the_words_in_spanish_and_portuguese():
    i18n.use_language("es")
    try:
        assert render(decision_kind_words("fill:libre")) == "Anotar en Libre"
        assert render(decision_kind_words("fill:ones")) == "Anotar en Uno"
        assert render(decision_kind_words("stop")) == "Plantarse"
        i18n.use_language("pt")
        assert render(decision_kind_words("move:captain")) == "Mover o capitão"
    finally:
        i18n.use_language("en")


def test_a_kind_this_version_does_not_know_stays_as_it_is():
    assert decision_kind_words("fill:bonus") == "fill:bonus"
    assert decision_kind_words("jump") == "jump"
