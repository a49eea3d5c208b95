"""Multiplicación (seed 002): (A + B) × multiplier, ten rounds, two decisions a turn."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from rules import GAMES, IllegalAction, InvalidOptions, get_game
from rules.multiplicacion import (
    Accept,
    Keep,
    Multiplicacion,
    MultiplicacionState,
    PenaltyRethrow,
    Rethrow,
    Step,
    Throw,
    penalty_for,
)

GAME = Multiplicacion()

Move = BaseModel | tuple[int, ...]


def play(state: MultiplicacionState, *moves: Move) -> MultiplicacionState:
    """Apply player actions and chance throws (tuples of faces) in order."""
    for move in moves:
        if isinstance(move, tuple):
            state = GAME.apply_chance(state, move)
        else:
            state = GAME.apply(state, move)
    return state


def solo() -> MultiplicacionState:
    """One player: no roll-off, the turn starts at once."""
    return GAME.new_game(["Ana"])


def kinds(state: MultiplicacionState) -> list[str]:
    return [action.kind for action in GAME.legal_actions(state)]


def turn_score(state: MultiplicacionState, seat: int = 0) -> int | None:
    return state.sheets[seat][-1].score


# -- the source's examples ----------------------------------------------------------------


def test_the_sources_example_1_4_5_then_2_2_then_5_scores_35() -> None:
    state = play(solo(), Throw(), (1, 4, 5))
    assert state.turn.first == 5
    state = play(state, Throw(), (2, 2))
    assert kinds(state) == ["keep", "rethrow"]
    state = play(state, Keep(), Throw(), (5,))
    assert state.turn.formula() == "(5 + 2) × 5 = 35"
    state = play(state, Accept())
    assert turn_score(state) == 35
    assert GAME.scores(state) == (35,)


@pytest.mark.parametrize("new_die", [1, 2, 3, 4, 5, 6])
def test_the_sources_penalty_example_11_with_multiplier_1_refused_scores_7_times_the_new_die(
    new_die: int,
) -> None:
    state = play(solo(), Throw(), (6, 2, 1), Throw(), (5, 3), Throw(), (1,))
    assert state.turn.kept_sum == 11
    assert state.turn.penalty() == 4
    state = play(state, PenaltyRethrow())
    assert state.turn.kept_sum == 7
    assert state.turn.penalty_used
    state = play(state, (new_die,))
    assert turn_score(state) == (11 - 4) * new_die
    assert state.sheets[0][-1].formula() == f"(6 + 5 − 4) × {new_die} = {7 * new_die}"


# -- setting dice aside -------------------------------------------------------------------


def test_the_highest_die_of_the_first_throw_is_set_aside_automatically() -> None:
    state = play(solo(), Throw(), (2, 6, 3))
    assert state.turn.first == 6
    assert kinds(state) == ["throw"]
    state = play(state, Throw())
    assert GAME.pending_throw(state).count == 2  # type: ignore[union-attr]


def test_a_repeated_highest_die_sets_aside_only_one_die() -> None:
    state = play(solo(), Throw(), (5, 2, 5), Throw())
    assert state.turn.first == 5
    assert GAME.pending_throw(state).count == 2  # type: ignore[union-attr]


def test_the_higher_die_of_the_second_throw_is_set_aside_and_the_last_die_multiplies() -> None:
    state = play(solo(), Throw(), (1, 2, 3), Throw(), (4, 1))
    assert (state.turn.first, state.turn.second) == (3, 4)
    state = play(state, Throw())
    assert GAME.pending_throw(state).count == 1  # type: ignore[union-attr]
    state = play(state, (6,), Accept())
    assert turn_score(state) == (3 + 4) * 6


# -- re-throwing a triple or a pair -------------------------------------------------------


@pytest.mark.parametrize("faces", list(combinations_with_replacement(range(1, 7), 3)))
def test_the_rethrow_option_appears_on_a_triple_and_only_then(faces: tuple[int, ...]) -> None:
    state = play(solo(), Throw(), faces)
    if len(set(faces)) == 1:
        assert kinds(state) == ["keep", "rethrow"]
        assert state.turn.step is Step.TRIPLE
    else:
        assert kinds(state) == ["throw"]


@pytest.mark.parametrize("faces", list(combinations_with_replacement(range(1, 7), 2)))
def test_the_rethrow_option_appears_on_a_pair_on_the_second_throw_and_only_then(
    faces: tuple[int, ...],
) -> None:
    state = play(solo(), Throw(), (1, 2, 3), Throw(), faces)
    if faces[0] == faces[1]:
        assert kinds(state) == ["keep", "rethrow"]
        assert state.turn.step is Step.PAIR
    else:
        assert kinds(state) == ["throw"]


def test_keeping_a_triple_sets_one_die_aside_and_throws_the_other_two() -> None:
    state = play(solo(), Throw(), (4, 4, 4), Keep())
    assert state.turn.first == 4
    state = play(state, Throw())
    assert GAME.pending_throw(state).count == 2  # type: ignore[union-attr]


def test_a_rethrown_triple_that_is_a_triple_again_reopens_the_option() -> None:
    state = play(solo(), Throw(), (2, 2, 2), Rethrow())
    assert GAME.pending_throw(state).count == 3  # type: ignore[union-attr]
    state = play(state, (3, 3, 3))
    assert kinds(state) == ["keep", "rethrow"]
    state = play(state, Rethrow(), (6, 6, 6), Keep())
    assert state.turn.first == 6


def test_a_rethrown_triple_must_be_taken_as_it_falls() -> None:
    state = play(solo(), Throw(), (5, 5, 5), Rethrow(), (1, 3, 2))
    assert state.turn.first == 3
    assert kinds(state) == ["throw"]


def test_keeping_a_pair_sets_one_aside_and_throws_the_other_as_the_multiplier() -> None:
    state = play(solo(), Throw(), (1, 2, 3), Throw(), (6, 6), Keep())
    assert state.turn.second == 6
    state = play(state, Throw())
    assert GAME.pending_throw(state).count == 1  # type: ignore[union-attr]


def test_a_rethrown_pair_that_is_a_pair_again_reopens_the_option() -> None:
    state = play(solo(), Throw(), (1, 2, 3), Throw(), (1, 1), Rethrow())
    assert GAME.pending_throw(state).count == 2  # type: ignore[union-attr]
    state = play(state, (2, 2))
    assert kinds(state) == ["keep", "rethrow"]


def test_a_rethrown_pair_must_be_taken_as_it_falls() -> None:
    state = play(solo(), Throw(), (1, 2, 3), Throw(), (5, 5), Rethrow(), (2, 1))
    assert state.turn.second == 2
    assert kinds(state) == ["throw"]


# -- the multiplier and its penalty -------------------------------------------------------


def test_the_player_may_accept_the_multiplier_or_refuse_it_at_a_penalty() -> None:
    state = play(solo(), Throw(), (1, 2, 3), Throw(), (4, 1), Throw(), (2,))
    assert kinds(state) == ["accept", "penalty_rethrow"]


@pytest.mark.parametrize(
    ("kept_sum", "penalty"), [(2, 3), (5, 3), (9, 3), (10, 4), (11, 4), (12, 4)]
)
def test_the_penalty_is_3_on_a_set_aside_sum_of_9_or_less_and_4_on_10_or_more(
    kept_sum: int, penalty: int
) -> None:
    assert penalty_for(kept_sum) == penalty


@pytest.mark.parametrize(("first", "second", "penalty"), [(5, 4, 3), (6, 4, 4)])
def test_a_refusal_takes_the_penalty_off_the_set_aside_sum_before_the_new_die(
    first: int, second: int, penalty: int
) -> None:
    state = play(solo(), Throw(), (first, 1, 1), Throw(), (second, 1), Throw(), (2,))
    assert state.turn.penalty() == penalty
    state = play(state, PenaltyRethrow())
    assert state.turn.penalty_taken == penalty
    assert state.turn.multiplier is None
    assert GAME.pending_throw(state).count == 1  # type: ignore[union-attr]
    state = play(state, (5,))
    assert turn_score(state) == (first + second - penalty) * 5


def test_the_new_multiplier_after_a_refusal_must_be_accepted() -> None:
    players = GAME.new_game(["Ana", "Bea"])
    state = play(players, (6, 6, 6), (1, 1, 1))  # Ana starts
    state = play(state, Throw(), (6, 5, 1), Throw(), (6, 1), Throw(), (2,), PenaltyRethrow())
    state = play(state, (1,))
    assert turn_score(state, seat=0) == (6 + 6 - 4) * 1
    assert GAME.current_player(state) == 1
    assert kinds(state) == ["throw"]


def test_a_refusal_on_a_set_aside_sum_of_2_scores_below_zero() -> None:
    state = play(solo(), Throw(), (1, 1, 1), Keep(), Throw(), (1, 1), Keep())
    state = play(state, Throw(), (1,), PenaltyRethrow(), (4,))
    assert turn_score(state) == (2 - 3) * 4
    assert GAME.scores(state) == (-4,)


# -- what a choice would leave, shown before it is made -----------------------------------


def preview(state: MultiplicacionState) -> str | None:
    text = state.turn.preview()
    return None if text is None else str(text)


def test_before_keeping_a_pair_the_formula_shows_the_kept_die_in_slot_b() -> None:
    state = play(solo(), Throw(), (1, 4, 5), Throw(), (2, 2))
    assert preview(state) == "Keep: (5 + 2) × ?"
    assert play(state, Keep()).turn.formula() == "(5 + 2) × ?"


def test_before_keeping_a_triple_the_formula_shows_the_kept_die_in_slot_a() -> None:
    assert preview(play(solo(), Throw(), (3, 3, 3))) == "Keep: (3 + ?) × ?"


def test_before_refusing_the_multiplier_the_penalty_and_what_it_leaves_are_shown() -> None:
    state = play(solo(), Throw(), (6, 2, 1), Throw(), (5, 3), Throw(), (1,))
    text = state.turn.preview()
    assert str(text) == "Re-throw costs 4: (11 − 4) × ?"
    assert text.template == "Re-throw costs {penalty}: ({kept} − {penalty}) × ?"  # translatable
    assert dict(text.params) == {"penalty": 4, "kept": 11}
    assert preview(play(solo(), Throw(), (4, 2, 1), Throw(), (3, 3), Keep(), Throw(), (1,))) == (
        "Re-throw costs 3: (7 − 3) × ?"
    )


def test_no_preview_where_there_is_no_choice_to_make() -> None:
    state = play(solo(), Throw(), (1, 4, 5))
    assert preview(solo()) is None and preview(state) is None
    refused = play(state, Throw(), (2, 1), Throw(), (1,), PenaltyRethrow())
    assert preview(refused) is None  # the new multiplier must be taken as it falls


# -- the roll-off, the rounds, the winner -------------------------------------------------


def test_the_highest_roll_off_sum_starts_and_play_passes_clockwise() -> None:
    state = GAME.new_game(["Ana", "Bea", "Cai"])
    assert GAME.pending_throw(state).count == 3  # type: ignore[union-attr]
    state = play(state, (1, 2, 3), (6, 5, 1), (2, 2, 2))
    assert GAME.current_player(state) == 1
    state = play(state, Throw(), (1, 2, 3), Throw(), (4, 1), Throw(), (2,), Accept())
    assert GAME.current_player(state) == 2


def test_tied_roll_off_players_roll_again_among_themselves() -> None:
    state = GAME.new_game(["Ana", "Bea", "Cai"])
    state = play(state, (1, 1, 1), (6, 5, 1), (4, 4, 4))
    assert GAME.current_player(state) is None
    assert state.rolloff.contenders == (1, 2)
    state = play(state, (1, 2, 3), (1, 1, 1))
    assert GAME.current_player(state) == 1


def plain_turn(a: int, b: int, m: int) -> list[Move]:
    """A turn with no triple, no pair and no refusal: A, B and M as given (A > 1, B > 1)."""
    return [Throw(), (a, 1, 1), Throw(), (b, 1), Throw(), (m,), Accept()]


def test_the_game_lasts_ten_rounds_and_the_highest_total_wins() -> None:
    state = play(GAME.new_game(["Ana", "Bea"]), (6, 6, 6), (1, 1, 1))
    for _ in range(10):
        assert not GAME.is_over(state)
        state = play(state, *plain_turn(6, 5, 2), *plain_turn(2, 3, 1))
    assert GAME.is_over(state)
    assert GAME.scores(state) == (10 * 22, 10 * 5)
    assert GAME.winners(state) == (0,)
    assert GAME.legal_actions(state) == []
    with pytest.raises(IllegalAction):
        GAME.apply(state, Throw())


def test_a_tie_for_the_win_is_shared() -> None:
    state = play(GAME.new_game(["Ana", "Bea"]), (6, 6, 6), (1, 1, 1))
    for _ in range(10):
        state = play(state, *plain_turn(4, 3, 2), *plain_turn(5, 2, 2))
    assert GAME.scores(state) == (140, 140)
    assert GAME.winners(state) == (0, 1)


# -- legality, names, players, persistence ------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "action"),
    [
        ([], Keep()),
        ([], Accept()),
        ([Throw(), (1, 2, 3)], Rethrow()),
        ([Throw(), (3, 3, 3)], Throw()),
        ([Throw(), (1, 2, 3), Throw(), (4, 4)], Accept()),
        ([Throw(), (1, 2, 3), Throw(), (4, 1), Throw(), (2,)], Keep()),
        ([Throw(), (1, 2, 3), Throw(), (4, 1), Throw(), (2,)], Throw()),
        ([Throw()], Throw()),
    ],
)
def test_an_illegal_action_raises_and_leaves_the_state_unchanged(
    moves: Sequence[Move], action: BaseModel
) -> None:
    state = play(solo(), *moves)
    before = state.model_dump_json()
    with pytest.raises(IllegalAction) as raised:
        GAME.apply(state, action)
    assert str(raised.value)
    assert state.model_dump_json() == before
    assert action.kind not in kinds(state)


def test_every_action_has_a_name_a_player_understands() -> None:
    def names(state: MultiplicacionState) -> list[str]:
        return [str(GAME.describe_action(state, a)) for a in GAME.legal_actions(state)]

    state = solo()
    assert names(state) == ["Throw three dice"]
    assert names(play(state, Throw(), (2, 2, 2))) == ["Keep a 2", "Throw the triple again"]
    state = play(state, Throw(), (1, 2, 3))
    assert names(state) == ["Throw two dice"]
    assert names(play(state, Throw(), (5, 5))) == ["Keep a 5", "Throw the pair again"]
    state = play(state, Throw(), (6, 5))
    assert names(state) == ["Throw the multiplier"]
    state = play(state, Throw(), (2,))
    assert names(state) == ["Accept: (3 + 6) × 2 = 18", "Refuse the 2: −3 and throw it again"]


def test_the_log_tells_the_turn_as_it_happens() -> None:
    state = solo()
    lines = []
    for move in [Throw(), (1, 4, 5), Throw(), (2, 2), Keep(), Throw(), (5,), Accept()]:
        after = play(state, move)
        lines += [str(text) for text in GAME.narrate(state, move, after)]
        state = after
    assert lines == [
        "Ana throws 1 4 5",
        "Ana sets aside the 5",
        "Ana throws 2 2",
        "A pair: keep one, or throw both again",
        "Ana keeps a 2",
        "Ana throws a 5 as the multiplier",
        "Ana scores (5 + 2) × 5 = 35",
        "Round 2 of 10",
    ]


def test_one_to_eight_players_sit_at_the_table() -> None:
    assert GAME.new_game(["Ana"]).players == ("Ana",)
    assert len(GAME.new_game([f"P{i}" for i in range(8)]).players) == 8
    with pytest.raises(InvalidOptions):
        GAME.new_game([f"P{i}" for i in range(9)])
    with pytest.raises(InvalidOptions):
        GAME.new_game(["Ana"], {"rounds": 5})


def test_the_game_is_in_the_lobby_after_navio_and_before_piratas() -> None:
    assert isinstance(get_game("multiplicacion"), Multiplicacion)
    order = [g for g in ("barco", "navio", "multiplicacion", "piratas", "generala") if g in GAMES]
    assert list(GAMES) == order


@settings(max_examples=30, deadline=None)
@given(seats=st.integers(min_value=1, max_value=3), data=st.data())
def test_any_game_played_to_the_end_keeps_the_rules(seats: int, data: st.DataObject) -> None:
    state = GAME.new_game([f"P{i}" for i in range(seats)])
    die = st.integers(min_value=1, max_value=6)
    while not GAME.is_over(state):
        pending = GAME.pending_throw(state)
        if pending is not None:
            faces = data.draw(st.tuples(*[die] * pending.count))
            after = GAME.apply_chance(state, faces)
        else:
            action = data.draw(st.sampled_from(GAME.legal_actions(state)))
            after = GAME.apply(state, action)
        if after.played > state.played:
            assert after.last_turn is not None
            seat, turn = after.last_turn
            assert seat == state.current
            assert turn.first is not None and turn.second is not None
            assert turn.multiplier is not None
            kept = turn.first + turn.second
            assert turn.penalty_taken in (0, penalty_for(kept))
            assert turn.score == (kept - turn.penalty_taken) * turn.multiplier
            assert GAME.load_state(state.model_dump_json()) == state
        state = after
    assert GAME.load_state(state.model_dump_json()) == state
    assert all(len(sheet) == 10 for sheet in state.sheets)
    assert GAME.scores(state) == tuple(
        sum(turn.score for turn in sheet)  # type: ignore[misc]
        for sheet in state.sheets
    )


# -- the expected score -------------------------------------------------------------------


def expected_turn_score(state: MultiplicacionState) -> Fraction:
    """The exact mean score of one solo turn, always keeping and always accepting."""
    if state.played:
        return Fraction(turn_score(state))  # type: ignore[arg-type]
    if GAME.pending_throw(state) is not None:
        return sum(
            (p * expected_turn_score(GAME.apply_chance(state, faces)))
            for faces, p in GAME.chance_outcomes(state)
        )
    never_rethrow = {"throw": Throw(), "keep": Keep(), "accept": Accept()}
    action = next(a for a in GAME.legal_actions(state) if a.kind in never_rethrow)
    return expected_turn_score(GAME.apply(state, action))


def test_the_expected_score_of_a_turn_that_never_rethrows_is_4753_over_144() -> None:
    # Keeping every triple and pair, slot A is the highest of three dice, slot B the higher
    # of two, and the multiplier an independent die. For the highest of n dice,
    # E = sum over k of P(highest >= k) = 6 - (0^n + 1^n + ... + 5^n) / 6^n:
    highest_of_three = 6 - Fraction(0 + 1 + 8 + 27 + 64 + 125, 216)
    highest_of_two = 6 - Fraction(0 + 1 + 4 + 9 + 16 + 25, 36)
    assert highest_of_three == Fraction(119, 24)
    assert highest_of_two == Fraction(161, 36)
    by_hand = (highest_of_three + highest_of_two) * Fraction(7, 2)
    assert by_hand == Fraction(4753, 144)
    assert expected_turn_score(solo()) == by_hand
