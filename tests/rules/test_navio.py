"""Navio, Capitão & Tripulação (seed 001, RULES.md): antes, the leader's roll limit, replays."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules import IllegalAction, InvalidOptions, get_game
from rules.navio import RollLimit, RoundOutcome, TurnResult
from rules.ship import Reroll, Roll, Stop

GAME = get_game("navio")
MISS = (1, 1, 2, 2, 3)


def table(players=("Ana", "Beto", "Caro"), **options):
    """A game after a one-die roll-off won by Ana, so the first round goes Ana, Beto, Caro."""
    state = GAME.new_game(list(players), options)
    for seat in range(len(players)):
        state = GAME.apply_chance(state, (6,) if seat == 0 else (1,))
    return state


def throw(state, faces):
    return GAME.apply_chance(GAME.apply(state, Roll()), tuple(faces))


def treasure(state, value, throws=1):
    """The current player misses `throws - 1` times, then throws 6-5-4 and a treasure of
    `value` (2 to 12), and stops if the turn is not over by then."""
    for _ in range(throws - 1):
        state = throw(state, MISS[: state.hand.in_cup])
    before = state.turns_played
    state = throw(state, (*(6, 5, 4)[state.hand.filled :], value - value // 2, value // 2))
    return GAME.apply(state, Stop()) if state.turns_played == before else state


def out(state):
    """The current player misses with every throw allowed: out of the round."""
    before = state.turns_played
    while state.turns_played == before:
        state = throw(state, MISS)
    return state


def lines(before, event, after):
    return [str(line) for line in GAME.narrate(before, event, after)]


# -- the start and the ante ----------------------------------------------------------------


def test_the_highest_single_die_starts_and_ties_roll_again():
    state = GAME.new_game(["Ana", "Beto", "Caro"])
    assert GAME.pending_throw(state).count == 1
    for die in ((4,), (5,), (5,)):
        state = GAME.apply_chance(state, die)
    assert state.rolloff.contenders == (1, 2)
    state = GAME.apply_chance(GAME.apply_chance(state, (2,)), (3,))
    assert state.first == 2
    assert state.playing == (2, 0, 1)


def test_everybody_antes_at_the_start_of_the_round():
    state = table()
    assert state.chips == (19, 19, 19)
    assert state.pot == 3
    assert state.round == 1


def test_navio_needs_at_least_two_players():
    with pytest.raises(InvalidOptions, match="players"):
        GAME.new_game(["Ana"])


def test_an_ante_above_the_bankroll_is_refused_naming_the_ante():
    with pytest.raises(InvalidOptions, match="ante"):
        GAME.new_game(["Ana", "Beto"], {"bankroll": 2, "ante": 3})
    assert GAME.new_game(["Ana", "Beto"], {"mode": "points", "bankroll": 2, "ante": 3})


# -- the treasure and the roll limit ---------------------------------------------------------


def test_the_treasure_is_thrown_again_only_as_a_pair():
    state = throw(table(), (6, 5, 4, 1, 6))
    assert GAME.legal_actions(state) == [Stop(), Reroll(dice=(0, 1))]
    with pytest.raises(IllegalAction, match="always thrown as a pair"):
        GAME.apply(state, Reroll(dice=(0,)))
    state = GAME.apply_chance(GAME.apply(state, Reroll()), (3, 3))
    assert state.hand.scoring == (3, 3)


def test_the_leader_limits_everyone_after_him_to_his_number_of_throws():
    state = treasure(table(), 9, throws=2)
    assert state.limit == RollLimit(throws=2, seat=0, treasure=9)
    assert state.hand.seat == 1
    assert state.hand.limit == 2
    assert state.hand.throws_left == 2


def test_the_limit_is_told_to_the_table():
    before = throw(throw(table(), MISS), (6, 5, 4, 4, 5))
    after = GAME.apply(before, Stop())
    assert lines(before, Stop(), after) == [
        "Ana's treasure: 9",
        "Ana leads with 9 in 2 throws: 2 throws each now",
    ]


def test_not_qualifying_within_the_limit_puts_the_player_out_of_the_round():
    state = treasure(table(), 7, throws=1)
    state = throw(state, (6, 5, 1, 1, 1))
    assert state.last_turn.throws == 1
    assert state.results[-1].treasure is None
    assert state.hand.seat == 2


def test_a_player_qualifying_on_his_only_allowed_throw_cannot_throw_the_treasure_again():
    state = treasure(table(), 7, throws=1)
    state = throw(state, (6, 5, 4, 1, 1))
    assert state.last_turn.seat == 1
    assert state.last_turn.score == 2
    assert state.hand.seat == 2


def test_the_limit_only_shrinks():
    state = treasure(table(), 7, throws=3)
    assert state.limit.throws == 3
    state = treasure(state, 8, throws=2)
    assert state.limit == RollLimit(throws=2, seat=1, treasure=8)
    assert state.hand.limit == 2


def test_a_lower_treasure_does_not_move_the_limit():
    state = treasure(table(), 9, throws=2)
    state = treasure(state, 5, throws=1)
    assert state.limit == RollLimit(throws=2, seat=0, treasure=9)


def test_tying_the_leader_in_fewer_throws_shrinks_the_limit_too():
    state = treasure(table(), 9, throws=3)
    state = treasure(state, 9, throws=2)
    assert state.limit == RollLimit(throws=2, seat=1, treasure=9)


# -- the end of a round ----------------------------------------------------------------------


def test_the_best_treasure_wins_the_pot_and_its_owner_starts_the_next_round():
    state = treasure(table(), 7, throws=2)
    state = treasure(state, 10, throws=1)
    state = out(state)
    kept = (TurnResult(seat=0, treasure=7, throws=2), TurnResult(seat=1, treasure=10, throws=1))
    played = (*kept, TurnResult(seat=2, treasure=None, throws=1))
    assert state.outcomes == (
        RoundOutcome(round=1, result="won", winner=1, treasure=10, pot=3, results=played),
    )
    assert state.round == 2
    assert state.starter == 1
    assert state.playing == (1, 2, 0)
    assert state.chips == (18, 21, 18)
    assert state.pot == 3
    assert state.limit is None


def test_a_tie_for_the_best_treasure_replays_the_round_with_the_pot_carried_over():
    state = treasure(table(), 8)
    state = treasure(state, 8)
    before = state
    state = out(state)
    played = (
        TurnResult(seat=0, treasure=8, throws=1),
        TurnResult(seat=1, treasure=8, throws=1),
        TurnResult(seat=2, treasure=None, throws=1),
    )
    assert state.outcomes[-1] == RoundOutcome(
        round=1, result="tie", treasure=8, pot=3, results=played
    )
    assert state.round == 1
    assert state.replays == 1
    assert state.pot == 6
    assert state.chips == (18, 18, 18)
    assert (state.starter, state.playing) == (1, (1, 2, 0))
    assert state.results == ()
    assert "The best treasures tie: round 1 is played again" in lines(before, None, state)


def test_a_round_nobody_qualifies_in_is_played_again():
    state = out(out(out(table())))
    assert state.outcomes[-1].result == "no_qualifier"
    assert (state.round, state.pot, state.starter) == (1, 6, 1)


def test_a_replay_is_not_a_new_round():
    state = treasure(treasure(table(rounds=1), 8), 8)
    state = out(state)
    assert not GAME.is_over(state)
    state = treasure(out(out(state)), 5)
    assert GAME.is_over(state)
    assert GAME.winners(state) == (0,)
    assert state.chips == (24, 18, 18)


def test_the_game_ends_after_the_set_rounds_with_the_most_chips_winning():
    state = table(rounds=2)
    state = out(out(treasure(state, 6)))
    state = out(out(treasure(state, 6)))
    assert GAME.is_over(state)
    assert state.chips == (24, 18, 18)
    assert GAME.scores(state) == state.chips
    assert GAME.winners(state) == (0,)


def test_a_shared_first_place_shares_the_win():
    state = table(players=("Ana", "Beto"), rounds=2)
    state = out(treasure(state, 6))
    state = treasure(out(state), 6)
    assert state.chips == (20, 20)
    assert GAME.winners(state) == (0, 1)


# -- running out of chips ----------------------------------------------------------------------


def test_a_player_who_cannot_ante_sits_the_round_out():
    state = table(bankroll=2)
    state = out(out(treasure(state, 6)))
    before = treasure(out(state), 7)
    state = out(before)
    assert state.chips == (2, 2, 0)
    assert (state.round, state.playing, state.sitting_out) == (3, (1, 0), (2,))
    assert state.pot == 2
    assert "Caro cannot pay the ante and sits this round out" in lines(before, Stop(), state)
    state = out(treasure(state, 7))
    assert state.round == 4
    assert 2 not in state.playing


def test_the_last_player_able_to_ante_wins_the_game():
    state = table(players=("Ana", "Beto"), bankroll=1, rounds=5)
    state = out(treasure(state, 6))
    assert GAME.is_over(state)
    assert state.chips == (2, 0)
    assert GAME.winners(state) == (0,)


def test_a_replay_only_one_player_can_ante_for_gives_him_the_pot():
    state = table(bankroll=2)
    state = out(out(treasure(state, 6)))
    assert state.chips == (3, 0, 0)
    state = out(treasure(treasure(state, 6), 6))
    assert state.outcomes[-1] == RoundOutcome(round=2, result="walkover", winner=0, pot=3)
    assert state.chips == (6, 0, 0)
    assert GAME.is_over(state)


def test_when_nobody_can_ante_again_the_same_players_replay_for_the_pot():
    state = table(bankroll=1)
    state = out(treasure(treasure(state, 6), 6))
    assert (state.chips, state.pot, state.anted) == ((0, 0, 0), 3, 0)
    assert (state.round, state.playing) == (1, (1, 2, 0))
    state = out(out(treasure(state, 9)))
    assert state.chips == (0, 3, 0)
    assert GAME.is_over(state)


# -- points ------------------------------------------------------------------------------------


def test_in_points_mode_each_round_won_scores_one_and_no_chips_move():
    state = table(mode="points", rounds=2)
    assert (state.chips, state.pot) == ((0, 0, 0), 0)
    state = out(out(treasure(state, 6)))
    state = out(treasure(out(state), 8))
    assert GAME.is_over(state)
    assert GAME.scores(state) == (1, 1, 0)
    assert GAME.winners(state) == (0, 1)


# -- chips are conserved -----------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    seats=st.integers(2, 4),
    bankroll=st.integers(1, 4),
    ante=st.integers(1, 2),
    rounds=st.integers(1, 4),
)
def test_chips_are_whole_and_their_sum_with_the_pot_never_changes(
    data, seats, bankroll, ante, rounds
):
    options = {"bankroll": bankroll, "ante": min(ante, bankroll), "rounds": rounds}
    state = GAME.new_game([f"P{i}" for i in range(seats)], options)
    total = sum(state.chips) + state.pot
    assert total == seats * bankroll
    for _ in range(400):
        if GAME.is_over(state):
            break
        pending = GAME.pending_throw(state)
        if pending is not None:
            size = pending.count
            state = GAME.apply_chance(
                state, data.draw(st.lists(st.integers(1, 6), min_size=size, max_size=size))
            )
        else:
            state = GAME.apply(state, data.draw(st.sampled_from(GAME.legal_actions(state))))
        assert all(isinstance(c, int) and c >= 0 for c in state.chips)
        assert sum(state.chips) + state.pot == total
    event("over" if GAME.is_over(state) else "capped")
    if GAME.is_over(state):
        assert state.pot == 0
