"""The coach's words for the statistics: every kind of decision a game has is named in the
reader's language, never shown as its id."""

from __future__ import annotations

import typing

import pytest

from app import i18n, strategy_tables
from app.coach_words import coach_notes, decision_kind_words, format_loss, minus_loss
from app.dice import RandomDice
from app.i18n import render, render_all
from app.records.reviews import reviewed_decisions
from app.records.store import MistakeKind
from app.screens.statistics import mistakes_lines
from app.table import Seat, Table
from bots import Review, Unit, get_bot
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


# -- losses as numbers: no negative zero, one unit per block, counted words ---------------------
def test_a_loss_that_rounds_to_zero_is_zero_never_a_negative_zero():
    assert minus_loss(0.25, Unit.ROUND_SCORE) == "−0.25"
    assert minus_loss(0.031, Unit.WIN_PROBABILITY) == "−3.1%"
    for loss in (0.0, 0.004, -0.004, -1e-12):
        assert minus_loss(loss, Unit.FINAL_SCORE) == "0.00", loss
        assert format_loss(loss, Unit.FINAL_SCORE) == "0.00", loss
    for loss in (0.0, 0.0004, -0.0004):
        assert minus_loss(loss, Unit.WIN_PROBABILITY) == "0.0%", loss
        assert format_loss(loss, Unit.WIN_PROBABILITY) == "0.0%", loss


def test_the_costliest_mistakes_say_each_unit_once_and_count_in_words():
    kinds = [  # as the store gives them: by unit, then the costliest first
        MistakeKind("expected round score", "penalty_rethrow", 3, 1, 30.5, 30.5),
        MistakeKind("expected round score", "accept", 6, 3, 25.5, 13.5),
        MistakeKind("expected round score", "rethrow", 1, 0, 0.0, 0.0),
        MistakeKind("win probability", "accept", 2, 0, -1e-9, 0.0),
    ]
    assert mistakes_lines(kinds).splitlines() == [
        "Losses in expected round score:",
        "  Refusing the multiplier: 1 mistake in 3; −30.50 (worst −30.50)",
        "  Taking the multiplier: 3 mistakes in 6; −25.50 (worst −13.50)",
        "  Throwing a pair or triple again: 0 mistakes in 1; 0.00 (worst 0.00)",
        "Losses in chance to win:",
        "  Taking the multiplier: 0 mistakes in 2; 0.0% (worst 0.0%)",
    ]
    # the unit with the most decisions comes first
    kinds = [MistakeKind("expected round score", "stop", 1, 1, 2.0, 2.0), kinds[3]]
    assert mistakes_lines(kinds).splitlines()[0] == "Losses in chance to win:"


@pytest.mark.parametrize(
    ("code", "one", "many"),
    [("es", "1 error en 3", "3 errores en 6"), ("pt", "1 erro em 3", "3 erros em 6")],
)
def test_the_mistakes_are_counted_in_each_language(code, one, many):
    kinds = [
        MistakeKind("expected round score", "penalty_rethrow", 3, 1, 30.5, 30.5),
        MistakeKind("expected round score", "accept", 6, 3, 25.5, 13.5),
    ]
    i18n.use_language(code)
    try:
        text = mistakes_lines(kinds)
    finally:
        i18n.use_language("en")
    assert one in text and many in text and "−30,50" in text


def barco_reviews(seed: int) -> list[tuple[int, Review]]:
    """A two-round Barco game of two easy bots for Ana and Bruno (people's seats), rated by
    the coach as the game-over screen rates them."""
    table = Table.new("barco", [Seat(name="Ana"), Seat(name="Bruno")], None, RandomDice(seed))
    bots = [get_bot("barco", "easy", seed=seat) for seat in range(2)]
    while not table.over:
        seat = table.current_player()
        assert seat is not None
        table.act(bots[seat].choose(table.state))
    return [(one.seat, one.review) for one in reviewed_decisions(table.record)]


def test_the_game_over_summary_averages_in_one_unit_and_says_which():
    """Barco rates the last round in the chance to win, the others in the round's points: the
    averages are in points, a worst decision of the last round shows its %, and the last line
    says what both are."""
    strategy_tables.prepare("barco")
    reviews = barco_reviews(5)
    assert {review.hint.unit for _seat, review in reviews} == {
        Unit.ROUND_SCORE,
        Unit.WIN_PROBABILITY,
    }
    ana, bruno, units = render_all(coach_notes(["Ana", "Bruno"], reviews))
    assert ana == (
        "Ana: 3 choices, 1 best; average loss 0.58; worst: Stop with a crew of 6 (−1.00, mistake)"
    )
    assert bruno.startswith("Bruno: 3 choices, 0 best; average loss 0.50; worst: ")
    assert bruno.endswith("(−7.9%, mistake)")
    assert units == (
        "Loss: what a choice gave up against the best move (expected round score; "
        "in the last round, chance to win)."
    )
    i18n.use_language("es")
    try:
        *_notes, units = render_all(coach_notes(["Ana", "Bruno"], reviews))
    finally:
        i18n.use_language("en")
    assert units == (
        "Pérdida: lo que una decisión resignó frente a la mejor jugada (esperado en ronda; "
        "en la última ronda, chance de ganar)."
    )


@pytest.mark.parametrize(
    ("code", "ana", "bruno"),
    [("es", "3 decisiones, 1 óptima;", "3 decisiones, 0 óptimas;"),
     ("pt", "3 decisões, 1 ótima;", "3 decisões, 0 ótimas;")],
)
def test_the_best_choices_agree_with_their_number_in_each_language(code, ana, bruno):
    """'1 óptima', '0 óptimas': the count of best moves takes its plural in Spanish and
    Portuguese (English says '1 best' and '3 best' alike)."""
    strategy_tables.prepare("barco")
    reviews = barco_reviews(5)
    i18n.use_language(code)
    try:
        ana_line, bruno_line, _units = render_all(coach_notes(["Ana", "Bruno"], reviews))
    finally:
        i18n.use_language("en")
    assert ana in ana_line and bruno in bruno_line
