"""The opening roll-off, one piece shared by every game (rules/rolloff.py).

Every contender throws; the best sum starts (the lowest in Barco, the highest elsewhere); tied
players throw again among themselves until one is ahead. Each game tells it in its own words.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from kits import KITS
from rules import get_game
from rules.rolloff import OpensWithRollOff, RollOff


def roll_off(
    game_id: str, players: Sequence[str], throws: Sequence[tuple[int, ...]]
) -> tuple[list[str], int | None]:
    """The log lines of a roll-off thrown with `throws`, and the seat that then decides."""
    game = get_game(game_id)
    state = game.new_game(players)
    lines = []
    for faces in throws:
        after = game.apply_chance(state, faces)
        lines += [str(text) for text in game.narrate(state, faces, after)]
        state = after
    return lines, game.current_player(state)


@pytest.mark.parametrize("game_id", list(KITS))
def test_every_game_opens_with_the_one_shared_roll_off(game_id):
    game = get_game(game_id)
    assert isinstance(game, OpensWithRollOff)
    # the words are the game's own; the telling is the shared one
    assert type(game)._narrate_rolloff is OpensWithRollOff._narrate_rolloff


def test_generala_the_highest_die_starts_and_a_tie_throws_again_among_the_tied():
    lines, starter = roll_off("generala", ["Ana", "Beto", "Carla"], [(4,), (4,), (2,), (3,), (5,)])
    assert lines == [
        "Ana rolls 4 for the start",
        "Beto rolls 4 for the start",
        "Carla rolls 2 for the start",
        "Tie: Ana, Beto roll again",
        "Ana rolls 3 for the start",
        "Beto rolls 5 for the start",
        "Beto starts",
    ]
    assert starter == 1


def test_barco_the_lowest_sum_of_five_dice_starts_and_the_first_round_opens():
    throws = [(1, 1, 2, 2, 3), (6, 6, 6, 6, 6), (1, 1, 1, 3, 3), (2, 2, 2, 2, 2), (1, 1, 1, 1, 1)]
    lines, starter = roll_off("barco", ["Ana", "Beto", "Carla"], throws)
    assert lines == [
        "Ana rolls 1 1 2 2 3 for the start",
        "Beto rolls 6 6 6 6 6 for the start",
        "Carla rolls 1 1 1 3 3 for the start",
        "Tie: Ana, Carla roll again",
        "Ana rolls 2 2 2 2 2 for the start",
        "Carla rolls 1 1 1 1 1 for the start",
        "Carla starts",
        "Round 1 of 10",
    ]
    assert starter == 2


def test_navio_the_highest_die_starts_and_the_first_round_is_anted():
    lines, _ = roll_off("navio", ["Ana", "Beto"], [(3,), (3,), (2,), (6,)])
    assert lines == [
        "Ana rolls 3 for the start",
        "Beto rolls 3 for the start",
        "Tie: Ana, Beto roll again",
        "Ana rolls 2 for the start",
        "Beto rolls 6 for the start",
        "Beto starts",
        "Round 1 of 5: Beto starts",
        "Beto, Ana ante 1 each: the pot holds 2",
    ]


def test_multiplicacion_the_highest_sum_of_three_dice_starts_and_the_sums_are_told():
    throws = [(1, 2, 6), (3, 3, 3), (1, 1, 1), (6, 6, 6)]
    lines, starter = roll_off("multiplicacion", ["Ana", "Beto"], throws)
    assert lines == [
        "Ana rolls 1 2 6 (9) for the start",
        "Beto rolls 3 3 3 (9) for the start",
        "Tie: Ana, Beto roll again",
        "Ana rolls 1 1 1 (3) for the start",
        "Beto rolls 6 6 6 (18) for the start",
        "Beto starts",
    ]
    assert starter == 1


def test_piratas_each_side_rolls_one_die_and_the_winner_moves_first():
    lines, starter = roll_off("piratas", ["Ana", "Beto"], [(4,), (4,), (2,), (5,)])
    assert lines == [
        "Ana (Blue) rolls 4 for the start",
        "Beto (Red) rolls 4 for the start",
        "Tie: both sides roll again",
        "Ana (Blue) rolls 2 for the start",
        "Beto (Red) rolls 5 for the start",
        "Beto (Red) starts",
    ]
    assert starter == 1
    state = get_game("piratas").new_game(["Ana", "Beto"])
    for faces in [(4,), (4,), (2,), (5,)]:
        state = get_game("piratas").apply_chance(state, faces)
    assert state.side == 1


@pytest.mark.parametrize("game_id", ["generala", "barco", "multiplicacion"])
def test_a_single_player_starts_without_a_roll_off(game_id):
    game = get_game(game_id)
    state = game.new_game(["Ana"])
    assert state.rolloff.done and state.first == 0
    assert game.current_player(state) == 0


def test_the_roll_off_waits_for_each_contender_in_seat_order():
    rolloff = RollOff.start(3, dice=1)
    assert [rolloff.next_thrower(), rolloff.pending().player] == [0, 0]
    rolloff = rolloff.record((2,))
    assert rolloff.next_thrower() == 1
    rolloff = rolloff.record((2,)).record((1,))
    assert rolloff.contenders == (0, 1) and not rolloff.done  # 2 and 2 tie, 1 is out
    lowest = RollOff.start(3, dice=1, lowest_wins=True)
    assert lowest.record((2,)).record((2,)).record((1,)).winner == 2
