"""A whole two-player Multiplicación game on loaded dice, described once for every test.

Ana starts (roll-off 6 6 5 against 1 2 3). Between them the twenty turns keep and throw again
triples and pairs, refuse the multiplier at both penalties (3 and 4), and score 0 and below
zero: Ana 372, Bruno 292.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.multiplicacion import Accept, Keep, MultiplicacionAction, PenaltyRethrow, Rethrow, Throw

ROLL_OFF = ((6, 6, 5), (1, 2, 3))  # Ana 17, Bruno 6: Ana starts
PLAYERS = ("Ana", "Bruno")

ACTIONS: dict[str, type[MultiplicacionAction]] = {
    "throw": Throw,
    "keep": Keep,
    "rethrow": Rethrow,
    "accept": Accept,
    "penalty": PenaltyRethrow,
}
"""A move's name is also the id of its button on the screen."""


@dataclass(frozen=True)
class Move:
    name: str
    faces: tuple[int, ...] = ()
    """The dice this move throws (throw, rethrow, penalty)."""

    @property
    def action(self) -> MultiplicacionAction:
        return ACTIONS[self.name]()


def turn(*moves: tuple[str, tuple[int, ...]] | str) -> tuple[Move, ...]:
    return tuple(Move(m) if isinstance(m, str) else Move(*m) for m in moves)


def plain(three: tuple[int, ...], two: tuple[int, ...], last: int) -> tuple[Move, ...]:
    """Throw, throw, throw, accept."""
    return turn(("throw", three), ("throw", two), ("throw", (last,)), "accept")


# (player, moves, score), in the order they are played.
TURNS: list[tuple[str, tuple[Move, ...], int]] = [
    ("Ana", plain((1, 4, 5), (2, 3), 5), 40),
    (
        "Bruno",
        turn(
            ("throw", (6, 6, 6)),
            "keep",
            ("throw", (2, 2)),
            ("rethrow", (5, 4)),
            ("throw", (1,)),
            ("penalty", (4,)),
        ),
        28,  # (6 + 5 − 4) × 4
    ),
    (
        "Ana",
        turn(
            ("throw", (3, 3, 3)),
            ("rethrow", (2, 2, 2)),
            ("rethrow", (1, 2, 6)),
            ("throw", (6, 5)),
            ("throw", (6,)),
            "accept",
        ),
        72,
    ),
    (
        "Bruno",
        turn(("throw", (1, 1, 2)), ("throw", (1, 1)), "keep", ("throw", (2,)), ("penalty", (6,))),
        0,  # (2 + 1 − 3) × 6
    ),
    (
        "Ana",
        turn(
            ("throw", (1, 1, 1)),
            "keep",
            ("throw", (1, 1)),
            "keep",
            ("throw", (1,)),
            ("penalty", (6,)),
        ),
        -6,  # (1 + 1 − 3) × 6: the penalty takes the sum below zero
    ),
    ("Bruno", plain((6, 5, 4), (3, 6), 4), 48),
    ("Ana", plain((2, 3, 4), (1, 5), 3), 27),
    (
        "Bruno",
        turn(
            ("throw", (5, 5, 1)),
            ("throw", (4, 4)),
            ("rethrow", (4, 4)),
            ("rethrow", (2, 3)),
            ("throw", (6,)),
            "accept",
        ),
        48,
    ),
    (
        "Ana",
        turn(("throw", (6, 1, 1)), ("throw", (2, 1)), ("throw", (2,)), ("penalty", (5,))),
        25,  # (6 + 2 − 3) × 5
    ),
    ("Bruno", plain((3, 4, 2), (4, 1), 5), 40),
    (
        "Ana",
        turn(("throw", (6, 6, 2)), ("throw", (6, 6)), "keep", ("throw", (3,)), "accept"),
        36,
    ),
    (
        "Bruno",
        turn(
            ("throw", (2, 2, 2)),
            ("rethrow", (5, 5, 5)),
            "keep",
            ("throw", (3, 1)),
            ("throw", (2,)),
            "accept",
        ),
        16,
    ),
    (
        "Ana",
        turn(
            ("throw", (4, 4, 4)),
            "keep",
            ("throw", (3, 3)),
            ("rethrow", (1, 2)),
            ("throw", (6,)),
            "accept",
        ),
        36,
    ),
    (
        "Bruno",
        turn(("throw", (5, 6, 1)), ("throw", (5, 6)), ("throw", (1,)), ("penalty", (1,))),
        8,  # (6 + 6 − 4) × 1
    ),
    ("Ana", plain((1, 2, 3), (2, 4), 4), 28),
    ("Bruno", plain((6, 3, 3), (5, 2), 6), 66),
    (
        "Ana",
        turn(("throw", (5, 4, 3)), ("throw", (6, 1)), ("throw", (2,)), ("penalty", (6,))),
        42,  # (5 + 6 − 4) × 6
    ),
    ("Bruno", plain((2, 1, 4), (3, 2), 5), 35),
    ("Ana", plain((6, 5, 4), (2, 6), 6), 72),
    (
        "Bruno",
        turn(("throw", (1, 2, 1)), ("throw", (1, 1)), "keep", ("throw", (1,)), "accept"),
        3,
    ),
]

TOTALS = {player: sum(score for who, _, score in TURNS if who == player) for player in PLAYERS}
ANA_TOTAL = TOTALS["Ana"]
BRUNO_TOTAL = TOTALS["Bruno"]


def moves() -> list[Move]:
    return [move for _, turn_moves, _ in TURNS for move in turn_moves]


def loaded_faces() -> list[int]:
    faces = [face for throw in ROLL_OFF for face in throw]
    for move in moves():
        faces += move.faces
    return faces
