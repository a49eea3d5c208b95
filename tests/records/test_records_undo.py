"""Undo before the dice: a person takes back their last decision until dice are thrown after
it. The undo is an event of the record; the state is the record replayed with it."""

from __future__ import annotations

import pytest
from recordhelpers import bot_move, open_store

from app.dice import LoadedDice, RandomDice
from app.i18n import render_all
from app.records.recorder import StoreRecorder
from app.records.replay import decisions
from app.table import CannotUndo, Seat, Table
from rules.generala import BOXES, Box, Fill, Roll
from rules.multiplicacion import Keep, Rethrow, Step, Throw

ANA_AND_A_BOT = [Seat(name="Ana"), Seat(name="Bruno", kind="easy")]


def test_a_generala_box_can_be_taken_back_before_the_next_players_throw(tmp_path):
    store = open_store(tmp_path)
    table = Table.new(
        "generala",
        ANA_AND_A_BOT,
        dice=LoadedDice([6, 1, 1, 1, 1, 2, 3]),
        recorder=StoreRecorder(store),
    )
    table.act(Roll())
    thrown = table.state
    table.act(Fill(box=Box.ONES))
    assert table.current_player() == 1  # Bruno has not thrown yet
    lines = table.undo()
    assert render_all(lines) == ["Ana takes back: Ones: 3"]
    assert table.state == thrown
    assert table.events[-1].kind == "undo" and table.events[-1].data == {"to": 5}
    table.act(Fill(box=Box.LIBRE))
    assert table.state.sheets[0][BOXES.index(Box.LIBRE)] == 8
    # the record keeps both decisions and the undo; the coach reviews the one that stands
    record = store.load(table.save_id)
    assert [e.kind for e in record.events[-3:]] == ["action", "undo", "action"]
    assert Table.from_record(record).state == table.state
    assert [d.action for d in decisions(record)][-1] == Fill(box=Box.LIBRE)
    assert Fill(box=Box.ONES) not in [d.action for d in decisions(record)]


def test_a_decision_stands_once_dice_are_thrown_after_it():
    table = Table.new(
        "generala", ANA_AND_A_BOT, dice=LoadedDice([6, 1, 1, 1, 1, 2, 3, 4, 4, 4, 5, 5])
    )
    table.act(Roll())
    table.act(Fill(box=Box.ONES))
    table.act(bot_move(table))  # Bruno throws
    events, state = list(table.events), table.state
    with pytest.raises(CannotUndo, match="Dice were thrown since the last decision"):
        table.undo()
    assert table.events == events and table.state is state


def test_a_throw_is_a_decision_that_dice_follow_at_once():
    table = Table.new("generala", ANA_AND_A_BOT, dice=LoadedDice([6, 1, 1, 1, 1, 2, 3]))
    table.act(Roll())
    assert not table.can_undo()
    assert table.undo_target() == "Dice were thrown since the last decision: it stands"


def test_a_multiplicacion_keep_can_be_taken_back_and_the_triple_thrown_again_instead():
    dice = LoadedDice([6, 6, 6, 1, 1, 1, 4, 4, 4, 2, 5, 6])
    table = Table.new("multiplicacion", ANA_AND_A_BOT, dice=dice)
    table.act(Throw())
    assert table.state.turn.step is Step.TRIPLE
    triple = table.state
    table.act(Keep())
    assert render_all(table.undo()) == ["Ana takes back: Keep a 4"]
    assert table.state == triple
    table.act(Rethrow())
    assert table.state.turn.step is not Step.TRIPLE


def test_a_piratas_move_can_be_taken_back_before_the_next_throw():
    table = Table.new("piratas", ANA_AND_A_BOT, dice=RandomDice(5))
    while table.state.in_opening or table.current_player() != 0 or table.state.stage != "move":
        table.act(bot_move(table))
    moved_from = table.state
    choices = table.game.legal_actions(moved_from)
    table.act(choices[0])
    assert table.current_player() == 1  # (with seed 5 the move strikes nothing: no extra turn)
    table.undo()
    assert table.state == moved_from
    table.act(choices[-1])
    assert Table.from_record(table.record).state == table.state


def test_there_is_nothing_to_take_back_at_the_start():
    table = Table.new("generala", ANA_AND_A_BOT, dice=LoadedDice([6, 1]))
    with pytest.raises(CannotUndo, match="There is no decision to take back"):
        table.undo()


def test_with_another_person_at_the_table_a_decision_stands():
    people = [Seat(name="Ana"), Seat(name="Beto")]
    table = Table.new("generala", people, dice=LoadedDice([6, 1, 1, 1, 1, 2, 3]))
    table.act(Roll())
    table.act(Fill(box=Box.ONES))
    with pytest.raises(CannotUndo, match="Another person plays at this table"):
        table.undo()


def test_the_last_decision_of_a_finished_game_stands():
    table = Table.new("multiplicacion", ANA_AND_A_BOT, dice=RandomDice(3))
    while not table.over:
        table.act(bot_move(table))
    with pytest.raises(CannotUndo, match="The game is over"):
        table.undo()


def test_a_second_undo_cannot_reach_past_the_dice():
    table = Table.new("generala", ANA_AND_A_BOT, dice=LoadedDice([6, 1, 1, 1, 1, 2, 3]))
    table.act(Roll())
    table.act(Fill(box=Box.ONES))
    table.undo()
    with pytest.raises(CannotUndo, match="Dice were thrown since"):
        table.undo()
