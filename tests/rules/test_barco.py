"""Barco, Capitán y Tripulación (seed 000, RULES.md): the roll-off, the crew, the end, stakes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules import IllegalAction, InvalidOptions, get_game
from rules.barco import Payment
from rules.ship import Reroll, Roll, Stop

GAME = get_game("barco")
MISS = (1, 1, 2, 2, 3)


def table(players=("Ana", "Beto", "Caro"), **options):
    """A game after a roll-off that Ana wins with the lowest sum, so seats play in order."""
    state = GAME.new_game(list(players), options)
    for seat in range(len(players)):
        state = GAME.apply_chance(state, (1,) * 5 if seat == 0 else (6,) * 5)
    return state


def throw(state, faces):
    return GAME.apply_chance(GAME.apply(state, Roll()), tuple(faces))


def scores(state, crew):
    """The current player throws 6-5-4 and `crew` at once and stops: the round gives sum(crew)."""
    return GAME.apply(throw(state, (6, 5, 4, *crew)), Stop())


def misses(state):
    for _ in range(3):
        state = throw(state, MISS)
    return state


def two_dice(value):
    return (value - value // 2, value // 2)


def play_round(state, *points):
    """Each player of the round in turn: a number (2 to 12) is scored as 6-5-4 plus two dice
    at once, None misses three times."""
    for value in points:
        state = misses(state) if value is None else scores(state, two_dice(value))
    return state


# -- the start ---------------------------------------------------------------------------------


def test_the_lowest_sum_of_five_dice_starts_and_play_goes_clockwise():
    state = GAME.new_game(["Ana", "Beto", "Caro"])
    assert GAME.pending_throw(state).count == 5
    for faces in ((3, 3, 3, 3, 3), (1, 2, 2, 2, 2), (6, 6, 6, 6, 6)):
        state = GAME.apply_chance(state, faces)
    assert state.first == 1
    assert state.playing == (1, 2, 0)
    assert GAME.current_player(state) == 1


def test_tied_lowest_sums_roll_again_among_themselves():
    state = GAME.new_game(["Ana", "Beto", "Caro"])
    for faces in ((2, 2, 2, 2, 2), (1, 1, 1, 1, 6), (6, 6, 6, 6, 6)):
        state = GAME.apply_chance(state, faces)
    assert state.rolloff.contenders == (0, 1)
    state = GAME.apply_chance(GAME.apply_chance(state, (6,) * 5), (5,) * 5)
    assert state.first == 1


# -- the crew ----------------------------------------------------------------------------------


def test_the_crew_may_be_thrown_again_one_die_or_both():
    state = throw(table(), (6, 5, 4, 1, 5))
    assert GAME.legal_actions(state) == [
        Stop(),
        Reroll(dice=(0,)),
        Reroll(dice=(1,)),
        Reroll(dice=(0, 1)),
    ]
    state = GAME.apply(state, Reroll(dice=(0,)))
    assert GAME.pending_throw(state).count == 1
    state = GAME.apply_chance(state, (6,))
    assert state.hand.scoring == (6, 5)
    assert [die.scoring for die in state.hand.last] == [0]


def test_a_crew_die_that_does_not_exist_cannot_be_thrown():
    state = throw(table(), (6, 5, 4, 1, 5))
    with pytest.raises(IllegalAction, match="crew die 1, crew die 2, or both"):
        GAME.apply(state, Reroll(dice=(2,)))


def test_a_player_who_qualifies_at_once_may_throw_the_crew_twice_more():
    state = throw(table(), (6, 5, 4, 1, 1))
    state = GAME.apply_chance(GAME.apply(state, Reroll(dice=(0, 1))), (3, 3))
    state = GAME.apply_chance(GAME.apply(state, Reroll(dice=(1,))), (2,))
    assert state.sheet[0] == (5, None, None)
    assert GAME.current_player(state) == 1


def test_the_crew_is_the_score_of_the_round():
    state = play_round(table(), 7, None, 12)
    assert state.sheet[0] == (7, 0, 12)
    assert GAME.scores(state) == (7, 0, 12)
    assert state.round == 2


# -- the end -----------------------------------------------------------------------------------


def test_the_highest_total_after_the_last_round_wins():
    state = play_round(table(rounds=2), 7, 5, 3)
    state = play_round(state, 2, 5, 4)
    assert GAME.is_over(state)
    assert GAME.scores(state) == (9, 10, 7)
    assert GAME.winners(state) == (1,)


def test_tied_leaders_play_an_extra_round_among_themselves():
    state = play_round(table(rounds=1), 8, 3, 8)
    assert not GAME.is_over(state)
    assert state.in_extra_round
    assert state.playing == (0, 2)
    assert state.sheet[-1] == (None, None, None)
    state = play_round(state, 6)
    assert GAME.current_player(state) == 2
    state = play_round(state, 9)
    assert GAME.is_over(state)
    assert GAME.winners(state) == (2,)
    assert state.sheet == ((8, 3, 8), (6, None, 9))


def test_extra_rounds_go_on_while_the_leaders_stay_tied():
    state = play_round(table(rounds=1), 8, 8, 2)
    state = play_round(state, 5, 5)
    assert state.extra_rounds == 2
    assert state.playing == (0, 1)
    state = play_round(state, None, 4)
    assert GAME.winners(state) == (1,)


def test_an_extra_round_is_announced_with_the_tied_players():
    before = play_round(table(rounds=1), 8, 3)
    before = throw(before, (6, 5, 4, 4, 4))
    after = GAME.apply(before, Stop())
    lines = [str(t) for t in GAME.narrate(before, Stop(), after)]
    assert lines == ["Caro scores 8", "Extra round: Ana, Caro are tied at 8 and play on"]


def test_the_race_ends_only_when_the_round_is_complete():
    state = play_round(table(end="race", target=10), 12)
    assert not GAME.is_over(state)
    assert GAME.current_player(state) == 1
    state = play_round(state, 3, 11)
    assert GAME.is_over(state)
    assert GAME.winners(state) == (0,)


def test_in_the_race_a_later_player_of_the_round_can_still_overtake():
    state = play_round(table(end="race", target=10), 10, 12, 2)
    assert GAME.winners(state) == (1,)


def test_the_race_goes_on_for_as_many_rounds_as_it_takes():
    state = table(end="race", target=100)
    for _ in range(12):
        state = play_round(state, 2, 2, 2)
    assert not GAME.is_over(state)
    assert state.round == 13


def test_a_tie_at_the_top_of_the_race_is_played_off():
    state = play_round(table(end="race", target=10), 11, 11, 12)
    assert GAME.winners(state) == (2,)
    state = play_round(table(end="race", target=10), 12, 2, 12)
    assert state.playing == (0, 2)
    assert not GAME.is_over(state)


# -- stakes --------------------------------------------------------------------------------


def test_with_stakes_the_winner_takes_the_pot():
    state = table(rounds=1, stakes=True, stake=5)
    assert (state.chips, state.pot) == ((-5, -5, -5), 15)
    state = play_round(state, 4, 9, 6)
    assert state.settlement == (Payment(payer=None, payee=1, chips=15),)
    assert (state.chips, state.pot) == ((-5, 10, -5), 0)


def test_with_margin_settlement_each_player_pays_the_rounded_up_margin_times_the_rate():
    state = table(rounds=1, stakes=True, settlement="margin", rate=0.1)
    assert (state.chips, state.pot) == ((0, 0, 0), 0)
    state = play_round(state, 2, 12, None)
    # margins 10 and 12: exactly 1 chip (no float rounding up to 2), and ceil(1.2) = 2
    assert state.settlement == (
        Payment(payer=0, payee=1, chips=1),
        Payment(payer=2, payee=1, chips=2),
    )
    assert state.chips == (-1, 3, -2)


def test_the_settlement_is_told_at_the_end():
    before = play_round(table(rounds=1, stakes=True, stake=5), 4, 9)
    before = throw(before, (6, 5, 4, 1, 1))
    after = GAME.apply(before, Stop())
    lines = [str(t) for t in GAME.narrate(before, Stop(), after)]
    assert lines[-2:] == ["Game over: Beto wins with 9 points", "Beto takes the pot of 15 chips"]


def test_without_stakes_no_chips_change_hands():
    state = play_round(table(rounds=1), 4, 9, 6)
    assert (state.chips, state.pot, state.settlement) == ((0, 0, 0), 0, ())


# -- options -------------------------------------------------------------------------------


def test_the_lobby_defaults_are_ten_rounds_race_to_100_and_no_stakes():
    options = GAME.options()
    assert (options.end, options.rounds, options.target) == ("rounds", 10, 100)
    assert (options.stakes, options.settlement, options.rate) == (False, "pot", 0.1)


@pytest.mark.parametrize(("name", "value"), [("rounds", 0), ("rounds", 51), ("end", "sprint")])
def test_bad_options_are_refused_naming_the_field(name, value):
    with pytest.raises(InvalidOptions, match=name):
        GAME.new_game(["Ana"], {name: value})


def test_the_state_round_trips_through_json_mid_game():
    state = play_round(table(rounds=1, stakes=True), 8, 3, 8)
    state = throw(state, (6, 5, 4, 1, 2))
    assert GAME.load_state(state.model_dump_json()) == state


# -- chips are conserved -------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    seats=st.integers(1, 4),
    settlement=st.sampled_from(["pot", "margin"]),
    rate=st.sampled_from([0.1, 0.25, 1.0, 0.07]),
)
def test_chips_are_whole_and_their_sum_with_the_pot_never_changes(data, seats, settlement, rate):
    state = GAME.new_game(
        [f"P{i}" for i in range(seats)],
        {"rounds": 2, "stakes": True, "stake": 7, "settlement": settlement, "rate": rate},
    )
    total = sum(state.chips) + state.pot
    for _ in range(300):
        if GAME.is_over(state):
            break
        pending = GAME.pending_throw(state)
        if pending is not None:
            faces = data.draw(
                st.lists(st.integers(1, 6), min_size=pending.count, max_size=pending.count)
            )
            state = GAME.apply_chance(state, faces)
        else:
            state = GAME.apply(state, data.draw(st.sampled_from(GAME.legal_actions(state))))
        assert all(isinstance(c, int) for c in state.chips)
        assert sum(state.chips) + state.pot == total
    event("over" if GAME.is_over(state) else "capped")
    if GAME.is_over(state):
        assert state.pot == 0
        assert state.chips[GAME.winners(state)[0]] == max(state.chips)
