"""Generala (seed 004, RULES.md): the thirteen boxes, the turn, the roll-off and the end."""

from __future__ import annotations

import copy

import pytest

from rules import IllegalAction, get_game
from rules.generala import BOXES, Box, Fill, Roll, score

GAME = get_game("generala")


def solo():
    """A one-player game: a single seat starts without a roll-off."""
    return GAME.new_game(["Ana"])


def duo(first_die: int = 6, second_die: int = 1):
    """Ana and Beto, after a roll-off of one die each."""
    state = GAME.new_game(["Ana", "Beto"])
    state = GAME.apply_chance(state, (first_die,))
    return GAME.apply_chance(state, (second_die,))


def throw(state, faces, hold=()):
    """The current player throws every die not held and they come up `faces`."""
    state = GAME.apply(state, Roll(hold=tuple(hold)))
    return GAME.apply_chance(state, tuple(faces))


def play_turn(state, faces, box):
    return GAME.apply(throw(state, faces), Fill(box=box))


def box_value(state, seat, box):
    return state.sheets[seat][BOXES.index(box)]


# -- the examples of seed 004 ---------------------------------------------------------------


def test_one_one_one_four_five_is_worth_three_as_ones():
    assert score(Box.ONES, (1, 1, 1, 4, 5)) == 3


@pytest.mark.parametrize(("box", "points"), [(Box.THREES, 6), (Box.FOURS, 8), (Box.FIVES, 5)])
def test_three_three_four_four_five_in_the_number_boxes(box, points):
    assert score(box, (3, 3, 4, 4, 5)) == points


def test_one_four_four_five_six_is_worth_twenty_as_libre():
    assert score(Box.LIBRE, (1, 4, 4, 5, 6)) == 20


def test_the_seed_example_written_on_the_sheet():
    state = play_turn(solo(), (1, 1, 1, 4, 5), Box.ONES)
    assert box_value(state, 0, Box.ONES) == 3


# -- every box ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("box", "dice", "points"),
    [
        (Box.ONES, (1, 2, 3, 4, 5), 1),
        (Box.ONES, (2, 2, 3, 4, 5), 0),
        (Box.TWOS, (2, 2, 2, 2, 6), 8),
        (Box.THREES, (3, 3, 3, 3, 3), 15),
        (Box.FOURS, (1, 2, 3, 5, 6), 0),
        (Box.FIVES, (5, 1, 5, 1, 5), 15),
        (Box.SIXES, (6, 6, 1, 2, 3), 12),
        (Box.SIXES, (6, 6, 6, 6, 6), 30),
    ],
)
def test_a_number_box_scores_the_sum_of_the_dice_showing_that_face(box, dice, points):
    assert score(box, dice) == points


@pytest.mark.parametrize(
    ("dice", "points"),
    [((4, 4, 4, 1, 2), 20), ((2, 5, 2, 6, 2), 20), ((4, 4, 1, 1, 2), 0), ((1, 2, 3, 4, 6), 0)],
)
def test_trio_is_twenty_for_three_of_a_kind(dice, points):
    assert score(Box.TRIO, dice) == points


@pytest.mark.parametrize(
    ("dice", "points"), [((6, 6, 6, 6, 1), 30), ((3, 1, 3, 3, 3), 30), ((6, 6, 6, 1, 1), 0)]
)
def test_poker_is_thirty_for_four_of_a_kind(dice, points):
    assert score(Box.POKER, dice) == points


def test_full_is_twenty_five_for_three_and_two():
    assert score(Box.FULL, (2, 2, 2, 5, 5)) == 25
    assert score(Box.FULL, (6, 1, 6, 1, 1)) == 25


@pytest.mark.parametrize(
    "dice", [(2, 2, 2, 5, 6), (2, 2, 5, 5, 6), (2, 2, 2, 2, 5), (1, 2, 3, 4, 5)]
)
def test_full_needs_exactly_three_and_two(dice):
    assert score(Box.FULL, dice) == 0


def test_a_poker_also_counts_as_trio():
    assert score(Box.TRIO, (5, 5, 5, 5, 2)) == 20


def test_a_full_also_counts_as_trio():
    assert score(Box.TRIO, (3, 3, 3, 6, 6)) == 20


def test_a_generala_counts_as_trio_and_poker_but_not_full():
    generala = (4, 4, 4, 4, 4)
    assert score(Box.TRIO, generala) == 20
    assert score(Box.POKER, generala) == 30
    assert score(Box.FULL, generala) == 0


def test_generala_is_fifty_for_five_of_a_kind():
    assert score(Box.GENERALA, (1, 1, 1, 1, 1)) == 50
    assert score(Box.GENERALA, (6, 6, 6, 6, 5)) == 0


def test_one_to_five_is_escalera_escasa_forty_and_nothing_as_escalera_larga():
    assert score(Box.ESCALERA_ESCASA, (1, 2, 3, 4, 5)) == 40
    assert score(Box.ESCALERA_LARGA, (1, 2, 3, 4, 5)) == 0


def test_two_to_six_is_escalera_larga_thirty_and_nothing_as_escalera_escasa():
    assert score(Box.ESCALERA_LARGA, (2, 3, 4, 5, 6)) == 30
    assert score(Box.ESCALERA_ESCASA, (2, 3, 4, 5, 6)) == 0


def test_an_escalera_counts_in_any_order():
    assert score(Box.ESCALERA_ESCASA, (5, 3, 1, 4, 2)) == 40
    assert score(Box.ESCALERA_LARGA, (6, 2, 5, 3, 4)) == 30


def test_four_in_a_row_is_no_escalera():
    assert score(Box.ESCALERA_ESCASA, (1, 2, 3, 4, 4)) == 0
    assert score(Box.ESCALERA_LARGA, (2, 3, 4, 5, 5)) == 0


@pytest.mark.parametrize("dice", [(1, 4, 4, 5, 6), (6, 6, 6, 6, 6), (1, 1, 1, 1, 2)])
def test_libre_is_always_the_sum_of_the_dice(dice):
    assert score(Box.LIBRE, dice) == sum(dice)


def test_the_sheet_has_thirteen_boxes():
    assert len(BOXES) == 13
    assert solo().sheets == ((None,) * 13,)


# -- the roll-off ---------------------------------------------------------------------------


def test_the_game_opens_with_a_roll_off_of_one_die_each():
    state = GAME.new_game(["Ana", "Beto", "Caro"])
    assert GAME.current_player(state) is None
    for seat in range(3):
        pending = GAME.pending_throw(state)
        assert (pending.player, pending.count) == (seat, 1)
        state = GAME.apply_chance(state, (seat + 2,))
    assert GAME.pending_throw(state) is None
    assert GAME.current_player(state) == 2


def test_the_highest_die_of_the_roll_off_starts():
    assert GAME.current_player(duo(6, 1)) == 0
    assert GAME.current_player(duo(2, 5)) == 1


def test_a_tie_in_the_roll_off_is_rolled_again_among_the_tied_only():
    state = GAME.new_game(["Ana", "Beto", "Caro"])
    for face in (5, 2, 5):
        state = GAME.apply_chance(state, (face,))
    assert GAME.pending_throw(state).player == 0
    state = GAME.apply_chance(state, (3,))
    assert GAME.pending_throw(state).player == 2, "Beto lost the first pass and does not roll"
    state = GAME.apply_chance(state, (4,))
    assert GAME.pending_throw(state) is None
    assert GAME.current_player(state) == 2


def test_the_roll_off_goes_on_while_the_tie_lasts():
    state = GAME.new_game(["Ana", "Beto"])
    for face in (3, 3, 6, 6, 1):
        state = GAME.apply_chance(state, (face,))
    assert GAME.pending_throw(state).player == 1
    state = GAME.apply_chance(state, (2,))
    assert GAME.current_player(state) == 1


def test_play_goes_round_the_table_from_the_roll_off_winner():
    state = GAME.new_game(["Ana", "Beto", "Caro"])
    for face in (1, 6, 2):
        state = GAME.apply_chance(state, (face,))
    order = []
    for _ in range(4):
        order.append(GAME.current_player(state))
        state = play_turn(state, (1, 2, 3, 4, 6), BOXES[len(order) - 1])
    assert order == [1, 2, 0, 1]


# -- the turn -------------------------------------------------------------------------------


def test_the_first_throw_is_all_five_dice():
    state = solo()
    assert GAME.legal_actions(state) == [Roll()]
    with pytest.raises(IllegalAction, match="first throw is always with all five dice"):
        GAME.apply(state, Roll(hold=(0,)))
    state = GAME.apply(state, Roll())
    assert GAME.pending_throw(state).count == 5


def test_a_box_cannot_be_filled_before_throwing():
    with pytest.raises(IllegalAction, match="Throw the dice before choosing a box"):
        GAME.apply(solo(), Fill(box=Box.LIBRE))


def test_held_dice_stay_and_the_others_are_thrown_again():
    state = throw(solo(), (6, 6, 2, 3, 6))
    state = GAME.apply(state, Roll(hold=(0, 1, 4)))
    assert GAME.pending_throw(state).count == 2
    state = GAME.apply_chance(state, (6, 1))
    assert state.dice == (6, 6, 6, 1, 6)


def test_the_player_may_rethrow_all_five_dice():
    state = throw(throw(solo(), (1, 2, 3, 4, 6)), (5, 5, 5, 5, 5))
    assert state.dice == (5, 5, 5, 5, 5)
    assert state.throws == 2


def test_dice_held_at_the_second_throw_may_be_released_before_the_third():
    state = throw(solo(), (1, 1, 4, 5, 6))
    state = throw(state, (2, 3, 4), hold=(0, 1))
    assert state.dice == (1, 1, 2, 3, 4)
    assert Roll(hold=(2, 3, 4)) in GAME.legal_actions(state)
    state = throw(state, (6, 5), hold=(2, 3, 4))
    assert state.dice == (6, 5, 2, 3, 4)
    assert state.throws == 3


def test_every_die_held_is_no_throw():
    state = throw(solo(), (1, 2, 3, 4, 6))
    with pytest.raises(IllegalAction, match="Every die is held"):
        GAME.apply(state, Roll(hold=(0, 1, 2, 3, 4)))


def test_a_die_is_held_at_most_once_and_there_are_five():
    state = throw(solo(), (1, 2, 3, 4, 6))
    with pytest.raises(IllegalAction):
        GAME.apply(state, Roll(hold=(0, 0)))
    with pytest.raises(IllegalAction):
        GAME.apply(state, Roll(hold=(5,)))


def test_there_is_no_fourth_throw():
    state = throw(throw(throw(solo(), (1, 2, 3, 4, 6)), (1, 2, 3, 4, 6)), (1, 2, 3, 4, 6))
    assert all(isinstance(action, Fill) for action in GAME.legal_actions(state))
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match="No throws left"):
        GAME.apply(state, Roll())
    assert state == before


def test_the_player_may_stop_after_the_first_throw():
    state = throw(solo(), (2, 2, 2, 5, 5))
    state = GAME.apply(state, Fill(box=Box.FULL))
    assert box_value(state, 0, Box.FULL) == 25
    assert state.throws == 0
    assert state.dice == ()


def test_the_dice_cannot_be_played_while_they_are_rolling():
    state = GAME.apply(solo(), Roll())
    assert GAME.current_player(state) is None
    assert GAME.legal_actions(state) == []
    with pytest.raises(IllegalAction, match="still rolling"):
        GAME.apply(state, Fill(box=Box.LIBRE))


def test_a_box_may_be_filled_with_zero():
    state = play_turn(solo(), (1, 1, 1, 1, 1), Box.SIXES)
    assert box_value(state, 0, Box.SIXES) == 0
    assert Fill(box=Box.SIXES) not in GAME.legal_actions(throw(state, (6, 6, 6, 6, 6)))


def test_only_unused_boxes_are_offered():
    state = play_turn(solo(), (2, 2, 2, 5, 5), Box.FULL)
    state = throw(state, (1, 2, 3, 4, 5))
    fills = [a.box for a in GAME.legal_actions(state) if isinstance(a, Fill)]
    assert fills == [box for box in BOXES if box is not Box.FULL]


def test_filling_an_already_filled_box_is_refused_and_changes_nothing():
    state = throw(play_turn(solo(), (2, 2, 2, 5, 5), Box.FULL), (3, 3, 3, 6, 6))
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, Fill(box=Box.FULL))
    assert str(refused.value) == "Box 'Full' is already filled"
    assert state == before


def test_each_player_fills_their_own_sheet():
    state = play_turn(duo(1, 6), (5, 5, 5, 5, 5), Box.GENERALA)
    assert box_value(state, 1, Box.GENERALA) == 50
    assert box_value(state, 0, Box.GENERALA) is None
    state = play_turn(state, (5, 5, 5, 5, 1), Box.GENERALA)
    assert box_value(state, 0, Box.GENERALA) == 0


# -- the end --------------------------------------------------------------------------------


def play_game(state, seats, dice_for_seat):
    """Everyone fills the boxes in sheet order with one throw; returns every state."""
    states = [state]
    for box in BOXES:
        for _ in range(seats):
            seat = GAME.current_player(state)
            state = play_turn(state, dice_for_seat(seat, box), box)
            states.append(state)
    return states


def test_the_game_is_over_after_thirteen_rounds():
    states = play_game(duo(6, 1), 2, lambda seat, box: (6, 6, 6, 6, 6))
    assert len(states) == 1 + 13 * 2
    assert not any(GAME.is_over(s) for s in states[:-1])
    final = states[-1]
    assert GAME.is_over(final)
    assert final.round == 13
    assert all(None not in sheet for sheet in final.sheets)
    assert GAME.current_player(final) is None
    assert GAME.legal_actions(final) == []
    with pytest.raises(IllegalAction, match="The game is over"):
        GAME.apply(final, Roll())


def test_the_round_counter_moves_when_everybody_has_played():
    states = play_game(duo(6, 1), 2, lambda seat, box: (1, 2, 3, 4, 6))
    assert [s.round for s in states[:5]] == [1, 1, 2, 2, 3]


def test_the_scores_are_the_sheet_totals_and_the_highest_wins():
    def dice(seat, box):
        return (5, 5, 5, 5, 5) if seat == 1 else (1, 2, 3, 4, 6)

    final = play_game(duo(6, 1), 2, dice)[-1]
    assert GAME.scores(final) == tuple(sum(sheet) for sheet in final.sheets)
    assert GAME.scores(final) == (1 + 2 + 3 + 4 + 6 + 16, 25 + 20 + 30 + 50 + 25)
    assert GAME.winners(final) == (1,)


def test_a_tie_for_the_most_points_is_shared():
    final = play_game(duo(6, 1), 2, lambda seat, box: (3, 3, 3, 4, 4))[-1]
    assert GAME.scores(final)[0] == GAME.scores(final)[1]
    assert GAME.winners(final) == (0, 1)


def test_nobody_wins_before_the_end():
    state = play_turn(duo(6, 1), (6, 6, 6, 6, 6), Box.GENERALA)
    assert GAME.scores(state) == (50, 0)
    assert GAME.winners(state) == ()
