"""Batalla de Piratas (seed 003): the ring, the five formulas, the opening, strikes and the win."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import GAMES, IllegalAction, InvalidOptions, get_game
from rules.piratas import (
    BLUE,
    FORMULAS,
    HOME,
    PIECES,
    RED,
    Move,
    Piece,
    Piratas,
    PiratasState,
    Roll,
    Token,
    destination,
    offset,
    ring,
)

game = Piratas()
CAPTAIN, EXPLORER, PARROT, SAILOR, MONKEY = PIECES
THROWS = tuple(product(range(1, 7), repeat=2))


def started(blue_roll: int = 6, red_roll: int = 1, lives: int = 3) -> PiratasState:
    """A new game after the roll-off (blue wins it with the default rolls)."""
    state = game.new_game(["Ana", "Beto"], {"lives": lives})
    state = game.apply_chance(state, [blue_roll])
    return game.apply_chance(state, [red_roll])


def board(
    blue: dict[Piece, tuple[int, int]],
    red: dict[Piece, tuple[int, int]],
    dice: tuple[int, int] | None = None,
    side: int = BLUE,
    opening_moves: int = 10,
) -> PiratasState:
    """A position after the opening: piece -> (square, lives); unlisted pieces are out.

    With `dice`, the side to move has just thrown them and must now move a piece.
    """

    def crew(pieces: dict[Piece, tuple[int, int]]) -> tuple[Token, ...]:
        return tuple(
            Token(square=pieces[p][0], lives=pieces[p][1])
            if p in pieces
            else Token(square=None, lives=0)
            for p in PIECES
        )

    return started().model_copy(
        update={
            "crews": (crew(blue), crew(red)),
            "side": side,
            "opening_moves": opening_moves,
            "dice": dice,
            "stage": "roll" if dice is None else "move",
        }
    )


def throw(state: PiratasState, d1: int, d2: int) -> PiratasState:
    return game.apply_chance(game.apply(state, Roll()), [d1, d2])


def square(state: PiratasState, side: int, piece: Piece) -> int | None:
    return state.token(side, piece).square


def lives(state: PiratasState, side: int, piece: Piece) -> int:
    return state.token(side, piece).lives


# -- the ring -----------------------------------------------------------------------------


def test_thirteen_plus_six_lands_on_four_as_in_the_source():
    assert ring(13, 6) == 4


@pytest.mark.parametrize(
    ("start", "left", "end"), [(2, 6, 11), (4, 6, 13), (1, 1, 0), (0, 1, 14), (3, 5, 13)]
)
def test_moving_left_past_zero_adds_fifteen(start, left, end):
    assert ring(start, -left) == end


@pytest.mark.parametrize(("start", "right", "end"), [(15, 1, 1), (14, 1, 15), (12, 6, 3)])
def test_moving_right_past_fifteen_takes_off_fifteen(start, right, end):
    assert ring(start, right) == end


def test_the_ring_is_the_same_read_from_either_end():
    for start, n in product(range(16), range(1, 7)):
        assert ring(15 - start, -n) == 15 - ring(start, n)


def every_nonzero_move():
    """(start, piece, d1, d2, landing) for every square, piece and throw that moves the piece."""
    for start, piece, (d1, d2) in product(range(16), PIECES, THROWS):
        if offset(piece, d1, d2):
            yield start, piece, d1, d2, ring(start, offset(piece, d1, d2))


def test_zero_is_hit_only_by_left_moves_from_one_to_six():
    hits = {
        (start, offset(p, d1, d2) < 0) for start, p, d1, d2, end in every_nonzero_move() if end == 0
    }
    assert hits == {(start, True) for start in range(1, 7)}


def test_fifteen_is_hit_only_by_right_moves_from_nine_to_fourteen():
    hits = {
        (start, offset(p, d1, d2) > 0)
        for start, p, d1, d2, end in every_nonzero_move()
        if end == 15
    }
    assert hits == {(start, True) for start in range(9, 15)}


def test_every_move_stays_on_the_board():
    assert {end for *_, end in every_nonzero_move()} <= set(range(16))


# -- the five formulas --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("piece", "d1", "d2", "moves"),
    [
        (CAPTAIN, 2, 5, +3),
        (CAPTAIN, 5, 2, -3),
        (CAPTAIN, 4, 4, 0),
        (EXPLORER, 3, 6, -3),
        (EXPLORER, 6, 1, -6),
        (PARROT, 2, 6, -4),
        (PARROT, 6, 2, -4),
        (PARROT, 5, 5, 0),
        (SAILOR, 3, 6, +3),
        (SAILOR, 6, 1, +6),
        (MONKEY, 6, 2, +4),
        (MONKEY, 2, 6, +4),
        (MONKEY, 1, 1, 0),
    ],
)
def test_each_piece_moves_by_its_own_formula(piece, d1, d2, moves):
    assert offset(piece, d1, d2) == moves


def test_the_formulas_are_written_as_the_rules_state_them():
    """captain d2 − d1 either way; explorer left d1; parrot left |d1 − d2|; sailor right d1;
    monkey right |d1 − d2| (the board's legend shows these)."""
    written = {piece: formula.text for piece, formula in FORMULAS.items()}
    assert written == {
        CAPTAIN: "d2−d1",
        EXPLORER: "←d1",
        PARROT: "←|d1−d2|",
        SAILOR: "→d1",
        MONKEY: "→|d1−d2|",
    }
    for (d1, d2), piece in product(THROWS, PIECES):
        assert FORMULAS[piece].of(d1, d2) == offset(piece, d1, d2)


def test_the_two_dice_are_told_apart():
    assert game.chance_outcomes(throw_pending()) == tuple((t, Fraction(1, 36)) for t in THROWS)


def throw_pending() -> PiratasState:
    return game.apply(started(), Roll())


def test_the_previewed_destinations_follow_the_formulas():
    state = board(
        {CAPTAIN: (8, 3), EXPLORER: (5, 3), PARROT: (11, 3), SAILOR: (13, 3), MONKEY: (1, 3)},
        {CAPTAIN: (7, 3)},
        dice=(6, 2),
    )
    ends = {piece: move.destination for piece, move in game.preview(state).items()}
    assert ends == {CAPTAIN: 4, EXPLORER: 14, PARROT: 7, SAILOR: 4, MONKEY: 5 + 1}


def test_a_zero_move_is_allowed_and_leaves_the_piece_where_it_is():
    state = board({CAPTAIN: (8, 3), PARROT: (4, 3), MONKEY: (2, 3)}, {SAILOR: (12, 3)}, (3, 3))
    for piece in (CAPTAIN, PARROT, MONKEY):
        assert game.preview(state)[piece].destination == square(state, BLUE, piece)
        after = game.apply(state, Move(piece=piece))
        assert square(after, BLUE, piece) == square(state, BLUE, piece)
        assert after.side == RED


def test_a_zero_move_on_a_square_shared_with_an_enemy_strikes_nobody():
    state = board({CAPTAIN: (4, 3)}, {PARROT: (4, 3)}, dice=(2, 2))
    after = game.apply(state, Move(piece=CAPTAIN))
    assert lives(after, RED, PARROT) == 3
    assert after.side == RED


# -- the roll-off and the opening -----------------------------------------------------------


def test_the_higher_die_starts_and_a_tie_rolls_again():
    state = game.new_game(["Ana", "Beto"])
    for face in (4, 4, 2):
        state = game.apply_chance(state, [face])
        assert game.current_player(state) is None
    state = game.apply_chance(state, [5])
    assert game.current_player(state) == RED


def test_the_side_to_move_presses_throw_first():
    state = started()
    assert game.legal_actions(state) == [Roll()]
    assert game.pending_throw(state) is None
    assert game.pending_throw(game.apply(state, Roll())).count == 2


def test_the_opening_moves_the_pieces_in_fixed_order_with_the_sides_alternating():
    state = started(blue_roll=2, red_roll=5)
    moved = []
    for _ in range(10):
        state = throw(state, 1, 4)
        [action] = game.legal_actions(state)
        moved.append((state.side, action.piece))
        state = game.apply(state, action)
    assert moved == [(side, piece) for piece in PIECES for side in (RED, BLUE)]
    assert not state.in_opening


def test_in_the_opening_another_piece_cannot_move():
    state = throw(started(), 1, 4)
    with pytest.raises(IllegalAction, match="captain moves now"):
        game.apply(state, Move(piece=SAILOR))


def test_opening_moves_never_damage_and_give_no_extra_throw():
    state = throw(started(blue_roll=1, red_roll=6), 1, 4)
    state = game.apply(state, Move(piece=CAPTAIN))  # red captain 15 + 3 → 3
    state = throw(state, 1, 4)
    state = game.apply(state, Move(piece=CAPTAIN))  # blue captain 0 + 3 → 3
    assert square(state, BLUE, CAPTAIN) == square(state, RED, CAPTAIN) == 3
    assert lives(state, BLUE, CAPTAIN) == lives(state, RED, CAPTAIN) == 3
    assert state.side == RED


def test_teammates_step_on_in_the_opening_too():
    state = started()
    for d1, d2 in [(1, 4), (1, 4), (6, 6), (6, 6), (6, 6), (6, 6)]:
        state = throw(state, d1, d2)
        state = game.apply(state, game.legal_actions(state)[0])
    assert square(state, BLUE, CAPTAIN) == 3
    state = throw(state, 3, 1)  # blue sailor 0 + 3 lands on the blue captain
    assert game.preview(state)[SAILOR].destination == 4


def test_a_zero_opening_move_stays_home_with_the_crew():
    state = game.apply(throw(started(), 5, 5), Move(piece=CAPTAIN))
    assert square(state, BLUE, CAPTAIN) == HOME[BLUE] == square(state, BLUE, SAILOR)


def test_after_the_opening_any_living_piece_may_move():
    state = board({CAPTAIN: (3, 3), PARROT: (9, 1), MONKEY: (12, 2)}, {SAILOR: (6, 3)}, (1, 2))
    assert game.legal_actions(state) == [Move(piece=p) for p in (CAPTAIN, PARROT, MONKEY)]


# -- teammates never share a square ---------------------------------------------------------


def test_a_piece_landing_on_a_teammate_steps_on_to_the_next_free_square():
    state = board({SAILOR: (3, 3), CAPTAIN: (5, 3)}, {MONKEY: (10, 3)}, dice=(2, 6))
    after = game.apply(state, Move(piece=SAILOR))
    assert square(after, BLUE, SAILOR) == 6


def test_a_run_of_teammates_is_stepped_past_as_a_whole():
    blue = {SAILOR: (1, 3), CAPTAIN: (5, 3), EXPLORER: (6, 3), PARROT: (7, 3), MONKEY: (9, 3)}
    state = board(blue, {MONKEY: (12, 3)}, dice=(4, 1))
    assert game.preview(state)[SAILOR].destination == 8


def test_stepping_right_past_fifteen_goes_on_at_one():
    blue = {MONKEY: (10, 3), CAPTAIN: (14, 3), EXPLORER: (15, 3)}
    state = board(blue, {PARROT: (6, 3)}, dice=(6, 2))
    assert game.preview(state)[MONKEY].destination == 1


def test_a_run_of_teammates_across_the_crossing_is_stepped_past_as_a_whole():
    assert destination(10, 4, {14, 15, 1, 2}) == 3
    assert destination(4, -3, {1, 0, 14, 13}) == 12


def test_stepping_left_past_zero_goes_on_at_fourteen():
    assert destination(4, -3, {1, 0}) == 14
    state = board({EXPLORER: (4, 3), CAPTAIN: (1, 3), PARROT: (0, 3)}, {SAILOR: (9, 3)}, (3, 3))
    after = game.apply(state, Move(piece=EXPLORER))
    assert square(after, BLUE, EXPLORER) == 14


def test_stepping_past_teammates_onto_an_enemy_strikes_it():
    state = board({SAILOR: (3, 3), CAPTAIN: (5, 3)}, {MONKEY: (6, 3)}, dice=(2, 6))
    after = game.apply(state, Move(piece=SAILOR))
    assert square(after, BLUE, SAILOR) == 6
    assert lives(after, RED, MONKEY) == 2


# -- strikes, eliminations, the extra throw, the win ----------------------------------------


def test_landing_on_an_enemy_takes_one_of_its_lives_and_gives_one():
    state = board({SAILOR: (13, 3)}, {PARROT: (4, 3), CAPTAIN: (9, 3)}, dice=(6, 2))
    after = game.apply(state, Move(piece=SAILOR))
    assert (lives(after, BLUE, SAILOR), lives(after, RED, PARROT)) == (4, 2)
    assert square(after, BLUE, SAILOR) == square(after, RED, PARROT) == 4


def test_a_strike_gives_the_side_an_extra_throw():
    state = board({SAILOR: (13, 3)}, {PARROT: (4, 3), CAPTAIN: (9, 3)}, dice=(6, 2))
    after = game.apply(state, Move(piece=SAILOR))
    assert after.side == BLUE
    assert game.legal_actions(after) == [Roll()]


def test_a_move_without_a_strike_passes_the_throw():
    state = board({SAILOR: (13, 3)}, {PARROT: (5, 3)}, dice=(6, 2))
    assert game.apply(state, Move(piece=SAILOR)).side == RED


def test_the_state_keeps_the_last_move_and_that_a_strike_throws_again():
    state = board({SAILOR: (13, 3)}, {PARROT: (4, 3), CAPTAIN: (9, 3)}, dice=(6, 2))
    assert state.last_move is None and not state.throws_again
    struck = game.apply(state, Move(piece=SAILOR))
    assert struck.last_move == game.preview(state)[SAILOR]
    assert (struck.last_move.side, struck.last_move.target) == (BLUE, PARROT)
    assert struck.throws_again  # blue struck: this turn is its extra throw
    rolled = throw(struck, 3, 3)
    assert rolled.last_move == struck.last_move and rolled.throws_again  # until blue moves
    passed = game.apply(rolled, Move(piece=SAILOR))  # from 4, three to the right: 7, empty
    assert passed.side == RED and passed.last_move.side == BLUE
    assert not passed.throws_again  # red throws in its own turn


def test_a_plain_move_is_kept_as_the_last_move_and_gives_no_extra_throw():
    state = board({SAILOR: (13, 3)}, {PARROT: (5, 3)}, dice=(6, 2))
    after = game.apply(state, Move(piece=SAILOR))
    assert (after.last_move.piece, after.last_move.destination) == (SAILOR, 4)
    assert not after.throws_again


def test_the_winning_strike_throws_no_more():
    state = board({SAILOR: (13, 3)}, {PARROT: (4, 1)}, dice=(6, 2))
    after = game.apply(state, Move(piece=SAILOR))
    assert after.winner == BLUE and after.last_move.eliminates
    assert not after.throws_again


def test_a_game_saved_before_the_last_move_was_kept_loads_without_it():
    state = game.apply(board({SAILOR: (13, 3)}, {PARROT: (4, 3)}, dice=(6, 2)), Move(piece=SAILOR))
    saved = state.model_dump(mode="json")
    del saved["last_move"]
    loaded = game.load_state(saved)
    assert loaded.last_move is None and not loaded.throws_again
    assert loaded == state.model_copy(update={"last_move": None})


def test_taking_the_last_life_eliminates_the_piece_and_gives_two():
    state = board({SAILOR: (13, 3)}, {PARROT: (4, 1), CAPTAIN: (9, 3)}, dice=(6, 2))
    after = game.apply(state, Move(piece=SAILOR))
    assert after.token(RED, PARROT) == Token(square=None, lives=0)
    assert lives(after, BLUE, SAILOR) == 5
    assert after.side == BLUE
    assert game.scores(after)[BLUE] == game.scores(state)[BLUE] + 1


def test_on_a_crowded_square_the_weakest_enemy_is_struck():
    red = {CAPTAIN: (4, 3), PARROT: (4, 2), MONKEY: (4, 2)}
    state = board({SAILOR: (13, 3)}, red, dice=(6, 2))
    assert game.preview(state)[SAILOR].target is PARROT
    after = game.apply(state, Move(piece=SAILOR))
    assert [lives(after, RED, p) for p in (CAPTAIN, PARROT, MONKEY)] == [3, 1, 2]


def test_the_preview_tells_the_strike_before_the_move():
    state = board({SAILOR: (13, 3), CAPTAIN: (3, 3)}, {PARROT: (4, 1), EXPLORER: (6, 3)}, (6, 2))
    move = game.preview(state)[SAILOR]
    assert (move.landing, move.destination, move.target, move.eliminates) == (4, 4, PARROT, True)
    assert game.preview(state)[CAPTAIN].strikes is False  # 3 - 4 → 14: nobody there


def test_eliminating_the_last_enemy_piece_wins():
    state = board({SAILOR: (13, 3), MONKEY: (1, 2)}, {PARROT: (4, 1)}, dice=(6, 2))
    after = game.apply(state, Move(piece=SAILOR))
    assert game.is_over(after)
    assert game.winners(after) == (BLUE,)
    assert game.scores(after)[BLUE] == 5
    assert game.legal_actions(after) == []
    assert game.current_player(after) is None
    with pytest.raises(IllegalAction, match="over"):
        game.apply(after, Roll())


def test_red_wins_by_eliminating_blue():
    state = board({MONKEY: (0, 1)}, {EXPLORER: (4, 3)}, dice=(4, 6), side=RED)
    after = game.apply(state, Move(piece=EXPLORER))
    assert game.winners(after) == (RED,)


def test_a_piece_on_zero_is_hit_by_a_left_move_and_not_by_a_right_one():
    state = board({CAPTAIN: (0, 3)}, {EXPLORER: (4, 3), SAILOR: (11, 3)}, dice=(4, 6), side=RED)
    assert game.preview(state)[EXPLORER].target is CAPTAIN
    assert game.preview(state)[SAILOR].destination == 15  # 11 + 4: the other side of the crossing
    assert game.preview(state)[SAILOR].target is None


# -- options, players and illegal actions ---------------------------------------------------


def test_every_piece_starts_with_the_lobby_lives_default_three():
    assert {t.lives for crew in game.new_game(["A", "B"]).crews for t in crew} == {3}
    assert {t.lives for crew in game.new_game(["A", "B"], {"lives": 7}).crews for t in crew} == {7}


def test_blue_starts_on_zero_and_red_on_fifteen():
    state = game.new_game(["A", "B"])
    assert [t.square for t in state.crews[BLUE]] == [0] * 5
    assert [t.square for t in state.crews[RED]] == [15] * 5


@pytest.mark.parametrize("bad", [0, 10])
def test_lives_outside_one_to_nine_are_refused(bad):
    with pytest.raises(InvalidOptions, match="lives"):
        game.new_game(["A", "B"], {"lives": bad})


@pytest.mark.parametrize("players", [["A"], ["A", "B", "C"]])
def test_the_battle_takes_exactly_two_sides(players):
    with pytest.raises(InvalidOptions, match="players"):
        game.new_game(players)


def test_a_piece_cannot_move_before_the_throw():
    state = started()
    with pytest.raises(IllegalAction, match="Throw the dice"):
        game.apply(state, Move(piece=CAPTAIN))


def test_the_dice_cannot_be_thrown_twice_in_one_turn():
    state = board({CAPTAIN: (3, 3)}, {SAILOR: (6, 3)}, dice=(1, 2))
    with pytest.raises(IllegalAction, match="move a piece"):
        game.apply(state, Roll())


def test_an_eliminated_piece_cannot_move_and_the_state_stays_as_it_was():
    state = board({CAPTAIN: (3, 3)}, {SAILOR: (6, 3)}, dice=(1, 2))
    copy = state.model_copy(deep=True)
    with pytest.raises(IllegalAction, match="out of the game"):
        game.apply(state, Move(piece=SAILOR))
    assert state == copy


def test_the_game_is_registered_in_the_lobby():
    assert isinstance(get_game("piratas"), Piratas)
    assert "piratas" in GAMES


# -- narration -----------------------------------------------------------------------------


def test_a_strike_is_narrated_with_the_lives_left_and_the_extra_throw():
    state = board({SAILOR: (13, 3)}, {PARROT: (4, 3), CAPTAIN: (9, 3)}, dice=(6, 2))
    after = game.apply(state, Move(piece=SAILOR))
    lines = [str(t) for t in game.narrate(state, Move(piece=SAILOR), after)]
    assert lines == [
        "Blue sailor moves 13 → 4 and strikes Red parrot (lives left: 2); Blue throws again"
    ]


def test_the_throw_and_the_win_are_narrated():
    state = board({SAILOR: (13, 3)}, {PARROT: (4, 1)})
    rolled = game.apply(state, Roll())
    thrown = game.apply_chance(rolled, [6, 2])
    assert [str(t) for t in game.narrate(rolled, (6, 2), thrown)] == ["Blue throws d1 = 6, d2 = 2"]
    after = game.apply(thrown, Move(piece=SAILOR))
    assert [str(t) for t in game.narrate(thrown, Move(piece=SAILOR), after)] == [
        "Blue sailor moves 13 → 4 and eliminates Red parrot",
        "Game over: Ana (Blue) wins",
    ]


def test_a_move_button_says_where_the_piece_goes_and_whom_it_strikes():
    state = board({SAILOR: (13, 3), CAPTAIN: (10, 3)}, {PARROT: (4, 3)}, dice=(6, 2))
    assert str(game.describe_action(state, Move(piece=SAILOR))) == (
        "The sailor: 13 → 4, strikes Red parrot"
    )
    assert str(game.describe_action(state, Move(piece=CAPTAIN))) == "The captain: 10 → 6"


# -- random games ---------------------------------------------------------------------------


def striking_throws(state: PiratasState) -> list[tuple[int, int]]:
    """The throws on which the side to move could strike an enemy piece."""
    targets = {t.square for t in state.crews[1 - state.side] if t.alive}
    crew = state.crews[state.side]
    found = []
    for d1, d2 in THROWS:
        for piece, token in zip(PIECES, crew, strict=True):
            mates = {t.square for p, t in zip(PIECES, crew, strict=True) if p is not piece}
            move = offset(piece, d1, d2)
            if token.alive and move and destination(token.square, move, mates) in targets:
                found.append((d1, d2))
                break
    return found


def check_invariants(state: PiratasState, left_home: set[tuple[int, Piece]]) -> None:
    for side in (BLUE, RED):
        squares: dict[int, list[Piece]] = {}
        for piece, token in zip(PIECES, state.crews[side], strict=True):
            if token.alive:
                assert token.square in range(16)
                assert token.lives >= 1
                squares.setdefault(token.square, []).append(piece)
                if token.square != HOME[side]:
                    left_home.add((side, piece))
            else:
                assert token.lives == 0
        for at, pieces in squares.items():
            if len(pieces) > 1:  # only a crew that has not left home yet stands together
                assert at == HOME[side]
                assert not any((side, p) in left_home for p in pieces)
    assert game.load_state(state.model_dump_json()) == state


def total_lives(state: PiratasState) -> int:
    return sum(t.lives for crew in state.crews for t in crew)


def play(seed: int, start_lives: int, favoured: int | None, cap: int) -> PiratasState:
    """Play legal moves chosen by `seed`; the `favoured` side gets lucky dice and strikes."""
    chooser = random.Random(seed)
    state = game.new_game(["Ana", "Beto"], {"lives": start_lives})
    left_home: set[tuple[int, Piece]] = set()
    for _ in range(cap):
        if game.is_over(state):
            break
        pending = game.pending_throw(state)
        if pending is not None:
            outcomes = [faces for faces, _ in game.chance_outcomes(state)]
            faces = chooser.choice(outcomes)
            lucky = state.side == favoured and not state.in_opening and chooser.random() < 0.7
            if pending.count == 2 and lucky:
                faces = chooser.choice(striking_throws(state) or outcomes)
            after = game.apply_chance(state, faces)
            assert after.crews == state.crews
        else:
            actions = game.legal_actions(state)
            assert actions and game.current_player(state) == state.side
            preview = game.preview(state)
            strikes = [a for a in actions if isinstance(a, Move) and preview[a.piece].strikes]
            if strikes and state.side == favoured:
                actions = strikes
            action = chooser.choice(actions)
            after = game.apply(state, action)
            if isinstance(action, Move):
                move = preview[action.piece]
                assert square(after, state.side, action.piece) == move.destination
                assert total_lives(after) - total_lives(state) == (1 if move.eliminates else 0)
                if not game.is_over(after):
                    assert (after.side == state.side) == move.strikes
                if state.in_opening:
                    assert [t.lives for c in after.crews for t in c] == [start_lives] * 10
            else:
                assert after.crews == state.crews
        check_invariants(after, left_home)
        state = after
    return state


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), lives=st.integers(1, 9))
def test_random_games_keep_every_invariant(seed, lives):
    play(seed, lives, favoured=None, cap=400)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), lives=st.integers(1, 9), favoured=st.sampled_from([BLUE, RED]))
def test_random_games_end_with_the_favoured_crew_eliminating_the_other(seed, lives, favoured):
    state = play(seed, lives, favoured, cap=5000)
    assert game.is_over(state)
    assert game.winners(state) == (state.winner,)
    loser = 1 - state.winner
    assert state.living(loser) == ()
    assert game.scores(state)[state.winner] == 5
