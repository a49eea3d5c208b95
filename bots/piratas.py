"""Batalla de Piratas: an expectimax search over the dice, and a casual greedy player.

The search runs on a light copy of the board (squares and lives in two tuples) moved by the
rules' own `offset` and `destination`, so it plays exactly the rules' moves without building
a pydantic state per node. From the throw on the table it tries every living piece; after a
move the side to throw next (the same side after a strike, else the other) meets each of the
36 throws with its best reply, and so on to `depth` decisions; the leaves are scored by
material (lives, plus a bonus for each piece still on the board) and by the threats on the
board (the chance that each side strikes on its next throw).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any, ClassVar, cast

from rules.errors import N_, Text
from rules.piratas import (
    OPENING_MOVES,
    PIECES,
    Move,
    Piratas,
    PiratasState,
    destination,
    offset,
    piece_name,
)

from .base import WIN_SCORE, Bot, Coach, Thresholds, Unit

CREW = len(PIECES)
THROWS = tuple(product(range(1, 7), repeat=2))
"""The 36 ordered throws (d1, d2), each of probability 1/36."""
OFFSETS = tuple(tuple(offset(piece, d1, d2) for piece in PIECES) for d1, d2 in THROWS)
WIN = WIN_SCORE
ALIVE = 3.0
"""What a piece on the board is worth beyond its lives: one more piece to choose from."""
THREAT = 2.0
"""The worth of the chance to strike on the next throw (a life and an extra throw)."""

Board = tuple[tuple[int | None, ...], tuple[int, ...]]
"""(squares, lives) of the ten pieces: blue's five then red's, in piece order."""


def board_of(state: PiratasState) -> Board:
    squares = tuple(t.square for crew in state.crews for t in crew)
    lives = tuple(t.lives for crew in state.crews for t in crew)
    return squares, lives


def play(board: Board, side: int, piece: int, move: int) -> tuple[Board, bool, bool]:
    """Move `piece` of `side` by `move` squares (signed, as `offset` gives it), after the
    opening. Returns the new board, whether it struck (an extra throw), and whether it won."""
    squares, lives = board
    me = side * CREW + piece
    start = squares[me]
    assert start is not None
    if move == 0:
        return board, False, False
    base = side * CREW
    teammates = frozenset(
        square
        for j, square in enumerate(squares[base : base + CREW])
        if j != piece and square is not None
    )
    end = destination(start, move, teammates)
    enemy = (1 - side) * CREW
    target = -1
    for j in range(enemy, enemy + CREW):
        if squares[j] == end and (target < 0 or lives[j] < lives[target]):
            target = j
    new_squares = list(squares)
    new_squares[me] = end
    if target < 0:
        return (tuple(new_squares), lives), False, False
    new_lives = list(lives)
    new_lives[target] -= 1
    if new_lives[target] == 0:
        new_squares[target] = None
        new_lives[me] += 2
        won = all(new_squares[j] is None for j in range(enemy, enemy + CREW))
    else:
        new_lives[me] += 1
        won = False
    return (tuple(new_squares), tuple(new_lives)), True, won


def _reach() -> tuple[tuple[dict[int, int], ...], ...]:
    """REACH[piece][square][target]: the throws (a bit each) that move the piece from the
    square to the target, teammates aside (a heuristic's approximation)."""
    table = []
    for piece in range(CREW):
        rows = []
        for square in range(16):
            row: dict[int, int] = {}
            for throw in range(len(THROWS)):
                move = OFFSETS[throw][piece]
                if move:
                    target = destination(square, move, frozenset())
                    row[target] = row.get(target, 0) | 1 << throw
            rows.append(row)
        table.append(tuple(rows))
    return tuple(table)


REACH = _reach()


def _strike_chance(board: Board, side: int) -> float:
    """The chance that `side` can strike with its next throw (teammates aside)."""
    squares, _ = board
    enemy = (1 - side) * CREW
    targets = {square for square in squares[enemy : enemy + CREW] if square is not None}
    throws = 0
    base = side * CREW
    for j in range(CREW):
        square = squares[base + j]
        if square is not None:
            row = REACH[j][square]
            for target in targets:
                throws |= row.get(target, 0)
    return throws.bit_count() / len(THROWS)


def evaluate(board: Board, side: int, to_throw: int) -> float:
    """The position for `side`, with `to_throw` the side that throws next."""
    squares, lives = board
    score = 0.0
    for j in range(2 * CREW):
        if squares[j] is not None:
            worth = lives[j] + ALIVE
            score += worth if j // CREW == side else -worth
    threat = THREAT * _strike_chance(board, to_throw)
    return score + threat if to_throw == side else score - threat


def _after(board: Board, side: int, struck: bool, won: bool, depth: int) -> float:
    """The value for `side`, who just moved, of the position that followed.

    A piece's move depends on the throw only through its offset (the sailor's d1, the
    monkey's |d1 - d2|, ...), so each (piece, offset) is searched once for the 36 throws."""
    if won:
        return WIN
    nxt = side if struck else 1 - side
    if depth == 0:
        return evaluate(board, side, nxt)
    squares = board[0]
    pieces = [j for j in range(CREW) if squares[nxt * CREW + j] is not None]
    known: dict[tuple[int, int], float] = {}
    total = 0.0
    for row in OFFSETS:
        best = -WIN - 1
        for j in pieces:
            key = (j, row[j])
            value = known.get(key)
            if value is None:
                after, strikes, wins = play(board, nxt, j, row[j])
                value = known[key] = _after(after, nxt, strikes, wins, depth - 1)
            if value > best:
                best = value
        total += best if nxt == side else -best
    return total / len(OFFSETS)


def move_values(state: PiratasState, depth: int = 2) -> list[tuple[Move, float]]:
    """Each piece the side may move on the throw on the table, with its search value."""
    board = board_of(state)
    assert state.dice is not None
    throw = THROWS.index(state.dice)
    values = []
    for piece in PIECES:
        j = PIECES.index(piece)
        if board[0][state.side * CREW + j] is None:
            continue
        after, struck, won = play(board, state.side, j, OFFSETS[throw][j])
        values.append((Move(piece=piece), _after(after, state.side, struck, won, depth - 1)))
    return values


@dataclass
class PiratasCoach(Coach):
    """Values are the search's lives ahead (a piece on the board worth ALIVE lives more,
    threats counted), WIN for a won game."""

    game_id = "piratas"
    thresholds: ClassVar[dict[Unit, Thresholds]] = {
        Unit.LIVES_AHEAD: Thresholds(good=0.25, inaccuracy=0.75, mistake=2.0)
    }
    depth: int = 2

    def unit(self, state: PiratasState) -> Unit:
        return Unit.LIVES_AHEAD

    def values(self, state: PiratasState) -> list[tuple[Any, float]]:
        legal = self.game.legal_actions(state)
        if state.stage != "move" or state.opening_moves < OPENING_MOVES:
            board = board_of(state)
            return [(action, evaluate(board, state.side, state.side)) for action in legal]
        return move_values(state, self.depth)

    def decision(self, state: PiratasState, action: Any) -> Hashable:
        """A move is where it leaves the board: on a double the captain, the parrot and the
        monkey all stay where they are, one decision."""
        if not isinstance(action, Move) or state.stage != "move" or state.in_opening:
            return action  # frozen models hash
        assert state.dice is not None
        j = PIECES.index(action.piece)
        return play(board_of(state), state.side, j, OFFSETS[THROWS.index(state.dice)][j])

    def describe(self, state: PiratasState, actions: Sequence[Any]) -> Text:
        if len(actions) == 1:
            return super().describe(state, actions)
        pieces = tuple(piece_name(action.piece) for action in actions)
        return Text(N_("No piece moves: {pieces} stay put"), {"pieces": pieces})


class PiratasMedium(Bot):
    """A casual player: strikes when he can (an elimination first, then the weakest target),
    else moves the first piece, in the fixed order, that ends out of reach of the enemy's
    next throw (the first piece if none does)."""

    game_id = "piratas"
    level = "medium"

    def _choose(self, state: PiratasState, legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        previews = cast(Piratas, self.game).preview(state)
        strikes = [p for p in previews.values() if p.strikes]
        if strikes:
            best = min(strikes, key=lambda p: (not p.eliminates, p.target_lives))
            return Move(piece=best.piece)
        board = board_of(state)
        throw = THROWS.index(state.dice)
        for action in legal:
            j = PIECES.index(action.piece)
            after, _, _ = play(board, state.side, j, OFFSETS[throw][j])
            if not _threatened(after, state.side, PIECES.index(action.piece)):
                return action
        return legal[0]


def _threatened(board: Board, side: int, piece: int) -> bool:
    """Whether some enemy piece could land on this piece with some throw."""
    squares, _ = board
    square = squares[side * CREW + piece]
    enemy = 1 - side
    base = enemy * CREW
    others = [
        (j, start) for j, start in enumerate(squares[base : base + CREW]) if start is not None
    ]
    for throw in range(len(THROWS)):
        for j, start in others:
            move = OFFSETS[throw][j]
            if move == 0:
                continue
            teammates = frozenset(s for k, s in others if k != j)
            if destination(start, move, teammates) == square:
                return True
    return False
