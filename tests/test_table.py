"""The table (app/table.py): the one place where actions are applied and dice are thrown."""

from __future__ import annotations

import pytest

from app.dice import DiceExhausted, LoadedDice, RandomDice
from app.i18n import render, render_all
from app.table import Seat, Table
from rules import IllegalAction, InvalidOptions
from rules.generala import Box, Fill, Roll

ANA_AND_BETO = [Seat(name="Ana"), Seat(name="Beto")]


def new_table(faces, on_change=None):
    return Table.new("generala", ANA_AND_BETO, dice=LoadedDice(faces), on_change=on_change)


def test_a_new_table_plays_the_roll_off_with_its_dice_and_logs_it():
    table = new_table([2, 5])
    assert table.state.rolloff.done
    assert table.current_player() == 1
    assert render_all(table.log) == [
        "Ana rolls 2 for the start",
        "Beto rolls 5 for the start",
        "Beto starts",
    ]
    assert table.dice.left == 0


def test_a_tied_roll_off_is_thrown_again_at_the_table():
    table = new_table([4, 4, 1, 3])
    assert table.current_player() == 1
    assert "Tie: Ana, Beto roll again" in render_all(table.log)


def test_a_new_table_names_its_players_and_is_not_over():
    table = new_table([6, 1])
    assert table.players == ("Ana", "Beto")
    assert table.game.id == "generala"
    assert not table.over


def test_an_action_is_applied_and_its_dice_thrown():
    table = new_table([6, 1, 3, 3, 3, 4, 5])
    lines = table.act(Roll())
    assert table.state.dice == (3, 3, 3, 4, 5)
    assert table.state.throws == 1
    assert render_all(lines) == ["Ana throws 3 3 3 4 5 (throw 1 of 3)"]
    assert table.log[-1] == lines[-1]


def test_an_action_may_come_as_a_plain_dict():
    table = new_table([6, 1, 3, 3, 3, 4, 5])
    table.act({"kind": "roll"})
    table.act({"kind": "fill", "box": "threes"})
    assert table.state.sheets[0][2] == 9
    assert table.current_player() == 1
    assert render(table.log[-1]) == "Ana writes 9 in Threes"


def test_an_illegal_action_changes_neither_the_state_nor_the_log():
    table = new_table([6, 1, 1, 2, 3, 4, 5])
    state, log = table.state, list(table.log)
    with pytest.raises(IllegalAction, match="Throw the dice before choosing a box"):
        table.act(Fill(box=Box.LIBRE))
    with pytest.raises(IllegalAction, match="first throw is always with all five dice"):
        table.act(Roll(hold=(0, 1)))
    with pytest.raises(IllegalAction, match="not a move of Generala"):
        table.act({"kind": "fill", "box": "nothing"})
    assert table.state is state
    assert table.log == log
    assert table.dice.left == 5


def test_filling_a_filled_box_at_the_table_changes_nothing():
    table = new_table([6, 1, *[2, 2, 2, 5, 5] * 3])
    table.act(Roll())
    table.act(Fill(box=Box.FULL))
    table.act(Roll())
    table.act(Fill(box=Box.FULL))
    table.act(Roll())
    state, log = table.state, list(table.log)
    with pytest.raises(IllegalAction, match="Box 'Full' is already filled"):
        table.act(Fill(box=Box.FULL))
    assert table.state is state
    assert table.log == log


def test_check_tells_whether_an_action_is_legal_without_playing_it():
    table = new_table([6, 1])
    state = table.state
    table.check(Roll())
    with pytest.raises(IllegalAction):
        table.check(Fill(box=Box.ONES))
    assert table.state is state


def test_loaded_dice_that_run_out_leave_the_table_as_it_was():
    table = new_table([6, 1, 1, 2])
    state, log = table.state, list(table.log)
    with pytest.raises(DiceExhausted):
        table.act(Roll())
    assert table.state is state
    assert table.log == log
    assert table.dice.left == 2


def test_on_change_is_called_after_the_roll_off_and_each_successful_action():
    seen = []
    table = new_table([6, 1, 1, 2, 3, 4, 6], on_change=lambda t: seen.append(t.state))
    assert len(seen) == 1
    table.act(Roll())
    assert len(seen) == 2
    assert seen[-1] is table.state
    with pytest.raises(IllegalAction):
        table.act(Roll(hold=(0, 0)))
    with pytest.raises(DiceExhausted):
        table.act(Roll(hold=(0,)))
    assert len(seen) == 2
    table.act(Fill(box=Box.LIBRE))
    assert len(seen) == 3
    assert seen[-1] is table.state


def test_a_whole_game_can_be_played_at_the_table():
    table = Table.new("generala", ANA_AND_BETO, dice=RandomDice(11))
    while not table.over:
        table.act(Roll())
        box = next(a for a in table.game.legal_actions(table.state) if isinstance(a, Fill))
        table.act(box)
    assert table.current_player() is None
    assert render(table.log[-1]).startswith("Game over:")


def test_a_table_with_bad_seats_is_refused():
    with pytest.raises(InvalidOptions, match="same name"):
        Table.new("generala", [Seat(name="Ana"), Seat(name="Ana")], dice=LoadedDice([]))
