"""Piratas' search: its light board moves exactly as the rules do; the bots' choices."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bots import Unit, coach, get_bot
from bots.piratas import CREW, OFFSETS, THROWS, board_of, evaluate, move_values, play
from rules import get_game
from rules.piratas import PIECES, Move, Piece, PiratasState, Token
from rules.rolloff import RollOff

GAME = get_game("piratas")


def random_moves(seed: int, steps: int) -> list[PiratasState]:
    """The states of a random game (lives 1..3) where a piece must be chosen after the opening."""
    rng = random.Random(seed)
    state = GAME.new_game(["Blue", "Red"], {"lives": rng.randint(1, 3)})
    found = []
    for _ in range(steps):
        if GAME.is_over(state):
            break
        pending = GAME.pending_throw(state)
        if pending is not None:
            state = GAME.apply_chance(state, tuple(rng.randint(1, 6) for _ in range(pending.count)))
            continue
        if state.stage == "move" and not state.in_opening:
            found.append(state)
        state = GAME.apply(state, rng.choice(GAME.legal_actions(state)))
    return found


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_light_board_moves_exactly_as_the_rules(seed):
    for state in random_moves(seed, 300)[::7]:
        board = board_of(state)
        throw = THROWS.index(state.dice)
        for action in GAME.legal_actions(state):
            after = GAME.apply(state, action)
            piece = PIECES.index(action.piece)
            light, struck, won = play(board, state.side, piece, OFFSETS[throw][piece])
            assert light == board_of(after)
            assert struck == (after.side == state.side)
            assert won == (after.winner is not None)


def position(blue, red, side=0, dice=(1, 2)) -> PiratasState:
    """Squares and lives per piece: [(square, lives), ...] for blue, then red."""
    return PiratasState(
        players=("Blue", "Red"),
        rolloff=RollOff(dice=1, contenders=(0, 1), winner=0),
        crews=tuple(tuple(Token(square=s, lives=v) for s, v in crew) for crew in (blue, red)),
        side=side,
        stage="move",
        dice=dice,
        opening_moves=10,
    )


# Blue's sailor on 3 moves right d1 = 2 onto red's captain on 5, who has one life left.
STRIKE = position(
    blue=[(1, 3), (8, 3), (10, 3), (3, 3), (12, 3)],
    red=[(5, 1), (14, 3), (7, 3), (9, 3), (11, 3)],
    dice=(2, 2),
)


def test_an_elimination_is_the_experts_and_the_casual_players_choice():
    best = Move(piece=Piece.SAILOR)
    assert get_bot("piratas", "expert").choose(STRIKE) == best
    assert get_bot("piratas", "medium").choose(STRIKE) == best
    hint = coach("piratas").hint(STRIKE)
    assert hint.unit is Unit.LIVES_AHEAD
    assert hint.best.action == best


def test_the_search_sees_an_elimination_as_material():
    values = dict((a.piece, v) for a, v in move_values(STRIKE, depth=1))
    assert values[Piece.SAILOR] == max(values.values())


def test_the_evaluation_is_zero_sum():
    board = board_of(STRIKE)
    for side in (0, 1):
        assert evaluate(board, side, 0) == -evaluate(board, 1 - side, 0)


def test_a_won_game_is_worth_the_most():
    blue = [(1, 3), (8, 3), (10, 3), (3, 3), (12, 3)]
    red = [(5, 1)] + [(None, 0)] * (CREW - 1)
    state = position(blue, red, dice=(2, 2))
    values = dict((a.piece, v) for a, v in move_values(state))
    assert values[Piece.SAILOR] == 1000.0


def test_on_a_double_the_pieces_that_stay_are_one_decision():
    """d1 = d2: the captain (d2 − d1), the parrot and the monkey (|d1 − d2|) all stay put."""
    state = position(
        blue=[(1, 3), (8, 3), (10, 3), (3, 3), (12, 3)],
        red=[(6, 3), (14, 3), (7, 3), (9, 3), (11, 3)],
        dice=(4, 4),
    )
    hint = coach("piratas").hint(state)
    labels = [str(o.label) for o in hint.options]
    assert len(labels) == 3  # the explorer moves, the sailor moves, nobody moves
    stay = hint.option(Move(piece=Piece.PARROT))
    assert str(stay.label) == "No piece moves: captain, parrot, monkey stay put"
    assert stay.actions == (
        Move(piece=Piece.CAPTAIN),
        Move(piece=Piece.PARROT),
        Move(piece=Piece.MONKEY),
    )
    assert coach("piratas").review(state, Move(piece=Piece.MONKEY)).option == stay


def test_a_throw_and_an_opening_move_are_no_choice():
    state = GAME.new_game(["Blue", "Red"])
    while GAME.pending_throw(state) is not None:  # the roll-off: blue 6, red 1
        state = GAME.apply_chance(state, (6,) if GAME.pending_throw(state).player == 0 else (1,))
    assert coach("piratas").hint(state).forced  # throw the dice
    state = GAME.apply_chance(GAME.apply(state, {"kind": "roll"}), (3, 5))
    assert state.opening_piece is Piece.CAPTAIN
    assert coach("piratas").hint(state).forced  # the opening moves the captain
    assert not coach("piratas").hint(STRIKE).forced
