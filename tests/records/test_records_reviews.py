"""The coach's reviews are recomputed from the record: only people's decisions that stand, and
summed per kind of decision for the statistics."""

from __future__ import annotations

import pytest
from recordhelpers import bot_move, new_table, play

from app.dice import LoadedDice
from app.records.book import RecordBook
from app.records.replay import decisions
from app.records.reviews import DecisionReview, decision_kind, review_record, summarize
from app.table import Seat, Table
from bots import coach
from rules.generala import Box, Fill, Roll
from rules.multiplicacion import Keep
from rules.piratas import Move, Piece


def test_the_kind_of_a_decision_names_its_box_or_piece():
    assert decision_kind(Fill(box=Box.GENERALA)) == "fill:generala"
    assert decision_kind(Roll(hold=(0, 1))) == "roll"
    assert decision_kind(Keep()) == "keep"
    assert decision_kind(Move(piece=Piece.CAPTAIN)) == "move:captain"


def test_only_the_peoples_decisions_that_stand_are_reviewed_as_the_coach_rates_them():
    table = Table.new(
        "generala",
        [Seat(name="Ana"), Seat(name="Bruno", kind="easy")],
        dice=LoadedDice([6, 1, 1, 1, 1, 2, 3, 1, 2, 3, 4, 6]),
    )
    table.act(Roll())
    before = table.state
    table.act(Fill(box=Box.GENERALA))  # a blunder, taken back
    table.undo()
    table.act(Fill(box=Box.ONES))
    table.act(bot_move(table))  # Bruno's throw: a bot's decision, not reviewed
    reviews = review_record(table.record)
    assert [(r.seat, r.kind) for r in reviews] == [(0, "fill:ones")]  # the throw: no choice
    expected = coach("generala").review(before, Fill(box=Box.ONES))
    assert reviews[0].loss == pytest.approx(expected.loss)
    assert reviews[0].rating == str(expected.rating)
    assert reviews[0].seq == decisions(table.record)[-2].seq


def test_a_move_without_a_choice_is_neither_rated_nor_counted_as_in_the_live_summary():
    table = Table.new(
        "generala",
        [Seat(name="Ana"), Seat(name="Bruno", kind="easy")],
        dice=LoadedDice([6, 1, 1, 2, 3, 4, 5, 6]),
    )
    table.act(Roll())  # the turn's first throw: nothing to hold, no choice
    first_throw = decisions(table.record)[0]
    assert coach("generala").review(first_throw.state, first_throw.action).forced
    assert review_record(table.record) == []


def test_reviews_are_summed_per_seat_unit_and_kind_with_the_worst_kept():
    rows = summarize(
        [
            DecisionReview(3, 0, "u", "roll", 1.0, "good"),
            DecisionReview(7, 0, "u", "roll", 4.0, "blunder"),
            DecisionReview(9, 0, "u", "roll", 2.0, "mistake"),
            DecisionReview(11, 1, "u", "roll", 0.0, "best"),
        ]
    )
    assert [tuple(r) for r in rows] == [
        (0, "u", "roll", 3, 7.0, 2, 4.0, 7),
        (1, "u", "roll", 1, 0.0, 0, 0.0, 11),
    ]


def test_finished_games_are_reviewed_once_and_answer_the_statistics(tmp_path):
    book = RecordBook(tmp_path / "records.db")
    for seed in range(3):
        table = new_table("multiplicacion", seed=seed)
        table.recorder = book.recorder()
        play(table)
    assert book.review_pending() == 3
    assert book.review_pending() == 0
    store = book.store
    assert store is not None
    points = store.loss_over_time(player="Ana")
    assert len({p.record_id for p in points}) == 3
    decided = sum(p.decisions for p in points)
    assert decided == sum(k.decisions for k in store.costliest_mistakes(player="Ana", limit=99))
    assert store.loss_over_time(player="Bruno") == []  # a bot's decisions are not reviewed
