"""A short Batalla de Piratas on loaded dice, worked out with the rules, for both input styles.

One life per piece. Ana (blue) wins the roll-off 6-1, the ten opening moves follow (the dice
below were picked so that the crews end up interleaved round 15/0), and then Ana strikes five
times in a row, each strike earning the next throw. The five strikes are not written here:
`strike_chain` searches the rules for them, so the script stays true to the rules it plays.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product

from rules.piratas import BLUE, RED, Move, Piece, Piratas, PiratasState, Roll

LIVES = 1
ROLL_OFF = (6, 1)  # blue (Ana) rolls 6, red (Bruno) 1: blue starts
OPENING_DICE = (
    (5, 4), (1, 5), (1, 2), (6, 6), (5, 1), (5, 5), (4, 1), (2, 1), (5, 2), (3, 4),
)  # fmt: skip
"""The ten opening throws, blue and red in turn, each moving the next piece in order."""

game = Piratas()
THROWS = tuple(product(range(1, 7), repeat=2))


@dataclass(frozen=True)
class Turn:
    side: int
    dice: tuple[int, int]
    piece: Piece
    strikes: bool = False


def throw(state: PiratasState, dice: tuple[int, int]) -> PiratasState:
    return game.apply_chance(game.apply(state, Roll()), dice)


def after_roll_off() -> PiratasState:
    state = game.new_game(["Ana", "Bruno"], {"lives": LIVES})
    for face in ROLL_OFF:
        state = game.apply_chance(state, [face])
    return state


def opening() -> tuple[list[Turn], PiratasState]:
    state, turns = after_roll_off(), []
    for dice in OPENING_DICE:
        state = throw(state, dice)
        piece = state.opening_piece
        assert piece is not None
        turns.append(Turn(state.side, dice, piece))
        state = game.apply(state, Move(piece=piece))
    return turns, state


def strike_chain(state: PiratasState, strikes_left: int) -> list[Turn] | None:
    """Throws and moves by which the side to move strikes on and on until it wins."""
    if game.is_over(state):
        return []
    if strikes_left == 0:
        return None
    for dice in THROWS:
        thrown = throw(state, dice)
        for piece, preview in game.preview(thrown).items():
            if not preview.strikes:
                continue
            rest = strike_chain(game.apply(thrown, Move(piece=piece)), strikes_left - 1)
            if rest is not None:
                return [Turn(state.side, dice, piece, strikes=True), *rest]
    return None


@cache
def turns() -> tuple[Turn, ...]:
    first, state = opening()
    assert state.side == BLUE and not state.in_opening
    chain = strike_chain(state, 5)
    assert chain is not None, "these opening dice leave blue no five-strike chain"
    return (*first, *chain)


def loaded_faces() -> list[int]:
    return [*ROLL_OFF, *(face for turn in turns() for face in turn.dice)]


__all__ = ["BLUE", "RED", "Turn", "loaded_faces", "turns"]
